"""Build ``toolkit/data/samples/customers_busan.csv``: a small, messy customer list for the geocoding lesson.

Derived from ``toolkit/data/local/addresses.csv.gz`` only (real Busan road and land-lot addresses of the public
store data, see datasets/README.md); the customers themselves are made up (ids, dates, order counts, amounts;
no names). Deterministic: the same input gives a byte-identical file. No network.

The file imitates a list typed in by hand over the years. Most rows are clean road addresses written three
ways; the rest carry one known problem each (see ``KINDS`` and datasets/README.md):

* ``spaces``: extra, leading and trailing spaces;
* ``lot``: the old land-lot (지번) address instead of the road address;
* ``no_district``: the district left out (one of these road addresses exists in two districts);
* ``no_sub_number``: a land-lot address without its sub-number (``부산진구 전포동 341`` for ``… 341-17``);
* ``typo``: one syllable of the road name mistyped;
* ``duplicate``: a row repeated (same customer id);
* ``blank``: no address at all;
* ``outside``: an address outside Busan (Seoul City Hall).

    python datasets/build/build_customers.py          # writes toolkit/data/samples/customers_busan.csv
"""
from __future__ import annotations

import csv
import datetime as dt
import gzip
import io
import random
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2] / "toolkit" / "data"   # the package data the sandbox reads
SOURCE = ROOT / "local" / "addresses.csv.gz"
TARGET = ROOT / "samples" / "customers_busan.csv"
SEED = 20261120
BASE_ROWS = 90                                   # shared among the 16 districts by their number of addresses
#: how many base rows get each problem (the rest stay clean)
KINDS = {"spaces": 8, "lot": 10, "no_district": 6, "no_sub_number": 4, "typo": 4}
DUPLICATES = 6
OUTSIDE = "서울특별시 중구 세종대로 110"          # Seoul City Hall: a public building, not in the Busan data
TYPO = {"로": "노", "길": "킬", "대": "데"}         # the first of these syllables in a road name is mistyped


def read_addresses() -> list[dict]:
    with gzip.open(SOURCE, "rt", encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def base_rows(rows: list[dict], rng: random.Random) -> list[dict]:
    """BASE_ROWS addresses whose road and land-lot addresses are each unique in the data, with a sub-numbered
    lot (so that leaving the sub-number out is a real problem); each district gets a share proportional to its
    number of addresses (largest remainders, at least 2)."""
    road_count: dict[str, int] = {}
    lot_count: dict[str, int] = {}
    for r in rows:
        road_count[r["road_address_name"]] = road_count.get(r["road_address_name"], 0) + 1
        lot_count[r["address_name"]] = lot_count.get(r["address_name"], 0) + 1
    by_district: dict[str, list[dict]] = {}
    for r in rows:
        if (road_count[r["road_address_name"]] == 1 and lot_count[r["address_name"]] == 1 and r["sub_address_no"]
                and r["mountain_yn"] == "N"):
            by_district.setdefault(r["b_code"][:5], []).append(r)
    sizes = {code: sum(1 for r in rows if r["b_code"].startswith(code)) for code in by_district}
    exact = {code: BASE_ROWS * n / sum(sizes.values()) for code, n in sizes.items()}
    share = {code: max(2, int(v)) for code, v in exact.items()}
    for code in sorted(exact, key=lambda c: (int(exact[c]) - exact[c], c))[:BASE_ROWS - sum(share.values())]:
        share[code] += 1
    picked = []
    for code in sorted(by_district):
        candidates = sorted(by_district[code], key=lambda r: (r["road_address_name"], r["address_name"]))
        picked += rng.sample(candidates, share[code])
    return picked


def two_districts(rows: list[dict]) -> str:
    """A road address without its district that exists in two districts (the first such, sorted)."""
    seen: dict[tuple[str, str], set[str]] = {}
    for r in rows:
        if not r["sub_building_no"]:
            seen.setdefault((r["road_name"], r["main_building_no"]), set()).add(r["region_2depth_name"])
    road, number = min(k for k, v in seen.items() if len(v) > 1)
    return f"{road} {number}"


def road_parts(r: dict) -> tuple[str, str]:
    number = r["main_building_no"] + (f"-{r['sub_building_no']}" if r["sub_building_no"] else "")
    return r["road_name"], number


def clean(r: dict, i: int) -> str:
    road, number = road_parts(r)
    district = r["region_2depth_name"]
    return [r["road_address_name"], f"부산 {district} {road} {number}", f"{district} {road} {number}"][i % 3]


def messy(kind: str, r: dict, i: int) -> str:
    road, number = road_parts(r)
    district = r["region_2depth_name"]
    if kind == "spaces":
        return ["  ", " ", ""][i % 3] + f"{district}  {road}   {number}" + ["", " ", "  "][i % 3]
    if kind == "lot":
        return r["address_name"] if i % 2 else r["address_name"].removeprefix("부산광역시 ")
    if kind == "no_district":
        return f"{road} {number}"
    if kind == "no_sub_number":
        return r["address_name"].removeprefix("부산광역시 ").rsplit("-", 1)[0]
    if kind == "typo":
        for wrong, typed in TYPO.items():
            if wrong in road:
                return f"{district} {road.replace(wrong, typed, 1)} {number}"
        return f"{district} {road}x {number}"
    raise ValueError(kind)


def build() -> list[dict]:
    rng = random.Random(SEED)
    everything = read_addresses()
    rows = base_rows(everything, rng)
    order = list(range(len(rows)))
    rng.shuffle(order)
    kinds: dict[int, str] = {}
    start = 0
    for kind, n in KINDS.items():
        for k in order[start:start + n]:
            kinds[k] = kind
        start += n
    first = dt.date(2021, 1, 4)
    customers = []
    for i, r in enumerate(rows):
        address = messy(kinds[i], r, i) if i in kinds else clean(r, i)
        joined = first + dt.timedelta(days=rng.randrange(0, 5 * 365))
        orders = rng.randint(1, 40)
        customers.append({"customer_id": f"C{i + 1:04d}", "joined": joined.isoformat(), "orders": orders,
                          "spend_krw": orders * rng.randrange(8_000, 60_000, 500), "address": address})
    n = len(customers)
    customers.append({"customer_id": f"C{n + 1:04d}", "joined": "2024-05-02", "orders": 3, "spend_krw": 54_000,
                      "address": ""})
    customers.append({"customer_id": f"C{n + 2:04d}", "joined": "2025-09-19", "orders": 1, "spend_krw": 23_500,
                      "address": OUTSIDE})
    customers.append({"customer_id": f"C{n + 3:04d}", "joined": "2023-03-14", "orders": 7, "spend_krw": 161_000,
                      "address": two_districts(everything)})
    for k in sorted(rng.sample(range(n), DUPLICATES)):
        customers.append(dict(customers[k]))
    rng.shuffle(customers)
    return customers


def main() -> None:
    customers = build()
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=list(customers[0]), lineterminator="\n")
    writer.writeheader()
    writer.writerows(customers)
    TARGET.parent.mkdir(parents=True, exist_ok=True)
    TARGET.write_text(buf.getvalue(), encoding="utf-8")
    print(f"{TARGET.relative_to(ROOT.parents[1])}: {len(customers)} rows")


if __name__ == "__main__":
    main()
