"""Keyword and category sweeps (many searches in one bulk run) and the many-origin matrix."""
from __future__ import annotations

import asyncio

import pandas as pd
import pytest

from tests.conftest import client_for
from toolkit.client import AsyncClient
from toolkit.errors import ParameterError

QUERIES = ["약국", "카페", "편의점", "약국"]


def test_keyword_sweep_equals_single_searches(tk):
    out = tk.local.keyword_sweep(QUERIES, x=129.059, y=35.158, radius=2000, size=5, progress=False)
    assert out.columns[0] == "query" and out.attrs["sweep"]["requests"] == 3
    for q in ("약국", "카페", "편의점"):
        single = tk.local.keyword(q, x=129.059, y=35.158, radius=2000, size=5)
        part = out[out["query"] == q].drop(columns="query").reset_index(drop=True)
        assert list(part["id"]) == list(single["id"]) and len(part) > 0


def test_category_sweep_labels_rows_by_centre_and_checks_points(tk):
    centres = [(129.059, 35.158), (129.040, 35.115), (129.059, 35.158)]
    out = tk.local.category_sweep("PM9", centres, radius=800, size=3, progress=False)
    assert set(out["centre"]) <= {0, 1, 2} and out.attrs["sweep"]["requests"] == 2
    first = tk.local.category("PM9", x=129.059, y=35.158, radius=800, size=3, sort="distance")
    assert list(out[out["centre"] == 0]["id"]) == list(first["id"]) == list(out[out["centre"] == 2]["id"])
    with pytest.raises(ParameterError, match="centres"):
        tk.local.category_sweep("PM9", [(129.0,)], progress=False)
    with pytest.raises(ParameterError, match="queries"):
        tk.local.keyword_sweep("약국", progress=False)


def test_matrix_equals_origins_calls_and_async_matches(sandbox_server, tk):
    origins = [(f"o{i}", 129.03 + 0.004 * i, 35.10 + 0.003 * i) for i in range(35)]   # two blocks of origins
    dests = [("d0", 129.059, 35.158), ("d1", 129.045, 35.14)]
    out = tk.navi.matrix(origins, dests, progress=False)
    assert len(out) == 70 and out.attrs["matrix"]["requests"] == 4
    # the same frame as the single origins() calls, one per destination and block, stacked (dtypes included)
    parts = []
    for key, *xy in dests:
        for block in (origins[:30], origins[30:]):
            one = tk.navi.origins(block, xy)
            one.insert(0, "destination", key)
            parts.append(one)
    expected = pd.concat(parts, ignore_index=True)
    expected.attrs = {}
    got = out.copy()
    got.attrs = {}
    pd.testing.assert_frame_equal(got, expected)
    assert out["x"].dtype == "float64" and str(out["distance"].dtype) == "Int64"

    async def run():
        async with client_for(sandbox_server, AsyncClient) as atk:
            return await atk.navi.matrix(origins, dests, progress=False)

    pd.testing.assert_frame_equal(asyncio.run(run()), out)
    with pytest.raises(ParameterError):
        tk.navi.matrix([], dests, progress=False)


@pytest.mark.parametrize("shape", ["uniform", "text", "list", "nested"])
def test_sweep_frame_equals_the_flattened_records(shape, monkeypatch):
    """Each way the sweep's frame is built equals the frame of the merged records, flattened (dtypes included):
    typed columns (every document the same text fields: what the API sends; numbers of every form, decimal or
    not, in x, y and distance), columns that pandas types (fields that differ, null values), and the frame of
    records it falls back to (a list, an object)."""
    from types import SimpleNamespace

    import toolkit.frames
    import toolkit.local
    from toolkit.frames import frame
    from toolkit.local import PLACE_COLUMNS, _sweep_frame, _text_columns

    nested = shape == "nested"
    built, typed = [], []
    monkeypatch.setattr(toolkit.frames, "frame", lambda *a, **k: built.append(k.get("data") is not None) or
                        frame(*a, **k))
    monkeypatch.setattr(toolkit.local, "_text_columns", lambda docs: typed.append(_text_columns(docs)) or
                        typed[-1])
    numbers = ["12", "", "1_0", "１２", " 5", "-0", "1e3", "abc", "inf", "129.0512345"]

    def doc(i):
        d = {"id": str(i), "place_name": f"약국 {i}", "x": numbers[i % len(numbers)], "y": "35.15",
             "distance": numbers[(i + 3) % len(numbers)], "phone": "051-000-0000"}
        if shape == "uniform":
            return d
        d["distance"] = "" if i % 2 else "12"
        if i == 3:
            d["phone"] = None
        if shape != "text":
            d["extra"] = [i]
        if i == 2:
            del d["phone"]                  # a field missing from one document
            d["only_here"] = "2"            # and one that only it has
        if nested and i == 3:
            d["detail"] = {"floor": "2", "open": True}
        return d

    answers = {"a": {"documents": [doc(1), doc(2)], "total": 2}, "b": {"documents": [], "total": 0},
               "c": {"documents": [doc(3)], "total": 1}, "d": {"error": -2, "message": "bad"},
               "e": {"documents": [doc(i) for i in range(4, 4 + 2 * len(numbers))], "total": 20}}
    job = SimpleNamespace(answers=answers, hits=0, todo=list(answers), stopped=False,
                          stats=lambda: {"requests": 4, "cache_hits": 0, "concurrency_start": 8,
                                         "concurrency_peak": 8, "throttled": 0})
    out = _sweep_frame(job, ["a", "b", "c", "a", "d", "e"], "query", None)
    # each query's total_count; a query that found nothing keeps one row with empty place columns
    assert list(out["total_count"]) == [2, 2, 0, 1] + [20] * (2 * len(numbers))
    assert out.loc[out["query"] == "b", "id"].isna().all() and out.attrs["sweep"]["empty"] == ["b"]
    assert out.attrs["sweep"]["totals"] == {"a": 2, "b": 0, "c": 1, "d": None, "e": 20}
    out = out[out["query"] != "b"].drop(columns="total_count").reset_index(drop=True)
    rows = [{"query": k, **d} for k in "abcde" for d in answers[k].get("documents", [])]
    expected = frame(rows, columns=["query", *PLACE_COLUMNS], floats=["x", "y", "distance"])   # json_normalize
    pd.testing.assert_frame_equal(out, expected)
    assert out["x"].dtype == "float64" and out["x"].isna().any() and out["distance"].notna().any()
    assert ("detail.floor" in out.columns) is nested and out.attrs["sweep"]["errors"] == ["bad"]
    assert built == [shape in ("uniform", "text")]        # from columns only when every field is text
    assert [t is not None for t in typed] == [shape == "uniform"]   # typed as made: the same text fields
    assert ("only_here" in out.columns) is (shape != "uniform") and ("extra" in out.columns) is (
        shape in ("list", "nested"))
    # centres: each position in the list, repeated centres included, and no documents at all
    out = _sweep_frame(job, ["c", "a", "c", "e"], "centre", None)
    rows = [{"centre": i, **d} for i, k in enumerate("cace") for d in answers[k]["documents"]]
    assert list(out.pop("total_count")) == [1, 2, 2, 1] + [20] * (2 * len(numbers))
    pd.testing.assert_frame_equal(out, frame(rows, columns=["centre", *PLACE_COLUMNS],
                                             floats=["x", "y", "distance"]))
    empty = _sweep_frame(job, ["b", "d"], "centre", None)
    assert list(empty["centre"]) == [0] and empty["id"].isna().all() and list(empty["total_count"]) == [0]


@pytest.mark.parametrize("texts, by_numpy", [
    (["12", " 5", "-0", "1e3", "inf", "-129.0512345", "NaN", "1e400", "1.5e-400", ".5", "1.", "00012", "Infinity"],
     True),
    (["5e", "1"], False),
    (["1_0", "12"], False),           # float() reads 10; to_numeric refuses
    (["１２", "3"], False),            # digits of another script: the same
    (["12", ""], False),
    (["12", "abc"], False),
])
def test_decimal_texts_read_by_numpy_as_by_to_numeric(texts, by_numpy):
    """The sweep's typed columns read coordinates with numpy only where it agrees with pandas' ``to_numeric``
    (what every other frame uses); anything else goes to ``to_numeric``."""
    import numpy as np

    from toolkit.local import _decimals

    got = _decimals(texts)
    want = pd.to_numeric(pd.Series(texts, dtype="str").replace("", None), errors="coerce").astype("float64")
    assert (got is not None) is by_numpy
    if got is not None:
        np.testing.assert_array_equal(got, want.to_numpy())


def test_a_matrix_with_no_answer_is_an_empty_typed_frame_and_says_why(fresh_tk):
    """Every call refused by the quota: no row, the columns and dtypes of a full matrix, and the warning."""
    origins = [(f"o{i}", 129.03 + 0.004 * i, 35.10) for i in range(3)]
    full = fresh_tk.navi.matrix(origins, [("d0", 129.059, 35.158)], progress=False)
    fresh_tk.sandbox.set_quota("navi_origins_directions", 0)
    with pytest.warns(UserWarning, match="matrix stopped: the API quota is used up"):
        out = fresh_tk.navi.matrix(origins, [("d0", 129.059, 35.158)], progress=False)
    assert len(out) == 0 and len(full) == 3 and out.attrs["matrix"]["stopped_by_quota"] is True
    assert list(out.columns) == list(full.columns) and out.dtypes.equals(full.dtypes)
