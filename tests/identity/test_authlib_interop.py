"""An independent OpenID Connect client (authlib, with joserfc for JOSE) against the sandbox over real HTTP:
discovery, authorization code + PKCE S256 with RFC 6749 space-separated scopes, ID-token verification against
the published JWKS with the client's wall clock (the sandbox runs with ``clock="real"``), and userinfo."""
from __future__ import annotations

import secrets

import httpx
import pytest

from toolkit.sandbox.server import SandboxServer

from .helpers import Browser

pytestmark = pytest.mark.filterwarnings("ignore:The httpx module is deprecated")

authlib_httpx = pytest.importorskip("authlib.integrations.httpx_client")
joserfc_jwt = pytest.importorskip("joserfc.jwt")
joserfc_jwk = pytest.importorskip("joserfc.jwk")


@pytest.fixture
def wall_clock_server():
    server = SandboxServer(port=0, clock="real").start()
    yield server
    server.stop()


def test_authlib_round_trip(wall_clock_server):
    server = wall_clock_server
    app = server.app_config()
    auth = server.hosts()["auth"]
    discovery = httpx.get(f"{auth}/.well-known/openid-configuration").json()
    assert discovery["issuer"] == auth
    assert "S256" in discovery.get("code_challenge_methods_supported", ["S256"])

    client = authlib_httpx.OAuth2Client(
        client_id=app["rest_api_key"], client_secret=app["client_secret"], scope="openid profile account_email",
        redirect_uri=app["redirect_uris"][0], code_challenge_method="S256",
        token_endpoint_auth_method="client_secret_post")
    verifier = secrets.token_urlsafe(48)
    nonce = secrets.token_urlsafe(16)
    url, state = client.create_authorization_url(discovery["authorization_endpoint"], code_verifier=verifier,
                                                 nonce=nonce)
    assert "scope=openid+profile+account_email" in url or "scope=openid%20profile%20account_email" in url

    with Browser(server) as browser:  # a person at the login and consent pages
        page = browser.http.get(url)
        for _ in range(4):
            if page.status_code == 302:
                break
            page = browser.login(page) if "id='login'" in page.text else browser.consent(page)
    callback = page.headers["location"]
    assert "error" not in callback, callback

    token = client.fetch_token(discovery["token_endpoint"], authorization_response=callback,
                               code_verifier=verifier, state=state)
    assert token["token_type"].lower() == "bearer"

    keys = joserfc_jwk.KeySet.import_key_set(httpx.get(discovery["jwks_uri"]).json())
    decoded = joserfc_jwt.decode(token["id_token"], keys, algorithms=["RS256"])
    registry = joserfc_jwt.JWTClaimsRegistry(
        iss={"essential": True, "value": auth}, aud={"essential": True, "value": app["rest_api_key"]},
        sub={"essential": True}, nonce={"essential": True, "value": nonce}, exp={"essential": True})
    registry.validate(decoded.claims)  # checks exp (and nbf, iat) against the wall clock

    info = client.get(discovery["userinfo_endpoint"]).json()
    assert str(info["sub"]) == str(decoded.claims["sub"])
    client.close()
    browser.close()
