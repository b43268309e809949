"""The redirect and the headless authorization pages of the OAuth flow, shared by the user login
(:mod:`toolkit.oauth`) and the business login (:mod:`toolkit.business`) — a neutral module, so that no
client area imports another.

>>> code_from_redirect("http://localhost/cb?code=abc&state=s1", "s1")
'abc'
"""
from __future__ import annotations

import html
import re
from urllib.parse import parse_qs, urlsplit

from .errors import RedirectError, ToolkitError, redirect_error

__all__ = ["code_from_redirect", "drive_pages"]

_HIDDEN_Q = re.compile(r"name='q' value='([^']*)'")


def code_from_redirect(redirect_url: str, state: str | None) -> str:
    """The authorization code of a redirect URL, after checking its ``state`` against the request's; a redirect
    error (``error``/``error_description``) raises :class:`RedirectError`."""
    query = parse_qs(urlsplit(redirect_url).query)
    got_state = query["state"][0] if query.get("state") else None
    if got_state != state:
        raise RedirectError("state_mismatch", "the redirect's state differs from the request's (possible CSRF)",
                            got_state)
    err = redirect_error(redirect_url)
    if err is not None:
        raise err
    code = query["code"][0] if query.get("code") else None
    if not code:
        raise RedirectError("no_code", "the redirect URL carries neither code nor error", got_state)
    return code


def drive_pages(browser, url: str, redirect_uri: str, *, login_url: str, login: dict, on_page, steps: int,
                what: str) -> str:
    """Drive the sandbox's authorization pages headlessly with an httpx client (keeping its cookies), as a
    person would, until the redirect to ``redirect_uri``; return that URL.

    Redirects are followed, an error page raises :class:`RedirectError`, the login form is filled with
    ``login``; any other page goes to ``on_page(text, q)``, which posts the page's form and returns the response
    (or None for a page it does not know).
    """
    r = browser.get(url)
    for _ in range(steps):
        if r.status_code in (301, 302, 303, 307):
            location = r.headers["location"]
            if location.startswith(redirect_uri):
                return location
            r = browser.get(location)
            continue
        text = r.text
        if r.status_code >= 400 and "<form" not in text:
            code = re.search(r"id='error-code'>([^<]+)<", text)
            raise RedirectError(code.group(1) if code else f"HTTP {r.status_code}",
                                re.sub(r"<[^>]+>", " ", text)[:200].strip())
        m = _HIDDEN_Q.search(text)
        if not m:
            raise ToolkitError(f"unexpected page from the authorization server (HTTP {r.status_code})")
        q = html.unescape(m.group(1))
        if "id='login'" in text:
            if "id='error'" in text:
                raise ToolkitError(f"login failed for {login.get('email')}: wrong e-mail or password")
            r = browser.post(login_url, data={"q": q, **login})
            continue
        r = on_page(text, q)
        if r is None:
            raise ToolkitError("unexpected page from the authorization server")
    raise ToolkitError(f"{what} did not reach the redirect URI")
