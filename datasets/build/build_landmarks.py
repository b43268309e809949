#!/usr/bin/env python3
"""Build the landmark places of the sandbox (toolkit/data/local/landmarks.csv) from official building names.

The store registry (the businesses of places_index.json.gz) has no schools, kindergartens, subway stations, banks, public offices,
culture facilities, parking buildings or attractions. The *building names* of its addresses do: the 건물명
field of the SEMAS data is the building's registered name in the national road-name address system
(e.g. ``부산대학교``, ``도시철도서면역``, ``해운대구청``, ``부산시립미술관``). Each distinct (building name, road
address) whose name ends in a word of one of the rules below becomes one place, at the address's point (a real
coordinate: the point of the businesses in that building). A name listing several institutions separated by
commas (``금정초등학교,금정유치원``) gives one place per part.

Input: ``toolkit/data/local/addresses.csv.gz`` only (every row passed the consistency checks of build_local.py).
No network, no package code; deterministic (same input, byte-identical output).

    python datasets/build/build_landmarks.py

Subway stations: a building name is a station when, without the prefixes 도시철도/부산지하철/지하철/N호선 and
the suffix 지하철역/역 and a note in brackets (``벡스코(시립미술관)역``), it is exactly a station name of a Busan Metro line (lines 1–4, the 부산김해경전철 light
rail and the 동해선 urban line; station lists below are public knowledge of the network). One place per
(station, line), named as the platform names them (``서면역 1호선``). Apartments or hotels that only contain a
station name (``퀸즈더블유장전역``) do not match. A name shared by a metro station and a 동해선 station
(거제, 교대, 동래, 벡스코, 부전) is taken as the metro station (the 동해선 stations of those names stand elsewhere
and cannot be told apart by the building name); a ``N호선`` or ``동해선`` prefix names the line.
"""
from __future__ import annotations

import argparse
import csv
import gzip
import io
import re
import zlib
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2] / "toolkit" / "data"   # the package data the sandbox reads

# ---------------------------------------------------------------------------------------------- metro lines
LINES = {
    "1호선": "다대포해수욕장 다대포항 낫개 신장림 장림 동매 신평 하단 당리 사하 괴정 대티 서대신 동대신 토성 자갈치 "
            "남포 중앙 부산 초량 부산진 좌천 범일 범내골 서면 부전 양정 시청 연산 교대 동래 명륜 온천장 부산대 장전 "
            "구서 두실 남산 범어사 노포",
    "2호선": "장산 중동 해운대 동백 벡스코 센텀시티 민락 수영 광안 금련산 남천 경성대부경대 대연 못골 지게골 문현 "
            "국제금융센터부산은행 전포 서면 부암 가야 동의대 개금 냉정 주례 감전 사상 덕포 모덕 모라 구남 구명 덕천 "
            "수정 화명 율리 동원 금곡 호포 증산 부산대양산캠퍼스 남양산 양산",
    "3호선": "수영 망미 배산 물만골 연산 거제 종합운동장 사직 미남 만덕 남산정 숙등 덕천 구포 강서구청 체육공원 대저",
    "4호선": "미남 동래 수안 낙민 충렬사 명장 서동 금사 반여농산물시장 석대 영산대 윗반송 고촌 안평",
    "부산김해경전철": "사상 괘법르네시떼 서부산유통지구 공항 덕두 등구 대저 평강 대사 불암",
    "동해선": "부전 거제해맞이 거제 교대 동래 안락 부산원동 재송 센텀 벡스코 신해운대 송정 오시리아 기장 일광 좌천 월내",
}
STATION_PREFIX = re.compile(r"^(도시철도|부산지하철|지하철|부산도시철도|[1-4]호선|동해선)+")
STATION_NOTE = re.compile(r"\([^)]*\)")      # "부산지하철벡스코(시립미술관)역": the name in brackets is a note
STATION_SUFFIX = re.compile(r"(지하철역|역)$")

# ---------------------------------------------------------------------------------------------- name rules
# (group code, group name, regex on one name part, category_name)
RULES = [
    ("PS3", "어린이집, 유치원", r"유치원$", "교육,학문 > 유치원"),
    ("PS3", "어린이집, 유치원", r"어린이집$", "교육,학문 > 어린이집"),
    ("SC4", "학교", r"초등학교$", "교육,학문 > 학교 > 초등학교"),
    ("SC4", "학교", r"중학교$", "교육,학문 > 학교 > 중학교"),
    ("SC4", "학교", r"고등학교$", "교육,학문 > 학교 > 고등학교"),
    ("SC4", "학교", r"(대학교|과학기술대학|대학)$", "교육,학문 > 학교 > 대학교"),
    ("SC4", "학교", r"(대학교|대학)\S*캠퍼스$", "교육,학문 > 학교 > 대학교"),   # 부경대학교대연캠퍼스
    ("SC4", "학교", r"(?<!직업전문)(?<!사과나무)학교$", "교육,학문 > 학교"),
    ("BK9", "은행", r"^(?!은행나무).*은행(\S*(지점|본점|출장소))?$", "금융,보험 > 금융서비스 > 은행"),
    ("BK9", "은행", r"(새마을금고|신협|농협|수협)(\S*(지점|본점))?$", "금융,보험 > 금융서비스 > 은행"),
    ("CT1", "문화시설", r"(도서관)$", "문화,예술 > 도서관"),
    ("CT1", "문화시설", r"(박물관|미술관|기념관|전시관|역사관)$", "문화,예술 > 전시관"),
    ("CT1", "문화시설", r"(문화회관|예술회관|문화센터|문화원|아트센터|공연장|극장|영화의전당)$", "문화,예술 > 공연장"),
    ("PO3", "공공기관", r"(구청|군청|시청|교육청|교육지원청|청사)$", "사회,공공기관 > 행정기관"),
    ("PO3", "공공기관", r"(주민센터|행정복지센터)$", "사회,공공기관 > 행정기관 > 주민센터"),
    ("PO3", "공공기관", r"우체국$", "사회,공공기관 > 우체국"),
    ("PO3", "공공기관", r"(경찰서|지구대|파출소|치안센터)$", "사회,공공기관 > 경찰서"),
    ("PO3", "공공기관", r"(소방서|안전센터)$", "사회,공공기관 > 소방서"),
    ("PO3", "공공기관", r"(세무서|법원|검찰청|보건소)$", "사회,공공기관 > 행정기관"),
    ("PK6", "주차장", r"(주차장|주차빌딩|주차타워)$", "교통,수송 > 주차장"),
    ("AT4", "관광명소", r"(공원|해수욕장|전망대|문화마을|유원지|수목원|식물원|아쿠아리움|스카이워크)$",
     "여행 > 관광,명소"),
    # markets: landmarks people search by name; the platform gives traditional markets no category group.
    # "…전시장" is an exhibition hall (가구전시장), except a four-letter market name (부전시장)
    ("", "", r"((?<!전)(?<!매매)시장|^\S{2}시장)$", "가정,생활 > 시장"),
    # bus terminals and stadiums: landmarks without a category group on the platform either
    ("", "", r"버스터미널$", "교통,수송 > 터미널"),
    ("", "", r"경기장$", "스포츠,레저 > 경기장"),
]
# a facility that names the park, beach or resort it serves stands in it ("해운대해수욕장이벤트광장화장실",
# "태종대유원지관리사무소"): that attraction as a place at the facility's point
FACILITY_OF = re.compile(r"^(\S+(공원|해수욕장|유원지))(이벤트광장화장실|공중화장실|화장실|관리사무소|관리사무실|관리소)$")
ATTRACTION_KIND = {"공원": "공원", "해수욕장": "해수욕장", "유원지": "유원지"}
COLUMNS = ["id", "place_name", "category_name", "category_group_code", "category_group_name", "phone",
           "address_name", "road_address_name", "x", "y", "b_code", "h_code"]


def station_lines() -> dict[str, list[str]]:
    out: dict[str, list[str]] = {}
    for line, names in LINES.items():
        for name in names.split():
            out.setdefault(name, []).append(line)
    return out


def classify(part: str, stations: dict[str, list[str]]) -> list[tuple[str, str, str, str]]:
    """[(place_name, category_name, group code, group name)] for one building-name part."""
    prefix = STATION_PREFIX.match(part)
    bare = STATION_SUFFIX.sub("", STATION_NOTE.sub("", part[prefix.end():] if prefix else part))
    if part.endswith("역") and bare in stations:
        lines = stations[bare]
        named = re.search(r"([1-4]호선|동해선)", prefix.group(0)) if prefix else None
        if named:                                   # "3호선덕천역", "동해선오시리아역": that line only
            lines = [ln for ln in lines if ln == named.group(1)]
        elif len(lines) > 1:                        # a name shared with the 동해선 (a separate station
            lines = [ln for ln in lines if ln != "동해선"] or lines   # elsewhere): the metro's
        return [(f"{bare}역 {line}", f"교통,수송 > 지하철,전철 > {line}", "SW8", "지하철역") for line in lines]
    for code, gname, pattern, cat in RULES:
        if re.search(pattern, part):
            return [(part, cat, code, gname)]
    facility = FACILITY_OF.match(part)
    if facility and "묘원" not in part:                # a cemetery's office ("공원묘원관리소") is no park
        kind = ATTRACTION_KIND[facility.group(2)]
        return [(facility.group(1), f"여행 > 관광,명소 > {kind}", "AT4", "관광명소")]
    return []


def build(addresses: Path, out: Path) -> list[dict]:
    stations = station_lines()
    with gzip.open(addresses, "rt", encoding="utf-8") as fh:
        rows = [r for r in csv.DictReader(fh) if r["building_name"]]
    rows.sort(key=lambda r: (r["building_name"], r["road_address_name"], r["address_name"]))
    places, seen = [], set()
    for r in rows:
        for part in (p.strip() for p in r["building_name"].split(",")):
            for name, cat, code, gname in classify(part, stations) if part else []:
                key = (name, r["road_address_name"])
                if key in seen:
                    continue
                seen.add(key)
                places.append({
                    "id": f"B{zlib.crc32('|'.join(key).encode('utf-8')):010d}",
                    "place_name": name, "category_name": cat, "category_group_code": code,
                    "category_group_name": gname, "phone": "",
                    "address_name": r["address_name"], "road_address_name": r["road_address_name"],
                    "x": r["x"], "y": r["y"], "b_code": r["b_code"], "h_code": r["h_code"],
                })
    places.sort(key=lambda p: p["id"])
    assert len({p["id"] for p in places}) == len(places)
    write_csv(out, COLUMNS, places)
    return places


def write_csv(out: Path, columns: list[str], rows: list[dict]) -> None:
    """Rows as a UTF-8 CSV with ``\\n`` line ends (the same bytes on every platform and run)."""
    buf = io.StringIO()
    w = csv.DictWriter(buf, fieldnames=columns, lineterminator="\n")
    w.writeheader()
    w.writerows(rows)
    out.write_text(buf.getvalue(), encoding="utf-8")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--addresses", type=Path, default=ROOT / "local" / "addresses.csv.gz")
    ap.add_argument("--out", type=Path, default=ROOT / "local" / "landmarks.csv")
    args = ap.parse_args()
    places = build(args.addresses, args.out)
    counts: dict[str, int] = {}
    for p in places:
        counts[p["category_group_code"] or "(none)"] = counts.get(p["category_group_code"] or "(none)", 0) + 1
    print(f"{args.out}: {len(places)} places", dict(sorted(counts.items())))


if __name__ == "__main__":
    main()
