"""Local area over real HTTP: sandbox bounds, formats, conditional rules, paging, regions of known points,
coordinate round trips, the client's frames, bulk geocoding and folium maps."""
from __future__ import annotations

import math
import sys
import xml.etree.ElementTree as ET

import httpx
import pandas as pd
import pytest

from toolkit import errors
from toolkit.local import BUSAN_RECT

JSON = "application/json;charset=UTF-8"
XML = "text/xml;charset=UTF-8"
# 부산광역시 부산진구 전포동 341-17 / 동성로39번길 4 (a real address of the data set)
JEONPO = (129.068245, 35.154101)


def get(server, path, key=None, **params):
    key = key or server.app_config()["rest_api_key"]
    return httpx.get(server.hosts()["local"] + path, params=params, headers={"Authorization": f"ServiceAK {key}"},
                     timeout=30)


def err(r, status=400, code=-2):
    assert r.status_code == status, r.text
    assert r.json()["code"] == code
    return r.json()["msg"]


# ---------------------------------------------------------------------------- auth, formats
def test_needs_a_rest_api_key(sandbox_server):
    r = httpx.get(sandbox_server.hosts()["local"] + "/v2/local/search/address.json", params={"query": "전포동"})
    err(r, 401, -401)
    admin = sandbox_server.app_config()["admin_key"]
    err(get(sandbox_server, "/v2/local/search/address.json", key=admin, query="전포동"), 401, -401)


def test_json_and_xml_formats_carry_the_same_answer(sandbox_server):
    j = get(sandbox_server, "/v2/local/search/address.json", query="전포동 341-17")
    x = get(sandbox_server, "/v2/local/search/address.xml", query="전포동 341-17")
    assert j.headers["content-type"] == JSON and x.headers["content-type"] == XML
    root = ET.fromstring(x.content)
    doc = j.json()["documents"][0]
    assert root.findtext("meta/total_count") == "1" and root.findtext("meta/is_end") == "true"
    assert root.findtext("documents/document/address/h_code") == doc["address"]["h_code"] == "2623060000"
    assert root.findtext("documents/document/road_address/zone_no") == doc["road_address"]["zone_no"]
    assert get(sandbox_server, "/v2/local/search/address.csv", query="x").status_code == 404


# ---------------------------------------------------------------------------- 4.1 address search
def test_land_lot_address_document(sandbox_server):
    body = get(sandbox_server, "/v2/local/search/address.json", query="부산 부산진구 전포동 341-17").json()
    assert body["meta"] == {"total_count": 1, "pageable_count": 1, "is_end": True}
    doc = body["documents"][0]
    assert doc["address_type"] == "REGION_ADDR" and doc["address_name"] == "부산광역시 부산진구 전포동 341-17"
    assert (float(doc["x"]), float(doc["y"])) == JEONPO
    a, r = doc["address"], doc["road_address"]
    assert (a["b_code"], a["region_3depth_h_name"], a["main_address_no"], a["sub_address_no"]) == \
        ("2623010200", "전포제1동", "341", "17")
    assert (r["road_name"], r["main_building_no"], r["sub_building_no"], r["zone_no"]) == ("동성로39번길", "4", "", "47305")


def test_road_region_and_road_name_documents(sandbox_server):
    road_addr = get(sandbox_server, "/v2/local/search/address.json", query="동성로39번길 4").json()["documents"]
    assert [d["address_type"] for d in road_addr] == ["ROAD_ADDR"]
    assert road_addr[0]["address"]["address_name"] == "부산광역시 부산진구 전포동 341-17"
    region = get(sandbox_server, "/v2/local/search/address.json", query="부산진구 전포동").json()["documents"]
    assert [(d["address_type"], d["road_address"]) for d in region] == [("REGION", None)]
    assert region[0]["address"]["b_code"] == "2623010200" and region[0]["address"]["main_address_no"] == ""
    road = get(sandbox_server, "/v2/local/search/address.json", query="동성로39번길").json()["documents"]
    assert [(d["address_type"], d["address"]) for d in road] == [("ROAD", None)]
    assert road[0]["road_address"]["road_name"] == "동성로39번길"
    ri = get(sandbox_server, "/v2/local/search/address.json", query="기장군 정관읍 매학리").json()["documents"]
    assert ri[0]["address"]["region_3depth_name"] == "정관읍 매학리"


def test_similar_and_exact(sandbox_server):
    similar = get(sandbox_server, "/v2/local/search/address.json", query="부산진구 전포동 341", size=30).json()
    exact = get(sandbox_server, "/v2/local/search/address.json", query="부산진구 전포동 341",
                analyze_type="exact").json()
    assert similar["meta"]["total_count"] > 1 and exact["meta"]["total_count"] <= 1
    assert all(d["address"]["main_address_no"] == "341" for d in similar["documents"])
    assert get(sandbox_server, "/v2/local/search/address.json", query="전포동 341-17 뒤에",
               analyze_type="exact").json()["meta"]["total_count"] == 0
    err(get(sandbox_server, "/v2/local/search/address.json", query="전포동", analyze_type="fuzzy"))


def test_address_paging_and_bounds(sandbox_server):
    full = get(sandbox_server, "/v2/local/search/address.json", query="부산진구 전포동 341", size=30).json()
    n = full["meta"]["total_count"]
    names = []
    page = 1
    while True:
        body = get(sandbox_server, "/v2/local/search/address.json", query="부산진구 전포동 341", size=3,
                   page=page).json()
        names += [d["address_name"] for d in body["documents"]]
        assert body["meta"]["is_end"] == (page * 3 >= n)
        if body["meta"]["is_end"]:
            break
        page += 1
    assert names == [d["address_name"] for d in full["documents"]]
    for bad in ({"page": 0}, {"page": 46}, {"size": 0}, {"size": 31}, {"page": "x"}):
        err(get(sandbox_server, "/v2/local/search/address.json", query="전포동", **bad))
    err(get(sandbox_server, "/v2/local/search/address.json"))
    ok = get(sandbox_server, "/v2/local/search/address.json", query="전포동", page=45, size=30).json()
    assert ok["documents"] == [] and ok["meta"]["is_end"] is True


# ---------------------------------------------------------------------------- 4.2–4.4 coordinates
def test_regions_of_known_points(sandbox_server):
    docs = get(sandbox_server, "/v2/local/geo/coord2regioncode.json", x=JEONPO[0], y=JEONPO[1]).json()["documents"]
    assert [(d["region_type"], d["code"], d["region_3depth_name"]) for d in docs] == \
        [("B", "2623010200", "전포동"), ("H", "2623060000", "전포제1동")]
    assert all(d["region_4depth_name"] == "" for d in docs)     # present in every document, "" without a 리
    # a 리 of 기장군: region_4depth_name names it on the B document
    ri = get(sandbox_server, "/v2/local/geo/coord2regioncode.json", x=129.2, y=35.32).json()["documents"]
    assert ri[0]["region_type"] == "B" and ri[0]["region_4depth_name"].endswith("리")
    assert ri[0]["code"].startswith("2671025") and ri[1]["region_4depth_name"] == ""


def test_sea_and_outside_the_world(sandbox_server):
    sea = get(sandbox_server, "/v2/local/geo/coord2regioncode.json", x=129.2, y=35.05).json()
    assert sea["meta"]["total_count"] == 2
    assert all("region_1depth_name" not in d and d["address_name"] == "" for d in sea["documents"])
    far = get(sandbox_server, "/v2/local/geo/coord2regioncode.json", x=127.0, y=37.5).json()
    assert far == {"meta": {"total_count": 0}, "documents": []}


def test_every_sampled_address_falls_in_its_own_legal_dong(sandbox_server):
    import gzip, csv, io
    rows = list(csv.DictReader(io.StringIO(gzip.decompress(
        (sandbox_server.sandbox.datasets / "local" / "addresses.csv.gz").read_bytes()).decode())))
    for a in rows[::1500]:
        docs = get(sandbox_server, "/v2/local/geo/coord2regioncode.json", x=a["x"], y=a["y"]).json()["documents"]
        assert docs[0]["code"] == a["b_code"], a["address_name"]


def test_coord2address_with_and_without_road_address(sandbox_server):
    body = get(sandbox_server, "/v2/local/geo/coord2address.json", x=JEONPO[0], y=JEONPO[1]).json()
    assert body["meta"]["total_count"] == 1
    doc = body["documents"][0]
    assert doc["address"]["address_name"] == "부산광역시 부산진구 전포동 341-17"
    assert doc["road_address"]["address_name"] == "부산광역시 부산진구 동성로39번길 4"
    no_road = get(sandbox_server, "/v2/local/geo/coord2address.json", x=129.2, y=35.32).json()["documents"][0]
    assert no_road["road_address"] is None and no_road["address"]["region_2depth_name"] == "기장군"
    assert get(sandbox_server, "/v2/local/geo/coord2address.json", x=129.2, y=35.05).json()["meta"]["total_count"] == 0
    # the same point given in WTM
    wtm = get(sandbox_server, "/v2/local/geo/transcoord.json", x=JEONPO[0], y=JEONPO[1],
              output_coord="WTM").json()["documents"][0]
    again = get(sandbox_server, "/v2/local/geo/coord2address.json", input_coord="WTM", **wtm).json()
    assert again["documents"][0]["address"]["address_name"] == doc["address"]["address_name"]
    err(get(sandbox_server, "/v2/local/geo/coord2address.json", x=1, y=2, input_coord="KTM"))
    err(get(sandbox_server, "/v2/local/geo/coord2address.json", x=129.0))


def test_transcoord_known_values_and_round_trips(sandbox_server):
    def tc(x, y, src, dst):
        r = get(sandbox_server, "/v2/local/geo/transcoord.json", x=x, y=y, input_coord=src, output_coord=dst)
        assert r.status_code == 200, r.text
        d = r.json()["documents"][0]
        return d["x"], d["y"]

    # the origins of the belts
    assert tc(127.0, 38.0, "WGS84", "WTM") == pytest.approx((200000.0, 500000.0), abs=0.01)
    assert tc(128.0, 38.0, "WGS84", "WKTM") == pytest.approx((400000.0, 600000.0), abs=0.01)
    utm = tc(129.0, 35.0, "WGS84", "UTM")
    assert 500000 < utm[0] < 700000 and 3.8e6 < utm[1] < 3.9e6
    cx, cy = tc(*JEONPO, "WGS84", "WCONGNAMUL")
    wx, wy = tc(*JEONPO, "WGS84", "WTM")
    assert (cx, cy) == (math.floor(wx * 2.5 + 0.5), math.floor(wy * 2.5 + 0.5))
    for system in ("WTM", "TM", "KTM", "UTM", "BESSEL", "WKTM", "WUTM"):
        x, y = tc(*JEONPO, "WGS84", system)
        back = tc(x, y, system, "WGS84")
        assert back == pytest.approx(JEONPO, abs=1e-7), system
    # TM and WTM differ by the datum shift (hundreds of metres), not by nothing
    tm = tc(*JEONPO, "WGS84", "TM")
    assert 100 < math.dist(tm, (wx, wy)) < 1000
    err(get(sandbox_server, "/v2/local/geo/transcoord.json", x=1, y=2, output_coord="EPSG"))


# ---------------------------------------------------------------------------- 4.5–4.6 places
def test_keyword_region_recognition(sandbox_server):
    city = ",".join(map(str, BUSAN_RECT))
    body = get(sandbox_server, "/v2/local/search/keyword.json", query="부산진구 카페", rect=city).json()
    assert body["meta"]["same_name"] == {"region": ["부산광역시 부산진구"], "keyword": "카페",
                                         "selected_region": "부산광역시 부산진구"}
    assert body["meta"]["pageable_count"] == 45 and body["meta"]["total_count"] > 45
    assert all(d["address_name"].startswith("부산광역시 부산진구") for d in body["documents"])
    assert all("distance" not in d for d in body["documents"]) and len(body["documents"]) == 15
    plain = get(sandbox_server, "/v2/local/search/keyword.json", query="카페", rect=city).json()
    assert plain["meta"]["same_name"] == {"region": [], "keyword": "카페", "selected_region": ""}
    assert plain["meta"]["total_count"] > body["meta"]["total_count"]


def test_keyword_radius_distance_sort_and_category_filter(sandbox_server):
    c = (129.059, 35.158)
    body = get(sandbox_server, "/v2/local/search/keyword.json", query="약국", x=c[0], y=c[1], radius=500,
               sort="distance", category_group_code="PM9").json()
    d = [int(doc["distance"]) for doc in body["documents"]]
    assert d and d == sorted(d) and d[-1] <= 500
    assert {doc["category_group_code"] for doc in body["documents"]} == {"PM9"}


def test_place_conditional_rules_and_bounds(sandbox_server):
    k = "/v2/local/search/keyword.json"
    assert "radius" in err(get(sandbox_server, k, query="약국", radius=100))
    assert "together" in err(get(sandbox_server, k, query="약국", x=129.0))
    assert "distance" in err(get(sandbox_server, k, query="약국", sort="distance", rect="129.0,35.1,129.1,35.2"))
    for bad in ({"radius": 20001}, {"radius": -1}, {"page": 46}, {"size": 16}, {"size": 0}):
        err(get(sandbox_server, k, query="약국", x=129.05, y=35.15, **bad))
    err(get(sandbox_server, k, query="약국", rect="1,2,3"))
    err(get(sandbox_server, k, query="약국", category_group_code="XX1"))
    err(get(sandbox_server, k))
    # location §4.5 as stated: the centre set or rect is required for a keyword search too
    assert "rect" in err(get(sandbox_server, k, query="약국"))
    assert "rect" in err(get(sandbox_server, k, query="약국", x=129.05, y=35.15))
    assert get(sandbox_server, k, query="약국", x=129.05, y=35.15, radius=100).status_code == 200
    c = "/v2/local/search/category.json"
    err(get(sandbox_server, c, x=129.05, y=35.15, radius=100))            # code required
    assert "rect" in err(get(sandbox_server, c, category_group_code="PM9"))
    assert "rect" in err(get(sandbox_server, c, category_group_code="PM9", x=129.05, y=35.15))
    assert get(sandbox_server, c, category_group_code="PM9", x=129.05, y=35.15, radius=20000).status_code == 200


def test_category_by_rect_has_empty_distance_and_null_same_name(sandbox_server):
    rect = "129.05,35.15,129.07,35.16"
    body = get(sandbox_server, "/v2/local/search/category.json", category_group_code="PM9", rect=rect).json()
    assert body["meta"]["same_name"] is None and body["documents"]
    for d in body["documents"]:
        assert d["distance"] == "" and d["category_group_code"] == "PM9" and d["category_group_name"] == "약국"
        assert 129.05 <= float(d["x"]) <= 129.07 and 35.15 <= float(d["y"]) <= 35.16
    empty = get(sandbox_server, "/v2/local/search/category.json", category_group_code="SW8",
                rect="129.30,35.10,129.31,35.11").json()                    # open sea: no station
    assert empty["meta"]["total_count"] == 0 and empty["documents"] == []


def test_place_paging_stops_at_45(sandbox_server):
    ids = []
    for page in (1, 2, 3, 4):
        body = get(sandbox_server, "/v2/local/search/keyword.json", query="카페", page=page, rect=",".join(map(str, BUSAN_RECT))).json()
        ids += [d["id"] for d in body["documents"]]
        assert body["meta"]["is_end"] == (page >= 3)
    assert len(ids) == len(set(ids)) == 45


def test_quota_error_minus_10(fresh_server):
    r = httpx.post(fresh_server.base_url + "/sandbox/quotas", json={"api": "local_search_keyword", "limit": 1})
    assert r.status_code < 300
    city = ",".join(map(str, BUSAN_RECT))
    assert get(fresh_server, "/v2/local/search/keyword.json", query="카페", rect=city).status_code == 200
    err(get(fresh_server, "/v2/local/search/keyword.json", query="카페", rect=city), 400, -10)


# ---------------------------------------------------------------------------- client
def test_client_frames(tk):
    df = tk.local.address("전포동 341-17")
    assert df["x"].dtype == "float64" and df.loc[0, "road_address.zone_no"] == "47305"
    assert df["address.x"].dtype == "float64" and df.attrs["meta"]["total_count"] == 1
    regions = tk.local.regions(*JEONPO)
    assert list(regions["region_type"]) == ["B", "H"] and regions["x"].dtype == "float64"
    assert tk.local.coord2address(*JEONPO).loc[0, "road_address.road_name"] == "동성로39번길"
    tc = tk.local.transcoord(127.0, 38.0, output_coord="WTM")
    assert tc.loc[0, "x"] == pytest.approx(200000.0, abs=0.01)
    places = tk.local.category("PM9", x=129.059, y=35.158, radius=500, sort="distance", size=5)
    assert len(places) == 5 and places["distance"].is_monotonic_increasing and places["distance"].dtype == "float64"
    assert tk.local.keyword("부산진구 카페", rect=BUSAN_RECT, size=1).attrs["meta"]["same_name"]["keyword"] == "카페"
    assert tk.local.transcoord(127.0, 38.0, format="xml").startswith("<?xml")


def test_client_all_pages(tk):
    every = tk.local.keyword_all("약국", rect=BUSAN_RECT)
    assert len(every) == 45 and every["id"].is_unique and every.attrs["meta"]["pages"] == 3
    two = tk.local.keyword_all("약국", rect=BUSAN_RECT, max_pages=2)
    assert len(two) == 30 and list(two["id"]) == list(every["id"][:30])
    addr = tk.local.address_all("부산진구 전포동 341", size=2)
    assert len(addr) == addr.attrs["meta"]["total_count"] and addr["address_name"].is_unique


def test_client_bound_checks_raise_before_sending(tk):
    before = len(tk.core.attempts_log)
    for call in (lambda: tk.local.address("x", size=31), lambda: tk.local.address("x", page=0),
                 lambda: tk.local.address(""), lambda: tk.local.keyword("x", rect=BUSAN_RECT, size=16), lambda: tk.local.keyword("x"),
                 lambda: tk.local.keyword("x", radius=10), lambda: tk.local.keyword("x", sort="distance"),
                 lambda: tk.local.keyword("x", x=1, y=2, radius=20001), lambda: tk.local.category("PM9"),
                 lambda: tk.local.category("ZZ9", rect=(1, 2, 3, 4)), lambda: tk.local.transcoord(1, 2, "EPSG"),
                 lambda: tk.local.regions(1, 2, output_coord="KTM"), lambda: tk.local.keyword_all("x", max_pages=46)):
        with pytest.raises(errors.ParameterError):
            call()
    assert len(tk.core.attempts_log) == before


def test_geocode_frame_dedupes_and_keeps_every_row(tk, tmp_path):
    df = pd.DataFrame({"addr": ["전포동 341-17", "부산진구  전포동 341", None, "없는곳 1", "전포동 341-17",
                                "동성로39번길 4", ""]}, index=[10, 11, 12, 13, 14, 15, 16])
    before = len(tk.core.attempts_log)
    out = tk.local.geocode(df, "addr", cache=tmp_path / "geo.sqlite", progress=False)
    assert len(tk.core.attempts_log) - before == 4
    assert list(out.index) == list(df.index) and list(out["addr"].iloc[:2]) == list(df["addr"].iloc[:2])
    assert list(out["geocode_status"]) == ["matched", "ambiguous", "empty", "not_found", "matched", "matched",
                                           "empty"]
    assert (out.loc[10, "x"], out.loc[10, "y"]) == JEONPO and out["x"].dtype == "float64"
    assert math.isnan(out.loc[13, "x"]) and out.loc[13, "geocode_matches"] == 0
    assert out.attrs["geocode"]["queries"] == 4 and out.attrs["geocode"]["requests"] == 4
    again = tk.local.geocode(df["addr"], cache=tmp_path / "geo.sqlite", progress=False)
    assert again.attrs["geocode"]["requests"] == 0 and again.attrs["geocode"]["cache_hits"] == 4
    assert again["x"].equals(out["x"])


def test_geocode_stops_cleanly_on_quota(fresh_tk):
    fresh_tk.sandbox.set_quota("local_search_address", 2)
    s = pd.Series(["전포동 341-17", "동성로39번길 4", "부산진구 전포동", "중앙대로 213"])
    with pytest.warns(UserWarning, match="quota"):
        out = fresh_tk.local.geocode(s, progress=False, concurrency=1)
    assert list(out["geocode_status"])[:2] == ["matched", "matched"]
    assert list(out["geocode_status"])[2:] == ["not_done", "not_done"]
    assert out.attrs["geocode"]["stopped_by_quota"] is True and out.attrs["geocode"]["resume_at"] == 2


def test_maps_build_without_importing_folium_at_import(tk):
    import subprocess
    code = "import toolkit, toolkit.maps, toolkit.local, sys; print('folium' in sys.modules)"
    assert subprocess.run([sys.executable, "-c", code], capture_output=True, text=True).stdout.strip() == "False"
    from toolkit.maps import geocoded_map, places_map
    places = tk.local.category("PM9", x=129.059, y=35.158, radius=500)
    m = places_map(places, center=(129.059, 35.158), radius=500)
    html = m.get_root().render()
    assert html.count("L.marker(") == len(places) + 0 and "L.circle(" in html and "fitBounds" in html
    many = tk.local.keyword_all("카페", rect=BUSAN_RECT)
    clustered = places_map(many, cluster=True).get_root().render()
    assert "markerClusterGroup" in clustered
    geo = tk.local.geocode(pd.Series(["전포동 341-17", "없는곳 1"]), progress=False)
    gm = geocoded_map(geo, "address").get_root().render()
    assert gm.count("L.marker(") == 1
