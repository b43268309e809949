"""Driving directions (location §4.8–4.11) as route objects, DataFrames and GeoJSON.

>>> tk = toolkit.connect()                                                     # doctest: +SKIP
>>> r = tk.navi.directions((129.0325, 35.1000, "남포동"), (129.0600, 35.1570, "서면"), alternatives=True)
>>> r.summary          # one row per route: distance, duration, fare.taxi, fare.toll, ...
>>> r.roads            # one row per road with traffic_speed / traffic_state (route, section, road_index)
>>> r.guides           # the turn list
>>> r.geojson()        # FeatureCollection of LineStrings (one per route)
>>> r.map()            # folium map (toolkit.navimaps)
>>> tk.navi.origins([("a", 129.03, 35.10), ...], destination=(129.05, 35.14), radius=10000)   # key, distance, duration
>>> tk.navi.matrix(origins, destinations)   # every origin to every destination, calls in flight together

Points are given as ``(x, y)``, ``(x, y, name)``, ``{"x":, "y":, "name":}`` or the text ``"x,y,name=..."``;
many-origin points as ``(key, x, y)`` or ``{"key":, "x":, "y":}``. Every bound of the spec is checked before
a request (:class:`~toolkit.errors.ParameterError`). The POST route computations are sent with
``idempotent=True``: they change nothing on the server, so they are retried safely.
"""
from __future__ import annotations

from datetime import datetime, timedelta, timezone
from typing import Any, Iterable

from .area import Area, Call, endpoint
from .coords import lonlat
from .errors import ParameterError, QuotaStopWarning, suggest
from .mapassets import tiles_for
from .navicodes import GUIDE_TYPES, RESULT_CODES_EN, TRAFFIC_STATES, result_en

__all__ = ["NaviArea", "Directions", "AVOID", "PRIORITY", "TRAFFIC_STATES", "GUIDE_TYPES", "RESULT_CODES_EN"]

AVOID = ("roadevent", "ferries", "toll", "motorway", "schoolzone")
PRIORITY = ("RECOMMEND", "TIME", "DISTANCE")
FUELS = ("GASOLINE", "DIESEL", "LPG")
MAX_WAYPOINTS = 5
MAX_WAYPOINTS_POST = 30
MAX_MANY = 30
MAX_RADIUS = 10000
KST = timezone(timedelta(hours=9))


# ---------------------------------------------------------------------------------------------- parameters
def _point(value: Any, name: str) -> dict:
    if isinstance(value, str):
        parts = value.split(",")
        if len(parts) < 2:
            raise ParameterError(name, "text points are 'x,y' or 'x,y,name=<name>'", value)
        out = {"x": parts[0], "y": parts[1]}
        if len(parts) > 2 and parts[2].startswith("name="):
            out["name"] = ",".join(parts[2:])[5:]
        value = out
    if isinstance(value, dict):
        x, y, label = value.get("x"), value.get("y"), value.get("name")
    elif isinstance(value, (tuple, list)) and len(value) in (2, 3):
        x, y, label = value[0], value[1], (value[2] if len(value) == 3 else None)
    else:
        raise ParameterError(name, "a point is (x, y), (x, y, name), {'x','y','name'} or 'x,y,name=...'", value)
    x, y = lonlat(x, y, x_name=f"{name}.x", y_name=f"{name}.y")
    point: dict[str, float | str] = {"x": x, "y": y}
    if label:
        point["name"] = str(label)
    return point


def _keyed(value: Any, name: str) -> dict:
    if isinstance(value, dict):
        key = value.get("key")
        point = _point({k: v for k, v in value.items() if k != "key"}, name)
    elif isinstance(value, (tuple, list)) and len(value) == 3:
        key, point = value[0], _point(value[1:], name)
    else:
        raise ParameterError(name, "a keyed point is (key, x, y) or {'key', 'x', 'y'}", value)
    if key is None or str(key) == "":
        raise ParameterError(name, "every point needs a key", value)
    point.pop("name", None)
    return {"key": str(key), **point}


def _present(body: dict) -> dict:
    """``body`` without its None fields: an optional field left out of a JSON body rather than sent as null."""
    return {k: v for k, v in body.items() if v is not None}


def _text(p: dict) -> str:
    return f"{p['x']},{p['y']}" + (f",name={p['name']}" if p.get("name") else "")


def _avoid(avoid: str | Iterable[str] | None) -> list[str]:
    if avoid is None:
        return []
    items = [avoid] if isinstance(avoid, str) else list(avoid)
    items = [a.strip() for item in items for a in str(item).split("|") if a.strip()]
    bad = [a for a in items if a not in AVOID]
    if bad:
        raise ParameterError("avoid", f"must be among {', '.join(AVOID)}", bad)
    return items


def _choice(value, name: str, choices) -> str:
    if value is None or str(value).upper() not in choices:
        near = suggest(value, choices) if isinstance(value, str) else None
        mean = f" (did you mean {near!r}?)" if near is not None else ""
        raise ParameterError(name, f"must be one of {', '.join(choices)}{mean}", value)
    return str(value).upper()


def _car(car_type: int, car_fuel: str) -> tuple[int, str]:
    if isinstance(car_type, bool) or not isinstance(car_type, int) or not 1 <= car_type <= 7:
        raise ParameterError("car_type", "must be an integer 1 to 7", car_type)
    return car_type, _choice(car_fuel, "car_fuel", FUELS)


def _waypoints(waypoints, limit: int) -> list[dict]:
    items = list(waypoints or [])
    if len(items) > limit:
        raise ParameterError("waypoints", f"at most {limit} waypoints", len(items))
    return [_point(w, f"waypoints[{i}]") for i, w in enumerate(items)]


def _bool(v: bool) -> str:
    return "true" if v else "false"


def _departure(departure_time) -> str:
    """``departure_time`` as the service's ``yyyyMMddHHmm`` in Korean time: a ``datetime`` (naive = Korean time) or
    that text.

    >>> _departure("202611230830"), _departure(datetime(2026, 11, 23, 8, 30))
    ('202611230830', '202611230830')
    """
    if isinstance(departure_time, datetime):
        dt = departure_time if departure_time.tzinfo else departure_time.replace(tzinfo=KST)
        departure_time = dt.astimezone(KST).strftime("%Y%m%d%H%M")
    departure_time = str(departure_time)
    try:
        datetime.strptime(departure_time, "%Y%m%d%H%M")
    except ValueError:
        raise ParameterError("departure_time", "must be a datetime or 'yyyyMMddHHmm'", departure_time) from None
    return departure_time


# ---------------------------------------------------------------------------------------------- results
class Directions:
    """A directions answer: ``raw`` body plus frames (``summary``, ``sections``, ``roads``, ``guides``).

    ``tiles`` is the base layer of its maps: the sandbox's tiles when the client that asked is bound to the
    sandbox, else OpenStreetMap (see :mod:`toolkit.mapassets`)."""

    def __init__(self, body: dict, *, tiles: str | None = None):
        self.raw = body
        self.tiles = tiles
        self.trans_id = body.get("trans_id")
        self.routes = body.get("routes") or []

    def __len__(self):
        return len(self.routes)

    def __repr__(self):
        parts = [f"#{i}: {r['summary']['distance']} m, {r['summary']['duration']} s" if r.get("result_code") == 0
                 else f"#{i}: result_code {r.get('result_code')} {r.get('result_msg')} "
                      f"({result_en(r.get('result_code'))})" for i, r in enumerate(self.routes)]
        return f"<Directions {len(self.routes)} route(s): {'; '.join(parts)}>"

    @property
    def ok(self) -> bool:
        return bool(self.routes) and all(r.get("result_code") == 0 for r in self.routes)

    @property
    def summary(self):
        """One row per route: route, result_code, result_msg (the service's, in Korean), result_msg_en (its English,
        :data:`~toolkit.navicodes.RESULT_CODES_EN`), priority, distance, duration, fare.taxi, fare.toll,
        origin/destination names and coordinates, waypoint count, bound."""
        from .frames import frame

        rows = []
        for i, r in enumerate(self.routes):
            s = r.get("summary") or {}
            rows.append({"route": i, "result_code": r.get("result_code"), "result_msg": r.get("result_msg"),
                         "result_msg_en": result_en(r.get("result_code")),
                         "priority": s.get("priority"), "distance": s.get("distance"), "duration": s.get("duration"),
                         "fare.taxi": (s.get("fare") or {}).get("taxi"), "fare.toll": (s.get("fare") or {}).get("toll"),
                         "origin.name": (s.get("origin") or {}).get("name"),
                         "origin.x": (s.get("origin") or {}).get("x"), "origin.y": (s.get("origin") or {}).get("y"),
                         "destination.name": (s.get("destination") or {}).get("name"),
                         "destination.x": (s.get("destination") or {}).get("x"),
                         "destination.y": (s.get("destination") or {}).get("y"),
                         "waypoints": len(s.get("waypoints") or []), "sections": len(r.get("sections") or []),
                         **{f"bound.{k}": v for k, v in (s.get("bound") or {}).items()}})
        cols = ["route", "result_code", "result_msg", "result_msg_en", "priority", "distance", "duration", "fare.taxi",
                "fare.toll",
                "origin.name", "origin.x", "origin.y", "destination.name", "destination.x", "destination.y",
                "waypoints", "sections", "bound.min_x", "bound.min_y", "bound.max_x", "bound.max_y"]
        return frame(rows, columns=cols, ints=["route", "result_code", "distance", "duration", "fare.taxi",
                                              "fare.toll", "waypoints", "sections"],
                     floats=["origin.x", "origin.y", "destination.x", "destination.y", "bound.min_x", "bound.min_y",
                             "bound.max_x", "bound.max_y"], meta={"trans_id": self.trans_id})

    @property
    def sections(self):
        """One row per route × section: distance, duration, roads and guides counts."""
        from .frames import frame

        rows = [{"route": i, "section": k, "distance": s.get("distance"), "duration": s.get("duration"),
                 "roads": len(s.get("roads") or []), "guides": len(s.get("guides") or [])}
                for i, r in enumerate(self.routes) for k, s in enumerate(r.get("sections") or [])]
        return frame(rows, columns=["route", "section", "distance", "duration", "roads", "guides"],
                     ints=["route", "section", "distance", "duration", "roads", "guides"],
                     meta={"trans_id": self.trans_id})

    @property
    def roads(self):
        """One row per road: route, section, road_index, name, distance, duration, traffic_speed,
        traffic_state (+ its label ``traffic``), vertex count and the flat ``vertexes``."""
        from .frames import frame

        rows = [{"route": i, "section": k, "road_index": j, "name": rd.get("name"), "distance": rd.get("distance"),
                 "duration": rd.get("duration"), "traffic_speed": rd.get("traffic_speed"),
                 "traffic_state": rd.get("traffic_state"), "traffic": TRAFFIC_STATES.get(rd.get("traffic_state")),
                 "points": len(rd.get("vertexes") or []) // 2, "vertexes": rd.get("vertexes")}
                for i, r in enumerate(self.routes) for k, s in enumerate(r.get("sections") or [])
                for j, rd in enumerate(s.get("roads") or [])]
        return frame(rows, columns=["route", "section", "road_index", "name", "distance", "duration",
                                    "traffic_speed", "traffic_state", "traffic", "points", "vertexes"],
                     ints=["route", "section", "road_index", "distance", "duration", "traffic_state", "points"],
                     floats=["traffic_speed"], objects=["vertexes"], meta={"trans_id": self.trans_id})

    @property
    def guides(self):
        """The turn list: route, section, name, x, y, distance, duration, type, guidance, road_index."""
        from .frames import frame

        rows = [{"route": i, "section": k, **{f: g.get(f) for f in ("name", "x", "y", "distance", "duration",
                                                                     "type", "guidance", "road_index")}}
                for i, r in enumerate(self.routes) for k, s in enumerate(r.get("sections") or [])
                for g in s.get("guides") or []]
        return frame(rows, columns=["route", "section", "name", "x", "y", "distance", "duration", "type",
                                    "guidance", "road_index"],
                     ints=["route", "section", "distance", "duration", "type", "road_index"], floats=["x", "y"],
                     meta={"trans_id": self.trans_id})

    def coordinates(self, route: int = 0) -> list[tuple[float, float]]:
        """The route's line as (x, y) pairs, consecutive duplicates removed."""
        out: list[tuple[float, float]] = []
        for s in self.routes[route].get("sections") or []:
            for rd in s.get("roads") or []:
                v = rd.get("vertexes") or []
                for p in zip(v[0::2], v[1::2]):
                    if not out or out[-1] != p:
                        out.append(p)
        return out

    def linestring(self, route: int = 0) -> dict:
        """A GeoJSON LineString geometry of one route."""
        return {"type": "LineString", "coordinates": [list(p) for p in self.coordinates(route)]}

    def geojson(self, *, by_road: bool = False) -> dict:
        """A FeatureCollection: one LineString per route (or per road with its traffic, ``by_road=True``)."""
        feats = []
        for i, r in enumerate(self.routes):
            if r.get("result_code") != 0:
                continue
            if by_road:
                for k, s in enumerate(r.get("sections") or []):
                    for j, rd in enumerate(s.get("roads") or []):
                        v = rd["vertexes"]
                        feats.append({"type": "Feature", "geometry": {"type": "LineString",
                                      "coordinates": [[x, y] for x, y in zip(v[0::2], v[1::2])]},
                                      "properties": {"route": i, "section": k, "road_index": j,
                                                     **{f: rd[f] for f in ("name", "distance", "duration",
                                                                           "traffic_speed", "traffic_state")}}})
            else:
                s = r["summary"]
                feats.append({"type": "Feature", "geometry": self.linestring(i),
                              "properties": {"route": i, "distance": s["distance"], "duration": s["duration"],
                                             "taxi": s["fare"]["taxi"], "toll": s["fare"]["toll"]}})
        return {"type": "FeatureCollection", "features": feats}

    def map(self, **kw):
        """A folium map of the routes, coloured by traffic state, drawn offline on this answer's base layer (see
        :func:`toolkit.navimaps.route_map`).

        >>> tk.navi.directions((129.03, 35.10), (129.06, 35.157)).map()      # doctest: +SKIP
        """
        from .navimaps import route_map

        return route_map(self, **kw)


MANY_COLUMNS = ["key", "result_code", "result_msg", "result_msg_en", "distance", "duration", "x", "y"]
MANY_TYPES: dict[str, Any] = dict(ints=["result_code", "distance", "duration"], floats=["x", "y"])   # frame() keywords


def _many_columns(body: dict, points: list[dict], columns: dict[str, list] | None = None, **first) -> dict:
    """The columns of a many-origin/destination answer, one value per route, appended to ``columns`` (new ones
    when None; ``first``: values of columns put before them). A frame from these lists is about half the time of
    one from a dict per row (2,000 routes of a many-origin matrix)."""
    if columns is None:
        columns = {name: [] for name in (*first, *MANY_COLUMNS)}
    where = {p["key"]: p for p in points}
    routes = body.get("routes") or []
    for name, value in first.items():
        columns[name] += [value] * len(routes)
    for r in routes:
        summary, point = r.get("summary") or {}, where.get(r.get("key"), {})
        columns["key"].append(r.get("key"))
        columns["result_code"].append(r.get("result_code"))
        columns["result_msg"].append(r.get("result_msg"))
        columns["result_msg_en"].append(result_en(r.get("result_code")))
        columns["distance"].append(summary.get("distance"))
        columns["duration"].append(summary.get("duration"))
        columns["x"].append(point.get("x"))
        columns["y"].append(point.get("y"))
    return columns


def many_frame(body: dict, points: list[dict], center: dict, *, to_center: bool, tiles: str | None = None):
    """key, result_code, result_msg, result_msg_en, distance, duration, x, y (of each keyed point); the base layer of
    its maps in ``attrs["tiles"]``. Points without a route are warned of (:func:`_warn_outside_radius`,
    :func:`_warn_no_route`)."""
    from .frames import frame

    df = frame(data=_many_columns(body, points), columns=MANY_COLUMNS, **MANY_TYPES,
               meta={"trans_id": body.get("trans_id"), "center": center,
                     "role": "destination" if to_center else "origin"})
    if tiles:
        df.attrs["tiles"] = tiles
    _warn_outside_radius(df, to_center)
    role = "origins" if to_center else "destinations"
    failed = df["result_code"].notna() & ~df["result_code"].isin([0, 207 if to_center else 304])
    _warn_no_route(f"navi.{role}", [repr(k) for k in df.loc[failed, "key"].astype(str)],
                   df.loc[failed, "result_code"].astype(int).tolist(), len(df), role)
    return df


def _warn_no_route(name: str, labels: list[str], codes: list[int], total: int, what: str) -> None:
    """Warn (:class:`~toolkit.errors.NoRouteWarning`, in English beside the service's Korean ``result_msg``) that the
    routes labelled ``labels`` have none, by code: how many, which, why."""
    if not labels:
        return
    import warnings

    from .errors import NoRouteWarning, _user_stacklevel

    by_code: dict[int, list[str]] = {}
    for label, code in zip(labels, codes):
        by_code.setdefault(code, []).append(label)
    parts = []
    for code, items in sorted(by_code.items(), key=lambda item: (not isinstance(item[0], int), str(item[0]))):
        shown = ", ".join(items[:10]) + (f" and {len(items) - 10} more" if len(items) > 10 else "")
        parts.append(f"result_code {code}, {result_en(code) or 'the answer has none'}: {shown}")
    warnings.warn(f"{name}: {len(labels)} of {total} {what} have no route ({'; '.join(parts)}). A route starts and "
                  "ends on the road nearest each point: check the points (in the sea, outside the city, far from any "
                  "road?) and the avoid= options.", NoRouteWarning, stacklevel=_user_stacklevel())


def _warn_outside_radius(df, to_center: bool) -> None:
    """Warn (in English; the service's ``result_msg`` is Korean) naming every point the service left out because
    it lies farther than ``radius`` from the common point (result_code 207 / 304)."""
    code = 207 if to_center else 304
    far = df.loc[df["result_code"] == code, "key"].astype(str).tolist()
    if not far:
        return
    import warnings

    from .errors import OutOfRadiusWarning, _user_stacklevel

    role, other = ("origins", "the destination") if to_center else ("destinations", "the origin")
    shown = ", ".join(repr(k) for k in far[:20]) + (f" and {len(far) - 20} more" if len(far) > 20 else "")
    warnings.warn(f"navi.{role}: {len(far)} of {len(df)} {role} are farther than radius from {other} and have no "
                  f"route (result_code {code}): {shown}. The service answers only within radius (at most "
                  f"{MAX_RADIUS:,} m); use tk.navi.directions() for those.", OutOfRadiusWarning,
                  stacklevel=_user_stacklevel())


def _future_as_many(body: dict, key: str) -> dict:
    """A future-driving estimate (one pair of a matrix) as a many-origin answer with one route keyed ``key``: its
    first route's result_code, result_msg and summary distance and duration."""
    route = (body.get("routes") or [{}])[0]
    summary = route.get("summary") or {}
    out = {"result_code": route.get("result_code"), "result_msg": route.get("result_msg"), "key": key}
    if route.get("result_code") == 0:
        out["summary"] = {"distance": summary.get("distance"), "duration": summary.get("duration")}
    return {"trans_id": body.get("trans_id"), "routes": [out]}


# ---------------------------------------------------------------------------------------------- the area
class NaviArea(Area):
    """Driving directions: ``{navi_url}/v1/directions``, ``/v1/waypoints/directions``, ``/v1/origins/directions``,
    ``/v1/destinations/directions`` and ``/v1/future/directions``."""

    def _get_params(self, origin, destination, waypoints, priority, avoid, alternatives, road_details, summary,
                    car_type, car_fuel, car_hipass) -> dict:
        car_type, car_fuel = _car(car_type, car_fuel)
        wps = _waypoints(waypoints, MAX_WAYPOINTS)
        avoid = _avoid(avoid)
        org, dest = _point(origin, "origin"), _point(destination, "destination")
        self._check_city("navi.directions", [(p["x"], p["y"]) for p in (org, *wps, dest)])
        return {"origin": _text(org), "destination": _text(dest),
                "waypoints": "|".join(_text(w) for w in wps) or None,
                "priority": _choice(priority, "priority", PRIORITY), "avoid": "|".join(avoid) or None,
                "alternatives": _bool(alternatives), "road_details": _bool(road_details), "summary": _bool(summary),
                "car_type": car_type, "car_fuel": car_fuel, "car_hipass": _bool(car_hipass)}

    def _parse(self, raw: bool, name: str):
        tiles = tiles_for(self._client)

        def parse(body, response):
            if raw:
                return body
            out = Directions(body, tiles=tiles)
            failed = [(i, r.get("result_code")) for i, r in enumerate(out.routes) if r.get("result_code") != 0]
            _warn_no_route(name, [f"#{i}" for i, _ in failed], [c for _, c in failed], len(out.routes), "routes")
            return out

        return parse

    @endpoint("GET", "navi", "/v1/directions")
    def directions(self, origin, destination, waypoints=None, *, priority: str = "RECOMMEND", avoid=None,
                   alternatives: bool = False, road_details: bool = False, summary: bool = False,
                   car_type: int = 1, car_fuel: str = "GASOLINE", car_hipass: bool = False, raw: bool = False):
        """One route (or up to 3 with ``alternatives``) with at most 5 waypoints → :class:`Directions`.

        >>> tk.navi.directions((129.03, 35.10), (129.06, 35.157), avoid=["toll"]).summary   # doctest: +SKIP

        Spec: location §4.8 driving directions.
        """
        params = self._get_params(origin, destination, waypoints, priority, avoid, alternatives, road_details,
                                  summary, car_type, car_fuel, car_hipass)
        return Call("GET", "navi", "/v1/directions", self._client.rest_auth(), params=params,
                    parse=self._parse(raw, "navi.directions"), name="navi.directions")

    @endpoint("GET", "navi", "/v1/future/directions")
    def future(self, origin, destination, departure_time, waypoints=None, *, priority: str = "RECOMMEND",
               avoid=None, alternatives: bool = False, road_details: bool = False, summary: bool = False,
               car_type: int = 1, car_fuel: str = "GASOLINE", car_hipass: bool = False, raw: bool = False):
        """Future-driving estimate: like :meth:`directions` with ``departure_time`` (a ``datetime``, naive =
        Korean time, or the text ``yyyyMMddHHmm``).

        Spec: location §4.11 future-driving estimate.

        >>> tk.navi.future((129.03, 35.10), (129.06, 35.157), "202611230830")   # doctest: +SKIP
        """
        departure_time = _departure(departure_time)
        params = self._get_params(origin, destination, waypoints, priority, avoid, alternatives, road_details,
                                  summary, car_type, car_fuel, car_hipass)
        params["departure_time"] = departure_time
        return Call("GET", "navi", "/v1/future/directions", self._client.rest_auth(), params=params,
                    parse=self._parse(raw, "navi.future"), name="navi.future")

    @endpoint("POST", "navi", "/v1/waypoints/directions")
    def waypoints(self, origin, destination, waypoints=None, *, priority: str = "RECOMMEND", avoid=None,
                  alternatives: bool = False, road_details: bool = False, summary: bool = False,
                  car_type: int = 1, car_fuel: str = "GASOLINE", car_hipass: bool = False, raw: bool = False):
        """A route through up to 30 waypoints (POST) → :class:`Directions` (one section per leg).

        Spec: location §4.9 directions with many waypoints.

        >>> tk.navi.waypoints((129.03, 35.10), (129.06, 35.157), [(129.04, 35.12), (129.05, 35.14)])   # doctest: +SKIP
        """
        car_type, car_fuel = _car(car_type, car_fuel)
        body: dict[str, Any] = {"origin": _point(origin, "origin"), "destination": _point(destination, "destination"),
                                "waypoints": _waypoints(waypoints, MAX_WAYPOINTS_POST),
                                "priority": _choice(priority, "priority", PRIORITY), "avoid": _avoid(avoid) or None,
                                "alternatives": alternatives, "road_details": road_details, "summary": summary,
                                "car_type": car_type, "car_fuel": car_fuel, "car_hipass": car_hipass}
        self._check_city("navi.waypoints", [(p["x"], p["y"]) for p in (body["origin"], *body["waypoints"],
                                                                       body["destination"])])
        return Call("POST", "navi", "/v1/waypoints/directions", self._client.rest_auth(), json=_present(body),
                    idempotent=True, parse=self._parse(raw, "navi.waypoints"), name="navi.waypoints")

    def _many_body(self, points, name: str, radius: int, priority: str, avoid) -> tuple[list[dict], dict]:
        pts = [_keyed(p, f"{name}[{i}]") for i, p in enumerate(points or [])]
        if not 1 <= len(pts) <= MAX_MANY:
            raise ParameterError(name, f"give 1 to {MAX_MANY} keyed points", len(pts))
        if isinstance(radius, bool) or not isinstance(radius, int) or not 1 <= radius <= MAX_RADIUS:
            raise ParameterError("radius", f"must be an integer 1 to {MAX_RADIUS} (metres)", radius)
        return pts, _present({"radius": radius, "priority": _choice(priority, "priority", ("TIME", "DISTANCE")),
                              "avoid": _avoid(avoid) or None})

    @endpoint("POST", "navi", "/v1/origins/directions")
    def origins(self, origins, destination, radius: int = MAX_RADIUS, *, priority: str = "TIME", avoid=None,
                raw: bool = False):
        """Summaries from up to 30 keyed origins to one destination → DataFrame (key, distance, duration, x, y).

        ``radius`` (metres, at most 10,000: the service's cap) bounds the straight-line distance of an origin
        from the destination: an origin farther away gets no route (``result_code`` 207) and a warning names
        every such origin.

        Spec: location §4.10 directions from several origins.

        >>> tk.navi.origins([("a", 129.03, 35.10), ("b", 129.04, 35.12)], (129.05, 35.14))   # doctest: +SKIP
        """
        pts, body = self._many_body(origins, "origins", radius, priority, avoid)
        dest = _point(destination, "destination")
        self._check_city("navi.origins", [(p["x"], p["y"]) for p in (*pts, dest)])
        body.update(origins=pts, destination=dest)
        return Call("POST", "navi", "/v1/origins/directions", self._client.rest_auth(), json=body, idempotent=True,
                    parse=lambda b, r: b if raw else many_frame(b, pts, dest, to_center=True,
                                                                 tiles=tiles_for(self._client)),
                    name="navi.origins")

    @endpoint("POST", "navi", "/v1/destinations/directions")
    def destinations(self, origin, destinations, radius: int = MAX_RADIUS, *, priority: str = "TIME", avoid=None,
                     raw: bool = False):
        """Summaries from one origin to up to 30 keyed destinations → DataFrame (key, distance, duration, x, y).

        ``radius`` (metres, at most 10,000: the service's cap): a destination farther from the origin gets no
        route (``result_code`` 304) and a warning names every such destination.

        Spec: location §4.11 directions to several destinations.

        >>> tk.navi.destinations((129.03, 35.10), [("a", 129.05, 35.14), ("b", 129.06, 35.16)])   # doctest: +SKIP
        """
        pts, body = self._many_body(destinations, "destinations", radius, priority, avoid)
        org = _point(origin, "origin")
        self._check_city("navi.destinations", [(p["x"], p["y"]) for p in (org, *pts)])
        body.update(origin=org, destinations=pts)
        return Call("POST", "navi", "/v1/destinations/directions", self._client.rest_auth(), json=body,
                    idempotent=True, parse=lambda b, r: b if raw else many_frame(b, pts, org, to_center=False,
                                                                                  tiles=tiles_for(self._client)),
                    name="navi.destinations")

    def matrix(self, origins, destinations, radius: int | None = None, *, priority: str = "TIME", avoid=None,
               departure_time=None, concurrency="auto", max_concurrency: int | None = None, rate: float | None = None,
               progress: bool = True):
        """Summaries from every keyed origin to every keyed destination → one long frame: ``destination`` (its
        key), then the columns of :meth:`origins` (``key`` is the origin's), one row per pair.

        Without ``departure_time``: the many-origin call (location §4.10), one per destination and block of up to 30
        origins, with the traffic of now. Its ``radius`` (metres, at most 10,000, the service's cap; the default)
        bounds the straight line from an origin to the destination: a pair farther apart has no route
        (result_code 207), and an :class:`~toolkit.errors.OutOfRadiusWarning` says how many and which.

        With ``departure_time`` (a ``datetime``, naive = Korean time, or ``'yyyyMMddHHmm'``, as :meth:`future`): each
        pair is one future-driving estimate (location §4.11) with the traffic of that time, and no radius applies
        (``radius`` is then refused); ``priority`` may also be ``RECOMMEND``. One call per pair instead of one per
        30 origins.

        Every pair without a route (another result_code) is named in a :class:`~toolkit.errors.NoRouteWarning`.
        ``attrs["matrix"]`` counts them: ``pairs``, ``routes`` (found), ``beyond_radius`` (207), ``no_route`` (any
        other code), ``result_codes`` ({code: pairs}), ``departure_time``, plus the run's calls, requests,
        concurrency, quota stop and errors. The calls are in flight together with adaptive ``concurrency`` (see
        :mod:`toolkit.bulk`), ``rate`` and progress; ``ParameterError`` for bad points before any request.

        >>> tk.navi.matrix([("a", 129.03, 35.10), ("b", 129.04, 35.11)],
        ...                [("x", 129.05, 35.14), ("y", 129.06, 35.15)])       # doctest: +SKIP
        >>> tk.navi.matrix(depots, customers, departure_time="202611230830")    # doctest: +SKIP
        """
        import warnings

        from .bulk import Bulk

        orgs = [_keyed(p, f"origins[{i}]") for i, p in enumerate(origins or [])]
        dests = [_keyed(p, f"destinations[{i}]") for i, p in enumerate(destinations or [])]
        if not orgs or not dests:
            raise ParameterError("origins/destinations", "give at least one keyed point each", len(orgs) or len(dests))
        if departure_time is not None:
            if radius is not None:
                raise ParameterError("radius", "does not apply with departure_time: each pair is then one "
                                     "future-driving estimate, which has no radius", radius)
            departure = _departure(departure_time)
            params = {"priority": _choice(priority, "priority", PRIORITY), "avoid": "|".join(_avoid(avoid)) or None,
                      "summary": "true", "departure_time": departure}
            blocks = [[o] for o in orgs]
        else:
            departure = None
            blocks = [orgs[i:i + MAX_MANY] for i in range(0, len(orgs), MAX_MANY)]
            _, body = self._many_body(blocks[0], "origins", MAX_RADIUS if radius is None else radius, priority, avoid)
        self._check_city("navi.matrix", [(p["x"], p["y"]) for p in (*orgs, *dests)])
        keys = [f"{d},{b}" for d in range(len(dests)) for b in range(len(blocks))]

        def make_call(key):
            d, b = (int(v) for v in key.split(","))
            if departure is not None:
                return Call("GET", "navi", "/v1/future/directions", self._client.rest_auth(),
                            params={"origin": _text(blocks[b][0]), "destination": _text(dests[d]), **params},
                            parse=lambda body, r: _future_as_many(body, blocks[b][0]["key"]), name="navi.matrix")
            return Call("POST", "navi", "/v1/origins/directions", self._client.rest_auth(), idempotent=True,
                        json={**body, "origins": blocks[b], "destination": dests[d]}, parse=lambda b, r: b,
                        name="navi.matrix")

        job = Bulk(keys, make_call, cache=None, namespace="matrix\t", concurrency=concurrency,
                   max_concurrency=max_concurrency, rate=rate, progress=progress, desc="matrix")

        def finish(job):
            from .frames import frame

            columns = None   # one frame from every answer's columns (a frame per answer, then concat: 2 ms a call)
            for key in keys:
                d, b = (int(v) for v in key.split(","))
                answer = job.answers.get(key)
                if answer is not None and "message" not in answer:
                    columns = _many_columns(answer, blocks[b], columns, destination=dests[d]["key"])
            out = frame(data=columns or {}, columns=["destination", *MANY_COLUMNS], **MANY_TYPES)
            codes = out["result_code"].value_counts().sort_index()
            far = out["result_code"] == 207
            failed = out["result_code"].notna() & (out["result_code"] != 0) & ~far
            errors = sorted({a["message"] for a in job.answers.values() if "message" in a})
            out.attrs = {"matrix": {"pairs": len(orgs) * len(dests), "routes": int((out["result_code"] == 0).sum()),
                                    "beyond_radius": int(far.sum()), "no_route": int(failed.sum()),
                                    "result_codes": {int(c): int(n) for c, n in codes.items()},
                                    "departure_time": departure, "calls": len(keys), **job.stats(),
                                    "stopped_by_quota": job.stopped, "errors": errors[:20]}}
            def pairs(mask) -> list[str]:
                return [f"{o!r} → {d!r}" for o, d in zip(out.loc[mask, "key"], out.loc[mask, "destination"])]

            if far.any():
                shown = pairs(far)
                listed = ", ".join(shown[:20]) + (f" and {len(shown) - 20} more" if len(shown) > 20 else "")
                from .errors import OutOfRadiusWarning, _user_stacklevel

                warnings.warn(f"navi.matrix: {len(shown)} of {len(out)} pairs (origin → destination) are farther "
                              f"apart than radius and have no route (result_code 207, {result_en(207)}): {listed}. "
                              f"The many-origin call answers only within radius (at most {MAX_RADIUS:,} m); "
                              "departure_time= routes each pair on its own, with no radius (or use "
                              "tk.navi.directions() for those).", OutOfRadiusWarning, stacklevel=_user_stacklevel())
            _warn_no_route("navi.matrix", pairs(failed), out.loc[failed, "result_code"].astype(int).tolist(), len(out),
                           "pairs (origin → destination)")
            if errors:
                from .errors import ToolkitWarning

                warnings.warn(f"navi.matrix: {sum('message' in a for a in job.answers.values())} of {len(keys)} calls "
                              f"failed and their pairs are missing: {'; '.join(errors[:3])}", ToolkitWarning,
                              stacklevel=3)
            if job.stopped:
                warnings.warn("matrix stopped: the API quota is used up (code -10); the pairs not answered are "
                              "missing. To resume, run the same call again once the daily quota resets.",
                              QuotaStopWarning, stacklevel=3)
            return out

        return job.run(self._client, finish)

    def origins_map(self, frame, **kw):
        """A folium map of a many-origin frame (see :func:`toolkit.navimaps.origins_map`), on this client's base
        layer unless ``tiles=`` says otherwise.

        Spec: location §4.10 directions from several origins (a map of the answer).

        >>> tk.navi.origins_map(tk.navi.origins([("a", 129.03, 35.10)], (129.05, 35.14)))   # doctest: +SKIP
        """
        from .navimaps import origins_map

        kw.setdefault("tiles", frame.attrs.get("tiles") or tiles_for(self._client))
        return origins_map(frame, **kw)
