"""Coordinate systems of the local API (location §4.2–4.4) with pyproj.

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
* ``WCONGNAMUL`` WTM × 2.5, rounded half-up (towards +∞, like ``floor(v + 0.5)``) to whole numbers on output
  (÷ 2.5 on input). No island offsets.
* ``CONGNAMUL``  TM × 2.5, rounded the same way, with the legacy island offsets of the old web maps: a TM point
  (easting E, northing N, metres) inside one of the boxes of :data:`ISLAND_SHIFTS` is moved by that box's
  (dE, dN) before the × 2.5, so the islands were drawn next to the mainland: Jeju and its neighbours
  (N + 50000, three boxes south of N 8600), Chuja (N + 10000), Ulleung (E − 70378, N − 136), Dokdo
  (E − 144738, N − 2161), the north-western islands (E + 23510, N − 111). Input: ÷ 2.5 first, then a point
  inside a *shifted* box is moved back. The boxes are closed intervals, the first one that matches wins. (The
  Busan world never meets them, but transcoord converts any point.)
* ``WUTM``    not defined publicly; the sandbox uses UTM-K, ``EPSG:5179`` (``+proj=tmerc +lat_0=38 +lon_0=127.5
  +k=0.9996 +x_0=1000000 +y_0=2000000 +ellps=GRS80``), the national unified grid on GRS80.
"""
from __future__ import annotations

import decimal
import functools
import math

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

# Legacy CONGNAMUL island offsets: (E min, E max, N min, N max) of a box in TM metres, and the (dE, dN) added
# to a point inside it before the × 2.5 (facts of the old web maps' coordinate converter).
ISLAND_SHIFTS = (
    ((112500, 146000, -50000, 3000), (0, 50000)),        # Jeju, west
    ((146000, 191600, -50000, 8600), (0, 50000)),        # Jeju
    ((130000, 145000, 44000, 58000), (0, 10000)),        # Chuja islands
    ((532500, 557500, 437500, 462500), (-70378, -136)),  # Ulleung
    ((625000, 650000, 412500, 437500), (-144738, -2161)),  # Dokdo
    ((-12500, 5000, 462500, 512500), (23510, -111)),      # Baengnyeong and the north-western islands
    ((191600, 194200, -50000, 2700), (0, 50000)),        # Jeju, east
    ((194200, 200000, -50000, 8600), (0, 50000)),        # Jeju, east (Udo)
)


def island_shift(e: float, n: float, *, to_cong: bool) -> tuple[float, float]:
    """The legacy offset of CONGNAMUL: applied to TM metres before × 2.5 (``to_cong``), removed after ÷ 2.5."""
    for (e0, e1, n0, n1), (de, dn) in ISLAND_SHIFTS:
        if to_cong:
            if e0 <= e <= e1 and n0 <= n <= n1:
                return e + de, n + dn
        elif e0 + de <= e <= e1 + de and n0 + dn <= n <= n1 + dn:
            return e - de, n - dn
    return e, n


@functools.lru_cache(maxsize=64)   # one per pair of the 8 base systems of PROJ (56 pairs: every one fits)
def _transformer(src: str, dst: str):
    from pyproj import CRS, Transformer

    return Transformer.from_crs(CRS.from_user_input(PROJ[src]), CRS.from_user_input(PROJ[dst]), always_xy=True)


def _half_up(v: float) -> float:
    """Round to a whole number, halves towards +∞ (``floor(v + 0.5)`` without float error)."""
    if not math.isfinite(v):
        return v
    return float((decimal.Decimal(v) + decimal.Decimal("0.5")).to_integral_value(rounding=decimal.ROUND_FLOOR))


def transform(x: float, y: float, src: str, dst: str) -> tuple[float, float]:
    """Convert one point from ``src`` to ``dst`` (names of :data:`SYSTEMS`)."""
    if src == dst:
        return x, y
    base_src, base_dst = CONGNAMUL.get(src, src), CONGNAMUL.get(dst, dst)
    if src in CONGNAMUL:
        x, y = x / 2.5, y / 2.5
        if src == "CONGNAMUL":
            x, y = island_shift(x, y, to_cong=False)
    if base_src != base_dst:
        x, y = _transformer(base_src, base_dst).transform(x, y)
    if dst in CONGNAMUL:
        if dst == "CONGNAMUL":
            x, y = island_shift(x, y, to_cong=True)
        x, y = _half_up(x * 2.5), _half_up(y * 2.5)
    return float(x), float(y)
