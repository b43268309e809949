"""A person logs in through the sandbox's real pages in chromium; the notebook side finishes the login."""
from __future__ import annotations

from urllib.parse import parse_qs, urlsplit


def test_login_and_consent_in_a_real_browser(page, fresh_tk, tmp_path):
    tk = fresh_tk
    callback = tk.sandbox.base_url + "/sandbox/callback"
    request = tk.oauth.authorize_url(["profile", "friends"], redirect_uri=callback)
    page.goto(request.url)
    page.fill("input[name=email]", "seoyeon@sandbox.test")
    page.fill("input[name=password]", "sandbox")
    page.click("button[value=login]")
    page.wait_for_selector("form#consent")
    assert "friends" in page.content()
    page.screenshot(path=str(tmp_path / "consent.png"))
    page.click("button[value=agree]")
    page.wait_for_selector("#done")
    query = parse_qs(urlsplit(page.url).query)
    assert page.url.startswith(callback) and query["state"] == [request.state] and query["code"]
    token = tk.oauth.complete(request, page.url)
    me = tk.user.me()
    assert me["id"] == 4100000003
    assert token.access_token.reveal() not in repr(token)


def test_cancel_on_the_consent_page_redirects_with_access_denied(page, fresh_tk):
    tk = fresh_tk
    callback = tk.sandbox.base_url + "/sandbox/callback"
    request = tk.oauth.authorize_url(["profile"], redirect_uri=callback)
    page.goto(request.url)
    page.fill("input[name=email]", "bora@sandbox.test")
    page.fill("input[name=password]", "sandbox")
    page.click("button[value=login]")
    page.click("button[value=cancel]")
    page.wait_for_selector("#error")
    assert "access_denied" in page.inner_text("#error")
    assert parse_qs(urlsplit(page.url).query)["state"] == [request.state]


def test_wrong_password_stays_on_the_login_page(page, fresh_tk):
    tk = fresh_tk
    request = tk.oauth.authorize_url(["profile"], redirect_uri=tk.sandbox.base_url + "/sandbox/callback")
    page.goto(request.url)
    page.fill("input[name=email]", "bora@sandbox.test")
    page.fill("input[name=password]", "wrong")
    page.click("button[value=login]")
    page.wait_for_selector("form#login")
    assert "/sandbox/callback" not in page.url
