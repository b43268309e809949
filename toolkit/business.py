"""Business authorization (identity §4.16–4.20): business consent, business token, token information.

>>> tk = toolkit.connect()                                                      # doctest: +SKIP
>>> tk.business.login("minji@sandbox.test", ["keyword_create", "keyword_manage", "biz_account_email"],
...                   resource_ids=["keyword:*"])                               # sandbox: headless
>>> tk.business.tokeninfo()          # one row per group × granted asset
>>> tk.business.userinfo()           # until 2026-11-30 (EndpointRetiredError afterwards)
>>> tk.business.revoke()

Against the real service: ``req = tk.business.authorize_url([...])``, open ``req.url`` in a browser, then
``tk.business.complete(req, "<the URL you were redirected to>")``.

The business consent screen appears on every request, so every :meth:`BusinessArea.login` shows it and yields a
new business token; keep the one you have instead of issuing tokens repeatedly. The business token is kept as a
:class:`~toolkit.secrets.Secret` on this area (``tk.business.token``), apart from the user's access token.

Client-side checks (before any request): ``scopes`` not empty, ``biz_account_email`` not alone,
``keyword_create``/``moment_create`` only with ``resource_ids`` ``<group>:*``, every ``resource_ids`` value of
the form ``ScopeGroup:ResourceId``. Business consent ids are not checked against a list (the spec does not
publish the full catalogue).
"""
from __future__ import annotations

import html
import re
import secrets
from dataclasses import dataclass, field
from typing import Any, Iterable
from urllib.parse import urlencode

import pandas as pd

from .area import WRAPPED, Area, Call, endpoint
from .errors import ApiError, ParameterError, ToolkitError
from .http import NO_AUTH, Bearer
from .secrets import Secret

__all__ = ["BusinessArea", "BizToken", "BizAuthRequest", "EndpointRetiredError", "AGREEMENT_COLUMNS",
           "CREATE_SCOPES", "USERINFO_ENDS"]

CREATE_SCOPES = {"keyword_create": "keyword", "moment_create": "moment"}
USERINFO_ENDS = "2026-11-30"
AGREEMENT_COLUMNS = ["group", "scope", "resource_type", "resource_id", "all_assets", "token_id", "token_user_id",
                     "status", "updated_at"]
_RESOURCE_FIELDS = (("ad_account_ids", "ad_account"), ("channel_public_ids", "channel"))


class EndpointRetiredError(ApiError):
    """The service no longer serves the endpoint (``GET /v1/business/userinfo`` ended on 2026-11-30)."""


def _scopes(scopes) -> list[str]:
    if scopes is None:
        raise ParameterError("scopes", "give at least one business consent id")
    items = [scopes] if isinstance(scopes, str) else list(scopes)
    items = list(dict.fromkeys(p.strip() for item in items for p in str(item).split(",") if p.strip()))
    if not items:
        raise ParameterError("scopes", "give at least one business consent id")
    return items


def check_request(scopes, resource_ids=None) -> tuple[list[str], list[str]]:
    """The scope rules of §4.16, checked client-side; returns (scopes, resource_ids) normalised."""
    items = _scopes(scopes)
    if set(items) == {"biz_account_email"}:
        raise ParameterError("scopes", "biz_account_email cannot be requested alone", items)
    resources = [] if resource_ids is None else ([resource_ids] if isinstance(resource_ids, str)
                                                 else [str(r) for r in resource_ids])
    for value in resources:
        grp, sep, rid = value.partition(":")
        if not sep or not grp.strip() or not rid.strip():
            raise ParameterError("resource_ids", "each value must be ScopeGroup:ResourceId (ResourceId * = all "
                                                 "assets of the group)", value)
    for scope, grp in CREATE_SCOPES.items():
        if scope in items and f"{grp}:*" not in resources:
            raise ParameterError("resource_ids", f"{scope} requires {grp}:* (all ad accounts of the group)",
                                 resources)
    return items, resources


@dataclass(repr=False)
class BizAuthRequest:
    """One business authorization request: the URL to open and what the return must match."""

    url: str
    redirect_uri: str
    state: str
    scopes: list[str]
    resource_ids: list[str]

    def __repr__(self):
        return f"BizAuthRequest(scopes={self.scopes!r}, resource_ids={self.resource_ids!r}, state=…)"


@dataclass(repr=False)
class BizToken:
    """A business token (``access_token`` a Secret) and the business consent ids it carries."""

    access_token: Secret
    scopes: list[str] = field(default_factory=list)
    token_type: str = "bearer"

    def __repr__(self):
        return f"BizToken(access_token={self.access_token!r}, scopes={self.scopes!r})"


class BusinessArea(Area):
    """``{auth_url}/oauth/business/...`` and ``{api_url}/v1/business/...``."""

    def __init__(self, client):
        super().__init__(client)
        self.token: BizToken | None = None
        self._browser = None
        self._browser_user: str | None = None

    # ------------------------------------------------------------------ helpers
    def _client_id(self) -> str:
        return self.credentials.need("rest_api_key").reveal()

    def _redirect_uri(self, redirect_uri: str | None) -> str:
        uri = redirect_uri or self.client.credentials.redirect_uri
        if not uri:
            raise ParameterError("redirect_uri", "give a redirect URI registered for the app (or configure one)")
        return uri

    def _auth(self, token) -> Bearer:
        if token is not None:
            return Bearer(Secret(token.access_token if isinstance(token, BizToken) else token))
        if self.token is None:
            raise ToolkitError("no business token: run tk.business.login(...) (sandbox) or authorize_url/complete, "
                               "or pass token=")
        return Bearer(self.token.access_token)

    # ------------------------------------------------------------------ authorize
    def authorize_url(self, scopes, resource_ids=None, state: str | None = None, *,
                      redirect_uri: str | None = None) -> BizAuthRequest:
        """Build ``GET {auth_url}/oauth/business/authorize`` (``resource_ids`` repeated) with a fresh ``state``.

        Spec: identity §4.16 business authorization.

        >>> req = tk.business.authorize_url(["keyword_manage"]); req.url   # doctest: +SKIP
        """
        items, resources = check_request(scopes, resource_ids)
        uri = self._redirect_uri(redirect_uri)
        req_state = state or secrets.token_urlsafe(16)
        pairs = [("client_id", self._client_id()), ("response_type", "code"), ("redirect_uri", uri),
                 ("scope", ",".join(items)), ("state", req_state)] + [("resource_ids", r) for r in resources]
        return BizAuthRequest(f"{self.client.hosts.auth}/oauth/business/authorize?{urlencode(pairs)}", uri,
                              req_state, items, resources)

    # ------------------------------------------------------------------ token
    @endpoint("POST", "auth", "/oauth/business/token")
    def exchange_code(self, code: str, *, redirect_uri: str | None = None, use: bool = True):
        """``POST /oauth/business/token``: a :class:`BizToken` (kept as :attr:`token` unless ``use=False``).
        A code yields one business token only.

        Spec: identity §4.17 business token.

        >>> tk.business.exchange_code(code)   # doctest: +SKIP
        """
        if not code:
            raise ParameterError("code", "the business authorization code is required")
        data = {"grant_type": "authorization_code", "client_id": self._client_id(),
                "redirect_uri": self._redirect_uri(redirect_uri), "code": Secret(code),
                "client_secret": self.client.credentials.client_secret}

        def parse(body, response):
            tok = BizToken(Secret(body["access_token"]), (body.get("scope") or "").split(), body.get("token_type",
                                                                                                      "bearer"))
            if use:
                self.token = tok
            return tok
        return Call("POST", "auth", "/oauth/business/token", NO_AUTH, data=data, parse=parse,
                    name="business.exchange_code")

    def complete(self, request: BizAuthRequest, redirect_url: str, *, use: bool = True) -> BizToken:
        """Finish a business authorization from the URL the browser was redirected to (``state`` checked).

        Spec: identity §4.16 business authorization and §4.17 business token.

        >>> tk.business.complete(req, redirect_url)   # doctest: +SKIP
        """
        from .authpages import code_from_redirect

        return self.exchange_code(code_from_redirect(redirect_url, request.state), redirect_uri=request.redirect_uri,
                                  use=use)

    def login(self, email: str | None = None, scopes=None, *, password: str = "sandbox", user_id: int | None = None,
              resource_ids=None, select: Iterable[str] | None = None, agree: bool = True,
              redirect_uri: str | None = None, use: bool = True) -> BizToken:
        """Sandbox only: run the business consent flow headless and exchange the code.

        Fills the login form when the browser has no account session (the session of ``tk.oauth.login`` is
        reused when there is one), then the business consent screen. ``select`` lists the ``group:id`` assets to
        keep where the user chooses (default: all offered); ``agree=False`` presses Cancel (``access_denied``).

        Spec: identity §4.16 business authorization and §4.17 business token (headless in the sandbox).

        >>> tk.business.login("seoyeon@sandbox.test", ["keyword_manage", "keyword_report"])   # doctest: +SKIP
        """
        if self.client.sandbox is None:
            raise ToolkitError("headless business login exists only in the sandbox: open "
                               "tk.business.authorize_url(...).url in a browser and pass the redirect URL to "
                               "tk.business.complete(...)")
        if email is None and user_id is None:
            raise ParameterError("email", "give the e-mail (or user_id) of a demo user")
        if email is None:
            email = self.client.sandbox.demo_email(user_id)
        req = self.authorize_url(scopes, resource_ids, redirect_uri=redirect_uri)
        url = self._drive(req, email, password, agree, select)
        return self.complete(req, url, use=use)

    def _browser_client(self, email: str):
        oauth = self.client._areas.get("oauth")
        shared = getattr(oauth, "_browser", None)
        if shared is not None and not shared.is_closed and getattr(oauth, "_browser_user", None) == email.lower():
            return shared  # the same browser as tk.oauth.login, logged in as this user: its session is reused
        if self._browser is not None and (self._browser_user != email.lower() or self._browser.is_closed):
            self._browser.close()  # another user: a new session
            self._browser = None
        self._browser_user = email.lower()
        if self._browser is None:
            import httpx

            from .http import LOOPBACK_DIRECT

            self._browser = self.client.core.own(httpx.Client(follow_redirects=False, mounts=LOOPBACK_DIRECT,
                                                              timeout=self.client.config.timeout))
        return self._browser

    def _drive(self, req: BizAuthRequest, email: str, password: str, agree: bool, select) -> str:
        from .authpages import drive_pages

        b = self._browser_client(email)
        base = self.client.hosts.auth + "/oauth/business/"

        def on_page(text: str, q: str):
            if "id='biz-consent'" not in text:
                return None
            found = re.search(r"name='account' value='(\d+)'", text)
            if found is None:
                raise ToolkitError("the sandbox's business consent page names no account to consent for")
            account = found.group(1)
            offered = [html.unescape(v) for v in re.findall(r"name='resource' value='([^']+)'", text)]
            keep = set(select) if select is not None else None
            data = {"q": q, "account": account, "action": "agree" if agree else "cancel",
                    "resource": [v for v in offered if keep is None or v in keep]}
            return b.post(base + "consent", data=data)

        return drive_pages(b, req.url, req.redirect_uri, login_url=base + "login",
                           login={"email": email, "password": password}, on_page=on_page, steps=4,
                           what="the business authorization flow")

    # ------------------------------------------------------------------ API host
    @endpoint("GET", "api", "/v1/business/tokeninfo")
    def tokeninfo(self, *, token=None, raw: bool = False):
        """``GET /v1/business/tokeninfo``: a DataFrame with one row per group × granted asset (``resource_id``
        ``*`` with ``all_assets`` True for a ``ScopeGroup:*`` grant; one row with no asset for groups without
        assets or with none granted). ``scope`` holds the group's consent ids (a list); token ``id``,
        ``status`` and ``updated_at`` are repeated on every row and kept in ``df.attrs["meta"]``. ``raw=True``:
        the JSON answer.

        Spec: identity §4.18 business token information.

        >>> tk.business.tokeninfo()   # doctest: +SKIP
        """
        def parse(body, response):
            return body if raw else agreements_frame(body)
        return Call("GET", "api", "/v1/business/tokeninfo", self._auth(token), parse=parse, name="business.tokeninfo")

    @endpoint("GET", "api", "/v1/business/userinfo")
    def userinfo(self, *, token=None):
        """``GET /v1/business/userinfo``: ``{token_user_id, email?, email_verified?}``. The endpoint ends on
        2026-11-30; afterwards the service answers 404 and this raises :class:`EndpointRetiredError`.

        Spec: identity §4.19 business user information.

        >>> tk.business.userinfo()   # doctest: +SKIP
        """
        auth = self._auth(token)
        try:
            return (yield Call("GET", "api", "/v1/business/userinfo", auth, name="business.userinfo"))
        except ApiError as exc:
            if exc.status in (404, 410):
                raise EndpointRetiredError(exc.code, f"GET /v1/business/userinfo is no longer served (support ended "
                                                     f"on {USERINFO_ENDS}): the business e-mail consent no longer "
                                                     f"yields an e-mail. Service said: {exc.msg}", exc.status,
                                           exc.endpoint, exc.body, exc.headers) from None
            raise

    @endpoint("POST", "api", "/v1/business/revoke")
    def revoke(self, *, token=None):
        """``POST /v1/business/revoke``: ``{id, token_user_id}``; the token is invalid afterwards (and forgotten
        here when it was :attr:`token`).

        Spec: identity §4.20 business token revocation.

        >>> tk.business.revoke()   # doctest: +SKIP
        """
        auth = self._auth(token)

        def parse(body, response):
            if self.token is not None and auth.token == self.token.access_token:
                self.token = None
            return body
        return Call("POST", "api", "/v1/business/revoke", auth, parse=parse, name="business.revoke")

    def forget_browser(self) -> None:
        """Drop this area's own headless browser (not the one shared with ``tk.oauth``).

        Spec: identity §4.16 business authorization (the headless browser's session).

        >>> tk.business.forget_browser()   # doctest: +SKIP
        """
        if self._browser is not None:
            self._browser.close()
            self._browser = None

    def __repr__(self):
        return f"<BusinessArea token={'set' if self.token is not None else 'none'}>"


def agreements_frame(body: dict) -> pd.DataFrame:
    """Business token information → one row per group × granted asset (columns :data:`AGREEMENT_COLUMNS`)."""
    from .frames import frame

    rows = []
    for ag in body.get("biz_agreements") or []:
        base = {"group": ag.get("group"), "scope": list(ag.get("scope") or [])}
        assets: list[tuple[str | None, Any]] = [(kind, rid) for key, kind in _RESOURCE_FIELDS
                                                for rid in (ag.get(key) or [])]
        for kind, rid in assets or [(None, None)]:
            rows.append({**base, "resource_type": kind, "resource_id": rid, "all_assets": rid == "*"})
    meta = {k: body.get(k) for k in ("id", "token_user_id", "status", "updated_at")}
    for r in rows:
        r.update(token_id=meta["id"], token_user_id=meta["token_user_id"], status=meta["status"],
                 updated_at=meta["updated_at"])
    return frame(rows, columns=AGREEMENT_COLUMNS, datetimes=["updated_at"], bools=["all_assets"], meta=meta)


# The authorize endpoint is answered by the user's browser: the client builds its URL.
WRAPPED.setdefault(("GET", "auth", "/oauth/business/authorize"), []).append(
    "toolkit.business.BusinessArea.authorize_url")
