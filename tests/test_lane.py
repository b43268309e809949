"""The request lane (``toolkit/sandbox/lane.py``) answers exactly as the whole stack does: the same requests
(good ones, bad parameters, missing or wrong keys, a quota used up, hostile query strings, a defect of a route)
sent to two sandboxes seeded alike, one app with the lane and one without, give the same messages byte for
byte (status, headers in order, body), the same request log and the same quota counts; requests the lane must
leave alone (a body, another method, the XML format, a root path) reach the whole stack."""
from __future__ import annotations

import asyncio
import urllib.parse

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from toolkit.sandbox.app import Sandbox, create_app

LOCAL = "/local/v2/local"
APIS = {"address": "search/address", "region": "geo/coord2regioncode", "addr": "geo/coord2address",
        "trans": "geo/transcoord", "keyword": "search/keyword", "category": "search/category"}


@pytest.fixture(scope="module")
def pair():
    sandboxes = [Sandbox(frozen=True), Sandbox(frozen=True)]
    apps = [create_app(sandboxes[0]), create_app(sandboxes[1], lane=False)]
    assert apps[0].lane is not None and apps[1].lane is None
    for sb in sandboxes:
        sb.apps.set_quota("100001", "local_geo_transcoord", 3)
    yield sandboxes, apps
    for sb in sandboxes:
        sb.store.close()


def call(app, method: str, path: str, query: bytes = b"", headers=(), body: bytes = b"", root_path: str = ""):
    """One request through the ASGI app: the messages it sent, and the exception it raised (or None)."""
    sent, chunks = [], [body]

    async def receive():
        return {"type": "http.request", "body": chunks.pop() if chunks else b"", "more_body": False}

    async def send(message):
        sent.append(message)

    scope = {"type": "http", "asgi": {"version": "3.0"}, "http_version": "1.1", "method": method, "scheme": "http",
             "server": ("127.0.0.1", 9), "client": ("127.0.0.1", 1), "root_path": root_path, "path": path,
             "raw_path": path.encode(), "query_string": query, "headers": [(b"host", b"127.0.0.1:9"), *headers]}
    try:
        asyncio.run(app(scope, receive, send))
        raised = None
    except Exception as exc:     # the stack answers 500, then raises again for the server's log
        raised = type(exc).__name__
    return sent, raised


def both(pair, *args, **kwargs):
    (sb_lane, sb_stack), (lane, stack) = pair
    before = lane.lane.answered
    got = call(lane, *args, **kwargs)
    want = call(stack, *args, **kwargs)
    assert got == want
    assert sb_lane.model("local").request_stats() == sb_stack.model("local").request_stats()
    return got, lane.lane.answered - before


def key_of(pair, kind="rest_api"):
    return pair[0][0].apps.public_config()["rest_api_key" if kind == "rest_api" else "admin_key"]


def q(**params) -> bytes:
    return urllib.parse.urlencode(params).encode()


def test_the_lane_answers_as_the_stack(pair):
    auth = [(b"authorization", f"ServiceAK {key_of(pair)}".encode())]
    cases = [
        ("address", q(query="부산 부산진구 전포동 341-17", size=1)),
        ("address", q(query="부산진구 중앙대로 672", analyze_type="exact")),
        ("address", q(query="서면", page=46)),
        ("address", q(query="")),
        ("address", b""),
        ("address", b"query=%EB%B6%80%EC%82%B0&query=x&size=2"),
        ("address", q(query="부산", size="²")),
        ("region", q(x=129.0598, y=35.1577)),
        ("region", q(x=129.0598, y=35.1577, output_coord="WTM")),
        ("region", q(x=1, y=2)),
        ("region", q(x="nan", y=2)),
        ("region", q(x=129.05)),
        ("addr", q(x=129.0598, y=35.1577)),
        ("addr", q(x=200000, y=450000, input_coord="WTM")),
        ("keyword", q(query="카페", rect="128.76,34.88,129.32,35.40", size=15)),
        ("keyword", q(query="서면 맛집", x=129.0598, y=35.1577, radius=500, sort="distance")),
        ("keyword", q(query="약국", category_group_code="PM9", x=129.06, y=35.16, radius=2000, page=2)),
        ("keyword", q(query="카페")),
        ("keyword", q(query="카페", rect="1,2,3")),
        ("keyword", q(query="   ", rect="128.76,34.88,129.32,35.40")),
        ("category", q(category_group_code="CE7", x=129.06, y=35.16, radius=500)),
        ("category", q(category_group_code="XX1", x=129.06, y=35.16, radius=500)),
        ("category", q(category_group_code="CE7", rect="129.0,35.1,129.1,35.2", page=45, size=15)),
        ("trans", q(x=129.06, y=35.16, output_coord="WTM")),
        ("trans", q(x=129.06, y=35.16, output_coord="WCONGNAMUL")),
        ("trans", q(x=129.06, y=35.16)),
        ("trans", q(x=129.06, y=35.16)),        # the quota of 3 is used up: -10
        ("address", b"query=%ED%A0%80"),         # a lone surrogate, UTF-8 encoded: refused by the guard
        ("address", b"query=%FF%FE"),            # not UTF-8
        ("address", b"query=a%00b"),             # NUL
        ("region", q(x="1" * 30, y=2)),          # beyond 64 bits
        ("address", b"query=" + b"%5B" * 40),    # deeper than 32 levels
    ]
    served = 0
    statuses = set()
    for api, query in cases:
        (sent, raised), n = both(pair, "GET", f"{LOCAL}/{APIS[api]}.json", query, auth)
        served += n
        statuses.add(sent[0]["status"])
        assert raised is None
    assert served == len(cases)
    assert statuses >= {200, 400}
    for api in ("local_geo_transcoord", "local_search_address"):
        assert pair[0][0].apps.usage("100001", api) == pair[0][1].apps.usage("100001", api)
    assert pair[0][0].apps.usage("100001", "local_geo_transcoord") == 3


@pytest.mark.parametrize("header", [None, b"ServiceAK", b"ServiceAK nope", b"Bearer abc", b"KakaoAK {rest}",
                                    b"ServiceAK {admin}", b"ServiceAK  {rest} "])
def test_keys_as_the_stack(pair, header):
    headers = []
    if header is not None:
        text = header.decode().format(rest=key_of(pair), admin=key_of(pair, "admin"))
        headers = [(b"authorization", text.encode())]
    (sent, _), served = both(pair, "GET", f"{LOCAL}/search/address.json", q(query="부산진구"), headers)
    assert served == 1


def test_the_first_authorization_header_counts(pair):
    good, bad = f"ServiceAK {key_of(pair)}".encode(), b"ServiceAK nope"
    (sent, _), _ = both(pair, "GET", f"{LOCAL}/search/address.json", q(query="서면"),
                        [(b"authorization", bad), (b"authorization", good)])
    assert sent[0]["status"] == 401


def test_what_the_lane_leaves_to_the_stack(pair):
    auth = [(b"authorization", f"ServiceAK {key_of(pair)}".encode())]
    path = f"{LOCAL}/search/address.json"
    for args, kwargs in [
        (("POST", path, q(query="서면"), auth), {}),
        (("HEAD", path, q(query="서면"), auth), {}),
        (("GET", f"{LOCAL}/search/address.xml", q(query="서면"), auth), {}),
        (("GET", path, q(query="서면"), [*auth, (b"content-length", b"2")]), {"body": b"{}"}),
        (("GET", path, q(query="서면"), [*auth, (b"content-length", b"x")]), {}),
        (("GET", path, q(query="서면"), [*auth, (b"transfer-encoding", b"chunked")]), {}),
        (("GET", path + "/", q(query="서면"), auth), {}),
        (("GET", "/local/v2/local/search/address.JSON", q(query="서면"), auth), {}),
    ]:
        _, served = both(pair, *args, **kwargs)
        assert served == 0, args[:2]


def test_a_defect_is_answered_500_then_raised(pair, monkeypatch):
    def broken(*args, **kwargs):
        raise ZeroDivisionError("a defect")

    for sb in pair[0]:
        monkeypatch.setattr(sb.model("local"), "regions_at", broken)
    auth = [(b"authorization", f"ServiceAK {key_of(pair)}".encode())]
    (sent, raised), served = both(pair, "GET", f"{LOCAL}/geo/coord2regioncode.json", q(x=129.06, y=35.16), auth)
    assert served == 1 and raised == "ZeroDivisionError" and sent[0]["status"] == 500
    assert b"ZeroDivisionError" in sent[1]["body"]


names = st.sampled_from(["query", "x", "y", "radius", "rect", "page", "size", "sort", "analyze_type",
                         "category_group_code", "input_coord", "output_coord", "q", ""])
values = st.one_of(st.text(max_size=12), st.integers(-10 ** 20, 10 ** 20).map(str),
                   st.floats(allow_nan=True, allow_infinity=True).map(str),
                   st.sampled_from(["129.06", "35.16", "500", "1", "15", "distance", "CE7", "WTM", "부산진구 카페",
                                    "128.76,34.88,129.32,35.40", "similar", "exact"]))


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(api=st.sampled_from(sorted(APIS)), pairs=st.lists(st.tuples(names, values), max_size=6),
       raw=st.binary(max_size=12))
def test_any_query_as_the_stack(pair, api, pairs, raw):
    auth = [(b"authorization", f"ServiceAK {key_of(pair)}".encode())]
    query = "&".join(f"{urllib.parse.quote(k, safe='')}={urllib.parse.quote(v, safe='', errors='surrogatepass')}"
                     for k, v in pairs).encode("ascii") + (b"&" + raw if raw else b"")
    (sent, raised), served = both(pair, "GET", f"{LOCAL}/{APIS[api]}.json", query, auth)
    assert served == 1
    assert raised is None and sent[0]["status"] in (200, 400)
