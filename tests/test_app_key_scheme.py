"""The word sent before app keys is a setting (``connect(app_key_scheme=...)``, ``TOOLKIT_APP_KEY_SCHEME``): the
spec's ``ServiceAK`` by default, ``KakaoAK`` for deployments that expect it; the sandbox accepts both; another
deployment's refusal body ``{"errorType", "message"}`` maps to the same typed error and hint as the spec's -401."""
from __future__ import annotations

import httpx
import pytest

import toolkit
from toolkit.client import Client
from toolkit.errors import ConfigurationError, InvalidTokenError, error_from_response

from .conftest import client_for

JEONPO = "전포동 341-17"


def _sent_word(tk) -> str:
    return tk.last_response.request.headers["authorization"].split(" ", 1)[0]


def test_the_default_word_is_the_specs(tk):
    assert tk.credentials.app_key_scheme == "ServiceAK"
    tk.local.address(JEONPO)
    assert _sent_word(tk) == "ServiceAK"


@pytest.mark.parametrize("word", ["KakaoAK", "ServiceAK"])
def test_rest_and_admin_calls_carry_the_chosen_word_and_the_sandbox_accepts_it(sandbox_server, word):
    with _client(sandbox_server, word) as tk:
        assert len(tk.local.address(JEONPO)) == 1                 # REST API key
        assert _sent_word(tk) == word
        tk.login_as(4100000001, scopes=["profile"])
        scopes = tk.user.scopes(target_id=4100000001)           # admin key, admin-key mode
        assert len(scopes) > 0 and _sent_word(tk) == word
        ids = tk.user.ids()                                      # admin key alone
        assert _sent_word(tk) == word and len(ids) > 0


def _client(server, word) -> Client:
    from dataclasses import replace

    tk = client_for(server)
    return Client(replace(tk.config, credentials=replace(tk.credentials, app_key_scheme=word)),
                  sandbox=tk.sandbox)


def test_connect_takes_the_word_from_its_argument_and_from_the_variable(monkeypatch):
    tk = toolkit.connect(app_key_scheme="KakaoAK")
    try:
        tk.local.address(JEONPO)
        assert _sent_word(tk) == "KakaoAK"
    finally:
        tk.close()
    monkeypatch.setenv("TOOLKIT_APP_KEY_SCHEME", "KakaoAK")
    with toolkit.connect() as tk:
        tk.local.address(JEONPO)
        assert _sent_word(tk) == "KakaoAK"
    hosts = {h: f"https://{h}.example.test" for h in ("auth", "api", "local", "navi", "status")}
    env = {**{f"TOOLKIT_{h.upper()}_URL": u for h, u in hosts.items()}, "TOOLKIT_REST_API_KEY": "k" * 32,
           "TOOLKIT_APP_KEY_SCHEME": "KakaoAK"}
    seen = []
    transport = httpx.MockTransport(lambda request: seen.append(request) or httpx.Response(
        200, json={"meta": {"total_count": 0, "pageable_count": 0, "is_end": True}, "documents": []}))
    with toolkit.connect(env=env, transport=transport) as tk:
        assert tk.credentials.app_key_scheme == "KakaoAK"
        tk.local.address(JEONPO)
    assert seen and seen[0].headers["authorization"] == "KakaoAK " + "k" * 32


@pytest.mark.parametrize("word", ["Kakao AK", "", "AK:1", "가나"])
def test_a_word_a_header_cannot_carry_is_a_configuration_error_naming_it(word):
    if word == "":
        assert toolkit.config.Credentials(app_key_scheme="").app_key_scheme == "ServiceAK"   # empty: the default
        return
    with pytest.raises(ConfigurationError, match="app_key_scheme") as info:
        toolkit.connect(app_key_scheme=word)
    assert repr(word) in str(info.value)


def test_another_deployments_refusal_is_the_same_typed_error_with_the_key_hint():
    body = {"errorType": "AccessDeniedError", "message": "cannot find appKey"}
    err = error_from_response(401, body, endpoint="GET /v2/local/search/address.json", auth="app_key")
    assert isinstance(err, InvalidTokenError) and err.code == -401 and err.auth == "app_key"
    assert "REST API key" in err.hint and "app_key_scheme" in err.hint
    assert "cannot find appKey" in str(err)
    spec = error_from_response(401, {"msg": "invalid app key", "code": -401}, auth="app_key")
    assert type(spec) is type(err) and spec.hint == err.hint


def test_a_refusal_over_http_from_a_deployment_with_another_word():
    """A deployment that expects KakaoAK refuses ServiceAK with its own body: the client raises the typed error
    whose hint names the setting; with the setting, the same call goes through."""
    def service(request):
        if request.headers.get("authorization", "").startswith("KakaoAK "):
            return httpx.Response(200, json={"meta": {"total_count": 0, "pageable_count": 0, "is_end": True},
                                             "documents": []})
        return httpx.Response(401, json={"errorType": "AccessDeniedError", "message": "cannot find appKey"})

    hosts = {h: f"https://{h}.example.test" for h in ("auth", "api", "local", "navi", "status")}
    with toolkit.connect(hosts, rest_api_key="k" * 32, transport=httpx.MockTransport(service)) as tk:
        with pytest.raises(InvalidTokenError) as info:
            tk.local.address(JEONPO)
        assert info.value.code == -401 and "app_key_scheme" in info.value.hint
        assert "k" * 32 not in str(info.value)
    with toolkit.connect(hosts, rest_api_key="k" * 32, app_key_scheme="KakaoAK",
                         transport=httpx.MockTransport(service)) as tk:
        assert len(tk.local.address(JEONPO)) == 0


def test_the_inbox_accepts_the_apps_word_and_the_specs(tk):
    from dataclasses import replace

    kakao = Client(replace(tk.config, credentials=replace(tk.credentials, app_key_scheme="KakaoAK")),
                   sandbox=tk.sandbox)
    box = toolkit.events.inbox(kakao)
    try:
        admin = tk.credentials.admin_key.reveal()
        for word, expected in (("KakaoAK", True), ("ServiceAK", True), ("Bearer", False)):
            assert box._key_ok(f"{word} {admin}") is expected
        assert box._key_ok("KakaoAK wrong") is False
    finally:
        box.stop()
        kakao.close()
