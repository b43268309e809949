"""A pending link that is not completed within 24 hours becomes unlinked when the clock passes the mark, and
the unlink webhook says INCOMPLETE_SIGN_UP (identity.md §3)."""
from __future__ import annotations


def unlinks(tk, inbox):
    tk.sandbox.control("GET", "/sandbox/webhooks/deliveries", params={"wait": 5})
    df = inbox.frame()
    return df[df["kind"] == "unlink"] if len(df) else df


def test_pending_link_expires_with_an_incomplete_sign_up_webhook(tk, inbox):
    inbox.register(tk)
    tk.sandbox.control("POST", "/sandbox/identity/settings", json={"auto_link": False})
    tk.login("bora@sandbox.test", scopes=["profile"])
    assert tk.user.me().get("has_signed_up") is False
    tk.sandbox.advance(hours=23)
    assert len(unlinks(tk, inbox)) == 0
    tk.sandbox.advance(hours=1, seconds=1)   # no request by the user: the clock change alone applies the rule
    got = unlinks(tk, inbox)
    assert list(got["reason"]) == ["INCOMPLETE_SIGN_UP"] and got["verified"].all()
    assert got["user_id"].astype(str).tolist() == ["4100000009"]
