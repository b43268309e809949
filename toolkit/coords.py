"""The one check of WGS84 points, shared by every call that takes coordinates (local, navi), and the names of the
local API's coordinate systems (location §4.2–4.4).

``x`` is the longitude (-180 to 180) and ``y`` the latitude (-90 to 90). A point outside these bounds is
refused before any request with a :class:`~toolkit.errors.ParameterError` naming the parameter and the bound;
when the two look swapped (a latitude given as x and a longitude as y), the message says so.

>>> lonlat(129.0592, 35.1579)
(129.0592, 35.1579)
>>> lonlat(35.1579, 129.0592)
Traceback (most recent call last):
...
toolkit.errors.ParameterError: y=129.0592: must be a latitude from -90 to 90 (WGS84) — x and y look swapped: x is the longitude, y the latitude

A coordinate system is one of the ten names of the spec, in any case, or a common name of the same system: an EPSG
code, ``UTM-K``, ``KATEC`` (:data:`COORD_ALIASES`). A name that is none of them is refused with the system it most
likely *means* (not the one it is spelled like):

>>> coord_system("utm-k")
'WUTM'
>>> coord_system("EPSG:5181")
'WTM'
>>> coord_system("EPSG:5186")
Traceback (most recent call last):
...
toolkit.errors.ParameterError: input_coord='EPSG:5186': EPSG:5186 (Korea 2000 / Central Belt 2010) is none of the service's systems: it is WTM with y 100 000 m larger (false northing 600 000 m, WTM's is 500 000 m); convert to WTM and add 100000 to y
"""
from __future__ import annotations

import difflib
import math
import re

from .errors import ParameterError

__all__ = ["lonlat", "number", "LON_BOUND", "LAT_BOUND", "COORD_SYSTEMS", "GEO_COORD_SYSTEMS", "COORD_ALIASES",
           "coord_system"]

LON_BOUND = (-180.0, 180.0)
LAT_BOUND = (-90.0, 90.0)


def number(name: str, value) -> float:
    """``value`` as a finite float, else a :class:`ParameterError` naming ``name``."""
    if isinstance(value, bool):
        raise ParameterError(name, "must be a number", value)
    try:
        out = float(value)
    except (TypeError, ValueError):
        raise ParameterError(name, "must be a number", value) from None
    if not math.isfinite(out):
        raise ParameterError(name, "must be a finite number", value)
    return out


def lonlat(x, y, *, x_name: str = "x", y_name: str = "y") -> tuple[float, float]:
    """``(x, y)`` as floats after checking them as a WGS84 longitude and latitude."""
    x, y = number(x_name, x), number(y_name, y)
    swapped = LAT_BOUND[0] <= x <= LAT_BOUND[1] and LON_BOUND[0] <= y <= LON_BOUND[1]
    hint = f" — {x_name} and {y_name} look swapped: {x_name} is the longitude, {y_name} the latitude"
    if not LON_BOUND[0] <= x <= LON_BOUND[1]:
        raise ParameterError(x_name, "must be a longitude from -180 to 180 (WGS84)", x)
    if not LAT_BOUND[0] <= y <= LAT_BOUND[1]:
        raise ParameterError(y_name, "must be a latitude from -90 to 90 (WGS84)" + (hint if swapped else ""), y)
    return x, y


COORD_SYSTEMS = ("WGS84", "WCONGNAMUL", "CONGNAMUL", "WTM", "TM", "KTM", "UTM", "BESSEL", "WKTM", "WUTM")
"""The ten coordinate systems of transcoord (location §4.4), in the spec's order."""
GEO_COORD_SYSTEMS = COORD_SYSTEMS[:5]
"""The five that coord2regioncode and coord2address take (location §4.2, §4.3)."""

MEANING = {
    "WGS84": "longitude and latitude, EPSG:4326",
    "WCONGNAMUL": "WTM × 2.5 in whole numbers",
    "CONGNAMUL": "TM × 2.5 in whole numbers",
    "WTM": "central belt on GRS80, EPSG:5181",
    "TM": "modified central belt on Bessel, EPSG:5174",
    "KTM": "KATEC (TM128) on Bessel",
    "UTM": "UTM zone 52N, EPSG:32652",
    "BESSEL": "Bessel longitude and latitude, EPSG:4162",
    "WKTM": "KATEC's projection on GRS80",
    "WUTM": "UTM-K, EPSG:5179",
}
"""What each system is, in a few words (the full definitions: ``toolkit/sandbox/local/coords.py``)."""

COORD_ALIASES = {
    # WGS84 (KGD2002 / Korea 2000 geographic is GRS80 on ITRF2000: the same as WGS84 to well under 1 m)
    "WGS 84": "WGS84", "EPSG:4326": "WGS84", "OGC:CRS84": "WGS84", "CRS84": "WGS84", "GPS": "WGS84",
    "EPSG:4737": "WGS84", "KGD2002": "WGS84", "Korea 2000": "WGS84",
    "WCONG": "WCONGNAMUL", "CONG": "CONGNAMUL",
    # WTM: KGD2002 / Central Belt (tmerc lat_0 38, lon_0 127, k 1, x_0 200 000, y_0 500 000, GRS80)
    "EPSG:5181": "WTM", "KGD2002 / Central Belt": "WTM", "Korea 2000 / Central Belt": "WTM",
    # TM: Korean 1985 / Modified Central Belt (lon_0 127°00'10.405", Bessel)
    "EPSG:5174": "TM", "Korean 1985 / Modified Central Belt": "TM",
    # KTM: KATEC, also called TM128 (tmerc lat_0 38, lon_0 128, k 0.9999, x_0 400 000, y_0 600 000, Bessel)
    "KATEC": "KTM", "TM128": "KTM", "TM 128": "KTM",
    # UTM: WGS 84 / UTM zone 52N
    "EPSG:32652": "UTM", "UTM 52N": "UTM", "UTM zone 52N": "UTM", "WGS 84 / UTM zone 52N": "UTM", "UTM52": "UTM",
    # BESSEL: Korean 1985 geographic
    "EPSG:4162": "BESSEL", "Korean 1985": "BESSEL",
    # WUTM: UTM-K, KGD2002 / Unified CS (tmerc lat_0 38, lon_0 127.5, k 0.9996, x_0 1 000 000, y_0 2 000 000, GRS80)
    "UTM-K": "WUTM", "UTMK": "WUTM", "EPSG:5179": "WUTM", "KGD2002 / Unified CS": "WUTM",
    "Korea 2000 / Unified CS": "WUTM", "Unified CS": "WUTM",
}
"""Common names of the ten systems → the spec's name. Each is the same system by its definition (a test checks
every EPSG code here against pyproj to 1 mm, or to 0.1 m for the Bessel ones, whose datum shift PROJ may choose
differently). WUTM is not defined publicly by the service; the sandbox's WUTM is UTM-K (EPSG:5179), and so is
this table's."""

NEAR_MISSES = {
    "EPSG:5186": ("Korea 2000 / Central Belt 2010",
                  "it is WTM with y 100 000 m larger (false northing 600 000 m, WTM's is 500 000 m); convert to WTM "
                  "and add 100000 to y"),
    "EPSG:5178": ("Korean 1985 / Unified CS",
                  "it is UTM-K on the Bessel datum, about 370 m from the service's WUTM (UTM-K on GRS80, EPSG:5179); "
                  "convert it to WGS84 first (pyproj) and give WGS84"),
    "EPSG:2097": ("Korean 1985 / Central Belt",
                  "it is the unmodified central belt (lon_0 127°); the service's TM is the modified one (EPSG:5174, "
                  "lon_0 127°00'10.405\"), about 250 m apart; convert it to WGS84 first (pyproj) and give WGS84"),
}
"""Systems people mean when they name one of ours, but which are not the same: refused, saying how they differ."""


def _key(value) -> str:
    text = str(value).strip().upper()
    if text.isdigit():
        text = "EPSG" + text
    return re.sub(r"[\s_\-/.:()]", "", text)


_BY_KEY = {_key(s): s for s in COORD_SYSTEMS} | {_key(k): v for k, v in COORD_ALIASES.items()}
_NEAR_BY_KEY = {_key(k): k for k in NEAR_MISSES}


def _epsg_name(code: str) -> str | None:
    try:
        from pyproj import CRS

        return CRS.from_user_input(code).name
    except Exception:      # not a code pyproj knows: say nothing about it
        return None


def _meant(key: str) -> str | None:
    """The system a name that is none of ours most likely means: one whose name (or a common name of it, of four
    letters or more) it contains, the longest first (``UTMK52`` → UTM-K → WUTM, ``KATECH`` → KATEC → KTM), else
    the nearest name by spelling."""
    for known in sorted((k for k in _BY_KEY if len(k) >= 4), key=len, reverse=True):
        if known in key:
            return _BY_KEY[known]
    found = difflib.get_close_matches(key, list(_BY_KEY), n=1, cutoff=0.6)
    return _BY_KEY[found[0]] if found else None


def coord_system(value, name: str = "input_coord", allowed=COORD_SYSTEMS) -> str:
    """The spec's name of the coordinate system ``value`` names (one of ``allowed``), or a
    :class:`~toolkit.errors.ParameterError` naming what it is and the system it most likely means.

    ``value`` may be a name of the spec in any case (``"wtm"``), a common name of the same system
    (:data:`COORD_ALIASES`: ``"UTM-K"``, ``"KATEC"``, ``"EPSG:5179"``, ``5179``), with spaces, hyphens or
    underscores as people write them.

    >>> coord_system("katec", "output_coord")
    'KTM'
    >>> coord_system("KATEC", "input_coord", GEO_COORD_SYSTEMS)
    Traceback (most recent call last):
    ...
    toolkit.errors.ParameterError: input_coord='KATEC': 'KATEC' is KTM (KATEC (TM128) on Bessel), which this call does not take: it takes WGS84, WCONGNAMUL, CONGNAMUL, WTM, TM; convert the point with transcoord(x, y, input_coord='KTM') first
    >>> coord_system("UTM-K 52")
    Traceback (most recent call last):
    ...
    toolkit.errors.ParameterError: input_coord='UTM-K 52': must be one of WGS84, WCONGNAMUL, CONGNAMUL, WTM, TM, KTM, UTM, BESSEL, WKTM, WUTM (did you mean 'WUTM', UTM-K, EPSG:5179?); common names and EPSG codes of these work too (UTM-K, KATEC, EPSG:5181 …)
    """
    allowed = tuple(allowed)
    if isinstance(value, bool) or not isinstance(value, (str, int)) or not str(value).strip():
        raise ParameterError(name, f"must be one of {', '.join(allowed)} (a name of a coordinate system)", value)
    key = _key(value)
    system = _BY_KEY.get(key)
    if system is not None:
        if system in allowed:
            return system
        raise ParameterError(name, f"{str(value)!r} is {system} ({MEANING[system]}), which this call does not take: "
                                   f"it takes {', '.join(allowed)}; convert the point with "
                                   f"transcoord(x, y, input_coord={system!r}) first", value)
    if key in _NEAR_BY_KEY:
        code = _NEAR_BY_KEY[key]
        title, how = NEAR_MISSES[code]
        raise ParameterError(name, f"{code} ({title}) is none of the service's systems: {how}", value)
    if key.startswith("EPSG") and key[4:].isdigit():
        code = f"EPSG:{key[4:]}"
        named = _epsg_name(code)
        what = f"{code} ({named})" if named else code
        raise ParameterError(name, f"{what} is none of the service's systems ({', '.join(allowed)}); convert the "
                                   f"point to WGS84 first (pyproj) and give WGS84", value)
    meant = _meant(key)
    mean = f" (did you mean {meant!r}, {MEANING[meant]}?)" if meant is not None and meant in allowed else ""
    raise ParameterError(name, f"must be one of {', '.join(allowed)}{mean}; common names and EPSG codes of these "
                               f"work too (UTM-K, KATEC, EPSG:5181 …)", value)
