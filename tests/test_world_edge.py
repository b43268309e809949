"""The world's edge: a call about a point outside the sandbox's city returns its (empty) answer with a warning
naming the city and its bounds; a client of a real service (no sandbox) never warns."""
from __future__ import annotations

import warnings

import pytest

import toolkit
from toolkit.errors import OutsideSandboxCityWarning

SEOUL = (126.9780, 37.5665)
SEOMYEON = (129.0592, 35.1579)
BOUNDS = "x (longitude) 128.7618 to 129.3055, y (latitude) 34.8844 to 35.3890"


def test_the_sandbox_tells_its_city_and_bounds(tk):
    world = tk.sandbox.world()
    assert world["city"] == "Busan" and world["city_ko"] == "부산광역시"
    left, bottom, right, top = world["bounds"]
    assert left < SEOMYEON[0] < right and bottom < SEOMYEON[1] < top
    assert tk.sandbox.config()["world"] == world


def test_seoul_gives_empty_answers_with_a_warning_naming_busan_and_its_bounds(tk):
    with pytest.warns(OutsideSandboxCityWarning) as seen:
        regions = tk.local.regions(*SEOUL)
    assert len(regions) == 0
    text = str(seen[0].message)
    assert text.startswith("local.regions: the point (126.978, 37.5665) lies outside the sandbox's city, Busan "
                           f"(부산광역시): {BOUNDS}.")
    assert "the real service answers for its whole country" in text
    assert seen[0].filename == __file__
    with pytest.warns(OutsideSandboxCityWarning, match=r"local\.keyword: the point \(126\.978, 37\.5665\)"):
        assert len(tk.local.keyword("카페", x=SEOUL[0], y=SEOUL[1], radius=1000)) == 0
    with pytest.warns(OutsideSandboxCityWarning, match=r"local\.category: the area \(126\.9, 37\.5, 127, 37\.6\)"):
        assert len(tk.local.category("CE7", rect=(126.9, 37.5, 127.0, 37.6))) == 0
    with pytest.warns(OutsideSandboxCityWarning, match=r"navi\.directions: 1 of 2 points, \(126\.978, 37\.5665\), "
                                                       r"lie outside the sandbox's city, Busan"):
        assert not tk.navi.directions(SEOUL, SEOMYEON).ok


def test_points_inside_the_city_and_a_real_service_client_do_not_warn(tk, sandbox_server):
    app = sandbox_server.app_config()
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert len(tk.local.regions(*SEOMYEON)) == 2
        tk.local.category("CE7", x=SEOMYEON[0], y=SEOMYEON[1], radius=300)
        tk.local.keyword("카페", rect=toolkit.local.BUSAN_RECT, size=1)      # overlaps the city: no warning
        with toolkit.connect(sandbox_server.hosts(), rest_api_key=app["rest_api_key"]) as service:
            assert service.sandbox is None
            assert len(service.local.regions(*SEOUL)) == 0                  # the real service: its own answer
