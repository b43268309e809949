"""Consistent frames: every list-like result has the same typed columns whether it is empty or not (one
mechanism, :class:`toolkit.frames.Schema`), text is pandas' string dtype, and coordinates are checked as
WGS84 longitude/latitude by one shared check before any request."""
from __future__ import annotations

import pandas as pd
import pytest

from toolkit.errors import ParameterError
from toolkit.frames import TEXT, Schema, frame
from toolkit.local import ADDRESS_SCHEMA, BUSAN_RECT, COORD2ADDRESS_SCHEMA, PLACE_SCHEMA, REGION_SCHEMA

SEA = (131.5, 33.0)          # open sea south-east of Korea: no region, no address, no place
SEOMYEON = (129.0592, 35.1579)


def test_schema_empty_and_full_frames_have_the_same_columns_and_dtypes():
    s = Schema(["id", "name", "x", "n", "ok", "at", "tags"], floats=["x"], ints=["n"], bools=["ok"],
               datetimes=["at"], objects=["tags"])
    empty = frame([], schema=s)
    full = frame([{"id": "1", "name": "a", "x": "1.5", "n": 2, "ok": True, "at": "2024-01-01T00:00:00Z",
                   "tags": ["a", "b"]}], schema=s)
    assert list(empty.columns) == list(full.columns) == list(s.columns)
    assert empty.dtypes.equals(full.dtypes)
    assert str(full.dtypes["name"]) == TEXT and full.dtypes["x"] == "float64" and str(full.dtypes["n"]) == "Int64"
    assert full["tags"][0] == ["a", "b"]


def test_schema_rejects_types_of_unknown_columns_and_composes_nested_objects():
    with pytest.raises(ValueError, match="not in the schema"):
        Schema(["a"], floats=["b"])
    s = Schema(["a"]) + Schema(["zone_no", "x"], floats=["x"]).prefixed("road_address")
    assert list(s.columns) == ["a", "road_address.zone_no", "road_address.x"]
    assert frame([], schema=s).dtypes["road_address.x"] == "float64"


def test_text_columns_are_string_dtype_even_without_a_schema():
    df = frame([{"a": "x", "b": None}], columns=["a", "b", "c"])
    assert all(str(t) == TEXT for t in df.dtypes)


def _same_shape(empty: pd.DataFrame, full: pd.DataFrame, schema: Schema):
    assert len(empty) == 0 and len(full) > 0
    assert list(empty.columns) == list(full.columns) == list(schema.columns)
    assert empty.dtypes.equals(full.dtypes)
    assert not [c for c, t in full.dtypes.items() if t == object], "object columns left"


def test_address_search_empty_keeps_all_columns(tk):
    full, empty = tk.local.address("전포동 341-17"), tk.local.address("없는주소 9999")
    _same_shape(empty, full, ADDRESS_SCHEMA)
    assert empty["address.address_name"].tolist() == []        # no KeyError on an empty result
    assert len(ADDRESS_SCHEMA.columns) == 30


def test_coord2address_regions_and_places_empty_at_sea(tk):
    _same_shape(tk.local.coord2address(*SEA), tk.local.coord2address(*SEOMYEON), COORD2ADDRESS_SCHEMA)
    regions_sea = tk.local.regions(*SEA)
    assert list(regions_sea.columns) == list(REGION_SCHEMA.columns)
    assert regions_sea.dtypes.equals(tk.local.regions(*SEOMYEON).dtypes)
    near = tk.local.category("PM9", x=SEOMYEON[0], y=SEOMYEON[1], radius=2000)
    _same_shape(tk.local.category("PM9", x=SEA[0], y=SEA[1], radius=10), near, PLACE_SCHEMA)
    _same_shape(tk.local.keyword("없는가게이름zz", rect=BUSAN_RECT), tk.local.keyword("약국", rect=BUSAN_RECT),
                PLACE_SCHEMA)


def test_status_history_and_ip_lists_keep_their_types_when_empty(tk):
    import warnings

    with warnings.catch_warnings():
        warnings.simplefilter("ignore")          # the status API warns about the unknown product
        empty = tk.status.history(days=3, product="no_such_product")
    full = tk.status.history(days=3)
    assert len(empty) == 0 < len(full) and list(empty.columns) == list(full.columns)
    assert empty.dtypes.equals(full.dtypes)


def test_regions_of_adds_string_columns(tk):
    df = tk.local.regions_of(pd.DataFrame({"x": [SEOMYEON[0]], "y": [SEOMYEON[1]]}), progress=False)
    assert str(df.dtypes["b_code"]) == TEXT and str(df.dtypes["h_name"]) == TEXT


@pytest.mark.parametrize("call", [
    lambda tk: tk.local.coord2address(35.1579, 129.0592),
    lambda tk: tk.local.regions(35.1579, 129.0592),
    lambda tk: tk.local.transcoord(35.1579, 129.0592, output_coord="WTM"),
    lambda tk: tk.local.keyword("약국", x=35.1579, y=129.0592, radius=100),
    lambda tk: tk.local.category("PM9", x=35.1579, y=129.0592, radius=100),
    lambda tk: tk.local.public_transit((35.1, 129.03), (129.05, 35.15)),
    lambda tk: tk.navi.directions((35.1, 129.03), (129.05, 35.15)),
])
def test_swapped_coordinates_are_refused_before_any_request(tk, call):
    before = len(tk.core.attempts_log)
    with pytest.raises(ParameterError) as info:
        call(tk)
    assert "-90 to 90" in str(info.value) and "swapped" in str(info.value)
    assert len(tk.core.attempts_log) == before


def test_out_of_range_longitude_names_the_parameter_and_bound(tk):
    with pytest.raises(ParameterError) as info:
        tk.local.coord2address(500, 35.1)
    assert info.value.name == "x" and "-180 to 180" in info.value.rule
    # other coordinate systems are metres: no WGS84 bound applies
    assert len(tk.local.transcoord(200000, 500000, input_coord="WTM")) == 1
