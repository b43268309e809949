"""HTTP of the directions area (location §4.8–4.11), mounted at ``{navi_url}`` = ``/navi``.

* ``GET  /v1/directions``               quota id ``navi_directions``
* ``POST /v1/waypoints/directions``     ``navi_waypoints_directions``
* ``POST /v1/origins/directions``       ``navi_origins_directions``
* ``POST /v1/destinations/directions``  ``navi_destinations_directions`` (sandbox design, see models.py)
* ``GET  /v1/future/directions``        ``navi_future_directions`` (sandbox design, see models.py)

Every bound violation or malformed field answers HTTP 400 ``{code: -2, msg}`` naming the field; a missing or
wrong key HTTP 401 ``{code: -401}``. Route computation runs in a worker thread (it is CPU work).
"""
from __future__ import annotations

import json
import math
from datetime import datetime, timedelta, timezone

from starlette.concurrency import run_in_threadpool
from starlette.requests import Request
from starlette.routing import Route

from ..guard import parsed_body
from ..web import (Params, api_error, finite_json, json_bytes_response, json_response, read_fields, require_app_key,
                   sandbox_of)
from .models import AVOIDS, CAR_TYPES, FUELS, PRIORITIES, Options, Point

MAX_GET_WAYPOINTS = 5
MAX_POST_WAYPOINTS = 30
MAX_MANY = 30
MAX_RADIUS = 10000
KST = timezone(timedelta(hours=9))


def _bad(msg: str):
    return api_error(400, -2, msg)


def _coord(value, name: str, lo: float, hi: float) -> float:
    if isinstance(value, bool):
        raise _bad(f"{name} must be a number")
    try:
        v = float(value)
    except (TypeError, ValueError):
        raise _bad(f"{name} must be a number") from None
    if not math.isfinite(v) or not lo <= v <= hi:
        raise _bad(f"{name} must be a number between {lo} and {hi}")
    return v


def parse_point_text(text: str, name: str) -> Point:
    """``x,y`` or ``x,y,name=<name>`` (other ``key=value`` members are ignored)."""
    parts = text.split(",")
    if len(parts) < 2:
        raise _bad(f"{name} must be 'x,y' or 'x,y,name=<name>'")
    p = Point(_coord(parts[0].strip(), f"{name} x", -180, 180), _coord(parts[1].strip(), f"{name} y", -90, 90))
    rest = ",".join(parts[2:])
    if rest:
        if rest.startswith("name="):
            p.name = rest[5:]
        elif "=" not in parts[2]:
            raise _bad(f"{name} must be 'x,y' or 'x,y,name=<name>'")
    return p


def parse_point_obj(obj, name: str, *, key: bool = False) -> Point:
    if not isinstance(obj, dict):
        raise _bad(f"{name} must be an object with x and y")
    if "x" not in obj or "y" not in obj:
        raise _bad(f"{name}.x and {name}.y are required")
    p = Point(_coord(obj["x"], f"{name}.x", -180, 180), _coord(obj["y"], f"{name}.y", -90, 90),
              str(obj.get("name") or ""))
    if key:
        if not isinstance(obj.get("key"), str) or not obj["key"]:
            raise _bad(f"{name}.key is required (a string)")
        p.key = obj["key"]
    return p


def _get_options(p: Params) -> Options:
    avoid = p.str("avoid")
    items = tuple(a.strip() for a in avoid.split("|") if a.strip()) if avoid else ()
    for a in items:
        if a not in AVOIDS:
            raise _bad(f"avoid must be one or more of {', '.join(AVOIDS)} separated by |")
    priority = p.enum("priority", PRIORITIES, "RECOMMEND", case=False)
    car_type = p.int("car_type", 1, lo=1, hi=7)
    car_fuel = p.enum("car_fuel", FUELS, "GASOLINE", case=False)
    return Options(priority=priority, avoid=items, alternatives=p.bool("alternatives"),
                   road_details=p.bool("road_details"), summary=p.bool("summary"), car_type=car_type,
                   car_fuel=car_fuel, car_hipass=p.bool("car_hipass"))


def _body_bool(body: dict, name: str) -> bool:
    v = body.get(name, False)
    if v is None:
        return False
    if isinstance(v, bool):
        return v
    if isinstance(v, str) and v.lower() in ("true", "false"):
        return v.lower() == "true"
    raise _bad(f"{name} must be true or false")


def _body_enum(body: dict, name: str, choices, default: str) -> str:
    v = body.get(name)
    if v is None:
        return default
    match = next((c for c in choices if isinstance(v, str) and c == v.upper()), None)
    if match is None:
        raise _bad(f"{name} must be one of {', '.join(choices)}")
    return match


def _body_avoid(body: dict) -> tuple[str, ...]:
    v = body.get("avoid")
    if v is None:
        return ()
    if isinstance(v, str):                       # lenient: "toll|motorway"
        v = [a for a in v.split("|") if a]
    if not isinstance(v, list) or any(a not in AVOIDS for a in v):
        raise _bad(f"avoid must be an array of {', '.join(AVOIDS)}")
    return tuple(v)


def _body_options(body: dict, priorities=PRIORITIES, default="RECOMMEND") -> Options:
    car_type = body.get("car_type", 1)
    if isinstance(car_type, bool) or not isinstance(car_type, int) or car_type not in CAR_TYPES:
        raise _bad("car_type must be an integer between 1 and 7")
    return Options(priority=_body_enum(body, "priority", priorities, default), avoid=_body_avoid(body),
                   alternatives=_body_bool(body, "alternatives"), road_details=_body_bool(body, "road_details"),
                   summary=_body_bool(body, "summary"), car_type=car_type,
                   car_fuel=_body_enum(body, "car_fuel", FUELS, "GASOLINE"),
                   car_hipass=_body_bool(body, "car_hipass"))


async def _json_body(request: Request) -> dict:
    body = parsed_body(request.scope)   # parsed and checked once, by the request guard
    if body is None:                    # not JSON to the guard (another content type, no body, not JSON at all)
        try:
            body = json.loads(await request.body() or b"null")
        except ValueError:
            raise _bad("the body must be JSON") from None
    if not isinstance(body, dict):
        raise _bad("the body must be a JSON object")
    return body


def _charge(request: Request, api: str):
    app, _ = require_app_key(request)
    sandbox_of(request).apps.charge(app["app_id"], api)


def _get_points(p: Params):
    origin_text, destination_text = p.str("origin", required=True), p.str("destination", required=True)
    origin = parse_point_text(origin_text, "origin")
    destination = parse_point_text(destination_text, "destination")
    raw = p.str("waypoints")
    texts = [t for t in raw.split("|") if t.strip()] if raw else []
    if len(texts) > MAX_GET_WAYPOINTS:
        raise _bad(f"waypoints must be at most {MAX_GET_WAYPOINTS}")
    return origin, destination, [parse_point_text(t, f"waypoints[{i}]") for i, t in enumerate(texts)]


async def directions(request: Request):
    _auth_first(request)
    p = Params(await read_fields(request))
    origin, destination, waypoints = _get_points(p)
    opts = _get_options(p)
    _charge(request, "navi_directions")
    model = sandbox_of(request).model("navi")
    return json_response(await run_in_threadpool(model.directions, origin, destination, waypoints, opts))


async def future_directions(request: Request):
    _auth_first(request)
    p = Params(await read_fields(request))
    origin, destination, waypoints = _get_points(p)
    opts = _get_options(p)
    raw = p.str("departure_time", required=True)
    try:
        when = datetime.strptime(raw, "%Y%m%d%H%M").replace(tzinfo=KST).timestamp()
    except ValueError:
        raise _bad("departure_time must be yyyyMMddHHmm (Korean time)") from None
    sb = sandbox_of(request)
    now = sb.clock.timestamp()
    if when < now - now % 60:
        raise _bad("departure_time must not be in the past")
    opts.when = when
    _charge(request, "navi_future_directions")
    return json_response(await run_in_threadpool(sb.model("navi").directions, origin, destination, waypoints, opts))


async def waypoints_directions(request: Request):
    _auth_first(request)
    body = await _json_body(request)
    origin = parse_point_obj(body.get("origin"), "origin")
    destination = parse_point_obj(body.get("destination"), "destination")
    wps = body.get("waypoints") or []
    if not isinstance(wps, list):
        raise _bad("waypoints must be an array")
    if len(wps) > MAX_POST_WAYPOINTS:
        raise _bad(f"waypoints must be at most {MAX_POST_WAYPOINTS}")
    waypoints = [parse_point_obj(w, f"waypoints[{i}]") for i, w in enumerate(wps)]
    opts = _body_options(body)
    _charge(request, "navi_waypoints_directions")
    model = sandbox_of(request).model("navi")
    return json_response(await run_in_threadpool(model.directions, origin, destination, waypoints, opts))


def _radius(body: dict) -> int:
    r = body.get("radius")
    if r is None:
        raise _bad("radius is required")
    if isinstance(r, bool) or not isinstance(r, int) or not 0 < r <= MAX_RADIUS:
        raise _bad(f"radius must be an integer between 1 and {MAX_RADIUS}")
    return r


def _many_points(body: dict, name: str) -> list[Point]:
    items = body.get(name)
    if not isinstance(items, list) or not items:
        raise _bad(f"{name} is required (an array of 1 to {MAX_MANY} points)")
    # more than MAX_MANY: answered by the model with result_code 202 / 303 (the platform's codes)
    return [parse_point_obj(o, f"{name}[{i}]", key=True) for i, o in enumerate(items)]


async def origins_directions(request: Request):
    _auth_first(request)
    body = await _json_body(request)
    origins = _many_points(body, "origins")
    destination = parse_point_obj(body.get("destination"), "destination")
    radius = _radius(body)
    opts = _body_options(body, ("TIME", "DISTANCE"), "TIME")
    _charge(request, "navi_origins_directions")
    return _many_answer(await _many(sandbox_of(request).model("navi"), origins, destination, radius, opts, True))


async def destinations_directions(request: Request):
    _auth_first(request)
    body = await _json_body(request)
    origin = parse_point_obj(body.get("origin"), "origin")
    destinations = _many_points(body, "destinations")
    radius = _radius(body)
    opts = _body_options(body, ("TIME", "DISTANCE"), "TIME")
    _charge(request, "navi_destinations_directions")
    return _many_answer(await _many(sandbox_of(request).model("navi"), destinations, origin, radius, opts, False))


async def _many(model, sources, target, radius: int, opts, to_target: bool) -> dict:
    """``model.many(...)``: on the event loop when it is quick (see ``Model.many_is_quick``), else in a worker
    thread (a first call may load the road graph or build a weighted graph)."""
    if model.many_is_quick(opts, to_target=to_target):
        return model.many(sources, target, radius, opts, to_target=to_target)
    return await run_in_threadpool(model.many, sources, target, radius, opts, to_target=to_target)


def _many_answer(answer: dict):
    """A many-origin or many-destination answer, written by orjson: its numbers are the model's distances,
    durations and the points the guard checked finite (``finite_json``: the bytes ``json.dumps`` writes)."""
    return json_bytes_response(finite_json(answer))


def _auth_first(request: Request):
    """Check the key before any parameter (401 wins over 400)."""
    require_app_key(request)


def routes(sandbox):
    return {"navi": [
        Route("/v1/directions", directions, methods=["GET"]),
        Route("/v1/future/directions", future_directions, methods=["GET"]),
        Route("/v1/waypoints/directions", waypoints_directions, methods=["POST"]),
        Route("/v1/origins/directions", origins_directions, methods=["POST"]),
        Route("/v1/destinations/directions", destinations_directions, methods=["POST"]),
    ]}
