"""The client areas (toolkit.oauth, toolkit.user) against the sandbox over real HTTP."""
from __future__ import annotations

import base64
import json

import jwt
import pandas as pd
import pytest

from toolkit.errors import (ApiError, InvalidArgumentError, InvalidTokenError, OAuthError, ParameterError,
                            PermissionDeniedError, RedirectError, TokenRateLimited)
from toolkit.oauth import IdTokenError, Token

MINJI, JUN = 4100000001, 4100000002
OIDC = ["profile", "account_email", "openid"]


@pytest.fixture
def logged_in(fresh_tk):
    fresh_tk.login("minji@sandbox.test", scopes=OIDC + ["shipping_address"])
    return fresh_tk


def _claims(tk, **over):
    now = tk.sandbox.clock()["unix"]
    claims = {"iss": tk.hosts.auth, "aud": tk.credentials.rest_api_key.reveal(), "sub": str(MINJI), "iat": now,
              "exp": now + 3600, "auth_time": now, "nonce": "n"}
    claims.update(over)
    return claims


def _sign(tk, **over):
    return tk.sandbox.server.sandbox.model("identity").keys.sign(_claims(tk, **over))


def test_login_sets_verified_token(logged_in):
    tk = logged_in
    tok = tk.oauth.token
    assert isinstance(tok, Token) and tk.access_token == tok.access_token
    assert tok.claims["sub"] == str(MINJI) and tok.claims["nickname"] == "민지"
    assert set(tok.scopes) == {"profile", "account_email", "openid", "shipping_address"}
    assert tk.user.access_token_info()["id"] == MINJI


def test_secrets_masked_in_reprs(logged_in):
    tk = logged_in
    tok = tk.oauth.token
    shown = repr(tok) + str(tok) + repr(tk) + repr(tk.oauth.authorize_url())
    for secret in (tok.access_token, tok.refresh_token, tok.id_token):
        assert secret.reveal() not in shown
    assert tk.credentials.client_secret.reveal() not in shown
    with pytest.raises(InvalidTokenError) as err:
        tk.use_token("A" * 43)
        tk.user.me()
    assert "A" * 43 not in str(err.value)


def test_verify_id_token_good_and_forged(logged_in):
    tk = logged_in
    good = _sign(tk)
    assert tk.oauth.verify_id_token(good, nonce="n")["sub"] == str(MINJI)
    head, payload, sig = good.split(".")
    forged_payload = base64.urlsafe_b64encode(json.dumps(_claims(tk, sub="1")).encode()).rstrip(b"=").decode()
    forgeries = {
        "tampered": f"{head}.{forged_payload}.{sig}",
        "alg none": jwt.encode(_claims(tk), None, algorithm="none", headers={"kid": "sandbox-key-1"}),
        "unknown kid": jwt.encode(_claims(tk), tk.sandbox.server.sandbox.model("identity").keys._private(
            tk.sandbox.server.sandbox.store.one("SELECT * FROM signing_keys")), algorithm="RS256",
            headers={"kid": "nope"}),
        "wrong iss": _sign(tk, iss="https://evil.example"),
        "wrong aud": _sign(tk, aud="someone-else"),
        "expired": _sign(tk, exp=tk.sandbox.clock()["unix"] - 120),
    }
    for name, token in forgeries.items():
        with pytest.raises(IdTokenError):
            tk.oauth.verify_id_token(token, nonce="n")
        assert name
    with pytest.raises(IdTokenError, match="nonce"):
        tk.oauth.verify_id_token(good, nonce="other")


def test_hs256_with_public_key_is_rejected(logged_in):
    tk = logged_in
    pem = tk.sandbox.server.sandbox.model("identity").keys.public_key("sandbox-key-1")
    from cryptography.hazmat.primitives import serialization
    pub = pem.public_bytes(serialization.Encoding.PEM, serialization.PublicFormat.SubjectPublicKeyInfo)
    import hmac, hashlib
    header = base64.urlsafe_b64encode(json.dumps({"alg": "HS256", "kid": "sandbox-key-1"}).encode()).rstrip(b"=")
    body = base64.urlsafe_b64encode(json.dumps(_claims(tk)).encode()).rstrip(b"=")
    sig = base64.urlsafe_b64encode(hmac.new(pub, header + b"." + body, hashlib.sha256).digest()).rstrip(b"=")
    with pytest.raises(IdTokenError, match="RS256"):
        tk.oauth.verify_id_token((header + b"." + body + b"." + sig).decode())


def test_key_rotation_is_followed(logged_in):
    tk = logged_in
    tk.oauth.verify_id_token(_sign(tk))  # caches the JWKS
    tk.sandbox.control("POST", "/sandbox/keys/rotate")
    claims = tk.oauth.verify_id_token(_sign(tk))  # new kid: fetched once more
    assert claims["sub"] == str(MINJI)


def test_tokeninfo_koe400(logged_in):
    tk = logged_in
    assert tk.oauth.tokeninfo(tk.oauth.token.id_token)["sub"] == str(MINJI)
    with pytest.raises(OAuthError) as err:
        tk.oauth.tokeninfo("garbage")
    assert err.value.error_code == "KOE400" and err.value.status == 400


def test_userinfo_and_401_header(logged_in):
    tk = logged_in
    info = tk.user.userinfo()
    assert info == {"sub": str(MINJI), "nickname": "민지", "picture": info["picture"], "email": "minji@sandbox.test",
                    "email_verified": True}
    tk.oauth.token = None  # no refresh possible
    tk.use_token("x" * 43)
    with pytest.raises(InvalidTokenError) as err:
        tk.user.userinfo()
    assert err.value.status == 401 and err.value.code == -401
    assert err.value.headers["www-authenticate"] == 'Bearer error="invalid_token"'


def test_refresh_and_auto_refresh_on_401(logged_in):
    tk = logged_in
    before = tk.oauth.token
    tk.sandbox.advance(hours=7)  # the access token expired; the refresh token did not
    me = tk.user.me()  # -401 → refresh once → retry
    assert me["id"] == MINJI and tk.oauth.token.access_token != before.access_token
    assert tk.oauth.token.refresh_token == before.refresh_token  # not rotated: > 1 month left
    assert tk.oauth.token.claims["sub"] == str(MINJI)


def test_scopes_frame_and_revoke(logged_in):
    tk = logged_in
    df = tk.user.scopes()
    assert list(df.columns[:6]) == ["id", "display_name", "type", "using", "agreed", "revocable"]
    row = df.set_index("id").loc["account_email"]
    assert bool(row["agreed"]) and bool(row["revocable"])
    assert pd.isna(df.set_index("id").loc["gender", "revocable"])
    after = tk.user.revoke_scopes(["account_email"]).set_index("id")
    assert not after.loc["account_email", "agreed"]
    assert "email" not in tk.user.userinfo()
    with pytest.raises(PermissionDeniedError) as err:
        tk.user.revoke_scopes(["profile"])
    assert err.value.code == -3 and err.value.status == 403
    with pytest.raises(InvalidArgumentError) as err:
        tk.user.revoke_scopes(["no_such_scope"])
    assert err.value.code == -2 and err.value.status == 400
    assert set(tk.user.scopes(["profile", "openid"])["id"]) == {"profile", "openid"}
    events = tk.sandbox.control("GET", "/sandbox/identity/events")["events"]
    assert [e["type"] for e in events][-1] == "scope_withdraw" and events[-1]["scopes"] == "account_email"


def test_service_terms_transitions(logged_in):
    tk = logged_in
    assert tk.user.service_terms().empty
    app_terms = tk.user.service_terms(result="app_service_terms")
    assert list(app_terms["tag"]) == ["terms_of_service", "privacy_policy", "marketing", "location"]
    up = tk.user.upgrade_service_terms(["marketing", "terms_of_service"])
    assert {t["tag"]: t["agreed_by"] for t in up["agreed_service_terms"]} == {
        "marketing": "KAPI", "terms_of_service": "KAPI"}
    agreed = tk.user.service_terms().set_index("tag")
    assert bool(agreed.loc["marketing", "revocable"]) and not agreed.loc["terms_of_service", "revocable"]
    assert str(agreed["agreed_at"].dt.tz) == "UTC"
    revoked = tk.user.revoke_service_terms(["marketing", "location"])
    assert revoked["revoked_service_terms"] == [{"tag": "marketing", "agreed": False}]  # location never agreed
    with pytest.raises(PermissionDeniedError):
        tk.user.revoke_service_terms(["terms_of_service"])
    with pytest.raises(InvalidArgumentError):
        tk.user.revoke_service_terms(["unknown_tag"])
    with pytest.raises(InvalidArgumentError):
        tk.user.service_terms(tags=["location"])  # not in the agreed list


def test_service_terms_on_consent_screen_are_kauth(fresh_tk):
    fresh_tk.login("jun@sandbox.test", scopes=["profile"], service_terms=["terms_of_service", "marketing"])
    terms = fresh_tk.user.service_terms().set_index("tag")
    assert set(terms.index) == {"terms_of_service", "marketing"} and set(terms["agreed_by"]) == {"KAUTH"}


def test_shipping_address_paging(logged_in):
    tk = logged_in
    first = tk.user.shipping_addresses(page_size=5)
    assert len(first) == 5 and first["is_default"].iloc[0] and not first["is_default"].iloc[1:].any()
    rest = first.iloc[1:]["updated_at"]
    assert rest.is_monotonic_decreasing
    raw2 = tk.user.shipping_addresses(page_size=5, from_updated_at=int(first["updated_at"].iloc[-1].timestamp()),
                                      raw=True)
    assert len(raw2["shipping_addresses"]) == 5 and not any(a["is_default"] for a in raw2["shipping_addresses"])
    every = tk.user.shipping_addresses(page_size=5, all_pages=True)
    assert len(every) == 12 and every["id"].is_unique and every.attrs["meta"]["pages"] == 3
    one = tk.user.shipping_addresses(address_id=int(every["id"].iloc[4]))
    assert list(one["id"]) == [every["id"].iloc[4]]
    with pytest.raises(ParameterError, match="page_size"):
        tk.user.shipping_addresses(page_size=1)
    default = tk.user.shipping_addresses(raw=True)
    assert len(default["shipping_addresses"]) == 10 and default["shipping_addresses_needs_agreement"] is False


def test_shipping_address_needs_agreement(fresh_tk):
    fresh_tk.login("jun@sandbox.test", scopes=["profile"])
    body = fresh_tk.user.shipping_addresses(raw=True)
    assert body == {"user_id": JUN, "shipping_addresses_needs_agreement": True}
    with pytest.raises(ApiError) as err:  # the server enforces the bound too
        fresh_tk._run(__import__("toolkit.http", fromlist=["Call"]).Call(
            "GET", "api", "/v1/user/shipping_address", fresh_tk.user_auth(), params={"page_size": 1}))
    assert err.value.code == -2


def test_admin_key_mode(logged_in):
    tk = logged_in
    assert tk.user.me(target_id=MINJI)["id"] == MINJI
    df = tk.user.scopes(target_id=MINJI)
    assert df.attrs["meta"]["id"] == MINJI
    with pytest.raises(ApiError) as err:
        tk.user.scopes(target_id=JUN)  # not linked
    assert err.value.code == -101
    assert tk.user.ids()["elements"] == [MINJI]
    report = tk.user.consent_report()
    assert report.loc[MINJI, "shipping_address"] and not report.loc[MINJI, "gender"]
    assert tk.user.logout(target_id=MINJI) == {"id": MINJI}
    tk.oauth.token = None
    with pytest.raises(InvalidTokenError):
        tk.user.me()


def test_pending_link_signup_and_24h_expiry(fresh_tk):
    tk = fresh_tk
    tk.sandbox.control("POST", "/sandbox/identity/settings", json={"auto_link": False})
    tk.login("jun@sandbox.test", scopes=["profile"])
    me = tk.user.me()
    assert me["has_signed_up"] is False
    with pytest.raises(ApiError) as err:
        tk.user.scopes()  # a pending user may not call the other endpoints
    assert err.value.code == -101
    assert tk.user.signup({"plan": "free"}) == {"id": JUN}
    assert tk.user.me()["has_signed_up"] is True and tk.user.me()["properties"]["plan"] == "free"
    with pytest.raises(ApiError) as err:
        tk.user.signup()
    assert err.value.code == -102
    # another user stays pending for 24 hours → unlinked
    tk.oauth.forget_browser()
    tk.login("seoyeon@sandbox.test", scopes=["profile"])
    tk.sandbox.advance(hours=24, seconds=1)
    tk.oauth.token = None
    with pytest.raises(InvalidTokenError):
        tk.user.me()
    events = tk.sandbox.control("GET", "/sandbox/identity/events")["events"]
    assert events[-1]["type"] == "unlinked" and events[-1]["detail"] == {"reason": "INCOMPLETE_SIGN_UP"}


def test_unlink_update_profile_logout(logged_in):
    tk = logged_in
    assert tk.user.update_profile({"level": "3"}) == {"id": MINJI}
    assert tk.user.me()["properties"]["level"] == "3"
    with pytest.raises(ParameterError):
        tk.user.update_profile({"level": 3})
    assert tk.user.logout() == {"id": MINJI}
    tk.oauth.token = None
    with pytest.raises(InvalidTokenError):
        tk.user.me()
    tk.login("minji@sandbox.test")
    assert tk.user.unlink() == {"id": MINJI}
    assert tk.user.ids()["elements"] == []


def test_login_errors(fresh_tk):
    with pytest.raises(RedirectError) as err:
        fresh_tk.login("minji@sandbox.test", agree=False)
    assert err.value.error == "access_denied"
    with pytest.raises(ParameterError):
        fresh_tk.oauth.authorize_url(prompt="sometimes")
    req = fresh_tk.oauth.authorize_url()
    with pytest.raises(RedirectError, match="state"):
        fresh_tk.oauth.complete(req, "http://localhost:8765/callback?code=abc&state=forged")
    fresh_tk.sandbox.control("POST", "/sandbox/identity/settings", json={"token_rate_limit": 1})
    fresh_tk.login("minji@sandbox.test")
    with pytest.raises(TokenRateLimited):
        fresh_tk.login("minji@sandbox.test")


def test_second_login_skips_forms_and_logout_url(fresh_tk):
    fresh_tk.login(user_id=MINJI, scopes=OIDC)
    tok = fresh_tk.login(user_id=MINJI)  # session cookie + consent on record: code issued at once
    assert tok.claims["sub"] == str(MINJI)
    url = fresh_tk.oauth.logout_url(state="s")
    assert url.startswith(fresh_tk.hosts.auth + "/oauth/logout?") and "state=s" in url
