"""OIDC interop: scopes comma- or space-separated (RFC 6749) on the authorize endpoints; the client's ID-token
check enforces ``nbf``, turns malformed ``exp``/``iat``/``nbf`` into :class:`IdTokenError`, and refetches the
JWKS exactly once for an unknown ``kid``."""
from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import pytest

from toolkit.oauth import IdTokenError



@pytest.mark.parametrize("scope", ["openid profile account_email", "openid,profile,account_email",
                                   "openid, profile  account_email"])
def test_authorize_accepts_space_or_comma_separated_scopes(browser, scope):
    b = browser
    page = b.authorize(scope=scope, state="s1")
    assert page.status_code == 200, page.text[:300]  # the login page, not an invalid_scope redirect
    page = b.login(page)
    assert page.status_code in (200, 302)
    text = page.text if page.status_code == 200 else ""
    for s in ("profile", "account_email"):
        assert s in text or page.status_code == 302
    if page.status_code == 302:
        assert "error" not in parse_qs(urlsplit(page.headers["location"]).query)


def _token(tk, server, **overrides):
    now = tk.sandbox.clock()["unix"]
    claims = {"iss": tk.hosts.auth, "aud": server.app_config()["rest_api_key"], "sub": "1", "iat": now,
              "exp": now + 3600, **overrides}
    claims = {k: v for k, v in claims.items() if v is not None}
    return server.sandbox.model("identity").keys.sign(claims)


def test_id_token_nbf_enforced(fresh_tk, fresh_server):
    now = fresh_tk.sandbox.clock()["unix"]
    assert fresh_tk.oauth.verify_id_token(_token(fresh_tk, fresh_server, nbf=now))["sub"] == "1"
    with pytest.raises(IdTokenError, match="nbf"):
        fresh_tk.oauth.verify_id_token(_token(fresh_tk, fresh_server, nbf=now + 3600))


@pytest.mark.parametrize("claim,value", [("exp", "soon"), ("iat", "yesterday"), ("nbf", "later"), ("exp", True),
                                         ("iat", [1]), ("nbf", {"a": 1})])
def test_malformed_time_claims_raise_id_token_error(fresh_tk, fresh_server, claim, value):
    with pytest.raises(IdTokenError, match=claim):
        fresh_tk.oauth.verify_id_token(_token(fresh_tk, fresh_server, **{claim: value}))


def test_unknown_kid_refetches_jwks_exactly_once(fresh_tk, fresh_server, monkeypatch):
    import jwt

    token = _token(fresh_tk, fresh_server)
    fresh_tk.oauth.verify_id_token(token)  # JWKS cached
    header = jwt.get_unverified_header(token)
    # the same claims signed RS256 with a key the service never published, under a kid it does not know
    from cryptography.hazmat.primitives.asymmetric import rsa

    other = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    forged = jwt.encode(jwt.decode(token, options={"verify_signature": False}), other, algorithm="RS256",
                        headers={"kid": "no-such-kid"})
    fetches = []
    original = type(fresh_tk.oauth)._keyset

    def counting(self, force=False):
        fetches.append(force)
        return (yield from original(self, force))

    monkeypatch.setattr(type(fresh_tk.oauth), "_keyset", counting)
    with pytest.raises(IdTokenError, match="kid"):
        fresh_tk.oauth.verify_id_token(forged)
    assert fetches == [False, True]  # the cached set, then exactly one refetch
    assert header["kid"] != "no-such-kid"
