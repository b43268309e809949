"""Errors point at the real fix: a refused app key, a refused admin key, a refused user token, a missing
consent (-402) and an exhausted quota (-10) each get their own hint (one table in toolkit.errors)."""
from __future__ import annotations

import dataclasses

import pytest

from toolkit import errors
from toolkit.client import Client
from toolkit.config import Credentials


@pytest.mark.parametrize("auth, needle", [
    ("app_key", "TOOLKIT_REST_API_KEY"), ("admin_key", "TOOLKIT_ADMIN_KEY"), ("user_token", "log in again"),
])
def test_a_401_hint_names_the_credential_the_call_presented(auth, needle):
    err = errors.error_from_response(401, {"code": -401, "msg": "refused"}, auth=auth)
    assert isinstance(err, errors.InvalidTokenError) and err.auth == auth
    assert needle in err.hint and needle in str(err)
    if auth != "user_token":
        assert "log in again" not in err.hint


def test_the_www_authenticate_header_decides_when_the_call_did_not_say():
    err = errors.error_from_response(401, {"code": -401, "msg": "x"}, headers={"WWW-Authenticate": "ServiceAK"})
    assert err.auth == "app_key" and "REST API key" in err.hint


def test_consent_and_quota_have_their_own_hints_and_types():
    consent = errors.error_from_response(403, {"code": -402, "msg": "insufficient scopes"}, auth="user_token")
    quota = errors.error_from_response(400, {"code": -10, "msg": "API limit has been exceeded."}, auth="app_key")
    token = errors.error_from_response(401, {"code": -401, "msg": "expired"}, auth="user_token")
    assert isinstance(consent, errors.ConsentRequiredError) and isinstance(consent, errors.PermissionDeniedError)
    assert isinstance(quota, errors.QuotaExceeded)
    hints = {consent.hint, quota.hint, token.hint}
    assert len(hints) == 3 and "consent" in consent.hint and "quota" in quota.hint


def _with_keys(tk: Client, **keys) -> Client:
    creds = dataclasses.replace(tk.config.credentials, **keys)
    return Client(dataclasses.replace(tk.config, credentials=creds), sandbox=tk.sandbox)


def test_a_wrong_rest_api_key_is_answered_with_the_app_key_hint(tk):
    with _with_keys(tk, rest_api_key="not-the-key") as bad:
        with pytest.raises(errors.InvalidTokenError) as info:
            bad.local.address("전포동 341-17")
    assert info.value.auth == "app_key" and "REST API key" in info.value.hint
    assert "log in again" not in str(info.value) and "not-the-key" not in str(info.value)


def test_a_wrong_admin_key_is_answered_with_the_admin_key_hint(tk):
    with _with_keys(tk, admin_key="not-the-admin-key") as bad:
        with pytest.raises(errors.InvalidTokenError) as info:
            bad.user.me(target_id=4100000001)
    assert info.value.auth == "admin_key" and "TOOLKIT_ADMIN_KEY" in info.value.hint


def test_an_expired_user_token_says_log_in_again(tk):
    tk.use_token("no-such-token")
    with pytest.raises(errors.InvalidTokenError) as info:
        tk.user.me()
    assert info.value.auth == "user_token" and "log in again" in info.value.hint


def test_a_missing_consent_is_a_consent_error_with_its_hint(fresh_tk):
    fresh_tk.login_as(4100000001, scopes=["profile"])
    with pytest.raises(errors.ConsentRequiredError) as info:
        fresh_tk.talk.friends()
    assert info.value.code == -402 and "additional consent" in info.value.hint


def test_an_exhausted_quota_says_so(fresh_tk):
    fresh_tk.sandbox.set_quota("local_search_address", 0)
    with pytest.raises(errors.QuotaExceeded) as info:
        fresh_tk.local.address("전포동 341-17")
    assert "quota" in info.value.hint and "log in" not in info.value.hint


def test_a_missing_key_is_a_configuration_error_naming_the_setting():
    with pytest.raises(errors.ConfigurationError, match="TOOLKIT_ADMIN_KEY"):
        Credentials().need("admin_key")
