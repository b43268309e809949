"""Local API (location §4.1–4.7) as DataFrames: address search, coordinate to region/address, coordinate
systems, keyword and category place search, bulk geocoding of a DataFrame column, and public-transit routes.

>>> tk = toolkit.connect()                                        # doctest: +SKIP
>>> tk.local.address("전포동 341-17")                             # one row per document, address.* / road_address.*
>>> tk.local.regions(129.0682, 35.1541)                           # B and H regions of a point
>>> tk.local.transcoord(129.0682, 35.1541, output_coord="WTM")
>>> tk.local.keyword("부산진구 카페", rect=BUSAN_RECT, size=5)     # meta["same_name"] in df.attrs["meta"]
>>> tk.local.category("PM9", x=129.059, y=35.158, radius=500, sort="distance")
>>> tk.local.keyword_all("약국", x=129.059, y=35.158, radius=1000, max_pages=3)   # all pages, 45-page cap
>>> tk.local.geocode(df, "address", cache="geo.sqlite")           # adds x, y and geocode_* columns
>>> tk.local.geocode(df, "address", concurrency=8, rate=50)       # 8 in flight, at most 50 requests/s
>>> tk.local.geocode(["전포동 341-17", "중앙대로 692"])             # a list (tuple, Index, Series, dask) too
>>> tk.local.regions_of(df, x="x", y="y")                         # adds region_status, b_code, h_code, ...
>>> tk.local.count_around([(129.1604, 35.1631)], category="CE7", radius=300)  # places around each point, zeros kept
>>> tk.local.public_transit((129.0346, 35.0979), (129.0585, 35.1577))  # one row per leg, summary in attrs
"""
from __future__ import annotations

import math
import re
import json
from typing import TYPE_CHECKING, Any, Iterable

from .area import WRAPPED, Area, Call, endpoint
from .bulk import Bulk, align, stats
from .categories import CATEGORIES, category_code
from .coords import COORD_SYSTEMS, GEO_COORD_SYSTEMS, coord_system, lonlat, number
from .errors import ParameterError, QuotaStopWarning, suggest, warn_truncated
from .frames import TEXT, Schema

if TYPE_CHECKING:
    from types import FrameType

__all__ = ["LocalArea", "COORD_SYSTEMS", "GEO_COORD_SYSTEMS", "CATEGORY_GROUP_CODES", "ADDRESS_TYPES", "BUSAN_RECT"]

CATEGORY_GROUP_CODES = tuple(CATEGORIES)
ADDRESS_TYPES = ("REGION", "ROAD", "REGION_ADDR", "ROAD_ADDR")
SAME_STATION_M = 1000.0
_STATION_PLACE = re.compile(r"^(?P<station>\S.*?역)\s+(?P<line>\S.*)$")   # "서면역 1호선": one line's station


def _metres(x1: float, y1: float, x2: float, y2: float) -> float:
    """Approximate metres between two WGS84 points (enough to tell stations apart)."""
    kx = 111_320.0 * math.cos(math.radians((y1 + y2) / 2))
    return math.hypot((x2 - x1) * kx, (y2 - y1) * 110_540.0)


#: The sandbox world's rectangle (Busan): ``rect=`` of a whole-city keyword or category search.
BUSAN_RECT = (128.76, 34.88, 129.32, 35.40)

# Schemas of the list-like results, from location §2 (the same typed columns whether empty or not), plus
# ``region_4depth_name`` in every address object, as the real platform sends it (empty string when none).
_REGION_NAMES = ["region_1depth_name", "region_2depth_name", "region_3depth_name", "region_4depth_name"]
_LAND_LOT = ["address_name", *_REGION_NAMES, "region_3depth_h_name", "h_code", "b_code", "mountain_yn",
             "main_address_no", "sub_address_no"]
_ROAD = ["address_name", *_REGION_NAMES, "road_name", "underground_yn", "main_building_no", "sub_building_no",
         "building_name", "zone_no"]
ADDRESS_SCHEMA = (Schema(["address_name", "address_type", "x", "y"], floats=["x", "y"])
                  + Schema([*_LAND_LOT, "x", "y"], floats=["x", "y"]).prefixed("address")
                  + Schema([*_ROAD, "x", "y"], floats=["x", "y"]).prefixed("road_address"))
"""Address search document (§4.1): ``address.*`` (land lot) and ``road_address.*`` flattened."""
COORD2ADDRESS_SCHEMA = (Schema([c for c in _LAND_LOT if c not in ("region_3depth_h_name", "h_code", "b_code")]
                               + ["zip_code"]).prefixed("address") + Schema(_ROAD).prefixed("road_address"))
"""Coordinate-to-address document (§4.3): the search-only fields are absent; ``zip_code`` is deprecated."""
PLACE_SCHEMA = Schema(["id", "place_name", "category_name", "category_group_code", "category_group_name", "phone",
                       "address_name", "road_address_name", "x", "y", "place_url", "distance"],
                      floats=["x", "y", "distance"])
"""Place document (§4.5, §4.6); ``distance`` in metres, NaN without a centre."""
REGION_SCHEMA = Schema(["region_type", "address_name", *_REGION_NAMES, "code", "x", "y"],
                       floats=["x", "y"])
"""Region document (§4.2)."""
TRANSCOORD_SCHEMA = Schema(["x", "y"], floats=["x", "y"])
ADDRESS_COLUMNS = list(ADDRESS_SCHEMA.columns)
PLACE_COLUMNS = list(PLACE_SCHEMA.columns)
REGION_COLUMNS = list(REGION_SCHEMA.columns)
GEOCODE_COLUMNS = ["x", "y", "geocode_status", "geocode_matches", "geocode_address", "geocode_address_type",
                   "geocode_reason", "geocode_error"]
MAX_PAGES = 45


# --------------------------------------------------------------------------- client-side checks
def _int(name: str, value, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise ParameterError(name, f"must be a whole number from {lo} to {hi}", value)
    return value


_float = number


def _point(x, y, input_coord: str = "WGS84") -> dict:
    """x, y as floats; WGS84 points must be a longitude and a latitude (swapped ones are refused)."""
    if input_coord == "WGS84":
        x, y = lonlat(x, y)
    else:
        x, y = number("x", x), number("y", y)
    return {"x": x, "y": y}


def _choice(name: str, value, choices: Iterable[str]) -> str:
    choices = tuple(choices)
    if value not in choices:
        near = suggest(value, choices) if isinstance(value, str) else None
        mean = f" (did you mean {near!r}?)" if near is not None else ""
        raise ParameterError(name, f"must be one of {', '.join(choices)}{mean}", value)
    return value


def _text(name: str, value) -> str:
    if not isinstance(value, str) or not value.strip():
        raise ParameterError(name, "must be a non-empty string", value)
    return value


def _fmt(fmt: str) -> str:
    return _choice("format", fmt, ("json", "xml"))


def _area_params(x, y, radius, rect, sort, need_area: bool) -> dict:
    if (x is None) != (y is None):
        raise ParameterError("x/y", "give both x and y, or neither")
    if x is not None:
        x, y = lonlat(x, y)
    if radius is not None:
        radius = _int("radius", radius, 0, 20000)
        if x is None:
            raise ParameterError("radius", "needs x and y (the centre)", radius)
    if rect is not None:
        parts = rect.split(",") if isinstance(rect, str) else list(rect)
        if len(parts) != 4:
            raise ParameterError("rect", "must be four numbers: left x, left y, right x, right y", rect)
        rect = ",".join(repr(_float("rect", v)) for v in parts)
    if need_area and rect is None and (x is None or radius is None):
        raise ParameterError("x/y/radius/rect", "a keyword or category search needs the centre (x, y and radius) "
                             "or rect (location §4.5); for a whole city pass its rect, e.g. toolkit.local.BUSAN_RECT")
    _choice("sort", sort, ("accuracy", "distance"))
    if sort == "distance" and x is None:
        raise ParameterError("sort", "'distance' needs x and y", sort)
    return {"x": x, "y": y, "radius": radius, "rect": rect, "sort": sort}


def _truncation_hint(what: str, meta: dict, max_pages: int) -> str:
    """What to do when a ``*_all`` search stopped before ``total_count``."""
    if not meta.get("is_end", True):
        return (f"the walk stopped at max_pages={max_pages}; pass a larger max_pages (at most {MAX_PAGES}) to read "
                "further pages")
    shown = meta.get("pageable_count")
    cap = f"the platform shows at most {shown} documents of one search" if shown is not None else \
        "the platform shows only part of one search's documents"
    if what == "address_all":
        return f"{cap}; make the query more precise (a district, a road name and number)"
    sweep = ("or send narrower queries at once with tk.local.keyword_sweep([...], x=..., y=..., radius=...)"
             if what == "keyword_all" else
             "e.g. tk.local.category_sweep(code, centres, radius=...) over a grid of smaller circles")
    return f"{cap}; search smaller areas (a smaller radius, or rect tiles) and combine them, {sweep}"


# --------------------------------------------------------------------------- parsing
def _documents_frame(schema: Schema):
    """The parse function of a local call: its documents as a frame of ``schema`` (meta in attrs)."""
    def parse(body, response=None):
        from .frames import frame

        df = frame(body.get("documents", []), schema=schema, meta=body.get("meta"))
        # a document whose nested object is null leaves a null column of that name: drop it
        return df.drop(columns=[c for c in ("address", "road_address") if c in df.columns])

    return parse


_address_frame = _documents_frame(ADDRESS_SCHEMA)
_place_frame = _documents_frame(PLACE_SCHEMA)
_region_frame = _documents_frame(REGION_SCHEMA)
_coord2address_frame = _documents_frame(COORD2ADDRESS_SCHEMA)
_transcoord_frame = _documents_frame(TRANSCOORD_SCHEMA)


# --------------------------------------------------------------------------- public transit (4.7)
TRANSIT_MAX_WALK = (100, 5000)
TRANSIT_COLUMNS = ["route", "leg", "mode", "line", "from.name", "from.x", "from.y", "to.name", "to.x", "to.y",
                   "distance", "duration", "wait", "stops"]


def _transit_point(name: str, value) -> str:
    label = ""
    if isinstance(value, str):
        parts = value.split(",", 2)
        if len(parts) < 2:
            raise ParameterError(name, "must be 'x,y' or 'x,y,name=<name>'", value)
        x, y = parts[0], parts[1]
        if len(parts) == 3:
            if not parts[2].startswith("name="):
                raise ParameterError(name, "must be 'x,y' or 'x,y,name=<name>'", value)
            label = parts[2][5:]
    elif isinstance(value, dict):
        if "x" not in value or "y" not in value:
            raise ParameterError(name, "needs x and y", value)
        x, y, label = value["x"], value["y"], value.get("name") or ""
    elif isinstance(value, (tuple, list)) and len(value) in (2, 3):
        x, y = value[0], value[1]
        label = value[2] if len(value) == 3 else ""
    else:
        raise ParameterError(name, "must be (x, y), (x, y, name), {x, y, name} or 'x,y[,name=..]'", value)
    lon, lat = lonlat(x, y, x_name=f"{name} x", y_name=f"{name} y")
    if not isinstance(label, str) or "," in label:
        raise ParameterError(f"{name} name", "must be a string without commas", label)
    return f"{lon!r},{lat!r}" + (f",name={label}" if label else "")


def _departure_time(value) -> str:
    from datetime import datetime, timedelta, timezone

    kst = timezone(timedelta(hours=9))
    if isinstance(value, datetime):
        dt = value if value.tzinfo else value.replace(tzinfo=kst)
        return dt.astimezone(kst).strftime("%Y%m%d%H%M")
    text = str(value)
    try:
        if len(text) != 12 or not text.isdigit():
            raise ValueError
        datetime.strptime(text, "%Y%m%d%H%M")
    except ValueError:
        raise ParameterError("departure_time", "must be a datetime or 'yyyyMMddHHmm' (Korean time)",
                             value) from None
    return text


def _transit_frame(body, response=None):
    from .frames import frame

    rows, meta_routes = [], []
    for i, route in enumerate(body.get("routes", [])):
        meta_routes.append({"route": i, **{k: v for k, v in route.items() if k != "legs"}})
        for j, leg in enumerate(route.get("legs", [])):
            rows.append({"route": i, "leg": j, **leg})
    meta = {"trans_id": body.get("trans_id"), "routes": meta_routes}
    return frame(rows, columns=TRANSIT_COLUMNS, floats=["from.x", "from.y", "to.x", "to.y"],
                 ints=["route", "leg", "distance", "duration", "wait", "stops"], meta=meta)


# --------------------------------------------------------------------------- bulk runs (geocode, regions_of)
def _geocode_answer(query: str):
    """The parse function of one geocode query: its answer straight from the address-search body (no frame: bulk
    runs are hot), with the status :func:`toolkit.geocodes.judge` gives it and the document that status uses."""
    from .geocodes import judge

    def parse(body, response=None) -> dict:
        docs = body.get("documents") or []
        total = int((body.get("meta") or {}).get("total_count", 0))
        status, at, why = judge({"total_count": total, "documents": docs}, query)
        doc = docs[at] if at >= 0 else None
        return {"matches": total, "error": None, "status": status, "reason": why,
                "x": None if doc is None else float(doc["x"]), "y": None if doc is None else float(doc["y"]),
                "address": None if doc is None else doc.get("address_name"),
                "type": None if doc is None else doc.get("address_type")}

    return parse


def _none_if_blank(v):
    return None if v is None or v != v or v == "" else v


def _regions_answer(body, response=None) -> dict:
    """The answer of one reverse-geocode query, straight from the coord2regioncode body."""
    docs = body.get("documents") or []
    out = {"error": None, "documents": len(docs)}
    b = next((d for d in docs if d.get("region_type") == "B"), None)
    h = next((d for d in docs if d.get("region_type") == "H"), None)
    if b is not None:
        out.update(b_code=_none_if_blank(b.get("code")), b_name=_none_if_blank(b.get("address_name")),
                   **{f"region_{i}depth_name": _none_if_blank(b.get(f"region_{i}depth_name")) for i in (1, 2, 3, 4)})
    if h is not None:
        out.update(h_code=_none_if_blank(h.get("code")), h_name=_none_if_blank(h.get("address_name")),
                   h_3depth_name=_none_if_blank(h.get("region_3depth_name")))
    return out


def _input_frame(data, column, default):
    """The frame to geocode and its address column: a DataFrame (``column`` names it), a Series, or a list,
    tuple or Index of addresses (a new frame with one column, ``column`` or the Index's name or ``default``)."""
    import pandas as pd

    if isinstance(data, (list, tuple, pd.Index)):
        name = column or (data.name if isinstance(data, pd.Index) else None) or default
        return pd.DataFrame({name: list(data)}), name
    if isinstance(data, pd.Series):
        frame_in = data.to_frame(name=column or data.name or default)
        return frame_in, frame_in.columns[0]
    if isinstance(data, pd.DataFrame):
        if column is None or column not in data.columns:
            raise ParameterError("column", "must name a column of the frame", column)
        return data, column
    raise ParameterError("data", "must be a DataFrame, Series, list, tuple or Index of addresses (or a dask "
                         "DataFrame or Series: pip install 'social-api-toolkit[scale]')", type(data).__name__)


def _is_dask(data) -> bool:
    return type(data).__module__.split(".")[0] in ("dask", "dask_expr")


def _address_key(value) -> str:
    """A geocode query: the address of a cell as it is sent (:func:`toolkit.geocodes.query_of`: read as people
    write addresses, detail left out; "" for a missing value)."""
    from .geocodes import query_of

    return query_of(value)


def _check_text_column(values, column, lazy: bool = False) -> None:
    """A geocode column holds text: a column of numbers, dates or booleans (or a cell of one in a column of text)
    is a :class:`ParameterError` naming the column and what it holds, not a column of ``empty`` rows (a column of
    NaN only, as pandas reads an empty column, is empty rows). ``lazy``: ``values`` is a dask frame's empty meta
    (its dtype is all there is to judge)."""
    import pandas as pd

    dtype = getattr(values, "dtype", None)
    if dtype is not None and not (pd.api.types.is_object_dtype(dtype) or pd.api.types.is_string_dtype(dtype)):
        if lazy or (len(values) and not values.isna().all()):
            raise ParameterError("column", f"the column {column!r} holds {dtype} values, not addresses (text); "
                                 "geocode a column of addresses, or convert it with .astype(str) if those values "
                                 "are meant as text", column)
        return
    for label, v in zip(getattr(values, "index", range(len(values))), values):
        if v is None or isinstance(v, str) or (isinstance(v, float) and v != v) or v is pd.NA:
            continue
        raise ParameterError("column", f"the column {column!r} holds a {type(v).__name__} value at row {label!r} "
                             f"({v!r}), not an address (text); convert the column with .astype(str) if those "
                             "values are meant as text", column)


def _out_names(existing, suffix: str | None, overwrite: bool) -> dict[str, str]:
    """Output column per result column: never one of the caller's columns unless ``overwrite``."""
    import warnings

    if suffix is not None and not isinstance(suffix, str):
        raise ParameterError("suffix", "must be a text appended to the added columns' names", suffix)
    existing = set(existing)
    names = {c: c + (suffix or "") for c in GEOCODE_COLUMNS}
    clash = [n for n in names.values() if n in existing]
    if not clash or overwrite:
        return names
    if suffix:
        raise ParameterError("suffix", f"the frame has the columns {clash} already: choose another suffix, "
                             "or pass overwrite=True to replace them", suffix)
    names = {c: c + "_geocoded" for c in GEOCODE_COLUMNS}
    again = [n for n in names.values() if n in existing]
    if again:
        raise ParameterError("suffix", f"the frame has the columns {clash} and {again} already: pass suffix= to "
                             "name the added columns, or overwrite=True", suffix)
    warnings.warn(f"geocode: the frame has the columns {clash} already; they are kept and the results are "
                  f"added as {list(names.values())}. Pass suffix='...' to name them, or overwrite=True to "
                  "replace the existing columns.", UserWarning, stacklevel=_user_level())
    return names


def _sequence(name: str, values) -> list:
    import pandas as pd

    if isinstance(values, (str, bytes)) or not isinstance(values, (list, tuple, pd.Index, pd.Series)):
        raise ParameterError(name, "must be a list, tuple, Index or Series", type(values).__name__)
    return list(values)


def _bad_centre(i: int, value, name: str = "centres"):
    raise ParameterError(f"{name}[{i}]", "must be an (x, y) pair of numbers", value)


def _sweep_answer(body, response=None) -> dict:
    """One page of a place search, kept whole (the sweep's frame is built once at the end)."""
    return {"documents": body.get("documents") or [], "total": int((body.get("meta") or {}).get("total_count", 0))}


def _text_columns(docs: list) -> tuple[list, list] | None:
    """``(names, columns)`` of ``docs`` when every document has the same fields and only text values (the
    service's place documents: every field is text, coordinates included), the names in the first document's
    order; else None."""
    from operator import itemgetter

    names = list(docs[0]) if docs else []
    if len(names) < 2 or {*map(len, docs)} != {len(names)}:
        return None
    try:   # as many fields as the first, and each of its fields: the same fields
        columns = [list(map(itemgetter(name), docs)) for name in names]
        for values in columns:
            "".join(values)   # TypeError unless every value is text (the quickest check of that)
    except (KeyError, TypeError):
        return None
    return names, columns


def _decimals(values: list):
    """Texts of decimal numbers as float64, or None when any value is not one ("", None or not text included):
    then pandas' ``to_numeric`` decides, as for any other frame. numpy reads the text as ``float()`` does, which
    also takes digits of other scripts and ``_`` separators that ``to_numeric`` refuses: those go to it too."""
    import numpy as np

    try:
        joined = "".join(values)
    except TypeError:
        return None
    if not joined.isascii() or "_" in joined:
        return None
    try:
        return np.array(values, dtype=np.float64)
    except ValueError:
        return None


def _sweep_frame(job: Bulk, keys: list, label: str, cache):
    """One frame of every key's documents, ``label`` first (the query, or the centre's position)."""
    from itertools import chain, repeat

    import pandas as pd

    from .frames import frame

    labels: list = []
    docs: list[dict] = []
    for i, key in enumerate(dict.fromkeys(keys) if label == "query" else keys):   # a query once; each centre
        found = (job.answers.get(key) or {}).get("documents") or []
        labels.extend(repeat(key if label == "query" else i, len(found)))
        docs.extend(found)
    floats = ["x", "y", "distance"]
    # The frame is built from the documents' columns: taken with itemgetter when every document has the same text
    # fields (what the API sends), else field by field (the fields in the order first seen); coordinates and
    # distances read by numpy where they are plain decimals. 10.8 -> 7.3 ms for a 300-centre sweep of 4,000
    # places. A column that pandas leaves of the object dtype (objects, lists, mixed or null values), or a field
    # named like the label, sends the run to the frame of records, flattened when a document holds an object, as
    # before (tests/local/test_sweeps.py compares them).
    text = _text_columns(docs)
    if text is not None:
        names, columns = text
    else:
        names = list(dict.fromkeys(chain.from_iterable(docs)))
        columns = [[d.get(n) for d in docs] for n in names]
    raw = None
    if label not in names:
        data = {label: labels}
        for name, values in zip(names, columns):
            number = _decimals(values) if name in floats else None
            data[name] = values if number is None else number
        raw = pd.DataFrame(data)
    if raw is None or any(raw[n].dtype == object for n in names):
        rows = [{label: at, **doc} for at, doc in zip(labels, docs)]
        out = frame(rows, columns=[label, *PLACE_COLUMNS], floats=floats,
                    flatten=any(dict in map(type, doc.values()) for doc in docs))
    else:
        out = frame(data=raw, columns=[label, *PLACE_COLUMNS], floats=floats)
    # each key's total (the platform's total_count): a column, and one row with empty place columns for a key that
    # found nothing (so that a centre or query with no place is not lost from the frame)
    distinct = list(dict.fromkeys(keys))
    totals = {k: (int(a["total"]) if "total" in a else None) for k in distinct
              for a in [job.answers.get(k) or {}]}
    per_label = ({k: totals[k] for k in distinct} if label == "query" else
                 {i: totals[k] for i, k in enumerate(keys)})
    empty = [lab for lab, t in per_label.items() if t == 0 and not (out[label] == lab).any()]
    if empty:
        import numpy as np

        blank = pd.DataFrame({label: empty}).reindex(columns=out.columns)
        blank = blank.astype({c: out[c].dtype for c in out.columns if c != label and out[c].dtype != object},
                             errors="ignore")
        position = {lab: n for n, lab in enumerate(per_label)}
        if label == "centre":
            blank[label] = blank[label].astype("int64")
        out = pd.concat([out, blank], ignore_index=True) if len(out) else blank
        out = out.iloc[np.argsort([position[v] for v in out[label]], kind="stable")].reset_index(drop=True)
    out["total_count"] = pd.array([per_label.get(v) for v in out[label]], dtype="Int64")
    errors = sorted({a["message"] for a in job.answers.values() if "message" in a})
    out.attrs["sweep"] = {"keys": len(keys), "queries": job.hits + len(job.todo), **job.stats(),
                          "stopped_by_quota": job.stopped, "errors": errors[:20],
                          "totals": per_label, "empty": empty}
    _warn_quota_stop(job, "sweep", None, cache)
    # each key's first page only: a key whose total is larger is cut short
    short = [(key, len(a.get("documents") or []), int(a.get("total") or 0)) for key, a in
             ((k, job.answers.get(k) or {}) for k in distinct)
             if int(a.get("total") or 0) > len(a.get("documents") or [])]
    if short:
        # the numbers of the frame: the places in it, of the totals of every distinct key
        returned = int(out["id"].notna().sum())
        total = sum(t or 0 for t in per_label.values())
        key, r, t = max(short, key=lambda item: item[2])
        named = f"query {key!r}" if label == "query" else f"the centre ({key})"
        fix = ("narrower queries, or a smaller radius" if label == "query" else
               "a smaller radius with more centres (a denser grid)")
        what = "keyword_sweep" if label == "query" else "category_sweep"
        warn_truncated(out, what, returned, total,
                       f"{len(short)} of {len(dict.fromkeys(keys))} {label == 'query' and 'queries' or 'centres'} "
                       f"found more places than their first page holds (e.g. {named}: {r} of {t}); use {fix}")
        out.attrs["truncated"]["keys"] = len(short)
    return out


def _user_level() -> int:
    """The ``stacklevel`` of a warning that points at the first caller outside this package."""
    import os
    import sys

    package, level = os.path.dirname(os.path.abspath(__file__)), 1
    frame: FrameType | None = sys._getframe(2)
    while frame is not None and os.path.abspath(frame.f_code.co_filename).startswith(package + os.sep):
        frame, level = frame.f_back, level + 1
    return level


def _warn_quota_stop(job: Bulk, what: str, resume_at, cache) -> None:
    """A run stopped by the quota (-10) says so, and how to go on."""
    import warnings

    if not job.stopped:
        return
    done = len(job.answers) - job.hits
    where = "" if resume_at is None else f" (the first is labelled {resume_at!r})"
    rows = (f"the rows whose {what}_status is 'not_done' (df.attrs['{what}']['resume_at'] is the first)"
            if what in ("geocode", "region") else "the same input")
    how = (f"run the same call again with cache={str(cache)!r} once the daily quota resets: the answers so far "
           "are kept there and only the rest is requested" if cache is not None else
           f"pass cache='{what}.sqlite' to keep answers between runs, and once the quota resets run again on {rows}")
    warnings.warn(f"{what} stopped: the API quota is used up (code -10) after {done} new answers; the rows not "
                  f"answered{where} are 'not_done'. To resume, {how}.", QuotaStopWarning, stacklevel=_user_level())


def _wraps(method: str, host: str, path: str):
    """Record a bulk helper as a wrapper of a spec endpoint (it runs its calls itself, not via @endpoint)."""
    def decorate(fn):
        WRAPPED.setdefault((method, host, path), []).append(f"{fn.__module__}.{fn.__qualname__}")
        return fn

    return decorate


class LocalArea(Area):
    """``{local_url}/v2/local/...``: every call uses ``ServiceAK <REST API key>``."""

    def _call(self, path: str, params: dict, parse, name: str, fmt: str = "json", raw: bool = False) -> Call:
        if fmt == "xml" or raw:
            parse_fn = (lambda body, response: response.text) if fmt == "xml" else None
        else:
            parse_fn = parse
        return Call("GET", "local", f"{path}.{fmt}", self._client.rest_auth(), params=params, parse=parse_fn,
                    name=name)

    def _check_area(self, what: str, params: dict) -> None:
        """The search area (a rect, or a centre and radius) of a keyword or category search vs the sandbox's city."""
        if params.get("rect"):
            self._check_city(what, [tuple(float(v) for v in params["rect"].split(","))])
        elif params.get("x") is not None:
            self._check_city(what, [(params["x"], params["y"])], radius=params.get("radius") or 0)

    # ------------------------------------------------------------------ 4.1 address search
    def _address_call(self, query, analyze_type, page, size, fmt="json", raw=False) -> Call:
        params = {"query": _text("query", query), "analyze_type": _choice("analyze_type", analyze_type,
                                                                          ("similar", "exact")),
                  "page": _int("page", page, 1, MAX_PAGES), "size": _int("size", size, 1, 30)}
        return self._call("/v2/local/search/address", params, _address_frame, "local.address", _fmt(fmt), raw)

    @endpoint("GET", "local", "/v2/local/search/address.{FORMAT}")
    def address(self, query: str, analyze_type: str = "similar", page: int = 1, size: int = 10, *,
                format: str = "json", raw: bool = False):
        """Address search: one row per document; ``address.*`` and ``road_address.*`` flattened, x/y float.

        ``format="xml"`` or ``raw=True`` give the untouched body (text or dict).

        Spec: location §4.1 address search.

        >>> tk.local.address("전포동 341-17")["road_address.zone_no"]   # doctest: +SKIP
        """
        return self._address_call(query, analyze_type, page, size, format, raw)

    @endpoint("GET", "local", "/v2/local/search/address.{FORMAT}")
    def address_all(self, query: str, analyze_type: str = "similar", size: int = 30, max_pages: int = MAX_PAGES):
        """Every page of an address search (at most ``max_pages`` ≤ 45 requests) in one frame.

        Spec: location §4.1 address search (all pages).

        >>> tk.local.address_all("중앙대로", max_pages=3)   # doctest: +SKIP
        """
        return self._pages(lambda page: self._address_call(query, analyze_type, page, size), max_pages,
                           "address_all")

    def _pages(self, make, max_pages: int, what: str):
        """Pages 1, 2, … of a search until ``is_end`` or ``max_pages``; fewer rows than the meta's
        ``total_count`` warn (:class:`~toolkit.errors.TruncatedWarning`) and set ``attrs["truncated"]``."""
        _int("max_pages", max_pages, 1, MAX_PAGES)
        import pandas as pd

        frames = []
        for page in range(1, max_pages + 1):
            df = yield make(page)
            frames.append(df)
            if df.attrs["meta"].get("is_end", True):
                break
        meta = dict(frames[-1].attrs["meta"], pages=len(frames))
        out = pd.concat(frames, ignore_index=True) if len(frames) > 1 else frames[0]
        out.attrs["meta"] = meta
        total = int(meta.get("total_count") or 0)
        if len(out) < total:
            warn_truncated(out, what, len(out), total, _truncation_hint(what, meta, max_pages))
        return out

    # ------------------------------------------------------------------ 4.2–4.4 coordinates
    @endpoint("GET", "local", "/v2/local/geo/coord2regioncode.{FORMAT}")
    def regions(self, x, y, input_coord: str = "WGS84", output_coord: str = "WGS84", *, format: str = "json",
                raw: bool = False):
        """coord2regioncode: the legal (``B``) and administrative (``H``) regions of a point, one row each.

        Spec: location §4.2 coordinate to region code.

        >>> tk.local.regions(129.0682, 35.1541)   # doctest: +SKIP
        """
        input_coord = coord_system(input_coord, "input_coord", GEO_COORD_SYSTEMS)
        params = {**_point(x, y, input_coord), "input_coord": input_coord,
                  "output_coord": coord_system(output_coord, "output_coord", GEO_COORD_SYSTEMS)}
        if input_coord == "WGS84":
            self._check_city("local.regions", [(params["x"], params["y"])])
        return self._call("/v2/local/geo/coord2regioncode", params, _region_frame, "local.regions", _fmt(format),
                          raw)

    coord2regioncode = regions

    @endpoint("GET", "local", "/v2/local/geo/coord2address.{FORMAT}")
    def coord2address(self, x, y, input_coord: str = "WGS84", *, format: str = "json", raw: bool = False):
        """The land-lot (``address.*``) and road address (``road_address.*``, may be missing) of a point.

        Spec: location §4.3 coordinate to address.

        >>> tk.local.coord2address(129.0592, 35.1579)["road_address.address_name"]   # doctest: +SKIP
        """
        input_coord = coord_system(input_coord, "input_coord", GEO_COORD_SYSTEMS)
        params = {**_point(x, y, input_coord), "input_coord": input_coord}
        if input_coord == "WGS84":
            self._check_city("local.coord2address", [(params["x"], params["y"])])
        return self._call("/v2/local/geo/coord2address", params, _coord2address_frame, "local.coord2address",
                          _fmt(format), raw)

    @endpoint("GET", "local", "/v2/local/geo/transcoord.{FORMAT}")
    def transcoord(self, x, y, input_coord: str = "WGS84", output_coord: str = "WGS84", *, format: str = "json",
                   raw: bool = False):
        """Convert a point between the ten coordinate systems; one row with float x, y.

        ``input_coord`` and ``output_coord`` take the spec's names (:data:`COORD_SYSTEMS`) in any case, or a common
        name of the same system: an EPSG code (``"EPSG:5181"`` is WTM, ``5179`` WUTM), ``"UTM-K"`` (WUTM),
        ``"KATEC"``/``"TM128"`` (KTM) — :data:`toolkit.coords.COORD_ALIASES`. A name of another system is refused
        with the one it most likely means (``"EPSG:5186"``: WTM with y 100 km larger).

        Spec: location §4.4 coordinate conversion.

        >>> tk.local.transcoord(129.0682, 35.1541, output_coord="WTM")   # doctest: +SKIP
        >>> tk.local.transcoord(129.0682, 35.1541, output_coord="UTM-K")  # the service's WUTM   # doctest: +SKIP
        """
        input_coord = coord_system(input_coord, "input_coord")
        params = {**_point(x, y, input_coord), "input_coord": input_coord,
                  "output_coord": coord_system(output_coord, "output_coord")}
        return self._call("/v2/local/geo/transcoord", params, _transcoord_frame, "local.transcoord", _fmt(format),
                          raw)

    # ------------------------------------------------------------------ 4.5–4.6 places
    def _keyword_call(self, query, category_group_code, x, y, radius, rect, page, size, sort, fmt="json",
                      raw=False, where: str | None = "local.keyword") -> Call:
        params: dict[str, Any] = {"query": _text("query", query)}
        if category_group_code is not None:
            params["category_group_code"] = category_code(category_group_code)
        params.update(_area_params(x, y, radius, rect, sort, need_area=True))
        params.update(page=_int("page", page, 1, MAX_PAGES), size=_int("size", size, 1, 15))
        if where and page == 1:
            self._check_area(where, params)
        return self._call("/v2/local/search/keyword", params, _place_frame, "local.keyword", _fmt(fmt), raw)

    def _category_call(self, code, x, y, radius, rect, page, size, sort, fmt="json", raw=False,
                       where: str | None = "local.category") -> Call:
        params: dict[str, Any] = {"category_group_code": category_code(code)}
        params.update(_area_params(x, y, radius, rect, sort, need_area=True))
        params.update(page=_int("page", page, 1, MAX_PAGES), size=_int("size", size, 1, 15))
        if where and page == 1:
            self._check_area(where, params)
        return self._call("/v2/local/search/category", params, _place_frame, "local.category", _fmt(fmt), raw)

    @endpoint("GET", "local", "/v2/local/search/keyword.{FORMAT}")
    def keyword(self, query: str, category_group_code: str | None = None, *, x=None, y=None, radius=None,
                rect=None, page: int = 1, size: int = 15, sort: str = "accuracy", format: str = "json",
                raw: bool = False):
        """Keyword place search within a circle (``x``, ``y``, ``radius`` in metres) or a ``rect`` — one of them is
        required (location §4.5; :data:`BUSAN_RECT` covers the sandbox's city). ``distance`` (metres, float) is
        filled when x, y are given;
        ``df.attrs["meta"]["same_name"]`` says which region the query named. ``category_group_code`` filters
        by one of :data:`toolkit.CATEGORIES` (e.g. ``"CE7"`` cafe, ``"pm9"`` pharmacy).

        Spec: location §4.5 keyword search.

        >>> tk.local.keyword("부산진구 카페", rect=BUSAN_RECT, size=5)   # doctest: +SKIP
        """
        return self._keyword_call(query, category_group_code, x, y, radius, rect, page, size, sort, format, raw)

    @endpoint("GET", "local", "/v2/local/search/keyword.{FORMAT}")
    def keyword_all(self, query: str, category_group_code: str | None = None, *, x=None, y=None, radius=None,
                    rect=None, size: int = 15, sort: str = "accuracy", max_pages: int = MAX_PAGES):
        """Every page of a keyword search (the service shows at most 45 places per query).

        Spec: location §4.5 keyword search (all pages).

        >>> tk.local.keyword_all("약국", x=129.059, y=35.158, radius=1000, max_pages=3)   # doctest: +SKIP
        """
        return self._pages(lambda page: self._keyword_call(query, category_group_code, x, y, radius, rect, page,
                                                           size, sort), max_pages, "keyword_all")

    @endpoint("GET", "local", "/v2/local/search/category.{FORMAT}")
    def category(self, category_group_code: str, *, x=None, y=None, radius=None, rect=None, page: int = 1,
                 size: int = 15, sort: str = "accuracy", format: str = "json", raw: bool = False):
        """Places of a category group around a centre (``x``, ``y``, ``radius`` ≤ 20000 m) or in a ``rect``.

        ``category_group_code`` is one of :data:`toolkit.CATEGORIES` (upper or lower case): MT1 대형마트
        supermarket, CS2 편의점 convenience store, PS3 어린이집·유치원 daycare, SC4 학교 school, AC5 학원
        learning institute, PK6 주차장 parking, OL7 주유소·충전소 gas/charging, SW8 지하철역 subway, BK9 은행
        bank, CT1 문화시설 culture, AG2 중개업소 real estate, PO3 공공기관 public institution, AT4 관광명소
        attraction, AD5 숙박 accommodation, FD6 음식점 restaurant, CE7 카페 cafe, HP8 병원 hospital, PM9 약국
        pharmacy. One row per place (columns of :data:`PLACE_SCHEMA`; ``distance`` in metres when a centre is
        given), ``sort`` ``accuracy`` or ``distance``, ``page`` 1–45, ``size`` 1–15; the meta in
        ``df.attrs["meta"]``.

        Spec: location §4.6 category search.

        >>> tk.local.category("pm9", x=129.059, y=35.158, radius=500, sort="distance")   # doctest: +SKIP
        """
        return self._category_call(category_group_code, x, y, radius, rect, page, size, sort, format, raw)

    @endpoint("GET", "local", "/v2/local/search/category.{FORMAT}")
    def category_all(self, category_group_code: str, *, x=None, y=None, radius=None, rect=None, size: int = 15,
                     sort: str = "accuracy", max_pages: int = MAX_PAGES):
        """Every page of a category search.

        Spec: location §4.6 category search (all pages).

        >>> tk.local.category_all("CE7", x=129.059, y=35.158, radius=1000)   # doctest: +SKIP
        """
        return self._pages(lambda page: self._category_call(category_group_code, x, y, radius, rect, page, size,
                                                            sort), max_pages, "category_all")

    # ------------------------------------------------------------------ 4.7 public transit
    @endpoint("GET", "local", "/v2/routing/publictraffic")
    def public_transit(self, origin, destination, *, departure_time=None, max_walk: int | None = None,
                       raw: bool = False):
        """Public-transit itineraries (§4.7; parameters and answer are the sandbox's design, see
        :mod:`toolkit.sandbox.local.transit`): one row per leg (``route`` = itinerary index, ``leg`` = leg
        index; ``mode`` WALK/SUBWAY, ``line``, ``from.*``/``to.*``, ``distance`` m, ``duration`` s, ``wait``,
        ``stops``). ``df.attrs["meta"]``: ``trans_id`` and ``routes`` (``route``, ``result_code``,
        ``result_msg``, ``summary``); a "no route" answer gives an empty frame and its code in the meta.

        ``origin``/``destination``: ``(x, y)``, ``(x, y, name)``, ``{"x", "y", "name"}`` or ``"x,y[,name=..]"``
        (WGS84). ``departure_time``: a ``datetime`` (naive = Korean time) or ``"yyyyMMddHHmm"``.
        ``max_walk``: metres, 100 to 5000 (server default 1000). ``raw=True`` gives the body (dict).

        Spec: location §4.7 public transit routes.

        >>> tk.local.public_transit((129.0346, 35.0979), (129.0585, 35.1577))   # doctest: +SKIP
        """
        params: dict[str, Any] = {"origin": _transit_point("origin", origin),
                                  "destination": _transit_point("destination", destination)}
        self._check_city("local.public_transit", [tuple(float(v) for v in params[k].split(",")[:2])
                                                  for k in ("origin", "destination")])
        if departure_time is not None:
            params["departure_time"] = _departure_time(departure_time)
        if max_walk is not None:
            params["max_walk"] = _int("max_walk", max_walk, TRANSIT_MAX_WALK[0], TRANSIT_MAX_WALK[1])
        return Call("GET", "local", "/v2/routing/publictraffic", self._client.rest_auth(), params=params,
                    parse=None if raw else _transit_frame, name="local.public_transit")

    # ------------------------------------------------------------------ bulk geocoding
    def _sandbox_mode(self) -> bool:
        """Is this client bound to a sandbox (whose world is the city's address list the toolkit ships)?"""
        return getattr(self._client, "sandbox", None) is not None

    def _bulk(self, job: Bulk, finish):
        """Run a bulk job with the client's runner and build the result with ``finish(job)``."""
        return job.run(self._client, finish)

    @_wraps("GET", "local", "/v2/local/search/address.{FORMAT}")
    def geocode(self, data, column: str | None = None, *, analyze_type: str = "similar", cache=None,
                concurrency="auto", max_concurrency: int | None = None, rate: float | None = None,
                progress: bool = True, suffix: str | None = None, overwrite: bool = False):
        """Geocode addresses (location §4.1, one address search per distinct address): returns a copy of
        ``data`` with the columns ``x``, ``y`` (float, NaN when not found), ``geocode_status`` (``matched`` /
        ``ambiguous`` / ``similar`` / ``region`` / ``not_found`` / ``error`` / ``empty`` / ``not_done``),
        ``geocode_matches`` (documents found), ``geocode_address`` and ``geocode_address_type`` (the document
        used), ``geocode_reason`` (why a row did not match, each a claim true of the input: ``no building numbered
        692 on 중앙대로 in 부산진구; nearest: 691, 694``, ``no such dong '덕첸동'; did you mean 덕천동 …?``,
        ``similar: asked …, answered …``, ``outside the sandbox's city: …``, ``garbage: …``; see
        :mod:`toolkit.geocodes`) and ``geocode_error`` (API error code; NA for a transport failure, whose text is
        in ``attrs["geocode"]["errors"]``). Count only ``matched`` (and, knowingly, ``ambiguous``) rows as
        addresses: a ``similar`` row's x/y is of another address than the one asked (another dong, road or
        number: the service's similar analysis), a ``region`` row's the centre of a region or road the text named.
        Rows keep their index and order; no row is lost and no row is silently empty.

        Addresses are read as people write them (:mod:`toolkit.addresstext`): ``번지`` and ``N번지 M호``, a unit or
        floor after a comma or a space, a building or dong in parentheses, ``부산``/``부산시``/``부산광역시`` or none,
        no space before the number, full-width digits, a postcode in front; the search is sent only the address
        (the detail left out, as location §4.1 asks), and the romanised addresses of Busan in Korean
        (``92, Gaya-daero, Busanjin-gu, Busan``). The same queries go to the sandbox and to the real service. The
        column must hold text: a column of numbers, dates or booleans is a :class:`~toolkit.errors.ParameterError`
        naming it (NaN and None are ``empty`` rows).

        ``data``: a DataFrame (``column`` names the address column), a Series, a list, tuple or Index of
        addresses (the result is a new frame with an ``address`` column, or ``column``), or a dask DataFrame or
        Series (``pip install 'social-api-toolkit[scale]'``): distinct addresses are found across all partitions, each
        requested once from this process under one quota and one cache, and the result is a lazy dask frame
        (the answers joined back per partition).

        The caller's columns are never overwritten: when ``data`` has columns of those names already, the
        added ones get the suffix ``_geocoded`` (with a warning), or ``suffix=`` names them; ``overwrite=True``
        replaces them. Distinct queries are sent once (whitespace-normalised). ``cache`` is a SQLite file path:
        answers are stored there as they arrive and a re-run makes no request for them.

        ``concurrency="auto"`` adapts the requests in flight to the network: it starts at 8 and grows while the
        latency holds, shrinks when it climbs, halves on HTTP 429 and waits out ``Retry-After``, never beyond
        ``max_concurrency`` (default 64); an integer fixes it (1: one after the other). ``rate`` caps request
        starts per second (None: no cap). Retries are the core's (idempotent GETs: 5xx, 429, network).
        ``ambiguous`` means the first page's documents that match the written number and names are different places
        (more than 50 m apart or in different districts: the same road name in two districts); the first is used
        and the reason lists them. Documents of one place (a building and its lots) or the ``N-M`` neighbours the
        service adds to ``N`` leave the row ``matched``. A quota error (-10) stops the run
        cleanly with a ``UserWarning`` that says how to resume: the rest are ``not_done`` and
        ``df.attrs["geocode"]["resume_at"]`` is the first index label not done (re-run with the same cache to
        go on). ``df.attrs["geocode"]`` also counts rows, distinct queries, requests, cache hits, the
        concurrency the run started at (``concurrency_start``: 8, or where this client's last run against the
        same server ended) and the highest it reached. On the async client the call returns an awaitable.

        Spec: location §4.1 address search (one query per distinct address).

        >>> tk.local.geocode(["전포동 341-17", "중앙대로 692"], progress=False)           # doctest: +SKIP
        >>> tk.local.geocode(df, "address", cache="geo.sqlite")                           # doctest: +SKIP
        >>> tk.local.geocode(df, "address", suffix="_home")   # adds x_home, y_home, ...  # doctest: +SKIP
        """
        _choice("analyze_type", analyze_type, ("similar", "exact"))

        def make_call(text):
            call = self._address_call(text, analyze_type, 1, GEOCODE_PAGE)
            call.parse = _geocode_answer(text)
            return call

        # "v3": queries are addresses read as written (detail left out) and answers hold their status and its reason
        # (judged from a page of documents against the names written); answers cached before are asked again
        options = dict(cache=cache, namespace=f"{analyze_type}\tv3\t", concurrency=concurrency,
                       max_concurrency=max_concurrency, rate=rate, progress=progress, desc="geocode")
        if _is_dask(data):
            return self._geocode_dask(data, column, make_call, options, suffix, overwrite)
        frame_in, column = _input_frame(data, column, "address")
        _check_text_column(frame_in[column], column)
        names = _out_names(frame_in.columns, suffix, overwrite)
        texts = [_address_key(v) for v in frame_in[column]]
        job = Bulk(list(dict.fromkeys(t for t in texts if t)), make_call, **options)
        sandbox = self._sandbox_mode()

        def finish(job):
            out = _geocode_frame(frame_in, texts, job.answers, names, sandbox)
            out.attrs["geocode"] = stats(job, len(out), out.attrs.pop("resume_at"))
            _warn_quota_stop(job, "geocode", out.attrs["geocode"]["resume_at"], cache)
            return out

        return self._bulk(job, finish)

    def _geocode_dask(self, data, column, make_call, options: dict, suffix, overwrite):
        """geocode() of a dask DataFrame or Series: distinct addresses over every partition, requested once from
        here (one quota, one cache), then joined back per partition, lazily."""
        import dask
        import dask.dataframe as dd

        if isinstance(data, dd.Series):
            name = column or data.name or "address"
            data, column = data.to_frame(name=name), name
        elif column is None or column not in data.columns:
            raise ParameterError("column", "must name a column of the frame", column)
        _check_text_column(data._meta[column], column, lazy=True)
        names = _out_names(data.columns, suffix, overwrite)
        keys = data[column].map_partitions(lambda s: s.map(_address_key), meta=(column, "object"))
        # distinct per partition, then a tree reduction to one: no shuffle of the rows
        unique = [k for k in keys.drop_duplicates(split_out=1).compute().tolist() if k]
        job = Bulk(unique, make_call, **options)

        def finish(job):
            answers = dask.delayed(dict(job.answers), pure=True)
            meta = _geocode_frame(data._meta, [], {}, names)
            meta.attrs.pop("resume_at")
            out = data.map_partitions(_geocode_partition, column, answers, names, self._sandbox_mode(), meta=meta)
            summary = {"rows": None, "queries": job.hits + len(job.todo), **job.stats(),
                       "stopped_by_quota": job.stopped, "resume_at": None}
            out.attrs = {"geocode": summary}   # on the lazy collection: the run is over, the rows not computed
            _warn_quota_stop(job, "geocode", None, options["cache"])
            return out

        return self._bulk(job, finish)

    @_wraps("GET", "local", "/v2/local/search/keyword.{FORMAT}")
    def keyword_sweep(self, queries, category_group_code: str | None = None, *, x=None, y=None, radius=None,
                      rect=None, size: int = 15, sort: str = "accuracy", cache=None, concurrency="auto",
                      max_concurrency: int | None = None, rate: float | None = None, progress: bool = True):
        """The first page of a keyword search (location §4.5) for each of many ``queries`` → one frame: a
        ``query`` column, then the columns of :meth:`keyword` (a repeated query appears once). Distinct queries are sent once, with the bulk
        guarantees of :meth:`geocode` (adaptive ``concurrency``, ``rate``, ``cache``, a quota stop that warns;
        ``attrs["sweep"]`` counts requests). Queries that found nothing have no rows.

        >>> tk.local.keyword_sweep(["약국", "카페", "편의점"], x=129.059, y=35.158, radius=1000)  # doctest: +SKIP
        """
        queries = [_text("query", q) for q in _sequence("queries", queries)]
        self._keyword_call(queries[0] if queries else "q", category_group_code, x, y, radius, rect, 1, size, sort,
                           where="local.keyword_sweep")

        def make_call(query):
            call = self._keyword_call(query, category_group_code, x, y, radius, rect, 1, size, sort, where=None)
            call.parse = _sweep_answer
            return call

        key = json.dumps([category_group_code, x, y, radius, rect, size, sort])
        job = Bulk(list(dict.fromkeys(queries)), make_call, cache=cache, namespace=f"keyword\t{key}\t",
                   concurrency=concurrency, max_concurrency=max_concurrency, rate=rate, progress=progress,
                   desc="keyword")
        return self._bulk(job, lambda job: _sweep_frame(job, queries, "query", cache))

    @_wraps("GET", "local", "/v2/local/search/category.{FORMAT}")
    def category_sweep(self, category_group_code: str, centres, *, radius: int = 1000, size: int = 15,
                       sort: str = "distance", cache=None, concurrency="auto", max_concurrency: int | None = None,
                       rate: float | None = None, progress: bool = True):
        """The first page of a category search (location §4.6) around each of many ``centres`` (``(x, y)``
        pairs, or a frame with ``x`` and ``y`` columns) → one frame: a ``centre`` column (the centre's position
        in ``centres``), then the columns of :meth:`category`. Distinct centres are sent once, with the bulk
        guarantees of :meth:`geocode` (adaptive ``concurrency``, ``rate``, ``cache``, quota stop that warns).

        >>> grid = [(129.05 + 0.01 * i, 35.15 + 0.01 * j) for i in range(5) for j in range(5)]   # doctest: +SKIP
        >>> tk.local.category_sweep("PM9", grid, radius=700)                                      # doctest: +SKIP
        """
        import pandas as pd

        if isinstance(centres, pd.DataFrame):
            centres = list(zip(centres["x"].tolist(), centres["y"].tolist()))
        points = [(_float("x", p[0]), _float("y", p[1])) if isinstance(p, (tuple, list)) and len(p) == 2 else
                  _bad_centre(i, p) for i, p in enumerate(_sequence("centres", centres))]
        keys = [f"{px!r},{py!r}" for px, py in points]
        if points:
            self._category_call(category_group_code, points[0][0], points[0][1], radius, None, 1, size, sort,
                                where=None)
            self._check_city("local.category_sweep", points, radius=radius)

        def make_call(key):
            px, py = (float(v) for v in key.split(","))
            call = self._category_call(category_group_code, px, py, radius, None, 1, size, sort, where=None)
            call.parse = _sweep_answer
            return call

        job = Bulk(list(dict.fromkeys(keys)), make_call, cache=cache,
                   namespace=f"category\t{category_group_code}\t{radius}\t{size}\t{sort}\t",
                   concurrency=concurrency, max_concurrency=max_concurrency, rate=rate, progress=progress,
                   desc="category")
        return self._bulk(job, lambda job: _sweep_frame(job, keys, "centre", cache))

    @_wraps("GET", "local", "/v2/local/search/category.{FORMAT}")
    @_wraps("GET", "local", "/v2/local/search/keyword.{FORMAT}")
    def count_around(self, what=None, points=None, radius: int = 500, *, category: str | None = None,
                     keyword: str | None = None, cache=None, concurrency="auto", max_concurrency: int | None = None,
                     rate: float | None = None, progress: bool = True):
        """How many places lie within ``radius`` metres of each point: one row per point, zeros kept, with the
        platform's ``total_count`` (every place, not only the 45 a search shows). Say what to count by name:
        ``category="CE7"`` (a category group code, any case: a category search, location §4.6; an unknown code is
        refused with the nearest one, as :meth:`category` does) or ``keyword="스타벅스"`` (a keyword search, §4.5).
        One light request per distinct point (one document asked for), with the bulk guarantees of
        :meth:`geocode` (``cache``, adaptive ``concurrency``, ``rate``, a quota stop that warns).

        ``points``: ``(x, y)`` pairs, or a frame with ``x`` and ``y`` columns (its columns and index are kept and
        ``total_count`` is added). ``total_count`` is NA for a point whose request failed (the message is in
        ``attrs["count_around"]["errors"]``) or was not done.

        The older form ``count_around(what, points, radius)`` still works but warns (``FutureWarning``): it guessed
        whether ``what`` was a code or a keyword, so a mistyped code (``"CE8"``) was counted as a keyword, 0
        everywhere. It now refuses a ``what`` shaped like a code (two letters and a digit) that is no code.

        >>> stations = tk.local.category("SW8", x=129.1604, y=35.1631, radius=3000)                # doctest: +SKIP
        >>> tk.local.count_around(stations, category="CE7", radius=300)[["place_name", "total_count"]]  # doctest: +SKIP
        >>> tk.local.count_around([(129.0592, 35.1579)], keyword="스타벅스", radius=500)              # doctest: +SKIP
        """
        import warnings

        import pandas as pd

        if what is not None and not isinstance(what, str) and points is None:   # count_around(points, category=…)
            what, points = None, what
        elif what is not None and not isinstance(what, str):
            raise ParameterError("points", "give the points first and the rest by name: "
                                           "count_around(points, category='CE7', radius=300)", type(points).__name__)
        if points is None:
            raise ParameterError("points", "give the points: (x, y) pairs or a frame with x and y columns")
        if sum(v is not None for v in (what, category, keyword)) != 1:
            raise ParameterError("category/keyword", "give one of category= (a category group code such as 'CE7') "
                                                     "or keyword= (such as '스타벅스')",
                                 {k: v for k, v in (("what", what), ("category", category), ("keyword", keyword))
                                  if v is not None} or None)
        if what is not None:
            if not what.strip():
                raise ParameterError("what", "must be a category group code (e.g. 'CE7') or a keyword", what)
            code = what.strip().upper()
            shaped = re.fullmatch(r"[A-Z]{2}[0-9]", code) is not None
            if code in CATEGORIES or shaped:
                category = category_code(what, "what")      # a code-shaped typo is refused, never a keyword
            else:
                keyword = what
            said = f"category={category!r}" if category is not None else f"keyword={keyword!r}"
            warnings.warn(f"count_around({what!r}, points, …) guesses whether {what!r} is a category group code or a "
                          f"keyword; write count_around(points, {said}, …). The guessing form will be removed.",
                          FutureWarning, stacklevel=2)
        elif category is not None:
            category = category_code(category, "category")
        else:
            keyword = _text("keyword", keyword)
        is_code = category is not None
        code = category
        what = category if is_code else keyword
        radius = _int("radius", radius, 0, 20000)
        if isinstance(points, pd.DataFrame):
            for name in ("x", "y"):
                if name not in points.columns:
                    raise ParameterError("points", "a frame of points needs x and y columns", list(points.columns))
            frame_in = points.copy()
            pairs = list(zip(points["x"].tolist(), points["y"].tolist()))
        else:
            pairs = _sequence("points", points)
            frame_in = None
        checked = [(_float("x", p[0]), _float("y", p[1])) if isinstance(p, (tuple, list)) and len(p) == 2 else
                   _bad_centre(i, p, "points") for i, p in enumerate(pairs)]
        for i, (px, py) in enumerate(checked):
            lonlat(px, py, x_name=f"points[{i}] x", y_name=f"points[{i}] y")
        keys = [f"{px!r},{py!r}" for px, py in checked]
        if checked:
            self._check_city("local.count_around", checked, radius=radius)

        def make_call(key):
            px, py = (float(v) for v in key.split(","))
            if is_code:
                call = self._category_call(code, px, py, radius, None, 1, 1, "accuracy", where=None)
            else:
                call = self._keyword_call(keyword, None, px, py, radius, None, 1, 1, "accuracy", where=None)
            call.parse = _sweep_answer
            return call

        namespace = f"count\t{'category' if is_code else 'keyword'}\t{what}\t{radius}\t"
        job = Bulk(list(dict.fromkeys(keys)), make_call, cache=cache, namespace=namespace, concurrency=concurrency,
                   max_concurrency=max_concurrency, rate=rate, progress=progress, desc="count")

        def finish(job):
            out = frame_in if frame_in is not None else pd.DataFrame(
                {"x": pd.Series([p[0] for p in checked], dtype="float64"),
                 "y": pd.Series([p[1] for p in checked], dtype="float64")})
            out["total_count"] = pd.array([(job.answers.get(k) or {}).get("total") for k in keys], dtype="Int64")
            errors = sorted({a["message"] for a in job.answers.values() if "message" in a})
            out.attrs["count_around"] = {"what": what, "search": "category" if is_code else
                                         "keyword", "radius": radius, "points": len(keys),
                                         "queries": job.hits + len(job.todo), **job.stats(),
                                         "stopped_by_quota": job.stopped, "errors": errors[:20]}
            _warn_quota_stop(job, "count_around", None, cache)
            return out

        return self._bulk(job, finish)

    def stations_of(self, places, *, within: float = SAME_STATION_M):
        """One row per station of subway-station places (``SW8`` rows of :meth:`category`, :meth:`keyword` or a
        sweep), so that a ranking counts a transfer station once. The platform makes a place of each line's
        station (``서면역 1호선``, ``서면역 2호선``); here places of one station name (the name up to ``역``) whose
        points lie within ``within`` metres of each other are one station, so 서면 on lines 1 and 2 is one row and
        좌천역 1호선 (동구) and 좌천역 동해선 (기장군, 20 km away) stay two.

        Columns: ``station`` (``서면역``), ``lines`` (``"1호선, 2호선"``: numbered lines first, then by name),
        ``line_count``,
        ``places`` (how many place rows it merged), ``ids`` (their ids), then the first place's other columns
        (its ``x``, ``y``, address, …; ``distance`` is the smallest of the station's places). A place whose name
        names no line (the KTX station ``부산역``) is a station of its own with empty ``lines``. Rows of another
        category group are refused (filter with ``places[places.category_group_code == "SW8"]``).

        Spec: location §4.5–4.6 (the places of keyword and category search); no request of its own.

        >>> near = tk.local.category("SW8", x=129.0592, y=35.1579, radius=2000)   # doctest: +SKIP
        >>> tk.local.stations_of(near)[["station", "lines", "distance"]]          # doctest: +SKIP
        """
        import pandas as pd

        if not isinstance(places, pd.DataFrame):
            raise ParameterError("places", "must be a frame of places (place_name, x, y)", type(places).__name__)
        missing = [c for c in ("place_name", "x", "y") if c not in places.columns]
        if missing:
            raise ParameterError("places", f"a frame of places needs the columns {', '.join(missing)}",
                                 list(places.columns))
        if "category_group_code" in places.columns:
            other = sorted({str(c) for c in places["category_group_code"].dropna() if c not in ("SW8", "")})
            if other:
                raise ParameterError("places", "holds places of other category groups "
                                               f"({', '.join(other)}): keep the subway stations with "
                                               "places[places.category_group_code == 'SW8']", other)
        within = number("within", within)
        rows = places[places["place_name"].notna()].reset_index(drop=True)
        groups: list[dict] = []
        for i, r in rows.iterrows():
            name = str(r["place_name"]).strip()
            m = _STATION_PLACE.match(name)
            station, line = (m.group("station"), m.group("line")) if m else (name, "")
            x, y = float(r["x"]), float(r["y"])
            g = next((g for g in groups if g["station"] == station and _metres(x, y, g["x"], g["y"]) <= within),
                     None)
            if g is None:
                g = {"station": station, "x": x, "y": y, "first": i, "lines": [], "rows": []}
                groups.append(g)
            if line and line not in g["lines"]:
                g["lines"].append(line)
            g["rows"].append(i)
        out = []
        for g in groups:
            first = rows.loc[g["first"]].to_dict()
            merged = rows.loc[g["rows"]]
            lines = sorted(g["lines"], key=lambda ln: (0, int(ln[:-2]), "") if re.fullmatch(r"\d+호선", ln)
                           else (1, 0, ln))
            row = {"station": g["station"], "lines": ", ".join(lines), "line_count": len(lines),
                   "places": len(g["rows"]), "ids": list(merged["id"]) if "id" in merged.columns else []}
            row.update({k: v for k, v in first.items() if k not in row})
            if "distance" in merged.columns:
                row["distance"] = merged["distance"].min()
            out.append(row)
        columns = ["station", "lines", "line_count", "places", "ids"] + [c for c in rows.columns if c not in
                                                                          ("station", "lines", "line_count",
                                                                           "places", "ids")]
        frame = pd.DataFrame(out, columns=columns)
        frame.attrs["stations_of"] = {"places": len(rows), "stations": len(frame), "within_m": within}
        return frame

    @_wraps("GET", "local", "/v2/local/geo/coord2regioncode.{FORMAT}")
    def regions_of(self, data, x: str = "x", y: str = "y", *, input_coord: str = "WGS84", cache=None,
                   concurrency="auto", max_concurrency: int | None = None, rate: float | None = None,
                   progress: bool = True):
        """Reverse-geocode a frame's points to their regions (coord2regioncode), with the guarantees of
        :meth:`geocode`: distinct points sent once (rounded to 1e-7), persisted cache, bounded concurrency,
        ``rate``, quota stop with ``attrs["regions"]["resume_at"]``, progress, index kept.

        Adds ``region_status`` (``matched`` / ``sea`` (in the world, in no region) / ``outside`` (no
        document) / ``error`` / ``empty`` (x or y missing) / ``not_done``), the legal region ``b_code``,
        ``b_name``, ``region_1depth_name`` … ``region_4depth_name``, the administrative ``h_code``, ``h_name``,
        ``h_3depth_name`` and ``region_error`` (API error code).

        Spec: location §4.2 coordinate to region code (one query per distinct point).

        >>> tk.local.regions_of(df, x="x", y="y")   # doctest: +SKIP
        """
        import pandas as pd

        if not isinstance(data, pd.DataFrame):
            raise ParameterError("data", "must be a pandas DataFrame", type(data).__name__)
        for name in (x, y):
            if name not in data.columns:
                raise ParameterError("x/y", "must name columns of the frame", name)
        input_coord = coord_system(input_coord, "input_coord", GEO_COORD_SYSTEMS)
        xs = pd.to_numeric(data[x], errors="coerce").astype("float64")
        ys = pd.to_numeric(data[y], errors="coerce").astype("float64")
        keys = [f"{a:.7f},{b:.7f}" if math.isfinite(a) and math.isfinite(b) else ""
                for a, b in zip(xs.tolist(), ys.tolist())]
        unique = list(dict.fromkeys(k for k in keys if k))
        if input_coord == "WGS84" and unique:
            self._check_city("local.regions_of", [tuple(float(v) for v in k.split(",")) for k in unique])

        def make_call(key):
            px, py = key.split(",")
            return self._call("/v2/local/geo/coord2regioncode",
                              {"x": float(px), "y": float(py), "input_coord": input_coord, "output_coord": "WGS84"},
                              _regions_answer, "local.regions")

        job = Bulk(unique, make_call, cache=cache, namespace=f"regions\t{input_coord}\t", concurrency=concurrency,
                   max_concurrency=max_concurrency, rate=rate, progress=progress, desc="regions")
        return self._bulk(job, lambda job: _regions_frame(data, keys, job, cache))


REGION_OUT_COLUMNS = ["region_status", "b_code", "b_name", "region_1depth_name", "region_2depth_name",
                      "region_3depth_name", "region_4depth_name", "h_code", "h_name", "h_3depth_name",
                      "region_error"]


GEOCODE_STATUSES = ["matched", "ambiguous", "similar", "region", "not_found", "error", "empty", "not_done"]
GEOCODE_PAGE = 10     # documents read per geocode query (toolkit.geocodes.PAGE): one place or several


def _geocode_frame(frame_in, texts: list[str], answers: dict, names: dict[str, str], sandbox: bool = True):
    """A copy of ``frame_in`` with the geocode columns (named by ``names``) from the answers per query;
    ``attrs["resume_at"]`` is the first row not done. ``sandbox``: the answers came from the sandbox (the reasons
    speak of its world; against the real service a claim about the toolkit's address list says so)."""
    import pandas as pd

    from .geocodes import reason

    out = frame_in.copy()
    statuses, rows, resume_at = align(out.index, texts, answers, lambda a: a.get("status") or (
        "not_found" if a["matches"] == 0 else "matched" if a["matches"] == 1 else "ambiguous"))
    reasons: dict[tuple[str, str], str | None] = {}
    for text, status, a in zip(texts, statuses, rows):
        if (text, status) not in reasons:
            reasons[(text, status)] = a.get("reason") if a.get("reason") else \
                reason(text, status, sandbox=sandbox) if status in ("not_found", "region", "empty") else None
    for c in ("x", "y"):
        out[names[c]] = pd.to_numeric(pd.Series([a.get(c) for a in rows], index=out.index, dtype="object"),
                                      errors="coerce").astype("float64")
    out[names["geocode_status"]] = pd.Categorical(statuses, categories=GEOCODE_STATUSES)
    out[names["geocode_matches"]] = pd.array([a.get("matches") for a in rows], dtype="Int64")
    out[names["geocode_address"]] = pd.Series([a.get("address") for a in rows], index=out.index, dtype="str")
    out[names["geocode_address_type"]] = pd.Series([a.get("type") for a in rows], index=out.index, dtype="str")
    out[names["geocode_reason"]] = pd.Series([reasons.get((t, s)) for t, s in zip(texts, statuses)],
                                             index=out.index, dtype="str")
    out[names["geocode_error"]] = pd.array([a.get("error") for a in rows], dtype="Int64")
    out.attrs["resume_at"] = resume_at
    return out


def _geocode_partition(part, column: str, answers: dict, names: dict[str, str], sandbox: bool = True):
    """One partition of a dask geocode: the answers joined back to its rows."""
    out = _geocode_frame(part, [_address_key(v) for v in part[column]], answers, names, sandbox)
    out.attrs.clear()
    return out


def _regions_frame(data, keys: list[str], job: Bulk, cache=None):
    import pandas as pd

    out = data.copy()
    statuses, answers, resume_at = align(out.index, keys, job.answers, lambda a: "outside" if not a.get("documents")
                                          else "sea" if a.get("b_code") is None else "matched")
    out["region_status"] = pd.Categorical(statuses, categories=[
        "matched", "sea", "outside", "error", "empty", "not_done"])
    for c in REGION_OUT_COLUMNS[1:-1]:
        out[c] = pd.Series([a.get(c) for a in answers], index=out.index, dtype=TEXT)
    out["region_error"] = pd.array([a.get("error") for a in answers], dtype="Int64")
    out.attrs["regions"] = stats(job, len(out), resume_at)
    _warn_quota_stop(job, "region", resume_at, cache)
    return out
