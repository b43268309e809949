"""Hand-written hostile input, class by class, against every operation of the OpenAPI document and the control
API: never a 5xx, and a refused request (4xx) leaves the store exactly as it was.

Per operation, each class of :data:`FIELD_VALUES` is sent in every documented field at once (query fields in
the query string; form or JSON fields in the body), and each class of :data:`RAW_BODIES` as the whole body.
The number of cases is printed at the end of the module (``-s``) and checked against the product of the tables.
"""
from __future__ import annotations

import json
from urllib.parse import quote

import pytest

from .conftest import concrete, encode_pairs, fields_of, operations

DEEP = "[" * 100 + "]" * 100
DEEP_OBJECT = '{"a":' * 100 + "1" + "}" * 100

# Field values: raw bytes go out percent-encoded as given; text is percent-encoded as UTF-8.
FIELD_VALUES: dict[str, bytes | str] = {
    "deep JSON array": DEEP,
    "deep JSON object": DEEP_OBJECT,
    "integer beyond 64 bits": "99999999999999999999999",
    "negative integer beyond 64 bits": "-99999999999999999999999",
    "superscript digit": "²",
    "Arabic-Indic digits": "١٢",
    "full-width digits": "１２",
    "mixed-script number": "1²3",
    "invalid UTF-8": b"%FF%FE%FD",
    "overlong UTF-8": b"%C0%AF",
    "lone surrogate (UTF-8 of U+D800)": b"%ED%A0%80",
    "NUL byte": b"a%00b",
    "CR LF header injection": "x\r\nSet-Cookie: a=b\r\nLocation: http://evil.test",
    "very long text": "A" * 3_000,
    "NaN": "NaN",
    "Infinity": "-Infinity",
    "float overflow": "1e999",
    "JSON array with a lone surrogate escape": '["\\ud800"]',
    "JSON with duplicate keys": '{"a": 1, "a": 2}',
    "JSON with a NaN": '[NaN]',
    "JSON with a 64-bit overflow": "[18446744073709551616]",
}

JSON_BODY = "application/json"
RAW_BODIES: dict[str, tuple[bytes, str]] = {
    "deep JSON body": (DEEP.encode(), JSON_BODY),
    "deep JSON object body": (DEEP_OBJECT.encode(), JSON_BODY),
    "JSON body with a lone surrogate escape": (b'{"user_id": "\\udc80"}', JSON_BODY),
    "JSON body with an integer beyond 64 bits": (b'{"user_id": 123456789012345678901234567890}', JSON_BODY),
    "JSON body with NaN": (b'{"advance": NaN}', JSON_BODY),
    "JSON body with Infinity": (b'{"advance": Infinity}', JSON_BODY),
    "JSON body with 1e999": (b'{"advance": 1e999}', JSON_BODY),
    "JSON body with duplicate keys": (b'{"user_id": 1, "user_id": 2}', JSON_BODY),
    "JSON body with a huge array": (json.dumps({"users": [{"id": str(i)} for i in range(40_000)]}).encode(),
                                    JSON_BODY),
    "body over the size bound": (b"[" + b"0," * 1_100_000 + b"0]", JSON_BODY),
    "invalid UTF-8 body": (b'{"a": "\xff\xfe"}', JSON_BODY),
    "JSON body with a NUL": (b'{"a": "x\\u0000y"}', JSON_BODY),
    "JSON body that is a bare string": (b'"\xed\xa0\x80"', JSON_BODY),
    "form body sent as JSON": (b"a=1&b=2", JSON_BODY),
    "JSON sent as a form": (b'{"a": 1}', "application/x-www-form-urlencoded"),
    "form body with invalid UTF-8": (b"a=%FF", "application/x-www-form-urlencoded"),
    "form body with a deep JSON field": (b"template_object=" + quote(DEEP).encode(), "application/x-www-form-urlencoded"),
    "broken multipart": (b"--x\r\nContent-Disposition: form-data; name=\"a\"\r\n\r\n\xff\r\n--x--\r\n",
                         "multipart/form-data; boundary=x"),
    "multipart without boundary": (b"junk", "multipart/form-data"),
    "unknown content type": (b"\x00\x01\x02", "application/octet-stream"),
}



def control_routes() -> list[tuple[str, str]]:
    """Every route of the control API (``/sandbox/...``), read from the app's router."""
    from starlette.routing import Mount

    from toolkit.sandbox.app import Sandbox, create_app

    out = []
    for mount in create_app(Sandbox(frozen=True)).routes:
        if isinstance(mount, Mount) and mount.path == "/sandbox":
            for route in mount.routes:
                if "{" in route.path:
                    continue
                out.extend((m, "/sandbox" + route.path) for m in sorted(route.methods or ()) if m != "HEAD")
    return out


CONTROL = control_routes()
CONTROL_FIELDS = ["advance", "set", "freeze", "user_id", "email", "scopes", "api", "limit", "unlink", "app_id",
                  "channel_public_id", "reason", "token_rate_limit", "auto_link", "nonce", "service_terms", "url"]

OPS = operations()
COUNT = {"field": 0, "body": 0, "control": 0, "refused": 0}


def _check(failures, hostile, response, before, label):
    try:
        _assert_refused_cleanly(hostile, response, before, label)
    except AssertionError as exc:
        failures.append(str(exc)[:300])


def _assert_refused_cleanly(hostile, response, before, label):
    assert response.status_code < 500, (label, response.status_code, response.text[:300])
    if 300 <= response.status_code < 400:
        location = response.headers.get("location", "")
        assert "\r" not in location and "\n" not in location, (label, location)
    for name, value in response.headers.items():
        assert name.lower() != "set-cookie" or "a=b" not in value, (label, "header injection")
    if 400 <= response.status_code < 500:
        COUNT["refused"] += 1
        assert hostile.snapshot() == before, f"{label}: a refused request changed the store"
        ctype = response.headers.get("content-type", "")
        if ctype.startswith("application/json"):
            body = response.json()
            assert ({"msg", "code"} <= set(body)) or ("error" in body), (label, body)


@pytest.mark.parametrize("klass", list(FIELD_VALUES))
def test_field_values_over_every_operation(hostile, klass):
    failures: list[str] = []
    value = FIELD_VALUES[klass]
    for method, path, op in OPS:
        query, props, ctype = fields_of(op)
        headers = hostile.headers(op)
        before = hostile.snapshot()
        query_bytes = encode_pairs([(n, value) for n in query])
        body = None
        if props and ctype == "application/json" and not isinstance(value, bytes):
            body = json.dumps({n: value for n in props}).encode()
        elif props:
            body = encode_pairs([(n, value) for n in props])
            ctype = "application/x-www-form-urlencoded" if ctype != "multipart/form-data" else ctype
            if ctype == "multipart/form-data":
                ctype, body = "application/x-www-form-urlencoded", body
        response = hostile.send(method, concrete(path), query=query_bytes, body=body,
                                ctype=ctype if body is not None else None, headers=headers)
        COUNT["field"] += 1
        _check(failures, hostile, response, before, f"{klass}: {method} {path}")
    assert not failures, failures


@pytest.mark.parametrize("klass", list(RAW_BODIES))
def test_raw_bodies_over_every_operation(hostile, klass):
    failures: list[str] = []
    body, ctype = RAW_BODIES[klass]
    for method, path, op in OPS:
        if method == "GET":
            continue
        before = hostile.snapshot()
        response = hostile.send(method, concrete(path), body=body, ctype=ctype, headers=hostile.headers(op))
        COUNT["body"] += 1
        _check(failures, hostile, response, before, f"{klass}: {method} {path}")
    assert not failures, failures


@pytest.mark.parametrize("klass", list(RAW_BODIES) + list(FIELD_VALUES))
def test_control_api(hostile, klass):
    failures: list[str] = []
    for method, path in CONTROL:
        before = hostile.snapshot()
        if klass in RAW_BODIES:
            if method == "GET":
                continue
            body, ctype = RAW_BODIES[klass]
            response = hostile.send(method, path, body=body, ctype=ctype)
        else:
            value = FIELD_VALUES[klass]
            text = value.decode() if isinstance(value, bytes) else value
            fields = CONTROL_FIELDS
            if method == "GET":
                response = hostile.send(method, path, query=encode_pairs([(f, value) for f in fields]))
            else:
                response = hostile.send(method, path, body=json.dumps({f: text for f in fields}).encode(),
                                        ctype="application/json")
        COUNT["control"] += 1
        _check(failures, hostile, response, before, f"{klass}: {method} {path}")
    assert not failures, failures


@pytest.mark.parametrize("change", [
    {"advance": 1e300}, {"advance": -1}, {"advance": "soon"}, {"advance": True}, {"set": "2999-01-01T00:00:00Z"},
    {"set": "not a time"}, {"set": 1e20}, {"set": "2026-12-01T00:00:00Z", "advance": 1e300},
    {"freeze": "yes"}, {"set": "2026-12-01T00:00:00Z", "freeze": 1}, {}, {"rewind": 10},
])
def test_refused_clock_change_changes_nothing(hostile, change):
    before = hostile.snapshot()
    clock = hostile.http.get(f"{hostile.base}/sandbox/clock").json()
    r = hostile.http.post(f"{hostile.base}/sandbox/clock", json=change)
    assert r.status_code == 400 and r.json()["code"] == -2, r.text
    assert hostile.snapshot() == before
    assert hostile.http.get(f"{hostile.base}/sandbox/clock").json() == clock
    assert hostile.http.get(f"{hostile.base}/sandbox/health").status_code == 200


PATHS = [("POST", "/sandbox/social/stories/{}/likes"), ("POST", "/sandbox/social/stories/{}/comments"),
         ("GET", "/sandbox/social/pages/{}"), ("GET", "/local/v2/local/search/keyword.{}"),
         ("GET", "/local/v2/local/search/address.{}")]
PATH_VALUES = [b"%ED%A0%80", b"%FF", b"99999999999999999999999", b"%C2%B2", b"%00", b"..%2F..%2Fsandbox%2Fconfig",
               b"%0D%0ALocation:%20x", b"A" * 4000]


@pytest.mark.parametrize("method,template", PATHS)
def test_hostile_path_parameters(hostile, method, template):
    failures: list[str] = []
    for value in PATH_VALUES:
        before = hostile.snapshot()
        path = template.replace("{}", value.decode())
        response = hostile.send(method, path, headers={"Authorization": f"ServiceAK {hostile.app['rest_api_key']}"})
        COUNT["path"] = COUNT.get("path", 0) + 1
        _check(failures, hostile, response, before, f"path {value[:30]!r}: {method} {template}")
    assert not failures, failures


HEADER_VALUES = [b"ServiceAK \xc3\xa9\xc3\xa9", b"ServiceAK \xff\xfe", b"Bearer \xed\xa0\x80", b"Bearer " + b"x" * 8000,
                 b"ServiceAK", b"Bearer", b"\x01\x02"]


def _raw(hostile, path: str, header: bytes) -> int:
    """Send one request over a raw socket (bytes a client library would refuse) and return the status."""
    import socket
    from urllib.parse import urlsplit

    parts = urlsplit(hostile.base)
    with socket.create_connection((parts.hostname, parts.port), timeout=30) as sock:
        sock.sendall(b"GET " + path.encode() + b" HTTP/1.1\r\nHost: x\r\nAuthorization: " + header
                     + b"\r\nConnection: close\r\n\r\n")
        data = b""
        while chunk := sock.recv(65536):
            data += chunk
    return int(data.split(b" ", 2)[1])


@pytest.mark.parametrize("path", ["/local/v2/local/search/keyword.json?query=a", "/api/v2/user/me",
                                  "/api/v1/talkchannel/target_user_file?channel_public_id=_xcLqmC"])
def test_hostile_authorization_headers(hostile, path):
    for header in HEADER_VALUES:
        before = hostile.snapshot()
        status = _raw(hostile, path, header)
        COUNT["header"] = COUNT.get("header", 0) + 1
        assert status < 500 and (status == 400 or status == 401 or status == 431), (header[:30], status)
        assert hostile.snapshot() == before


def test_case_counts(hostile):
    """Runs last in the module: the counts match the tables (every case was sent)."""
    if not COUNT["field"]:
        pytest.skip("counts only after the class tests of this module")
    posts = sum(1 for m, _, _ in OPS if m != "GET")
    expected_field = len(FIELD_VALUES) * len(OPS)
    expected_body = len(RAW_BODIES) * posts
    expected_control = len(RAW_BODIES) * sum(1 for m, _ in CONTROL if m != "GET") + len(FIELD_VALUES) * len(CONTROL)
    print(f"\nhostile cases: {COUNT['field']} field cases ({len(FIELD_VALUES)} classes x {len(OPS)} operations), "
          f"{COUNT['body']} body cases ({len(RAW_BODIES)} classes x {posts} operations with a body), "
          f"{COUNT['control']} control-API cases, {COUNT.get('path', 0)} path-parameter cases "
          f"({len(PATH_VALUES)} x {len(PATHS)}), {COUNT.get('header', 0)} raw Authorization-header cases "
          f"({len(HEADER_VALUES)} x 3); {COUNT['refused']} refused with a 4xx and an unchanged store")
    assert (COUNT["field"], COUNT["body"], COUNT["control"]) == (expected_field, expected_body, expected_control)
    assert COUNT.get("path") == len(PATH_VALUES) * len(PATHS) and COUNT.get("header") == len(HEADER_VALUES) * 3
