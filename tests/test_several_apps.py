"""Several apps in one sandbox: ``POST /sandbox/apps`` makes a second app with its keys and channels; every
resource belongs to one app and the other app's keys or tokens get the documented error. Local and navi do not
depend on the app (any app's REST key works)."""
from __future__ import annotations

import httpx
import pytest

from toolkit.sandbox.server import SandboxServer


@pytest.fixture(scope="module")
def two_apps():
    server = SandboxServer(port=0, frozen=True).start()
    http = httpx.Client(base_url=server.base_url.rstrip("/"), timeout=30)
    a = server.app_config()
    r = http.post("/sandbox/apps", json={"name": "Second App", "channels": [
        {"channel_public_id": "_second1", "channel_uuid": "@second", "name": "Second channel"}]})
    assert r.status_code == 200, r.text
    b = r.json()
    yield server, http, a, b
    http.close()
    server.stop()


def ak(key):
    return {"Authorization": f"ServiceAK {key}"}


def test_second_app_has_its_own_keys(two_apps):
    _, http, a, b = two_apps
    assert b["app_id"] != a["app_id"] and b["channels"] == ["_second1"]
    for kind in ("rest_api_key", "admin_key", "native_app_key", "javascript_key", "client_secret"):
        assert b[kind] and b[kind] != a[kind]
    ids = [x["app_id"] for x in http.get("/sandbox/apps").json()["apps"]]
    assert ids == [a["app_id"], b["app_id"]]


def test_refused_app_creation_changes_nothing(two_apps):
    server, http, a, _ = two_apps
    before = http.get("/sandbox/apps").json()
    r = http.post("/sandbox/apps", json={"name": "X", "channels": [
        {"channel_public_id": "_fresh", "channel_uuid": "@fresh"}, {"channel_public_id": "_xcLqmC",
                                                                    "channel_uuid": "@taken"}]})
    assert r.status_code == 400 and r.json()["code"] == -2
    assert http.get("/sandbox/apps").json() == before


def test_identity_users_link_per_app(two_apps):
    _, http, a, b = two_apps
    user = http.get("/sandbox/identity/users").json()["users"][2]["id"]
    tok_b = http.post("/sandbox/login", json={"user_id": user, "app_id": b["app_id"], "scopes": ["profile"]}).json()
    info = http.get("/api/v1/user/access_token_info", headers={"Authorization": f"Bearer {tok_b['access_token']}"})
    assert info.status_code == 200 and int(info.json()["app_id"]) == int(b["app_id"])
    # linked to B only: A's admin key cannot act on the user, B's can
    me_a = http.get("/api/v2/user/me", params={"target_id_type": "user_id", "target_id": user},
                    headers=ak(a["admin_key"]))
    assert me_a.status_code == 400 and me_a.json()["code"] == -101
    me_b = http.get("/api/v2/user/me", params={"target_id_type": "user_id", "target_id": user},
                    headers=ak(b["admin_key"]))
    assert me_b.status_code == 200 and me_b.json()["id"] == user
    # an app that does not exist is refused before anything changes
    r = http.post("/sandbox/login", json={"app_id": "999999", "user_id": user})
    assert r.status_code == 400 and r.json()["code"] == -2


def test_customer_files_belong_to_the_channels_app(two_apps):
    _, http, a, b = two_apps
    body = {"channel_public_id": "_xcLqmC", "file_name": "vip", "schema": {"구매금액": "number"}}
    foreign = http.post("/api/v1/talkchannel/create/target_user_file", json=body, headers=ak(b["rest_api_key"]))
    assert foreign.status_code == 400 and foreign.json()["code"] == -2
    listing = http.get("/api/v1/talkchannel/target_user_file", params={"channel_public_id": "_xcLqmC"},
                       headers=ak(b["rest_api_key"]))
    assert listing.status_code == 400 and listing.json()["code"] == -2
    own = http.post("/api/v1/talkchannel/create/target_user_file", json={**body, "channel_public_id": "_second1"},
                    headers=ak(b["rest_api_key"]))
    assert own.status_code == 200, own.text
    across = http.get("/api/v1/talkchannel/target_user_file", params={"channel_public_id": "_second1"},
                      headers=ak(a["rest_api_key"]))
    assert across.status_code == 400 and across.json()["code"] == -2


def test_channel_relations_only_for_the_apps_channels(two_apps):
    _, http, a, b = two_apps
    user = http.get("/sandbox/identity/users").json()["users"][0]["id"]
    http.post("/sandbox/login", json={"user_id": user, "app_id": b["app_id"], "scopes": ["profile", "plusfriends"]})
    q = {"target_id_type": "user_id", "target_id": user}
    mine = http.get("/api/v2/api/talk/channels", params=q, headers=ak(b["admin_key"]))
    assert mine.status_code == 200, mine.text
    assert [c["channel_public_id"] for c in mine.json()["channels"]] == ["_second1"]
    other = http.get("/api/v2/api/talk/channels", params={**q, "channel_ids": "_xcLqmC"}, headers=ak(b["admin_key"]))
    assert other.status_code == 400 and other.json()["code"] == -2


def test_webhook_settings_are_per_app(two_apps):
    _, http, a, b = two_apps
    http.post("/sandbox/webhooks", json={"app_id": b["app_id"], "unlink": "http://127.0.0.1:9/b-unlink"})
    apps = {x["app_id"]: x for x in http.get("/sandbox/apps").json()["apps"]}
    assert apps[b["app_id"]]["webhooks"].get("unlink") == "http://127.0.0.1:9/b-unlink"
    assert apps[a["app_id"]]["webhooks"].get("unlink") != "http://127.0.0.1:9/b-unlink"
    bad = http.post("/sandbox/webhooks", json={"app_id": "nope", "unlink": "http://127.0.0.1:9/x"})
    assert bad.status_code == 400 and bad.json()["code"] == -2


def test_foreign_or_bad_key_is_401(two_apps):
    _, http, a, b = two_apps
    r = http.get("/api/v1/talkchannel/target_user_file", params={"channel_public_id": "_second1"},
                 headers=ak("0" * 32))
    assert r.status_code == 401 and r.json()["code"] == -401
    r = http.get("/api/v1/talkchannel/target_user_file", params={"channel_public_id": "_second1"},
                 headers=ak(b["javascript_key"]))  # a key of the wrong kind
    assert r.status_code == 401 and r.json()["code"] == -401


def test_local_and_navi_work_with_any_apps_key(two_apps):
    _, http, a, b = two_apps
    for app in (a, b):
        r = http.get("/local/v2/local/search/keyword.json", params={"query": "카페", "rect": "129.05,35.15,129.07,35.16"},
                     headers=ak(app["rest_api_key"]))
        assert r.status_code == 200, r.text


def test_codes_and_refresh_tokens_do_not_cross_apps(two_apps):
    from tests.identity.helpers import Browser

    server, http, a, b = two_apps
    with Browser(server) as browser:
        code, _ = browser.code_for()
        redirect = a["redirect_uris"][0]
        r = http.post("/auth/oauth/token", data={"grant_type": "authorization_code", "client_id": b["rest_api_key"],
                                                 "client_secret": b["client_secret"], "code": code, "redirect_uri": redirect})
        assert r.status_code == 400 and r.json()["error"] == "invalid_grant"
        code, _ = browser.code_for()
        tokens = browser.token(code).json()  # A's own exchange still works
        r = http.post("/auth/oauth/token", data={"grant_type": "refresh_token", "client_id": b["rest_api_key"],
                                                 "client_secret": b["client_secret"],
                                                 "refresh_token": tokens["refresh_token"]})
        assert r.status_code == 400 and r.json()["error"] == "invalid_grant"
