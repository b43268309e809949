"""Issue 45's round trip: a session over every area (login through the widget's flow, consent, story, talk, local
search, bulk geocode sync and async, a route, status and consent reports) is recorded against a sandbox configured
as a remote service (explicit hosts and keys; the other users and the platform act through the sandbox's own
control API, outside the recorded client), the sandbox is stopped, and the session is replayed in a fresh process
with no keys, no sandbox and no network.

* every frame, text, figure (PNG bytes) and the route map's GeoJSON of the replay equals the recording's once the
  recording's secrets are replaced by the placeholders the cassette wrote (a replay shows placeholders: the
  secrets are gone);
* the cassette holds no secret the recording run used, in any form (plain, URL- or JSON-escaped, inside a JWT),
  and every JWT in it is one the cassette signed again;
* a call the cassette lacks raises one clear error naming it and the closest recorded call, a bulk run too;
* the cassette is HAR 1.2 as the published JSON schema says (tests/data/har_schema).

Cost: one in-process sandbox for the recording, one subprocess for the replay."""
from __future__ import annotations

import base64
import json
import os
import pickle
import re
import subprocess
import sys
import time
from pathlib import Path
from types import SimpleNamespace
from urllib.parse import parse_qs, quote, quote_plus, urlsplit

import httpx
import matplotlib
import pandas as pd
import pytest

import toolkit
from tests.cassette import session
from toolkit.authpages import drive_pages
from toolkit.client import SandboxHandle
from toolkit.sandbox.server import SandboxServer

ROOT = Path(__file__).resolve().parents[2]
SCHEMA = ROOT / "tests" / "data" / "har_schema"
JWT = re.compile(r"eyJ[\w-]+\.[\w-]+\.[\w-]*")


def browser(auth_url: str):
    """The user's side of the widget's flow during the recording: the user presses Start login, logs in and agrees
    in their browser (here an httpx client of the test driving the login pages), pastes the address they land on,
    presses Complete login. Keeps what the browser saw (the code) for the scan."""
    seen: dict = {}

    def log_in(widget):
        widget.start_button.click()
        req = widget.request()
        with httpx.Client(follow_redirects=False) as b:
            base = auth_url + "/oauth/"

            def on_page(text, q):
                if "id='consent'" in text:
                    account = re.search(r"name='account' value='(\d+)'", text).group(1)
                    scopes = re.findall(r"type='checkbox' name='scope' value='([^']+)'", text)
                    return b.post(base + "consent", data={"q": q, "account": account, "action": "agree",
                                                          "scope": scopes})
                return None

            url = drive_pages(b, req.url, req.redirect_uri, login_url=base + "login",
                              login={"email": "minji@sandbox.test", "password": "sandbox"}, on_page=on_page, steps=6,
                              what="the login")
        seen["code"] = parse_qs(urlsplit(url).query)["code"][0]
        seen["code_verifier"] = req.code_verifier.reveal()
        widget.redirect.value = url
        widget.complete_button.click()
        assert "logged in" in widget.status.value, widget.status.value

    return log_in, seen


def scrubbed(value, cassette):
    """``value`` as a replay must show it: every text the recording met as a secret replaced by its placeholder."""
    if isinstance(value, str):
        return cassette.scrubbed(value)
    if isinstance(value, dict):
        return {k: scrubbed(v, cassette) for k, v in value.items()}
    if isinstance(value, list):
        return [scrubbed(v, cassette) for v in value]
    if isinstance(value, pd.DataFrame):
        out = value.copy()
        for column in out.columns:
            new = out[column].map(lambda v: cassette.scrubbed(v) if isinstance(v, str) else v, na_action="ignore")
            changed = new.ne(out[column]) & new.notna()
            if changed.any():
                out.loc[changed, column] = new[changed]
        out.attrs = {"meta": scrubbed(value.attrs.get("meta"), cassette)}
        return out
    return value


@pytest.fixture(scope="module")
def trip(tmp_path_factory):
    folder = tmp_path_factory.mktemp("cassette")
    path = folder / "session.har"
    server = SandboxServer(port=0, clock="real").start()     # wall clock: the client checks ID tokens by its own
    try:
        app, hosts = server.app_config(), server.hosts()
        platform = SandboxHandle(server.base_url)           # other users and the platform, not the recorded client
        try:
            for user in (4100000002, 4100000003, 4100000004):
                platform.login(user, scopes=["profile", "friends", "talk_message"])
            emails = [u["email"] for u in platform.demo_users()]
        finally:
            platform.close()
        keys = dict(rest_api_key=app["rest_api_key"], admin_key=app["admin_key"], client_secret=app["client_secret"],
                    redirect_uri=app["redirect_uris"][0])
        tk = toolkit.connect(hosts, record=path, **keys)
        log_in, seen = browser(hosts["auth"])
        matplotlib.use("Agg")
        started = time.perf_counter()
        recorded = session.run(tk, lambda: toolkit.connect_async(hosts, record=tk.cassette, **keys), log_in)
        record_s = time.perf_counter() - started
        token = tk.oauth.token
        shipping = recorded["shipping"]
        secrets = {
            **{name: app[name] for name in ("rest_api_key", "admin_key", "client_secret", "javascript_key",
                                            "native_app_key")},
            "access_token": token.access_token.reveal(), "refresh_token": token.refresh_token.reveal(),
            "id_token": token.id_token.reveal(), "code": seen["code"], "code_verifier": seen["code_verifier"],
            **{f"email {e}": e for e in emails},
            **{f"{column} {v}": v for column in ("receiver_phone_number1", "receiver_phone_number2", "base_address",
                                                 "detail_address") for v in shipping[column].dropna().unique()},
        }
        expected = {name: scrubbed(value, tk.cassette) for name, value in recorded.items()}
        calls = len(tk.cassette)
        tk.close()                                          # writes the cassette
    finally:
        server.stop()
    env = {k: v for k, v in os.environ.items() if not k.startswith("TOOLKIT_")}
    env["HOME"] = str(folder / "home")
    started = time.perf_counter()
    done = subprocess.run([sys.executable, "-m", "tests.cassette.session", str(path), str(folder / "replayed.pkl")],
                          cwd=ROOT, env=env, capture_output=True, text=True, timeout=240)
    replay_s = time.perf_counter() - started
    assert done.returncode == 0, done.stderr[-3000:]
    replayed = pickle.loads((folder / "replayed.pkl").read_bytes())
    print(f"\nrecorded {calls} calls in {record_s:.1f} s; cassette {path.stat().st_size:,} bytes "
          f"({path.stat().st_size / calls:,.0f} per call); replay process {replay_s:.1f} s")
    return SimpleNamespace(path=path, expected=expected, recorded=recorded, replayed=replayed, secrets=secrets,
                           calls=calls, har=json.loads(path.read_text("utf-8")))


def test_the_session_covers_every_area(trip):
    paths = {urlsplit(e["request"]["url"]).path for e in trip.har["log"]["entries"]}
    for needed in ("/auth/oauth/token", "/auth/.well-known/jwks.json", "/api/v2/user/scopes",
                   "/api/v2/user/revoke/scopes", "/api/v1/api/story/post/note", "/api/v1/api/talk/friends",
                   "/api/v1/api/talk/friends/message/default/send", "/local/v2/local/search/address.json",
                   "/local/v2/local/geo/coord2regioncode.json", "/navi/v1/directions", "/status/api/health/history",
                   "/api/v1/user/ids"):
        assert needed in paths, f"the session never called {needed}"
    assert not any("/sandbox/" in p for p in paths), "the control API is not part of the service: never recorded"
    assert len(trip.recorded["geocoded"]) == 24 and len(trip.recorded["async.geocoded"]) == 24


def test_every_frame_of_the_replay_equals_the_scrubbed_recording(trip):
    assert set(trip.expected) <= set(trip.replayed)
    for name, want in trip.expected.items():
        got = trip.replayed[name]
        if isinstance(want, pd.DataFrame):
            pd.testing.assert_frame_equal(got, want, obj=name)
            assert got.attrs.get("meta") == want.attrs.get("meta"), name
        else:                               # texts, the figures' PNG bytes, the route map's GeoJSON
            assert got == want, name
    # the replay shows placeholders where the recording showed a secret, and the same values elsewhere
    assert trip.recorded["claims"].loc[0, "email"] == "minji@sandbox.test"
    assert trip.replayed["claims"].loc[0, "email"].startswith("scrubbed-email-")
    assert trip.replayed["claims"].loc[0, "aud"] == "scrubbed-rest-api-key"
    assert "&lt;scrubbed-email-" in trip.replayed["widget"]
    phones = trip.replayed["shipping"]["receiver_phone_number1"].dropna()
    assert len(phones) and phones.str.startswith("scrubbed-phone-").all()
    assert trip.replayed["address"].equals(trip.recorded["address"])           # nothing secret: untouched
    assert trip.replayed["consent.png"].startswith(b"\x89PNG") and len(trip.replayed["weekly.png"]) > 10_000
    assert trip.replayed["route.geojson"]["features"]
    # tk.login() of a notebook replays through the recording's browser: the same verified claims
    pd.testing.assert_frame_equal(trip.replayed["login.claims"], trip.expected["claims"])
    assert "replay of session.har" in trip.replayed["repr"]


def test_the_cassette_holds_no_secret_of_the_recording_run(trip):
    text = trip.path.read_text("utf-8")
    payloads = []
    for token in JWT.findall(text):
        body = token.split(".")[1]
        payloads.append(base64.urlsafe_b64decode(body + "=" * (-len(body) % 4)).decode("utf-8", "replace"))
    haystack = "\n".join([text, *payloads])
    for name, secret in trip.secrets.items():
        assert len(secret) >= 5, name
        for form in {secret, quote_plus(secret), quote(secret, safe=""), json.dumps(secret)[1:-1]}:
            assert form not in haystack, f"{name} is in the cassette"
    assert not re.search(r"(?i)set-cookie|\"cookie\"", text)


def test_every_jwt_in_the_cassette_is_signed_by_its_own_key(trip):
    import jwt

    jwks = next(json.loads(e["response"]["content"]["text"]) for e in trip.har["log"]["entries"]
                if e["request"]["url"].endswith("/.well-known/jwks.json"))
    keys = {k["kid"]: jwt.PyJWK.from_dict(k).key for k in jwks["keys"]}
    tokens = JWT.findall(trip.path.read_text("utf-8"))
    assert tokens
    for token in tokens:
        claims = jwt.decode(token, keys[jwt.get_unverified_header(token)["kid"]], algorithms=["RS256"],
                            options={"verify_aud": False, "verify_exp": False, "verify_iat": False})
        assert claims["aud"] == "scrubbed-rest-api-key"


def test_a_call_the_cassette_lacks_raises_one_clear_error(trip):
    miss = trip.replayed["misses"]
    assert "전포동 341-18" in miss["address"] and "closest recorded request" in miss["address"]
    assert "전포동 341-17" in miss["address"].split("closest recorded request", 1)[1]
    assert "differs in query" in miss["address"]
    assert "전포동 341-18" in miss["geocode"]         # the bulk run stopped on it instead of a row marked "error"


def test_the_cassette_is_har_1_2_as_its_schema_says(trip):
    jsonschema = pytest.importorskip("jsonschema")
    referencing = pytest.importorskip("referencing")
    schemas = {p.name: json.loads(p.read_text("utf-8")) for p in SCHEMA.glob("*.json")}
    registry = referencing.Registry().with_resources(
        (name, referencing.Resource.from_contents(doc, default_specification=referencing.jsonschema.DRAFT6))
        for name, doc in schemas.items())
    validator = jsonschema.Draft6Validator(schemas["har.json"], registry=registry)
    errors = sorted(validator.iter_errors(trip.har), key=lambda e: list(e.path))
    assert not errors, [f"{list(e.path)}: {e.message}" for e in errors[:5]]
    assert trip.har["log"]["version"] == "1.2" and trip.har["log"]["creator"]["name"] == "toolkit"
