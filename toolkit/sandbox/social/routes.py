"""HTTP of the social area: story (:mod:`.story`), messenger (:mod:`.talk`), channels (:mod:`.channel`) and
the seeded web pages of the scrape step (``GET /sandbox/social/pages/<slug>``)."""
from __future__ import annotations

from starlette.routing import Route

from .channel import channel_routes
from .pages import serve_page
from .story import story_routes
from .talk import talk_routes


def routes(sandbox):
    out = {"api": [], "sandbox": [Route("/social/pages/{slug}", serve_page)]}
    for part in (story_routes(), talk_routes(), channel_routes()):
        for host, rs in part.items():
            out[host].extend(rs)
    return out
