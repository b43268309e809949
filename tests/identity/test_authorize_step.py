"""tk.sandbox.authorize: the user's side of the authorization step, so that a learner drives the exchange step by
step (lesson 01) and sees what each check refuses: a forged ``state`` (the app, before any request), a wrong PKCE
verifier (the token endpoint, ``invalid_grant`` KOE320) and a wrong ``nonce`` (the app, in the ID token)."""
from __future__ import annotations

import dataclasses
from urllib.parse import parse_qs, urlsplit

import pytest

from toolkit.errors import ConfigurationError, OAuthError, ParameterError, RedirectError
from toolkit.oauth import IdTokenError


def _query(url: str) -> dict:
    return {k: v[0] for k, v in parse_qs(urlsplit(url).query).items()}


def test_authorize_returns_the_redirect_with_code_and_state_and_exchanges_nothing(fresh_tk):
    tk = fresh_tk
    req = tk.oauth.authorize_url(["profile", "openid"])
    url = tk.sandbox.authorize(req, "minji@sandbox.test")
    assert url.startswith(req.redirect_uri + "?")
    query = _query(url)
    assert sorted(query) == ["code", "state"] and query["state"] == req.state
    assert tk.oauth.token is None and tk.access_token is None          # the app's side is still to do
    token = tk.oauth.complete(req, url)
    assert token.claims["sub"] == "4100000001" and token.claims["nonce"] == req.nonce


def test_a_forged_state_is_refused_by_the_app_before_any_request(fresh_tk):
    tk = fresh_tk
    req = tk.oauth.authorize_url(["profile", "openid"])
    url = tk.sandbox.authorize(req, "minji@sandbox.test")
    forged = url.replace(f"state={req.state}", "state=the-attackers-state")
    sent = len(tk.core.attempts_log)
    with pytest.raises(RedirectError, match="state_mismatch"):
        tk.oauth.complete(req, forged)
    assert len(tk.core.attempts_log) == sent                           # refused without a request
    assert tk.oauth.complete(req, url).claims["sub"] == "4100000001"   # the code was not spent


def test_a_wrong_verifier_is_refused_by_the_token_endpoint_and_burns_the_code(fresh_tk):
    tk = fresh_tk
    req, other = tk.oauth.authorize_url(["profile", "openid"]), tk.oauth.authorize_url(["profile", "openid"])
    code = _query(tk.sandbox.authorize(req, "minji@sandbox.test"))["code"]
    with pytest.raises(OAuthError) as info:
        tk.oauth.exchange_code(code, code_verifier=other.code_verifier, nonce=req.nonce)
    assert (info.value.error, info.value.error_code, info.value.status) == ("invalid_grant", "KOE320", 400)
    assert "PKCE" in str(info.value) and other.code_verifier.reveal() not in str(info.value)
    with pytest.raises(OAuthError, match="already used"):
        tk.oauth.exchange_code(code, code_verifier=req.code_verifier, nonce=req.nonce)
    assert tk.oauth.token is None


def test_a_wrong_nonce_is_refused_in_the_id_token(fresh_tk):
    tk = fresh_tk
    req = tk.oauth.authorize_url(["profile", "openid"])
    url = tk.sandbox.authorize(req, "minji@sandbox.test")
    replayed = dataclasses.replace(req, nonce="another-logins-nonce")
    with pytest.raises(IdTokenError, match="nonce does not match"):
        tk.oauth.complete(replayed, url)
    assert tk.oauth.token is None and tk.access_token is None


def test_cancel_on_the_consent_page_comes_back_as_access_denied(fresh_tk):
    tk = fresh_tk
    req = tk.oauth.authorize_url(["profile", "openid", "gender"])
    url = tk.sandbox.authorize(req, user_id=4100000002, agree=False)
    assert _query(url)["error"] == "access_denied" and _query(url)["state"] == req.state
    with pytest.raises(RedirectError, match="access_denied"):
        tk.oauth.complete(req, url)


def test_optional_scopes_left_unticked_are_not_granted(fresh_tk):
    tk = fresh_tk
    req = tk.oauth.authorize_url(["profile", "openid", "gender", "birthday"])
    token = tk.oauth.complete(req, tk.sandbox.authorize(req, "jun@sandbox.test", optional=["gender"]))
    assert "gender" in token.scopes and "birthday" not in token.scopes


def test_login_is_the_same_step_then_the_exchange(fresh_tk, monkeypatch):
    tk = fresh_tk
    seen = []
    original = type(tk.oauth).user_side

    def spy(self, request, *args, **kwargs):
        seen.append(request.state)
        return original(self, request, *args, **kwargs)

    monkeypatch.setattr(type(tk.oauth), "user_side", spy)
    token = tk.login("minji@sandbox.test", scopes=["profile", "openid"])
    assert len(seen) == 1 and token.claims["sub"] == "4100000001"


def test_bad_input_is_refused_clearly(fresh_tk):
    tk = fresh_tk
    req = tk.oauth.authorize_url(["profile"])
    with pytest.raises(ParameterError, match="authorize_url"):
        tk.sandbox.authorize(req.url, "minji@sandbox.test")
    with pytest.raises(ParameterError, match="not a demo user"):
        tk.sandbox.authorize(req, "nobody@example.test")
    with pytest.raises(ParameterError, match="e-mail"):
        tk.sandbox.authorize(req)
    elsewhere = dataclasses.replace(req, url=req.url.replace("127.0.0.1", "localhost", 1))
    with pytest.raises(ParameterError, match="another auth host"):
        tk.sandbox.authorize(elsewhere, "minji@sandbox.test")


def test_a_handle_without_its_client_says_so(fresh_server):
    from toolkit.client import SandboxHandle

    handle = SandboxHandle(fresh_server.base_url, fresh_server)
    with pytest.raises(ConfigurationError, match="bound to no client"):
        handle.authorize(object(), "minji@sandbox.test")
