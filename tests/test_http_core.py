"""The request core: auth modes, encodings, error shapes, retry policy, sync and async twins."""
from __future__ import annotations

import asyncio
import json
import time
from urllib.parse import parse_qs

import httpx
import pytest
from hypothesis import given, settings, strategies as st

from toolkit import errors
from toolkit.config import Config, Credentials, Hosts
from toolkit.http import AdminFor, Bearer, Call, RequestCore, ServiceAK, dumps, encode_fields
from toolkit.secrets import Secret

HOSTS = Hosts.on_one_port("http://svc.test")


def core(handler, **cfg) -> RequestCore:
    config = Config(hosts=HOSTS, credentials=Credentials(), **{"timeout": 2.0, "total_timeout": 5.0, **cfg})
    c = RequestCore(config, transport=httpx.MockTransport(handler),
                    async_transport=httpx.MockTransport(handler), backoff=0.001, backoff_cap=0.01)
    return c


class Recorder:
    """A handler that answers from a script and records every request."""

    def __init__(self, *answers):
        self.answers = list(answers)
        self.requests: list[httpx.Request] = []

    def __call__(self, request: httpx.Request):
        self.requests.append(request)
        answer = self.answers.pop(0) if len(self.answers) > 1 else self.answers[0]
        if isinstance(answer, Exception):
            raise answer
        return answer


def ok(body=None):
    return httpx.Response(200, json=body if body is not None else {"ok": True})


# ---------------------------------------------------------------------------- building
def test_encode_fields_rules():
    assert encode_fields({"a": ["x", "y"], "b": False, "c": None, "d": 1.5, "e": Secret("s" * 20)}) == {
        "a": '["x","y"]', "b": "false", "d": "1.5", "e": "s" * 20}


def test_bearer_and_service_ak_headers():
    rec = Recorder(ok())
    c = core(rec)
    c.send(Call("GET", "api", "/v2/user/me", Bearer(Secret("tok-123"))))
    c.send(Call("GET", "local", "/v2/local/search/address.json", ServiceAK(Secret("rest-key"))))
    assert rec.requests[0].headers["authorization"] == "Bearer tok-123"
    assert str(rec.requests[0].url) == "http://svc.test/api/v2/user/me"
    assert rec.requests[1].headers["authorization"] == "ServiceAK rest-key"


def test_admin_mode_puts_target_in_query_for_get_and_form_for_post():
    rec = Recorder(ok())
    c = core(rec)
    auth = AdminFor(Secret("admin-key"), 42)
    c.send(Call("GET", "api", "/v2/user/scopes", auth, params={"scopes": ["profile", "friends"]}))
    c.send(Call("POST", "api", "/v2/user/revoke/scopes", auth, data={"scopes": ["friends"]}))
    get, post = rec.requests
    assert get.headers["authorization"] == "ServiceAK admin-key"
    q = parse_qs(get.url.query.decode())
    assert q == {"scopes": ['["profile","friends"]'], "target_id_type": ["user_id"], "target_id": ["42"]}
    assert post.headers["content-type"].startswith("application/x-www-form-urlencoded")
    form = parse_qs(post.content.decode())
    assert form == {"scopes": ['["friends"]'], "target_id_type": ["user_id"], "target_id": ["42"]}


_CHARS = list("aZ09 +&=/?%#[]@!$'()*,;:~._-\\\"{}|^`<>\n\t") + ["부", "산", "é", "😀"]
_TEXT = st.text(st.sampled_from(_CHARS), max_size=6)


@settings(max_examples=300, deadline=None)
@given(params=st.dictionaries(_TEXT.filter(bool), st.one_of(_TEXT, st.integers(), st.floats(allow_nan=False),
                                                            st.booleans(), st.none(), st.lists(_TEXT, max_size=2)),
                              max_size=5),
       method=st.sampled_from(["GET", "POST", "DELETE"]))
def test_the_query_joined_by_the_core_is_the_url_httpx_builds_from_params(params, method):
    """build() joins the encoded query to the URL itself (httpx would parse the URL again to merge it): the
    request is the one httpx builds from ``params=``, text of every kind included."""
    c = core(Recorder(ok()))
    call = Call(method, "local", "/v2/local/search/keyword.json", ServiceAK(Secret("rest-key")), params=params)
    built = c.build(c.http, call, 2.0)
    expected = c.http.build_request(method, c.url(call), params=encode_fields(params) or None)
    assert str(built.url) == str(expected.url) and built.url.params == expected.url.params
    assert built.url.raw_path == expected.url.raw_path and built.method == method


def test_admin_mode_rejects_a_non_numeric_target():
    with pytest.raises(errors.ParameterError, match="target_id"):
        AdminFor(Secret("k"), "abc")


def test_json_body():
    rec = Recorder(ok())
    core(rec).send(Call("POST", "navi", "/v1/waypoints/directions", ServiceAK(Secret("k")), json={"a": [1, 2]}))
    assert json.loads(rec.requests[0].content) == {"a": [1, 2]}
    assert rec.requests[0].headers["content-type"] == "application/json"


_JSON_LEAF = st.one_of(st.none(), st.booleans(), st.integers(), st.floats(), _TEXT)
_JSON = st.recursive(_JSON_LEAF, lambda inner: st.one_of(st.lists(inner, max_size=4),
                                                          st.dictionaries(_TEXT, inner, max_size=4)), max_leaves=12)


def _stdlib_body(value):
    """What httpx's ``json=`` sends."""
    return httpx.Request("POST", "http://svc.test/", json=value).content


@settings(max_examples=400, deadline=None)
@given(_JSON.filter(lambda v: v is not None))    # None is no body at all
def test_json_bodies_encode_as_the_standard_library_does(value):
    """dumps() (orjson when it can) sends what httpx's json= sends: the same JSON, or the same refusal (NaN and
    infinities; orjson would write them as null). Integers beyond 64 bits, nulls and floats of every size are
    among the examples."""
    try:
        expected = _stdlib_body(value)
    except ValueError as exc:
        with pytest.raises(type(exc)):
            dumps(value)
        return
    content = dumps(value)
    assert json.loads(content) == json.loads(expected)
    if b"e" not in expected:     # the two write some floats differently (1e16 and 1e+16): the same number
        assert content == expected


@pytest.mark.parametrize("value", [
    {"x": float("nan")}, [float("inf")], {"a": [1, {"b": float("-inf")}]},
])
def test_json_bodies_refuse_what_the_standard_library_refuses(value):
    with pytest.raises(ValueError, match="not JSON compliant"):
        dumps(value)


def test_json_bodies_of_types_orjson_would_write_differently():
    """Subclasses of the JSON types (numpy's floats among them), keys that are not text and dataclasses go to the
    standard library, which writes or refuses them as httpx's json= does."""
    import dataclasses

    import numpy as np

    @dataclasses.dataclass
    class Point:
        x: float

    assert dumps({"x": np.float64(129.05), "n": 3}) == b'{"x":129.05,"n":3}'
    assert dumps({1: "a", "b": 2**70}) == _stdlib_body({1: "a", "b": 2**70}) == b'{"1":"a","b":1180591620717411303424}'
    with pytest.raises(TypeError):
        dumps({"p": Point(1.0)})


def test_a_json_body_is_sent_as_httpx_sends_it():
    rec = Recorder(ok())
    body = {"origins": [{"key": "부산역", "x": 129.0414, "y": 35.1151}], "radius": 10000, "note": None}
    core(rec).send(Call("POST", "navi", "/v1/origins/directions", ServiceAK(Secret("k")), json=body))
    sent, expected = rec.requests[0], httpx.Request("POST", "http://svc.test/", json=body)
    assert sent.content == expected.content
    assert sent.headers["content-type"] == expected.headers["content-type"] == "application/json"
    assert sent.headers["content-length"] == expected.headers["content-length"]


# ---------------------------------------------------------------------------- error shapes
@pytest.mark.parametrize("status,body,cls,attrs", [
    (400, {"msg": "API limit has been exceeded.", "code": -10}, errors.QuotaExceeded, {"code": -10}),
    (401, {"msg": "invalid token", "code": -401}, errors.InvalidTokenError, {"code": -401, "status": 401}),
    (400, {"msg": "no scope", "code": -2}, errors.InvalidArgumentError, {"code": -2}),
    (403, {"msg": "not revocable", "code": -3}, errors.PermissionDeniedError, {"code": -3}),
    (400, {"msg": "not a story user", "code": -601}, errors.ApiError, {"code": -601}),
    (400, {"error": "invalid_token", "error_description": "bad format", "error_code": "KOE400"},
     errors.OAuthError, {"error_code": "KOE400"}),
    (400, {"error": "invalid_request", "error_description": "too many", "error_code": "KOE237"},
     errors.TokenRateLimited, {"error": "invalid_request"}),
    (400, {"err": "invalid_audience", "description": "aud"}, errors.WebhookValidationError,
     {"err": "invalid_audience"}),
    (404, "<html>nope</html>", errors.NotFoundError, {"status": 404}),
])
def test_every_error_shape_becomes_its_exception(status, body, cls, attrs):
    resp = httpx.Response(status, json=body) if isinstance(body, dict) else httpx.Response(status, text=body)
    c = core(Recorder(resp))
    with pytest.raises(cls) as info:
        c.send(Call("GET", "api", "/x"))
    assert type(info.value) is cls
    for key, value in attrs.items():
        assert getattr(info.value, key) == value


def test_redirect_error_shape():
    err = errors.redirect_error("https://app.test/cb?error=consent_required&error_description=x&state=abc")
    assert isinstance(err, errors.RedirectError) and err.state == "abc" and "prompt=none" in err.hint
    assert errors.redirect_error("https://app.test/cb?code=1&state=abc") is None


def test_error_message_carries_hint_and_endpoint():
    c = core(Recorder(httpx.Response(400, json={"msg": "API limit has been exceeded.", "code": -10})))
    with pytest.raises(errors.QuotaExceeded, match=r"code -10.*HTTP 400 local.search.*hint: API quota"):
        c.send(Call("GET", "local", "/x", name="local.search"))


# ---------------------------------------------------------------------------- retry policy
def test_429_is_retried_and_retry_after_is_honoured():
    rec = Recorder(httpx.Response(429, headers={"Retry-After": "0.2"}, json={"msg": "slow", "code": -9}), ok())
    c = core(rec)
    started = time.monotonic()
    assert c.send(Call("POST", "api", "/v2/api/talk/memo/send", data={"a": 1})) == {"ok": True}
    assert len(rec.requests) == 2
    assert time.monotonic() - started >= 0.2


def test_5xx_retried_for_get_only():
    rec = Recorder(httpx.Response(503, text="busy"), httpx.Response(500, text="x"), ok())
    assert core(rec).send(Call("GET", "api", "/x")) == {"ok": True}
    assert len(rec.requests) == 3

    rec = Recorder(httpx.Response(503, text="busy"), ok())
    with pytest.raises(errors.ApiError) as info:
        core(rec).send(Call("POST", "api", "/v2/api/talk/memo/send", data={"a": 1}))
    assert info.value.status == 503 and len(rec.requests) == 1


def test_post_marked_idempotent_is_retried_on_5xx():
    rec = Recorder(httpx.Response(502, text="x"), ok())
    core(rec).send(Call("POST", "navi", "/v1/waypoints/directions", json={}, idempotent=True))
    assert len(rec.requests) == 2


def test_connect_error_retried_even_for_post_but_read_timeout_is_not():
    rec = Recorder(httpx.ConnectError("refused"), ok())
    core(rec).send(Call("POST", "api", "/send", data={"a": 1}))
    assert len(rec.requests) == 2

    rec = Recorder(httpx.ReadTimeout("slow"), ok())
    with pytest.raises(errors.TransportError, match="timed out"):
        core(rec).send(Call("POST", "api", "/send", data={"a": 1}))
    assert len(rec.requests) == 1

    rec = Recorder(httpx.ReadTimeout("slow"), ok())
    assert core(rec).send(Call("GET", "api", "/read")) == {"ok": True}
    assert len(rec.requests) == 2


def test_quota_error_is_never_retried():
    rec = Recorder(httpx.Response(400, json={"msg": "API limit has been exceeded.", "code": -10}))
    with pytest.raises(errors.QuotaExceeded):
        core(rec).send(Call("GET", "api", "/x"))
    assert len(rec.requests) == 1


def test_attempts_are_capped():
    rec = Recorder(httpx.Response(503, text="down"))
    with pytest.raises(errors.ApiError) as info:
        core(rec, max_attempts=3).send(Call("GET", "api", "/x"))
    assert len(rec.requests) == 3 and info.value.status == 503


def test_total_time_cap_stops_a_long_retry_after():
    rec = Recorder(httpx.Response(429, headers={"Retry-After": "30"}, json={"msg": "wait", "code": -9}))
    started = time.monotonic()
    with pytest.raises(errors.ApiError) as info:
        core(rec, total_timeout=1.0).send(Call("GET", "api", "/x"))
    assert time.monotonic() - started < 1.0
    assert info.value.status == 429 and len(rec.requests) == 1


def test_flow_runs_calls_in_sequence_and_sees_errors():
    rec = Recorder(ok({"n": 1}), httpx.Response(400, json={"msg": "bad", "code": -2}))

    def flow():
        first = yield Call("GET", "api", "/one")
        try:
            yield Call("GET", "api", "/two")
        except errors.InvalidArgumentError as exc:
            return first["n"], exc.code

    assert core(rec).run(flow()) == (1, -2)


def test_async_twin_shares_policy():
    rec = Recorder(httpx.Response(503, text="busy"), ok({"async": True}), httpx.Response(503, text="busy"))
    c = core(rec)

    async def main():
        first = await c.asend(Call("GET", "api", "/x"))
        with pytest.raises(errors.ApiError):
            await c.asend(Call("POST", "api", "/send", data={"a": 1}))
        await c.aclose()
        return first

    assert asyncio.run(main()) == {"async": True}
    assert [r.method for r in rec.requests] == ["GET", "GET", "POST"]


def test_secrets_do_not_leak_into_reprs_or_errors():
    auth = Bearer(Secret("very-secret-access-token"))
    assert "very-secret" not in repr(auth)
    rec = Recorder(httpx.Response(401, json={"msg": "invalid", "code": -401}))
    with pytest.raises(errors.InvalidTokenError) as info:
        core(rec).send(Call("GET", "api", "/v2/user/me", auth))
    assert "very-secret" not in str(info.value) and "very-secret" not in repr(info.value)


def test_no_wait_is_started_that_would_pass_the_total_time_cap(monkeypatch):
    slept = []
    monkeypatch.setattr("toolkit.http.time.sleep", slept.append)
    rec = Recorder(httpx.Response(503, text="busy"), httpx.Response(429, headers={"Retry-After": "2"}), ok())
    assert core(rec, total_timeout=5.0).send(Call("GET", "api", "/x")) == {"ok": True}
    assert len(rec.requests) == 3 and slept[1] == 2.0 and 0.0 <= slept[0] <= 0.001

    slept.clear()
    rec = Recorder(httpx.Response(503, text="busy"), httpx.Response(429, headers={"Retry-After": "9"}), ok())
    with pytest.raises(errors.ApiError) as info:
        core(rec, total_timeout=5.0).send(Call("GET", "api", "/x"))
    assert info.value.status == 429 and info.value.attempts == 2 and len(slept) == 1


def test_async_waits_are_slept_on_the_event_loop_and_capped_like_sync():
    """asend: the same decisions as send (Retry-After honoured, no wait past the total time cap), each wait an
    asyncio sleep during which other tasks run."""
    rec = Recorder(httpx.Response(429, headers={"Retry-After": "0.2"}, json={"msg": "slow", "code": -9}), ok())
    c = core(rec)
    ticks = []

    async def ticker():
        while True:
            ticks.append(time.monotonic())
            await asyncio.sleep(0.02)

    async def main():
        tick = asyncio.create_task(ticker())
        started = time.monotonic()
        try:
            answer = await c.asend(Call("POST", "api", "/v2/api/talk/memo/send", data={"a": 1}))
        finally:
            tick.cancel()
        return answer, time.monotonic() - started

    answer, took = asyncio.run(main())
    assert answer == {"ok": True} and len(rec.requests) == 2 and took >= 0.2
    assert len(ticks) >= 5                  # the loop ran other work while the call waited

    rec = Recorder(httpx.Response(503, text="busy"), httpx.Response(429, headers={"Retry-After": "9"}), ok())
    c = core(rec, total_timeout=5.0)

    async def capped():
        started = time.monotonic()
        with pytest.raises(errors.ApiError) as info:
            await c.asend(Call("GET", "api", "/x"))
        return info.value, time.monotonic() - started

    err, took = asyncio.run(capped())
    assert err.status == 429 and err.attempts == 2 and len(rec.requests) == 2 and took < 1.0


@pytest.mark.parametrize("body", [
    b'{"x": "129.05", "n": 3, "f": 1.5, "z": -0.0, "k": "\xec\xb9\xb4\xed\x8e\x98", "a": [true, null]}',
    b'{"big": 123456789012345678901234567890, "neg": -98765432109876543210}',   # orjson: floats; json: ints
    b'{"edge": [9223372036854775807, 18446744073709551615, -9223372036854775808, 1e-400]}',
    b'{"overflow": 1e400}',                                # orjson refuses, json gives inf
    b'{"v": NaN, "w": Infinity}',                          # not JSON, but json.loads reads it

    b'\xef\xbb\xbf{"bom": 1}',
    '{"utf16": "카페"}'.encode("utf-16"),
    b'{"dup": 1, "dup": 2}',
])
def test_json_bodies_decode_exactly_as_the_standard_library(body):
    from toolkit.http import json_or_text, loads

    expected = json.loads(body)
    got = loads(body)
    assert json.dumps(got, sort_keys=True) == json.dumps(expected, sort_keys=True)
    assert type(got) is type(expected)
    response = httpx.Response(200, content=body, headers={"content-type": "application/json;charset=UTF-8"})
    assert json.dumps(json_or_text(response), sort_keys=True) == json.dumps(expected, sort_keys=True)


def test_a_body_that_is_not_json_stays_text():
    from toolkit.http import json_or_text

    response = httpx.Response(200, content=b"{not json", headers={"content-type": "application/json"})
    assert json_or_text(response) == "{not json"


_RUN_PIECES = [b"0", b"7", b"1234567890", b"123456789012345678", b"9" * 19, b"-", b".", b"e", b" ", b'"', b"\xec\xb9",
               b"\x00", b"\xff", b"a", b"\n", b","]


@settings(max_examples=400, deadline=None)
@given(st.lists(st.sampled_from(_RUN_PIECES), max_size=30), st.binary(max_size=30))
def test_long_number_check_agrees_with_the_regular_expression(pieces, noise):
    """loads() sends a body with 19 digits in a row to json (orjson reads such an integer as a float): the check,
    a translation and a substring search, finds exactly what re.search(rb"[0-9]{19}") finds."""
    import re

    from toolkit.http import _has_long_number

    for body in (b"".join(pieces), b"".join(pieces) + noise, noise + b"".join(pieces)):
        assert _has_long_number(body) is (re.search(rb"[0-9]{19}", body) is not None)
