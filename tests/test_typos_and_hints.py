"""Typos of closed sets get help (the value, the nearest valid one, the valid ones); incomplete configuration
and transport failures say what to check; the error table covers every error class the toolkit defines."""
from __future__ import annotations

import ast
import re
from pathlib import Path

import pytest

import toolkit
from toolkit.errors import (HINTS, ConfigurationError, InvalidArgumentError, ParameterError, RedirectError,
                            TransportError)
from toolkit.sandbox.server import SandboxServer

from .conftest import client_for

ROOT = Path(__file__).resolve().parents[1]


def test_a_scope_typo_at_login_names_the_scope_meant_and_the_valid_ones(fresh_tk):
    with pytest.raises(ParameterError) as err:
        fresh_tk.login("minji@sandbox.test", scopes=["profle", "openid"])
    assert str(err.value).startswith("scopes='profle': 'profle' is not a scope id; did you mean 'profile'? "
                                     "Valid: profile, account_email, openid,")


def test_a_scope_typo_at_login_as_is_caught_and_real_ids_the_toolkit_does_not_list_go_on(fresh_tk):
    with pytest.raises(ParameterError, match=r"scopes='frends'.*did you mean 'friends'\?"):
        fresh_tk.login_as(4100000001, scopes=["profile", "frends"])
    assert fresh_tk.access_token is None                       # nothing happened
    from toolkit.scopes import check_scopes

    assert check_scopes(["birthyear", "story_permalink"]) == ["birthyear", "story_permalink"]


def test_revoke_names_the_wrong_id_before_sending_and_after_a_minus_2(fresh_tk):
    tk = fresh_tk.login_as(4100000001, scopes=["profile", "account_email"])
    with pytest.raises(ParameterError, match=r"scopes='acount_email'.*did you mean 'account_email'\? Valid: "):
        tk.user.revoke_scopes(["acount_email"])
    # an id far from every known one is sent (the service may know more ids): the -2 answer names it
    with pytest.raises(InvalidArgumentError) as err:
        tk.user.revoke_scopes(["zzzq"])
    assert err.value.code == -2
    assert "sent scopes='zzzq'" in str(err.value) and "or the user: zzzq" in str(err.value)


def test_an_unknown_scope_sent_at_login_comes_back_as_invalid_scope_with_a_hint(fresh_tk):
    assert "invalid_scope" in HINTS
    with pytest.raises(RedirectError) as err:
        fresh_tk.login("minji@sandbox.test", scopes=["profile", "qqqzzz"])
    assert err.value.error == "invalid_scope" and "unknown scope ids: qqqzzz" in str(err.value)
    assert "hint: a scope id is unknown" in str(err.value)


def test_category_codes_products_and_choices_suggest_the_nearest(tk):
    with pytest.raises(ParameterError, match=r"'CE8' is not a category group code; did you mean 'CE7' \(cafe\)\? "
                                             r"Valid: MT1 supermarket"):
        tk.local.category("CE8", x=129.0592, y=35.1579, radius=500)
    with pytest.raises(ParameterError, match=r"did you mean 'PM9' \(pharmacy\)"):
        tk.local.category("pharmacy", x=129.0592, y=35.1579, radius=500)
    with pytest.raises(ParameterError, match=r"product='locl': 'locl' is not a product id; did you mean 'local'\? "
                                             r"Valid: login, social, message, local, navi, channel, search"):
        tk.status.current(product=["navi", "locl"])
    with pytest.raises(ParameterError, match=r"output_coord='WGS48': must be one of .* \(did you mean 'WGS84', "
                                             r"longitude and latitude, EPSG:4326\?\)"):
        tk.local.transcoord(129.0592, 35.1579, output_coord="WGS48")


def test_incomplete_environment_is_a_configuration_error_naming_what_is_missing():
    with pytest.raises(ConfigurationError, match=r"TOOLKIT_AUTH_URL, TOOLKIT_NAVI_URL are set but TOOLKIT_API_URL, "
                                                 r"TOOLKIT_LOCAL_URL, TOOLKIT_STATUS_URL are missing"):
        toolkit.connect(env={"TOOLKIT_AUTH_URL": "http://h.test/auth", "TOOLKIT_NAVI_URL": "http://h.test/navi"})


def test_a_transport_failure_tells_a_stopped_sandbox_from_a_real_service():
    server = SandboxServer(port=0).start()
    tk = client_for(server, total_timeout=3)
    base = server.base_url
    server.stop()
    try:
        with pytest.raises(TransportError) as err:
            tk.status.current()
    finally:
        tk.close()
    assert f"hint: is the sandbox at {base} running?" in str(err.value)
    assert "toolkit.connect() starts a new one" in err.value.hint
    hosts = {name: f"http://127.0.0.1:9/{name}-host" for name in ("auth", "api", "local", "navi", "status")}
    with toolkit.connect(hosts, rest_api_key="k" * 32, total_timeout=3) as real:
        with pytest.raises(TransportError) as err:
            real.status.current()
    assert "hint: check the base URL (http://127.0.0.1:9/status-host" in str(err.value)
    assert "the network" in err.value.hint and "timeout=" in err.value.hint


def _error_classes() -> set[str]:
    """Every public exception or warning class defined in a module of the client (the classroom modules keep
    their own table)."""
    names = set()
    for path in (ROOT / "toolkit").glob("*.py"):
        if path.name.startswith("classroom"):
            continue
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ClassDef) and not node.name.startswith("_") and \
                    re.search(r"(Error|Exceeded|Limited|Warning)$", node.name):
                names.add(node.name)
    return names


def test_the_error_table_covers_every_error_class():
    table = (ROOT / "notebooks" / "reference" / "errors.md").read_text(encoding="utf-8")
    classes = _error_classes()
    assert {"ParameterError", "TruncatedWarning", "SetError", "IdTokenError", "TemplateError"} <= classes
    missing = sorted(c for c in classes if f"`{c}`" not in table and f"`toolkit.events.{c}`" not in table)
    assert not missing, f"notebooks/reference/errors.md does not list {missing}"
    assert "`invalid_scope`" in table
