"""Helpers shared by the story, messenger and channel parts of the social area: consent checks, people
(demo users plus seeded messenger contacts), per-app uuids and time formats."""
from __future__ import annotations

import base64
import hashlib
from datetime import datetime, timedelta, timezone
from typing import TYPE_CHECKING

from ..web import api_error

if TYPE_CHECKING:
    from ..app import Sandbox
    from ..store import Store

KST = timezone(timedelta(hours=9))


def rfc3339(ts: float) -> str:
    return datetime.fromtimestamp(ts, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def parse_rfc3339(text: str) -> int:
    return int(datetime.fromisoformat(text.replace("Z", "+00:00")).timestamp())


def kst_text(ts: float) -> str:
    """``yyyy-MM-dd HH:mm:ss`` in Korea time (the customer-file sample's format)."""
    return datetime.fromtimestamp(ts, KST).strftime("%Y-%m-%d %H:%M:%S")


def has_any(token: dict | None, *scopes: str) -> bool:
    """Consent check; the admin-key mode (token None) sees what the user consented to for the app."""
    return token is None or any(s in token["scopes"] for s in scopes)


def need_scope(token: dict | None, *scopes: str) -> None:
    """HTTP 403 code -402 when none of ``scopes`` was consented (the real platform's 'insufficient scopes')."""
    if not has_any(token, *scopes):
        raise api_error(403, -402, f"insufficient scopes: the user has not consented to {' or '.join(scopes)}")


def make_uuid(seed: int, app_id: str, user_id: int) -> str:
    digest = hashlib.sha256(f"toolkit-sandbox:{seed}:{app_id}:uuid:{user_id}".encode()).digest()
    return base64.b64encode(digest, altchars=b"Ab").decode()[:38]


class SocialParts:
    """What the parts of the social model (story, messenger, channels, pages) use of :class:`.models.Model`,
    which sets and defines them: the sandbox, its store and the people."""

    sandbox: Sandbox
    store: Store

    if TYPE_CHECKING:
        def person(self, user_id: int) -> dict | None: ...
