"""HTML pages of the sandbox's authorization host: login, account selection, consent, errors (KOE codes).

Plain HTML strings (no template engine). Every form carries the original authorization request as the hidden
field ``q`` (its query string), so the flow is stateless apart from the account-session cookie. Forms are
simple enough for a headless client to fill in (field names are stable: ``email``, ``password``,
``stay_logged_in``, ``scope``, ``term``, ``action``, ``account``).
"""
from __future__ import annotations

import io
from functools import lru_cache
from html import escape

from starlette.responses import HTMLResponse

__all__ = ["login_page", "select_page", "consent_page", "error_page", "FONT_CSS", "FONT_ROUTE", "FONT_STACK", "font_bytes"]

FONT_ROUTE = "/sandbox/fonts/"
"""Where the sandbox serves its bundled Hangul web font (``GET /sandbox/fonts/NanumGothic.ttf``)."""

FONT_CSS = ("@font-face{font-family:'NanumGothic';src:url('" + FONT_ROUTE + "NanumGothic.ttf') format('truetype');"
            "font-weight:normal;font-display:swap}"
            "@font-face{font-family:'NanumGothic';src:url('" + FONT_ROUTE + "NanumGothicBold.ttf') format('truetype');"
            "font-weight:bold;font-display:swap}")
"""CSS every sandbox HTML page includes: Hangul draws with the bundled NanumGothic (the same TTF matplotlib
uses, :mod:`toolkit.fonts`) on a machine without a CJK font. Use ``font-family: ... NanumGothic, sans-serif``."""

FONT_STACK = "system-ui,'NanumGothic',sans-serif"


_FONT_FILES = {"NanumGothic.ttf": False, "NanumGothicBold.ttf": True}    # name -> bold


def font_bytes(name: str) -> bytes | None:
    """The web font served at ``FONT_ROUTE + name`` (None for any other name): the bundled TTF without its
    ``TSI*`` tables (hinting sources of the font editor; browsers' font sanitiser rejects the whole font for
    TSI3's zero length). Built once per process with fontTools (a matplotlib dependency), about 0.2 s, and kept
    per font (two at most; the name comes from the request path, so other names are answered without being kept:
    a cache keyed by the name grew with every name asked)."""
    bold = _FONT_FILES.get(name)
    return None if bold is None else _font_bytes(bold)


@lru_cache(maxsize=2)       # the two fonts, regular and bold (~4.3 MB each)
def _font_bytes(bold: bool) -> bytes | None:
    from fontTools.ttLib import TTFont

    from ...fonts import FontMissingError, hangul_font_path

    try:
        path = hangul_font_path(bold)
    except FontMissingError:
        return None
    with TTFont(str(path), lazy=True) as font:        # closes the TTF file it reads from
        for table in [t for t in font.keys() if t.startswith("TSI")]:
            del font[table]
        out = io.BytesIO()
        font.save(out)
    return out.getvalue()


_STYLE = """<style>""" + FONT_CSS + """body{font-family:""" + FONT_STACK + """;max-width:28rem;margin:3rem auto;color:#222}
button,input{font-family:inherit}h1{font-size:1.3rem}label{display:block;margin:.5rem 0}input[type=email],input[type=password]{width:100%;padding:.4rem}
button{padding:.5rem 1rem;margin:.5rem .5rem 0 0}.err{color:#b00}.muted{color:#777;font-size:.85rem}</style>"""


def _page(title: str, body: str, status: int = 200) -> HTMLResponse:
    html = (f"<!doctype html><html lang='en'><head><meta charset='utf-8'><title>{escape(title)}</title>{_STYLE}"
            f"</head><body>{body}<p class='muted'>Sandbox authorization server — demo users log in with their "
            f"e-mail and the password <code>sandbox</code>.</p></body></html>")
    return HTMLResponse(html, status_code=status, headers={"Cache-Control": "no-store"})


def _hidden(q: str) -> str:
    return f"<input type='hidden' name='q' value='{escape(q, quote=True)}'>"


def login_page(q: str, *, login_hint: str = "", error: str = "", create: bool = False, app_name: str = "") -> HTMLResponse:
    title = "Create an account" if create else "Log in"
    note = ("<p class='muted'>Account sign-up (<code>prompt=create</code>): the sandbox has only its demo users; "
            "log in with one of them to continue to the consent screen.</p>") if create else ""
    err = f"<p class='err' id='error'>{escape(error)}</p>" if error else ""
    body = (f"<h1>{title}</h1><p>to continue to <b>{escape(app_name)}</b></p>{note}{err}"
            f"<form method='post' action='login' id='login'>{_hidden(q)}"
            f"<label>E-mail <input type='email' name='email' value='{escape(login_hint, quote=True)}' autofocus></label>"
            "<label>Password <input type='password' name='password'></label>"
            "<label><input type='checkbox' name='stay_logged_in' value='true'> Stay logged in (1 month)</label>"
            "<button type='submit' name='action' value='login'>Log in</button></form>")
    return _page(title, body, 401 if error else 200)


def select_page(q: str, accounts: list[dict]) -> HTMLResponse:
    buttons = "".join(f"<button type='submit' name='account' value='{a['id']}'>{escape(a['nickname'])} "
                      f"({escape(a['email'])})</button>" for a in accounts)
    body = f"<h1>Choose an account</h1><form method='post' action='select' id='select'>{_hidden(q)}{buttons}</form>"
    return _page("Choose an account", body)


def consent_page(q: str, *, app_name: str, user: dict, scopes: list[dict], terms: list[dict]) -> HTMLResponse:
    """``scopes``/``terms``: dicts with ``id``/``tag``, ``display_name``, ``required``."""
    rows = []
    for s in scopes:
        req = " checked disabled" if s["required"] else " checked"
        hidden = f"<input type='hidden' name='scope' value='{escape(s['id'])}'>" if s["required"] else ""
        rows.append(f"<label><input type='checkbox' name='scope' value='{escape(s['id'])}'{req}> "
                    f"{escape(s['display_name'])} {'(required)' if s['required'] else '(optional)'}</label>{hidden}")
    for t in terms:
        req = " checked disabled" if t["required"] else " checked"
        hidden = f"<input type='hidden' name='term' value='{escape(t['tag'])}'>" if t["required"] else ""
        rows.append(f"<label><input type='checkbox' name='term' value='{escape(t['tag'])}'{req}> "
                    f"Service term <code>{escape(t['tag'])}</code> {'(required)' if t['required'] else '(optional)'}"
                    f"</label>{hidden}")
    body = (f"<h1>{escape(app_name)} asks for consent</h1><p>Logged in as <b>{escape(user['nickname'])}</b>"
            f" ({escape(user['email'])})</p><form method='post' action='consent' id='consent'>{_hidden(q)}"
            f"<input type='hidden' name='account' value='{user['id']}'>{''.join(rows)}"
            "<button type='submit' name='action' value='agree'>Agree and continue</button>"
            "<button type='submit' name='action' value='cancel'>Cancel</button></form>")
    return _page("Consent", body)


def error_page(code: str, message: str, status: int = 400) -> HTMLResponse:
    body = f"<h1>Error {escape(code)}</h1><p id='error-code'>{escape(code)}</p><p>{escape(message)}</p>"
    return _page(f"Error {code}", body, status)
