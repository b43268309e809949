"""``web.json_response`` makes the same answer (status, headers in order, body bytes) as Starlette's
``Response(json.dumps(payload, ensure_ascii=False, separators=(",", ":")), ...)`` did, whatever the payload."""
from __future__ import annotations

import json

import pytest
from hypothesis import given, settings, strategies as st
from starlette.responses import Response

from toolkit.sandbox.web import JSON_TYPE, finite_json, json_bytes_response, json_response

scalars = st.none() | st.booleans() | st.integers(-2 ** 70, 2 ** 70) | st.floats(allow_nan=True) | st.text()
payloads = st.recursive(scalars, lambda inner: st.lists(inner, max_size=4)
                        | st.dictionaries(st.text(max_size=6), inner, max_size=4), max_leaves=20)


def reference(payload, status=200, headers=None) -> Response:
    body = json.dumps(payload, ensure_ascii=False, separators=(",", ":"))
    return Response(body, status_code=status, media_type=JSON_TYPE, headers=dict(headers or {}))


def same(a: Response, b: Response) -> None:
    assert (a.status_code, a.raw_headers, bytes(a.body), a.background) == \
           (b.status_code, b.raw_headers, bytes(b.body), b.background)


@settings(max_examples=500, deadline=None)
@given(payloads, st.sampled_from([200, 201, 400, 401, 404, 413, 500]))
def test_same_answer_as_starlette_response(payload, status):
    same(json_response(payload, status), reference(payload, status))


@pytest.mark.parametrize("status,headers", [(401, {"WWW-Authenticate": "ServiceAK"}), (204, None), (304, None),
                                            (200, {"X-Extra": "1"})])
def test_with_headers_or_without_body_status(status, headers):
    payload = {"msg": "앱 키", "code": -401, "x": 1.5e-7}
    same(json_response(payload, status, headers), reference(payload, status, headers))


def test_lone_surrogate_fails_the_same_way():
    with pytest.raises(UnicodeEncodeError):
        reference({"a": "\ud800"})
    with pytest.raises(UnicodeEncodeError):
        json_response({"a": "\ud800"})


finite_scalars = st.none() | st.booleans() | st.integers(-2 ** 70, 2 ** 70) | st.text() \
    | st.floats(allow_nan=False, allow_infinity=False) | st.sampled_from([1e-05, -1.5e-7, 9.99e-5, 0.0001, 1e16, 5e-324])
finite_payloads = st.recursive(finite_scalars, lambda inner: st.lists(inner, max_size=4)
                               | st.dictionaries(st.text(max_size=6), inner, max_size=4), max_leaves=20)


@settings(max_examples=1500, deadline=None)
@given(finite_payloads)
def test_finite_json_writes_what_json_dumps_writes(payload):
    assert finite_json(payload) == json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode()
    same(json_bytes_response(finite_json(payload)), reference(payload))


@pytest.mark.parametrize("payload", [{1: "a"}, {"n": 2 ** 64}, {"t": (1, 2)}, {"x": [1e-7, "부산"]}])
def test_finite_json_on_what_orjson_refuses_or_writes_otherwise(payload):
    assert finite_json(payload) == json.dumps(payload, ensure_ascii=False, separators=(",", ":")).encode()
