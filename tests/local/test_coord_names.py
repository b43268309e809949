"""Coordinate-system names people bring: every common name (EPSG codes, UTM-K, KATEC, any case) resolves to the
system it is by definition — checked numerically against pyproj, not by spelling — and a name of another system
is refused with the one it most likely means."""
from __future__ import annotations

import math

import pytest

from toolkit.coords import COORD_ALIASES, COORD_SYSTEMS, GEO_COORD_SYSTEMS, NEAR_MISSES, coord_system
from toolkit.errors import ParameterError
from toolkit.sandbox.local.coords import transform

# Points across the country (Busan, Jeju, Seoul, the east coast), longitude and latitude (WGS84).
POINTS = [(129.068245, 35.154101), (126.5774068, 33.4533577), (126.9780, 37.5665), (129.3650, 36.0190)]
KATEC = ("+proj=tmerc +lat_0=38 +lon_0=128 +k=0.9999 +x_0=400000 +y_0=600000 +ellps=bessel +units=m "
         "+towgs84=-115.80,474.99,674.11,1.16,-2.31,-1.63,6.43 +no_defs")   # KATEC / TM128 as published
BESSEL_BASED = {"TM", "KTM", "BESSEL"}


def _pyproj_xy(crs: str, lon: float, lat: float) -> tuple[float, float]:
    from pyproj import Transformer

    return Transformer.from_crs("EPSG:4326", crs, always_xy=True).transform(lon, lat)


def _metres(system: str, a, b) -> float:
    if system in ("WGS84", "BESSEL"):        # degrees: about 111 km a degree, 89 km a degree of longitude here
        return math.hypot((a[0] - b[0]) * 89_000, (a[1] - b[1]) * 111_000)
    return math.dist(a, b)


EPSG_ALIASES = sorted((name, system) for name, system in COORD_ALIASES.items() if name.startswith(("EPSG:", "OGC:")))


@pytest.mark.parametrize("name, system", EPSG_ALIASES)
def test_every_epsg_alias_is_the_same_system_as_pyproj_defines_it(name, system):
    # GRS80-based systems agree to 1 mm; the Bessel ones to 0.1 m (PROJ may pick another Korean 1985 datum shift
    # than the sandbox's 7 parameters; the projections themselves are the same)
    tolerance = 0.1 if system in BESSEL_BASED else 0.001
    for lon, lat in POINTS:
        ours = transform(lon, lat, "WGS84", system)
        theirs = _pyproj_xy(name, lon, lat)
        assert _metres(system, ours, theirs) < tolerance, (name, system, ours, theirs)
    assert coord_system(name, "output_coord") == system


def test_katec_and_tm128_are_ktm_and_utm_k_is_the_sandboxs_wutm():
    for lon, lat in POINTS:
        assert math.dist(transform(lon, lat, "WGS84", "KTM"), _pyproj_xy(KATEC, lon, lat)) < 0.001
        assert math.dist(transform(lon, lat, "WGS84", "WUTM"), _pyproj_xy("EPSG:5179", lon, lat)) < 0.001
        # UTM (zone 52N) is another system: hundreds of kilometres from UTM-K's numbers
        assert math.dist(transform(lon, lat, "WGS84", "UTM"), transform(lon, lat, "WGS84", "WUTM")) > 100_000
    for name in ("KATEC", "katec", "TM128", "tm 128"):
        assert coord_system(name) == "KTM"
    for name in ("UTM-K", "utm-k", "UTMK", "utm_k", "EPSG:5179", "epsg 5179", 5179, "5179", "Korea 2000 / Unified CS"):
        assert coord_system(name) == "WUTM"


@pytest.mark.parametrize("system", COORD_SYSTEMS)
def test_the_spec_names_in_any_case(system):
    assert coord_system(system) == system
    assert coord_system(system.lower()) == system
    assert coord_system(f" {system.title()} ") == system


@pytest.mark.parametrize("typed, meant", [
    ("UTM-K 52", "WUTM"), ("utmk_grs80", "WUTM"),      # UTM-K, not UTM zone 52N (which is spelled closer)
    ("KATECH", "KTM"), ("wgs-1984", "WGS84"), ("Bessel1841", "BESSEL"), ("wcongnamool", "WCONGNAMUL"),
])
def test_a_name_of_no_system_suggests_the_system_it_means(typed, meant):
    with pytest.raises(ParameterError, match=rf"did you mean '{meant}'"):
        coord_system(typed, "output_coord")


def test_near_misses_are_refused_saying_how_they_differ_checked_against_pyproj():
    # EPSG:5186 is WTM with y 100 000 m larger, exactly
    for lon, lat in POINTS:
        wx, wy = transform(lon, lat, "WGS84", "WTM")
        assert _pyproj_xy("EPSG:5186", lon, lat) == pytest.approx((wx, wy + 100_000), abs=0.001)
    with pytest.raises(ParameterError, match=r"EPSG:5186 \(Korea 2000 / Central Belt 2010\) .* WTM with y 100 000 m"):
        coord_system("EPSG:5186")
    # EPSG:5178 is UTM-K on Bessel: about 370 m from WUTM, not the same
    gap = [math.dist(_pyproj_xy("EPSG:5178", lon, lat), transform(lon, lat, "WGS84", "WUTM")) for lon, lat in POINTS]
    assert all(300 < g < 450 for g in gap)
    with pytest.raises(ParameterError, match=r"UTM-K on the Bessel datum, about 370 m"):
        coord_system("epsg:5178")
    # EPSG:2097 (unmodified central belt) is not TM (the modified one): about 250 m apart
    gap = [math.dist(_pyproj_xy("EPSG:2097", lon, lat), transform(lon, lat, "WGS84", "TM")) for lon, lat in POINTS]
    assert all(200 < g < 300 for g in gap)
    assert set(NEAR_MISSES) == {"EPSG:5186", "EPSG:5178", "EPSG:2097"}
    with pytest.raises(ParameterError, match=r"EPSG:3857 \(WGS 84 / Pseudo-Mercator\) is none of the service's"):
        coord_system("EPSG:3857")


def test_the_client_sends_the_spec_name_and_gets_the_same_answer(tk):
    lon, lat = POINTS[0]
    for alias, system in (("UTM-K", "WUTM"), ("katec", "KTM"), ("EPSG:5181", "WTM"), ("wgs84", "WGS84"),
                          ("EPSG:32652", "UTM")):
        a = tk.local.transcoord(lon, lat, output_coord=alias)
        b = tk.local.transcoord(lon, lat, output_coord=system)
        assert (a.x[0], a.y[0]) == (b.x[0], b.y[0])
    utmk = tk.local.transcoord(lon, lat, output_coord="UTM-K")
    assert math.dist((utmk.x[0], utmk.y[0]), _pyproj_xy("EPSG:5179", lon, lat)) < 0.01
    back = tk.local.transcoord(utmk.x[0], utmk.y[0], input_coord="epsg:5179", output_coord="epsg:4326")
    assert (back.x[0], back.y[0]) == pytest.approx((lon, lat), abs=1e-7)
    where = tk.local.regions(*transform(lon, lat, "WGS84", "WTM"), input_coord="EPSG:5181")
    assert set(where["region_type"]) == {"B", "H"}
    assert tk.local.coord2address(lon, lat, input_coord="wgs 84")["address.address_name"].iloc[0]


def test_the_client_refuses_before_any_request_with_the_meaning(tk):
    before = len(tk.core.attempts_log)
    with pytest.raises(ParameterError, match=r"output_coord='UTM-K 52': .*did you mean 'WUTM', UTM-K, EPSG:5179\?"):
        tk.local.transcoord(129.0592, 35.1579, output_coord="UTM-K 52")
    with pytest.raises(ParameterError, match=r"input_coord='KATEC': 'KATEC' is KTM .* does not take: it takes "
                                             r"WGS84, WCONGNAMUL, CONGNAMUL, WTM, TM; convert the point with "
                                             r"transcoord\(x, y, input_coord='KTM'\) first"):
        tk.local.coord2address(300000, 200000, input_coord="KATEC")
    with pytest.raises(ParameterError, match=r"output_coord='UTM': .* it takes WGS84, WCONGNAMUL"):
        tk.local.regions(129.0592, 35.1579, output_coord="UTM")
    with pytest.raises(ParameterError, match=r"EPSG:5186"):
        tk.local.transcoord(200000, 600000, input_coord=5186)
    assert len(tk.core.attempts_log) == before
    assert GEO_COORD_SYSTEMS == ("WGS84", "WCONGNAMUL", "CONGNAMUL", "WTM", "TM")
