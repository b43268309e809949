"""Every cache of the sandbox states its bound and keeps to it (``tests/bench/bench_soak.py`` measures the whole
process over a long run; these check the bounds one by one, with requests a long run makes: made-up keywords,
random points, names a request path may hold, days going by)."""
import random

import numpy as np

from toolkit.sandbox.app import Sandbox
from toolkit.sandbox.local import models as local_models
from toolkit.sandbox.local.placeindex import Kept
from toolkit.sandbox.pages import _font_bytes, font_bytes


def test_kept_counts_what_an_entry_holds_not_only_its_arrays():
    kept = Kept(lambda key: (np.empty(0, dtype=np.int64), np.empty(0, dtype=np.int8)), limit=100_000)
    for i in range(5000):                     # keywords that find nothing: empty arrays, keys of their own
        kept.get(((f"없는말{i}",), None))
    assert kept.bytes <= 100_000 and len(kept.items) < 300
    assert kept.bytes == sum(Kept._size(k, v) for k, v in kept.items.items())


def test_font_names_not_served_are_not_kept():
    _font_bytes.cache_clear()
    for i in range(100):
        assert font_bytes(f"nothing-{i}.ttf") is None
    assert _font_bytes.cache_info().currsize == 0
    assert font_bytes("NanumGothic.ttf") is font_bytes("NanumGothic.ttf")


def test_neighbourhoods_of_random_points_are_bounded(monkeypatch):
    monkeypatch.setattr(local_models, "NEAR_KEPT", 50)
    monkeypatch.setattr(local_models, "REGION_CELLS_KEPT", 50)
    sandbox = Sandbox()
    model = sandbox.model("local")
    rng = random.Random(3)
    answers = []
    for _ in range(300):
        x, y = rng.uniform(128.9, 129.2), rng.uniform(35.05, 35.25)
        answers.append((model.regions_at(x, y, "WGS84"), model.address_at(x, y)))
    world = model.world()
    assert len(world.address_arrays["near"]) <= 50 and len(world.__dict__["_region_cells"]) <= 50
    rng = random.Random(3)                    # the same points again, from emptied tables: the same answers
    for before in answers:
        x, y = rng.uniform(128.9, 129.2), rng.uniform(35.05, 35.25)
        assert (model.regions_at(x, y, "WGS84"), model.address_at(x, y)) == before


def test_kept_json_text_is_its_own_size():
    sandbox = Sandbox()
    world = sandbox.model("local").world()
    raw = world.place_json(0)
    assert raw == world.place_json(0) and len(raw) < 2000
    import sys

    assert sys.getsizeof(raw) < len(raw) + 64           # not orjson's buffer of 4 kB and more


def test_quota_counts_of_old_days_are_deleted_and_todays_kept():
    from toolkit.sandbox.apps.models import QUOTA_DAYS_KEPT

    sandbox = Sandbox(frozen=True)
    apps = sandbox.apps
    apps.charge("100001", "local_search_address")
    old = "2020-01-01"
    sandbox.store.execute("INSERT INTO quota_use VALUES ('100001', 'local_search_address', ?, 5)", old)
    assert apps.usage("100001", "local_search_address", old) == 5
    sandbox.clock.change(advance=86400)          # the next day: counts older than QUOTA_DAYS_KEPT days go
    apps.charge("100001", "local_search_address")
    assert apps.usage("100001", "local_search_address", old) == 0
    assert apps.usage("100001", "local_search_address") == 1
    yesterday = sandbox.store.all("SELECT day, used FROM quota_use WHERE day > ?", old)
    assert [r["used"] for r in yesterday] == [1, 1] and QUOTA_DAYS_KEPT >= 7
