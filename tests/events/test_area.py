"""``tk.events`` (the client area) once registered in toolkit.client.AREAS; the register() real-service path."""
from __future__ import annotations

import pytest

import toolkit.client
from toolkit.events import Inbox

from .conftest import USER, settle


@pytest.fixture
def area_tk(tk, monkeypatch):
    monkeypatch.setitem(toolkit.client.AREAS, "events", "toolkit.events:EventsArea")
    return tk


def test_area_inbox_platform_and_delivery_frame(server, area_tk):
    tk = area_tk
    with tk.events.inbox() as box:
        empty_inbox, empty_log = box.frame(), tk.events.deliveries(wait=0)
        box.register(account_status_details=True)
        tk.sandbox.login(USER, scopes=["profile", "account_status_details"])
        tk.events.platform("account_disabled", user_id=USER)
        assert box.wait(3, timeout=5)
        settle(server)
        df = box.frame()
        assert list(df["event_type"]) == ["User Linked", "User Scope Consent", "Account Disabled"]
        log = tk.events.deliveries()
        assert list(log["state"]) == ["delivered"] * 3 and str(log["created_at"].dt.tz) == "UTC"
        # the same typed columns before anything arrived (toolkit.frames.Schema)
        assert len(empty_inbox) == 0 and empty_inbox.dtypes.equals(df.dtypes)
        assert len(empty_log) == 0 and empty_log.dtypes.equals(log.dtypes)
        assert tk.events.settings()["account_status_details"] is True
    assert not box.running


def test_register_without_sandbox_prints_console_instructions(capsys):
    box = Inbox(admin_key="k" * 32, audience="a" * 32, issuer="https://auth.example", jwks={"keys": []})
    with box:
        urls = box.register(None)
    out = capsys.readouterr().out
    assert urls["account_status"] in out and "developer console" in out and "k" * 32 not in out
