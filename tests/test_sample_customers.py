"""The sample customer list of the geocoding lesson (toolkit/data/samples/customers_busan.csv) has the shape and the
messy rows datasets/README.md describes."""
from __future__ import annotations

import csv
from pathlib import Path
import toolkit.data

SAMPLE = toolkit.data.root() / "samples" / "customers_busan.csv"


def _rows() -> list[dict]:
    with SAMPLE.open(encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f))


def test_columns_and_size():
    rows = _rows()
    assert list(rows[0]) == ["customer_id", "joined", "orders", "spend_krw", "address"]
    assert len(rows) == 99 and len({r["customer_id"] for r in rows}) == 93


def test_the_messy_rows_are_there():
    rows = _rows()
    addresses = [r["address"] for r in rows]
    as_tuples = [tuple(r.values()) for r in rows]
    assert len(as_tuples) - len(set(as_tuples)) == 6                       # repeated rows
    assert addresses.count("") == 1                                         # a blank
    assert sum(a != " ".join(a.split()) for a in set(addresses)) == 8       # extra spaces
    assert sum(not a.startswith(("부산", "서울")) and a.split()[0][-1] not in "구군" for a in set(addresses) if a) == 7
    outside = [a for a in addresses if a and "부산" not in a and a.split()[0].startswith("서울")]
    assert outside == ["서울특별시 중구 세종대로 110"]


def test_the_busan_addresses_come_from_the_address_data():
    import gzip

    with gzip.open(SAMPLE.parents[1] / "local" / "addresses.csv.gz", "rt", encoding="utf-8", newline="") as f:
        data = list(csv.DictReader(f))
    known = {r["road_address_name"] for r in data} | {r["address_name"] for r in data}
    full = [r["address"] for r in _rows() if r["address"].startswith("부산광역시")]   # written out in full
    assert len(full) > 20 and all(a in known for a in full)
