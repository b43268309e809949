"""The array-based place search (toolkit.sandbox.local.placeindex) gives exactly what the rule of location §4.5/
§4.6 written as a plain loop over every place gives: the same total count and the same documents in the same
order, for keyword and category searches with every filter (region words, category group, rect, centre and
radius, sort=distance). The loop below is the reference: the rule as the sandbox's docstring states it."""
from __future__ import annotations

import random

import pytest

from toolkit.sandbox.app import Sandbox
from toolkit.sandbox.local.models import PLACE_URL, _norm, haversine
from toolkit.sandbox.local.placeindex import PlaceIndex, top_order

SEOMYEON = (129.0592, 35.1577)
CITY = [128.76, 34.88, 129.32, 35.40]


@pytest.fixture(scope="module")
def model():
    sandbox = Sandbox()
    yield sandbox.model("local")
    sandbox.model("events").stop()
    sandbox.store.close()


def reference(model, *, query=None, category=None, x=None, y=None, radius=None, rect=None, sort="accuracy"):
    """(total, first 45 documents) by a loop over every place."""
    w = model.world()
    P = w.places
    rows = list(range(w.size))
    needles = []
    if query is not None:
        _, keyword, prefix, _ = model._recognise(query)
        needles = [_norm(t) for t in keyword.split()]
        rows = [i for i in rows if all(n in P["_text"][i] for n in needles)]
        if prefix:
            codes = P["h_code"] if prefix.startswith("H") else P["b_code"]
            rows = [i for i in rows if codes[i].startswith(prefix.lstrip("H"))]
    if category:
        rows = [i for i in rows if P["category_group_code"][i] == category]
    if rect:
        lx, hx = sorted(rect[0::2])
        ly, hy = sorted(rect[1::2])
        rows = [i for i in rows if lx <= P["_x"][i] <= hx and ly <= P["_y"][i] <= hy]
    dist = {}
    if x is not None:
        dist = {i: haversine(x, y, P["_x"][i], P["_y"][i]) for i in rows}
        if radius is not None:
            rows = [i for i in rows if dist[i] <= radius]
    if sort == "distance" or (dist and not needles):
        rows.sort(key=lambda i: (dist[i], P["id"][i]))
    elif needles:
        whole = "".join(needles)

        def rank(i):
            name = P["_name"][i]
            r = 0 if name == whole else 1 if name.startswith(whole) else 2 if whole in name else 3
            return (r, dist.get(i, 0.0), P["id"][i])

        rows.sort(key=rank)
    docs = []
    for i in rows[:45]:
        doc = {k: P[k][i] for k in ("id", "place_name", "category_name", "category_group_code",
                                     "category_group_name", "phone", "address_name", "road_address_name", "x", "y")}
        doc["place_url"] = PLACE_URL + P["id"][i]
        if x is not None:
            doc["distance"] = str(int(round(dist[i])))
        elif query is None:
            doc["distance"] = ""
        docs.append(doc)
    return len(rows), docs


def _queries(model, n=8, seed=3):
    """Real place names and parts of them, generic words, region words before and after, odd characters."""
    rng = random.Random(seed)
    names = rng.sample(model.world().places["place_name"], n)
    out = ["카페", "약국", "부산진구 카페", "서면 맛집", "해운대 호텔", "편의점", "부산역", "병원 해운대구", "CU",
           "스타벅스 서면", "zzzz없는말", "|", "a", "부산 은행", "1", "GS25"]
    for name in names:
        out.append(name)
        words = name.split()
        out.append(words[0][: max(1, len(words[0]) // 2)])
        if len(words) > 1:
            out.append(" ".join(reversed(words)))
    return out


def test_keyword_search_equals_the_loop_over_every_place(model):
    for q in _queries(model):
        for kw in ({"rect": CITY}, {"x": SEOMYEON[0], "y": SEOMYEON[1], "radius": 3000},
                   {"x": SEOMYEON[0], "y": SEOMYEON[1], "radius": 20000, "sort": "distance"},
                   {"x": SEOMYEON[0], "y": SEOMYEON[1], "rect": [129.0, 35.1, 129.1, 35.2]}):
            docs, _ = model.search_places(query=q, **kw)
            total, expected = reference(model, query=q, **kw)
            assert (len(docs), docs[:45]) == (total, expected), (q, kw)


@pytest.mark.parametrize("group", ["CE7", "PM9", "SW8", "FD6", "MT1"])
def test_category_search_equals_the_loop_over_every_place(model, group):
    for kw in ({"x": SEOMYEON[0], "y": SEOMYEON[1], "radius": 800}, {"rect": [129.0, 35.1, 129.1, 35.2]},
               {"rect": CITY, "x": 129.16, "y": 35.16}, {"x": 129.2, "y": 35.3, "radius": 20000}):
        docs, _ = model.search_places(category=group, **kw)
        total, expected = reference(model, category=group, **kw)
        assert (len(docs), docs[:45]) == (total, expected), (group, kw)
        assert docs[3:9] == expected[3:9]            # a page in the middle reads the same order


def test_keyword_and_category_together(model):
    for q, group in (("카페", "CE7"), ("서면 약국", "PM9"), ("해운대 맛집", "FD6"), ("역", "SW8")):
        docs, _ = model.search_places(query=q, category=group, rect=CITY)
        assert (len(docs), docs[:45]) == reference(model, query=q, category=group, rect=CITY)


def test_index_finds_exactly_the_substrings():
    rng = random.Random(5)
    alphabet = "ab가나|"
    texts = ["".join(rng.choice(alphabet) for _ in range(rng.randint(0, 12))) for _ in range(400)]
    ix = PlaceIndex(texts, [t.split("|")[0] for t in texts])
    for needle in ["a", "ab", "가나", "a가", "|a", "bbb", "나나나", "x", "😀", "ab가나"]:
        assert ix.rows_with([needle]).tolist() == [i for i, t in enumerate(texts) if needle in t], needle
    for pair in (["a", "가"], ["ab", "나|"], ["b", "zz"]):
        assert ix.rows_with(pair).tolist() == [i for i, t in enumerate(texts) if all(n in t for n in pair)]


def test_top_order_is_the_lexicographic_order():
    import numpy as np

    rng = np.random.default_rng(1)
    a, b, c = rng.integers(0, 3, 500), rng.integers(0, 5, 500).astype(float), rng.permutation(500)
    full = sorted(range(500), key=lambda i: (a[i], b[i], c[i]))
    for k in (1, 10, 45, 0):
        assert top_order([a, b, c], k).tolist() == (full[:k] if k else full)


def test_nearest_address_equals_the_loop_over_the_grid_cells(model):
    """coord2regioncode/coord2address's nearest address (array distances, exact rule on the closest few) is the
    one a loop over every candidate of the grid cells around the point finds."""
    w = model.world()

    def loop(x, y, max_m, b_code=None):
        cx, cy = int(x / 0.002), int(y / 0.002)
        reach = max(1, int(max_m / 150) + 1)
        best, best_d = None, max_m
        for i in range(cx - reach, cx + reach + 1):
            for j in range(cy - reach, cy + reach + 1):
                for a in w.grid.get((i, j), ()):
                    if b_code and a["b_code"] != b_code:
                        continue
                    d = haversine(x, y, a["_x"], a["_y"])
                    if d < best_d or (d == best_d and best is not None and a["address_name"] < best["address_name"]):
                        best, best_d = a, d
        return best

    rng = random.Random(2)
    for k in range(400):
        a = rng.choice(w.addresses)
        x, y = (a["_x"], a["_y"]) if k % 3 == 0 else (a["_x"] + rng.uniform(-0.002, 0.002),
                                                      a["_y"] + rng.uniform(-0.002, 0.002))
        for max_m, code in ((30, None), (200, a["b_code"]), (200, None)):
            assert w.nearest_address(x, y, max_m, code) is loop(x, y, max_m, code), (x, y, max_m, code)


def test_a_keyword_searched_again_answers_the_same_from_the_kept_rows(model):
    """The second search of a keyword uses the rows kept from the first: same answer as the loop, and the kept
    arrays cannot be changed by a search."""
    index = model.world().place_index
    for q in ("카페", "부산진구 카페", "스타벅스 서면"):
        for _ in range(2):
            docs, _ = model.search_places(query=q, rect=CITY)
            assert (len(docs), docs[:45]) == reference(model, query=q, rect=CITY)
    kept = index._rows.get("카페")
    assert "카페" in index._rows.items and not kept.flags.writeable
    with pytest.raises(ValueError):
        kept[0] = 0


def test_kept_arrays_stay_within_their_bound():
    from toolkit.sandbox.local.placeindex import Kept
    import numpy as np

    def cost(n):            # an entry's data, its array's header, its key and the entry itself
        return Kept._size(n, np.zeros(n, dtype=np.int8))

    assert cost(40) - 40 > 250                     # what an entry holds besides its data counts too
    made = []
    limit = cost(40) + cost(30) + 30
    kept = Kept(lambda n: made.append(n) or np.zeros(n, dtype=np.int8), limit=limit)
    for n in (40, 40, 30, 40, 2000, 30):
        assert kept.get(n).size == n
    assert made == [40, 30, 2000]                  # more than the limit alone: never kept
    assert list(kept.items) == [40, 30] and kept.bytes == cost(40) + cost(30)
    kept.get(50)                                   # over the limit: the one used least recently goes
    assert list(kept.items) == [30, 50] and kept.bytes == cost(30) + cost(50)


def test_code_prefix_as_a_range_of_numbers_equals_startswith(model):
    """Region prefixes are compared as ranges of ten-digit numbers: the same rows as str.startswith."""
    import numpy as np

    w = model.world()
    P = w.places
    rng = random.Random(4)
    rows = np.array(sorted(rng.sample(range(w.size), 3000)))
    for col in ("b_code", "h_code"):
        codes = [c for c in P[col] if c]
        for prefix in ["26", "2623", "26230", "262306", "26230600", rng.choice(codes), rng.choice(codes)[:7], "9",
                       "0", "H2", "", "2623060000x"]:
            got = w.code_prefix_mask(rows, col, prefix).tolist()
            assert got == [P[col][i].startswith(prefix) for i in rows.tolist()], (col, prefix)


def test_kept_accuracy_order_is_the_rank_then_id_order(model):
    """The rows of a keyword kept in accuracy order: rank (name equal, starts, holds, category only), then id."""
    w = model.world()
    P = w.places
    for needles in (("카페",), ("부산",), ("스타", "벅스"), ("약국",)):
        rows, rank = w.ranked_rows(needles)
        whole = "".join(needles)

        def r(i):
            name = P["_name"][i]
            return 0 if name == whole else 1 if name.startswith(whole) else 2 if whole in name else 3

        expected = sorted((i for i in range(w.size) if all(n in P["_text"][i] for n in needles)),
                          key=lambda i: (r(i), P["id"][i]))
        assert rows.tolist() == expected and rank.tolist() == [r(i) for i in expected], needles
        assert not rows.flags.writeable and not rank.flags.writeable


def test_documents_are_copies_of_the_kept_ones(model):
    """A place's document is kept to be copied: changing a document a search returned changes no other answer."""
    for kw in ({"rect": CITY}, {"x": SEOMYEON[0], "y": SEOMYEON[1], "radius": 3000}):
        first, _ = model.search_places(query="약국", **kw)
        shown = first[:15]
        for doc in shown:
            doc["place_name"] = "changed"
            doc.pop("id")
        again, _ = model.search_places(query="약국", **kw)
        assert (len(again), again[:45]) == reference(model, query="약국", **kw)
        assert again[2:4] == reference(model, query="약국", **kw)[1][2:4]
