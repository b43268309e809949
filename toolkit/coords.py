"""The one check of WGS84 points, shared by every call that takes coordinates (local, navi).

``x`` is the longitude (-180 to 180) and ``y`` the latitude (-90 to 90). A point outside these bounds is
refused before any request with a :class:`~toolkit.errors.ParameterError` naming the parameter and the bound;
when the two look swapped (a latitude given as x and a longitude as y), the message says so.

>>> lonlat(129.0592, 35.1579)
(129.0592, 35.1579)
>>> lonlat(35.1579, 129.0592)
Traceback (most recent call last):
...
toolkit.errors.ParameterError: y=129.0592: must be a latitude from -90 to 90 (WGS84) — x and y look swapped: x is the longitude, y the latitude
"""
from __future__ import annotations

import math

from .errors import ParameterError

__all__ = ["lonlat", "number", "LON_BOUND", "LAT_BOUND"]

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
