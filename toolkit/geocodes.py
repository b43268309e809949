"""How :meth:`toolkit.local.LocalArea.geocode` judges one answer: its status and, for a row that did not match,
the reason.

**Status** (from the first page of the address search, up to :data:`PAGE` documents):

* ``matched``: one place answers the address. Documents that write the query's own building or lot number
  exactly are the candidates; when none does, every document is (the service's ``similar`` search also returns
  ``N-M`` for ``N``). Candidates within :data:`SAME_PLACE_M` metres of the first and in its district are the same
  place (a building and its lots).
* ``ambiguous``: the candidates are different places (the same road name in two districts, a dong name in
  several; a building on a district border that has an address in each district, as counts by district differ);
  the first is used.
* ``region``: the answer is a region (``REGION``) or a road without a number (``ROAD``): its centre, not an
  address. ``x``/``y`` hold that centre; count only ``matched`` rows as addresses.
* ``not_found``: no document.

**Reason** (``geocode_reason``, NA for ``matched`` and ``ambiguous``): ``empty``, ``garbage`` (no Hangul word
and no number: nothing an address is made of), ``region only``, ``no such road name`` (with the road names of
the district closest in spelling: "did you mean"), ``building number out of range`` (with the road's numbers),
``lot number not found`` and ``not understood``. The road names and their numbers come from the city's official
address list shipped with the toolkit (``toolkit/data/local/addresses.csv.gz``, Busan); the reason of an
address of another city is ``not understood``.

>>> judge({"total_count": 1, "documents": [{"address_type": "REGION", "x": "129.1", "y": "35.1"}]}, "해운대구")
('region', 1)
>>> reason("", "empty"), reason("#$%!", "not_found")
('empty', 'garbage')
"""
from __future__ import annotations

import difflib
import math
import re
from functools import lru_cache

__all__ = ["PAGE", "SAME_PLACE_M", "judge", "reason", "STATUSES"]

PAGE = 10
"""Documents read per geocode query (one request: the first page) to tell one place from several."""
SAME_PLACE_M = 50.0
"""Documents this close to the first one are the same place (a building and its lot, two entrances)."""
STATUSES = ["matched", "ambiguous", "region", "not_found", "error", "empty", "not_done"]

_NUMBER = re.compile(r"^(산)?\s*(\d+)(?:-(\d+))?$")
_HANGUL = re.compile(r"[\uac00-\ud7a3]")
_ROAD_WORD = re.compile(r"(?:로|길|대로)(?:\d+(?:번)?(?:가|길))?$|\d+번?길$")
_SIDO = ("부산광역시", "부산시", "부산")


def _metres(x1: float, y1: float, x2: float, y2: float) -> float:
    """Approximate metres between two WGS84 points (enough to tell 50 m)."""
    kx = 111_320.0 * math.cos(math.radians((y1 + y2) / 2))
    return math.hypot((x2 - x1) * kx, (y2 - y1) * 110_540.0)


def _written_number(query: str):
    """The number written last in ``query`` as ``(mountain, main, sub)`` ('' for no sub-number), or None."""
    words = query.split()
    if not words:
        return None
    last = words[-1]
    if len(words) > 1 and words[-2] == "산":
        last = "산" + last
    m = _NUMBER.match(last)
    return None if m is None else ("Y" if m.group(1) else "N", m.group(2), m.group(3) or "")


def _doc_number(doc: dict):
    if doc.get("address_type") == "ROAD_ADDR":
        road = doc.get("road_address") or {}
        return ("N", str(road.get("main_building_no", "")), str(road.get("sub_building_no", "") or ""))
    lot = doc.get("address") or {}
    return (lot.get("mountain_yn", "N"), str(lot.get("main_address_no", "")), str(lot.get("sub_address_no", "") or ""))


def judge(meta: dict, query: str) -> tuple[str, int]:
    """``(status, index of the document used)`` of an address-search answer (``meta`` holds ``total_count``
    and ``documents``, the first page) for ``query``; see the module docstring."""
    docs = meta.get("documents") or []
    if not docs or not int(meta.get("total_count") or 0):
        return "not_found", -1
    if docs[0].get("address_type") in ("REGION", "ROAD"):
        return "region", 0
    number = _written_number(query)
    exact = [i for i, d in enumerate(docs) if number is not None and d.get("address_type") in
             ("ROAD_ADDR", "REGION_ADDR") and _same_number(number, _doc_number(d), d.get("address_type"))]
    cand = exact or list(range(len(docs)))
    first = cand[0]
    fx, fy = float(docs[first]["x"]), float(docs[first]["y"])
    district = _district(docs[first])
    others = [i for i in cand[1:] if _metres(fx, fy, float(docs[i]["x"]), float(docs[i]["y"])) > SAME_PLACE_M
              or _district(docs[i]) != district]
    if not exact and int(meta.get("total_count") or 0) > len(docs):
        return "ambiguous", first          # more near-matches than a page: not one place
    return ("ambiguous" if others else "matched"), first


def _district(doc: dict) -> str:
    part = doc.get("address") or doc.get("road_address") or {}
    return str(part.get("region_2depth_name") or "")


def _same_number(written, found, kind) -> bool:
    mountain, main, sub = written
    if kind == "ROAD_ADDR":
        return mountain == "N" and (main, sub) == found[1:]
    return (mountain, main, sub) == found


# --------------------------------------------------------------------------- reasons
@lru_cache(maxsize=1)
def _gazetteer():
    """(road name → {district: (lowest, highest) building number}, district names, dong/읍/면/리 names) of the
    city's official address list shipped with the toolkit (Busan)."""
    import csv
    import gzip
    import io
    from importlib.resources import files

    raw = files("toolkit").joinpath("data/local/addresses.csv.gz").read_bytes()
    roads: dict[str, dict[str, tuple[int, int]]] = {}
    districts, dongs = set(), set()
    for row in csv.DictReader(io.StringIO(gzip.decompress(raw).decode("utf-8"))):
        district, road, n = row["region_2depth_name"], row["road_name"], int(row["main_building_no"] or 0)
        districts.add(district)
        dongs.update(v for v in (row["region_3depth_name"], row["region_4depth_name"]) if v)
        per = roads.setdefault(road, {})
        lo, hi = per.get(district, (n, n))
        per[district] = (min(lo, n), max(hi, n))
    return roads, frozenset(districts), frozenset(dongs)


def _did_you_mean(road: str, district: str | None, roads: dict) -> list[str]:
    names = [r for r, per in roads.items() if district is None or district in per]
    return difflib.get_close_matches(road, names, n=3, cutoff=0.5)


def reason(query: str, status: str) -> str | None:
    """Why a row of ``status`` did not match (None for ``matched``/``ambiguous`` and the rows not done or in
    error: ``geocode_error`` says those)."""
    if status == "empty":
        return "empty"
    if status == "region":
        return "region only: the answer is a region's or a road's centre, not an address"
    if status != "not_found":
        return None
    text = " ".join(query.split())
    if not _HANGUL.search(text) and not re.search(r"\d", text):
        return "garbage: no Hangul word and no number"
    if not _HANGUL.search(text):
        return "garbage: no Hangul word (a region, road or dong name)"
    try:
        roads, districts, dongs = _gazetteer()
    except (OSError, KeyError):       # the list is not shipped (a trimmed install): no finer reason
        return "not understood"
    words = text.split()
    number = _written_number(text)
    body = words[:-1] if number is not None else words
    if body and body[-1] == "산":
        body = body[:-1]
    district = next((w for w in body if w in districts), None)
    known = [w for w in body if w in _SIDO or w in districts or w in dongs]
    rest = [w for w in body if w not in known]
    if number is None:
        if not rest:
            return "region only: no building or lot number"
        return "not understood: no building or lot number"
    if rest and len(rest) == 1:
        road = rest[0]
        if road in roads:
            per = roads[road]
            span = per.get(district) if district else None
            if district and span is None:
                return (f"no such road name {road!r} in {district} (the road is in "
                        f"{', '.join(sorted(per))})")
            lo = min(v[0] for v in per.values()) if span is None else span[0]
            hi = max(v[1] for v in per.values()) if span is None else span[1]
            return f"building number out of range: {road} has numbers {lo}–{hi}" + (f" in {district}" if district
                                                                                    else "")
        if _ROAD_WORD.search(road) or district:
            near = _did_you_mean(road, district, roads)
            where = f" in {district}" if district else ""
            mean = f" (did you mean {', '.join(near)}?)" if near else ""
            return f"no such road name {road!r}{where}{mean}"
    if not rest and known:
        return "lot number not found in " + " ".join(known)
    return "not understood"
