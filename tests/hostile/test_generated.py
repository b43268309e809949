"""Hypothesis over every operation of the sandbox's OpenAPI document: generated values for each documented
field (query and body), from strategies that mix plausible values with hostile ones — raw bytes (invalid UTF-8,
surrogates, NUL), integers far beyond 64 bits, non-ASCII digits, JSON text nested at any depth, NaN/Infinity —
and generated JSON bodies with duplicate keys and deep nesting. Checks: never a 5xx; a refused request (4xx)
leaves the store unchanged. Bounded: :data:`EXAMPLES` examples per operation, derandomized, no shrinking
database.
"""
from __future__ import annotations

import json
from urllib.parse import quote

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from .conftest import concrete, encode_pairs, fields_of, operations
from .test_classes import FIELD_VALUES

EXAMPLES = 12
OPS = operations()
COUNT = {"requests": 0, "refused": 0}

json_leaf = st.one_of(st.none(), st.booleans(), st.integers(-2 ** 70, 2 ** 70), st.floats(allow_nan=False),
                      st.text(max_size=20))
json_values = st.recursive(json_leaf, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                               st.dictionaries(st.text(max_size=8), inner, max_size=4)),
                           max_leaves=12)
nested_text = st.integers(1, 80).map(lambda n: "[" * n + "1" + "]" * n)
unicode_digits = st.text(st.characters(categories=["Nd", "No"]), min_size=1, max_size=6)

field_value = st.one_of(
    st.sampled_from(list(FIELD_VALUES.values())),
    st.text(max_size=30),
    st.integers(-2 ** 80, 2 ** 80).map(str),
    unicode_digits,
    nested_text,
    json_values.map(json.dumps),
    st.binary(max_size=12).map(lambda b: quote(b, safe="").encode()),
)


def _json_body(props: list[str]) -> st.SearchStrategy[bytes]:
    """A JSON object over the documented fields (and stray ones), sometimes with a duplicate key or a literal
    that is not JSON (NaN, Infinity, 1e999, a surrogate escape) spliced in."""
    obj = st.dictionaries(st.sampled_from(props or ["x"]) | st.text(max_size=6), json_values, max_size=6)
    splice = st.sampled_from(['', ', "dup": 1, "dup": 2', ', "n": NaN', ', "i": -Infinity', ', "f": 1e999',
                              ', "s": "\\udfff"', ', "big": 340282366920938463463374607431768211456'])

    def render(pair):
        body, extra = pair
        text = json.dumps(body)
        return (text[:-1] + (extra if len(text) > 2 else extra.lstrip(", ")) + "}").encode()

    return st.tuples(obj, splice).map(render)


@pytest.mark.parametrize("method,path,op", OPS, ids=[f"{m} {p}" for m, p, _ in OPS])
def test_generated_input(hostile, method, path, op):
    query, props, ctype = fields_of(op)
    body_strategy = (_json_body(props) if ctype == "application/json"
                     else st.lists(st.tuples(st.sampled_from(props), field_value), max_size=len(props) + 1)
                     .map(encode_pairs) if props else st.just(None))
    query_strategy = (st.lists(st.tuples(st.sampled_from(query), field_value), max_size=len(query) + 1)
                      .map(encode_pairs) if query else st.just(b""))

    @settings(max_examples=EXAMPLES, deadline=None, derandomize=True, database=None,
              phases=[Phase.explicit, Phase.generate], suppress_health_check=list(HealthCheck))
    @given(query_bytes=query_strategy, body=body_strategy)
    def run(query_bytes, body):
        before = hostile.snapshot()
        send_type = None
        if body is not None:
            send_type = "application/json" if ctype == "application/json" else "application/x-www-form-urlencoded"
        response = hostile.send(method, concrete(path), query=query_bytes, body=body, ctype=send_type,
                                headers=hostile.headers(op))
        COUNT["requests"] += 1
        assert response.status_code < 500, (method, path, query_bytes[:200], (body or b"")[:200], response.text[:300])
        if 400 <= response.status_code < 500:
            COUNT["refused"] += 1
            assert hostile.snapshot() == before, (method, path, "a refused request changed the store")

    run()


def test_generated_counts():
    if not COUNT["requests"]:
        pytest.skip("counts only after the operation tests of this module")
    print(f"\ngenerated cases: {COUNT['requests']} requests over {len(OPS)} operations "
          f"({EXAMPLES} examples each), {COUNT['refused']} refused with an unchanged store")
    assert COUNT["requests"] >= len(OPS)
