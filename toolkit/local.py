"""Local API (location.md §4.1–4.7) as DataFrames: address search, coordinate to region/address, coordinate
systems, keyword and category place search, bulk geocoding of a DataFrame column, and public-transit routes.

>>> tk = toolkit.connect()                                        # doctest: +SKIP
>>> tk.local.address("전포동 341-17")                             # one row per document, address.* / road_address.*
>>> tk.local.regions(129.0682, 35.1541)                           # B and H regions of a point
>>> tk.local.transcoord(129.0682, 35.1541, output_coord="WTM")
>>> tk.local.keyword("부산진구 카페", size=5)                      # meta["same_name"] in df.attrs["meta"]
>>> tk.local.category("PM9", x=129.059, y=35.158, radius=500, sort="distance")
>>> tk.local.keyword_all("약국", max_pages=3)                      # all pages, within the 45-page cap
>>> tk.local.geocode(df, "address", cache="geo.sqlite")           # adds x, y and geocode_* columns
>>> tk.local.geocode(df, "address", concurrency=8, rate=50)       # 8 in flight, at most 50 requests/s
>>> tk.local.regions_of(df, x="x", y="y")                         # adds region_status, b_code, h_code, ...
>>> tk.local.public_transit((129.0346, 35.0979), (129.0585, 35.1577))  # one row per leg, summary in attrs
"""
from __future__ import annotations

import json
import math
import sqlite3
import threading
import time
from pathlib import Path
from typing import Any, Iterable

from .area import WRAPPED, Area, Call, endpoint
from .categories import CATEGORIES, category_code
from .coords import lonlat, number
from .errors import ApiError, ParameterError, QuotaExceeded, ToolkitError
from .frames import TEXT, Schema

__all__ = ["LocalArea", "COORD_SYSTEMS", "GEO_COORD_SYSTEMS", "CATEGORY_GROUP_CODES", "ADDRESS_TYPES"]

COORD_SYSTEMS = ("WGS84", "WCONGNAMUL", "CONGNAMUL", "WTM", "TM", "KTM", "UTM", "BESSEL", "WKTM", "WUTM")
GEO_COORD_SYSTEMS = COORD_SYSTEMS[:5]
CATEGORY_GROUP_CODES = tuple(CATEGORIES)
ADDRESS_TYPES = ("REGION", "ROAD", "REGION_ADDR", "ROAD_ADDR")

# Schemas of the list-like results, from location.md §2 (the same typed columns whether empty or not).
_REGION_NAMES = ["region_1depth_name", "region_2depth_name", "region_3depth_name"]
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
REGION_SCHEMA = Schema(["region_type", "address_name", *_REGION_NAMES, "region_4depth_name", "code", "x", "y"],
                       floats=["x", "y"])
"""Region document (§4.2)."""
TRANSCOORD_SCHEMA = Schema(["x", "y"], floats=["x", "y"])
ADDRESS_COLUMNS = list(ADDRESS_SCHEMA.columns)
PLACE_COLUMNS = list(PLACE_SCHEMA.columns)
REGION_COLUMNS = list(REGION_SCHEMA.columns)
GEOCODE_COLUMNS = ["x", "y", "geocode_status", "geocode_matches", "geocode_address", "geocode_address_type",
                   "geocode_error"]
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
        raise ParameterError("x/y/radius/rect", "category search needs x, y and radius, or rect")
    _choice("sort", sort, ("accuracy", "distance"))
    if sort == "distance" and x is None:
        raise ParameterError("sort", "'distance' needs x and y", sort)
    return {"x": x, "y": y, "radius": radius, "rect": rect, "sort": sort}


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
    x, y = lonlat(x, y, x_name=f"{name} x", y_name=f"{name} y")
    if not isinstance(label, str) or "," in label:
        raise ParameterError(f"{name} name", "must be a string without commas", label)
    return f"{x!r},{y!r}" + (f",name={label}" if label else "")


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
class _Cache:
    """A persisted key → answer cache (SQLite file), so a re-run of a bulk job makes no requests.

    Answers are written as they arrive (a stopped or interrupted run keeps what it got); errors are not
    cached (a re-run tries them again)."""

    def __init__(self, path):
        self.db = sqlite3.connect(str(path), check_same_thread=False)
        self.lock = threading.Lock()
        self.db.execute("CREATE TABLE IF NOT EXISTS geocode (key TEXT PRIMARY KEY, value TEXT NOT NULL)")

    def get(self, key: str):
        with self.lock:
            row = self.db.execute("SELECT value FROM geocode WHERE key = ?", (key,)).fetchone()
        return json.loads(row[0]) if row else None

    def put(self, key: str, value: dict):
        with self.lock:
            self.db.execute("INSERT OR REPLACE INTO geocode VALUES (?, ?)",
                            (key, json.dumps(value, ensure_ascii=False)))
            self.db.commit()

    def close(self):
        self.db.close()


class _Pacer:
    """The ``rate=`` limit: request starts are spaced by at least ``1 / rate`` seconds (across all workers)."""

    def __init__(self, rate: float | None):
        if rate is not None:
            if isinstance(rate, bool) or not isinstance(rate, (int, float)) or not rate > 0 or rate != rate:
                raise ParameterError("rate", "must be a positive number of requests per second, or None", rate)
        self.interval = 1.0 / rate if rate else 0.0
        self.next = 0.0

    def delay(self) -> float:
        """Reserve the next start slot; the seconds to wait for it (0 without a limit)."""
        if not self.interval:
            return 0.0
        now = time.monotonic()
        slot = max(now, self.next)
        self.next = slot + self.interval
        return slot - now


class _Bulk:
    """One bulk job over distinct keys: cache look-up, pacing, progress, quota stop. The sync and the async
    runners differ only in how a call is sent; ``make_call(key)`` builds a call whose ``parse`` gives the
    answer dict, the same for both."""

    def __init__(self, keys: list[str], make_call, *, cache, namespace: str, concurrency: int, rate,
                 progress: bool, desc: str):
        self.make_call, self.namespace = make_call, namespace
        self.concurrency = _int("concurrency", concurrency, 1, 64)
        self.pacer = _Pacer(rate)
        self.store = _Cache(Path(cache)) if cache is not None else None
        self.answers: dict[str, dict] = {}
        self.todo: list[str] = []
        self.hits = self.requests = 0
        self.stopped = False
        for key in keys:
            found = self.store.get(namespace + key) if self.store else None
            if found is not None:
                self.answers[key] = found
                self.hits += 1
            else:
                self.todo.append(key)
        self.bar = None
        if progress:
            from tqdm.auto import tqdm

            self.bar = tqdm(total=len(keys), initial=self.hits, desc=desc, unit="query")

    # ---------------------------------------------------------------- shared bookkeeping
    def _ok(self, key: str, found: dict) -> None:
        self.answers[key] = found
        if self.store:
            self.store.put(self.namespace + key, found)
        self._tick()

    def _failed(self, key: str, exc: ToolkitError) -> None:
        if isinstance(exc, QuotaExceeded):   # -10: stop cleanly; this key stays not done
            self.stopped = True
            return
        self.answers[key] = {"error": exc.code if isinstance(exc, ApiError) else None,
                             "message": str(exc).splitlines()[0][:200]}
        self._tick()

    def _tick(self):
        if self.bar is not None:
            self.bar.update(1)

    def close(self):
        if self.bar is not None:
            self.bar.close()
        if self.store:
            self.store.close()

    # ---------------------------------------------------------------- runners
    def run_sync(self, send) -> None:
        for key in self.todo:
            if self.stopped:
                break
            time.sleep(self.pacer.delay())
            self.requests += 1
            try:
                result = send(self.make_call(key))
            except ToolkitError as exc:
                self._failed(key, exc)
                continue
            self._ok(key, result)

    async def run_async(self, asend) -> None:
        import asyncio

        keys = iter(self.todo)   # shared by the workers: each takes the next key; at most `concurrency` in flight

        async def worker():
            for key in keys:
                if self.stopped:
                    return
                wait = self.pacer.delay()
                if wait:
                    await asyncio.sleep(wait)
                if self.stopped:
                    return
                self.requests += 1
                try:
                    result = await asend(self.make_call(key))
                except ToolkitError as exc:
                    self._failed(key, exc)
                    continue
                self._ok(key, result)

        await asyncio.gather(*(worker() for _ in range(min(self.concurrency, len(self.todo)) or 1)))

    def run_threaded(self, client) -> None:
        """The sync client with ``concurrency > 1``: the async runner on a private event loop and connection
        pool in a worker thread (works inside Jupyter's running loop too)."""
        import asyncio
        from concurrent.futures import ThreadPoolExecutor

        from .http import RequestCore

        core = RequestCore(client.config, async_transport=client.core._async_transport)
        core.attempts_log = client.core.attempts_log   # one log of attempts for the client

        async def main():
            try:
                await self.run_async(core.asend)
            finally:
                await core.aclose()

        with ThreadPoolExecutor(1, thread_name_prefix="toolkit-bulk") as pool:
            future = pool.submit(asyncio.run, main())
            try:
                future.result()
            except BaseException:
                self.stopped = True   # e.g. KeyboardInterrupt: the workers stop after their current call
                raise


def _geocode_answer(body, response=None) -> dict:
    """The answer of one geocode query, straight from the address-search body (no frame: bulk runs are hot)."""
    docs = body.get("documents") or []
    doc = docs[0] if docs else None
    return {"matches": int((body.get("meta") or {}).get("total_count", 0)), "error": None,
            "x": None if doc is None else float(doc["x"]), "y": None if doc is None else float(doc["y"]),
            "address": None if doc is None else doc.get("address_name"),
            "type": None if doc is None else doc.get("address_type")}


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
    import pandas as pd

    if isinstance(data, pd.Series):
        frame_in = data.to_frame(name=column or data.name or default)
        return frame_in, frame_in.columns[0]
    if isinstance(data, pd.DataFrame):
        if column is None or column not in data.columns:
            raise ParameterError("column", "must name a column of the frame", column)
        return data, column
    raise ParameterError("data", "must be a pandas DataFrame or Series", type(data).__name__)


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
    @endpoint("GET", "local", "/v2/local/geo/coord2regioncode.{FORMAT}")
    def regions(self, x, y, input_coord: str = "WGS84", output_coord: str = "WGS84", *, format: str = "json",
                raw: bool = False):
        """coord2regioncode: the legal (``B``) and administrative (``H``) regions of a point, one row each.

        Spec: location §4.2 coordinate to region code.

        >>> tk.local.regions(129.0682, 35.1541)   # doctest: +SKIP
        """
        params = {**_point(x, y, _choice("input_coord", input_coord, GEO_COORD_SYSTEMS)),
                  "input_coord": input_coord,
                  "output_coord": _choice("output_coord", output_coord, GEO_COORD_SYSTEMS)}
        return self._call("/v2/local/geo/coord2regioncode", params, _region_frame, "local.regions", _fmt(format),
                          raw)

    coord2regioncode = regions

    @endpoint("GET", "local", "/v2/local/geo/coord2address.{FORMAT}")
    def coord2address(self, x, y, input_coord: str = "WGS84", *, format: str = "json", raw: bool = False):
        """The land-lot (``address.*``) and road address (``road_address.*``, may be missing) of a point.

        Spec: location §4.3 coordinate to address.

        >>> tk.local.coord2address(129.0592, 35.1579)["road_address.address_name"]   # doctest: +SKIP
        """
        params = {**_point(x, y, _choice("input_coord", input_coord, GEO_COORD_SYSTEMS)),
                  "input_coord": input_coord}
        return self._call("/v2/local/geo/coord2address", params, _coord2address_frame, "local.coord2address",
                          _fmt(format), raw)

    @endpoint("GET", "local", "/v2/local/geo/transcoord.{FORMAT}")
    def transcoord(self, x, y, input_coord: str = "WGS84", output_coord: str = "WGS84", *, format: str = "json",
                   raw: bool = False):
        """Convert a point between the ten coordinate systems; one row with float x, y.

        Spec: location §4.4 coordinate conversion.

        >>> tk.local.transcoord(129.0682, 35.1541, output_coord="WTM")   # doctest: +SKIP
        """
        params = {**_point(x, y, _choice("input_coord", input_coord, COORD_SYSTEMS)),
                  "input_coord": input_coord,
                  "output_coord": _choice("output_coord", output_coord, COORD_SYSTEMS)}
        return self._call("/v2/local/geo/transcoord", params, _transcoord_frame, "local.transcoord", _fmt(format),
                          raw)

    # ------------------------------------------------------------------ 4.5–4.6 places
    def _keyword_call(self, query, category_group_code, x, y, radius, rect, page, size, sort, fmt="json",
                      raw=False) -> Call:
        params = {"query": _text("query", query)}
        if category_group_code is not None:
            params["category_group_code"] = category_code(category_group_code)
        params.update(_area_params(x, y, radius, rect, sort, need_area=False))
        params.update(page=_int("page", page, 1, MAX_PAGES), size=_int("size", size, 1, 15))
        return self._call("/v2/local/search/keyword", params, _place_frame, "local.keyword", _fmt(fmt), raw)

    def _category_call(self, code, x, y, radius, rect, page, size, sort, fmt="json", raw=False) -> Call:
        params = {"category_group_code": category_code(code)}
        params.update(_area_params(x, y, radius, rect, sort, need_area=True))
        params.update(page=_int("page", page, 1, MAX_PAGES), size=_int("size", size, 1, 15))
        return self._call("/v2/local/search/category", params, _place_frame, "local.category", _fmt(fmt), raw)

    @endpoint("GET", "local", "/v2/local/search/keyword.{FORMAT}")
    def keyword(self, query: str, category_group_code: str | None = None, *, x=None, y=None, radius=None,
                rect=None, page: int = 1, size: int = 15, sort: str = "accuracy", format: str = "json",
                raw: bool = False):
        """Keyword place search. ``distance`` (metres, float) is filled when x, y are given;
        ``df.attrs["meta"]["same_name"]`` says which region the query named. ``category_group_code`` filters
        by one of :data:`toolkit.CATEGORIES` (e.g. ``"CE7"`` cafe, ``"pm9"`` pharmacy).

        Spec: location §4.5 keyword search.

        >>> tk.local.keyword("부산진구 카페", size=5)   # doctest: +SKIP
        """
        return self._keyword_call(query, category_group_code, x, y, radius, rect, page, size, sort, format, raw)

    @endpoint("GET", "local", "/v2/local/search/keyword.{FORMAT}")
    def keyword_all(self, query: str, category_group_code: str | None = None, *, x=None, y=None, radius=None,
                    rect=None, size: int = 15, sort: str = "accuracy", max_pages: int = MAX_PAGES):
        """Every page of a keyword search (the service shows at most 45 places per query).

        Spec: location §4.5 keyword search (all pages).

        >>> tk.local.keyword_all("약국", max_pages=3)   # doctest: +SKIP
        """
        return self._pages(lambda page: self._keyword_call(query, category_group_code, x, y, radius, rect, page,
                                                           size, sort), max_pages)

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
                                                            sort), max_pages)

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
        params = {"origin": _transit_point("origin", origin), "destination": _transit_point("destination",
                                                                                             destination)}
        if departure_time is not None:
            params["departure_time"] = _departure_time(departure_time)
        if max_walk is not None:
            params["max_walk"] = _int("max_walk", max_walk, TRANSIT_MAX_WALK[0], TRANSIT_MAX_WALK[1])
        return Call("GET", "local", "/v2/routing/publictraffic", self._client.rest_auth(), params=params,
                    parse=None if raw else _transit_frame, name="local.public_transit")

    # ------------------------------------------------------------------ bulk geocoding
    def _bulk(self, job: _Bulk, finish):
        """Run a bulk job with the client's runner and build the result with ``finish(job)``."""
        if self._client._async:
            async def run():
                try:
                    await job.run_async(self._client.core.asend)
                finally:
                    job.close()
                return finish(job)

            return run()
        try:
            if job.concurrency > 1 and len(job.todo) > 1:
                job.run_threaded(self._client)
            else:
                job.run_sync(self._client.core.send)
        finally:
            job.close()
        return finish(job)

    @_wraps("GET", "local", "/v2/local/search/address.{FORMAT}")
    def geocode(self, data, column: str | None = None, *, analyze_type: str = "similar", cache=None,
                concurrency: int = 8, rate: float | None = None, progress: bool = True):
        """Geocode an address column: returns a copy of ``data`` (a DataFrame, or a Series) with the columns
        ``x``, ``y`` (float, NaN when not matched), ``geocode_status`` (``matched`` / ``not_found`` /
        ``ambiguous`` / ``error`` / ``empty`` / ``not_done``), ``geocode_matches`` (documents found),
        ``geocode_address`` and ``geocode_address_type`` (the first document) and ``geocode_error`` (API error
        code; NA for a transport failure, whose text is in ``attrs["geocode"]["errors"]``). Rows keep their
        index and order; no row is lost and no row is silently empty.

        Distinct queries are sent once (whitespace-normalised). ``cache`` is a SQLite file path: answers are
        stored there as they arrive and a re-run makes no request for them. ``concurrency`` requests are in
        flight at once (1: one after the other); the async client runs them on its own loop, the sync client
        on a private loop in a worker thread. ``rate`` caps request starts per second (None: no cap).
        Retries are the core's (idempotent GETs: 5xx, 429, network). ``ambiguous`` means several documents
        matched; the first is used. A quota error (-10) stops the run cleanly: the rest are ``not_done`` and
        ``df.attrs["geocode"]["resume_at"]`` is the first index label not done (re-run with the same cache to
        go on). ``df.attrs["geocode"]`` also counts rows, distinct queries, requests and cache hits.
        On the async client the call returns an awaitable.

        Spec: location §4.1 address search (one query per distinct address).

        >>> tk.local.geocode(df, "address", cache="geo.sqlite")   # doctest: +SKIP
        """
        frame_in, column = _input_frame(data, column, "address")
        _choice("analyze_type", analyze_type, ("similar", "exact"))
        texts = [" ".join(v.split()) if isinstance(v, str) else "" for v in frame_in[column]]
        unique = list(dict.fromkeys(t for t in texts if t))
        def make_call(text):
            call = self._address_call(text, analyze_type, 1, 1)
            call.parse = _geocode_answer
            return call

        job = _Bulk(unique, make_call, cache=cache, namespace=f"{analyze_type}\t", concurrency=concurrency, rate=rate,
                    progress=progress, desc="geocode")
        return self._bulk(job, lambda job: _geocode_frame(frame_in, texts, job))

    @_wraps("GET", "local", "/v2/local/geo/coord2regioncode.{FORMAT}")
    def regions_of(self, data, x: str = "x", y: str = "y", *, input_coord: str = "WGS84", cache=None,
                   concurrency: int = 8, rate: float | None = None, progress: bool = True):
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
        _choice("input_coord", input_coord, GEO_COORD_SYSTEMS)
        xs = pd.to_numeric(data[x], errors="coerce").astype("float64")
        ys = pd.to_numeric(data[y], errors="coerce").astype("float64")
        keys = [f"{a:.7f},{b:.7f}" if math.isfinite(a) and math.isfinite(b) else ""
                for a, b in zip(xs.tolist(), ys.tolist())]
        unique = list(dict.fromkeys(k for k in keys if k))

        def make_call(key):
            px, py = key.split(",")
            return self._call("/v2/local/geo/coord2regioncode",
                              {"x": float(px), "y": float(py), "input_coord": input_coord, "output_coord": "WGS84"},
                              _regions_answer, "local.regions")

        job = _Bulk(unique, make_call, cache=cache, namespace=f"regions\t{input_coord}\t",
                    concurrency=concurrency, rate=rate, progress=progress, desc="regions")
        return self._bulk(job, lambda job: _regions_frame(data, keys, job))


REGION_OUT_COLUMNS = ["region_status", "b_code", "b_name", "region_1depth_name", "region_2depth_name",
                      "region_3depth_name", "region_4depth_name", "h_code", "h_name", "h_3depth_name",
                      "region_error"]


def _stats(job: _Bulk, rows: int, resume_at) -> dict:
    errors = sorted({a["message"] for a in job.answers.values() if "message" in a})
    return {"rows": rows, "queries": job.hits + len(job.todo), "requests": job.requests, "cache_hits": job.hits,
        "stopped_by_quota": job.stopped, "resume_at": resume_at, "errors": errors[:20]}


def _align(index, keys: list[str], job: _Bulk, classify) -> tuple[list[str], list[dict], Any]:
    """Per input row, in input order: its status and its answer ({} when none), and the first row not done (the
    resume point). ``classify(answer)`` names the status of a row that has an answer."""
    statuses, answers, resume_at = [], [], None
    for label, key in zip(index, keys):
        a = job.answers.get(key)
        if not key:
            status = "empty"
        elif a is None:
            status = "not_done"
            resume_at = label if resume_at is None else resume_at
        elif "message" in a:
            status = "error"
        else:
            status = classify(a)
        statuses.append(status)
        answers.append(a or {})
    return statuses, answers, resume_at


def _geocode_frame(frame_in, texts: list[str], job: _Bulk):
    import pandas as pd

    out = frame_in.copy()
    statuses, answers, resume_at = _align(out.index, texts, job, lambda a: "not_found" if a["matches"] == 0
                                          else "matched" if a["matches"] == 1 else "ambiguous")
    out["x"] = pd.to_numeric(pd.Series([a.get("x") for a in answers], index=out.index), errors="coerce")
    out["y"] = pd.to_numeric(pd.Series([a.get("y") for a in answers], index=out.index), errors="coerce")
    out["x"], out["y"] = out["x"].astype("float64"), out["y"].astype("float64")
    out["geocode_status"] = pd.Categorical(statuses, categories=[
        "matched", "ambiguous", "not_found", "error", "empty", "not_done"])
    out["geocode_matches"] = pd.array([a.get("matches") for a in answers], dtype="Int64")
    out["geocode_address"] = [a.get("address") for a in answers]
    out["geocode_address_type"] = [a.get("type") for a in answers]
    out["geocode_error"] = pd.array([a.get("error") for a in answers], dtype="Int64")
    out.attrs["geocode"] = _stats(job, len(out), resume_at)
    return out


def _regions_frame(data, keys: list[str], job: _Bulk):
    import pandas as pd

    out = data.copy()
    statuses, answers, resume_at = _align(out.index, keys, job, lambda a: "outside" if not a.get("documents")
                                          else "sea" if a.get("b_code") is None else "matched")
    out["region_status"] = pd.Categorical(statuses, categories=[
        "matched", "sea", "outside", "error", "empty", "not_done"])
    for c in REGION_OUT_COLUMNS[1:-1]:
        out[c] = pd.Series([a.get(c) for a in answers], index=out.index, dtype=TEXT)
    out["region_error"] = pd.array([a.get("error") for a in answers], dtype="Int64")
    out.attrs["regions"] = _stats(job, len(out), resume_at)
    return out
