"""The scrape step (social leaves it "not shown"): web pages → the link-information object.

Sandbox choice: ``GET {api_url}/v1/api/story/linkinfo?url=`` (Bearer, story users) returns the object with the
members the spec names (``url``, ``requested_url``, ``host``, ``title``, ``image`` array, ``description``,
``section``, ``type``). It knows the seeded pages (``toolkit/data/social/pages.json``) both under their own URL
and as served by the sandbox at ``/sandbox/social/pages/<slug>`` (HTML with Open Graph tags); any other page
on a loopback host is fetched and its Open Graph tags read. Other URLs cannot be reached from the sandbox and
answer HTTP 400 code -2. ``url`` is the page's canonical URL (``og:url``), ``requested_url`` the URL asked for.
"""
from __future__ import annotations

import html
import json
from html.parser import HTMLParser
from urllib.parse import urlsplit

from starlette.requests import Request
from starlette.responses import HTMLResponse

from ..pages import FONT_CSS, FONT_STACK
from ..web import api_error, sandbox_of
from .common import SocialParts

LOOPBACK = ("127.0.0.1", "localhost", "::1", "[::1]")


class _OG(HTMLParser):
    def __init__(self):
        super().__init__()
        self.meta: dict[str, list[str]] = {}
        self.title, self._in_title = "", False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "meta" and (a.get("property") or a.get("name")) and a.get("content") is not None:
            self.meta.setdefault((a.get("property") or a.get("name")).lower(), []).append(a["content"])
        self._in_title = tag == "title"

    def handle_endtag(self, tag):
        self._in_title = False

    def handle_data(self, data):
        if self._in_title:
            self.title += data


def page_html(page: dict) -> str:
    metas = [("og:url", page["url"]), ("og:title", page["title"]), ("og:description", page["description"]),
             ("og:type", page["type"]), ("article:section", page["section"])]
    metas += [("og:image", img) for img in page["image"]]
    tags = "\n".join(f'<meta property="{k}" content="{html.escape(v)}">' for k, v in metas)
    return (f"<!doctype html><html><head><meta charset='utf-8'><title>{html.escape(page['title'])}</title>\n{tags}\n"
            f"<style>{FONT_CSS}body{{font-family:{FONT_STACK}}}</style></head><body><h1>{html.escape(page['title'])}</h1><p>{html.escape(page['description'])}</p></body></html>")


def parse_page(text: str, requested_url: str) -> dict:
    p = _OG()
    p.feed(text)
    first = lambda k, d="": (p.meta.get(k) or [d])[0]  # noqa: E731
    url = first("og:url", requested_url)
    return {"url": url, "requested_url": requested_url, "host": urlsplit(url).hostname or "",
            "title": first("og:title", p.title.strip()), "image": p.meta.get("og:image", []),
            "description": first("og:description", first("description")), "section": first("article:section"),
            "type": first("og:type", "website")}


class PagesMixin(SocialParts):
    def pages(self) -> list[dict]:
        return json.loads((self.sandbox.datasets / "social" / "pages.json").read_text("utf-8"))

    def seeded_page(self, url: str) -> dict | None:
        base = (self.sandbox.base_url or "").rstrip("/")
        for page in self.pages():
            if url.rstrip("/") in (page["url"], f"{base}/sandbox/social/pages/{page['slug']}"):
                return page
        return None

    async def scrape(self, url: str) -> dict:
        parts = urlsplit(url)
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise api_error(400, -2, "url must be an http(s) URL")
        page = self.seeded_page(url)
        if page is not None:
            info = parse_page(page_html(page), url)
        elif parts.hostname in LOOPBACK:
            import httpx

            try:
                async with httpx.AsyncClient(timeout=3.0, follow_redirects=True) as http:
                    resp = await http.get(url)
            except httpx.HTTPError as exc:
                raise api_error(400, -2, f"the page could not be scraped: {type(exc).__name__}") from None
            if resp.status_code != 200:
                raise api_error(400, -2, f"the page could not be scraped: HTTP {resp.status_code}")
            info = parse_page(resp.text, url)
        else:
            raise api_error(400, -2, "the page could not be scraped (the sandbox reaches seeded pages and "
                                     "loopback hosts only)")
        self.store.execute("INSERT INTO social_scrapes (info) VALUES (?) ON CONFLICT(info) DO NOTHING",
                           json.dumps(info, ensure_ascii=False, sort_keys=True))
        return info

    def was_scraped(self, info: dict) -> bool:
        return self.store.one("SELECT 1 FROM social_scrapes WHERE info = ?",
                              json.dumps(info, ensure_ascii=False, sort_keys=True)) is not None


async def serve_page(request: Request):
    model = sandbox_of(request).model("social")
    slug = request.path_params["slug"]
    page = next((p for p in model.pages() if p["slug"] == slug), None)
    if page is None:
        return HTMLResponse("<h1>not found</h1>", 404)
    return HTMLResponse(page_html(page))
