"""A tiny headless browser for the sandbox's login and consent pages (raw HTTP, for protocol-level tests)."""
from __future__ import annotations

import base64
import hashlib
import html
import re
from urllib.parse import parse_qs, urlencode, urlsplit

import httpx


def s256(verifier: str) -> str:
    return base64.urlsafe_b64encode(hashlib.sha256(verifier.encode()).digest()).rstrip(b"=").decode()


class Browser:
    def __init__(self, server):
        self.server = server
        self.app = server.app_config()
        self.auth = server.hosts()["auth"]
        self.api = server.hosts()["api"]
        self.http = httpx.Client(follow_redirects=False, timeout=10)

    def authorize(self, **params):
        q = {"client_id": self.app["rest_api_key"], "redirect_uri": self.app["redirect_uris"][0],
             "response_type": "code", **params}
        q = {k: v for k, v in q.items() if v is not None}
        return self.http.get(f"{self.auth}/oauth/authorize?{urlencode(q)}")

    @staticmethod
    def q(page: httpx.Response) -> str:
        return html.unescape(re.search(r"name='q' value='([^']*)'", page.text).group(1))

    def login(self, page, email="minji@sandbox.test", password="sandbox", stay=False):
        data = {"q": self.q(page), "email": email, "password": password}
        if stay:
            data["stay_logged_in"] = "true"
        return self.http.post(f"{self.auth}/oauth/login", data=data)

    def consent(self, page, action="agree", scopes=None):
        account = re.search(r"name='account' value='(\d+)'", page.text).group(1)
        offered = re.findall(r"type='checkbox' name='scope' value='([^']+)'", page.text)
        terms = re.findall(r"type='checkbox' name='term' value='([^']+)'", page.text)
        data = {"q": self.q(page), "account": account, "action": action,
                "scope": offered if scopes is None else scopes, "term": terms}
        return self.http.post(f"{self.auth}/oauth/consent", data=data)

    def code_for(self, email="minji@sandbox.test", **params) -> tuple[str, dict]:
        """Run the pages to the redirect; return (code, redirect query)."""
        r = self.authorize(**params)
        for _ in range(4):
            if r.status_code == 302:
                query = {k: v[0] for k, v in parse_qs(urlsplit(r.headers["location"]).query).items()}
                return query.get("code"), query
            if "id='login'" in r.text:
                r = self.login(r, email)
            elif "id='consent'" in r.text:
                r = self.consent(r)
            else:
                raise AssertionError(r.text[:300])
        raise AssertionError("no redirect")

    def token(self, code, verifier=None, redirect_uri=None, secret=True, **extra):
        data = {"grant_type": "authorization_code", "client_id": self.app["rest_api_key"],
                "redirect_uri": redirect_uri or self.app["redirect_uris"][0], "code": code, **extra}
        if secret and "client_secret" not in extra:
            data["client_secret"] = self.app["client_secret"]
        if verifier:
            data["code_verifier"] = verifier
        return self.http.post(f"{self.auth}/oauth/token", data=data)

    def control(self, method, path, **kw):
        r = self.http.request(method, f"{self.server.base_url}{path}", **kw)
        r.raise_for_status()
        return r.json()

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()

    def close(self):
        self.http.close()
