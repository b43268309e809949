"""Coordinate systems of the local API (location.md §4.2–4.4) with pyproj.

Definitions (proj strings; the EPSG code is given where one matches):

* ``WGS84``   ``EPSG:4326`` with x = longitude, y = latitude.
* ``WTM``     ``+proj=tmerc +lat_0=38 +lon_0=127 +k=1 +x_0=200000 +y_0=500000 +ellps=GRS80 +units=m`` (central
  belt, GRS80, no datum shift: WGS84 and GRS80 coordinates are taken as the same, so WTM↔WGS84 is a direct
  projection with no Bessel round trip).
* ``TM``      ``+proj=tmerc +lat_0=38 +lon_0=127.0028902777778 +k=1 +x_0=200000 +y_0=500000 +ellps=bessel
  +towgs84=-115.80,474.99,674.11,1.16,-2.31,-1.63,6.43`` (old Korean central belt, Bessel, 7-parameter shift).
* ``KTM``     as TM with ``+lon_0=128 +k=0.9999 +x_0=400000 +y_0=600000``.
* ``WKTM``    as KTM on GRS80 with no datum shift.
* ``UTM``     ``EPSG:32652`` (UTM zone 52N, WGS84).
* ``BESSEL``  ``+proj=longlat +ellps=bessel +towgs84=…`` (the TM shift): Bessel geographic degrees.
* ``WCONGNAMUL`` WTM × 2.5, rounded half-up to whole numbers on output (÷ 2.5 on input).
* ``CONGNAMUL``  TM × 2.5, rounded the same way. The legacy offsets of the old maps for Jeju and Ulleung are
  not applied: the sandbox world is Busan, where they never apply.
* ``WUTM``    not defined publicly; the sandbox uses UTM-K, ``EPSG:5179`` (``+proj=tmerc +lat_0=38 +lon_0=127.5
  +k=0.9996 +x_0=1000000 +y_0=2000000 +ellps=GRS80``), the national unified grid on GRS80.
"""
from __future__ import annotations

import decimal
import functools

TOWGS84 = "+towgs84=-115.80,474.99,674.11,1.16,-2.31,-1.63,6.43"
PROJ = {
    "WGS84": "EPSG:4326",
    "WTM": "+proj=tmerc +lat_0=38 +lon_0=127 +k=1 +x_0=200000 +y_0=500000 +ellps=GRS80 +units=m +no_defs",
    "TM": f"+proj=tmerc +lat_0=38 +lon_0=127.0028902777778 +k=1 +x_0=200000 +y_0=500000 +ellps=bessel {TOWGS84}"
          " +units=m +no_defs",
    "KTM": f"+proj=tmerc +lat_0=38 +lon_0=128 +k=0.9999 +x_0=400000 +y_0=600000 +ellps=bessel {TOWGS84}"
           " +units=m +no_defs",
    "WKTM": "+proj=tmerc +lat_0=38 +lon_0=128 +k=0.9999 +x_0=400000 +y_0=600000 +ellps=GRS80 +units=m +no_defs",
    "UTM": "EPSG:32652",
    "BESSEL": f"+proj=longlat +ellps=bessel {TOWGS84} +no_defs",
    "WUTM": "EPSG:5179",
}
CONGNAMUL = {"WCONGNAMUL": "WTM", "CONGNAMUL": "TM"}
SYSTEMS = ("WGS84", "WCONGNAMUL", "CONGNAMUL", "WTM", "TM", "KTM", "UTM", "BESSEL", "WKTM", "WUTM")
GEO_SYSTEMS = SYSTEMS[:5]  # coord2regioncode / coord2address accept these five


@functools.lru_cache(maxsize=None)
def _transformer(src: str, dst: str):
    from pyproj import CRS, Transformer

    return Transformer.from_crs(CRS.from_user_input(PROJ[src]), CRS.from_user_input(PROJ[dst]), always_xy=True)


def _half_up(v: float) -> float:
    return float(decimal.Decimal(repr(v)).quantize(decimal.Decimal(1), rounding=decimal.ROUND_HALF_UP))


def transform(x: float, y: float, src: str, dst: str) -> tuple[float, float]:
    """Convert one point from ``src`` to ``dst`` (names of :data:`SYSTEMS`)."""
    if src == dst:
        return x, y
    base_src, base_dst = CONGNAMUL.get(src, src), CONGNAMUL.get(dst, dst)
    if src in CONGNAMUL:
        x, y = x / 2.5, y / 2.5
    if base_src != base_dst:
        x, y = _transformer(base_src, base_dst).transform(x, y)
    if dst in CONGNAMUL:
        x, y = _half_up(x * 2.5), _half_up(y * 2.5)
    return float(x), float(y)
