#!/usr/bin/env python3
"""``toolkit/data/local/places_index.json.gz``: every place of the sandbox (the store registry and the landmarks), as
columns (one JSON list per column, rows in id order). It is the only copy of the store registry in the
repository: the sandbox reads it about three times faster than a CSV file, so the first place search after
``toolkit.connect()`` answers sooner.

Two builds write it:

* ``build_local.py`` writes the store rows (ids ``MA…``, the SEMAS business ids) with :func:`write_index`;
* this script (run after ``build_landmarks.py`` and ``build_station_places.py``) replaces the landmark rows (ids
  ``B`` + 10 digits, see ``build_landmarks.py``) with the rows of ``landmarks.csv`` and those of
  ``station_places.csv`` (the stations that are not station buildings, and the KTX 부산역; without its
  ``point_source`` column) and keeps the store rows as they are. Running it twice gives the same bytes.

Deterministic (gzip header without a timestamp, keys in a fixed order). Read it with :func:`read_index`.

    python datasets/build/build_places_index.py
"""
from __future__ import annotations

import csv
import gzip
import io
import json
import re
from pathlib import Path

LOCAL = Path(__file__).resolve().parents[2] / "toolkit" / "data" / "local"
INDEX = LOCAL / "places_index.json.gz"
LANDMARK_ID = re.compile(r"^B\d{10}$")          # ids of build_landmarks.py; store ids are SEMAS "MA…" ids


def read_index(path: Path = INDEX) -> tuple[list[str], list[list[str]]]:
    """(header, rows) of the index; every value a string, rows in id order."""
    data = json.loads(gzip.decompress(path.read_bytes()))
    return data["columns"], [list(r) for r in zip(*data["data"])]


def write_index(header: list[str], rows: list[list[str]], path: Path = INDEX) -> None:
    """Write ``rows`` (strings, one list per place) as columns, sorted by id, with the count of each part."""
    rows = sorted(rows, key=lambda r: r[0])
    ids = [r[0] for r in rows]
    assert header[0] == "id" and len(set(ids)) == len(ids), "ids must be unique"
    assert all(len(r) == len(header) and all(isinstance(v, str) for v in r) for r in rows)
    landmarks = sum(bool(LANDMARK_ID.match(i)) for i in ids)
    doc = {"columns": header, "rows": len(rows), "parts": {"stores": len(rows) - landmarks, "landmarks": landmarks},
           "data": [list(c) for c in zip(*rows)] if rows else [[] for _ in header]}
    blob = json.dumps(doc, ensure_ascii=False, separators=(",", ":")).encode("utf-8")
    buf = io.BytesIO()
    with gzip.GzipFile(fileobj=buf, mode="wb", mtime=0, compresslevel=9) as gz:
        gz.write(blob)
    path.write_bytes(buf.getvalue())


def main() -> None:
    header, rows = read_index()
    stores = [r for r in rows if not LANDMARK_ID.match(r[0])]
    text = (LOCAL / "landmarks.csv").read_text("utf-8")
    part = list(csv.reader(io.StringIO(text)))
    assert part[0] == header, (part[0], header)
    assert all(LANDMARK_ID.match(r[0]) for r in part[1:])
    stations = list(csv.reader(io.StringIO((LOCAL / "station_places.csv").read_text("utf-8"))))
    assert stations[0] == header + ["point_source"], stations[0]
    assert all(LANDMARK_ID.match(r[0]) for r in stations[1:])
    extra = [r[:len(header)] for r in stations[1:]]
    write_index(header, stores + part[1:] + extra)
    print(f"{INDEX.name}: {len(stores)} stores + {len(part) - 1} landmarks + {len(extra)} station places, "
          f"{INDEX.stat().st_size:,} bytes")


if __name__ == "__main__":
    main()
