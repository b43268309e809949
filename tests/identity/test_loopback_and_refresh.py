"""Loopback login (one-shot callback server on 127.0.0.1) and refresh before expiry, against the sandbox."""
from __future__ import annotations

import socket
import threading

import httpx
import pytest

from toolkit.errors import ParameterError, RedirectError, ToolkitError
from toolkit.oauth import LoopbackServer

MINJI = 4100000001
LOOPBACK = "http://localhost:8765/callback"


def _port_free(port: int = 8765) -> bool:
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server does: TIME_WAIT is not "in use"
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


@pytest.fixture
def loopback_port():
    if not _port_free():
        pytest.skip("127.0.0.1:8765 (the demo app's loopback redirect URI) is in use by another process")


def _in_thread(tk, **kw):
    result, ready = {}, threading.Event()

    def on_request(req):
        result["request"] = req
        ready.set()

    def run():
        try:
            result["token"] = tk.oauth.login_in_browser(on_request=on_request, open_browser=False, **kw)
        except BaseException as exc:  # noqa: BLE001 — reported by the test
            result["error"] = exc
        finally:
            ready.set()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    assert ready.wait(10), "the loopback server did not start"
    return thread, result


def test_loopback_login_with_a_headless_browser(fresh_tk, loopback_port):
    tk = fresh_tk
    thread, result = _in_thread(tk, scopes=["profile", "account_email", "openid"], timeout=20)
    req = result["request"]
    assert req.redirect_uri == LOOPBACK
    location = tk.oauth._drive(req, "minji@sandbox.test", "sandbox", False, True, None)  # act as the browser
    page = httpx.get(location, timeout=5)                                             # … following the redirect
    assert page.status_code == 200 and "id='done'" in page.text and "code" not in page.text
    thread.join(15)
    assert not thread.is_alive() and "error" not in result, result.get("error")
    assert result["token"].claims["sub"] == str(MINJI)
    assert tk.user.me()["id"] == MINJI
    assert _port_free(), "the loopback server was not stopped"


def test_loopback_rejects_wrong_state_and_ignores_other_paths(fresh_tk, loopback_port):
    tk = fresh_tk
    thread, result = _in_thread(tk, scopes=["profile"], timeout=20)
    assert httpx.get("http://127.0.0.1:8765/favicon.ico", timeout=5).status_code == 404
    httpx.get(f"{LOOPBACK}?code=forged&state=not-the-state", timeout=5)
    thread.join(15)
    assert isinstance(result.get("error"), RedirectError) and result["error"].error == "state_mismatch"
    assert tk.access_token is None and _port_free()


def test_loopback_redirect_with_error_is_raised(fresh_tk, loopback_port):
    tk = fresh_tk
    thread, result = _in_thread(tk, scopes=["profile"], timeout=20)
    state = result["request"].state
    page = httpx.get(f"{LOOPBACK}?error=access_denied&error_description=User%20denied&state={state}", timeout=5)
    assert "access_denied" in page.text
    thread.join(15)
    assert isinstance(result.get("error"), RedirectError) and result["error"].error == "access_denied"


def test_loopback_times_out_and_frees_the_port(fresh_tk, loopback_port):
    with pytest.raises(ToolkitError, match="within 0.5 s"):
        fresh_tk.oauth.login_in_browser(["profile"], open_browser=False, timeout=0.5, on_request=lambda r: None)
    assert _port_free()


def test_loopback_needs_a_loopback_redirect_uri(fresh_tk):
    with pytest.raises(ParameterError, match="loopback"):
        fresh_tk.oauth.login_in_browser(redirect_uri="https://app.example/callback")
    with pytest.raises(ParameterError, match="loopback"):
        LoopbackServer("https://example.com/callback")
    assert fresh_tk.oauth.loopback_redirect_uri() == LOOPBACK


def test_port_in_use_is_a_clear_error(fresh_tk):
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        s.listen()
        port = s.getsockname()[1]
        with pytest.raises(ToolkitError, match=f"cannot listen on 127.0.0.1:{port}"):
            with LoopbackServer(f"http://localhost:{port}/callback", timeout=1):
                pass


def _outcomes(tk, start):
    return tk.core.attempts_log[start:]


def test_refresh_before_expiry_avoids_the_401_round_trip(fresh_tk):
    tk = fresh_tk
    tk.login("minji@sandbox.test", scopes=["profile", "openid"])
    before = tk.oauth.token
    left = tk.oauth.seconds_left()
    tk.sandbox.advance(left - 30)          # 30 s of the access token remain: less than the 60 s margin
    start = len(tk.core.attempts_log)
    assert tk.user.me()["id"] == MINJI
    log = _outcomes(tk, start)
    assert [label for label, _ in log].count("oauth.refresh") == 1
    assert all(outcome != 401 for _, outcome in log), log
    assert tk.oauth.token.access_token != before.access_token
    assert tk.oauth.seconds_left() > 5 * 3600
    # with plenty of time left, no refresh
    start = len(tk.core.attempts_log)
    tk.user.me()
    assert "oauth.refresh" not in [label for label, _ in _outcomes(tk, start)]


def test_refresh_on_401_still_works_when_the_expiry_is_not_known(fresh_tk):
    from datetime import timedelta

    tk = fresh_tk
    tk.login("minji@sandbox.test", scopes=["profile"])
    tk.oauth.token.expires_at += timedelta(days=1)   # the client believes the token is fresh
    tk.sandbox.advance(hours=7)
    start = len(tk.core.attempts_log)
    assert tk.user.me()["id"] == MINJI
    log = _outcomes(tk, start)
    assert (("user.me", 401) in log) and [label for label, _ in log].count("oauth.refresh") == 1


def test_every_area_refreshes_the_login_token_before_expiry_and_after_a_401(fresh_tk):
    """Not only the user area: a messenger call made with an expiring or revoked token is rescued too."""
    tk = fresh_tk
    tk.login("minji@sandbox.test", scopes=["profile", "friends"])
    first = tk.access_token
    tk.sandbox.advance(seconds=6 * 3600 - 30)            # 30 s left: the friends call refreshes first
    tk.core.attempts_log.clear()
    assert len(tk.talk.friends(limit=3)) == 3
    outcomes = [o for _, o in tk.core.attempts_log]
    assert 401 not in outcomes and tk.access_token != first
    assert [label for label, _ in tk.core.attempts_log].count("oauth.refresh") == 1

    second = tk.access_token
    identity = tk.sandbox.server.sandbox.model("identity")
    # the service ends the access token early (the client still believes it has hours left)
    identity.store.execute("UPDATE tokens SET expires_at = 0 WHERE access_token = ?", second.reveal())
    tk.core.attempts_log.clear()
    assert len(tk.talk.friends(limit=2)) == 2             # 401 → one refresh → the same call again
    outcomes = [o for _, o in tk.core.attempts_log]
    assert outcomes.count(401) == 1 and tk.access_token != second


def test_the_expiry_check_does_not_cost_a_request_per_call(fresh_tk):
    tk = fresh_tk
    tk.login("minji@sandbox.test", scopes=["profile", "friends"])
    tk.sandbox.clock()                                    # the handle now knows the sandbox time
    tk.core.attempts_log.clear()
    for _ in range(3):
        tk.talk.friends(limit=2)
    labels = [label for label, _ in tk.core.attempts_log]
    assert labels == ["talk.friends"] * 3
