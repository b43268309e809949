"""Coordinate systems of transcoord against reference values: belt origins, a published WGS84↔WTM pair, the
WCONGNAMUL rounding and the legacy CONGNAMUL island offsets (1 cm / 1e-7°)."""
from __future__ import annotations

import math

import pytest

from toolkit.sandbox.local.coords import ISLAND_SHIFTS, _half_up, transform

CM, DEG = 0.01, 1e-7
# The platform's own documented example: WTM (160710.37729270622, -4388.879299157299) is WGS84
# (126.57740680000002, 33.453357700000005) — a point on Jeju.
WTM_PUBLISHED = (160710.37729270622, -4388.879299157299)
WGS_PUBLISHED = (126.57740680000002, 33.453357700000005)
JEONPO = (129.068245, 35.154101)


def test_published_wtm_pair_both_ways():
    assert transform(*WTM_PUBLISHED, "WTM", "WGS84") == pytest.approx(WGS_PUBLISHED, abs=DEG)
    assert transform(*WGS_PUBLISHED, "WGS84", "WTM") == pytest.approx(WTM_PUBLISHED, abs=CM)


@pytest.mark.parametrize("src, point, dst, expected", [
    ("WGS84", (127.0, 38.0), "WTM", (200000.0, 500000.0)),            # WTM origin
    ("WGS84", (128.0, 38.0), "WKTM", (400000.0, 600000.0)),           # WKTM origin
    ("BESSEL", (127.0028902777778, 38.0), "TM", (200000.0, 500000.0)),  # TM origin is on Bessel (+10.405")
    ("BESSEL", (128.0, 38.0), "KTM", (400000.0, 600000.0)),           # KTM origin on Bessel
    ("WGS84", (129.0, 0.0), "UTM", (500000.0, 0.0)),                  # zone 52N: central meridian 129°E
    ("WGS84", (127.5, 38.0), "WUTM", (1000000.0, 2000000.0)),         # the documented WUTM choice (UTM-K)
])
def test_origins(src, point, dst, expected):
    assert transform(*point, src, dst) == pytest.approx(expected, abs=CM)
    assert transform(*expected, dst, src) == pytest.approx(point, abs=DEG)


def _meridian_arc(lat_deg: float, a: float = 6378137.0, f: float = 1 / 298.257223563, n: int = 2000) -> float:
    """Meridian arc length from the equator (Simpson's rule, independent of pyproj)."""
    e2 = f * (2 - f)
    phi = math.radians(lat_deg)
    h = phi / n
    g = [a * (1 - e2) / (1 - e2 * math.sin(i * h) ** 2) ** 1.5 for i in range(n + 1)]
    return h / 3 * (g[0] + g[-1] + 4 * sum(g[1:-1:2]) + 2 * sum(g[2:-1:2]))


def test_utm_zone_52n_reference():
    # on the central meridian (129°E) easting is 500000 and northing is 0.9996 × the meridian arc
    x, y = transform(129.0, 35.0, "WGS84", "UTM")
    assert x == pytest.approx(500000.0, abs=CM) and y == pytest.approx(0.9996 * _meridian_arc(35.0), abs=CM)
    # WTM on its central meridian: northing = arc(lat) − arc(38°) + 500000 (k = 1, GRS80 ≈ WGS84 to < 0.1 mm)
    _, wy = transform(127.0, 35.0, "WGS84", "WTM")
    assert wy == pytest.approx(_meridian_arc(35.0) - _meridian_arc(38.0) + 500000.0, abs=CM)


def test_tm_differs_from_wtm_by_the_datum_shift_only():
    tm = transform(*JEONPO, "WGS84", "TM")
    wtm = transform(*JEONPO, "WGS84", "WTM")
    assert 100 < math.dist(tm, wtm) < 1000
    # TM ↔ BESSEL stays on one ellipsoid: the same TM point through BESSEL and back
    b = transform(*tm, "TM", "BESSEL")
    assert transform(*b, "BESSEL", "TM") == pytest.approx(tm, abs=CM)


def test_every_system_round_trips():
    for system in ("WTM", "TM", "KTM", "UTM", "BESSEL", "WKTM", "WUTM"):
        there = transform(*JEONPO, "WGS84", system)
        assert transform(*there, system, "WGS84") == pytest.approx(JEONPO, abs=DEG), system


def test_half_up_rounding():
    assert [_half_up(v) for v in (0.5, 1.5, 2.5, -0.5, -2.5, 2.4999999, 0.49999999999999994)] == \
        [1.0, 2.0, 3.0, 0.0, -2.0, 2.0, 0.0]


def test_wcongnamul_is_wtm_times_2_5_rounded():
    wx, wy = transform(*JEONPO, "WGS84", "WTM")
    cx, cy = transform(*JEONPO, "WGS84", "WCONGNAMUL")
    assert (cx, cy) == (math.floor(wx * 2.5 + 0.5), math.floor(wy * 2.5 + 0.5))
    assert transform(cx, cy, "WCONGNAMUL", "WTM") == pytest.approx((cx / 2.5, cy / 2.5), abs=1e-6)
    # the published point: WCONGNAMUL has no island offset
    assert transform(*WTM_PUBLISHED, "WTM", "WCONGNAMUL") == (401776.0, -10972.0)


@pytest.mark.parametrize("name, lonlat, shift", [
    ("Busan (no offset)", JEONPO, (0, 0)),
    ("Jeju", WGS_PUBLISHED, (0, 50000)),
    ("Ulleung", (130.9057, 37.4842), (-70378, -136)),
    ("Dokdo", (131.8669, 37.2412), (-144738, -2161)),
    ("Baengnyeong", (124.7, 37.97), (23510, -111)),
])
def test_congnamul_island_offsets(name, lonlat, shift):
    tm = transform(*lonlat, "WGS84", "TM")
    cong = transform(*lonlat, "WGS84", "CONGNAMUL")
    assert cong == (_half_up((tm[0] + shift[0]) * 2.5), _half_up((tm[1] + shift[1]) * 2.5)), name
    # back: ÷ 2.5, the offset removed; exact up to the 0.4 m grid of CONGNAMUL
    back_tm = transform(*cong, "CONGNAMUL", "TM")
    assert back_tm == pytest.approx(tm, abs=0.21), name
    assert transform(*cong, "CONGNAMUL", "WGS84") == pytest.approx(lonlat, abs=3e-6), name


def test_island_boxes_do_not_swallow_the_mainland():
    # shifted boxes must not overlap an unshifted mainland point's TM: Busan and Seoul convert without offset
    for lonlat in (JEONPO, (126.978, 37.5665), (128.6, 35.87)):
        tm = transform(*lonlat, "WGS84", "TM")
        assert transform(*lonlat, "WGS84", "CONGNAMUL") == (_half_up(tm[0] * 2.5), _half_up(tm[1] * 2.5))
    assert len(ISLAND_SHIFTS) == 8


def test_transcoord_endpoint_matches_the_published_pair(tk):
    out = tk.local.transcoord(*WTM_PUBLISHED, input_coord="WTM", output_coord="WGS84")
    assert (out.loc[0, "x"], out.loc[0, "y"]) == pytest.approx(WGS_PUBLISHED, abs=DEG)
    cong = tk.local.transcoord(*WGS_PUBLISHED, output_coord="CONGNAMUL")
    assert (cong.loc[0, "x"], cong.loc[0, "y"]) == transform(*WGS_PUBLISHED, "WGS84", "CONGNAMUL")
