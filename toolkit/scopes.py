"""The consent items (scope ids) and service-term tags the toolkit knows, and the check that helps with typos.

A scope id that is a near miss of one of :data:`SCOPE_IDS` (a typo: ``profle``) raises a
:class:`~toolkit.errors.ParameterError` naming it, the nearest known id and the known ones, before anything is
sent. An id far from every known one is sent as it is (the real service may know ids the toolkit does not): the
service answers ``invalid_scope`` at login or ``-2`` at revoke, and the error names the ids.

>>> check_scopes(["profle"], "scopes", strict=True)
Traceback (most recent call last):
...
toolkit.errors.ParameterError: scopes='profle': 'profle' is not a scope id; did you mean 'profile'? Valid: profile, account_email, openid, name, gender, birthday, age_range, phone_number, shipping_address, friends, talk_chats, talk_message, story_publish, story_permalink, plusfriends, account_status_details
>>> check_scopes(["profile", "openid", "birthyear"], "scopes")
['profile', 'openid', 'birthyear']
"""
from __future__ import annotations

from typing import Iterable

from .errors import closed_set_error, suggest

__all__ = ["SCOPE_IDS", "check_scopes"]

SCOPE_IDS = ("profile", "account_email", "openid", "name", "gender", "birthday", "age_range", "phone_number",
             "shipping_address", "friends", "talk_chats", "talk_message", "story_publish", "story_permalink",
             "plusfriends", "account_status_details")
"""The consent items (scope ids) the sandbox implements."""
TYPO = 0.85
"""How close (:func:`difflib.get_close_matches` ratio) an unknown id must be to a known one to count as its typo:
``profle`` (0.92) is one; ``birthyear``, a real id the toolkit does not list, is far enough from ``birthday``
(0.71) to be sent."""


def check_scopes(ids: Iterable[str], name: str = "scopes", *, strict: bool = False) -> list[str]:
    """``ids`` unchanged when each is a known scope id (``strict=False``: or far from every known one);
    else a ParameterError naming the first offending id, the nearest known one and the known ones."""
    ids = list(ids)
    for value in ids:
        if value not in SCOPE_IDS and (strict or suggest(value, SCOPE_IDS, TYPO) is not None):
            raise closed_set_error(name, value, SCOPE_IDS, "a scope id")
    return ids
