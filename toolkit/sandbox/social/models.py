"""Social area state: story feed, messenger and channels (social §2–§5, §7–§8; webhooks §6 live elsewhere).

The rules and the choices where the spec is silent are written in the docstrings of :mod:`.story`,
:mod:`.talk`, :mod:`.channel` and :mod:`.pages`. Seed data: ``toolkit/data/social/`` (fictional, deterministic).
"""
from __future__ import annotations

import json

from .channel import SCHEMA as CHANNEL_SCHEMA, ChannelMixin
from .pages import PagesMixin
from .story import SCHEMA as STORY_SCHEMA, StoryMixin
from .talk import SCHEMA as TALK_SCHEMA, TalkMixin

SCHEMA = STORY_SCHEMA + TALK_SCHEMA + CHANNEL_SCHEMA


class Model(StoryMixin, TalkMixin, ChannelMixin, PagesMixin):
    def __init__(self, sandbox):
        self.sandbox = sandbox
        self.store = sandbox.store
        self._contacts = {c["id"]: c for c in json.loads(
            (sandbox.datasets / "social" / "contacts.json").read_text("utf-8"))}

    def seed(self, rng) -> None:
        self.seed_stories(rng)
        self.seed_talk(rng)
        self.seed_channels(rng)

    def person(self, user_id: int) -> dict | None:
        """A demo user (with ``is_talk_user``...) or a seeded messenger contact."""
        user = self.sandbox.apps.user(int(user_id))
        if user is not None:
            return user
        contact = self._contacts.get(int(user_id))
        return dict(contact, is_talk_user=True, is_story_user=False) if contact else None
