"""Cassettes against a fake service (an httpx.MockTransport standing in for a real service's hosts): what is
scrubbed and how stably, how requests are matched, the error of a missing one, the file and the notebook it
travels in, and what connect() refuses. No sandbox: these run in about a second."""
from __future__ import annotations

import asyncio
import base64
import doctest
import json
import os
import stat
import time
from pathlib import Path

import httpx
import jwt
import pytest
from cryptography.hazmat.primitives.asymmetric import rsa

import toolkit
import toolkit.cassette as cassette_module
from toolkit.cassette import CassetteError, CassetteMiss
from toolkit.errors import ConfigurationError, ToolkitError
from toolkit.http import Bearer, Call, ServiceAK

HOSTS = {name: f"https://{name}.service.test" for name in ("auth", "api", "local", "navi", "status")}
KEYS = {"rest_api_key": "3f9a6c0d2b7e41aa9c55e0f1d2c3b4a5", "admin_key": "a7c1e5d9b3f2468092aa11bb22cc33dd",
        "client_secret": "Zq8uY2pL0sVt6wXr4nHk1mJe9bGc3fDa"}
EMAIL, PHONE = "minji.kim@corp-mail.example", "+82 10-4821-7730"
ACCESS, REFRESH = "vK3pQ9sT1wY6zB8dF2hJ5mN7rU0xA4cE_gI-lO", "R9eW2qT6yU1iO3pA5sD7fG8hJ0kL4zX_cV-bN"
SIGNING = rsa.generate_private_key(public_exponent=65537, key_size=2048)


def id_token(nonce="n-0", iat=None):
    iat = int(time.time()) if iat is None else iat
    claims = {"iss": HOSTS["auth"], "aud": KEYS["rest_api_key"], "sub": "4100000001", "iat": iat, "exp": iat + 600,
              "auth_time": iat, "nonce": nonce, "nickname": "민지", "email": EMAIL}
    return jwt.encode(claims, SIGNING, algorithm="RS256", headers={"kid": "service-key-1"})


class FakeService:
    """A service on the five hosts: a token endpoint, JWKS, user/me, shipping addresses, a counter that answers
    identical requests differently, a 429 once, a search; every request it got is kept."""

    def __init__(self):
        self.seen: list[httpx.Request] = []
        self.counter = 0
        self.throttled = False
        self.nonce = "n-0"

    def __call__(self, request: httpx.Request) -> httpx.Response:
        self.seen.append(request)
        path = request.url.path
        if path == "/oauth/token":
            return httpx.Response(200, json={"token_type": "bearer", "access_token": ACCESS, "expires_in": 21599,
                                             "refresh_token": REFRESH, "refresh_token_expires_in": 5183999,
                                             "id_token": id_token(self.nonce), "scope": "profile openid account_email"},
                                  headers={"Set-Cookie": f"sid={ACCESS}; HttpOnly"})
        if path == "/oauth/business/token":
            return httpx.Response(200, json={"access_token": "B" + ACCESS[1:], "token_type": "bearer",
                                             "scope": "keyword_manage"})
        if path == "/.well-known/jwks.json":
            key = jwt.algorithms.RSAAlgorithm.to_jwk(SIGNING.public_key(), as_dict=True)
            return httpx.Response(200, json={"keys": [{**key, "kid": "service-key-1", "alg": "RS256", "use": "sig"}]})
        if path == "/v2/user/me":
            return httpx.Response(200, json={"id": 4100000001, "kakao_account": {
                "email": EMAIL, "phone_number": PHONE, "profile": {"nickname": "민지"}}})
        if path == "/v1/user/shipping_address":
            return httpx.Response(200, json={"user_id": 4100000001, "shipping_addresses": [
                {"id": 1, "name": "집", "base_address": "부산 부산진구 중앙대로 692", "detail_address": "3층 301호",
                 "receiver_name": "김민지", "receiver_phone_number1": PHONE, "zone_number": "47285"}]})
        if path == "/count":
            self.counter += 1
            return httpx.Response(200, json={"n": self.counter})
        if path == "/busy":
            if not self.throttled:
                self.throttled = True
                return httpx.Response(429, json={"msg": "slow down", "code": -10}, headers={"Retry-After": "0"})
            return httpx.Response(200, json={"ok": True})
        if path == "/echo":
            body = request.content.decode("utf-8", "replace")
            return httpx.Response(200, json={"query": dict(request.url.params), "body": body,
                                             "note": f"contact {EMAIL} for details"})
        return httpx.Response(200, json={"documents": [{"address_name": request.url.params.get("query", "")}],
                                         "meta": {"total_count": 1}})


@pytest.fixture
def service():
    return FakeService()


def recorder(path, service, **kw):
    return toolkit.connect(HOSTS, **KEYS, redirect_uri="http://localhost:8765/callback", record=path,
                           transport=httpx.MockTransport(service), async_transport=httpx.MockTransport(service), **kw)


def log_in(tk, service):
    """A login as a notebook against a service does it: authorize URL, the browser (here: a code), complete."""
    req = tk.oauth.authorize_url(["profile", "openid", "account_email"])
    service.nonce = req.nonce
    return tk.oauth.complete(req, f"{req.redirect_uri}?code=SplxlOBeZQQYbYS6WxSbIA&state={req.state}")


# ------------------------------------------------------------------------------------------ the module's examples
def test_the_docstring_examples_of_the_module_run():
    result = doctest.testmod(cassette_module)
    assert result.failed == 0 and result.attempted > 0


def test_toolkit_cassette_is_reachable_from_import_toolkit_and_not_imported_by_it():
    import subprocess
    import sys

    code = ("import sys, toolkit; loaded = 'toolkit.cassette' in sys.modules; "
            "print(loaded, toolkit.cassette.EMBED_LIMIT)")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["False", str(toolkit.cassette.EMBED_LIMIT)]


# ------------------------------------------------------------------------------------------ scrubbing
def test_secrets_become_stable_placeholders_and_the_file_holds_none(tmp_path, service):
    path = tmp_path / "s.har"
    with recorder(path, service) as tk:
        token = log_in(tk, service)
        tk.user.me()
        tk.user.me(target_id=4100000001)
        tk.user.shipping_addresses()
        tk.core.run(Call("POST", "api", "/echo", Bearer(token.access_token),
                         data={"refresh_token": REFRESH, "scopes": ["profile"], "memo": f"to {EMAIL}"}))
        tk.core.run(Call("POST", "api", "/v1/talkchannel/create/target_users", ServiceAK(KEYS["admin_key"]),
                         json={"file_id": 7, "user_type": "phone", "users": [{"id": PHONE, "field": {"n": 1}}]}))
        tk.oauth.tokeninfo(token.id_token)
    text = path.read_text("utf-8")
    for secret in (*KEYS.values(), ACCESS, REFRESH, EMAIL, PHONE, token.id_token.reveal(), "SplxlOBeZQQYbYS6WxSbIA",
                   token_verifier(service), "김민지", "3층 301호", "중앙대로 692"):
        assert secret not in text and json.dumps(secret)[1:-1] not in text, secret
    entries = json.loads(text)["log"]["entries"]
    auth = [h["value"] for e in entries for h in e["request"]["headers"] if h["name"] == "Authorization"]
    # the token of the login answer and the Bearer header of later calls: one placeholder
    assert "Bearer scrubbed-access-token-1" in auth and "ServiceAK scrubbed-admin-key" in auth
    assert text.count("scrubbed-email-1@example.invalid") >= 3 and "scrubbed-email-2" not in text
    assert "scrubbed-phone-1" in text and "scrubbed-phone-2" not in text
    assert "Set-Cookie" not in text and "sid=" not in text
    # readable: Hangul as it is (not \\u escapes), the form fields of each request listed
    assert '\\"nickname\\":\\"민지\\"' in text and "\\\\ubbfc" not in text
    echo = next(e for e in entries if e["request"]["url"].endswith("/echo"))
    fields = {p["name"]: p["value"] for p in echo["request"]["postData"]["params"]}
    assert fields["refresh_token"] == "scrubbed-refresh-token-1"
    assert fields["memo"] == "to scrubbed-email-1@example.invalid"


# the answers of the spec (identity §2, §4.13-4.19) that carry a user's personal data, with every documented field
DOCUMENTED = {
    "/v1/oidc/userinfo": {"sub": "4100000001", "name": "김민지", "nickname": "민지", "picture": "https://p.test/1.jpg",
                          "email": EMAIL, "email_verified": True, "gender": "FEMALE", "birthdate": "1994-03-07",
                          "phone_number": PHONE, "phone_number_verified": True},
    "/v1/user/shipping_address": {"user_id": 4100000001, "shipping_addresses_needs_agreement": False,
                                  "shipping_addresses": [{
                                      "id": 9, "name": "회사", "is_default": True, "updated_at": 1795816336,
                                      "type": "NEW", "base_address": "부산 해운대구 센텀중앙로 97",
                                      "detail_address": "A동 1204호", "receiver_name": "김민지",
                                      "receiver_phone_number1": PHONE, "receiver_phone_number2": "+82 51-555-0199",
                                      "zone_number": "48058", "zip_code": "612-020"}]},
    "/v1/business/userinfo": {"token_user_id": "b-77", "email": "minji.biz@corp-mail.example", "email_verified": True},
}
KEPT = {"민지", "FEMALE", "회사", "48058", "https://p.test/1.jpg", "b-77", "4100000001"}


def test_the_personal_data_of_the_spec_s_documented_answers_is_scrubbed(tmp_path):
    def documented(request):
        return httpx.Response(200, json=DOCUMENTED[request.url.path])

    path = tmp_path / "documented.har"
    with toolkit.connect(HOSTS, **KEYS, record=path, transport=httpx.MockTransport(documented)) as tk:
        for where in DOCUMENTED:
            tk.core.run(Call("GET", "api", where, Bearer(ACCESS)))
    text = path.read_text("utf-8")
    personal = [EMAIL, PHONE, "+82 51-555-0199", "김민지", "1994-03-07", "센텀중앙로 97", "A동 1204호",
                "minji.biz@corp-mail.example"]
    assert not [v for v in personal if v in text or json.dumps(v)[1:-1] in text]
    assert not [v for v in KEPT if v not in text and json.dumps(v)[1:-1] not in text], "scrubbed more than it should"
    with toolkit.connect(replay=path) as tk:
        info = tk.core.run(Call("GET", "api", "/v1/oidc/userinfo", Bearer("scrubbed-access-token-1")))
    assert info["name"].startswith("scrubbed-name-") and info["nickname"] == "민지"
    assert info["phone_number"] == "scrubbed-phone-1" and info["birthdate"].startswith("scrubbed-birth-")


def token_verifier(service) -> str:
    body = next(r for r in service.seen if r.url.path == "/oauth/token").content.decode()
    return dict(x.split("=", 1) for x in body.split("&"))["code_verifier"]


def test_a_replayed_login_verifies_its_id_token_by_the_recording_s_clock(tmp_path, service, monkeypatch):
    path = tmp_path / "login.har"
    with recorder(path, service) as tk:
        claims = dict(log_in(tk, service).claims)
        tk.user.me()
    real = time.time()
    monkeypatch.setattr(time, "time", lambda: real + 3 * 86400)     # a colleague replays it three days later
    with toolkit.connect(replay=path) as again:
        req = again.oauth.authorize_url(["profile", "openid", "account_email"])
        token = again.oauth.complete(req, again.cassette.redirect(req))
        assert dict(token.claims) == {**claims, "aud": "scrubbed-rest-api-key",
                                      "email": "scrubbed-email-1@example.invalid"}
        assert again.user.me()["kakao_account"]["email"] == "scrubbed-email-1@example.invalid"
    # the same token request with another code is not the recorded one
    with toolkit.connect(replay=path) as other:
        req = other.oauth.authorize_url(["profile"])
        with pytest.raises(CassetteMiss, match="code='scrubbed-code-1'"):
            other.oauth.complete(req, f"{req.redirect_uri}?code=another&state={req.state}")


def test_the_login_widget_replays_with_its_log_in_as_recorded_button(tmp_path, service):
    pytest.importorskip("ipywidgets")
    from toolkit.widgets import LoginWidget

    path = tmp_path / "w.har"
    with recorder(path, service) as tk:
        log_in(tk, service)
        tk.user.me()
    with toolkit.connect(replay=path) as again:
        box = LoginWidget(again, scopes=["profile", "openid"])
        assert not hasattr(box, "demo_button")
        box.replay_button.click()
        assert "logged in" in box.status.value and "scrubbed-email-1@example.invalid" in box.profile.value


def test_a_business_login_replays_through_the_recording_s_browser_too(tmp_path, service):
    path = tmp_path / "biz.har"
    with recorder(path, service) as tk:
        req = tk.business.authorize_url(["keyword_manage"])
        tk.business.complete(req, f"{req.redirect_uri}?code=BizCode0123456789&state={req.state}")
    assert "BizCode0123456789" not in path.read_text() and "B" + ACCESS[1:] not in path.read_text()
    with toolkit.connect(replay=path) as tk:
        req = tk.business.authorize_url(["keyword_manage"])
        assert tk.business.complete(req, tk.cassette.redirect(req)).scopes == ["keyword_manage"]
        with pytest.raises(CassetteError, match="recorded no login"):     # no user login in this cassette
            tk.cassette.redirect(tk.oauth.authorize_url(["profile"]))


# ------------------------------------------------------------------------------------------ matching
def test_identical_requests_answer_in_recorded_order_whatever_order_they_replay_in(tmp_path, service):
    path = tmp_path / "order.har"
    with recorder(path, service) as tk:
        first = [tk.core.run(Call("GET", "api", "/count", params={"k": k})) for k in ("a", "b", "a", "b", "a")]
    assert [x["n"] for x in first] == [1, 2, 3, 4, 5]

    async def replayed():
        async with toolkit.connect_async(replay=path) as atk:
            calls = [Call("GET", "api", "/count", params={"k": k}) for k in ("b", "a", "a", "b", "a", "a")]
            return await asyncio.gather(*(atk.core.arun(c) for c in calls))

    got = asyncio.run(replayed())
    # each key's answers in recorded order, whichever task asks first; a spent key answers its last again
    keys = ("b", "a", "a", "b", "a", "a")
    assert sorted(x["n"] for k, x in zip(keys, got) if k == "a") == [1, 3, 5, 5]
    assert sorted(x["n"] for k, x in zip(keys, got) if k == "b") == [2, 4]
    with toolkit.connect(replay=path) as tk:        # one after the other: exactly the recorded sequence
        assert [tk.core.run(Call("GET", "api", "/count", params={"k": k}))["n"] for k in "aabba"] == [1, 3, 2, 4, 5]
    assert service.counter == 5                     # the replays never reached the service


def test_fields_match_in_any_order_and_a_login_s_volatile_fields_are_ignored(tmp_path, service):
    path = tmp_path / "fields.har"
    with recorder(path, service) as tk:
        tk.core.run(Call("POST", "api", "/echo", data={"a": "1", "b": "두"}, params={"x": "1", "y": "2"}))
        tk.core.run(Call("POST", "api", "/echo", json={"origins": [{"x": 1.5}], "radius": 3}))
        tk.core.run(Call("POST", "auth", "/echo", data={"state": "s1", "nonce": "n1", "code_verifier": "v1"}))
    with toolkit.connect(replay=path) as tk:
        assert tk.core.run(Call("POST", "api", "/echo", data={"b": "두", "a": "1"}, params={"y": "2", "x": "1"}))
        assert tk.core.run(Call("POST", "api", "/echo", json={"radius": 3, "origins": [{"x": 1.5}]}))
        assert tk.core.run(Call("POST", "auth", "/echo", data={"state": "s2", "nonce": "n2", "code_verifier": "v2"}))
        with pytest.raises(CassetteMiss, match="differs in body"):
            tk.core.run(Call("POST", "api", "/echo", json={"radius": 4, "origins": [{"x": 1.5}]}))


def test_a_customer_file_of_phone_numbers_replays_though_the_file_holds_placeholders(tmp_path, service):
    """The notebook reads the phone numbers from its own customer file, so a replay sends the real ones: personal
    fields are not compared, and a miss never shows them."""
    phones = [PHONE, "010-9876-5432", "+82 10 2222 3333"]

    def upload(tk, ids, file_id=7):
        return tk.core.run(Call("POST", "api", "/echo", ServiceAK(KEYS["admin_key"]), json={
            "file_id": file_id, "user_type": "phone", "users": [{"id": i, "field": {"n": 1}} for i in ids]}))

    path = tmp_path / "phones.har"
    with recorder(path, service) as tk:
        upload(tk, phones)
    assert not [p for p in phones if p in path.read_text()]
    with toolkit.connect(replay=path) as tk:
        tk.core.run(Call("POST", "api", "/echo", ServiceAK("scrubbed-admin-key"), json={
            "file_id": 7, "user_type": "phone", "users": [{"id": i, "field": {"n": 1}} for i in phones]}))
        with pytest.raises(CassetteMiss) as err:           # another file: not the recorded request
            tk.core.run(Call("POST", "api", "/echo", ServiceAK("scrubbed-admin-key"), json={
                "file_id": 8, "user_type": "phone", "users": [{"id": i, "field": {"n": 1}} for i in phones]}))
    assert "differs in body" in str(err.value) and not [p for p in phones if p in str(err.value)]


def test_a_retried_request_replays_its_attempts(tmp_path, service):
    path = tmp_path / "retry.har"
    with recorder(path, service) as tk:
        assert tk.core.run(Call("GET", "api", "/busy")) == {"ok": True}
    statuses = [e["response"]["status"] for e in json.loads(path.read_text())["log"]["entries"]]
    assert statuses == [429, 200]
    with toolkit.connect(replay=path) as tk:
        assert tk.core.run(Call("GET", "api", "/busy")) == {"ok": True}
        assert [o for _, o in tk.core.attempts_log] == [429, 200]


def test_a_missing_request_names_itself_and_the_closest_recorded_one_without_a_secret(tmp_path, service):
    path = tmp_path / "miss.har"
    with recorder(path, service) as tk:
        tk.local.address("부산진구 전포동 341-17")
        tk.core.run(Call("GET", "api", "/count", params={"k": "a"}))
    with toolkit.connect(replay=path) as tk:
        with pytest.raises(CassetteMiss) as err:
            tk.local.address("부산진구 전포동 341-18")
        message = str(err.value)
        assert "miss.har has no answer for GET local /v2/local/search/address.json" in message
        assert "query='부산진구 전포동 341-18'" in message and "query='부산진구 전포동 341-17'" in message
        assert "differs in query" in message and not isinstance(err.value, ToolkitError)
        real_token = "x9YzQ2wE4rT6yU8iO0pA1sD3fG5hJ7kL9zXcVbNm"
        with pytest.raises(CassetteMiss) as err:
            tk.core.run(Call("GET", "api", "/count", Bearer(real_token), params={"k": "a"}))
        assert real_token not in str(err.value) and "[Bearer ••••]" in str(err.value)
        assert "differs in Authorization" in str(err.value)


def test_requests_outside_the_five_hosts_are_sent_but_never_written(tmp_path, service):
    path = tmp_path / "outside.har"
    with recorder(path, service) as tk:
        tk.core.run(Call("GET", "auth", "/sandbox/clock", base="https://control.service.test"))
        tk.core.run(Call("GET", "status", "/api/health/current"))
    urls = [e["request"]["url"] for e in json.loads(path.read_text())["log"]["entries"]]
    assert urls == [HOSTS["status"] + "/api/health/current"]
    with toolkit.connect(replay=path) as tk:
        with pytest.raises(CassetteMiss, match="outside the five hosts"):
            tk.core.run(Call("GET", "auth", "/sandbox/clock", base="https://control.service.test"))


def test_an_uploaded_file_is_recorded_as_its_digest_not_its_bytes(tmp_path, service):
    path = tmp_path / "upload.har"
    image = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 40
    with recorder(path, service) as tk:
        tk.core.run(Call("POST", "api", "/echo", files=[("file", ("서면.png", image, "image/png"))], data={"k": "v"}))
    post = json.loads(path.read_text())["log"]["entries"][0]["request"]["postData"]
    assert post["mimeType"] == "multipart/form-data"
    assert {"name": "k", "value": "v"} in post["params"]
    upload = next(p for p in post["params"] if p.get("fileName"))
    assert upload["fileName"] == "서면.png" and upload["value"].startswith("sha256:")
    text = path.read_text()
    assert "\\u0089PNG" not in text and base64.b64encode(image[:12]).decode()[:12] not in text
    with toolkit.connect(replay=path) as tk:       # the same bytes again: answered; other bytes, same name: not
        tk.core.run(Call("POST", "api", "/echo", files=[("file", ("서면.png", image, "image/png"))], data={"k": "v"}))
        with pytest.raises(CassetteMiss, match="differs in body"):
            tk.core.run(Call("POST", "api", "/echo", files=[("file", ("서면.png", image[::-1], "image/png"))],
                             data={"k": "v"}))


# ------------------------------------------------------------------------------------------ the file
def test_the_recording_is_written_when_the_client_closes_readable_by_others(tmp_path, service):
    path = tmp_path / "closed.har"
    tk = recorder(path, service)
    tk.core.run(Call("GET", "api", "/count"))
    assert tk.cassette.save() == path          # explicit, at once
    tk.core.run(Call("GET", "api", "/count"))
    tk.close()
    log = json.loads(path.read_text())["log"]
    assert len(log["entries"]) == 2 and log["_toolkit"]["hosts"] == HOSTS
    assert log["_toolkit"]["app"]["rest_api_key"] == "scrubbed-rest-api-key"
    assert stat.S_IMODE(path.stat().st_mode) == 0o666 & ~_umask()     # a file to hand on, not a 0600 temporary
    assert not [p for p in tmp_path.iterdir() if p.name.startswith(".")], "a temporary file was left behind"


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask


@pytest.mark.parametrize("content, expected", [
    (None, "no cassette at"),
    ("not json", "not a cassette"),
    (json.dumps({"log": {"version": "1.2", "entries": []}}), "not a toolkit cassette"),
    (json.dumps({"log": {"entries": [], "_toolkit": {"format": 99, "hosts": HOSTS}}}), "format 99"),
    (json.dumps({"log": {"entries": [{"request": {}}], "_toolkit": {"format": 1, "hosts": HOSTS}}}), "entry 0"),
    (json.dumps([1, 2]), "not a HAR file"),
])
def test_a_file_that_is_not_a_cassette_is_refused_with_what_it_is(tmp_path, content, expected):
    path = tmp_path / "bad.har"
    if content is not None:
        path.write_text(content)
    with pytest.raises(CassetteError, match=expected):
        toolkit.connect(replay=path)


# ------------------------------------------------------------------------------------------ the notebook
def notebook(path: Path) -> Path:
    path.write_text(json.dumps({"nbformat": 4, "nbformat_minor": 5, "metadata": {"kernelspec": {"name": "python3"}},
                                "cells": [{"cell_type": "code", "id": "c1", "metadata": {}, "execution_count": None,
                                           "outputs": [], "source": "tk = toolkit.connect(replay='report.ipynb')"}]}))
    return path


def test_a_cassette_travels_inside_the_notebook_and_its_copies(tmp_path, service):
    path = tmp_path / "report.har"
    with recorder(path, service) as tk:
        tk.local.address("전포동 341-17")
    nb = notebook(tmp_path / "report.ipynb")
    size = toolkit.cassette.embed(path, nb)
    assert 0 < size <= toolkit.cassette.EMBED_LIMIT
    data = json.loads(nb.read_text())
    assert data["cells"][0]["source"].startswith("tk = ") and data["metadata"]["kernelspec"] == {"name": "python3"}
    path.unlink()                                   # only the notebook travels
    with toolkit.connect(replay=nb) as tk:
        assert tk.local.address("전포동 341-17").loc[0, "address_name"] == "전포동 341-17"
    # the walkthroughs' copies (both editions) keep the notebook's metadata, so the cassette with it
    from toolkit.walkthroughs import edition

    for which in ("learner", "instructor"):
        assert edition(data, which)["metadata"]["toolkit"]["cassette"] == data["metadata"]["toolkit"]["cassette"]


def test_embedding_above_the_limit_is_refused_and_the_notebook_left_alone(tmp_path, service):
    path = tmp_path / "big.har"
    with recorder(path, service) as tk:
        tk.local.address("전포동 341-17")
    nb = notebook(tmp_path / "report.ipynb")
    before = nb.read_bytes()
    with pytest.raises(CassetteError, match="more than the 100 a notebook should carry"):
        toolkit.cassette.embed(path, nb, limit=100)
    assert nb.read_bytes() == before
    with pytest.raises(CassetteError, match="carries no cassette"):
        toolkit.connect(replay=nb)


# ------------------------------------------------------------------------------------------ connect()
def test_replay_takes_no_keys_and_record_takes_no_sandbox(tmp_path, service, monkeypatch):
    path = tmp_path / "c.har"
    with recorder(path, service) as tk:
        tk.core.run(Call("GET", "api", "/count"))
    with pytest.raises(ConfigurationError, match="drop hosts=, rest_api_key="):
        toolkit.connect(HOSTS, replay=path, rest_api_key="k")
    with pytest.raises(ConfigurationError, match="drop fresh="):
        toolkit.connect(replay=path, fresh=True)

    def no_sandbox(*a, **k):
        raise AssertionError("record= started a sandbox before refusing")

    monkeypatch.setattr(toolkit.client, "embedded_sandbox", no_sandbox)
    for kw in ({"env": {}}, {"sandbox": True}, {"shared": True}):
        with pytest.raises(ConfigurationError, match="record= records a service configured by its hosts and keys"):
            toolkit.connect(record=tmp_path / "x.har", **kw)
    assert not (tmp_path / "x.har").exists()
    with pytest.raises(CassetteError, match="one cassette records one service"):
        with recorder(tmp_path / "two.har", service) as tk:
            toolkit.connect({**HOSTS, "api": "https://other.service.test"}, **KEYS, record=tk.cassette)


@pytest.mark.parametrize("record, expected", [
    (123, "takes a file name"), ("", "takes a file name"), ("report.ipynb", "would replace the notebook"),
    (".", "is a folder"), ("no/such/../../ok.har", None), ("missing-folder/deeper/report.har", None),
])
def test_record_says_what_it_takes_before_any_request(tmp_path, monkeypatch, service, record, expected):
    monkeypatch.chdir(tmp_path)
    if expected is None:                                  # folders are made; the (empty) cassette is there at once
        with recorder(record, service) as tk:
            assert json.loads(Path(record).read_text())["log"]["entries"] == []
            assert tk.cassette.path == Path(record)
        return
    (tmp_path / "report.ipynb").write_text("{}")
    with pytest.raises(CassetteError, match=expected):
        recorder(record, service)
    assert (tmp_path / "report.ipynb").read_text() == "{}"


@pytest.mark.parametrize("replay", [123, "", b"report.har"])
def test_replay_says_what_it_takes(replay):
    with pytest.raises(CassetteError, match="replay= takes|no cassette at"):
        toolkit.connect(replay=replay)


def test_a_replaying_client_says_so_and_needs_no_network(tmp_path, service):
    path = tmp_path / "net.har"
    with recorder(path, service) as tk:
        tk.status.current()
    seen = len(service.seen)
    with toolkit.connect(replay=path) as tk:
        assert "replay of net.har" in repr(tk)
        assert tk.sandbox is None and tk.cassette.replaying
        tk.status.current()
    assert len(service.seen) == seen
