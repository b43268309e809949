"""Regression tests for the bugs the contract fuzzing found (tests/contract/test_fuzz.py)."""
from __future__ import annotations

import httpx
import pytest

from toolkit.sandbox.web import Params, SpecError


@pytest.mark.parametrize("raw", [str(2 ** 63), str(-(2 ** 63) - 1), "9" * 40])
def test_integer_params_beyond_64_bits_are_a_400_not_a_500(raw):
    """Found by fuzzing: address_id=9223372036854775808 reached SQLite (OverflowError → HTTP 500)."""
    with pytest.raises(SpecError) as err:
        Params({"n": raw}).int("n")
    assert err.value.status == 400 and err.value.body["code"] == -2
    assert Params({"n": str(2 ** 63 - 1)}).int("n") == 2 ** 63 - 1


def test_shipping_address_with_a_huge_address_id_answers_the_error_shape(sandbox_server):
    base = sandbox_server.base_url.rstrip("/")
    with httpx.Client(timeout=10) as http:
        token = http.post(f"{base}/sandbox/login", json={"user_id": 4100000001, "scopes": ["shipping_address"]}
                          ).json()["access_token"]
        r = http.get(f"{base}/api/v1/user/shipping_address", params={"address_id": str(2 ** 63)},
                     headers={"Authorization": f"Bearer {token}"})
    assert r.status_code == 400 and r.json()["code"] == -2 and set(r.json()) == {"msg", "code"}


def test_admin_mode_with_a_huge_target_id_answers_the_error_shape(sandbox_server):
    """Same overflow through the admin-key mode's target_id (identity acting_user)."""
    base = sandbox_server.base_url.rstrip("/")
    admin = sandbox_server.app_config()["admin_key"]
    r = httpx.get(f"{base}/api/v2/user/scopes", params={"target_id_type": "user_id", "target_id": str(2 ** 64)},
                  headers={"Authorization": f"ServiceAK {admin}"}, timeout=10)
    assert r.status_code == 400 and r.json()["code"] == -2 and set(r.json()) == {"msg", "code"}


@pytest.mark.parametrize("method,path,fields", [
    ("POST", "/api/v2/api/talk/profiles", {"target_ids": f"[{2 ** 64}]", "target_id_type": "user_id"}),
    ("GET", "/api/v2/api/talk/channels/multi", {"target_ids": str(2 ** 64), "target_id_type": "user_id"}),
])
def test_id_lists_beyond_64_bits_answer_the_error_shape(sandbox_server, method, path, fields):
    """Found after the fuzz run: ids beyond 64 bits in target_ids reached SQLite (OverflowError → HTTP 500)."""
    base = sandbox_server.base_url.rstrip("/")
    admin = sandbox_server.app_config()["admin_key"]
    kw = {"data": fields} if method == "POST" else {"params": fields}
    r = httpx.request(method, base + path, headers={"Authorization": f"ServiceAK {admin}"}, timeout=10, **kw)
    assert r.status_code == 400 and r.json()["code"] == -2 and set(r.json()) == {"msg", "code"}
