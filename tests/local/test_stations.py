"""Stations as the city has them: every station of the lines serving Busan (the operators' counts), one place per
station and line with a point (estimated points said), and one row per station for a ranking, so that a
transfer station counts once."""
from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pandas as pd
import pytest

import toolkit.data
from toolkit.errors import ParameterError
from toolkit.local import BUSAN_RECT

DATA = toolkit.data.root() / "local"
REPO = Path(__file__).resolve().parents[2]
# Stations per whole line as the operators publish them: 부산교통공사 (lines 1–4: 40, 43, 17, 14), B&G Metro
# (부산김해경전철, 사상–가야대: 21), 한국철도공사 (동해선 광역전철, 부전–태화강: 23); and how many lie in Busan
# (line 2's 호포 … 양산 are in 양산시, the light rail's 불암 … 가야대 in 김해시, the 동해선's 서생 … 태화강 in 울산).
OPERATOR_COUNTS = {"1호선": 40, "2호선": 43, "3호선": 17, "4호선": 14, "부산김해경전철": 21, "동해선": 23}
IN_BUSAN = {"1호선": 40, "2호선": 38, "3호선": 17, "4호선": 14, "부산김해경전철": 9, "동해선": 17}
DISTRICTS = ["중구", "서구", "동구", "영도구", "부산진구", "동래구", "남구", "북구", "해운대구", "사하구", "금정구",
             "강서구", "연제구", "수영구", "사상구", "기장군"]


def _rows(name):
    return list(csv.DictReader(io.StringIO((DATA / name).read_text("utf-8"))))


def test_every_line_has_the_operators_count_of_stations_in_order():
    rows = _rows("transit_stations.csv")
    for line, count in OPERATOR_COUNTS.items():
        on = sorted((r for r in rows if r["line"] == line), key=lambda r: int(r["seq"]))
        assert len(on) == count, line
        assert [int(r["seq"]) for r in on] == list(range(1, count + 1)), line
        assert sum(r["in_busan"] == "1" for r in on) == IN_BUSAN[line], line
        inside = [r["in_busan"] for r in on]
        assert inside == sorted(inside, reverse=True), line      # the city's stations first, then past the border
        assert len({r["code"] for r in on}) == count and all(r["official_name"] for r in on)
    ends = {line: [r["station"] for r in rows if r["line"] == line] for line in OPERATOR_COUNTS}
    assert (ends["1호선"][0], ends["1호선"][-1]) == ("다대포해수욕장", "노포")
    assert (ends["2호선"][0], ends["2호선"][-1]) == ("장산", "양산")
    assert (ends["부산김해경전철"][0], ends["부산김해경전철"][-1]) == ("사상", "가야대")
    assert (ends["동해선"][0], ends["동해선"][-1]) == ("부전", "태화강") and "부산원동" in ends["동해선"]


def test_the_station_table_is_the_official_one_it_was_built_from():
    """transit_stations.csv holds exactly the stations, codes and official names of station_lines.csv (the KRIC
    station code table, build_station_lines.py), whose names match the platform's (the note in brackets dropped)."""
    source = REPO / "datasets" / "local" / "station_lines.csv"
    if not source.exists():
        pytest.skip("an installed wheel carries no datasets/ folder")
    official = list(csv.DictReader(io.StringIO(source.read_text("utf-8"))))
    rows = _rows("transit_stations.csv")
    keep = ("line", "seq", "code", "official_name", "station", "in_busan")
    assert [{k: r[k] for k in keep} for r in rows] == official
    for r in official:
        assert r["station"] == re.sub(r"\([^)]*\)", "", r["official_name"]).replace(".", "")


def test_every_point_is_in_busan_and_says_where_it_comes_from():
    from shapely.geometry import Point, shape

    city = next(shape(f["geometry"]) for f in json.loads((DATA / "regions_b.geojson").read_text("utf-8"))["features"]
                if f["properties"]["level"] == "sido")
    rows = _rows("transit_stations.csv")
    for r in rows:
        if r["in_data"] == "1":
            assert r["in_busan"] == "1" and city.buffer(0.001).contains(Point(float(r["x"]), float(r["y"]))), r
            assert r["point_source"] in ("building", "transfer", "businesses")
        else:
            assert not r["x"] and not r["point_source"]                     # nothing invented
    donghae = [r for r in rows if r["line"] == "동해선" and r["in_busan"] == "1"]
    assert sum(r["in_data"] == "1" for r in donghae) >= 15                  # 3 station buildings before this round
    assert {r["station"] for r in donghae if r["point_source"] == "building"} == {"거제해맞이", "신해운대", "오시리아"}
    # a 동해선 station named like a metro station takes the estimate of that name: said in shared_name
    shared = {r["station"] for r in donghae if r["shared_name"] == "1"}
    assert shared == {"부전", "거제", "교대", "동래", "벡스코", "좌천"}
    places = {p["place_name"]: p for p in _rows("station_places.csv")}
    for r in donghae:
        if r["point_source"] == "businesses":
            p = places[f"{r['station']}역 동해선"]
            assert p["point_source"] == "businesses" and not p["road_address_name"] and p["category_group_code"] == "SW8"


def test_station_id_groups_a_station_on_several_lines_and_nothing_else():
    rows = _rows("transit_stations.csv")
    by_id: dict[str, list[dict]] = {}
    for r in rows:
        by_id.setdefault(r["station_id"], []).append(r)
    for members in by_id.values():
        assert len({m["station"] for m in members}) == 1 and len({m["line"] for m in members}) == len(members)
    lines_of = {r["station"] + "@" + r["line"]: r["station_id"] for r in rows}
    assert lines_of["서면@1호선"] == lines_of["서면@2호선"] == "119"
    assert lines_of["덕천@2호선"] == lines_of["덕천@3호선"]
    assert lines_of["좌천@1호선"] != lines_of["좌천@동해선"]               # 동구 and 기장군: two stations
    assert lines_of["사상@2호선"] == lines_of["사상@부산김해경전철"]


def test_stations_of_merges_the_lines_of_one_station_as_the_platform_names_them(tk):
    # places as the real platform writes them: one per line, the platforms some 100-200 m apart
    places = pd.DataFrame({
        "id": ["1", "2", "3", "4", "5", "6"],
        "place_name": ["서면역 2호선", "서면역 1호선", "좌천역 1호선", "좌천역 동해선", "부산역", "연산역 3호선"],
        "category_group_code": ["SW8", "SW8", "SW8", "SW8", "", "SW8"],
        "x": [129.0597, 129.0592, 129.0530, 129.2448, 129.0414, 129.0815],
        "y": [35.1571, 35.1579, 35.1395, 35.3127, 35.1151, 35.1858],
        "distance": [120.0, 40.0, 2100.0, 21000.0, 4900.0, 3200.0]})
    out = tk.local.stations_of(places)
    assert list(out["station"]) == ["서면역", "좌천역", "좌천역", "부산역", "연산역"]
    seomyeon = out.iloc[0]
    assert (seomyeon["lines"], seomyeon["line_count"], seomyeon["places"], seomyeon["ids"]) == ("1호선, 2호선", 2, 2,
                                                                                               ["1", "2"])
    assert seomyeon["distance"] == 40.0 and seomyeon["place_name"] == "서면역 2호선"     # the nearest; the first row
    assert out.iloc[3]["lines"] == "" and out.attrs["stations_of"] == {"places": 6, "stations": 5, "within_m": 1000.0}
    assert len(tk.local.stations_of(places, within=50)) == 6                 # 서면's two platforms are 90 m apart
    empty = tk.local.stations_of(places.iloc[0:0])
    assert len(empty) == 0 and list(empty.columns)[:5] == ["station", "lines", "line_count", "places", "ids"]
    cafes = places.assign(category_group_code=["SW8", "CE7", "SW8", "SW8", "", "SW8"])
    with pytest.raises(ParameterError, match=r"places=\['CE7'\]: holds places of other category groups"):
        tk.local.stations_of(cafes)
    with pytest.raises(ParameterError, match="place_name"):
        tk.local.stations_of(places.drop(columns="place_name"))
    with pytest.raises(ParameterError, match="frame of places"):
        tk.local.stations_of([("서면역 1호선", 129.0, 35.1)])


def test_a_ranking_of_districts_counts_a_transfer_station_once(tk):
    """Stations per district from the search, one row per station (stations_of), equal the table's stations
    (distinct station_id) in each district; the per-line places count a transfer station twice."""
    rows = _rows("transit_stations.csv")
    marks = {p["place_name"]: p for p in _rows("landmarks.csv") + _rows("station_places.csv")}
    truth: dict[str, set] = {}
    for r in rows:
        if r["in_data"] == "1":
            district = marks[f"{r['station']}역 {r['line']}"]["address_name"].split()[1]
            truth.setdefault(district, set()).add(r["station_id"])
    places_by, stations_by = {}, {}
    for district in DISTRICTS:
        found = tk.local.keyword_all(f"{district} 지하철역", category_group_code="SW8", rect=BUSAN_RECT)
        places_by[district] = len(found)
        stations_by[district] = len(tk.local.stations_of(found))
    assert stations_by == {d: len(truth.get(d, ())) for d in DISTRICTS}
    assert places_by["부산진구"] - stations_by["부산진구"] == 2              # 서면 (1, 2) and 부전 (1, 동해선)
    assert sum(places_by.values()) > sum(stations_by.values())
