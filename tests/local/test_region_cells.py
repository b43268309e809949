"""coord2regioncode reads a point's legal and administrative dong from its cell when one answer holds for the
whole cell (toolkit.sandbox.local.models.World.region_codes): the answer must be the one computed for the point
itself (polygon look-up, nearest address of the legal dong within 200 m), at addresses, between them, at sea,
and on the edges of the cells."""
from __future__ import annotations

import random

import pytest

from toolkit.sandbox.app import Sandbox
from toolkit.sandbox.local.models import REGION_CELLS


@pytest.fixture(scope="module")
def world():
    sandbox = Sandbox()
    yield sandbox.model("local").world()
    sandbox.model("events").stop()
    sandbox.store.close()


def _direct(w, x, y):
    b = w.b_region(x, y)
    return b, (None if b is None else w.h_region(b, x, y))


def test_cell_answers_equal_the_answers_for_the_point(world):
    w = world
    rng = random.Random(11)
    x1, y1, x2, y2 = w.bbox
    points = []
    for _ in range(1500):
        a = rng.choice(w.addresses)
        points.append((a["_x"], a["_y"]))                                       # at an address
        points.append((a["_x"] + rng.uniform(-0.003, 0.003), a["_y"] + rng.uniform(-0.003, 0.003)))
        for size in REGION_CELLS:                                               # on cells' edges and corners
            fx, fy = int(a["_x"] / size), int(a["_y"] / size)
            points.append((fx * size, a["_y"]))
            points.append(((fx + 1) * size, (fy + 1) * size))
        points.append((rng.uniform(x1, x2), rng.uniform(y1, y2)))               # anywhere (land or sea)
    from_cells = 0
    for x, y in points:
        assert w.region_codes(x, y) == _direct(w, x, y), (x, y)
        from_cells += any(w.__dict__["_region_cells"].get((int(x / c), int(y / c), int(x / 0.002), int(y / 0.002), c))
                          for c in REGION_CELLS)
    assert from_cells > len(points) // 3            # the cells do answer for many points (else no use)


def test_a_point_asked_twice_answers_the_same(world):
    rng = random.Random(12)
    for _ in range(200):
        a = rng.choice(world.addresses)
        x, y = a["_x"] + rng.uniform(-0.001, 0.001), a["_y"] + rng.uniform(-0.001, 0.001)
        first = world.region_codes(x, y)
        assert world.region_codes(x, y) == first == _direct(world, x, y)
