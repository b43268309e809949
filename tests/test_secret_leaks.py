"""Secrets never appear in a repr, a log line or an exception text (searched for by their actual values)."""
from __future__ import annotations

import logging

import pytest

from toolkit import errors


def test_no_secret_in_reprs_logs_or_errors(fresh_tk, caplog):
    tk = fresh_tk
    app = tk.sandbox.config()["app"]
    caplog.set_level(logging.DEBUG)
    texts: list[str] = []

    token = tk.login("minji@sandbox.test", scopes=["profile", "account_email", "openid"])
    biz = tk.business.login("minji@sandbox.test", scopes=["keyword_manage"])
    texts += [repr(tk), str(tk), repr(token), str(token), repr(tk.oauth.token), repr(biz), repr(tk.business.token),
              repr(tk.credentials), repr(tk.config), repr(tk.access_token), f"{tk.access_token}"]
    secrets = {
        "access token": token.access_token.reveal(), "refresh token": token.refresh_token.reveal(),
        "id token": token.id_token.reveal(), "business token": tk.business.token.access_token.reveal(),
        "REST API key": app["rest_api_key"], "admin key": app["admin_key"], "client secret": app["client_secret"],
        "native app key": app["native_app_key"], "JavaScript key": app["javascript_key"],
    }

    # errors raised while a token is in use: an expired token, a revoked one, a bad admin-mode target
    tk.user.me()
    tk.user.logout()                                          # revokes every token of the user
    tk.oauth.token = None                                     # no refresh possible: the error must surface
    for call in (tk.user.me, lambda: tk.user.scopes(target_id=1), tk.business.userinfo):
        try:
            call()
        except errors.ToolkitError as exc:
            texts += [str(exc), repr(exc), repr(getattr(exc, "body", None))]
    assert any("-401" in t or "401" in t for t in texts)

    texts.append(caplog.text)
    blob = "\n".join(texts)
    leaked = [name for name, value in secrets.items() if value and value in blob]
    assert not leaked, f"secrets in reprs/logs/errors: {leaked}"
    assert len(blob) > 500


def test_secret_values_do_not_survive_pickling_attempts(fresh_tk):
    import pickle

    with pytest.raises(TypeError):
        pickle.dumps(fresh_tk.credentials.rest_api_key)


def test_claims_and_control_answers_display_masked_but_look_up_plain(fresh_tk):
    """The ID token's ``aud`` is the REST API key: claims (and token info, the sandbox's config and login answers)
    show it masked in repr, str and IPython's display, while ``claims["aud"]`` gives the value."""
    from IPython.lib.pretty import pretty

    tk = fresh_tk
    app = tk.sandbox.config()["app"]
    key = app["rest_api_key"]
    token = tk.login("minji@sandbox.test", scopes=["profile", "openid"])
    claims = token.claims
    info = tk.oauth.tokeninfo(token.id_token)
    verified = tk.oauth.verify_id_token(token.id_token)
    config = tk.sandbox.config()
    tokens = tk.sandbox.login(4100000002, scopes=["profile", "openid"])
    shown = [repr(claims), str(claims), f"{claims}", pretty(claims), repr(info), pretty(info), repr(verified),
             repr(config), str(config), pretty(config), repr(config["app"]), repr(tokens), pretty(tokens)]
    secrets = [key, app["admin_key"], app["client_secret"], tokens["access_token"].reveal(),
               tokens["id_token"].reveal(), token.id_token.reveal()]
    for text in shown:
        assert not [s for s in secrets if s in text], text
    assert "'aud': '••••" in repr(claims) and "'rest_api_key': '••••" in repr(config["app"])
    assert "'nickname': '민지'" in repr(claims)                   # the rest shows as it is
    # a plain key lookup still gives the value, and the dict is a dict
    assert claims["aud"] == key == info["aud"] == config["app"]["rest_api_key"]
    assert isinstance(claims, dict) and dict(claims)["aud"] == key


def test_masked_dict_masks_known_values_under_any_name():
    from toolkit.secrets import MaskedDict, Secret

    key = "0123456789abcdef0123456789abcdef"
    d = MaskedDict({"note": key, "keyword": "카페", "token_type": "bearer", "nested": [{"k": key}]},
                   known=[Secret(key)])
    assert key not in repr(d) and "'keyword': '카페'" in repr(d) and "'token_type': 'bearer'" in repr(d)
    assert d["note"] == key
