"""HTTP of the local area (location §4.1–4.6): ``{local_url}/v2/local/search/{address,keyword,category}.{FORMAT}``
and ``{local_url}/v2/local/geo/{coord2regioncode,coord2address,transcoord}.{FORMAT}``.

``FORMAT`` is ``json`` or ``xml`` (anything else: 404). The XML form (not shown in the spec) is
``<?xml version="1.0" encoding="UTF-8"?><result><meta>…</meta><documents><document>…</document>…</documents>
</result>``: one element per member, nested objects as nested elements, arrays as repeated ``<item>``
elements, ``null`` members omitted, booleans ``true``/``false``. Errors are JSON in both formats.
Every call needs ``Authorization: ServiceAK <REST API key>`` and counts against the API id's quota (-10).
The behaviour choices are listed in :mod:`toolkit.sandbox.local.models`.

Keyword and category search both enforce location §4.5's conditional rule as stated: the centre set (``x``,
``y``, ``radius``) or ``rect`` is required (HTTP 400, code -2 without either). A whole-city keyword search
sends the city's rectangle.
"""
from __future__ import annotations

from xml.sax.saxutils import escape

from starlette.requests import Request
from starlette.responses import Response
from starlette.routing import Route

from ..web import (Params, api_error, app_key, finite_json, json_bytes_response, json_response, read_fields,
                   require_app_key, sandbox_of)
from .coords import GEO_SYSTEMS, SYSTEMS, transform
from .models import CATEGORY_GROUPS
from .transit import public_transit

XML_TYPE = "text/xml;charset=UTF-8"
ADDRESS_MAX_PAGE, ADDRESS_MAX_SIZE = 45, 30
PLACE_MAX_PAGE, PLACE_MAX_SIZE, PLACE_PAGEABLE = 45, 15, 45
MAX_RADIUS = 20000
GROUP_CODES = tuple(CATEGORY_GROUPS)


def _xml_value(tag: str, value) -> str:
    if value is None:
        return ""
    if isinstance(value, dict):
        return f"<{tag}>" + "".join(_xml_value(k, v) for k, v in value.items()) + f"</{tag}>"
    if isinstance(value, list):
        return f"<{tag}>" + "".join(_xml_value("item", v) for v in value) + f"</{tag}>"
    if isinstance(value, bool):
        value = "true" if value else "false"
    return f"<{tag}>{escape(str(value))}</{tag}>"


def to_xml(body: dict) -> str:
    docs = "".join(_xml_value("document", d) for d in body["documents"])
    return ('<?xml version="1.0" encoding="UTF-8"?><result>' + _xml_value("meta", body["meta"])
            + f"<documents>{docs}</documents></result>")


def _answer(fmt: str, meta: dict, documents) -> Response:
    if fmt == "xml":
        return Response(to_xml({"meta": meta, "documents": list(documents)}), media_type=XML_TYPE)
    return json_bytes_response(_json(meta, documents))


def _json(meta: dict, documents) -> bytes:
    """``finite_json({"meta": meta, "documents": documents})``; a page of places is written from the JSON text
    kept per place (the same bytes: JSON of an object is its members' JSON, joined)."""
    # finite: the documents' numbers are counts and coordinates of places in the city (transcoord refuses a
    # result that is not finite); the parameters that are floats are refused when not finite
    made = getattr(documents, "json", None)
    parts = made() if made is not None else None
    if parts is None:
        return finite_json({"meta": meta, "documents": documents})
    return b'{"meta":%s,"documents":[%s]}' % (finite_json(meta), b",".join(parts))


def _page(docs, page: int, size: int, pageable: int) -> tuple[list, dict]:
    start = (page - 1) * size
    end = min(start + size, pageable)           # only the documents of the page are made
    meta = {"total_count": len(docs), "pageable_count": pageable, "is_end": start + size >= pageable}
    if start >= end:
        return [], meta
    return (docs.page(start, end) if hasattr(docs, "page") else docs[start:end]), meta


# --------------------------------------------------------------------------- 4.1 address search
def search_address(model, p: Params) -> tuple[dict, list]:
    query = p.str("query", required=True)
    analyze_type = p.enum("analyze_type", ("similar", "exact"), "similar")
    page = p.int("page", 1, lo=1, hi=ADDRESS_MAX_PAGE)
    size = p.int("size", 10, lo=1, hi=ADDRESS_MAX_SIZE)
    docs = model.search_address(query, analyze_type)
    shown, meta = _page(docs, page, size, min(len(docs), ADDRESS_MAX_PAGE * size))
    return meta, shown


# --------------------------------------------------------------------------- 4.2–4.4 coordinates
def _xy(p: Params, systems, with_output: bool):
    x, y = p.float("x", required=True), p.float("y", required=True)
    src = p.enum("input_coord", systems, "WGS84")
    dst = p.enum("output_coord", systems, "WGS84") if with_output else "WGS84"
    return x, y, src, dst


def _to_wgs84(x, y, src):
    try:
        lon, lat = transform(x, y, src, "WGS84")
    except Exception:  # pyproj refuses points far outside a projection
        raise api_error(400, -2, "x, y cannot be converted from input_coord") from None
    if lon != lon or lat != lat:
        raise api_error(400, -2, "x, y cannot be converted from input_coord")
    return lon, lat


def coord2regioncode(model, p: Params) -> tuple[dict, list]:
    x, y, src, dst = _xy(p, GEO_SYSTEMS, True)
    docs = model.regions_at(*_to_wgs84(x, y, src), dst)
    return {"total_count": len(docs)}, docs


def coord2address(model, p: Params) -> tuple[dict, list]:
    x, y, src, _ = _xy(p, GEO_SYSTEMS, False)
    docs = model.address_at(*_to_wgs84(x, y, src))
    return {"total_count": len(docs)}, docs


def transcoord(model, p: Params) -> tuple[dict, list]:
    x, y, src, dst = _xy(p, SYSTEMS, True)
    try:
        ox, oy = transform(x, y, src, dst)
    except Exception:
        raise api_error(400, -2, "x, y cannot be converted") from None
    if ox != ox or oy != oy or abs(ox) == float("inf") or abs(oy) == float("inf"):
        raise api_error(400, -2, "x, y cannot be converted")
    return {"total_count": 1}, [{"x": ox, "y": oy}]


# --------------------------------------------------------------------------- 4.5–4.6 places
def _place_params(p: Params, need_area: bool) -> tuple[dict, int, int]:
    x, y = p.float("x"), p.float("y")
    if (x is None) != (y is None):
        raise api_error(400, -2, "x and y go together: send both or neither")
    radius = p.int("radius", lo=0, hi=MAX_RADIUS)
    if radius is not None and x is None:
        raise api_error(400, -2, "radius needs x and y")
    rect_text = p.str("rect")
    rect: list[float] | None = None
    if rect_text is not None:
        try:
            rect = [float(v) for v in rect_text.split(",")]
        except ValueError:
            rect = None
        if rect is None or len(rect) != 4 or any(v != v for v in rect):
            raise api_error(400, -2, "rect must be four numbers: left x, left y, right x, right y")
    if need_area and rect is None and (x is None or radius is None):
        raise api_error(400, -2, "either x, y and radius, or rect is required")
    sort = p.enum("sort", ("accuracy", "distance"), "accuracy")
    if sort == "distance" and x is None:
        raise api_error(400, -2, "sort=distance needs x and y")
    page = p.int("page", 1, lo=1, hi=PLACE_MAX_PAGE)
    size = p.int("size", 15, lo=1, hi=PLACE_MAX_SIZE)
    return dict(x=x, y=y, radius=radius, rect=rect, sort=sort), page, size


def search_keyword(model, p: Params) -> tuple[dict, list]:
    query = p.str("query", required=True)
    if not query.strip():
        raise api_error(400, -2, "query is required")
    category = p.enum("category_group_code", GROUP_CODES)
    kw, page, size = _place_params(p, need_area=True)
    docs, same_name = model.search_places(query=query.strip(), category=category, **kw)
    shown, meta = _page(docs, page, size, min(len(docs), PLACE_PAGEABLE))
    meta["same_name"] = same_name
    return meta, shown


def search_category(model, p: Params) -> tuple[dict, list]:
    category = p.enum("category_group_code", GROUP_CODES, required=True)
    kw, page, size = _place_params(p, need_area=True)
    docs, _ = model.search_places(category=category, **kw)
    shown, meta = _page(docs, page, size, min(len(docs), PLACE_PAGEABLE))
    meta["same_name"] = None
    return meta, shown


# (path under the host, API id for quotas and the request log, what answers it)
APIS = (
    ("/v2/local/search/address", "local_search_address", search_address),
    ("/v2/local/geo/coord2regioncode", "local_geo_coord2regioncode", coord2regioncode),
    ("/v2/local/geo/coord2address", "local_geo_coord2address", coord2address),
    ("/v2/local/geo/transcoord", "local_geo_transcoord", transcoord),
    ("/v2/local/search/keyword", "local_search_keyword", search_keyword),
    ("/v2/local/search/category", "local_search_category", search_category),
)


def _endpoint(sandbox, api: str, compute):
    """The Starlette endpoint of one API: format (404 for anything but json or xml), the request log, the app
    key, the quota, then the API's own parameters and answer."""
    model = sandbox.model("local")

    async def endpoint(request: Request) -> Response:
        fmt = request.path_params["format"]
        if fmt not in ("json", "xml"):
            raise api_error(404, -404, f"unknown format {fmt!r}: use json or xml")
        model.record(api)
        app, _ = require_app_key(request, kinds=("rest_api",))
        sandbox.apps.charge(app["app_id"], api)
        return _answer(fmt, *compute(model, Params(await read_fields(request))))

    endpoint.__name__ = endpoint.__qualname__ = compute.__name__
    return endpoint


def _lane_handler(sandbox, api: str, compute):
    """What :func:`_endpoint` does for a ``GET`` of the JSON format, for the request lane (see ``lane.py``)."""
    model = sandbox.model("local")

    def handle(fields: dict, authorization: str) -> bytes:
        model.record(api)
        app, _ = app_key(sandbox, authorization, kinds=("rest_api",))
        sandbox.apps.charge(app["app_id"], api)
        return _json(*compute(model, Params(fields)))

    return handle


# --------------------------------------------------------------------------- control API (sandbox only)
def _model(request: Request):
    return sandbox_of(request).model("local")


async def control_requests(request: Request):
    """``GET /sandbox/local/requests[?api=local_search_address&times=1]``: local requests received (every one,
    refused ones included) by API id, with their times in seconds since the first one when ``times=1``.
    ``POST`` (or ``DELETE``) clears the log."""
    model = _model(request)
    if request.method in ("POST", "DELETE"):
        model.requests.clear()
        return json_response({"total": 0, "counts": {}})
    q = request.query_params
    return json_response(model.request_stats(q.get("api") or None, q.get("times") in ("1", "true")))


async def control_regions(request: Request):
    """``GET /sandbox/local/regions.geojson[?level=emd]``: the world's legal-region polygons (WGS84 GeoJSON,
    properties ``code``, ``level``, ``name``, ``region_*depth_name``) for maps; levels sido, sigungu, emd, ri."""
    level = request.query_params.get("level") or None
    if level not in (None, "sido", "sigungu", "emd", "ri"):
        raise api_error(400, -2, "level must be one of sido, sigungu, emd, ri")
    return json_response(_model(request).regions_geojson(level))


def routes(sandbox):
    return {"sandbox": [
        Route("/local/requests", control_requests, methods=["GET", "POST", "DELETE"]),
        Route("/local/regions.geojson", control_regions),
    ], "local": [
        *(Route(path + ".{format}", _endpoint(sandbox, api, compute)) for path, api, compute in APIS),
        Route("/v2/routing/publictraffic", public_transit),  # §4.7, see transit.py
    ]}


def lanes(sandbox):
    """The request lane's handlers (``lane.py``): the JSON form of every API above."""
    return {"local": {path + ".json": _lane_handler(sandbox, api, compute) for path, api, compute in APIS}}
