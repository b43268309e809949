"""Counting places around points: count_around (one light request per point, zeros kept, the platform's
total_count) and the sweeps' zero centres, per-centre totals and warnings whose numbers match the frame."""
from __future__ import annotations

import warnings

import pandas as pd
import pytest

from toolkit.errors import ParameterError, TruncatedWarning

SEOMYEON = (129.0592, 35.1579)
SEA = (129.20, 35.05)          # in the city's box, at sea: no place within a few hundred metres


def test_count_around_counts_every_place_and_keeps_zero_points(tk):
    points = [SEOMYEON, SEA, SEOMYEON]
    before = len(tk.core.attempts_log)
    out = tk.local.count_around(points, category="CE7", radius=500, progress=False)
    assert len(tk.core.attempts_log) - before == 2                # one request per distinct point
    assert list(out.columns) == ["x", "y", "total_count"] and len(out) == 3
    single = tk.local.category("CE7", x=SEOMYEON[0], y=SEOMYEON[1], radius=500, size=1)
    total = single.attrs["meta"]["total_count"]
    assert total > 45                                              # more than one search can show
    assert list(out["total_count"]) == [total, 0, total] and str(out["total_count"].dtype) == "Int64"
    assert out.attrs["count_around"]["search"] == "category" and out.attrs["count_around"]["queries"] == 2


def test_count_around_takes_a_keyword_and_a_frame_of_points(tk):
    stations = tk.local.category("SW8", x=129.1604, y=35.1631, radius=3000, sort="distance")
    out = tk.local.count_around(stations, keyword="스타벅스", radius=300, progress=False)
    assert list(out.index) == list(stations.index) and "place_name" in out.columns      # the caller's frame, kept
    first = tk.local.keyword("스타벅스", x=float(stations["x"].iloc[0]), y=float(stations["y"].iloc[0]), radius=300,
                             size=1)
    assert out["total_count"].iloc[0] == first.attrs["meta"]["total_count"]
    assert out.attrs["count_around"]["search"] == "keyword"
    with pytest.raises(ParameterError, match="keyword"):
        tk.local.count_around([SEOMYEON], keyword="", progress=False)
    with pytest.raises(ParameterError, match="points"):
        tk.local.count_around([(129.0,)], category="CE7", progress=False)
    with pytest.raises(ParameterError):
        tk.local.count_around(pd.DataFrame({"lon": [1.0]}), category="CE7", progress=False)


def test_count_around_refuses_an_unknown_code_with_the_hint_of_category(tk):
    before = len(tk.core.attempts_log)
    hint = r"'CE8' is not a category group code; did you mean 'CE7' \(cafe\)\? Valid: MT1 supermarket"
    with pytest.raises(ParameterError, match=r"category='CE8': " + hint):
        tk.local.count_around([SEOMYEON], category="CE8", progress=False)
    with pytest.raises(ParameterError, match=r"what='CE8': " + hint):      # the older form: refused, not a keyword
        tk.local.count_around("CE8", [SEOMYEON], radius=500, progress=False)
    with pytest.raises(ParameterError, match=r"what='pm0': .*did you mean 'PM9' \(pharmacy\)"):
        tk.local.count_around("pm0", [SEOMYEON], progress=False)
    with pytest.raises(ParameterError, match=r"did you mean 'PM9' \(pharmacy\)"):
        tk.local.count_around([SEOMYEON], category="pharmacy", progress=False)
    assert len(tk.core.attempts_log) == before                       # refused before any request
    for bad in ({}, {"category": "CE7", "keyword": "카페"}):
        with pytest.raises(ParameterError, match="give one of category= .* or keyword="):
            tk.local.count_around([SEOMYEON], progress=False, **bad)
    with pytest.raises(ParameterError, match="give one of"):
        tk.local.count_around("CE7", [SEOMYEON], category="CE7", progress=False)


def test_count_around_says_code_or_keyword_and_the_older_form_warns_but_counts_the_same(tk):
    new = tk.local.count_around([SEOMYEON, SEA], category="ce7", radius=500, progress=False)
    assert new.attrs["count_around"]["what"] == "CE7" and new.attrs["count_around"]["search"] == "category"
    with pytest.warns(FutureWarning, match=r"write count_around\(points, category='CE7', …\)"):
        old = tk.local.count_around("CE7", [SEOMYEON, SEA], 500, progress=False)
    assert list(old["total_count"]) == list(new["total_count"]) and new["total_count"].iloc[0] > 0
    with pytest.warns(FutureWarning, match=r"keyword='스타벅스'"):
        old_kw = tk.local.count_around("스타벅스", [SEOMYEON], radius=500, progress=False)
    new_kw = tk.local.count_around([SEOMYEON], keyword="스타벅스", radius=500, progress=False)
    assert list(old_kw["total_count"]) == list(new_kw["total_count"])
    # a keyword that looks like a code is counted as a keyword only when said so
    text = tk.local.count_around([SEOMYEON], keyword="CE8", radius=500, progress=False)
    assert text.attrs["count_around"]["search"] == "keyword" and text["total_count"].iloc[0] == 0
    with pytest.raises(ParameterError, match="points first"):
        tk.local.count_around([SEOMYEON], 500, category="CE7", progress=False)


def test_category_sweep_keeps_a_zero_centre_and_warns_with_the_frame_numbers(tk):
    with pytest.warns(TruncatedWarning) as seen:
        df = tk.local.category_sweep("CE7", [SEOMYEON, SEA], radius=1000, progress=False)
    assert sorted(set(df["centre"])) == [0, 1]                     # the centre with no café is kept
    zero = df[df["centre"] == 1]
    assert len(zero) == 1 and zero["id"].isna().all() and zero["total_count"].iloc[0] == 0
    places = int(df["id"].notna().sum())
    totals = df.attrs["sweep"]["totals"]
    assert totals[1] == 0 and totals[0] == df.loc[df["centre"] == 0, "total_count"].iloc[0] > places
    text = str(seen[0].message)
    assert text.startswith(f"category_sweep returned {places} of {totals[0]} rows")
    assert df.attrs["truncated"]["returned"] == places


def test_keyword_sweep_keeps_a_query_with_nothing_found(tk):
    with warnings.catch_warnings():
        warnings.simplefilter("ignore", TruncatedWarning)
        df = tk.local.keyword_sweep(["약국", "없는가게이름xyz"], x=SEOMYEON[0], y=SEOMYEON[1], radius=500, size=3,
                                    progress=False)
    assert list(dict.fromkeys(df["query"])) == ["약국", "없는가게이름xyz"]
    nothing = df[df["query"] == "없는가게이름xyz"]
    assert len(nothing) == 1 and nothing["place_name"].isna().all() and nothing["total_count"].iloc[0] == 0
