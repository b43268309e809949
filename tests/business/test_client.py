"""toolkit.business against the sandbox over real HTTP."""
from __future__ import annotations

import pandas as pd
import pytest

from toolkit.business import AGREEMENT_COLUMNS, BizToken, EndpointRetiredError
from toolkit.errors import InvalidTokenError, OAuthError, ParameterError, RedirectError

MINJI = 4100000001


@pytest.mark.parametrize("scopes, resource_ids, name", [
    ([], None, "scopes"),
    (["biz_account_email"], None, "scopes"),
    (["keyword_create"], None, "resource_ids"),
    (["keyword_create"], ["keyword:123"], "resource_ids"),
    (["moment_create", "keyword_manage"], ["keyword:*"], "resource_ids"),
    (["keyword_manage"], ["keyword"], "resource_ids"),
    (["keyword_manage"], [":*"], "resource_ids"),
])
def test_client_side_scope_rules(fresh_tk, scopes, resource_ids, name):
    with pytest.raises(ParameterError) as err:
        fresh_tk.business.authorize_url(scopes, resource_ids)
    assert err.value.name == name
    with pytest.raises(ParameterError):
        fresh_tk.business.login("minji@sandbox.test", scopes, resource_ids=resource_ids)
    assert fresh_tk.sandbox.control("GET", "/sandbox/business/events")["events"] == []


def test_authorize_url_repeats_resource_ids(fresh_tk):
    req = fresh_tk.business.authorize_url(["keyword_create", "moment_create"], ["keyword:*", "moment:*"],
                                          state="s1")
    assert "/oauth/business/authorize?" in req.url
    assert "resource_ids=keyword%3A%2A&resource_ids=moment%3A%2A" in req.url
    assert "scope=keyword_create%2Cmoment_create" in req.url and req.state == "s1"


def test_login_tokeninfo_frame(fresh_tk):
    tk = fresh_tk
    assets = tk.sandbox.control("GET", f"/sandbox/business/assets?user_id={MINJI}")["assets"]
    moment = [a["resource_id"] for a in assets if a["group"] == "moment"]
    tok = tk.business.login("minji@sandbox.test", ["biz_account_email", "keyword_create", "moment_manage"],
                            resource_ids=["keyword:*"], select=[f"moment:{m}" for m in moment[:2]])
    assert isinstance(tok, BizToken) and tk.business.token is tok
    assert tok.scopes == ["biz_account_email", "keyword_create", "moment_manage"]
    assert tk.access_token is None                     # the user token is untouched
    df = tk.business.tokeninfo()
    assert list(df.columns) == AGREEMENT_COLUMNS
    assert list(df["group"]) == ["personal", "keyword"] + ["moment"] * 2
    assert df.loc[df.group == "keyword", "resource_id"].tolist() == ["*"]
    assert df.loc[df.group == "keyword", "all_assets"].tolist() == [True]
    assert df.loc[df.group == "moment", "resource_id"].tolist() == moment[:2]
    assert set(df.loc[df.group == "moment", "resource_type"]) == {"ad_account"}
    assert df.loc[df.group == "personal", "resource_id"].isna().all()
    assert df["scope"][1] == ["keyword_create"]
    assert isinstance(df["updated_at"].dtype, pd.DatetimeTZDtype)
    assert df.attrs["meta"]["status"] == "ACTIVE" and df.attrs["meta"]["token_user_id"] == str(MINJI)


def test_login_reuses_the_account_session_of_oauth_login(fresh_tk):
    tk = fresh_tk
    tk.oauth.login("jun@sandbox.test", scopes=["profile"])
    # A wrong password would fail on a login page: the shared session means no login page is shown.
    tk.business.login("jun@sandbox.test", ["keyword_manage"], password="wrong")
    assert tk.business.tokeninfo(raw=True)["token_user_id"] == "4100000002"


def test_each_login_shows_the_screen_and_issues_a_new_token(fresh_tk):
    a = fresh_tk.business.login("minji@sandbox.test", ["keyword_manage"])
    b = fresh_tk.business.login("minji@sandbox.test", ["keyword_manage"])
    assert a.access_token != b.access_token
    ids = {fresh_tk.business.tokeninfo(token=t, raw=True)["id"] for t in (a, b)}
    assert len(ids) == 2


def test_cancel_raises_access_denied(fresh_tk):
    with pytest.raises(RedirectError) as err:
        fresh_tk.business.login("minji@sandbox.test", ["keyword_manage"], agree=False)
    assert err.value.error == "access_denied" and fresh_tk.business.token is None


def test_code_single_use_through_the_client(fresh_tk):
    tk = fresh_tk
    req = tk.business.authorize_url(["keyword_manage"])
    url = tk.business._drive(req, "minji@sandbox.test", "sandbox", True, None)
    tk.business.complete(req, url)
    with pytest.raises(OAuthError) as err:
        tk.business.complete(req, url)
    assert err.value.error == "invalid_grant" and err.value.error_code == "KOE320"


def test_state_mismatch_is_refused(fresh_tk):
    req = fresh_tk.business.authorize_url(["keyword_manage"], state="mine")
    with pytest.raises(RedirectError) as err:
        fresh_tk.business.complete(req, req.redirect_uri + "?code=abc&state=other")
    assert err.value.error == "state_mismatch"


def test_userinfo_then_retired_by_the_sandbox_clock(fresh_tk):
    tk = fresh_tk
    tk.business.login("minji@sandbox.test", ["biz_account_email", "keyword_manage"])
    assert tk.business.userinfo() == {"token_user_id": str(MINJI), "email": "minji@sandbox.test",
                                      "email_verified": True}
    tk.sandbox.advance(days=11)                        # 2026-11-20 → 2026-12-01
    with pytest.raises(EndpointRetiredError) as err:
        tk.business.userinfo()
    assert err.value.status == 404 and "2026-11-30" in str(err.value)
    assert tk.business.tokeninfo(raw=True)["status"] == "ACTIVE"


def test_revoke_then_invalid(fresh_tk):
    tk = fresh_tk
    tok = tk.business.login("minji@sandbox.test", ["keyword_manage"])
    info = tk.business.tokeninfo(raw=True)
    assert tk.business.revoke() == {"id": info["id"], "token_user_id": str(MINJI)}
    assert tk.business.token is None
    with pytest.raises(InvalidTokenError) as err:
        tk.business.tokeninfo(token=tok)
    assert err.value.code == -401 and err.value.status == 401
    with pytest.raises(InvalidTokenError):
        tk.business.revoke(token=tok)


def test_secrets_masked(fresh_tk):
    tk = fresh_tk
    tok = tk.business.login("minji@sandbox.test", ["keyword_manage"])
    req = tk.business.authorize_url(["keyword_manage"])
    shown = repr(tok) + str(tok) + repr(tk.business) + repr(req) + repr(tk) + str(tok.access_token)
    assert tok.access_token.reveal() not in shown
    assert tk.credentials.client_secret.reveal() not in shown
    tk.business.revoke()
    with pytest.raises(InvalidTokenError) as err:
        tk.business.tokeninfo(token=tok)
    assert tok.access_token.reveal() not in str(err.value) + repr(err.value)
    with pytest.raises(TypeError):
        import pickle

        pickle.dumps(tok.access_token)
