"""The status/IP slice: sandbox bounds and warnings over HTTP, and the client's frames and report."""
from __future__ import annotations

import httpx
import pandas as pd
import pytest

from toolkit import errors
from toolkit.utility import PRODUCTS, StatusWarning

ALL_API_IDS = 64


def get(server, host, path, **kw):
    return httpx.get(server.hosts()[host] + path, timeout=10, **kw)


# ---------------------------------------------------------------------------- sandbox: /api/health/current
def test_current_lists_every_product_and_omits_issues_when_green(sandbox_server):
    r = get(sandbox_server, "status", "/api/health/current")
    assert r.status_code == 200 and r.headers["content-type"] == "application/json;charset=UTF-8"
    body = r.json()
    assert [s["productId"] for s in body["statuses"]] == list(PRODUCTS)
    assert "warning" not in body
    for st in body["statuses"]:
        assert ("issues" in st) == (st["status"] not in ("GREEN", "UNKNOWN"))
    assert body["updatedAt"].endswith(":00Z") and int(body["updatedAt"][14:16]) % 5 == 0


def test_catalog_covers_the_64_api_ids_of_the_spec(sandbox_server):
    model = sandbox_server.sandbox.model("utility")
    assert len(model.api_product) == ALL_API_IDS and set(model.product_apis) == set(PRODUCTS)


def test_invalid_product_and_api_are_warnings_with_200(sandbox_server):
    body = get(sandbox_server, "status", "/api/health/current",
               params={"product": "navi,nope", "api": "navi_directions,talk_friends,bogus"}).json()
    assert body["warning"] == {"invalidProduct": ["nope"], "invalidUri": ["talk_friends", "bogus"]}
    assert [s["productId"] for s in body["statuses"]] == ["navi"]


def test_nothing_matching_gives_an_empty_list(sandbox_server):
    body = get(sandbox_server, "status", "/api/health/current", params={"product": "nope"}).json()
    assert body["statuses"] == [] and body["warning"] == {"invalidProduct": ["nope"]}


def test_lang_switches_names_and_is_checked(sandbox_server):
    ko = get(sandbox_server, "status", "/api/health/current", params={"product": "local"}).json()
    en = get(sandbox_server, "status", "/api/health/current", params={"product": "local", "lang": "en"}).json()
    assert ko["statuses"][0]["productName"] == "로컬" and en["statuses"][0]["productName"] == "Local"
    bad = get(sandbox_server, "status", "/api/health/current", params={"lang": "fr"})
    assert bad.status_code == 400 and bad.json()["code"] == -2


def test_an_incident_set_through_the_control_api_shows_as_current(fresh_server):
    now = fresh_server.sandbox.clock.unix()
    r = httpx.post(fresh_server.base_url + "/sandbox/status/incidents",
                   json={"api": "local_search_keyword", "status": "RED", "start": now - 600, "end": now + 600})
    assert r.status_code == 201
    body = get(fresh_server, "status", "/api/health/current", params={"product": "local"}).json()
    local = body["statuses"][0]
    assert local["status"] == "RED"
    assert {"apiId": "local_search_keyword", "apiName": "키워드로 장소 검색", "status": "RED"} in local["issues"]


def test_status_refreshes_every_five_minutes(fresh_server):
    clock = fresh_server.sandbox.clock
    clock.set("2026-11-20T09:00:00Z")
    httpx.post(fresh_server.base_url + "/sandbox/status/incidents",
               json={"api": "navi_directions", "status": "RED", "start": clock.unix() + 60, "hours": 1})
    clock.advance(120)  # 09:02 — the incident began at 09:01 but the status was refreshed at 09:00
    first = get(fresh_server, "status", "/api/health/current", params={"api": "navi_directions"}).json()
    assert first["updatedAt"] == "2026-11-20T09:00:00Z" and first["statuses"][0]["status"] == "GREEN"
    clock.advance(180)  # 09:05
    later = get(fresh_server, "status", "/api/health/current", params={"api": "navi_directions"}).json()
    assert later["updatedAt"] == "2026-11-20T09:05:00Z" and later["statuses"][0]["status"] == "RED"


# ---------------------------------------------------------------------------- sandbox: /api/health/history
def test_history_default_is_31_daily_entries_with_every_product(sandbox_server):
    body = get(sandbox_server, "status", "/api/health/history").json()
    assert isinstance(body, list) and len(body) == 31
    assert all(len(day["statuses"]) == len(PRODUCTS) for day in body)
    assert body[0]["date"] < body[-1]["date"]
    assert any(st["status"] == "RED" for day in body for st in day["statuses"])


def test_history_start_at_most_30_days_back(fresh_server):
    today = fresh_server.sandbox.clock.now().date()
    from datetime import timedelta

    ok = get(fresh_server, "status", "/api/health/history", params={"start": str(today - timedelta(days=30))})
    assert ok.status_code == 200 and len(ok.json()) == 31
    too_old = get(fresh_server, "status", "/api/health/history", params={"start": str(today - timedelta(days=31))})
    assert too_old.status_code == 400 and too_old.json()["code"] == -2
    reversed_ = get(fresh_server, "status", "/api/health/history",
                    params={"start": str(today - timedelta(days=2)), "end": str(today - timedelta(days=5))})
    assert reversed_.status_code == 400
    bad = get(fresh_server, "status", "/api/health/history", params={"start": "2026/11/01"})
    assert bad.status_code == 400 and "yyyy-MM-dd" in bad.json()["msg"]


def test_history_warning_travels_in_a_header(sandbox_server):
    r = get(sandbox_server, "status", "/api/health/history", params={"product": "local,zzz"})
    assert r.status_code == 200 and '"invalidProduct": ["zzz"]' in r.headers["x-status-warning"]


# ---------------------------------------------------------------------------- sandbox: /v1/system/ips
@pytest.mark.parametrize("kind", ["native_app_key", "rest_api_key", "javascript_key", "admin_key"])
def test_ips_accepts_every_key_kind(sandbox_server, app_keys, kind):
    r = get(sandbox_server, "api", "/v1/system/ips", headers={"Authorization": f"ServiceAK {app_keys[kind]}"})
    assert r.status_code == 200
    body = r.json()
    assert set(body) == {"inbound", "outbound", "updatedDate"}
    for entry in body["inbound"] + body["outbound"]:
        assert {"service", "ips", "ports", "updatedDate"} <= set(entry)


def test_ips_rule_type_and_auth(sandbox_server, app_keys):
    auth = {"Authorization": f"ServiceAK {app_keys['rest_api_key']}"}
    inbound = get(sandbox_server, "api", "/v1/system/ips", params={"rule_type": "inbound"}, headers=auth).json()
    assert set(inbound) == {"inbound", "updatedDate"}
    bad = get(sandbox_server, "api", "/v1/system/ips", params={"rule_type": "sideways"}, headers=auth)
    assert bad.status_code == 400 and bad.json()["code"] == -2
    for headers in ({}, {"Authorization": "ServiceAK not-a-key"}, {"Authorization": "Bearer x"}):
        r = get(sandbox_server, "api", "/v1/system/ips", headers=headers)
        assert r.status_code == 401 and r.json()["code"] == -401


# ---------------------------------------------------------------------------- client frames
def test_current_frame_types(tk):
    df = tk.status.current()
    assert isinstance(df.dtypes["status"], pd.CategoricalDtype) and df["status"].cat.ordered
    assert list(df["status"].cat.categories) == ["UNKNOWN", "GREEN", "MAINTENANCE", "YELLOW", "RED"]
    assert str(df.dtypes["updatedAt"]) == "datetime64[us, UTC]" or "UTC" in str(df.dtypes["updatedAt"])
    products = df[df["apiId"].isna()]
    assert list(products["productId"]) == list(PRODUCTS)
    assert df.attrs["meta"]["updatedAt"].tzinfo is not None


def test_current_frame_warns_on_unknown_ids(tk):
    with pytest.warns(StatusWarning, match="invalidProduct: nope"):
        df = tk.status.current(product=["local", "nope"])
    assert df.attrs["meta"]["warning"] == {"invalidProduct": ["nope"]}


def test_history_frame(tk):
    df = tk.status.history(days=7)
    assert df["date"].dt.tz is not None and df["date"].nunique() == 7
    assert (df["status"] >= "GREEN").any()
    assert set(df["productId"]) == set(PRODUCTS)
    full = tk.status.history()
    assert full["date"].nunique() == 31 and (full["status"] == "RED").any()


def test_client_checks_bounds_before_sending(tk):
    with pytest.raises(errors.ParameterError, match="days"):
        tk.status.history(days=90)
    with pytest.raises(errors.ParameterError, match="lang"):
        tk.status.current(lang="de")
    with pytest.raises(errors.ParameterError, match="start"):
        tk.status.history(start="yesterday")
    with pytest.raises(errors.ParameterError, match="rule_type"):
        tk.system.ips(rule_type="both")


def test_ips_frame(tk):
    df = tk.system.ips()
    assert set(df["rule_type"]) == {"inbound", "outbound"}
    assert set(df["kind"]) == {"current", "addition", "exclusion"}
    assert df["change_date"].dt.tz is not None and df.attrs["meta"]["updatedDate"]
    assert df[df["kind"] != "current"]["change_date"].notna().all()
    raw = tk.system.ips(raw=True)
    assert len(df[df["kind"] == "current"]) == sum(len(e["ips"]) for k in ("inbound", "outbound") for e in raw[k])


def test_report_draws_heatmap_and_summary(tk):
    import matplotlib

    matplotlib.use("Agg")
    fig = tk.status.report(days=10)
    top, bottom = fig.axes[:2]
    assert "Current status" in top.get_title() and "Daily status" in bottom.get_title()
    assert len(bottom.get_yticklabels()) == len(PRODUCTS)
    by_api = tk.status.report(days=10, by="api")
    assert len(by_api.axes[1].get_yticklabels()) >= 1


def test_async_client_gives_the_same_frames(sandbox_server):
    import asyncio

    from tests.conftest import client_for
    from toolkit.client import AsyncClient

    atk = client_for(sandbox_server, AsyncClient)

    async def main():
        try:
            return await atk.status.current(), await atk.system.ips(rule_type="outbound")
        finally:
            await atk.aclose()

    current, ips = asyncio.run(main())
    assert list(current[current["apiId"].isna()]["productId"]) == list(PRODUCTS)
    assert set(ips["rule_type"]) == {"outbound"}
