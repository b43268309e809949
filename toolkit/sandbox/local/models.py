"""Local area of the sandbox: address search, coordinate to region/address, place search (location §4.1–4.6)
on a real-data world: Busan legal-dong polygons, the official code tables, the 149,400 real businesses of all
16 districts and the landmarks named by official building names (see ``datasets/README.md``).

The world is read-only and held in memory. It is loaded on the first local request (not at sandbox start, so
``toolkit.connect()`` stays fast), under a lock; :meth:`Model.world` forces the load.

Choices where the spec is silent, written down here:

* **Address search.** The query is first read as people write addresses, by the reader the client's
  ``geocode`` uses too (:mod:`toolkit.addresstext`): full-width digits, no space before the number or none at all
  (``부산진구전포동341-17``: split on the world's names), ``번지`` and ``N번지 M호`` (= ``N-M``), a postcode in front,
  text in parentheses, and whatever follows the number (a unit or floor after a comma or a space: ``, 1층``,
  ``101동 1001호``; a building name) are understood, the detail and the parentheses left out of the search (the
  real service's analysis is fuzzy too, and location §4.1 asks for detail to be left out of the query);
  ``exact`` takes only a unit or floor there (other words after the number are not understood: no document).
  The real service's handling of romanised addresses is not shown: the sandbox reads only Korean ones (Latin
  text finds nothing; the client's ``geocode`` turns the romanised addresses of the city into Korean before it
  sends them). An administrative dong's name (``전포1동``, ``전포제1동``) stands for the legal dongs it lies in
  (as the real service answers ``전북 삼성동 100`` with ``전북 익산시 부송동 100``, whose administrative dong is
  삼성동). The words read are then split: leading region words are consumed (``부산``/``부산시``/
  ``부산광역시``, a district, a legal dong or 읍/면, a 리 — after its 읍/면 or straight after the district or city);
  a road name may follow any of them (a 읍/면 or dong keeps the roads that have addresses in it, as the
  addresses of a county write ``기장군 기장읍 기장대로 507``); what follows is either a road name (a word of the road
  table, e.g. ``중앙대로``) with an optional building number ``N`` or ``N-M`` (``ROAD`` / ``ROAD_ADDR``), or,
  after a dong, a lot number ``N``, ``N-M``, ``산 N`` or ``산N-M`` (``REGION_ADDR``). Region words alone give
  ``REGION`` documents (the deepest region named; all regions of that name when it is ambiguous).
  ``analyze_type=exact``: numbers must match exactly (a missing sub-number means "none") and every word must
  be understood. ``similar`` (default): a number ``N`` also matches ``N-*`` (exact match first), a lot or
  building number that does not exist falls back to all lots/buildings with the same main number, and words
  that are not understood are matched as a substring of the building name in the regions named.
  Order: exact hits first, then by code and numbers. Documents of every kind have ``address`` and
  ``road_address`` keys (``null`` when they do not apply, as on the real platform): ``REGION`` documents have
  a land-lot ``address`` with empty numbers and the region's centre, ``ROAD`` documents a ``road_address``
  with empty building numbers and the median point of the road's addresses.
  ``pageable_count`` = min(total_count, 45 × size); a page past the end is empty with ``is_end: true``.
* **Regions (coord2regioncode).** B: the legal-dong polygon containing the point (a 리 inside an 읍/면 first),
  else the nearest one within 30 m (the polygons are simplified and leave gaps up to ~20 m). H: the
  administrative dong of the nearest address within 200 m that lies in the same legal dong, else the first
  active crosswalk row of the legal dong (lowest code). Documents come B first, then H; ``x``/``y`` are the
  region's centre (B: a point inside the polygon; H: mean of its addresses, else its B centre), in
  ``output_coord``. ``region_4depth_name`` is present in every region and address object, as clients of the
  real platform expect: the 리 of a B region or land-lot address in a county (기장군), else ``""`` (H regions,
  road addresses). A land-lot address in a county writes its ``region_3depth_name`` as "읍/면 리". A point in the city's bounding box but
  in no polygon is **sea**: one B and one H document with ``address_name`` ``""``, ``code`` ``""`` and the
  region names omitted. A point outside the city's bounding box is outside the sandbox world:
  ``total_count`` 0 and no documents.
* **coord2address.** The nearest known address within 30 m gives ``address`` and ``road_address``. Else,
  on land, ``address`` names only the legal dong (empty numbers) and ``road_address`` is ``null``; at sea or
  outside the world ``total_count`` is 0. ``zip_code`` (deprecated) is ``""``.
* **Keyword search.** Region words at the start or end of the query are recognised (district, legal or
  administrative dong, ``부산``); ``same_name.region`` lists every region they can name (full names),
  ``selected_region`` is the first one, ``keyword`` the rest. With no region word: ``region: []``,
  ``selected_region: ""``. A place matches when every keyword word occurs (case-insensitive, spaces ignored)
  in its name, category name or category group name. Accuracy order: name equal, name starts with, name
  contains, category only; ties by distance (when a centre is given), then id. The centre/rect rule: keyword
  search accepts neither (the real platform's behaviour: they narrow the search only when given); ``radius``
  needs ``x`` and ``y``; ``x`` and ``y`` go together; ``sort=distance`` needs ``x`` and ``y``. Category
  search needs ``x``, ``y`` and ``radius``, or ``rect`` (-2 otherwise). With both, both filter. ``x``/``y``
  without ``radius`` only set the centre used for ``distance`` and ``sort=distance``.
  ``pageable_count`` = min(total_count, 45) (the real platform shows at most 45 places per query).
  ``place_url`` is ``https://place.sandbox.invalid/<id>`` (no details pages in the sandbox). ``phone`` is
  empty (no source has telephone numbers). ``distance``: in keyword documents only when ``x``/``y`` were sent;
  in category documents always (``""`` without a centre). Places are the store registry plus the landmarks
  named by official building names (``landmarks.csv``: schools, kindergartens, subway
  stations, banks, public offices, culture facilities, parking buildings, parks, markets), so every category
  group has places; both are read from ``places_index.json.gz`` (columns, built with the datasets).
* Errors: a missing or malformed parameter, or a bound broken, is HTTP 400 ``{code: -2}``.
"""
from __future__ import annotations

import csv
import gzip
import io
import json
import math
import re
import threading
from array import array
from collections import defaultdict
from time import monotonic as _monotonic
from collections.abc import Sequence
from statistics import median

import numpy as np   # loaded with the sandbox anyway (its seed): imported once here, not on every search
import orjson

from ...addresstext import read as read_address
from .coords import transform
from .placeindex import Kept, PlaceIndex, haversine_many, top_order

SCHEMA = ""

ADDRESS_TYPES = ("REGION", "ROAD", "REGION_ADDR", "ROAD_ADDR")
CATEGORY_GROUPS = {
    "MT1": "대형마트", "CS2": "편의점", "PS3": "어린이집, 유치원", "SC4": "학교", "AC5": "학원", "PK6": "주차장",
    "OL7": "주유소, 충전소", "SW8": "지하철역", "BK9": "은행", "CT1": "문화시설", "AG2": "중개업소", "PO3": "공공기관",
    "AT4": "관광명소", "AD5": "숙박", "FD6": "음식점", "CE7": "카페", "HP8": "병원", "PM9": "약국",
}
SIDO_ALIASES = ("부산광역시", "부산시", "부산")
NEAR_REGION_M = 30.0
NEAR_ADDRESS_M = 30.0
H_FROM_ADDRESS_M = 200.0
REGION_CELLS = (0.00025, 0.0000625)   # degrees (about 23 m x 28 m, then 6 m x 7 m): coord2regioncode's
                                      # answers are kept per cell (the finer one where the larger has none)
REGION_CELLS_KEPT = 50_000      # cells whose region codes are kept (World.region_codes; ~340 bytes each measured,
                                # ~17 MB at most; emptied when full: the city holds ~4.6 million cells, so random
                                # points hardly ever meet a cell again, while a class's points repeat)
NEAR_KEPT = 16_384              # neighbourhoods of grid cells whose address candidates are kept (World._candidates;
                                # ~350 bytes each measured, ~6 MB at most; emptied when full: the city's 72,800 cells
                                # x 2 reaches were ~50 MB kept for ever; one is made again in ~30 us)
PLACE_URL = "https://place.sandbox.invalid/"
PLACE_FIELDS = ("id", "place_name", "category_name", "category_group_code", "category_group_name", "phone",
                "address_name", "road_address_name", "x", "y")
REGION_WORDS_KEPT = 4096        # query texts whose regions are kept (Model._parse_regions, Model._recognise) ...
KEPT_TEXT_MAX = 256             # ... when at most this long (a query may be 1 MB: 4,096 of those would not fit)
REQUEST_LOG_MAX = 200_000       # local requests logged per sandbox (RequestLog: 10 bytes each, ~2 MB at most)
PLACE_DOCS_KEPT = 20_000        # documents of the places shown last, kept to be copied (~15 MB at most), and
                                # as JSON text, places' and addresses' apart (~0.4 and ~0.9 kB each: ~8 and ~18 MB)
CITY_EN = {"부산광역시": "Busan"}
"""English names of the world's cities (``summary.json`` names them in Korean)."""
_WORLDS: dict = {}              # datasets folder → World: read-only, shared by every sandbox of the process
_WORLDS_LOCK = threading.Lock()
_NO_CANDIDATES = np.empty(0, dtype=np.int32)
_NO_CANDIDATES.flags.writeable = False
_NUM = re.compile(r"^(산)?(\d+)(?:-(\d+))?$")
_CODE = re.compile(r"[0-9]{10}\Z")


def haversine(x1: float, y1: float, x2: float, y2: float) -> float:
    """Metres between two WGS84 points."""
    p1, p2 = math.radians(y1), math.radians(y2)
    dp, dl = p2 - p1, math.radians(x2 - x1)
    a = math.sin(dp / 2) ** 2 + math.cos(p1) * math.cos(p2) * math.sin(dl / 2) ** 2
    return 2 * 6371008.8 * math.asin(math.sqrt(min(1.0, a)))


def _haversine_pairs(x1, y1, x2, y2):
    """Metres between the points of two arrays, pair by pair (the formula of :func:`haversine`)."""
    p1, p2 = np.radians(y1), np.radians(y2)
    a = np.sin((p2 - p1) / 2) ** 2 + np.cos(p1) * np.cos(p2) * np.sin(np.radians(x2 - x1) / 2) ** 2
    return 2 * 6371008.8 * np.arcsin(np.sqrt(np.minimum(1.0, a)))


def _fmt(v: float) -> str:
    return f"{v:.7f}".rstrip("0").rstrip(".") if v == v else ""


def _trimmed(data: bytes) -> bytes:
    """``data`` copied into a buffer of its own length, for JSON text that is kept: orjson's answers hold a buffer
    of at least 4 kB whatever their length (measured: 4.1 kB resident per answer of 258 bytes, 320 bytes once
    copied), so the 20,000 texts of each table below held ~80-160 MB instead of ~8-18 MB."""
    return bytes(memoryview(data))


def _read_rows(path, gz=False) -> list[list[str]]:
    raw = gzip.decompress(path.read_bytes()).decode("utf-8") if gz else path.read_text("utf-8")
    return list(csv.reader(io.StringIO(raw)))


def _read_csv(path, gz=False) -> list[dict]:
    rows = _read_rows(path, gz)
    return [dict(zip(rows[0], r)) for r in rows[1:]]


_SPACES = (" ", "\t", "\r", "\u3000", "\xa0", "\v", "\f")


def _norm(text: str) -> str:
    """Lower case without white space (new lines are kept: they separate the rows of a batch)."""
    for c in _SPACES:
        if c in text:
            text = text.replace(c, "")
    return text.lower()


def _freeze() -> None:
    """Move what is loaded out of the cyclic garbage collector's reach: the world is read-only and holds about
    10^6 objects, and full collections walking it paused the event loop for 100-600 ms."""
    import gc

    gc.collect()
    gc.freeze()


class _Ranked(Sequence):
    """The documents of a place search in their order, made only for the rows read: a query may match thousands
    of places, but at most 45 are ever shown (``len`` is the total count). ``keys`` (most significant first)
    order the rows; None keeps row order. Reading the first ``k`` documents orders only the rows that can be
    among them."""

    def __init__(self, rows, keys, make, make_json=None):   # make_json(positions or a slice) -> JSON bytes
        self.rows, self.keys, self.make, self.make_json = rows, keys, make, make_json
        self._order, self._known = None, -1        # positions in rows, in order; how many are known (-1: none)

    def page(self, start: int, stop: int) -> "_Page":
        """Documents ``start:stop`` in order, made when read (:class:`_Page`)."""
        return _Page(self, start, stop)

    def json_slice(self, start: int, stop: int) -> list[bytes] | None:
        """The JSON bytes of documents ``start:stop`` (None without ``make_json``)."""
        if self.make_json is None:
            return None
        order = self._first(stop)
        if isinstance(order, range):            # row order: the positions are a slice
            return self.make_json(slice(start, stop))
        return self.make_json(order[start:stop])

    def __len__(self) -> int:
        return int(self.rows.size)

    def _first(self, k: int | None):
        n = len(self)
        k = n if k is None or k >= n else k
        if self.keys is None:
            return range(k)                        # row order
        if k > self._known:
            self._order = top_order(self.keys, 0 if k == n else k)
            self._known = self._order.size
        return self._order[:k]

    def __getitem__(self, k):
        if isinstance(k, slice):
            start, stop, step = k.indices(len(self))
            order = self._first(stop if step > 0 else None)
            return [self.make(int(j)) for j in order[start:stop:step]] if step > 0 else \
                [self.make(int(j)) for j in self._first(None)[k]]
        if k < 0:
            k += len(self)
        if not 0 <= k < len(self):
            raise IndexError(k)
        return self.make(int(self._first(k + 1)[k]))


class _Made(Sequence):
    """Address documents made when read from (address row, kind) pairs; ``json_slice`` writes them from the
    JSON text kept per row (:meth:`World.address_json`)."""

    def __init__(self, items: list[tuple[dict, str]], make, make_json):
        self.items, self.make, self.make_json = items, make, make_json

    def __len__(self) -> int:
        return len(self.items)

    def __getitem__(self, k):
        if isinstance(k, slice):
            return [self.make(*item) for item in self.items[k]]
        return self.make(*self.items[k])

    def page(self, start: int, stop: int) -> "_Page":
        return _Page(self, start, stop)

    def json_slice(self, start: int, stop: int) -> list[bytes]:
        return [self.make_json(*item) for item in self.items[start:stop]]


class _Page(Sequence):
    """A page of a :class:`_Ranked` or :class:`_Made`: its documents (dicts) when read, or :meth:`json`, the
    JSON text of each one as :func:`..web.finite_json` writes it, made from text kept per place or address
    instead of from a new dict."""

    def __init__(self, source, start: int, stop: int):
        self.source, self.start, self.stop = source, start, max(start, min(stop, len(source)))
        self._docs: list[dict] | None = None

    def _made(self) -> list[dict]:
        if self._docs is None:
            self._docs = self.source[self.start:self.stop]
        return self._docs

    def __len__(self) -> int:
        return self.stop - self.start

    def __getitem__(self, k):
        return self._made()[k]

    def json(self) -> list[bytes] | None:
        """The JSON bytes of each document (None when the result has no such maker: read the dicts)."""
        return self.source.json_slice(self.start, self.stop)


class _Numbered(list):
    """The addresses of one main number (a list, in order) and, by sub-number, the same rows in the same order
    (``by_sub``; ``""``: no sub-number) and those that have one (``with_sub``)."""

    def __init__(self, rows: list[dict], sub_key: str):
        super().__init__(rows)
        self.by_sub: dict[str, list[dict]] = {}
        for a in rows:
            self.by_sub.setdefault(a[sub_key], []).append(a)
        self.with_sub = [a for a in rows if a[sub_key] != ""]
        self.found: dict[tuple, list] = {}     # what a query finds in this number alone (Model._found); bounded
                                               # by the data: (sub-number of this number, exact, kind) only


class World:
    """The loaded data and its indexes (read-only)."""

    def __init__(self, root):
        from shapely import STRtree
        from shapely.geometry import shape

        self.bbox = json.loads((root / "summary.json").read_text("utf-8"))["bbox_city"]
        # ---------------------------------------------------------------- legal regions and polygons
        gj = json.loads((root / "regions_b.geojson").read_text("utf-8"))
        self.regions = {}        # code -> props (+ x, y centre)
        self.polys = {"emd": [], "ri": []}
        for feat in gj["features"]:
            props = dict(feat["properties"])
            geom = shape(feat["geometry"])
            pt = geom.representative_point()
            props["x"], props["y"] = round(pt.x, 7), round(pt.y, 7)
            self.regions[props["code"]] = props
            if props["level"] in self.polys:
                self.polys[props["level"]].append((geom, props["code"]))
        self.trees = {lvl: STRtree([g for g, _ in items]) for lvl, items in self.polys.items()}
        # names → codes
        self.sigungu_by_name = defaultdict(list)
        self.emd_by_name = defaultdict(list)
        self.ri_by_name = defaultdict(list)
        index = {"sigungu": self.sigungu_by_name, "emd": self.emd_by_name, "ri": self.ri_by_name}
        for code, p in sorted(self.regions.items()):
            if p["level"] in index:
                index[p["level"]][p["name"]].append(code)
        # ---------------------------------------------------------------- administrative regions
        self.h_names = {r["code"]: r for r in _read_csv(root / "codes_hdong.csv") if not r["abolished"]}
        self.h_of_b = defaultdict(list)
        for r in _read_csv(root / "hdong_bdong.csv"):
            if not r["abolished"] and r["h_code"] in self.h_names:
                self.h_of_b[r["b_code"]].append(r["h_code"])
        for v in self.h_of_b.values():
            v.sort()
        self.h_by_name = defaultdict(list)
        for code, r in sorted(self.h_names.items()):
            if r["emd"]:
                self.h_by_name[r["emd"]].append(code)
                short = r["emd"].replace("제", "") if re.search(r"제\d+동$", r["emd"]) else None
                if short:
                    self.h_by_name[short].append(code)
        self.b_of_h = defaultdict(list)      # administrative dong -> its legal dongs (codes of regions)
        for b, hs in sorted(self.h_of_b.items()):
            for h in hs:
                if b in self.regions:
                    self.b_of_h[h].append(b)
        self._root = root
        self._lock = threading.RLock()

    def is_name(self, word: str) -> bool:
        """Is ``word`` a district, legal or administrative dong, 읍/면, 리 or road name of the world? (How the
        address search splits words written without spaces: :func:`toolkit.addresstext.read`.)"""
        return (word in self.sigungu_by_name or word in self.emd_by_name or word in self.ri_by_name
                or word in self.h_by_name or word in self.road_names)

    # ------------------------------------------------------------------ lazy parts
    # Addresses and places are read on first use, each on its own: a region look-up does not wait for the
    # 150,000 places, a keyword search does not wait for the address indexes.
    _ADDRESS_PARTS = ("addresses", "lots", "roads", "road_names", "h_centre", "address_arrays", "grid")

    def __getattr__(self, name):
        if name in World._ADDRESS_PARTS:
            self._load_addresses()
        elif name == "places":
            self._load_places()
        else:
            raise AttributeError(name)
        return self.__dict__[name]

    def _load_addresses(self) -> None:
        with self._lock:
            if "grid" in self.__dict__:
                return
            addresses = _read_csv(self._root / "addresses.csv.gz", gz=True)
            lots = defaultdict(list)     # b_code -> addresses
            roads = defaultdict(list)    # (sigungu, road_name) -> addresses
            grid = defaultdict(list)     # cells of 0.002° -> addresses, for nearest look-ups
            cells = defaultdict(list)    # the same cells -> positions in addresses
            h_pts = defaultdict(list)
            for i, a in enumerate(addresses):
                a["_x"], a["_y"] = float(a["x"]), float(a["y"])
                lots[a["b_code"]].append(a)
                roads[(a["region_2depth_name"], a["road_name"])].append(a)
                h_pts[a["h_code"]].append((a["_x"], a["_y"]))
                cell = (int(a["_x"] / 0.002), int(a["_y"] / 0.002))
                grid[cell].append(a)
                cells[cell].append(i)
            road_names = defaultdict(list)
            for key in sorted(roads):
                road_names[key[1]].append(key)
            h_centre = {h: (sum(p[0] for p in pts) / len(pts), sum(p[1] for p in pts) / len(pts))
                        for h, pts in h_pts.items()}

            arrays = {"x": np.array([a["_x"] for a in addresses]), "y": np.array([a["_y"] for a in addresses]),
                      "b_code": np.array([a["b_code"] for a in addresses]),
                      "b_int": np.array([int(a["b_code"]) if _CODE.match(a["b_code"]) else -1 for a in addresses],
                                        dtype=np.int64),
                      "cells": {c: np.array(v, dtype=np.int32) for c, v in cells.items()}, "near": {}}
            # published last ("grid" marks the part as loaded)
            self.__dict__.update(addresses=addresses, lots=lots, roads=roads, road_names=road_names,
                                 h_centre=h_centre, address_arrays=arrays, grid=grid)
            _freeze()

    def _load_places(self) -> None:
        """Places as columns (``self.places``: column name → list; row ``i`` is one place); documents are made
        only for the rows a search returns. Search texts are normalised in one pass over one string."""
        with self._lock:
            if "places" in self.__dict__:
                return
            # stores and landmarks as columns in id order, built at dataset-build time (the only copy)
            # orjson: the same values as json.loads (0.32 against 0.38 s for this file)
            data = orjson.loads(gzip.decompress((self._root / "places_index.json.gz").read_bytes()))
            cols = dict(zip(data["columns"], data["data"]))
            size = data["rows"]
            cols["_x"] = list(map(float, cols["x"]))
            cols["_y"] = list(map(float, cols["y"]))
            cols["_name"] = _norm("\n".join(cols["place_name"])).split("\n")
            texts = _norm("\n".join(map("|".join, zip(cols["category_name"], cols["category_group_name"]))))
            cols["_text"] = [n + "|" + t for n, t in zip(cols["_name"], texts.split("\n"))]
            self.size = size
            self.places = cols
            _freeze()

    @property
    def place_index(self):
        """The keyword index of the places (:class:`.placeindex.PlaceIndex`), built on first use (~0.2 s)."""
        found = self.__dict__.get("_place_index")
        if found is not None:
            return found
        with self._lock:
            if "_place_index" not in self.__dict__:
                self.__dict__["_place_index"] = PlaceIndex(self.places["_text"], self.places["_name"])
            return self.__dict__["_place_index"]

    @property
    def place_arrays(self) -> dict:
        """The columns the place filters and orders read, as arrays: x, y, b_code, h_code, category group and
        each row's rank in id order."""
        found = self.__dict__.get("_place_arrays")
        if found is not None:
            return found
        with self._lock:
            if "_place_arrays" not in self.__dict__:
                P = self.places
                ids = P["id"]
                id_rank = np.empty(self.size, dtype=np.int64)
                id_rank[sorted(range(self.size), key=ids.__getitem__)] = np.arange(self.size)
                x, y = np.asarray(P["_x"], dtype=np.float64), np.asarray(P["_y"], dtype=np.float64)
                arrays = {"x": x, "y": y, "b_code": np.asarray(P["b_code"], dtype=str),
                          "h_code": np.asarray(P["h_code"], dtype=str),
                          "group": np.asarray(P["category_group_code"], dtype=str), "id_rank": id_rank,
                          # every place lies in this box (NaN: never): a rect holding it filters nothing
                          "box": (float(x.min()), float(x.max()), float(y.min()), float(y.max())) if x.size
                          else (math.nan,) * 4}
                for col in ("b_code", "h_code"):
                    # codes as numbers (ten ASCII digits each, "" as -1): a prefix is a range of numbers
                    codes = P[col]
                    if all(c == "" or _CODE.match(c) for c in codes):
                        arrays[col + "_int"] = np.array([int(c) if c else -1 for c in codes], dtype=np.int64)
                self.__dict__["_place_arrays"] = arrays
            return self.__dict__["_place_arrays"]

    def place_doc(self, i: int) -> dict:
        """A new document of place row ``i`` (without ``distance``), copied from the one kept for the places
        shown last (at most ``PLACE_DOCS_KEPT``)."""
        docs = self.__dict__.get("_place_docs")
        if docs is None:
            docs = self.__dict__.setdefault("_place_docs", {})
        doc = docs.get(i)
        if doc is None:
            P = self.places
            doc = {k: P[k][i] for k in PLACE_FIELDS}
            doc["place_url"] = PLACE_URL + P["id"][i]
            if len(docs) >= PLACE_DOCS_KEPT:
                docs.clear()
            docs[i] = doc
        return doc.copy()

    @property
    def place_json_kept(self) -> dict[int, bytes]:
        """The JSON bytes of the places shown last, by row (read it; :meth:`place_json` fills it)."""
        kept = self.__dict__.get("_place_json")
        if kept is None:
            kept = self.__dict__.setdefault("_place_json", {})
        return kept

    def place_json(self, i: int) -> bytes:
        """The JSON bytes of :meth:`place_doc` ``(i)`` (``finite_json``), kept for the places shown last."""
        kept = self.place_json_kept
        raw = kept.get(i)
        if raw is None:
            from ..web import finite_json

            raw = _trimmed(finite_json(self.place_doc(i)))
            if len(kept) >= PLACE_DOCS_KEPT:
                kept.clear()
            kept[i] = raw
        return raw

    def address_json(self, a: dict, kind: str, make) -> bytes:
        """The JSON bytes of ``make(a, kind)``, the document of address row ``a`` as ``kind`` (ROAD_ADDR or
        REGION_ADDR), kept for the addresses shown last (rows are the world's own: their identity names them)."""
        kept = self.__dict__.get("_address_json")
        if kept is None:
            kept = self.__dict__.setdefault("_address_json", {})
        key = (id(a), kind)
        raw = kept.get(key)
        if raw is None:
            from ..web import finite_json

            raw = _trimmed(finite_json(make(a, kind)))
            if len(kept) >= PLACE_DOCS_KEPT:
                kept.clear()
            kept[key] = raw
        return raw

    def ranked_rows(self, needles: tuple[str, ...], prefix: str | None = None):
        """The rows whose search text holds every needle in accuracy order (name equal to the joined needles,
        starts with it, holds it, category only; then id) and each one's rank (0-3), read-only and kept for
        the keywords searched last: the filters of a search keep this order, so its first page is a slice.
        ``prefix``: only the rows of a region, its legal code prefix (``"H"`` and the prefix: administrative)."""
        kept = self.__dict__.get("_ranked")
        if kept is None:
            with self._lock:
                kept = self.__dict__.setdefault("_ranked", Kept(self._rank_rows))
        return kept.get((needles, prefix or None))

    def _rank_rows(self, key: tuple[tuple[str, ...], str | None]):
        needles, prefix = key
        if prefix:
            rows, rank = self.ranked_rows(needles)
            keep = self.code_prefix_mask(rows, "h_code" if prefix.startswith("H") else "b_code", prefix.lstrip("H"))
            return rows[keep], rank[keep]
        index = self.place_index
        rows = index.rows_with(list(needles))
        rank = index.name_rank(rows, "".join(needles))
        order = np.lexsort((self.place_arrays["id_rank"][rows], rank))
        return rows[order], rank[order]

    def code_prefix_mask(self, rows, column: str, prefix: str):
        """Per row of ``rows``: does its ``column`` (b_code or h_code) start with ``prefix``?"""
        A = self.place_arrays
        codes = A.get(column + "_int")
        if codes is None or not (0 < len(prefix) <= 10 and prefix.isascii() and prefix.isdigit()):
            return np.char.startswith(A[column][rows], prefix)
        scale = 10 ** (10 - len(prefix))
        got = codes[rows]
        return (got >= int(prefix) * scale) & (got < (int(prefix) + 1) * scale)

    def category_rows(self, group: str):
        """Ascending row numbers of one category group's places (kept per group: the 18 codes the route accepts)."""
        cache = self.__dict__.setdefault("_category_rows", {})
        if group not in cache:
            cache[group] = np.flatnonzero(self.place_arrays["group"] == group)
        return cache[group]

    # ------------------------------------------------------------------ geometry
    def by_main(self, kind: str, key) -> dict:
        """The addresses of one road (``kind`` "road", ``key`` (district, road name)) by main building number,
        or of one legal region (``kind`` "lot", ``key`` its code) by (mountain, main lot number); each list in
        the order of :attr:`roads` / :attr:`lots`, with its rows by sub-number (:class:`_Numbered`). Made on
        first use of each road or region and kept: bounded by the data (one entry per road and legal region that
        has addresses, 6,027 and 248: ~7 kB per road measured, ~45 MB once every one was searched)."""
        cache = self.__dict__.setdefault("_by_main", {})
        found = cache.get((kind, key))
        if found is None:
            found = defaultdict(list)
            if kind == "road":
                for a in self.roads.get(key, ()):
                    found[a["main_building_no"]].append(a)
            else:
                for a in self.lots.get(key, ()):
                    found[(a["mountain_yn"], a["main_address_no"])].append(a)
            sub = "sub_building_no" if kind == "road" else "sub_address_no"
            cache[(kind, key)] = found = {k: _Numbered(v, sub) for k, v in found.items()}
        return found

    def in_city_bbox(self, x, y) -> bool:
        return self.bbox[0] <= x <= self.bbox[2] and self.bbox[1] <= y <= self.bbox[3]

    def b_region(self, x: float, y: float) -> str | None:
        from shapely.geometry import Point

        pt = Point(x, y)
        for lvl in ("ri", "emd"):
            for i in self.trees[lvl].query(pt, predicate="intersects"):
                return self.polys[lvl][int(i)][1]
        best, best_d = None, NEAR_REGION_M
        for lvl in ("ri", "emd"):
            for i in self.trees[lvl].query(pt.buffer(0.0005)):
                geom, code = self.polys[lvl][int(i)]
                from shapely.ops import nearest_points

                q = nearest_points(geom, pt)[0]
                d = haversine(x, y, q.x, q.y)
                if d <= best_d:
                    best, best_d = code, d
            if best:
                return best
        return None

    def nearest_address(self, x: float, y: float, max_m: float, b_code: str | None = None):
        """The nearest address closer than ``max_m`` metres (of legal region ``b_code`` when given); equal
        distances: the smaller ``address_name``. The grid cells around the point give the candidates, their
        distances are computed as arrays, and the few within a micrometre of the nearest are compared by the
        exact rule (:func:`haversine`, in grid order), so the answer is that of a loop over the candidates."""
        A = self.address_arrays
        idx = self._candidates(int(x / 0.002), int(y / 0.002), max(1, int(max_m / 150) + 1), b_code)
        if not idx.size:
            return None
        d = haversine_many(x, y, A["x"][idx], A["y"][idx])
        near = float(d.min())
        if near >= max_m + 1e-6:
            return None
        best, best_d = None, max_m
        for i in idx[d <= near + 1e-6].tolist():       # in grid order, as the loop over every candidate
            a = self.addresses[i]
            dd = haversine(x, y, a["_x"], a["_y"])
            if dd < best_d or (dd == best_d and best is not None and a["address_name"] < best["address_name"]):
                best, best_d = a, dd
        return best

    def _candidates(self, cx: int, cy: int, reach: int, b_code: str | None = None):
        """Positions in :attr:`addresses` of the addresses in the grid cells within ``reach`` cells of (cx, cy),
        in grid order (of legal region ``b_code`` when given)."""
        A = self.address_arrays
        near = A["near"]                # (cell, reach) -> the candidates of its neighbourhood, in grid order
        idx = near.get((cx, cy, reach))
        if idx is None:
            parts = [A["cells"][c] for i in range(cx - reach, cx + reach + 1)
                     for j in range(cy - reach, cy + reach + 1) if (c := (i, j)) in A["cells"]]
            idx = np.concatenate(parts) if parts else _NO_CANDIDATES
            if len(near) >= NEAR_KEPT:
                near.clear()
            near[(cx, cy, reach)] = idx
        if b_code and idx.size:
            if _CODE.match(b_code):     # ten ASCII digits: compared as numbers (the same codes, one to one)
                idx = idx[A["b_int"][idx] == int(b_code)]
            else:
                idx = idx[A["b_code"][idx] == b_code]
        return idx

    def region_codes(self, x: float, y: float) -> tuple[str | None, str | None]:
        """(:meth:`b_region`, :meth:`h_region`) of a point: the same codes, read from its cell of
        ``REGION_CELLS[0]`` degrees when one answer holds for every point of the cell (kept per cell, computed
        on the cell's first use by :meth:`_cell_codes`), else from its finer cell (``REGION_CELLS[1]``), else
        computed for the point."""
        cache = self.__dict__.setdefault("_region_cells", {})
        for size in REGION_CELLS:
            key = (int(x / size), int(y / size), int(x / 0.002), int(y / 0.002), size)
            found = cache.get(key)
            if found is None:
                found = self._cell_codes(*key)
                if len(cache) >= REGION_CELLS_KEPT:
                    cache.clear()
                cache[key] = found
            if found:
                return found
        b = self.b_region(x, y)
        return b, (None if b is None else self.h_region(b, x, y))

    def _cell_codes(self, fx: int, fy: int, cx: int, cy: int, size: float | None = None):
        """(B, H) when every point of the cell (fx, fy) of ``size`` degrees (of grid cell (cx, cy) of
        0.002°) has them, else ``()``. B: the cell lies inside one polygon's interior and touches no other of
        its level (the 리 level first, as :meth:`b_region`). H (:meth:`h_region`): every address of B that
        :meth:`nearest_address` may read is more than 200 m (+1 m) from the cell, or one of them is less than
        200 m (-1 m) from all of the cell and every address of another administrative dong is farther (by
        1 m) from all of the cell than it is. Distances to the cell: the clamped point (nearest), the corners
        (farthest); the 1 m margins hold their error (under a millimetre for cells of tens of metres)."""
        from shapely.geometry import box

        size = size or REGION_CELLS[0]
        eps = 1e-7                      # the points whose cell is (fx, fy), division rounding included
        x1, y1 = fx * size - eps, fy * size - eps
        x2, y2 = (fx + 1) * size + eps, (fy + 1) * size + eps
        cell = box(x1, y1, x2, y2)
        b = None
        for lvl in ("ri", "emd"):
            hits = self.trees[lvl].query(cell, predicate="intersects")
            if len(hits) > 1:
                return ()
            if len(hits) == 1:
                geom, b = self.polys[lvl][int(hits[0])]
                if not geom.contains_properly(cell):
                    return ()
                break
        if b is None:
            return ()
        hs = self.h_of_b.get(b) or self.h_of_b.get(b[:8] + "00")
        fallback = hs[0] if hs else None
        idx = self._candidates(cx, cy, max(1, int(H_FROM_ADDRESS_M / 150) + 1), b)
        if not idx.size:
            return (b, fallback)
        A = self.address_arrays
        kx, ky = A["x"][idx], A["y"][idx]
        near = _haversine_pairs(kx, ky, np.clip(kx, x1, x2), np.clip(ky, y1, y2))
        close = near <= H_FROM_ADDRESS_M + 1.0     # the others are farther than 200 m from all of the cell
        if not close.any():
            return (b, fallback)
        idx, kx, ky, near = idx[close], kx[close], ky[close], near[close]
        far = np.maximum.reduce([_haversine_pairs(kx, ky, cxx, cyy) for cxx in (x1, x2) for cyy in (y1, y2)])
        j = int(far.argmin())
        if not far[j] < H_FROM_ADDRESS_M - 1.0:
            return ()
        h_codes = A.get("h_code")
        if h_codes is None:
            h_codes = A["h_code"] = np.array([a["h_code"] for a in self.addresses])
        other = h_codes[idx] != h_codes[idx[j]]
        if bool((near[other] > far[j] + 1.0).all()):
            return (b, self.addresses[int(idx[j])]["h_code"])
        return ()

    def h_region(self, b_code: str, x: float, y: float) -> str | None:
        near = self.nearest_address(x, y, H_FROM_ADDRESS_M, b_code)
        if near is not None:
            return near["h_code"]
        hs = self.h_of_b.get(b_code) or self.h_of_b.get(b_code[:8] + "00")
        return hs[0] if hs else None

    # ------------------------------------------------------------------ region names
    def full_name(self, code: str) -> str:
        p = self.regions[code]
        return " ".join(n for n in (p["region_1depth_name"], p["region_2depth_name"], p["region_3depth_name"],
                                    p["region_4depth_name"]) if n)

    def h_full_name(self, h_code: str) -> str:
        r = self.h_names[h_code]
        return " ".join(n for n in (r["sido"], r["sigungu"], r["emd"]) if n)


class RequestLog:
    """(time.monotonic(), endpoint) of the local requests received, oldest first, as two arrays: 10 bytes a
    request (a list of tuples held ~88, ~18 MB per sandbox when full: a class sandbox keeps one per world). At
    most :data:`REQUEST_LOG_MAX` requests; the oldest half is dropped when full.

    >>> log = RequestLog(); log.append(1.5, "local_search_address"); log.append(2.0, "local_search_keyword")
    >>> list(log), len(log)
    ([(1.5, 'local_search_address'), (2.0, 'local_search_keyword')], 2)
    """

    def __init__(self):
        self._names: list[str] = []           # endpoint ids, in the order first seen (API ids: a few)
        self._ids: dict[str, int] = {}
        self.clear()

    def clear(self) -> None:
        self._times, self._kinds = array("d"), array("H")

    def append(self, t: float, endpoint: str) -> None:
        kind = self._ids.get(endpoint)
        if kind is None:
            kind = self._ids[endpoint] = len(self._names)
            self._names.append(endpoint)
        self._times.append(t)
        self._kinds.append(kind)
        if len(self._times) > REQUEST_LOG_MAX:
            del self._times[:REQUEST_LOG_MAX // 2]
            del self._kinds[:REQUEST_LOG_MAX // 2]

    def __len__(self) -> int:
        return len(self._times)

    def __iter__(self):
        names = self._names
        return iter([(t, names[k]) for t, k in zip(self._times, self._kinds)])


class Model:
    def __init__(self, sandbox):
        self.sandbox = sandbox
        self._world: World | None = None
        self.requests = RequestLog()                    # every local request (the control API's counts and rates)
        self._regions_read: dict[tuple, tuple] = {}     # see _parse_regions
        self._recognised: dict[str, tuple] = {}         # see _recognise

    # ================================================================== request log (control API)
    def record(self, endpoint: str) -> None:
        """Remember one request (kept for the control API: rates and counts; at most :data:`REQUEST_LOG_MAX`)."""
        self.requests.append(_monotonic(), endpoint)

    def request_stats(self, endpoint: str | None = None, with_times: bool = False) -> dict:
        rows = [r for r in self.requests if endpoint is None or r[1] == endpoint]
        counts: dict[str, int] = {}
        for _, name in rows:
            counts[name] = counts.get(name, 0) + 1
        out = {"total": len(rows), "counts": dict(sorted(counts.items()))}
        if with_times:
            t0 = rows[0][0] if rows else 0.0
            out["times"] = [round(t - t0, 6) for t, _ in rows]
        return out

    def regions_geojson(self, level: str | None = None) -> dict:
        """The legal-region polygons of the world (``level``: sido, sigungu, emd or ri; all when None)."""
        root = self.sandbox.datasets / "local"
        gj = json.loads((root / "regions_b.geojson").read_text("utf-8"))
        feats = [f for f in gj["features"] if level is None or f["properties"]["level"] == level]
        return {"type": "FeatureCollection", "features": feats}

    def world_info(self) -> dict:
        """The city of the world and its bounds (WGS84 ``[left, bottom, right, top]``), from the world's summary
        (a small file: the world itself is not loaded); ``/sandbox/config`` tells it to clients."""
        if getattr(self, "_world_info", None) is None:
            summary = json.loads((self.sandbox.datasets / "local" / "summary.json").read_text("utf-8"))
            self._world_info = {"city": CITY_EN.get(summary.get("city"), summary.get("city")),
                                "city_ko": summary.get("city"), "bounds": summary["bbox_city"]}
        return self._world_info

    def world(self) -> World:
        """The address/place world, loaded once per process (about 1.5 s) and shared by every sandbox — it is
        read-only, so a reset sandbox (``connect(fresh=True)``) does not load it again."""
        if self._world is None:
            root = self.sandbox.datasets / "local"
            with _WORLDS_LOCK:
                if root not in _WORLDS:
                    _WORLDS[root] = World(root)
                self._world = _WORLDS[root]
        return self._world

    # ================================================================== address search
    def _parse_regions(self, words: list[str]):
        """Consume leading region words; return (candidate legal codes or None, level, the other words). The
        answer for the first four words (the most it reads) is kept: the codes are shared, read them only."""
        key = tuple(words[:4])
        kept = self._regions_read.get(key)
        if kept is None:
            kept = self._read_regions(list(key))
            if sum(map(len, key)) <= KEPT_TEXT_MAX:        # region names are short: long text is not kept
                if len(self._regions_read) >= REGION_WORDS_KEPT:
                    self._regions_read.clear()
                self._regions_read[key] = kept
        codes, level, used = kept
        return codes, level, words[used:]

    def _read_regions(self, words: list[str]):
        w = self.world()
        i, codes, level = 0, None, None
        if i < len(words) and words[i] in SIDO_ALIASES:
            codes, level, i = ["2600000000"], "sido", i + 1
        if i < len(words) and words[i] in w.sigungu_by_name:
            codes, level, i = list(w.sigungu_by_name[words[i]]), "sigungu", i + 1
        if i < len(words) and words[i] in w.emd_by_name:
            cand = [c for c in w.emd_by_name[words[i]] if codes is None or level == "sido"
                    or any(c.startswith(k[:5]) for k in codes)]
            if cand:
                codes, level, i = cand, "emd", i + 1
        if i < len(words) and level not in ("emd", "ri") and words[i] not in w.emd_by_name and \
                words[i] in w.h_by_name:
            # an administrative dong (전포1동, 전포제1동): the legal dongs it lies in
            cand = sorted({b for h in w.h_by_name[words[i]] for b in w.b_of_h.get(h, ())
                           if codes is None or level == "sido" or any(b.startswith(k[:5]) for k in codes)})
            if cand:
                codes, level, i = cand, "emd", i + 1
        if i < len(words) and words[i] in w.ri_by_name:
            # a 리 after its 읍/면, or straight after the district or city (the 읍/면 left out)
            width = 8 if level == "emd" else 5 if level == "sigungu" else 0
            cand = [c for c in w.ri_by_name[words[i]] if codes is None or level == "sido"
                    or any(c.startswith(k[:width]) for k in codes)]
            if cand:
                codes, level, i = cand, "ri", i + 1
        return codes, level, i

    @staticmethod
    def _third(a: dict) -> str:
        """region_3depth_name of a land-lot address object: the legal dong, or "읍/면 리" in a county."""
        return " ".join(n for n in (a["region_3depth_name"], a["region_4depth_name"]) if n)

    def _address_part(self, a: dict) -> dict:
        out = {k: a[k] for k in ("address_name", "region_1depth_name", "region_2depth_name", "region_3depth_name",
                                 "region_4depth_name", "region_3depth_h_name", "h_code", "b_code", "mountain_yn",
                                 "main_address_no", "sub_address_no", "x", "y")}
        out["region_3depth_name"] = self._third(a)
        return out

    def _road_part(self, a: dict) -> dict:
        return {"address_name": a["road_address_name"], "region_1depth_name": a["region_1depth_name"],
                "region_2depth_name": a["region_2depth_name"], "region_3depth_name": a["region_3depth_name"],
                "region_4depth_name": "", "road_name": a["road_name"], "underground_yn": a["underground_yn"],
                "main_building_no": a["main_building_no"], "sub_building_no": a["sub_building_no"],
                "building_name": a["building_name"], "zone_no": a["zone_no"], "x": a["x"], "y": a["y"]}

    def _addr_doc(self, a: dict, kind: str) -> dict:
        name = a["address_name"] if kind == "REGION_ADDR" else a["road_address_name"]
        return {"address_name": name, "address_type": kind, "x": a["x"], "y": a["y"],
                "address": self._address_part(a), "road_address": self._road_part(a)}

    def _region_doc(self, code: str) -> dict:
        w = self.world()
        p = w.regions[code]
        name = w.full_name(code)
        x, y = _fmt(p["x"]), _fmt(p["y"])
        third = " ".join(n for n in (p["region_3depth_name"], p["region_4depth_name"]) if n)
        address = {"address_name": name, "region_1depth_name": p["region_1depth_name"],
                   "region_2depth_name": p["region_2depth_name"], "region_3depth_name": third,
                   "region_4depth_name": p["region_4depth_name"], "region_3depth_h_name": "", "h_code": "",
                   "b_code": code, "mountain_yn": "N",
                   "main_address_no": "", "sub_address_no": "", "x": x, "y": y}
        return {"address_name": name, "address_type": "REGION", "x": x, "y": y, "address": address,
                "road_address": None}

    def _road_doc(self, key) -> dict:
        rows = self.world().roads[key]
        a = rows[0]
        x, y = _fmt(median(r["_x"] for r in rows)), _fmt(median(r["_y"] for r in rows))
        name = f"{a['region_1depth_name']} {key[0]} {key[1]}"
        road = {"address_name": name, "region_1depth_name": a["region_1depth_name"], "region_2depth_name": key[0],
                "region_3depth_name": "", "region_4depth_name": "", "road_name": key[1], "underground_yn": "N", "main_building_no": "",
                "sub_building_no": "", "building_name": "", "zone_no": "", "x": x, "y": y}
        return {"address_name": name, "address_type": "ROAD", "x": x, "y": y, "address": None,
                "road_address": road}

    @staticmethod
    def _num_match(groups: list[_Numbered], sub: str | None, exact: bool) -> list[dict]:
        """The addresses of one main number (``groups``: one per road or region, in order) that a query with
        ``sub`` (None: none written) finds: that sub-number (none: the ones without); without ``exact``,
        then the ones with a sub-number when none was written, or every one when the one written is not there."""
        hit = [r for g in groups for r in g.by_sub.get(sub or "", ())]
        if exact:
            return hit
        if sub is None:
            return hit + [r for g in groups for r in g.with_sub]
        return hit or [r for g in groups for r in g]

    def _found(self, groups: list[_Numbered], sub: str | None, exact: bool, name: str, kind: str) -> list:
        """(row, ``kind``) of what :meth:`_num_match` finds, one per distinct ``name``, in order; kept on the
        number's group when there is one group and the sub-number is one of its own (the read-only rows of one
        number answer the same every time)."""
        if len(groups) == 1:
            found = groups[0].found.get((sub, exact, kind))
            if found is not None:
                return found
        seen, out = set(), []
        for a in self._num_match(groups, sub, exact):
            if a[name] not in seen:
                seen.add(a[name])
                out.append((a, kind))
        if len(groups) == 1 and (sub is None or sub in groups[0].by_sub):   # bounded by the data, not the queries
            groups[0].found[(sub, exact, kind)] = out
        return out

    def search_address(self, query: str, analyze_type: str) -> Sequence[dict]:
        w = self.world()
        exact = analyze_type == "exact"
        written = read_address(query, w.is_name)     # 번지, units, postcode, no spaces ... (see the docstring)
        if written.latin or (exact and (written.underground or not written.detail_is_unit)):
            return []
        words = list(written.words)
        if written.number is not None:
            is_mountain, main, sub = written.number
            words.append(("산" if is_mountain == "Y" else "") + main + (f"-{sub}" if sub else ""))
        codes, level, rest = self._parse_regions(words)
        in_codes = (lambda c: codes is None or level == "sido" or any(
            c.startswith(k[:{"sigungu": 5, "emd": 8, "ri": 10}[level]]) for k in codes))
        # ---------------------------------------------------------------- road addresses
        if rest and rest[0] in w.road_names:
            districts = {w.regions[c]["name"] for c in codes} if level == "sigungu" else ()
            keys = [k for k in w.road_names[rest[0]]
                    if codes is None or level in ("sido", "emd", "ri") or (level == "sigungu" and k[0] in districts)]
            if level in ("emd", "ri"):
                keys = [k for k in keys if any(in_codes(a["b_code"]) for a in w.roads[k])]
            tail = rest[1:]
            if not tail:
                return [self._road_doc(k) for k in keys]
            m = _NUM.match(tail[0])
            if not m or m.group(1) or (exact and len(tail) > 1):
                return []
            groups = [g for k in keys if (g := w.by_main("road", k).get(m.group(2)))]    # only N-* can match
            return self._made(self._found(groups, m.group(3), exact, "road_address_name", "ROAD_ADDR"))
        if codes is None:
            return []
        # ---------------------------------------------------------------- land-lot addresses
        if not rest:
            return [self._region_doc(c) for c in codes]
        mountain: str | None = None
        if rest[0] == "산" and len(rest) > 1:
            mountain, rest = "Y", rest[1:]
        m = _NUM.match(rest[0])
        if m and level in ("emd", "ri"):
            if m.group(1):
                mountain = "Y"
            if exact and len(rest) > 1:
                return []
            number = (mountain or "N", m.group(2))
            groups = [g for c in codes if (g := w.by_main("lot", c).get(number))]
            return self._made(self._found(groups, m.group(3), exact, "address_name", "REGION_ADDR"))
        if exact:
            return []
        # similar: the leftover words are a building name
        needle = _norm("".join(rest))
        rows = [a for a in w.addresses if a["building_name"] and needle in _norm(a["building_name"])
                and in_codes(a["b_code"])]
        rows.sort(key=lambda a: (_norm(a["building_name"]) != needle, a["b_code"], a["road_address_name"]))
        return self._made([(a, "ROAD_ADDR") for a in rows])

    def _made(self, items: list[tuple[dict, str]]) -> _Made:
        address_json, make = self.world().address_json, self._addr_doc
        return _Made(items, make, lambda a, kind: address_json(a, kind, make))

    # ================================================================== coordinates
    def regions_at(self, x: float, y: float, output_coord: str) -> list[dict]:
        w = self.world()
        if not w.in_city_bbox(x, y):
            return []
        b, h = w.region_codes(x, y)

        def out(px, py):
            ox, oy = transform(px, py, "WGS84", output_coord)
            return ox, oy

        if b is None:
            ox, oy = out(x, y)
            return [{"region_type": t, "address_name": "", "code": "", "x": ox, "y": oy} for t in ("B", "H")]
        # (B, H, output_coord) -> the documents, copied; bounded by the data (271 legal regions, each with its few
        # administrative ones, x 5 systems: a few thousand at most, ~1.3 kB each) and emptied at 20,000
        kept = w.__dict__.setdefault("_region_docs", {})
        found = kept.get((b, h, output_coord))
        if found is None:
            found = self._region_docs(b, h, out)
            if len(kept) >= 20_000:
                kept.clear()
            kept[(b, h, output_coord)] = found
        return [d.copy() for d in found]

    def _region_docs(self, b: str, h: str | None, out) -> list[dict]:
        w = self.world()
        p = w.regions[b]
        bx, by = out(p["x"], p["y"])
        bdoc = {"region_type": "B", "address_name": w.full_name(b), "region_1depth_name": p["region_1depth_name"],
                "region_2depth_name": p["region_2depth_name"], "region_3depth_name": p["region_3depth_name"]}
        bdoc["region_4depth_name"] = p["region_4depth_name"]
        bdoc.update(code=b, x=bx, y=by)
        docs = [bdoc]
        if h is not None:
            r = w.h_names[h]
            hx, hy = out(*w.h_centre.get(h, (p["x"], p["y"])))
            docs.append({"region_type": "H", "address_name": w.h_full_name(h), "region_1depth_name": r["sido"],
                         "region_2depth_name": r["sigungu"], "region_3depth_name": r["emd"],
                         "region_4depth_name": "", "code": h,
                         "x": hx, "y": hy})
        return docs

    def address_at(self, x: float, y: float) -> list[dict]:
        w = self.world()
        if not w.in_city_bbox(x, y):
            return []
        a = w.nearest_address(x, y, NEAR_ADDRESS_M)
        if a is not None:
            address = {k: a[k] for k in ("address_name", "region_1depth_name", "region_2depth_name",
                                         "region_3depth_name", "region_4depth_name", "mountain_yn",
                                         "main_address_no", "sub_address_no")}
            address["region_3depth_name"] = self._third(a)
            address["zip_code"] = ""
            road = {k: v for k, v in self._road_part(a).items() if k not in ("x", "y")}
            return [{"road_address": road, "address": address}]
        b = w.b_region(x, y)
        if b is None:
            return []
        p = w.regions[b]
        third = " ".join(n for n in (p["region_3depth_name"], p["region_4depth_name"]) if n)
        address = {"address_name": w.full_name(b), "region_1depth_name": p["region_1depth_name"],
                   "region_2depth_name": p["region_2depth_name"], "region_3depth_name": third,
                   "region_4depth_name": p["region_4depth_name"], "mountain_yn": "N",
                   "main_address_no": "", "sub_address_no": "", "zip_code": ""}
        return [{"road_address": None, "address": address}]

    # ================================================================== places
    def _recognise(self, query: str):
        """(region full names, keyword, code prefix of the selected region, the keyword's needles: its words
        normalised), kept for the queries read last (at most :data:`REGION_WORDS_KEPT`; the names are shared,
        read them only)."""
        kept = self._recognised.get(query)
        if kept is None:
            kept = self._read_query(query)
            if len(query) <= KEPT_TEXT_MAX:
                if len(self._recognised) >= REGION_WORDS_KEPT:
                    self._recognised.clear()
                self._recognised[query] = kept
        return kept

    def _read_query(self, query: str):
        w = self.world()
        words = query.split()
        found: list[tuple[str, str]] = []   # (full name, code prefix)

        def regions_of(word):
            out = []
            if word in SIDO_ALIASES:
                out.append(("부산광역시", "26"))
            for c in w.sigungu_by_name.get(word, []):
                out.append((w.full_name(c), c[:5]))
            for c in w.emd_by_name.get(word, []):
                out.append((w.full_name(c), c[:8]))
            for h in w.h_by_name.get(word, []):
                out.append((w.h_full_name(h), "H" + h[:8]))
            return out

        while len(words) > 1 and regions_of(words[0]):
            cand = regions_of(words.pop(0))
            found = cand if not found else [c for c in cand if any(c[1].lstrip("H").startswith(f[1].lstrip("H"))
                                                                   for f in found)] or cand
        while len(words) > 1 and regions_of(words[-1]) and not found:
            found = regions_of(words.pop())
        names = list(dict.fromkeys(n for n, _ in found))
        prefix = found[0][1] if found else None
        keyword = " ".join(words)
        return names, keyword, prefix, tuple(_norm(t) for t in keyword.split())

    def search_places(self, *, query=None, category=None, x=None, y=None, radius=None, rect=None,
                      sort="accuracy") -> tuple[Sequence[dict], dict | None]:
        """Keyword (``query``) or category search. ``distance`` is in a keyword document only when a centre
        was sent (location §4.5 "only when x and y were sent"); a category document always has it, an
        empty string without a centre (§4.6). Every step is an array operation over the matching rows
        (:mod:`.placeindex`); the order is computed for the rows a page can show."""
        w = self.world()
        A = w.place_arrays
        same_name = None
        rows = rank = None
        needles: tuple[str, ...] = ()
        keep = None                                  # the rows the filters keep (a mask), None: all
        if query is not None:
            names, keyword, prefix, needles = self._recognise(query)
            same_name = {"region": list(names), "keyword": keyword, "selected_region": names[0] if names else ""}
            if needles:
                rows, rank = w.ranked_rows(needles, prefix)  # in accuracy order, in the region
            else:
                rows = w.place_index.rows_with([])
                if prefix:
                    keep = w.code_prefix_mask(rows, "h_code" if prefix.startswith("H") else "b_code",
                                              prefix.lstrip("H"))
        if category:
            if rows is None:
                rows = w.category_rows(category)
            else:
                got = A["group"][rows] == category
                keep = got if keep is None else keep & got
        if rows is None:
            rows = np.arange(w.size)
        if rect:
            x1, y1, x2, y2 = rect
            lx, hx, ly, hy = min(x1, x2), max(x1, x2), min(y1, y2), max(y1, y2)
            bx1, bx2, by1, by2 = A["box"]
            if not (lx <= bx1 and bx2 <= hx and ly <= by1 and by2 <= hy):   # else every place is inside
                px, py = A["x"][rows], A["y"][rows]
                got = (lx <= px) & (px <= hx) & (ly <= py) & (py <= hy)
                keep = got if keep is None else keep & got
        if keep is not None:
            rows = rows[keep]
            rank = None if rank is None else rank[keep]
        dist = None
        if x is not None:
            dist = haversine_many(x, y, A["x"][rows], A["y"][rows])
            if radius is not None:
                keep = dist <= radius
                rows, dist = rows[keep], dist[keep]
                rank = None if rank is None else rank[keep]
        if sort == "distance" or (dist is not None and dist.size and not needles):
            keys = [dist, A["id_rank"][rows]]
        elif needles and dist is not None:
            keys = [rank, dist, A["id_rank"][rows]]
        else:
            keys = None                     # row order: accuracy order for a keyword (kept so), else id order
        place_doc = w.place_doc

        def document(j: int) -> dict:            # j: a position in rows
            doc = place_doc(int(rows[j]))
            if dist is not None:
                doc["distance"] = str(int(round(float(dist[j]))))
            elif query is None:
                doc["distance"] = ""
            return doc

        place_json, kept = w.place_json, w.place_json_kept

        def documents_json(at) -> list[bytes]:    # document(j) for j in at, as JSON: "distance" comes last
            raws = [kept.get(i) or place_json(i) for i in rows[at].tolist()]
            if dist is not None:
                return [b"%s,\"distance\":\"%d\"}" % (raw[:-1], round(d)) for raw, d in zip(raws, dist[at].tolist())]
            if query is None:
                return [raw[:-1] + b',"distance":""}' for raw in raws]
            return raws

        return _Ranked(rows, keys, document, documents_json), same_name
