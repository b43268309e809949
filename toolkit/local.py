"""Local API (location.md §4.1–4.6) as DataFrames: address search, coordinate to region/address, coordinate
systems, keyword and category place search, and bulk geocoding of a DataFrame column.

>>> tk = toolkit.connect()                                        # doctest: +SKIP
>>> tk.local.address("전포동 341-17")                             # one row per document, address.* / road_address.*
>>> tk.local.regions(129.0682, 35.1541)                           # B and H regions of a point
>>> tk.local.transcoord(129.0682, 35.1541, output_coord="WTM")
>>> tk.local.keyword("부산진구 카페", size=5)                      # meta["same_name"] in df.attrs["meta"]
>>> tk.local.category("PM9", x=129.059, y=35.158, radius=500, sort="distance")
>>> tk.local.keyword_all("약국", max_pages=3)                      # all pages, within the 45-page cap
>>> tk.local.geocode(df, "address")                               # adds x, y and geocode_* columns
"""
from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any, Iterable

from .area import Area, Call, endpoint
from .errors import ApiError, ParameterError, QuotaExceeded

__all__ = ["LocalArea", "COORD_SYSTEMS", "GEO_COORD_SYSTEMS", "CATEGORY_GROUP_CODES", "ADDRESS_TYPES"]

COORD_SYSTEMS = ("WGS84", "WCONGNAMUL", "CONGNAMUL", "WTM", "TM", "KTM", "UTM", "BESSEL", "WKTM", "WUTM")
GEO_COORD_SYSTEMS = COORD_SYSTEMS[:5]
CATEGORY_GROUP_CODES = ("MT1", "CS2", "PS3", "SC4", "AC5", "PK6", "OL7", "SW8", "BK9", "CT1", "AG2", "PO3", "AT4",
                        "AD5", "FD6", "CE7", "HP8", "PM9")
ADDRESS_TYPES = ("REGION", "ROAD", "REGION_ADDR", "ROAD_ADDR")

ADDRESS_COLUMNS = ["address_name", "address_type", "x", "y"]
PLACE_COLUMNS = ["id", "place_name", "category_name", "category_group_code", "category_group_name", "phone",
                 "address_name", "road_address_name", "x", "y", "place_url", "distance"]
REGION_COLUMNS = ["region_type", "address_name", "region_1depth_name", "region_2depth_name", "region_3depth_name",
                  "region_4depth_name", "code", "x", "y"]
GEOCODE_COLUMNS = ["x", "y", "geocode_status", "geocode_matches", "geocode_address", "geocode_address_type",
                   "geocode_error"]
MAX_PAGES = 45


# --------------------------------------------------------------------------- client-side checks
def _int(name: str, value, lo: int, hi: int) -> int:
    if isinstance(value, bool) or not isinstance(value, int) or not lo <= value <= hi:
        raise ParameterError(name, f"must be a whole number from {lo} to {hi}", value)
    return value


def _float(name: str, value) -> float:
    try:
        out = float(value)
    except (TypeError, ValueError):
        raise ParameterError(name, "must be a number", value) from None
    if out != out or out in (float("inf"), float("-inf")):
        raise ParameterError(name, "must be a finite number", value)
    return out


def _choice(name: str, value, choices: Iterable[str]) -> str:
    choices = tuple(choices)
    if value not in choices:
        raise ParameterError(name, f"must be one of {', '.join(choices)}", value)
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
        x, y = _float("x", x), _float("y", y)
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
        raise ParameterError("x/y/radius/rect", "category search needs x, y and radius, or rect")
    _choice("sort", sort, ("accuracy", "distance"))
    if sort == "distance" and x is None:
        raise ParameterError("sort", "'distance' needs x and y", sort)
    return {"x": x, "y": y, "radius": radius, "rect": rect, "sort": sort}


# --------------------------------------------------------------------------- parsing
def _address_frame(body, response=None):
    from .frames import frame

    docs = body.get("documents", [])
    floats = ["x", "y", "address.x", "address.y", "road_address.x", "road_address.y"]
    df = frame(docs, columns=ADDRESS_COLUMNS, floats=floats, meta=body.get("meta"))
    for col in ("address", "road_address"):  # a document whose object is null keeps a null column
        if col in df.columns:
            df = df.drop(columns=[col])
    return df


def _place_frame(body, response=None):
    from .frames import frame

    return frame(body.get("documents", []), columns=PLACE_COLUMNS, floats=["x", "y", "distance"],
                 meta=body.get("meta"))


def _region_frame(body, response=None):
    from .frames import frame

    return frame(body.get("documents", []), columns=REGION_COLUMNS, floats=["x", "y"], meta=body.get("meta"))


def _coord2address_frame(body, response=None):
    from .frames import frame

    df = frame(body.get("documents", []), meta=body.get("meta"))
    for col in ("address", "road_address"):
        if col in df.columns:
            df = df.drop(columns=[col])
    return df


def _transcoord_frame(body, response=None):
    from .frames import frame

    return frame(body.get("documents", []), columns=["x", "y"], floats=["x", "y"], meta=body.get("meta"))


# --------------------------------------------------------------------------- geocode cache
class _Cache:
    """A persisted query → answer cache (SQLite file), so a re-run of a geocode makes no requests."""

    def __init__(self, path):
        self.db = sqlite3.connect(str(path))
        self.db.execute("CREATE TABLE IF NOT EXISTS geocode (key TEXT PRIMARY KEY, value TEXT NOT NULL)")

    def get(self, key: str):
        row = self.db.execute("SELECT value FROM geocode WHERE key = ?", (key,)).fetchone()
        return json.loads(row[0]) if row else None

    def put(self, key: str, value: dict):
        self.db.execute("INSERT OR REPLACE INTO geocode VALUES (?, ?)", (key, json.dumps(value, ensure_ascii=False)))
        self.db.commit()

    def close(self):
        self.db.close()


class LocalArea(Area):
    """``{local_url}/v2/local/...``: every call uses ``ServiceAK <REST API key>``."""

    def _call(self, path: str, params: dict, parse, name: str, fmt: str = "json", raw: bool = False) -> Call:
        if fmt == "xml" or raw:
            parse_fn = (lambda body, response: response.text) if fmt == "xml" else None
        else:
            parse_fn = parse
        return Call("GET", "local", f"{path}.{fmt}", self._client.rest_auth(), params=params, parse=parse_fn,
                    name=name)

    # ------------------------------------------------------------------ 4.1 address search
    def _address_call(self, query, analyze_type, page, size, fmt="json", raw=False) -> Call:
        params = {"query": _text("query", query), "analyze_type": _choice("analyze_type", analyze_type,
                                                                          ("similar", "exact")),
                  "page": _int("page", page, 1, MAX_PAGES), "size": _int("size", size, 1, 30)}
        return self._call("/v2/local/search/address", params, _address_frame, "local.address", _fmt(fmt), raw)

    @endpoint
    def address(self, query: str, analyze_type: str = "similar", page: int = 1, size: int = 10, *,
                format: str = "json", raw: bool = False):
        """Address search: one row per document; ``address.*`` and ``road_address.*`` flattened, x/y float.

        ``format="xml"`` or ``raw=True`` give the untouched body (text or dict).
        """
        return self._address_call(query, analyze_type, page, size, format, raw)

    @endpoint
    def address_all(self, query: str, analyze_type: str = "similar", size: int = 30, max_pages: int = MAX_PAGES):
        """Every page of an address search (at most ``max_pages`` ≤ 45 requests) in one frame."""
        return self._pages(lambda page: self._address_call(query, analyze_type, page, size), max_pages)

    def _pages(self, make, max_pages: int):
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
        return out

    # ------------------------------------------------------------------ 4.2–4.4 coordinates
    @endpoint
    def regions(self, x, y, input_coord: str = "WGS84", output_coord: str = "WGS84", *, format: str = "json",
                raw: bool = False):
        """coord2regioncode: the legal (``B``) and administrative (``H``) regions of a point, one row each."""
        params = {"x": _float("x", x), "y": _float("y", y),
                  "input_coord": _choice("input_coord", input_coord, GEO_COORD_SYSTEMS),
                  "output_coord": _choice("output_coord", output_coord, GEO_COORD_SYSTEMS)}
        return self._call("/v2/local/geo/coord2regioncode", params, _region_frame, "local.regions", _fmt(format),
                          raw)

    coord2regioncode = regions

    @endpoint
    def coord2address(self, x, y, input_coord: str = "WGS84", *, format: str = "json", raw: bool = False):
        """The land-lot (``address.*``) and road address (``road_address.*``, may be missing) of a point."""
        params = {"x": _float("x", x), "y": _float("y", y),
                  "input_coord": _choice("input_coord", input_coord, GEO_COORD_SYSTEMS)}
        return self._call("/v2/local/geo/coord2address", params, _coord2address_frame, "local.coord2address",
                          _fmt(format), raw)

    @endpoint
    def transcoord(self, x, y, input_coord: str = "WGS84", output_coord: str = "WGS84", *, format: str = "json",
                   raw: bool = False):
        """Convert a point between the ten coordinate systems; one row with float x, y."""
        params = {"x": _float("x", x), "y": _float("y", y),
                  "input_coord": _choice("input_coord", input_coord, COORD_SYSTEMS),
                  "output_coord": _choice("output_coord", output_coord, COORD_SYSTEMS)}
        return self._call("/v2/local/geo/transcoord", params, _transcoord_frame, "local.transcoord", _fmt(format),
                          raw)

    # ------------------------------------------------------------------ 4.5–4.6 places
    def _keyword_call(self, query, category_group_code, x, y, radius, rect, page, size, sort, fmt="json",
                      raw=False) -> Call:
        params = {"query": _text("query", query)}
        if category_group_code is not None:
            params["category_group_code"] = _choice("category_group_code", category_group_code,
                                                    CATEGORY_GROUP_CODES)
        params.update(_area_params(x, y, radius, rect, sort, need_area=False))
        params.update(page=_int("page", page, 1, MAX_PAGES), size=_int("size", size, 1, 15))
        return self._call("/v2/local/search/keyword", params, _place_frame, "local.keyword", _fmt(fmt), raw)

    def _category_call(self, code, x, y, radius, rect, page, size, sort, fmt="json", raw=False) -> Call:
        params = {"category_group_code": _choice("category_group_code", code, CATEGORY_GROUP_CODES)}
        params.update(_area_params(x, y, radius, rect, sort, need_area=True))
        params.update(page=_int("page", page, 1, MAX_PAGES), size=_int("size", size, 1, 15))
        return self._call("/v2/local/search/category", params, _place_frame, "local.category", _fmt(fmt), raw)

    @endpoint
    def keyword(self, query: str, category_group_code: str | None = None, *, x=None, y=None, radius=None,
                rect=None, page: int = 1, size: int = 15, sort: str = "accuracy", format: str = "json",
                raw: bool = False):
        """Keyword place search. ``distance`` (metres, float) is filled when x, y are given;
        ``df.attrs["meta"]["same_name"]`` says which region the query named."""
        return self._keyword_call(query, category_group_code, x, y, radius, rect, page, size, sort, format, raw)

    @endpoint
    def keyword_all(self, query: str, category_group_code: str | None = None, *, x=None, y=None, radius=None,
                    rect=None, size: int = 15, sort: str = "accuracy", max_pages: int = MAX_PAGES):
        """Every page of a keyword search (the service shows at most 45 places per query)."""
        return self._pages(lambda page: self._keyword_call(query, category_group_code, x, y, radius, rect, page,
                                                           size, sort), max_pages)

    @endpoint
    def category(self, category_group_code: str, *, x=None, y=None, radius=None, rect=None, page: int = 1,
                 size: int = 15, sort: str = "accuracy", format: str = "json", raw: bool = False):
        """Places of a category group around a centre (x, y, radius) or in a rect."""
        return self._category_call(category_group_code, x, y, radius, rect, page, size, sort, format, raw)

    @endpoint
    def category_all(self, category_group_code: str, *, x=None, y=None, radius=None, rect=None, size: int = 15,
                     sort: str = "accuracy", max_pages: int = MAX_PAGES):
        """Every page of a category search."""
        return self._pages(lambda page: self._category_call(category_group_code, x, y, radius, rect, page, size,
                                                            sort), max_pages)

    # ------------------------------------------------------------------ bulk geocoding
    @endpoint
    def geocode(self, data, column: str | None = None, *, analyze_type: str = "similar", cache=None,
                progress: bool = True):
        """Geocode an address column: returns a copy of ``data`` (a DataFrame, or a Series) with the columns
        ``x``, ``y`` (float, NaN when not matched), ``geocode_status`` (``matched`` / ``not_found`` /
        ``ambiguous`` / ``error`` / ``empty`` / ``not_done``), ``geocode_matches`` (documents found),
        ``geocode_address`` and ``geocode_address_type`` (the first document) and ``geocode_error`` (API error
        code). Rows keep their index and order; no row is lost.

        Distinct queries are sent once (whitespace-normalised). ``cache`` is a SQLite file path: answers are
        stored there and a re-run makes no request for them. ``ambiguous`` means several documents matched; the
        first is used. A quota error (-10) stops the run cleanly: the rest are ``not_done`` and
        ``df.attrs["geocode"]["resume_at"]`` is the first index label not done (re-run with the same cache to
        go on). ``df.attrs["geocode"]`` also counts rows, distinct queries, requests and cache hits.
        """
        import pandas as pd

        if isinstance(data, pd.Series):
            frame_in = data.to_frame(name=column or data.name or "address")
            column = frame_in.columns[0]
        elif isinstance(data, pd.DataFrame):
            if column is None or column not in data.columns:
                raise ParameterError("column", "must name a column of the frame", column)
            frame_in = data
        else:
            raise ParameterError("data", "must be a pandas DataFrame or Series", type(data).__name__)
        _choice("analyze_type", analyze_type, ("similar", "exact"))
        texts = [" ".join(str(v).split()) if isinstance(v, str) else "" for v in frame_in[column]]
        unique = list(dict.fromkeys(t for t in texts if t))
        store = _Cache(Path(cache)) if cache is not None else None
        answers: dict[str, dict] = {}
        requests = hits = 0
        stopped_at = None
        bar = None
        if progress:
            from tqdm.auto import tqdm

            bar = tqdm(total=len(unique), desc="geocode", unit="address")
        try:
            for i, text in enumerate(unique):
                key = f"{analyze_type}\t{text}"
                found = store.get(key) if store else None
                if found is not None:
                    hits += 1
                else:
                    requests += 1
                    try:
                        df = yield self._address_call(text, analyze_type, 1, 1)
                        meta = df.attrs["meta"]
                        row = df.iloc[0] if len(df) else None
                        found = {"matches": int(meta.get("total_count", 0)), "error": None,
                                 "x": None if row is None else float(row["x"]),
                                 "y": None if row is None else float(row["y"]),
                                 "address": None if row is None else row["address_name"],
                                 "type": None if row is None else row["address_type"]}
                        if store:
                            store.put(key, found)
                    except QuotaExceeded:
                        stopped_at = i
                        break
                    except ApiError as exc:
                        found = {"matches": 0, "error": exc.code, "x": None, "y": None, "address": None,
                                 "type": None}
                answers[text] = found
                if bar is not None:
                    bar.update(1)
        finally:
            if bar is not None:
                bar.close()
            if store:
                store.close()
        out = frame_in.copy()
        cols: dict[str, list[Any]] = {c: [] for c in GEOCODE_COLUMNS}
        resume_at = None
        for label, text in zip(out.index, texts):
            a = answers.get(text)
            if not text:
                status = "empty"
            elif a is None:
                status = "not_done"
                resume_at = label if resume_at is None else resume_at
            elif a["error"] is not None:
                status = "error"
            else:
                status = "not_found" if a["matches"] == 0 else "matched" if a["matches"] == 1 else "ambiguous"
            a = a or {}
            cols["x"].append(a.get("x"))
            cols["y"].append(a.get("y"))
            cols["geocode_status"].append(status)
            cols["geocode_matches"].append(a.get("matches"))
            cols["geocode_address"].append(a.get("address"))
            cols["geocode_address_type"].append(a.get("type"))
            cols["geocode_error"].append(a.get("error"))
        for c, values in cols.items():
            out[c] = values
        out["x"] = pd.to_numeric(out["x"], errors="coerce").astype("float64")
        out["y"] = pd.to_numeric(out["y"], errors="coerce").astype("float64")
        out["geocode_matches"] = pd.array(out["geocode_matches"], dtype="Int64")
        out["geocode_error"] = pd.array(out["geocode_error"], dtype="Int64")
        out["geocode_status"] = pd.Categorical(out["geocode_status"], categories=[
            "matched", "ambiguous", "not_found", "error", "empty", "not_done"])
        out.attrs["geocode"] = {"rows": len(out), "queries": len(unique), "requests": requests, "cache_hits": hits,
                                "stopped_by_quota": stopped_at is not None, "resume_at": resume_at}
        return out
