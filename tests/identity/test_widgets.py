"""Widgets: built and driven without a browser (set values, click the buttons); they never show a token."""
from __future__ import annotations

import pytest

pytest.importorskip("ipywidgets")

from toolkit.widgets import ConsentPanel, LoginWidget  # noqa: E402

OIDC = ["profile", "openid", "account_email"]


def _text(widget) -> str:
    parts = [getattr(widget, "value", "") or ""]
    for child in getattr(widget, "children", ()):
        parts.append(_text(child))
    return " ".join(str(p) for p in parts)


def _no_secrets(tk, box):
    text = _text(box)
    tok = tk.oauth.token
    for secret in (tok.access_token, tok.refresh_token, tok.id_token, tk.credentials.rest_api_key):
        assert secret is None or secret.reveal() not in text


def test_login_widget_demo_user_completes_the_same_flow(fresh_tk):
    tk = fresh_tk
    box = LoginWidget(tk, scopes=OIDC)
    assert "not logged in" in box.status.value and box.logout_button.disabled
    box.demo_user.value = "jun@sandbox.test"
    box.demo_button.click()
    assert "logged in" in box.status.value, box.status.value
    assert "4100000002" in box.profile.value and "jun@sandbox.test" in box.profile.value
    assert tk.user.me()["id"] == 4100000002 and tk.oauth.token.claims["sub"] == "4100000002"
    assert box.request() is None and box.redirect.value == "" and box.link.value == ""
    _no_secrets(tk, box)
    box.logout_button.click()
    assert "logged out" in box.status.value and tk.access_token is None


def test_login_widget_paste_path(fresh_tk):
    tk = fresh_tk
    box = LoginWidget(tk, scopes=OIDC)
    box.start_button.click()
    req = box.request()
    assert req is not None and "Open the login page" in box.link.value
    assert req.redirect_uri.endswith("/sandbox/callback")
    url = tk.oauth._drive(req, "minji@sandbox.test", "sandbox", False, True, None)   # a person in a browser
    box.redirect.value = url                                                          # … pastes the address
    box.complete_button.click()
    assert "logged in" in box.status.value and "4100000001" in box.profile.value
    _no_secrets(tk, box)


def test_login_widget_rejects_a_forged_redirect(fresh_tk):
    tk = fresh_tk
    box = LoginWidget(tk, scopes=OIDC)
    box.start_button.click()
    box.redirect.value = box.request().redirect_uri + "?code=forged&state=wrong"
    box.complete_button.click()
    assert "login failed" in box.status.value and "state" in box.status.value
    assert tk.access_token is None and box.request() is None
    box.complete_button.click()                        # nothing pending any more
    assert "Start login" in box.status.value


def test_login_widget_against_a_service_without_sandbox(fresh_tk):
    """The real-service mode is the same widget minus the demo-user row."""
    from toolkit.client import Client

    tk = Client(fresh_tk.config)                     # no sandbox handle: behaves like the real service
    box = LoginWidget(tk, scopes=["profile"])
    assert not hasattr(box, "demo_button")
    box.start_button.click()
    req = box.request()
    assert req.redirect_uri == "http://localhost:8765/callback" and "Open the login page" in box.link.value
    fresh_tk.oauth.forget_browser()
    url = fresh_tk.oauth._drive(req, "bora@sandbox.test", "sandbox", False, True, None)
    box.redirect.value = url
    box.complete_button.click()
    assert "logged in" in box.status.value, box.status.value
    tk.close()


def test_consent_panel_revoke_button(fresh_tk):
    tk = fresh_tk
    tk.login("minji@sandbox.test", scopes=["profile", "account_email"])
    panel = ConsentPanel(tk)
    frame = panel.frame.set_index("id")
    assert frame.loc["account_email", "agreed"] and frame.loc["profile", "agreed"]
    assert "account_email" in panel.buttons and "profile" not in panel.buttons   # profile is not revocable
    panel.buttons["account_email"].click()
    assert "revoked" in panel.message.value
    assert not panel.frame.set_index("id").loc["account_email", "agreed"]
    assert "account_email" not in panel.buttons
    assert not tk.user.scopes(["account_email"])["agreed"].iloc[0]
    _no_secrets(tk, panel)


def test_consent_panel_admin_mode(fresh_tk):
    tk = fresh_tk
    tk.sandbox.login(4100000002, scopes=["profile", "gender"])
    panel = ConsentPanel(tk, target_id=4100000002)
    assert "gender" in panel.buttons
    panel.revoke("gender")
    assert not tk.user.scopes(["gender"], target_id=4100000002)["agreed"].iloc[0]


def test_consent_report_and_plot(fresh_tk):
    matplotlib = pytest.importorskip("matplotlib")
    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    tk = fresh_tk
    tk.sandbox.login(4100000001, scopes=["profile", "account_email"])
    tk.sandbox.login(4100000002, scopes=["profile", "gender"])
    report = tk.user.consent_report([4100000001, 4100000002])
    assert list(report.index) == [4100000001, 4100000002] and report.index.name == "user_id"
    assert report.dtypes.eq(bool).all()
    rates = report.attrs["meta"]["agreement_rate"]
    assert rates["profile"] == 1.0 and rates["account_email"] == 0.5 and rates["gender"] == 0.5
    ax = tk.user.plot_consent(report)
    bars = {t.get_text(): p.get_height() for t, p in zip(ax.get_xticklabels(), ax.patches)}
    assert set(bars) == set(report.columns) and len(ax.patches) == report.shape[1]
    assert bars["profile"] == 100 and bars["account_email"] == 50
    assert "2 users" in ax.get_title()
    plt.close(ax.figure)


def test_consent_panel_follows_the_clients_user(fresh_tk):
    tk = fresh_tk
    panel = ConsentPanel(tk)
    assert panel.frame is None and panel.user_id is None and "no user is logged in" in _text(panel)
    tk.login_as(4100000001, scopes=["profile", "account_email"])
    assert panel.user_id == 4100000001 and "account_email" in panel.buttons
    assert "4100000001" in _text(panel)
    box = LoginWidget(tk, scopes=["profile"])          # a login through the widget: the panel follows
    box.demo_user.value = "jun@sandbox.test"
    box.demo_button.click()
    assert panel.user_id == 4100000002 and "4100000002" in _text(panel) and "4100000001" not in _text(panel)
    assert not panel.frame.loc[panel.frame["id"] == "account_email", "agreed"].item()
    box.logout_button.click()
    assert panel.user_id is None and panel.frame is None and "no user is logged in" in _text(panel)
    panel.unfollow()
    tk.login_as(4100000003, scopes=["profile"])
    assert panel.user_id is None                        # no longer following


def test_login_widget_follows_a_login_made_elsewhere(fresh_tk):
    tk = fresh_tk
    box = LoginWidget(tk, scopes=["profile"])
    tk.login("minji@sandbox.test", scopes=["profile"])
    assert "logged in" in box.status.value and "4100000001" in box.profile.value and not box.logout_button.disabled
    tk.use_token(None)
    assert "not logged in" in box.status.value and box.logout_button.disabled


def test_consent_panel_refresh_button_reloads(fresh_tk):
    tk = fresh_tk.login_as(4100000001, scopes=["profile", "account_email", "gender"])
    panel = ConsentPanel(tk)
    assert {"account_email", "gender"} <= set(panel.buttons)
    tk.user.revoke_scopes(["gender"])                   # consent changed outside the panel
    assert "gender" in panel.buttons                    # the panel does not poll
    panel.refresh_button.click()
    assert "gender" not in panel.buttons and "account_email" in panel.buttons


def test_a_token_refresh_is_not_a_user_change(fresh_tk):
    tk = fresh_tk
    tk.login("minji@sandbox.test", scopes=["profile"])
    seen = []
    stop = tk.on_user_change(lambda c: seen.append(c.access_token))
    before = tk.access_token
    tk.oauth.refresh()
    assert tk.access_token != before and seen == []
    tk.login_as(4100000002)
    assert len(seen) == 1
    stop()
    tk.login_as(4100000003)
    assert len(seen) == 1


def test_labels_are_not_cut(fresh_tk):
    box = LoginWidget(fresh_tk, scopes=["profile"])
    assert box.redirect.style.description_width == "initial"
    assert box.demo_user.style.description_width == "initial"
    for button in (box.start_button, box.complete_button, box.logout_button, box.demo_button):
        assert button.layout.width == "auto", button.description
    box.start_button.click()
    assert "<a href=" in box.link.value and "target='_blank'" in box.link.value and "background:" in box.link.value


WIDGET_VIEW = "application/vnd.jupyter.widget-view+json"


def test_the_widgets_carry_a_static_view_for_a_reader_without_a_kernel(fresh_tk):
    """Displayed, each widget's bundle has its widget view and a static one (text/html, text/plain) that says what
    to do without a kernel; the consent items are listed as they were when displayed, and no secret is in it."""
    tk = fresh_tk
    box = LoginWidget(tk, scopes=OIDC)
    data = box._repr_mimebundle_()
    assert data[WIDGET_VIEW]["model_id"] == box.model_id
    assert "run this cell to log in" in data["text/html"] and "run this cell to log in" in data["text/plain"]
    assert "<button" not in data["text/html"] and "VBox(" not in data["text/plain"]
    panel = ConsentPanel(tk)
    assert "run this cell" in panel._repr_mimebundle_()["text/plain"]
    assert "account_email" not in panel._repr_mimebundle_()["text/plain"]     # no user yet
    tk.login_as(4100000001, scopes=["profile", "account_email"])
    data = panel._repr_mimebundle_()
    assert data[WIDGET_VIEW]["model_id"] == panel.model_id
    lines = data["text/plain"].splitlines()
    assert "user 4100000001" in lines[1]
    assert "  account_email E-mail: ✔ / yes" in lines and "  profile Profile (nickname, profile image): ✔ / -" in lines
    assert "<code>account_email</code> E-mail: ✔ / yes" in data["text/html"]
    panel.revoke("account_email")
    assert "  account_email E-mail: ✘ / -" in panel._repr_mimebundle_()["text/plain"].splitlines()
    for secret in (tk.access_token, tk.credentials.rest_api_key, tk.credentials.client_secret):
        assert secret is None or secret.reveal() not in data["text/plain"] + data["text/html"]
