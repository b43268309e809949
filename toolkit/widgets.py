"""ipywidgets for login and consent (imported lazily: ``import toolkit`` never imports ipywidgets).

>>> from toolkit.widgets import LoginWidget, ConsentPanel   # doctest: +SKIP
>>> LoginWidget(tk, scopes=["profile", "account_email", "openid"])   # doctest: +SKIP
>>> ConsentPanel(tk)                                                  # doctest: +SKIP

The login widget works the same against the sandbox and the real service: **Start login** builds an
authorization request (state, nonce, PKCE S256) and shows a link to the login page; after logging in, the
browser lands on the redirect URI; paste that address into the box and press **Complete login** (the client
checks ``state``, exchanges the code and verifies the ID token). In the sandbox a second row completes the same
request headlessly, acting as a demo user (the user list comes from the sandbox control API; the login and
consent pages are driven like a browser would), so tests and nbval runs need no browser.

``ConsentPanel(tk)`` follows the client: when ``tk`` starts acting as another user (the login widget, ``tk.login``,
``tk.login_as``, a logout) it shows that user's consent items at once (:meth:`toolkit.Client.on_user_change`);
its **Refresh** button reloads them (e.g. after consent changed elsewhere).

Labels are never cut: descriptions take their natural width (``style={"description_width": "initial"}``) and
buttons size to their text.

Saved and reopened without the kernel that made them, the widgets show a plain **static view** instead of
controls: a stored widget view needs its kernel (JupyterLab then draws "Error displaying widget: model not found",
or, from the notebook's saved widget state, controls marked disconnected), so each widget's display also carries
``text/html`` and ``text/plain`` views ("run this cell to log in"; the consent items as text, as they were when
displayed), which a copied walkthrough keeps in place of the widget view (:func:`toolkit.walkthroughs.edition`)
and which nbconvert and viewers without widgets show. In JupyterLab, which always picks the widget view, toolkit's
lab extension (``toolkit-jupyter``, in the wheel) shows that static view in place of a widget view that draws no
live widget (no kernel, a model not found, disconnected controls), so one's own saved notebook reads the same;
once the cell runs again, the live widget shows.

The widget never displays a token. The authorize URL (it carries the app's ``client_id``) is shown only after
**Start login** is pressed and cleared once the login completes, so a notebook that logs in headlessly stores no
app key in its widget state.
"""
from __future__ import annotations

from html import escape

__all__ = ["LoginWidget", "ConsentPanel"]


def _w():
    import ipywidgets

    return ipywidgets


_WIDE = {"description_width": "initial"}
_LINK = ("display:inline-block;padding:4px 14px;border-radius:3px;background:#1976d2;color:#fff;"
         "font-weight:bold;text-decoration:none")


def _button(w, description: str, **kw):
    """A button sized to its text (the default fixed width cuts longer descriptions)."""
    return w.Button(description=description, layout=w.Layout(width="auto"), **kw)


_BOXES: dict[type, type] = {}     # ipywidgets.VBox → its StaticVBox subclass


def _box(w, children, static):
    """An ``ipywidgets.VBox`` whose display also carries a static view: ``static()`` returns (html, text), computed
    when the box is displayed (see the module's docstring)."""
    cls = _BOXES.get(w.VBox)
    if cls is None:
        class StaticVBox(w.VBox):
            """A VBox whose mime bundle adds ``text/html`` and ``text/plain`` views for a reader with no kernel."""

            def _repr_mimebundle_(self, **kwargs):
                data = super()._repr_mimebundle_(**kwargs)
                if data is not None and getattr(self, "static_view", None) is not None:
                    data["text/html"], data["text/plain"] = self.static_view()
                return data

        cls = _BOXES[w.VBox] = StaticVBox
    box = cls(children)
    box.static_view = static
    return box


_STATIC = "<div class='toolkit-static-widget' style='padding:4px 0'>{}</div>"


def _sandbox_callback(tk) -> str | None:
    uris = tk.credentials.extra.get("redirect_uris") or []
    return next((u for u in uris if u.endswith("/sandbox/callback")), None)


def LoginWidget(tk, scopes=None, *, email: str | None = None, redirect_uri: str | None = None):
    """A login box bound to client ``tk``; returns an ``ipywidgets.VBox``.

    Parts, for programmatic use: ``.start_button``, ``.link``, ``.redirect`` (paste box), ``.complete_button``,
    ``.status``, ``.profile``, ``.logout_button``; in the sandbox also ``.demo_user`` (dropdown of demo users'
    e-mails) and ``.demo_button``; for a client replaying a cassette (``connect(replay=...)``) ``.replay_button``
    (**Log in as recorded**: the recording's login, with no browser). ``.request()`` is the pending
    :class:`~toolkit.oauth.AuthRequest` (or None).
    The status follows the client's user wherever it changes; ``.unfollow()`` stops that.

    ``redirect_uri``: default, in the sandbox its ``/sandbox/callback`` page (shows the address to copy), else
    the app's configured redirect URI.
    """
    w = _w()
    uri = redirect_uri or (_sandbox_callback(tk) if tk.sandbox is not None else None) or tk.credentials.redirect_uri
    pending = {"request": None}

    start_button = _button(w, "Start login", button_style="primary", tooltip="build a login request")
    link = w.HTML("")
    redirect = w.Text(placeholder="paste the address the browser was sent to", description="Redirect URL",
                      style=_WIDE, layout=w.Layout(width="70%", min_width="24rem"))
    complete_button = _button(w, "Complete login", tooltip="check state, exchange the code")
    logout_button = _button(w, "Log out", disabled=True)
    status = w.HTML("<i>not logged in</i>")
    profile = w.HTML("")

    def new_request(login_hint=None):
        pending["request"] = tk.oauth.authorize_url(scopes, redirect_uri=uri, login_hint=login_hint)
        return pending["request"]

    shown = {"token": None}

    def show(token=None):
        """Show the user the client acts as: ``token`` is the login's Token (None: a token set by code)."""
        shown["token"] = token
        claims = (token.claims if token is not None else None) or {}
        try:
            me = tk.user.me()
        except Exception:  # noqa: BLE001 — the profile is a courtesy; the login itself succeeded
            me = {"id": claims.get("sub")}
        props = me.get("properties") or {}
        account = me.get("kakao_account") or me.get("account") or {}
        nickname = props.get("nickname") or (account.get("profile") or {}).get("nickname") or claims.get("nickname")
        mail = account.get("email") or claims.get("email")
        status.value = "<b>logged in</b>"
        parts = [f"user <code>{escape(str(me.get('id', claims.get('sub', '?'))))}</code>"]
        if nickname:
            parts.append(escape(str(nickname)))
        if mail:
            parts.append(f"&lt;{escape(str(mail))}&gt;")
        if token is not None:
            parts.append(f"— scopes: {escape(', '.join(sorted(token.scopes)) or '(none)')}")
        profile.value = " ".join(parts)
        logout_button.disabled = False

    def fail(exc):
        status.value = f"<span style='color:#b00'>login failed: {escape(type(exc).__name__)}: {escape(str(exc))}</span>"

    def finish(url: str):
        req = pending["request"]
        if req is None:
            fail(ValueError("press Start login first"))
            return
        try:
            token = tk.oauth.complete(req, url)
        except Exception as exc:  # noqa: BLE001 — shown to the user
            fail(exc)
            return
        finally:
            pending["request"] = None  # state and code are single use
            link.value = ""
            redirect.value = ""
        if shown["token"] is not token:   # the user-change hook below normally showed it already
            show(token)

    def follow(_client=None):
        """The client's user changed (here or elsewhere: tk.login, tk.login_as, use_token): show it."""
        if tk.access_token is None:
            status.value, profile.value = "<i>not logged in</i>", ""
            logout_button.disabled = True
            shown["token"] = None
        elif getattr(tk.oauth, "token", None) is not None and tk.oauth.token.access_token == tk.access_token:
            show(tk.oauth.token)
        else:
            show(None)

    def on_start(_=None):
        try:
            req = new_request()
        except Exception as exc:  # noqa: BLE001
            fail(exc)
            return
        try:
            href = req.url if tk.sandbox is None else tk.sandbox.browser_link(req.url)   # a class world's ticket
        except Exception as exc:  # noqa: BLE001
            fail(exc)
            return
        link.value = (f"<a href='{escape(href, quote=True)}' target='_blank' rel='noopener' style='{_LINK}'>"
                      "Open the login page ↗</a> log in there, then paste the address you land on below.")
        status.value = "<i>waiting for the redirect URL…</i>"

    def on_complete(_=None):
        finish(redirect.value.strip())

    def on_logout(_=None):
        try:
            tk.user.logout()
        except Exception:  # noqa: BLE001 — the local state is dropped anyway
            pass
        tk.oauth.token = None
        tk.use_token(None)
        status.value, profile.value = "<i>logged out</i>", ""
        logout_button.disabled = True

    start_button.on_click(on_start)
    complete_button.on_click(on_complete)
    logout_button.on_click(on_logout)
    children = [w.HBox([start_button, logout_button]), link, w.HBox([redirect, complete_button])]

    box_extra = {}
    if tk.sandbox is not None:
        try:
            users = tk.sandbox.control("GET", "/sandbox/identity/users")["users"]
            options = [(f"{u['nickname']} <{u['email']}>", u["email"]) for u in users]
        except Exception:  # noqa: BLE001
            options = []
        default = email if email in [v for _, v in options] else (options[0][1] if options else None)
        demo_user = w.Dropdown(options=options, value=default, description="Demo user", style=_WIDE,
                               layout=w.Layout(width="auto", min_width="20rem"))
        demo_button = _button(w, "Log in as demo user", tooltip="sandbox: act as the user, no browser")

        def on_demo(_=None):
            chosen = demo_user.value
            try:
                req = new_request(login_hint=chosen)
                tk.oauth.forget_browser()  # a fresh browser: the chosen user logs in, not a remembered one
                url = tk.oauth.user_side(req, chosen)
            except Exception as exc:  # noqa: BLE001
                pending["request"] = None
                fail(exc)
                return
            redirect.value = url  # exactly what a person would paste
            finish(url)

        demo_button.on_click(on_demo)
        children.append(w.HBox([demo_user, demo_button]))
        box_extra = {"demo_user": demo_user, "demo_button": demo_button}
    elif getattr(tk, "cassette", None) is not None and tk.cassette.replaying:
        replay_button = _button(w, "Log in as recorded", tooltip="replay: the recording's login, no browser")

        def on_replay(_=None):
            try:
                req = new_request()
                url = tk.cassette.redirect(req)   # the address the recording's browser came back to (toolkit.cassette)
            except Exception as exc:  # noqa: BLE001
                pending["request"] = None
                fail(exc)
                return
            redirect.value = url
            finish(url)

        replay_button.on_click(on_replay)
        children.append(replay_button)
        box_extra = {"replay_button": replay_button}

    def static():
        line = "Login box (toolkit.widgets.LoginWidget): run this cell to log in; its buttons need a running kernel."
        return _STATIC.format("<b>Login box</b> (<code>toolkit.widgets.LoginWidget</code>): <i>run this cell to "
                              "log in</i>; its buttons need a running kernel."), line

    box = _box(w, children + [status, profile], static)
    box.start_button, box.link, box.redirect, box.complete_button = start_button, link, redirect, complete_button
    box.status, box.profile, box.logout_button = status, profile, logout_button
    box.request = lambda: pending["request"]
    for name, widget in box_extra.items():
        setattr(box, name, widget)
    box.unfollow = tk.on_user_change(follow)
    if tk.access_token is not None:
        follow()
    return box


def ConsentPanel(tk, *, target_id: int | None = None):
    """A table of the user's scopes (agreed / revocable) with a Revoke button per revocable agreed scope, and a
    **Refresh** button. It follows the client: when ``tk`` acts as another user (a login anywhere, a logout) it
    shows that user's scopes at once. With ``target_id`` it shows that user (admin key) and does not follow.

    For programmatic use: ``.frame`` (the scopes DataFrame shown, None when no user), ``.user_id``,
    ``.buttons`` (scope id → its Revoke button), ``.refresh_button``, ``.message`` (last result),
    ``.refresh()``, ``.revoke(scope_id)`` and ``.unfollow()``.

    >>> panel = ConsentPanel(tk)          # doctest: +SKIP
    >>> tk.login_as(4100000002)           # doctest: +SKIP

    The panel now lists user 4100000002's scopes.
    """
    w = _w()
    lines: list[str] = []         # the consent items as text, for the static view

    def static():
        head = "Consent items (toolkit.widgets.ConsentPanel): run this cell to refresh or revoke them; its buttons " \
               "need a running kernel."
        html = ["<b>Consent items</b> (<code>toolkit.widgets.ConsentPanel</code>): <i>run this cell to refresh or "
                "revoke them</i>; its buttons need a running kernel."]
        if out.user_id is not None:
            html.append(f"As shown when the cell ran, user <code>{escape(str(out.user_id))}</code> (agreed / "
                        "revocable):")
            head += f"\nAs shown when the cell ran, user {out.user_id} (agreed / revocable):"
        elif lines:
            html.append(escape(lines[0]))
        items = lines[1:] if out.user_id is not None else []
        html.append("<br>".join(f"<code>{escape(sid)}</code> {escape(rest)}" for sid, _, rest in
                                (t.partition(" ") for t in items)))
        return _STATIC.format("<br>".join(h for h in html if h)), "\n".join([head] + [f"  {t}" for t in items])

    out = _box(w, [], static)
    message = w.HTML("")
    heading = w.HTML("")
    refresh_button = _button(w, "Refresh", icon="refresh", tooltip="reload the consent items")
    out.frame, out.buttons, out.user_id = None, {}, None

    def render():
        rows, buttons = [], {}
        lines.clear()
        try:
            df = tk.user.scopes(target_id=target_id)
        except Exception as exc:  # noqa: BLE001 — shown in the panel
            df = None
            who = "no user is logged in" if tk.access_token is None and target_id is None else \
                f"<span style='color:#b00'>{escape(type(exc).__name__)}: {escape(str(exc))}</span>"
            heading.value = f"<b>Consent items</b> — {who}"
            lines.append("no user is logged in" if tk.access_token is None and target_id is None else
                         f"{type(exc).__name__}: {exc}")
        if df is not None:
            uid = df.attrs.get("meta", {}).get("id", target_id)
            heading.value = f"<b>Consent items of user <code>{escape(str(uid))}</code></b> — agreed / revocable"
            lines.append(f"user {uid}")
            for rec in df.to_dict("records"):
                revocable = bool(rec["revocable"]) if rec["revocable"] is not None and rec["revocable"] == rec["revocable"] \
                    else False
                label = w.HTML(f"<code>{escape(rec['id'])}</code> {escape(rec['display_name'])}: "
                               f"{'✔' if rec['agreed'] else '✘'} / {'yes' if revocable else '-'}")
                lines.append(f"{rec['id']} {rec['display_name']}: {'✔' if rec['agreed'] else '✘'} / "
                             f"{'yes' if revocable else '-'}")
                if rec["agreed"] and revocable:
                    btn = _button(w, "Revoke", tooltip=f"withdraw consent to {rec['id']}")
                    btn.on_click(lambda _b, sid=rec["id"]: revoke(sid))
                    buttons[rec["id"]] = btn
                    rows.append(w.HBox([label, btn]))
                else:
                    rows.append(label)
            out.user_id = uid
        else:
            out.user_id = None
        out.frame, out.buttons = df, buttons
        out.children = [w.HBox([heading, refresh_button])] + rows + [message]

    def revoke(scope_id):
        try:
            tk.user.revoke_scopes([scope_id], target_id=target_id)
            message.value = f"revoked <code>{escape(scope_id)}</code>"
        except Exception as exc:  # noqa: BLE001
            message.value = f"<span style='color:#b00'>{escape(str(exc))}</span>"
        render()

    def on_user_change(_client):
        message.value = ""
        render()

    refresh_button.on_click(lambda _b: render())
    out.refresh, out.revoke, out.message, out.refresh_button = render, revoke, message, refresh_button
    out.unfollow = tk.on_user_change(on_user_change) if target_id is None else (lambda: None)
    render()
    return out
