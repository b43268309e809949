"""Business authorization in the sandbox over raw HTTP (identity.md §2, §3, §4.16–4.20)."""
from __future__ import annotations

import re

import pytest

MINJI = 4100000001
ALL = [("resource_ids", "keyword:*")]


def test_consent_screen_on_every_request(biz):
    r = biz.authorize(scope="keyword_manage")
    assert r.status_code == 200 and "id='login'" in r.text          # no session: identity's login page
    r = biz.login(r)
    assert "id='biz-consent'" in r.text and "keyword_manage" in r.text
    assert biz.redirect_query(biz.consent(r))["code"]
    # Same browser, same consent already given: the screen is shown again, no code is issued at once.
    again = biz.authorize(scope="keyword_manage")
    assert again.status_code == 200 and "id='biz-consent'" in again.text and "id='login'" not in again.text


def test_cancel_redirects_access_denied_with_state(biz):
    r = biz.login(biz.authorize(scope="keyword_manage", state="xyz"))
    q = biz.redirect_query(biz.consent(r, action="cancel"))
    assert q["error"] == "access_denied" and q["state"] == "xyz" and "code" not in q


@pytest.mark.parametrize("params, pairs, error", [
    ({"scope": None}, [], "invalid_scope"),
    ({"scope": "keyword_manage,no_such_item"}, [], "invalid_scope"),
    ({"scope": "biz_account_email"}, [], "invalid_scope"),
    ({"scope": "keyword_create"}, [], "invalid_scope"),
    ({"scope": "keyword_create"}, [("resource_ids", "keyword:196472")], "invalid_scope"),
    ({"scope": "moment_create,keyword_manage"}, [("resource_ids", "keyword:*")], "invalid_scope"),
    ({"scope": "keyword_manage"}, [("resource_ids", "keyword")], "invalid_request"),
    ({"scope": "keyword_manage"}, [("resource_ids", "ads:*")], "invalid_request"),
    ({"scope": "keyword_manage,biz_account_email"}, [("resource_ids", "personal:*")], "invalid_request"),
    ({"scope": "keyword_manage"}, [("resource_ids", "moment:*")], "invalid_request"),
    ({"scope": "keyword_manage", "response_type": "token"}, [], "unsupported_response_type"),
])
def test_scope_rules_redirect_errors(biz, params, pairs, error):
    r = biz.authorize(pairs, **params)
    q = biz.redirect_query(r)
    assert q["error"] == error and q["error_description"] and q["state"] == "st-1" and "code" not in q


def test_rules_pass_for_valid_combinations(biz):
    r = biz.authorize([("resource_ids", "moment:*")], scope="moment_create,biz_account_email")
    assert r.status_code == 200 and "id='login'" in r.text
    r = biz.authorize([("resource_ids", '["keyword:*","moment:*"]')], scope="keyword_create,moment_create")
    assert r.status_code == 200 and "id='login'" in r.text           # JSON-array text accepted too


def test_unregistered_redirect_uri_and_unknown_client_are_error_pages(biz):
    r = biz.authorize(scope="keyword_manage", redirect_uri="https://evil.example/cb")
    assert r.status_code == 400 and "KOE006" in r.text and "location" not in r.headers
    r = biz.authorize(scope="keyword_manage", client_id="nope")
    assert r.status_code == 400 and "KOE101" in r.text


def test_resource_not_held_by_user_is_refused_after_login(biz):
    r = biz.login(biz.authorize([("resource_ids", "keyword:000001")], scope="keyword_manage"))
    q = biz.redirect_query(r)
    assert q["error"] == "invalid_request" and "000001" in q["error_description"]


def test_star_expands_to_every_asset_of_the_group_and_is_kept_as_star(biz):
    assets = biz.control("GET", f"/sandbox/business/assets?user_id={MINJI}")["assets"]
    keyword = sorted(f"keyword:{a['resource_id']}" for a in assets if a["group"] == "keyword")
    assert len(keyword) >= 1
    page = biz.login(biz.authorize(ALL, scope="keyword_create,keyword_manage"))
    assert sorted(biz.fixed(page)) == keyword and biz.offered(page) == []   # all shown, none deselectable
    code = biz.redirect_query(biz.consent(page))["code"]
    tok = biz.token(code).json()["access_token"]
    info = biz.api_get("/v1/business/tokeninfo", tok).json()
    assert info["biz_agreements"] == [{"group": "keyword", "scope": ["keyword_create", "keyword_manage"],
                                       "ad_account_ids": ["*"]}]


def test_user_selects_assets_by_default_and_explicit_ids_are_fixed(biz):
    assets = biz.control("GET", f"/sandbox/business/assets?user_id={MINJI}")["assets"]
    moment = [a["resource_id"] for a in assets if a["group"] == "moment"]
    channel = [a["resource_id"] for a in assets if a["group"] == "channel"]
    page = biz.login(biz.authorize([("resource_ids", f"channel:{channel[0]}")],
                                   scope="moment_manage,channel_manage"))
    assert sorted(biz.offered(page)) == sorted(f"moment:{m}" for m in moment)
    assert biz.fixed(page) == [f"channel:{channel[0]}"]
    code = biz.redirect_query(biz.consent(page, resources=[f"moment:{moment[0]}"]))["code"]
    info = biz.api_get("/v1/business/tokeninfo", biz.token(code).json()["access_token"]).json()
    assert info["biz_agreements"] == [
        {"group": "moment", "scope": ["moment_manage"], "ad_account_ids": [moment[0]]},
        {"group": "channel", "scope": ["channel_manage"], "channel_public_ids": [channel[0]]}]


def test_assets_are_seeded_deterministically(biz, sandbox_server):
    ours = biz.control("GET", f"/sandbox/business/assets?user_id={MINJI}")
    other = sandbox_server.sandbox.model("business").assets(MINJI)
    assert ours["assets"] == other and other


def test_token_response_and_code_single_use(biz):
    code = biz.code_for("keyword_manage,biz_account_email")
    r = biz.token(code)
    assert r.status_code == 200
    body = r.json()
    assert body["token_type"] == "bearer" and body["scope"] == "keyword_manage biz_account_email"
    assert set(body) == {"token_type", "access_token", "scope"}
    again = biz.token(code)
    assert again.status_code == 400 and again.json()["error"] == "invalid_grant"
    assert again.json()["error_code"] == "KOE320"
    issued = [e for e in biz.control("GET", "/sandbox/business/events")["events"] if e["kind"] == "issued"]
    assert len(issued) == 1


def test_client_secret_rule(biz):
    code = biz.code_for("keyword_manage")
    r = biz.token(code, secret=False)
    assert r.status_code == 401 and r.json()["error"] == "invalid_client" and r.json()["error_code"] == "KOE010"
    r = biz.token(code, client_secret="wrong")
    assert r.status_code == 401 and r.json()["error_code"] == "KOE010"
    assert biz.token(code).status_code == 200            # a refused client did not consume the code
    biz.control("POST", "/sandbox/identity/settings", json={"client_secret_required": False})
    assert biz.token(biz.code_for("keyword_manage"), secret=False).status_code == 200


def test_token_errors(biz):
    code = biz.code_for("keyword_manage")
    r = biz.token(code, redirect_uri=biz.app["redirect_uris"][1])
    assert r.status_code == 400 and r.json()["error_code"] == "KOE303"
    r = biz.token("not-a-code")
    assert r.status_code == 400 and r.json()["error_code"] == "KOE320"
    r = biz.token(code, grant_type="refresh_token")
    assert r.status_code == 400 and r.json()["error"] == "unsupported_grant_type"


def test_tokeninfo_shape(biz):
    tok = biz.token(biz.code_for("biz_account_email,keyword_create", ALL)).json()["access_token"]
    r = biz.api_get("/v1/business/tokeninfo", tok)
    assert r.status_code == 200 and r.headers["content-type"] == "application/json;charset=UTF-8"
    info = r.json()
    assert set(info) == {"id", "token_user_id", "biz_agreements", "status", "updated_at"}
    assert isinstance(info["id"], str) and info["token_user_id"] == str(MINJI)
    assert info["status"] == "ACTIVE"
    assert re.fullmatch(r"\d{4}-\d\d-\d\dT\d\d:\d\d:\d\dZ", info["updated_at"])
    assert info["updated_at"] == biz.control("GET", "/sandbox/clock")["now"]
    assert info["biz_agreements"] == [{"group": "personal", "scope": ["biz_account_email"]},
                                      {"group": "keyword", "scope": ["keyword_create"], "ad_account_ids": ["*"]}]


def test_userinfo_until_2026_11_30_then_retired(biz):
    with_email = biz.token(biz.code_for("biz_account_email,keyword_manage")).json()["access_token"]
    without = biz.token(biz.code_for("keyword_manage")).json()["access_token"]
    r = biz.api_get("/v1/business/userinfo", with_email)
    assert r.status_code == 200
    assert r.json() == {"token_user_id": str(MINJI), "email": "minji@sandbox.test", "email_verified": True}
    assert biz.api_get("/v1/business/userinfo", without).json() == {"token_user_id": str(MINJI)}
    biz.control("POST", "/sandbox/clock", json={"set": "2026-11-30T23:59:59Z"})
    assert biz.api_get("/v1/business/userinfo", with_email).status_code == 200   # last day still served
    biz.control("POST", "/sandbox/clock", json={"advance": 1})
    r = biz.api_get("/v1/business/userinfo", with_email)
    assert r.status_code == 404 and r.json()["code"] == -404 and "retired" in r.json()["msg"]
    assert biz.api_get("/v1/business/tokeninfo", with_email).status_code == 200  # only userinfo ends


def test_revoke_then_401_and_transitions(biz, fresh_server):
    calls = []
    model = fresh_server.sandbox.model("business")
    model._on_token_change = lambda kind, row: calls.append((kind, row["id"], row["status"]))
    tok = biz.token(biz.code_for("keyword_manage")).json()["access_token"]
    token_id = biz.api_get("/v1/business/tokeninfo", tok).json()["id"]
    r = biz.api_post("/v1/business/revoke", tok)
    assert r.status_code == 200 and r.json() == {"id": token_id, "token_user_id": str(MINJI)}
    for path, call in (("/v1/business/tokeninfo", biz.api_get), ("/v1/business/userinfo", biz.api_get),
                       ("/v1/business/revoke", biz.api_post)):
        r = call(path, tok)
        assert r.status_code == 401 and r.json()["code"] == -401 and "WWW-Authenticate" in r.headers
    kinds = [(e["kind"], e["token_id"]) for e in biz.control("GET", "/sandbox/business/events")["events"]]
    assert kinds == [("issued", token_id), ("revoked", token_id)]
    assert calls == [("issued", token_id, "ACTIVE"), ("revoked", token_id, "REVOKED")]


def test_user_access_token_is_not_a_business_token(biz):
    user_tok = biz.control("POST", "/sandbox/login", json={"user_id": MINJI, "scopes": ["profile"]})["access_token"]
    r = biz.api_get("/v1/business/tokeninfo", user_tok)
    assert r.status_code == 401 and r.json()["code"] == -401
    biz_tok = biz.token(biz.code_for("keyword_manage")).json()["access_token"]
    r = biz.api_get("/v2/user/me", biz_tok)
    assert r.status_code == 401
