"""The loopback inbox: answers 202/400 within the bound, checks the ServiceAK header, records events."""
from __future__ import annotations

import time

import httpx
import pytest

from toolkit.sandbox.keys import KeyRing

from .conftest import USER
from .test_set import _claims


def test_inbox_answers_202_for_a_valid_set_and_400_err_for_a_forged_one(server, inbox):
    ring = KeyRing(server.sandbox)
    url = inbox.urls()["account_status"]
    good = ring.sign(_claims(server), typ="secevent+jwt")
    bad = ring.sign(_claims(server, aud="other"), typ="secevent+jwt")
    with httpx.Client(trust_env=False, timeout=3) as c:
        t0 = time.monotonic()
        r = c.post(url, content=good, headers={"Content-Type": "application/secevent+jwt"})
        assert r.status_code == 202 and r.content == b""
        r = c.post(url, content=bad, headers={"Content-Type": "application/secevent+jwt"})
        assert r.status_code == 400 and r.headers["content-type"].startswith("application/json")
        assert r.json()["err"] == "invalid_audience" and isinstance(r.json()["description"], str)
        r = c.post(url, content=b"x.y", headers={"Content-Type": "application/secevent+jwt"})
        assert r.json()["err"] == "invalid_request"
        assert time.monotonic() - t0 < 3.0
    df = inbox.frame()
    assert list(df["answer"]) == [202, 400, 400]
    assert list(df["verified"]) == [True, False, False]
    assert df.loc[0, "event_type"] == "User Linked" and df.loc[1, "err"] == "invalid_audience"
    assert str(df["received_at"].dt.tz) == "UTC"


@pytest.mark.parametrize("method", ["GET", "POST"])
def test_unlink_header_checked_in_both_methods(server, inbox, method):
    admin = server.app_config()["admin_key"]
    params = {"app_id": "100001", "user_id": str(USER), "referrer_type": "UNLINK_FROM_APPS"}
    with httpx.Client(trust_env=False, timeout=3) as c:
        for key in (admin, "wrong-key", None):
            headers = {"Authorization": f"ServiceAK {key}"} if key else {}
            r = (c.get(inbox.urls()["unlink"], params=params, headers=headers) if method == "GET"
                 else c.post(inbox.urls()["unlink"], data=params, headers=headers))
            assert r.status_code == 200          # §6.1: 200 also on error
    df = inbox.frame()
    assert list(df["verified"]) == [True, False, False]
    assert set(df["reason"]) == {"UNLINK_FROM_APPS"} and set(df["user_id"]) == {str(USER)}
    assert admin not in repr(inbox) and admin not in df.to_string()


def test_wait_is_bounded(inbox):
    t0 = time.monotonic()
    assert inbox.wait(1, timeout=0.3) is False
    assert 0.25 < time.monotonic() - t0 < 2


def test_burst_of_1000_on_loopback_loses_none(server, inbox):
    ring = KeyRing(server.sandbox)
    token = ring.sign(_claims(server), typ="secevent+jwt")
    admin = server.app_config()["admin_key"]
    import concurrent.futures as cf

    def send(i):
        with httpx.Client(trust_env=False, timeout=3) as c:
            out = []
            for j in range(i, 1000, 8):
                if j % 2:
                    out.append(c.post(inbox.urls()["account_status"], content=token,
                                      headers={"Content-Type": "application/secevent+jwt"}).status_code)
                else:
                    out.append(c.post(inbox.urls()["channel"], json={"event": "added", "id": str(j)},
                                      headers={"Authorization": f"ServiceAK {admin}",
                                               "X-Service-Resource-ID": str(j),
                                               "User-Agent": "ServiceOpenAPI/1.0"}).status_code)
            return out

    t0 = time.monotonic()
    with cf.ThreadPoolExecutor(8) as pool:
        codes = [c for chunk in pool.map(send, range(8)) for c in chunk]
    assert len(codes) == 1000 and set(codes) <= {200, 202}
    assert inbox.wait(1000, timeout=30)
    df = inbox.frame()
    assert len(df) == 1000 and df["verified"].all()
    assert time.monotonic() - t0 < 60
