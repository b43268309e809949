"""The business consent screen (HTML). Built on the identity pages' layout; the form posts to ``consent``
beside ``/oauth/business/authorize`` with stable field names: ``q`` (the original query), ``account``,
``resource`` (``group:id`` check boxes of the assets the user selects) and ``action`` (``agree``/``cancel``).
Business consent items are all required: they are listed, not ticked.
"""
from __future__ import annotations

from html import escape

from starlette.responses import HTMLResponse

from ..pages import _hidden, _page


def consent_page(q: str, *, app_name: str, user: dict, scopes: list[dict], assets: list[dict]) -> HTMLResponse:
    """``scopes``: ``{id, group, display_name}``; ``assets``: ``{group, mode, assets}`` with ``mode`` ``all``
    (``group:*``: every asset shown, fixed), ``fixed`` (the requested ids) or ``select`` (check boxes)."""
    rows = [f"<li class='biz-scope' data-scope='{escape(s['id'])}'>{escape(s['display_name'])} "
            f"<code>{escape(s['id'])}</code> ({escape(s['group'])}, required)</li>" for s in scopes]
    blocks = []
    for item in assets:
        grp = escape(item["group"])
        if item["mode"] == "select":
            boxes = "".join(
                f"<label><input type='checkbox' name='resource' value='{grp}:{escape(a['resource_id'])}' checked> "
                f"{escape(a['name'])} <code>{escape(a['resource_id'])}</code></label>" for a in item["assets"])
            blocks.append(f"<fieldset data-group='{grp}' data-mode='select'><legend>Choose {grp} assets</legend>"
                          f"{boxes or '<p>No assets in this group.</p>'}</fieldset>")
        else:
            title = f"All {grp} assets" if item["mode"] == "all" else f"{grp} assets"
            fixed = "".join(f"<li class='biz-asset' data-asset='{grp}:{escape(a['resource_id'])}'>{escape(a['name'])} "
                            f"<code>{escape(a['resource_id'])}</code></li>" for a in item["assets"])
            blocks.append(f"<fieldset data-group='{grp}' data-mode='{item['mode']}'><legend>{title}</legend>"
                          f"<ul>{fixed}</ul></fieldset>")
    body = (f"<h1>{escape(app_name)} asks for business authorization</h1>"
            f"<p>Logged in as <b>{escape(user['nickname'])}</b> ({escape(user['email'])})</p>"
            f"<form method='post' action='consent' id='biz-consent'>{_hidden(q)}"
            f"<input type='hidden' name='account' value='{user['id']}'><ul>{''.join(rows)}</ul>{''.join(blocks)}"
            "<button type='submit' name='action' value='agree'>Agree and continue</button>"
            "<button type='submit' name='action' value='cancel'>Cancel</button></form>")
    return _page("Business consent", body)
