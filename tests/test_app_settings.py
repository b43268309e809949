"""Apps set up as in a developer console (``POST``/``PATCH /sandbox/apps``, ``tk.sandbox.create_app`` /
``update_app``): redirect URIs, logout redirect URIs, web domains, client secret on or off, consent items and
service terms, and the spec's checks follow them. A third-party-style flow over real HTTP: a registered
``https://localhost:5000/callback``, no client secret, a memo sent with the token."""
from __future__ import annotations

from urllib.parse import parse_qs, urlsplit

import httpx
import pytest

from toolkit.errors import ApiError

from .identity.helpers import Browser, s256

CALLBACK = "https://localhost:5000/callback"


def _query(response: httpx.Response) -> dict:
    return {k: v[0] for k, v in parse_qs(urlsplit(response.headers["location"]).query).items()}


def test_a_public_client_registers_its_redirect_uri_turns_the_secret_off_and_sends_a_memo(fresh_tk, fresh_server):
    tk = fresh_tk
    app = tk.sandbox.create_app("Third-party app", redirect_uris=[CALLBACK],
                                logout_redirect_uris=["https://localhost:5000/bye"],
                                web_domains=["https://localhost:5000"], client_secret=False,
                                consent_items={"profile": "required", "talk_message": "optional"},
                                service_terms=[{"tag": "terms", "required": True}])
    assert app["redirect_uris"] == [CALLBACK] and app["client_secret_required"] is False
    assert app["consent_items"] == {"profile": "required", "talk_message": "optional"}
    assert app["service_terms"] == [{"tag": "terms", "required": True}]
    assert app["rest_api_key"] not in repr(app)                    # shown masked, reachable by lookup

    with Browser(fresh_server) as b:
        b.app = dict(app)                                          # the third-party app's key and redirect URI
        # the demo app's redirect URI is not this app's: the error page KOE006, no redirect
        wrong = b.authorize(redirect_uri=fresh_server.app_config()["redirect_uris"][0], scope="profile")
        assert wrong.status_code == 400 and "KOE006" in wrong.text
        # a scope the app does not ask for is refused
        refused_scope = b.authorize(scope="friends")
        assert refused_scope.status_code == 302 and _query(refused_scope)["error"] == "invalid_scope"
        verifier = "v" * 50
        code, query = b.code_for(scope="profile,talk_message", state="st1", code_challenge=s256(verifier),
                                 code_challenge_method="S256")
        assert code and query["state"] == "st1"
        token = b.token(code, verifier=verifier, redirect_uri=CALLBACK, secret=False)
        assert token.status_code == 200, token.text
        assert set(token.json()["scope"].split()) == {"profile", "talk_message"}
        memo = b.http.post(f"{b.api}/v2/api/talk/memo/default/send",
                           headers={"Authorization": f"Bearer {token.json()['access_token']}"},
                           data={"template_object": '{"object_type": "text", "text": "hello from my app", '
                                                    '"link": {"web_url": "https://localhost:5000"}}'})
        assert memo.status_code == 200 and memo.json() == {"result_code": 0}, memo.text

        # the secret turned on: the same exchange without it fails with the spec's KOE010
        tk.sandbox.update_app(app["app_id"], client_secret=True)
        code, _ = b.code_for(scope="profile")
        refused = b.token(code, redirect_uri=CALLBACK, secret=False)
        assert refused.status_code == 401 and refused.json()["error_code"] == "KOE010"
        code, _ = b.code_for(scope="profile")
        assert b.token(code, redirect_uri=CALLBACK, client_secret=app["client_secret"]).status_code == 200


def test_settings_are_checked_before_anything_changes(fresh_tk):
    tk = fresh_tk
    before = tk.sandbox.control("GET", "/sandbox/apps")
    for bad, words in [({"redirect_uris": ["localhost:5000/cb"]}, "absolute http or https URL"),
                       ({"web_domains": ["https://a.test/path"]}, "must be an origin"),
                       ({"consent_items": {"profle": "required"}}, "'profle' is not a scope id"),
                       ({"consent_items": {"profile": "always"}}, "'required' or 'optional'"),
                       ({"client_secret_required": "no"}, "true or false"),
                       ({"redirect_uri": [CALLBACK]}, "unknown app settings: redirect_uri")]:
        with pytest.raises(ApiError, match=words):
            tk.sandbox.control("POST", "/sandbox/apps", json={"name": "X", **bad})
    assert tk.sandbox.control("GET", "/sandbox/apps") == before
    with pytest.raises(ApiError, match="no app '999999'"):
        tk.sandbox.update_app("999999", client_secret=False)
    made = tk.sandbox.create_app("Y")
    with pytest.raises(ApiError, match="absolute http or https URL"):
        tk.sandbox.update_app(made["app_id"], redirect_uris=["not a url"], client_secret=False)
    assert tk.sandbox.control("GET", "/sandbox/apps")["apps"][-1] == {k: v for k, v in made.items()
                                                                      if k not in ("channels", "service_terms")}


def test_update_app_changes_redirect_uris_and_consent_items(fresh_tk, fresh_server):
    app = fresh_tk.sandbox.create_app("Later", consent_items=["profile"])
    assert app["consent_items"] == {"profile": "required"}
    changed = fresh_tk.sandbox.update_app(app["app_id"], redirect_uris=CALLBACK, name="Renamed")
    assert changed["redirect_uris"] == [CALLBACK] and changed["name"] == "Renamed"
    assert changed["consent_items"] == {"profile": "required"}         # unchanged settings stay
    with Browser(fresh_server) as b:
        b.app = dict(changed)
        r = b.authorize(scope="talk_message")
        assert r.status_code == 302 and _query(r)["error"] == "invalid_scope"
        assert "not set as consent items of the app: talk_message" in _query(r)["error_description"]


def test_the_scopes_of_an_app_with_consent_items_are_its_items_required_as_it_sets_them(fresh_tk):
    """``GET /v2/user/scopes`` for an app that sets its consent items lists those items (``using``), a scope the
    user agreed to earlier that the app no longer asks for with ``using`` false, and ``revocable`` as the app sets
    each item: so a consent report's "required" is what this app requires, not the catalogue's default."""
    import pandas as pd

    import toolkit

    tk = fresh_tk
    app = tk.sandbox.create_app("Items", consent_items={"profile": "optional", "talk_message": "required"})
    tk.sandbox.control("POST", "/sandbox/login", json={"app_id": app["app_id"], "user_id": 4100000001,
                                                       "scopes": ["profile", "talk_message"]})
    tk.sandbox.update_app(app["app_id"], consent_items={"talk_message": "required", "friends": "optional"})
    mine = toolkit.connect(tk.hosts, rest_api_key=app["rest_api_key"], admin_key=app["admin_key"])
    try:
        scopes = mine.user.scopes(target_id=4100000001).set_index("id")
    finally:
        mine.close()
    assert list(scopes.index) == ["friends", "talk_message", "profile"]           # the app's items, then earlier ones
    assert scopes["using"].tolist() == [True, True, False]
    assert bool(scopes.loc["talk_message", "revocable"]) is False                 # required by this app
    assert bool(scopes.loc["profile", "revocable"]) is True                       # no longer asked: not required
    assert pd.isna(scopes.loc["friends", "revocable"]) and not scopes.loc["friends", "agreed"]
