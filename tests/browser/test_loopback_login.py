"""tk.oauth.login_in_browser in a real browser: chromium logs in on the sandbox's pages and is redirected to the
client's one-shot loopback server (http://localhost:8765/callback), which the client is waiting on in a thread."""
from __future__ import annotations

import socket
import threading

import pytest


def _port_free(port: int = 8765) -> bool:
    with socket.socket() as s:
        s.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
        try:
            s.bind(("127.0.0.1", port))
        except OSError:
            return False
    return True


def test_login_in_browser_catches_the_redirect_on_loopback(page, fresh_tk):
    if not _port_free():
        pytest.skip("127.0.0.1:8765 (the demo app's loopback redirect URI) is in use by another process")
    tk = fresh_tk
    result, ready = {}, threading.Event()

    def on_request(req):
        result["request"] = req
        ready.set()

    def run():
        try:
            result["token"] = tk.oauth.login_in_browser(["profile", "account_email", "openid"], open_browser=False,
                                                        timeout=30, on_request=on_request)
        except BaseException as exc:  # noqa: BLE001 — reported below
            result["error"] = exc
        finally:
            ready.set()

    thread = threading.Thread(target=run, daemon=True)
    thread.start()
    try:
        assert ready.wait(10) and "request" in result, result.get("error")
        page.goto(result["request"].url)
        page.fill("input[name=email]", "jun@sandbox.test")
        page.fill("input[name=password]", "sandbox")
        page.click("button[value=login]")
        page.wait_for_selector("form#consent")
        page.click("button[value=agree]")
        page.wait_for_selector("#done")                 # the loopback server's page
        assert page.url.startswith("http://localhost:8765/callback?")
        assert "close this tab" in page.inner_text("#done")
    finally:
        thread.join(20)
    assert not thread.is_alive(), "the client did not finish waiting"
    assert "error" not in result, result.get("error")
    token = result["token"]
    assert token.claims["sub"] == "4100000002" and token.claims.get("email") == "jun@sandbox.test"
    assert tk.user.me()["id"] == 4100000002           # the client is logged in as that user
    assert _port_free(), "the loopback server was not stopped"
