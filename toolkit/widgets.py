"""ipywidgets for login and consent (imported lazily: ``import toolkit`` never imports ipywidgets).

>>> from toolkit.widgets import LoginWidget, ConsentPanel   # doctest: +SKIP
>>> LoginWidget(tk, scopes=["profile", "account_email", "openid"])   # doctest: +SKIP
>>> ConsentPanel(tk)                                                  # doctest: +SKIP

The login widget never displays a token: it shows the status, the logged-in user's profile (from the verified
ID token / userinfo) and the consented scopes. In the sandbox it logs in with e-mail and password (the same
headless flow as ``tk.login``); against the real service it shows a link to the login page and a box to paste
the URL the browser was redirected to.
"""
from __future__ import annotations

from html import escape

__all__ = ["LoginWidget", "ConsentPanel"]


def _w():
    import ipywidgets

    return ipywidgets


def LoginWidget(tk, scopes=None, *, email: str = "minji@sandbox.test"):
    """A login box bound to client ``tk``; returns an ``ipywidgets.VBox`` (``.status`` is the status label)."""
    w = _w()
    status = w.HTML("<i>not logged in</i>")
    profile = w.HTML("")
    state = {"request": None}

    def show(token):
        claims = token.claims or {}
        scopes_text = ", ".join(sorted(token.scopes)) or "(none)"
        status.value = "<b>logged in</b>"
        profile.value = (f"user <code>{escape(str(claims.get('sub', '?')))}</code> "
                         f"{escape(str(claims.get('nickname', '')))} — scopes: {escape(scopes_text)}")

    def fail(exc):
        status.value = f"<span style='color:#b00'>login failed: {escape(type(exc).__name__)}: {escape(str(exc))}</span>"

    children = []
    if tk.sandbox is not None:
        email_box = w.Text(value=email, description="E-mail")
        password_box = w.Password(value="sandbox", description="Password")
        button = w.Button(description="Log in", button_style="primary")

        def on_login(_):
            try:
                show(tk.login(email_box.value, password_box.value, scopes=scopes))
            except Exception as exc:  # noqa: BLE001 — shown to the user
                fail(exc)

        button.on_click(on_login)
        children += [email_box, password_box, button]
    else:
        req = tk.oauth.authorize_url(scopes)
        state["request"] = req
        link = w.HTML(f"<a href='{escape(req.url, quote=True)}' target='_blank'>Open the login page</a>")
        pasted = w.Text(placeholder="paste the URL you were redirected to", description="Redirect")
        button = w.Button(description="Complete login", button_style="primary")

        def on_complete(_):
            try:
                show(tk.oauth.complete(state["request"], pasted.value.strip()))
                pasted.value = ""
            except Exception as exc:  # noqa: BLE001
                fail(exc)

        button.on_click(on_complete)
        children += [link, pasted, button]
    box = w.VBox(children + [status, profile])
    box.status, box.profile = status, profile
    if getattr(tk.oauth, "token", None) is not None:
        show(tk.oauth.token)
    return box


def ConsentPanel(tk, *, target_id: int | None = None):
    """A table of the user's scopes (agreed / revocable) with a Revoke button per revocable agreed scope."""
    w = _w()
    out = w.VBox()
    message = w.HTML("")

    def render():
        df = tk.user.scopes(target_id=target_id)
        rows = [w.HTML("<b>scope</b> — agreed / revocable")]
        for rec in df.to_dict("records"):
            revocable = bool(rec["revocable"]) if rec["revocable"] is not None and rec["revocable"] == rec["revocable"] \
                else False
            label = w.HTML(f"<code>{escape(rec['id'])}</code> {escape(rec['display_name'])}: "
                           f"{'✔' if rec['agreed'] else '✘'} / {'yes' if revocable else '-'}")
            if rec["agreed"] and revocable:
                btn = w.Button(description="Revoke", layout=w.Layout(width="6rem"))
                btn.on_click(lambda _b, sid=rec["id"]: revoke(sid))
                rows.append(w.HBox([label, btn]))
            else:
                rows.append(label)
        out.children = rows + [message]

    def revoke(scope_id):
        try:
            tk.user.revoke_scopes([scope_id], target_id=target_id)
            message.value = f"revoked <code>{escape(scope_id)}</code>"
        except Exception as exc:  # noqa: BLE001
            message.value = f"<span style='color:#b00'>{escape(str(exc))}</span>"
        render()

    out.refresh, out.revoke = render, revoke
    render()
    return out
