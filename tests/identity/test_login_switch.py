"""``login()`` logs in as the person asked for: on a client already logged in, another e-mail or user id starts
a new account session and ends as that user; an unknown one raises before any page is driven (no silent
fallback to the previous user). Same for ``login_as`` and the async client."""
from __future__ import annotations

import asyncio

import pytest

from toolkit.client import AsyncClient
from toolkit.errors import ApiError, ParameterError

from ..conftest import client_for

SCOPES = ["profile", "account_email", "openid"]


def _users(tk):
    return {u["email"]: u["id"] for u in tk.sandbox.demo_users()}


def test_login_switches_user_by_email(fresh_tk):
    users = _users(fresh_tk)
    first, second = list(users)[:2]
    a = fresh_tk.login(first, scopes=SCOPES)
    assert a.claims["sub"] == str(users[first])
    assert fresh_tk.user.access_token_info()["id"] == users[first]
    b = fresh_tk.login(second, scopes=SCOPES)
    assert b.claims["sub"] == str(users[second])
    assert fresh_tk.user.access_token_info()["id"] == users[second]
    assert b.access_token.reveal() != a.access_token.reveal()
    # back to the first one, by user id and without the openid scope (checked through access_token_info)
    c = fresh_tk.login(user_id=users[first], scopes=["profile"])
    assert fresh_tk.user.access_token_info()["id"] == users[first]
    assert c.claims is None or c.claims.get("sub") in (None, str(users[first]))


def test_same_user_reuses_the_session(fresh_tk):
    first = list(_users(fresh_tk))[0]
    fresh_tk.login(first, scopes=SCOPES, stay_logged_in=True)
    browser = fresh_tk.oauth._browser
    fresh_tk.login(first, scopes=SCOPES)
    assert fresh_tk.oauth._browser is browser


def test_unknown_email_or_id_raises_and_keeps_the_previous_user(fresh_tk):
    users = _users(fresh_tk)
    first = list(users)[0]
    token = fresh_tk.login(first, scopes=SCOPES)
    with pytest.raises(ParameterError, match="email"):
        fresh_tk.login("nobody@sandbox.test", scopes=SCOPES)
    with pytest.raises(ParameterError, match="user_id"):
        fresh_tk.login(user_id=1, scopes=SCOPES)
    with pytest.raises(ParameterError, match="user_id"):
        fresh_tk.login(first, user_id=list(users.values())[1], scopes=SCOPES)
    assert fresh_tk.oauth.token is token
    assert fresh_tk.user.access_token_info()["id"] == users[first]


def test_wrong_password_raises(fresh_tk):
    users = list(_users(fresh_tk))
    fresh_tk.login(users[0], scopes=SCOPES)
    with pytest.raises(Exception, match="wrong e-mail or password"):
        fresh_tk.login(users[1], password="not-it", scopes=SCOPES)


def test_login_as_switches_and_refuses_unknown(fresh_tk):
    users = _users(fresh_tk)
    first, second = list(users)[:2]
    fresh_tk.login(first, scopes=SCOPES)
    fresh_tk.login_as(email=second, scopes=["profile"])
    assert fresh_tk.user.access_token_info()["id"] == users[second]
    with pytest.raises(ApiError):
        fresh_tk.login_as(email="nobody@sandbox.test", scopes=["profile"])


def test_async_login_switches_user(fresh_server):
    atk = client_for(fresh_server, AsyncClient)
    users = {u["email"]: u["id"] for u in atk.sandbox.demo_users()}
    first, second = list(users)[:2]

    async def run():
        a = await atk.login(first, scopes=SCOPES)
        b = await atk.login(second, scopes=SCOPES)
        info = await atk.user.access_token_info()
        with pytest.raises(ParameterError):
            atk.login("nobody@sandbox.test", scopes=SCOPES)
        await atk.aclose()
        return a, b, info

    a, b, info = asyncio.run(run())
    assert (a.claims["sub"], b.claims["sub"]) == (str(users[first]), str(users[second]))
    assert info["id"] == users[second]
