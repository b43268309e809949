"""SET structure, signature against the served JWKS, and the forged-SET battery of verify_set."""
from __future__ import annotations

import base64
import json

import httpx
import jwt
import pytest
from cryptography.hazmat.primitives.asymmetric import rsa

from toolkit.events import SetError, events_frame, verify_set
from toolkit.sandbox.events.models import EVENT_TYPES, SECEVENT_BASE
from toolkit.sandbox.keys import KeyRing

from .conftest import USER, deliveries, settle


def _claims(server, **over):
    app = server.app_config()
    iss = server.hosts()["auth"]
    claims = {"aud": app["rest_api_key"], "sub": str(USER), "iss": iss, "txm": "t1", "toe": 1, "iat": 2,
              "app_id": app["app_id"], "jti": "j1",
              "events": {f"{SECEVENT_BASE}/oauth/event-type/user-linked":
                         {"subject": {"subject_type": "iss-sub", "iss": iss, "sub": str(USER)}}}}
    claims.update(over)
    return claims


def _check(server, token):
    app = server.app_config()
    return verify_set(token, audience=app["rest_api_key"], issuer=server.hosts()["auth"],
                      jwks_url=server.hosts()["auth"] + "/.well-known/jwks.json")


def _b64(obj) -> str:
    return base64.urlsafe_b64encode(json.dumps(obj).encode()).rstrip(b"=").decode()


def test_delivered_set_has_the_spec_structure_and_verifies_against_the_jwks(server, tk, receiver):
    receiver.mode = "ok"
    tk.sandbox.control("POST", "/sandbox/webhooks", json={"account_status": receiver.url("set")})
    tk.sandbox.login(USER, scopes=["profile"])
    settle(server)
    hit = receiver.hits[0]
    assert hit[1] == "POST" and hit[2]["content-type"] == "application/secevent+jwt"
    token = hit[3].decode()
    header = jwt.get_unverified_header(token)
    assert header["alg"] == "RS256" and header["typ"] == "secevent+jwt"
    jwks = httpx.get(server.hosts()["auth"] + "/.well-known/jwks.json", trust_env=False).json()
    assert header["kid"] in [k["kid"] for k in jwks["keys"]]
    key = jwt.PyJWK(next(k for k in jwks["keys"] if k["kid"] == header["kid"])).key
    app = server.app_config()
    claims = jwt.decode(token, key, algorithms=["RS256"], audience=app["rest_api_key"],
                        issuer=server.hosts()["auth"], options={"verify_iat": False})
    assert set(claims) == {"aud", "sub", "iss", "txm", "toe", "iat", "app_id", "jti", "events"}
    assert claims["sub"] == str(USER) and claims["app_id"] == app["app_id"]
    assert claims["toe"] == server.sandbox.clock.unix()
    assert list(claims["events"]) == [EVENT_TYPES["User Linked"][1]]
    got = _check(server, token)
    assert [e.event_type for e in got.events] == ["User Linked"]
    df = events_frame(got.events)
    assert str(df["toe"].dt.tz) == "UTC" and df.loc[0, "user_id"] == str(USER)
    # consent recorded at login → User Scope Consent follows, with the scope ids
    tokens = [verify_set(h[3], audience=app["rest_api_key"], issuer=server.hosts()["auth"],
                         jwks_url=server.hosts()["auth"] + "/.well-known/jwks.json") for h in receiver.hits]
    consent = [e for t in tokens for e in t.events if e.event_type == "User Scope Consent"]
    assert consent and consent[0].members["scope"] == "profile"
    assert {d["state"] for d in deliveries(tk)} == {"delivered"}


def test_forged_set_battery_maps_to_the_exact_err(server):
    ring = KeyRing(server.sandbox)
    good = ring.sign(_claims(server), typ="secevent+jwt")
    assert _check(server, good).events[0].event_type == "User Linked"
    pub_pem = ring.public_key(ring.active_kid()).public_bytes(
        __import__("cryptography.hazmat.primitives.serialization", fromlist=["x"]).Encoding.PEM,
        __import__("cryptography.hazmat.primitives.serialization", fromlist=["x"]).PublicFormat.SubjectPublicKeyInfo)
    h, p, s = good.split(".")
    other = rsa.generate_private_key(public_exponent=65537, key_size=2048)
    tampered_payload = _b64({**_claims(server), "sub": "999"})
    cases = {
        "garbage": ("not a jwt", "invalid_request"),
        "two parts": (f"{h}.{p}", "invalid_request"),
        "payload not json": (f"{h}.{_b64('x')[:-2]}!!.{s}", "invalid_request"),
        "no events": (ring.sign({k: v for k, v in _claims(server).items() if k != "events"}, typ="secevent+jwt"),
                      "invalid_request"),
        "wrong typ": (ring.sign(_claims(server), typ="JWT"), "invalid_request"),
        "alg none": (f"{_b64({'alg': 'none', 'typ': 'secevent+jwt', 'kid': ring.active_kid()})}.{p}.", "invalid_key"),
        "HS256 with the public key": (
            f"{_b64({'alg': 'HS256', 'typ': 'secevent+jwt', 'kid': ring.active_kid()})}.{p}."
            + base64.urlsafe_b64encode(__import__('hmac').new(
                pub_pem, f"{_b64({'alg': 'HS256', 'typ': 'secevent+jwt', 'kid': ring.active_kid()})}.{p}".encode(),
                "sha256").digest()).rstrip(b"=").decode(), "invalid_key"),
        "unknown kid": (jwt.encode(_claims(server), other, algorithm="RS256",
                                   headers={"kid": "sandbox-key-99", "typ": "secevent+jwt"}), "invalid_key"),
        "right kid, other key": (jwt.encode(_claims(server), other, algorithm="RS256",
                                            headers={"kid": ring.active_kid(), "typ": "secevent+jwt"}), "invalid_key"),
        "tampered payload": (f"{h}.{tampered_payload}.{s}", "invalid_key"),
        "wrong iss": (ring.sign(_claims(server, iss="https://evil.example/auth"), typ="secevent+jwt"),
                      "invalid_issuer"),
        "wrong aud": (ring.sign(_claims(server, aud="someone-else"), typ="secevent+jwt"), "invalid_audience"),
    }
    for name, (token, err) in cases.items():
        with pytest.raises(SetError) as info:
            _check(server, token)
        assert info.value.err == err, name
        assert set(info.value.body()) == {"err", "description"}


def test_rotated_key_still_verifies_via_refetch(server):
    ring = KeyRing(server.sandbox)
    _check(server, ring.sign(_claims(server), typ="secevent+jwt"))      # caches the JWKS
    ring.rotate()
    from toolkit import events as ev
    jwks_url = server.hosts()["auth"] + "/.well-known/jwks.json"
    (cache,) = [c for key, c in ev._CACHES.items() if key[0] == jwks_url]     # keyed by (URL, headers)
    cache.min_refetch = 0
    assert _check(server, ring.sign(_claims(server), typ="secevent+jwt")).events
