from __future__ import annotations

import html
import re
from urllib.parse import parse_qs, urlencode, urlsplit

import httpx
import pytest


class BizBrowser:
    """Raw HTTP through the business consent pages (protocol-level tests)."""

    def __init__(self, server):
        self.server = server
        self.app = server.app_config()
        self.auth = server.hosts()["auth"]
        self.api = server.hosts()["api"]
        self.http = httpx.Client(follow_redirects=False, timeout=10)

    def authorize(self, pairs=None, **params):
        q = {"client_id": self.app["rest_api_key"], "redirect_uri": self.app["redirect_uris"][0],
             "response_type": "code", "state": "st-1", **params}
        items = [(k, v) for k, v in q.items() if v is not None] + list(pairs or [])
        return self.http.get(f"{self.auth}/oauth/business/authorize?{urlencode(items)}")

    @staticmethod
    def q(page) -> str:
        return html.unescape(re.search(r"name='q' value='([^']*)'", page.text).group(1))

    def login(self, page, email="minji@sandbox.test", password="sandbox"):
        return self.http.post(f"{self.auth}/oauth/business/login",
                              data={"q": self.q(page), "email": email, "password": password})

    @staticmethod
    def offered(page) -> list[str]:
        return re.findall(r"name='resource' value='([^']+)'", page.text)

    @staticmethod
    def fixed(page) -> list[str]:
        return re.findall(r"data-asset='([^']+)'", page.text)

    def consent(self, page, action="agree", resources=None):
        account = re.search(r"name='account' value='(\d+)'", page.text).group(1)
        data = {"q": self.q(page), "account": account, "action": action,
                "resource": self.offered(page) if resources is None else resources}
        return self.http.post(f"{self.auth}/oauth/business/consent", data=data)

    @staticmethod
    def redirect_query(r) -> dict:
        assert r.status_code == 302, r.text[:300]
        return {k: v[0] for k, v in parse_qs(urlsplit(r.headers["location"]).query).items()}

    def code_for(self, scope, pairs=None, email="minji@sandbox.test", **params) -> str:
        r = self.authorize(pairs, scope=scope, **params)
        if "id='login'" in r.text:
            r = self.login(r, email)
        assert "id='biz-consent'" in r.text, r.text[:300]
        return self.redirect_query(self.consent(r))["code"]

    def token(self, code, secret=True, redirect_uri=None, **extra):
        data = {"grant_type": "authorization_code", "client_id": self.app["rest_api_key"],
                "redirect_uri": redirect_uri or self.app["redirect_uris"][0], "code": code, **extra}
        if secret and "client_secret" not in extra:
            data["client_secret"] = self.app["client_secret"]
        return self.http.post(f"{self.auth}/oauth/business/token", data=data)

    def api_get(self, path, token):
        return self.http.get(f"{self.api}{path}", headers={"Authorization": f"Bearer {token}"})

    def api_post(self, path, token):
        return self.http.post(f"{self.api}{path}", headers={"Authorization": f"Bearer {token}"})

    def control(self, method, path, **kw):
        r = self.http.request(method, f"{self.server.base_url}{path}", **kw)
        r.raise_for_status()
        return r.json()

    def close(self):
        self.http.close()


@pytest.fixture
def biz(fresh_server):
    b = BizBrowser(fresh_server)
    yield b
    b.close()
