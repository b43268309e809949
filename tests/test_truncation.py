"""Helpers that stop before the platform's total say so: a TruncatedWarning with the numbers and what to do
instead, and ``attrs["truncated"]`` on the frame (issue: silent truncation)."""
from __future__ import annotations

import warnings

import pytest

from toolkit.errors import TruncatedWarning

SEOMYEON = (129.0592, 35.1579)


def test_keyword_all_at_the_platform_cap_warns_with_numbers_and_a_sweep(tk):
    with pytest.warns(TruncatedWarning) as seen:
        df = tk.local.keyword_all("카페", x=SEOMYEON[0], y=SEOMYEON[1], radius=1000)
    total = df.attrs["meta"]["total_count"]
    assert len(df) == 45 < total
    assert df.attrs["truncated"]["returned"] == 45 and df.attrs["truncated"]["total"] == total
    text = str(seen[0].message)
    assert text.startswith(f"keyword_all returned 45 of {total} rows: the platform shows at most 45")
    assert "smaller radius" in text and "keyword_sweep" in text
    assert seen[0].filename == __file__          # points at the caller, not into the toolkit


def test_category_all_stopped_by_max_pages_says_raise_max_pages(tk):
    with pytest.warns(TruncatedWarning, match=r"category_all returned 30 of \d+ rows: the walk stopped at "
                                              r"max_pages=2; pass a larger max_pages"):
        df = tk.local.category_all("CE7", rect=(129.055, 35.154, 129.063, 35.160), max_pages=2)
    assert df.attrs["truncated"]["returned"] == 30


def test_complete_answers_do_not_warn(tk):
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        df = tk.local.category_all("CS2", x=SEOMYEON[0], y=SEOMYEON[1], radius=300)
        addr = tk.local.address_all("부산진구 전포동 341", size=5)
    assert "truncated" not in df.attrs and len(df) == df.attrs["meta"]["total_count"]
    assert "truncated" not in addr.attrs


def test_sweeps_warn_when_a_first_page_is_not_the_whole_answer(tk):
    with pytest.warns(TruncatedWarning, match=r"category_sweep returned \d+ of \d+ rows: 1 of 1 centres found more"
                                              r".*denser grid"):
        df = tk.local.category_sweep("CE7", [SEOMYEON], radius=1000, progress=False)
    assert df.attrs["truncated"]["keys"] == 1
    with pytest.warns(TruncatedWarning, match=r"keyword_sweep returned .* query '카페'"):
        tk.local.keyword_sweep(["카페"], x=SEOMYEON[0], y=SEOMYEON[1], radius=1000, progress=False)


def test_all_friends_and_shipping_addresses_stopped_by_max_pages_warn(fresh_tk):
    tk = fresh_tk.login_as(4100000001, scopes=["profile", "friends", "shipping_address"])
    with pytest.warns(TruncatedWarning, match=r"all_friends returned 2 of \d+ rows: the walk stopped at "
                                              r"max_pages=1 \(page_size=2\)"):
        friends = tk.talk.all_friends(page_size=2, max_pages=1)
    assert friends.attrs["truncated"]["total"] == friends.attrs["meta"]["total_count"] > 2
    with pytest.warns(TruncatedWarning, match=r"shipping_addresses returned 2 rows and stopped before the end"):
        addresses = tk.user.shipping_addresses(page_size=2, all_pages=True, max_pages=1)
    assert addresses.attrs["truncated"]["total"] is None
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        assert "truncated" not in tk.talk.all_friends().attrs
