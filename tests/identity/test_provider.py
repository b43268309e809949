"""The sandbox's OAuth 2.0 / OIDC provider over real HTTP (identity.md §4.1, 4.2, 4.4, 4.10–4.12, 4.21)."""
from __future__ import annotations

import secrets

import jwt

from .helpers import s256


def test_full_code_flow_with_pkce_nonce_and_state(browser):
    verifier = secrets.token_urlsafe(48)
    page = browser.authorize(state="s-1", nonce="n-1", code_challenge=s256(verifier), code_challenge_method="S256",
                             login_hint="minji@sandbox.test")
    assert page.status_code == 200 and "value='minji@sandbox.test'" in page.text  # login_hint prefilled
    consent = browser.login(page)
    assert "id='consent'" in consent.text and "account_email" in consent.text
    redirect = browser.consent(consent)
    assert redirect.status_code == 302
    code, query = browser.code_for(state="s-1", nonce="n-1", code_challenge=s256(verifier))  # no consent again
    assert query["state"] == "s-1"
    r = browser.token(code, verifier)
    assert r.status_code == 200 and r.headers["content-type"] == "application/json;charset=UTF-8"
    body = r.json()
    assert body["token_type"] == "bearer" and body["expires_in"] == 6 * 3600
    assert body["refresh_token_expires_in"] == 60 * 86400
    assert set(body["scope"].split()) == {"profile", "account_email", "openid"}
    header = jwt.get_unverified_header(body["id_token"])
    assert header["alg"] == "RS256" and header["kid"] == "sandbox-key-1"
    claims = jwt.decode(body["id_token"], options={"verify_signature": False})
    assert claims["iss"] == browser.auth and claims["aud"] == browser.app["rest_api_key"]
    assert claims["sub"] == "4100000001" and claims["nonce"] == "n-1"
    assert claims["nickname"] == "민지" and claims["email"] == "minji@sandbox.test"
    assert claims["exp"] - claims["iat"] == 6 * 3600 and claims["auth_time"] <= claims["iat"]


def test_code_is_single_use(browser):
    code, _ = browser.code_for()
    assert browser.token(code).status_code == 200
    again = browser.token(code)
    assert again.status_code == 400 and again.json()["error"] == "invalid_grant"
    assert again.json()["error_code"] == "KOE320"


def test_code_expires_after_ten_minutes(browser):
    code, _ = browser.code_for()
    browser.control("POST", "/sandbox/clock", json={"advance": 601})
    assert browser.token(code).json()["error_code"] == "KOE320"


def test_pkce_enforced_when_sent(browser):
    verifier = secrets.token_urlsafe(48)
    code, _ = browser.code_for(code_challenge=s256(verifier), code_challenge_method="S256")
    wrong = browser.token(code, "x" * 50)
    assert wrong.status_code == 400 and "PKCE" in wrong.json()["error_description"]
    code, _ = browser.code_for(code_challenge=s256(verifier))
    assert browser.token(code).status_code == 400  # verifier missing
    code, _ = browser.code_for(code_challenge=s256(verifier))
    assert browser.token(code, verifier).status_code == 200
    bad_method = browser.authorize(code_challenge="abc", code_challenge_method="plain")
    assert bad_method.status_code == 302 and "error=invalid_request" in bad_method.headers["location"]


def test_unregistered_redirect_uri_shows_koe006(browser):
    page = browser.authorize(redirect_uri="https://evil.example/cb", state="x")
    assert page.status_code == 400 and "KOE006" in page.text and "location" not in page.headers


def test_redirect_uri_must_match_at_token_endpoint(browser):
    code, _ = browser.code_for()
    r = browser.token(code, redirect_uri=browser.app["redirect_uris"][1])
    assert r.status_code == 400 and r.json()["error_code"] == "KOE303"


def test_client_secret_rules(browser):
    code, _ = browser.code_for()
    missing = browser.token(code, secret=False)
    assert missing.status_code == 401 and missing.json() == {
        "error": "invalid_client", "error_description": missing.json()["error_description"], "error_code": "KOE010"}
    wrong = browser.token(code, client_secret="nope")
    assert wrong.json()["error_code"] == "KOE010"
    browser.control("POST", "/sandbox/identity/settings", json={"client_secret_required": False})
    code, _ = browser.code_for()
    assert browser.token(code, secret=False).status_code == 200


def test_cancel_gives_access_denied_and_prompt_none(browser):
    page = browser.authorize(state="c1")
    consent = browser.login(page)
    r = browser.consent(consent, action="cancel")
    assert r.status_code == 302
    assert "error=access_denied" in r.headers["location"] and "state=c1" in r.headers["location"]
    r = browser.authorize(prompt="none", state="c2")  # session exists, user never linked
    assert "error=consent_required" in r.headers["location"] and "state=c2" in r.headers["location"]
    browser.http.cookies.clear()
    r = browser.authorize(prompt="none")
    assert "error=login_required" in r.headers["location"]


def test_consent_only_for_new_scopes_and_prompt_login(browser):
    browser.code_for()
    r = browser.authorize(scope="gender")
    assert "id='consent'" in r.text and "gender" in r.text and "account_email" not in r.text
    assert browser.consent(r).status_code == 302
    r = browser.authorize(scope="gender")
    assert r.status_code == 302 and "code=" in r.headers["location"]
    r = browser.authorize(prompt="login")
    assert "id='login'" in r.text
    wrong = browser.login(r, password="bad")
    assert wrong.status_code == 401 and "Wrong e-mail or password" in wrong.text


def test_account_session_lasts_24_hours_or_a_month(browser):
    browser.code_for()
    browser.control("POST", "/sandbox/clock", json={"advance": 86400 + 1})
    assert "id='login'" in browser.authorize().text
    page = browser.authorize()
    assert browser.login(page, stay=True).status_code == 302
    browser.control("POST", "/sandbox/clock", json={"advance": 20 * 86400})
    assert browser.authorize().status_code == 302  # still logged in after 20 days


def test_select_account_with_two_sessions(browser):
    browser.code_for("minji@sandbox.test")
    page = browser.authorize(prompt="login")
    browser.consent(browser.login(page, "jun@sandbox.test"))
    r = browser.authorize(prompt="select_account")
    assert "id='select'" in r.text and "jun@sandbox.test" in r.text and "minji@sandbox.test" in r.text


def test_refresh_grant_and_rotation(browser):
    code, _ = browser.code_for()
    first = browser.token(code).json()
    data = {"grant_type": "refresh_token", "client_id": browser.app["rest_api_key"],
            "refresh_token": first["refresh_token"], "client_secret": browser.app["client_secret"]}
    r = browser.http.post(f"{browser.auth}/oauth/token", data=data).json()
    assert r["access_token"] != first["access_token"] and "refresh_token" not in r and "id_token" in r
    old = browser.http.get(f"{browser.api}/v1/oidc/userinfo",
                           headers={"Authorization": f"Bearer {first['access_token']}"})
    assert old.status_code == 401
    browser.control("POST", "/sandbox/clock", json={"advance": 31 * 86400})
    r2 = browser.http.post(f"{browser.auth}/oauth/token", data=data).json()
    assert r2["refresh_token"] != first["refresh_token"] and r2["refresh_token_expires_in"] == 60 * 86400
    stale = browser.http.post(f"{browser.auth}/oauth/token", data=data)
    assert stale.status_code == 400 and stale.json()["error"] == "invalid_grant"


def test_token_rate_limit_koe237(browser):
    browser.control("POST", "/sandbox/identity/settings", json={"token_rate_limit": 2, "token_rate_window": 600})
    for _ in range(2):
        code, _ = browser.code_for()
        assert browser.token(code).status_code == 200
    code, _ = browser.code_for()
    r = browser.token(code)
    assert r.status_code == 400 and r.json()["error_code"] == "KOE237"
    browser.control("POST", "/sandbox/clock", json={"advance": 601})
    code, _ = browser.code_for()
    assert browser.token(code).status_code == 200


def test_tokeninfo_and_koe400(browser):
    code, _ = browser.code_for(nonce="abc")
    id_token = browser.token(code).json()["id_token"]
    r = browser.http.post(f"{browser.auth}/oauth/tokeninfo", data={"id_token": id_token})
    assert r.status_code == 200 and r.json()["nonce"] == "abc" and r.json()["sub"] == "4100000001"
    bad = browser.http.post(f"{browser.auth}/oauth/tokeninfo", data={"id_token": "not-a-jwt"})
    assert bad.status_code == 400 and bad.json()["error"] == "invalid_token" and bad.json()["error_code"] == "KOE400"
    head, payload, sig = id_token.split(".")
    tampered = browser.http.post(f"{browser.auth}/oauth/tokeninfo", data={"id_token": f"{head}.{payload}x.{sig}"})
    assert tampered.json()["error_code"] == "KOE400"


def test_discovery_jwks_ssf_and_rotation(browser):
    d = browser.http.get(f"{browser.auth}/.well-known/openid-configuration").json()
    assert d["issuer"] == browser.auth and d["jwks_uri"] == f"{browser.auth}/.well-known/jwks.json"
    assert d["code_challenge_methods_supported"] == ["S256"] and d["subject_types_supported"] == ["pairwise"]
    assert d["request_uri_parameter_supported"] is False and d["response_types_supported"] == ["code"]
    keys = browser.http.get(d["jwks_uri"]).json()["keys"]
    assert [k["kid"] for k in keys] == ["sandbox-key-1"]
    assert {k: keys[0][k] for k in ("kty", "alg", "use")} == {"kty": "RSA", "alg": "RS256", "use": "sig"}
    rot = browser.control("POST", "/sandbox/keys/rotate")
    assert rot["active_kid"] == "sandbox-key-2"
    assert [k["kid"] for k in browser.http.get(d["jwks_uri"]).json()["keys"]] == ["sandbox-key-2", "sandbox-key-1"]
    ssf = browser.http.get(f"{browser.auth}/.well-known/ssf-configuration").json()
    assert ssf["issuer"] == browser.auth and ssf["jwks_uri"] == d["jwks_uri"] and ssf["delivery_methods_supported"]


def test_logout_page(browser):
    browser.code_for()
    bad = browser.http.get(f"{browser.auth}/oauth/logout", params={
        "client_id": browser.app["rest_api_key"], "logout_redirect_uri": "https://evil.example/"})
    assert bad.status_code == 400 and "KOE006" in bad.text
    r = browser.http.get(f"{browser.auth}/oauth/logout", params={
        "client_id": browser.app["rest_api_key"], "logout_redirect_uri": browser.app["logout_redirect_uris"][0],
        "state": "bye"})
    assert r.status_code == 302 and r.headers["location"] == browser.app["logout_redirect_uris"][0] + "?state=bye"
    assert "id='login'" in browser.authorize().text  # the account session is gone
