"""A page of places is written from JSON text kept per place (``_Page.json``): the bytes must be those of
``json.dumps`` of the page's documents as dicts, for keyword and category searches, with and without a centre
(``distance`` a number, or ``""`` in a category document without one), on every page, and read twice (the
kept text is reused)."""
from __future__ import annotations

import json
import random

import pytest

from toolkit.sandbox.app import Sandbox
from toolkit.sandbox.local import routes
from toolkit.sandbox.web import Params

CITY = "128.76,34.88,129.32,35.40"


@pytest.fixture(scope="module")
def model():
    sandbox = Sandbox()
    yield sandbox.model("local")
    sandbox.store.close()


def searches():
    rng = random.Random(3)
    words = ["카페", "약국", "서면 맛집", "해운대 호텔", "편의점", "부산역", "병원", "은행", "주차장", "국밥", "e-",
             "0.0000", "부산진구 카페", "스타벅스"]
    for _ in range(60):
        x, y = round(rng.uniform(128.9, 129.2), 6), round(rng.uniform(35.05, 35.3), 6)
        page = str(rng.randint(1, 4))
        yield routes.search_keyword, {"query": rng.choice(words), "rect": CITY, "page": page}
        yield routes.search_keyword, {"query": rng.choice(words), "x": str(x), "y": str(y), "radius": "3000",
                                      "sort": rng.choice(["accuracy", "distance"]), "page": page}
        yield routes.search_category, {"category_group_code": rng.choice(["CE7", "FD6", "PM9", "SW8"]),
                                       "x": str(x), "y": str(y), "radius": "1500", "page": page}
        yield routes.search_category, {"category_group_code": "CS2", "rect": "129.0,35.1,129.1,35.2", "page": page}


def test_page_bytes_are_the_documents_json(model):
    pages = 0
    for compute, fields in searches():
        for _ in range(2):
            meta, shown = compute(model, Params(fields))
            got = routes._json(meta, shown)
            want = json.dumps({"meta": meta, "documents": [dict(d) for d in shown]}, ensure_ascii=False,
                              separators=(",", ":")).encode()
            assert got == want, fields
        pages += bool(len(shown))
        if hasattr(shown, "json"):
            assert shown.json() is not None
    assert pages > 80


def test_address_page_bytes_are_the_documents_json(model):
    from tests.bench.procs import addresses

    texts = addresses(200)
    queries = texts + [t.rsplit("-", 1)[0] for t in texts if "-" in t][:80] + ["부산진구 전포동 341", "서면", "부산진구",
                                                                           "해운대구 우동 1", "중앙대로", "롯데"]
    made = 0
    for text in queries:
        for fields in ({"query": text}, {"query": text, "size": "3", "page": "2"},
                       {"query": text, "analyze_type": "exact"}):
            for _ in range(2):        # the second search reads what the first kept
                meta, shown = routes.search_address(model, Params(fields))
                got = routes._json(meta, shown)
                want = json.dumps({"meta": meta, "documents": [dict(d) for d in shown]}, ensure_ascii=False,
                                  separators=(",", ":")).encode()
                assert got == want, fields
            made += hasattr(shown, "json") and shown.json() is not None
    assert made > 200


def test_long_query_texts_are_not_kept(model):
    """What the model keeps per query text is bounded in size: 4,096 texts of at most 256 characters."""
    from toolkit.sandbox.local.models import KEPT_TEXT_MAX, REGION_WORDS_KEPT

    long = "부산진구 " + "카페" * 5000
    before = (len(model._recognised), len(model._regions_read))
    routes.search_keyword(model, Params({"query": long, "rect": CITY}))
    routes.search_address(model, Params({"query": long}))
    assert (len(model._recognised), len(model._regions_read)) == before
    routes.search_keyword(model, Params({"query": "부산진구 카페", "rect": CITY}))
    assert "부산진구 카페" in model._recognised and KEPT_TEXT_MAX * REGION_WORDS_KEPT <= 2 ** 20


def test_what_a_number_keeps_is_bounded_by_the_data(model):
    """A sub-number that no address has is answered but not kept on its number's group."""
    from tests.bench.procs import addresses

    text = next(t for t in addresses(200) if "-" in t)
    base = text.rsplit("-", 1)[0]
    routes.search_address(model, Params({"query": text}))
    w = model.world()
    groups = [g for cache in w.__dict__["_by_main"].values() for g in cache.values() if g.found]
    kept = sum(len(g.found) for g in groups)
    for n in range(50):
        meta, shown = routes.search_address(model, Params({"query": f"{base}-{900000 + n}"}))
        assert meta["total_count"] >= 1        # the number's other addresses, as before
    assert sum(len(g.found) for g in groups) == kept
