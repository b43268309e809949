"""Delivery rules of the sandbox: retries with backoff, the 202/400 contract, the 3-second bound,
deactivation, the delivery log, RISC/CAEP gating, and the end-to-end platform unlink."""
from __future__ import annotations

import time

import pytest


from .conftest import USER, Receiver, deliveries, settle


def _register(tk, **urls):
    tk.sandbox.control("POST", "/sandbox/webhooks", json=urls)


def _set_settings(tk, **s):
    return tk.sandbox.control("POST", "/sandbox/webhooks/settings", json=s)


def test_500_is_retried_with_backoff_then_failed_and_logged(server, tk, receiver):
    _set_settings(tk, retry_delays=[0.1, 0.3])
    _register(tk, account_status=receiver.url("set"))
    tk.sandbox.login(USER, scopes=[])            # → User Linked
    settle(server)
    [d] = deliveries(tk)
    assert d["state"] == "failed" and d["attempts"] == 3 and d["last_status"] == 500
    assert [a["outcome"] for a in d["attempt_log"]] == ["failed"] * 3
    assert d["set_claims"]["events"] and "aud" not in d["set_claims"]
    times = [h[0] for h in receiver.hits]
    gaps = [b - a for a, b in zip(times, times[1:])]
    assert gaps[0] >= 0.09 and gaps[1] >= 0.29 and gaps[1] > gaps[0]
    jtis = {h[3] for h in receiver.hits}
    assert len(jtis) == 1                         # the same SET on every retry
    admin = server.app_config()["admin_key"]
    assert admin not in str(deliveries(tk))


def test_malformed_400_is_retried_but_a_proper_400_is_rejected_once(server, tk, receiver):
    _set_settings(tk, retry_delays=[0.05])
    _register(tk, account_status=receiver.url("set"))
    receiver.mode = "bad400"
    tk.sandbox.login(USER)
    settle(server)
    [d] = deliveries(tk)
    assert d["state"] == "failed" and d["attempts"] == 2 and "err, description" in d["note"]
    receiver.mode = "json400"
    server.sandbox.model("events").account_status("100001", USER, "User Scope Consent", scope="friends")
    settle(server)
    d = deliveries(tk)[-1]
    assert d["state"] == "rejected" and d["attempts"] == 1 and d["note"] == "invalid_key: nope"


def test_an_answer_slower_than_3_seconds_counts_as_failed(server, tk):
    slow = Receiver(mode="sleep", sleep_s=3.6).start()
    try:
        _set_settings(tk, retry_delays=[])
        _register(tk, account_status=slow.url("set"))
        t0 = time.monotonic()
        tk.sandbox.login(USER)
        settle(server, timeout=8)
        [d] = deliveries(tk)
        assert d["state"] == "failed" and "3 s" in d["note"] and d["last_status"] is None
        assert 2.9 < d["attempt_log"][0]["elapsed_ms"] / 1000 < 3.5
        assert time.monotonic() - t0 < 8
    finally:
        slow.stop()


def test_deactivation_after_consecutive_failures_and_reactivation(server, tk, receiver):
    _set_settings(tk, retry_delays=[0.02, 0.02], deactivate_after=4)
    _register(tk, account_status=receiver.url("set"))
    model = server.sandbox.model("events")
    tk.sandbox.login(USER)                        # User Linked
    model.account_status("100001", USER, "User Scope Consent", scope="friends")
    settle(server)
    states = [d["state"] for d in deliveries(tk)]
    assert "dropped" in states
    health = tk.sandbox.control("GET", "/sandbox/webhooks/health")["webhooks"]
    assert health[0]["active"] is False and health[0]["consecutive_failures"] >= 4
    assert len(receiver.hits) == 4                # nothing sent after deactivation
    model.account_status("100001", USER, "User Scope Withdraw", scope="friends")
    d = deliveries(tk)[-1]
    assert d["state"] == "skipped" and "deactivated" in d["note"]
    receiver.mode = "ok"
    tk.sandbox.control("POST", "/sandbox/webhooks/reactivate", json={"kind": "account_status"})
    model.account_status("100001", USER, "User Scope Withdraw", scope="friends")
    settle(server)
    assert deliveries(tk)[-1]["state"] == "delivered"


def test_risc_and_caep_only_with_the_account_status_details_consent(server, tk, inbox):
    inbox.register(tk)
    tk.sandbox.login(USER, scopes=["profile"])
    settle(server)
    inbox.clear()
    model = server.sandbox.model("events")
    # not configured, not agreed → skipped; OAUTH still goes out
    tk.sandbox.control("POST", "/sandbox/platform/account-disabled", json={"user_id": USER})
    settle(server)
    assert deliveries(tk)[-1]["state"] == "skipped" and "consent" in deliveries(tk)[-1]["note"]
    # configured but not agreed → skipped
    _set_settings(tk, account_status_details=True)
    model.account_status("100001", USER, "Assurance Level Change", current_level="nist-aal2",
                         previous_level="nist-aal1", change_direction="increase")
    assert deliveries(tk)[-1]["state"] == "skipped"
    # configured and agreed → delivered and verified
    tk.sandbox.login(USER, scopes=["account_status_details"])
    tk.sandbox.control("POST", "/sandbox/platform/account-disabled", json={"user_id": USER, "reason": "hijacking"})
    tk.sandbox.control("POST", "/sandbox/platform/identifier-recycled", json={"user_id": USER, "new_value": ""})
    settle(server)
    df = inbox.frame()
    risc = df[df["category"] == "RISC"]
    assert list(risc["event_type"]) == ["Account Disabled", "Identifier Recycled"] and risc["verified"].all()
    assert risc.iloc[0]["reason"] == "hijacking"
    assert len(df[df["category"] == "CAEP"]) == 0


def test_end_to_end_platform_unlink_reaches_the_inbox_verified(server, tk, inbox):
    _set_settings(tk, unlink_method="GET")
    inbox.register(tk)
    tk.sandbox.login(USER, scopes=["profile"])
    assert inbox.wait(2, timeout=5)                # User Linked, User Scope Consent
    out = tk.sandbox.control("POST", "/sandbox/platform/unlink",
                             json={"user_id": USER, "referrer_type": "UNLINK_FROM_APPS"})
    assert len(out["deliveries"]) == 2
    assert inbox.wait(4, timeout=5)
    df = inbox.frame()
    last = df.tail(2)
    assert list(last["kind"]) == ["unlink", "account_status"]
    assert list(last["event_type"]) == ["unlink", "User Unlinked"]
    assert list(last["reason"]) == ["UNLINK_FROM_APPS", "UNLINK_FROM_APPS"]
    assert last["verified"].all() and list(last["user_id"]) == [str(USER)] * 2
    assert last.iloc[0]["method"] == "GET"
    assert server.sandbox.model("identity").link_state("100001", USER) == "unlinked"
    # tokens revoked: the user's token no longer works
    assert all(d["state"] == "delivered" for d in deliveries(tk))
    # the app itself unlinking sends no unlink webhook, only the SET
    tk.sandbox.login(USER)
    settle(server)
    n = len(inbox)
    server.sandbox.model("identity").unlink("100001", USER, reason="UNLINK_FROM_SERVICE")
    server.sandbox.model("events").kick()
    assert inbox.wait(n + 1, timeout=5)
    settle(server)
    assert list(inbox.frame()["kind"].iloc[n:]) == ["account_status"]


def test_share_and_channel_webhooks_carry_the_three_headers(server, tk, receiver):
    receiver.mode = "ok"
    _register(tk, share=receiver.url("share"), channel=receiver.url("channel"))
    tk.sandbox.control("POST", "/sandbox/platform/share",
                       json={"user_id": USER, "args": {"order": "A-1"}, "template_id": 123})
    tk.sandbox.control("POST", "/sandbox/platform/channel",
                       json={"user_id": USER, "channel_public_id": "_abc", "event": "blocked"})
    settle(server)
    admin = server.app_config()["admin_key"]
    import json
    (_, m1, h1, b1), (_, m2, h2, b2) = receiver.hits
    for h in (h1, h2):
        assert h["authorization"] == f"ServiceAK {admin}"
        assert h["user-agent"] == "ServiceOpenAPI/1.0" and h["x-service-resource-id"]
    share = json.loads(b1)
    assert share["CHAT_TYPE"] == "MemoChat" and share["order"] == "A-1" and share["TEMPLATE_ID"] == 123
    assert share["HASH_CHAT_ID"]
    chan = json.loads(b2)
    assert chan["event"] == "blocked" and chan["id"] == str(USER) and chan["id_type"] == "app_user_id"
    assert chan["updated_at"] == "2026-11-20T09:00:00Z" and chan["channel_public_id"] == "_abc"


def test_control_api_rejects_bad_input(tk):
    from toolkit.errors import ApiError
    with pytest.raises(ApiError):
        tk.sandbox.control("POST", "/sandbox/platform/channel", json={"user_id": USER, "event": "liked",
                                                                      "channel_public_id": "_a"})
    with pytest.raises(ApiError):
        tk.sandbox.control("POST", "/sandbox/webhooks/settings", json={"unlink_method": "PUT"})


def test_a_platform_unlink_answers_its_deliveries_even_when_the_worker_pumps_first(server, tk, inbox, monkeypatch):
    """The worker is woken by every identity row; if it turns the unlink's rows into deliveries before the route
    does, the route must still answer them (it once answered none, when the worker won the race)."""
    import threading

    _set_settings(tk, unlink_method="GET")
    inbox.register(tk)
    tk.sandbox.login(USER, scopes=["profile"])
    assert inbox.wait(2, timeout=5)
    identity, events = server.sandbox.model("identity"), server.sandbox.model("events")
    real = identity.event
    racers = []

    def event_then_worker_pumps(*args, **kwargs):   # the worker's pump, started as soon as the row is written
        real(*args, **kwargs)
        racer = threading.Thread(target=events.pump)
        racer.start()
        racer.join(0.3)                              # it runs to the end unless the route holds the pump
        racers.append(racer)

    monkeypatch.setattr(identity, "event", event_then_worker_pumps)
    out = tk.sandbox.control("POST", "/sandbox/platform/unlink",
                             json={"user_id": USER, "referrer_type": "UNLINK_FROM_APPS"})
    for racer in racers:
        racer.join(5)
    assert racers and len(out["deliveries"]) == 2
    assert inbox.wait(4, timeout=5)
