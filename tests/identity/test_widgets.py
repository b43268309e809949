"""Widgets: built without a browser; they never show a token."""
from __future__ import annotations

import pytest

pytest.importorskip("ipywidgets")

from toolkit.widgets import ConsentPanel, LoginWidget  # noqa: E402


def _text(widget) -> str:
    parts = [getattr(widget, "value", "") or ""]
    for child in getattr(widget, "children", ()):
        parts.append(_text(child))
    return " ".join(str(p) for p in parts)


def test_login_widget_logs_in_without_showing_tokens(fresh_tk):
    box = LoginWidget(fresh_tk, scopes=["profile", "openid", "account_email"])
    button = next(c for c in box.children if getattr(c, "description", "") == "Log in")
    button.click()
    assert "logged in" in box.status.value and "4100000001" in box.profile.value
    tok = fresh_tk.oauth.token
    text = _text(box)
    for secret in (tok.access_token, tok.refresh_token, tok.id_token):
        assert secret.reveal() not in text


def test_consent_panel_revokes(fresh_tk):
    fresh_tk.login("minji@sandbox.test", scopes=["profile", "account_email"])
    panel = ConsentPanel(fresh_tk)
    panel.revoke("account_email")
    assert "revoked" in _text(panel)
    assert not fresh_tk.user.scopes(["account_email"])["agreed"].iloc[0]
