"""Geocoding an analyst can count on: the sandbox's own addresses geocode back to themselves in every written form
(city-wide and the 읍/면 forms of 기장군), a region-only answer has its own status, ``ambiguous`` only for
different places, and every unmatched row says why."""
from __future__ import annotations

import csv
import gzip
import io
import random
from collections import defaultdict

import pandas as pd
import pytest

import toolkit.data
from toolkit.geocodes import judge

DATA = toolkit.data.__path__[0] + "/local/addresses.csv.gz"
PER_DISTRICT = 25


def _addresses() -> list[dict]:
    with open(DATA, "rb") as fh:
        return list(csv.DictReader(io.StringIO(gzip.decompress(fh.read()).decode("utf-8"))))


def _drop(text: str, words: set[str]) -> str:
    return " ".join(w for w in text.split() if w not in words)


def _forms(a: dict) -> list[tuple[str, str]]:
    """(query, the address it must come back as): the road and land-lot address as the sandbox writes them, without
    the city, and (in a county) without the 읍/면 or, for a lot, without the 읍/면 but with the 리."""
    road, lot = a["road_address_name"], a["address_name"]
    city = {a["region_1depth_name"]}
    out = [(road, road), (lot, lot), (_drop(road, city), road), (_drop(lot, city), lot)]
    if a["region_4depth_name"]:                                    # 기장군: 읍/면 and 리
        eup = {a["region_3depth_name"]}
        out += [(_drop(road, city | eup), road), (_drop(lot, city | eup), lot), (_drop(road, eup), road)]
    return out


def _sample() -> dict[str, list[dict]]:
    by_district = defaultdict(list)
    for a in _addresses():
        by_district[a["region_2depth_name"]].append(a)
    rng = random.Random(37)
    return {d: rng.sample(rows, min(PER_DISTRICT, len(rows))) for d, rows in sorted(by_district.items())}


def _round_trip(tk, rows: list[dict]) -> pd.DataFrame:
    pairs = [p for a in rows for p in _forms(a)]
    queries = pd.DataFrame(pairs, columns=["query", "expected"])
    out = tk.local.geocode(queries, "query", progress=False)
    out["back"] = (out["geocode_status"] == "matched") & (out["geocode_address"] == out["expected"])
    return out


def test_the_sandbox_addresses_of_every_district_geocode_back_to_themselves(tk, capsys):
    sample = _sample()
    assert len(sample) == 16
    rates = {}
    frames = []
    for district, rows in sample.items():
        out = _round_trip(tk, rows)
        rates[district] = (int(out["back"].sum()), len(out))
        frames.append(out)
    every = pd.concat(frames, ignore_index=True)
    with capsys.disabled():
        print("\nround trip per district (matched and the same address / queries):")
        for d, (ok, n) in rates.items():
            print(f"  {d:6s} {ok:4d}/{n:4d} {100 * ok / n:6.2f}%")
        print(f"  city   {int(every['back'].sum())}/{len(every)} {100 * every['back'].mean():.2f}%")
    assert every["back"].mean() >= 0.99, every.loc[~every["back"], ["query", "geocode_status", "geocode_address"]]
    assert min(ok / n for ok, n in rates.values()) >= 0.97, rates


def test_gijang_road_addresses_with_their_eup_and_myeon_geocode(tk):
    """The 40 restaurants of 기장군 that a category sweep returns, fed back by their road and lot addresses."""
    rows = [a for a in _addresses() if a["region_2depth_name"] == "기장군"]
    rng = random.Random(40)
    picked = rng.sample(rows, 40)
    road = tk.local.geocode([a["road_address_name"] for a in picked], progress=False)
    lot = tk.local.geocode([a["address_name"] for a in picked], progress=False)
    assert (road["geocode_status"] == "matched").all(), road.loc[road["geocode_status"] != "matched"]
    assert list(road["geocode_address"]) == [a["road_address_name"] for a in picked]
    assert list(lot["geocode_address"]) == [a["address_name"] for a in picked]
    one = tk.local.address("부산광역시 기장군 기장읍 기장대로 507")
    assert list(one["address_name"]) == ["부산광역시 기장군 기장읍 기장대로 507"]
    # a 리 without its 읍: the lot is found in that 리
    assert list(tk.local.address("기장군 청강리 795-42")["address_name"]) == ["부산광역시 기장군 기장읍 청강리 795-42"]


def test_a_region_only_answer_is_not_matched(tk):
    out = tk.local.geocode(["부산", "해운대구", "부산진구 전포동", "중앙대로", "부산진구 전포동 341-17"], progress=False)
    assert list(out["geocode_status"]) == ["region", "region", "region", "region", "matched"]
    assert out["geocode_reason"].iloc[:4].str.startswith("region only").all()
    assert out["geocode_reason"].isna().iloc[4]


def test_ambiguous_only_for_different_places(tk):
    # the first document is the exact address: the N-M neighbours the similar search adds do not make it ambiguous
    body = tk.local.address("금정구 부곡로 120", size=10)
    assert len(body) > 1 and body["address_name"].iloc[0] == "부산광역시 금정구 부곡로 120"
    out = tk.local.geocode(["금정구 부곡로 120"], progress=False)
    assert out["geocode_status"].iloc[0] == "matched" and out["geocode_address"].iloc[0] == "부산광역시 금정구 부곡로 120"
    # the same road name and number in different districts: different places
    by_road_number = defaultdict(dict)
    for a in _addresses():
        if not a["sub_building_no"]:
            by_road_number[(a["road_name"], a["main_building_no"])][a["region_2depth_name"]] = (float(a["x"]),
                                                                                              float(a["y"]))
    far = [k for k, v in sorted(by_road_number.items()) if len(v) == 2 and
           abs(list(v.values())[0][0] - list(v.values())[1][0]) + abs(list(v.values())[0][1] -
                                                                       list(v.values())[1][1]) > 0.02]
    out = tk.local.geocode([f"{road} {main}" for road, main in far[:5]], progress=False)
    assert len(out) == 5 and (out["geocode_status"] == "ambiguous").all(), out
    # one building on a district border with an address in each district: ambiguous (counts by district differ)
    out = tk.local.geocode(["금강로 165"], progress=False)
    assert out["geocode_status"].iloc[0] == "ambiguous" and out["geocode_matches"].iloc[0] == 2


def test_judge_tells_one_place_from_several():
    def doc(name, x, y, main, sub=""):
        return {"address_name": name, "address_type": "ROAD_ADDR", "x": str(x), "y": str(y),
                "road_address": {"main_building_no": main, "sub_building_no": sub}}

    same = [doc("a 1", 129.0, 35.0, "1"), doc("a 1-1", 129.0003, 35.0, "1", "1")]
    assert judge({"total_count": 2, "documents": same}, "a 1")[:2] == ("matched", 0)
    same[0]["road_address"]["region_2depth_name"] = same[1]["road_address"]["region_2depth_name"] = "구"
    same.append(doc("b 1", 129.0001, 35.0, "1"))
    same[2]["road_address"]["region_2depth_name"] = "군"             # the same spot, another district
    assert judge({"total_count": 3, "documents": same}, "a 1")[:2] == ("ambiguous", 0)
    same = same[:2]
    assert judge({"total_count": 2, "documents": same}, "a 1")[:2] == ("matched", 0)
    two = [doc("구 a 1", 129.0, 35.0, "1"), doc("군 a 1", 129.1, 35.1, "1")]
    assert judge({"total_count": 2, "documents": two}, "a 1") == ("ambiguous", 0,
                                                                  "ambiguous: 2 places answer it: 구 a 1; 군 a 1")
    assert judge({"total_count": 0, "documents": []}, "a 1") == ("not_found", -1, None)


@pytest.mark.parametrize("query, start", [
    ("", "empty"),
    ("#$%!", "garbage"),
    ("asdf qwer", "garbage"),
    ("해운대구 해운대로 99999", "no building numbered 99999 on 해운대로 in 해운대구; nearest: "),
    ("해운대구 해운데로 626", "no such road name '해운데로' in 해운대구 (did you mean"),
    ("부산진구 전포동 99999", "no lot numbered 99999 in 부산진구 전포동; nearest: "),
])
def test_every_unmatched_row_says_why(tk, query, start):
    out = tk.local.geocode(pd.DataFrame({"a": [query]}), "a", progress=False)
    assert out["geocode_status"].iloc[0] in ("not_found", "empty")
    assert str(out["geocode_reason"].iloc[0]).startswith(start), out["geocode_reason"].iloc[0]
    if "did you mean" in start:
        assert "해운대로" in out["geocode_reason"].iloc[0]
