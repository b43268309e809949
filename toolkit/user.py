"""User endpoints (identity §4.3, 4.5–4.9, 4.13–4.15 and the endpoints the spec only names).

Every 'token or admin key' method takes ``target_id=None``: by default it acts on the logged-in user with
the access token; ``target_id=<service user id>`` uses the admin key for that user instead. With a token from
:meth:`toolkit.oauth.OAuthArea.login`, a token that expires within a minute is refreshed before the call, and a
-401 answer refreshes the token once and retries.

>>> tk.user.scopes()                        # DataFrame: id, display_name, type, using, agreed, revocable
>>> tk.user.revoke_scopes(["account_email"])
>>> tk.user.shipping_addresses(all_pages=True)
>>> tk.user.consent_report([4100000001, 4100000002])   # admin key: users × scopes
"""
from __future__ import annotations

import json
from typing import Any, Callable, Iterable, Literal, Mapping, overload

from .area import Area, Call, endpoint
from .errors import InvalidArgumentError, ParameterError, warn_truncated
from .scopes import check_scopes
from .http import Auth

__all__ = ["UserArea", "SCOPE_COLUMNS", "TERM_COLUMNS", "ADDRESS_COLUMNS"]

SCOPE_COLUMNS = ["id", "display_name", "type", "using", "agreed", "revocable"]
TERM_COLUMNS = ["tag", "required", "agreed", "revocable", "agreed_at", "agreed_by"]
ADDRESS_COLUMNS = ["id", "name", "is_default", "updated_at", "type", "base_address", "detail_address",
                   "receiver_name", "receiver_phone_number1", "receiver_phone_number2", "zone_number", "zip_code"]
MAX_PAGES = 100


@overload
def _ids(value, name: str, *, required: Literal[True]) -> list[str]: ...
@overload
def _ids(value, name: str, *, required: bool = False) -> list[str] | None: ...
def _ids(value, name: str, *, required: bool = False) -> list[str] | None:
    if value is None:
        if required:
            raise ParameterError(name, "give at least one id")
        return None
    items = [value] if isinstance(value, str) else list(value)
    items = [p.strip() for item in items for p in str(item).split(",") if p.strip()]
    if not items:
        raise ParameterError(name, "give at least one id")
    return items


class UserArea(Area):
    """``{api_url}/v1/user/...``, ``/v2/user/...`` and ``/v1/oidc/userinfo``."""

    # ------------------------------------------------------------------ token-or-admin plumbing
    def _flow(self, target_id, make: Callable[[Auth], Call]):
        """Run ``make(auth)`` with the login token, or the admin key for ``target_id`` (the client refreshes the
        login token before expiry and once on -401, for every area)."""
        return (yield make(self.client.user_auth(target_id)))

    # ------------------------------------------------------------------ profile
    @endpoint("GET", "api", "/v2/user/me")
    def me(self, *, target_id: int | None = None, property_keys: Iterable[str] | None = None):
        """``GET /v2/user/me``: the user's id, ``connected_at``, properties and account data (by consent).

        Spec: identity §4.14 user management (retrieve user information).

        >>> tk.user.me(target_id=4100000001)   # doctest: +SKIP
        """
        params = {"property_keys": list(property_keys) if property_keys is not None else None}
        return (yield from self._flow(target_id, lambda a: Call("GET", "api", "/v2/user/me", a, params=params,
                                                                name="user.me")))

    @endpoint("GET", "api", "/v1/oidc/userinfo")
    def userinfo(self, *, frame: bool = False):
        """``GET /v1/oidc/userinfo`` (access token only): OpenID Connect claims; ``frame=True`` → one-row DataFrame.

        Spec: identity §4.13 OpenID Connect user information.

        >>> tk.user.userinfo()["sub"]   # doctest: +SKIP
        """
        def parse(body, response):
            if not frame:
                return body
            from .frames import frame as _frame

            return _frame([body], bools=[c for c in ("email_verified", "phone_number_verified") if c in body])
        return (yield from self._flow(None, lambda a: Call("GET", "api", "/v1/oidc/userinfo", a, parse=parse,
                                                           name="user.userinfo")))

    @endpoint("GET", "api", "/v1/user/access_token_info")
    def access_token_info(self):
        """``GET /v1/user/access_token_info``: ``{id, expires_in, app_id}`` of the current access token.

        Spec: identity §4.14 user management (access token information).

        >>> tk.user.access_token_info()   # doctest: +SKIP
        """
        return (yield from self._flow(None, lambda a: Call("GET", "api", "/v1/user/access_token_info", a,
                                                           name="user.access_token_info")))

    @endpoint("POST", "api", "/v1/user/update_profile")
    def update_profile(self, properties: Mapping[str, Any], *, target_id: int | None = None):
        """``POST /v1/user/update_profile``: store app-specific user properties (string values; None deletes).

        Spec: identity §4.14 user management (store user property).

        >>> tk.user.update_profile({"level": "3"})   # doctest: +SKIP
        """
        if not isinstance(properties, Mapping) or not properties:
            raise ParameterError("properties", "a non-empty dict of property name → string value")
        bad = [k for k, v in properties.items() if not isinstance(k, str) or (v is not None and not isinstance(v, str))]
        if bad:
            raise ParameterError("properties", "keys and values must be strings (None deletes)", bad)
        data = {"properties": json.dumps(dict(properties), ensure_ascii=False)}
        return (yield from self._flow(target_id, lambda a: Call("POST", "api", "/v1/user/update_profile", a,
                                                                data=data, name="user.update_profile")))

    @endpoint("GET", "api", "/v1/user/ids")
    def ids(self, *, limit: int = 100, order: str = "asc", from_id: int | None = None):
        """``GET /v1/user/ids`` (admin key): ids of the users linked to the app, one page.

        Spec: identity §4.14 user management (list users).

        >>> tk.user.ids(limit=10)   # doctest: +SKIP
        """
        if not isinstance(limit, int) or not 1 <= limit <= 100:
            raise ParameterError("limit", "must be 1 to 100", limit)
        if order not in ("asc", "desc"):
            raise ParameterError("order", "must be 'asc' or 'desc'", order)
        return Call("GET", "api", "/v1/user/ids", self.client.admin_auth(),
                    params={"limit": limit, "order": order, "from_id": from_id}, name="user.ids")

    # ------------------------------------------------------------------ link lifecycle
    @endpoint("POST", "api", "/v1/user/signup")
    def signup(self, properties: Mapping[str, str] | None = None, *, target_id: int | None = None):
        """``POST /v1/user/signup``: complete a pending link (apps without auto-link).

        Spec: identity §4.14 sign-up.

        >>> tk.user.signup(target_id=4100000001)   # doctest: +SKIP
        """
        data = {"properties": json.dumps(dict(properties), ensure_ascii=False) if properties else None}
        return (yield from self._flow(target_id, lambda a: Call("POST", "api", "/v1/user/signup", a, data=data,
                                                                name="user.signup")))

    @endpoint("POST", "api", "/v1/user/unlink")
    def unlink(self, *, target_id: int | None = None):
        """``POST /v1/user/unlink``: disconnect the user from the app (consents dropped, tokens revoked).

        Spec: identity §4.14 user management (unlink).

        >>> tk.user.unlink(target_id=4100000001)   # doctest: +SKIP
        """
        return (yield from self._flow(target_id, lambda a: Call("POST", "api", "/v1/user/unlink", a, data={},
                                                                name="user.unlink")))

    @endpoint("POST", "api", "/v1/user/logout")
    def logout(self, *, target_id: int | None = None):
        """``POST /v1/user/logout``: invalidate the user's tokens for the app. Returns ``{id}``.

        Spec: identity §4.3 logout.

        >>> tk.user.logout()   # doctest: +SKIP
        """
        return Call("POST", "api", "/v1/user/logout", self.client.user_auth(target_id), data={}, name="user.logout")

    # ------------------------------------------------------------------ scopes
    @endpoint("GET", "api", "/v2/user/scopes")
    def scopes(self, scopes: Iterable[str] | None = None, *, target_id: int | None = None, raw: bool = False):
        """``GET /v2/user/scopes`` as a DataFrame (one row per scope; ``revocable`` empty when not agreed).

        Spec: identity §4.5 scopes.

        >>> tk.user.scopes(target_id=4100000001)   # doctest: +SKIP
        """
        ids = _ids(scopes, "scopes")
        params = {"scopes": check_scopes(ids) if ids else ids}
        return (yield from self._flow(target_id, lambda a: Call("GET", "api", "/v2/user/scopes", a, params=params,
                                                                parse=self._scopes_parse(raw), name="user.scopes")))

    @staticmethod
    def _scopes_parse(raw: bool):
        def parse(body, response):
            if raw:
                return body
            from .frames import frame

            return frame(body.get("scopes"), columns=SCOPE_COLUMNS, bools=["using", "agreed", "revocable"],
                         meta={"id": body.get("id")})
        return parse

    @endpoint("POST", "api", "/v2/user/revoke/scopes")
    def revoke_scopes(self, scopes: Iterable[str], *, target_id: int | None = None, raw: bool = False):
        """``POST /v2/user/revoke/scopes``: withdraw consent (only revocable scopes; -3 otherwise, -2 unknown).

        Spec: identity §4.6 revoke scopes.

        >>> tk.user.revoke_scopes(["friends"])   # doctest: +SKIP
        """
        ids = check_scopes(_ids(scopes, "scopes", required=True))
        data = {"scopes": ids}
        try:
            return (yield from self._flow(target_id, lambda a: Call("POST", "api", "/v2/user/revoke/scopes", a,
                                                                    data=data, parse=self._scopes_parse(raw),
                                                                    name="user.revoke_scopes")))
        except InvalidArgumentError as exc:   # -2: none matched; say which ids were sent
            raise type(exc)(exc.code, f"{exc.msg}; sent scopes={','.join(ids)!r} (check them against "
                            "tk.user.scopes(): the app's consent items and the user's agreed ones)", exc.status,
                            exc.endpoint, exc.body, exc.headers, exc.auth) from None

    # ------------------------------------------------------------------ service terms
    @endpoint("GET", "api", "/v2/user/service_terms")
    def service_terms(self, *, result: str = "agreed_service_terms", tags: Iterable[str] | None = None,
                      target_id: int | None = None, raw: bool = False):
        """``GET /v2/user/service_terms`` as a DataFrame (``agreed_at`` tz-aware UTC).

        Spec: identity §4.7 service terms.

        >>> tk.user.service_terms(target_id=4100000001)   # doctest: +SKIP
        """
        if result not in ("agreed_service_terms", "app_service_terms"):
            raise ParameterError("result", "must be 'agreed_service_terms' or 'app_service_terms'", result)
        tag_list = _ids(tags, "tags")
        params = {"result": result, "tags": ",".join(tag_list) if tag_list else None}

        def parse(body, response):
            if raw:
                return body
            from .frames import frame

            return frame(body.get("service_terms"), columns=TERM_COLUMNS, bools=["required", "agreed", "revocable"],
                         datetimes=["agreed_at"], meta={"id": body.get("id")})
        return (yield from self._flow(target_id, lambda a: Call("GET", "api", "/v2/user/service_terms", a,
                                                                params=params, parse=parse, name="user.service_terms")))

    @endpoint("POST", "api", "/v2/user/upgrade/service_terms")
    def upgrade_service_terms(self, tags: Iterable[str], *, target_id: int | None = None):
        """``POST /v2/user/upgrade/service_terms``: record consent obtained by the app (``agreed_by`` KAPI).

        Spec: identity §4.9 upgrade service terms.

        >>> tk.user.upgrade_service_terms(["marketing"])   # doctest: +SKIP
        """
        data = {"tags": ",".join(_ids(tags, "tags", required=True))}
        return (yield from self._flow(target_id, lambda a: Call("POST", "api", "/v2/user/upgrade/service_terms", a,
                                                                data=data, name="user.upgrade_service_terms")))

    @endpoint("POST", "api", "/v2/user/revoke/service_terms")
    def revoke_service_terms(self, tags: Iterable[str], *, target_id: int | None = None):
        """``POST /v2/user/revoke/service_terms``: revoke revocable terms; never-agreed tags are omitted.

        Spec: identity §4.8 revoke service terms.

        >>> tk.user.revoke_service_terms(["marketing", "location"])   # doctest: +SKIP
        """
        data = {"tags": ",".join(_ids(tags, "tags", required=True))}
        return (yield from self._flow(target_id, lambda a: Call("POST", "api", "/v2/user/revoke/service_terms", a,
                                                                data=data, name="user.revoke_service_terms")))

    # ------------------------------------------------------------------ shipping addresses
    @endpoint("GET", "api", "/v1/user/shipping_address")
    def shipping_addresses(self, *, address_id: int | None = None, from_updated_at: int | None = None,
                           page_size: int = 10, all_pages: bool = False, max_pages: int = MAX_PAGES,
                           target_id: int | None = None, raw: bool = False):
        """``GET /v1/user/shipping_address`` as a DataFrame (``updated_at`` tz-aware UTC).

        The default address comes first, then newest first. ``all_pages=True`` follows ``from_updated_at`` paging
        (the ``updated_at`` of the last address) until a short page, at most ``max_pages`` requests.
        ``df.attrs["meta"]`` has ``user_id`` and ``shipping_addresses_needs_agreement``.

        Spec: identity §4.15 shipping addresses.

        >>> tk.user.shipping_addresses(target_id=4100000001)   # doctest: +SKIP
        """
        if not isinstance(page_size, int) or page_size < 2:
            raise ParameterError("page_size", "must be an integer of at least 2", page_size)
        if from_updated_at is not None and (not isinstance(from_updated_at, int) or from_updated_at < 0):
            raise ParameterError("from_updated_at", "must be Unix seconds (a non-negative integer)", from_updated_at)
        if not isinstance(max_pages, int) or max_pages < 1:
            raise ParameterError("max_pages", "must be a positive integer", max_pages)
        pages, cursor, more = [], from_updated_at, False
        for _ in range(max_pages if all_pages and address_id is None else 1):
            params = {"address_id": address_id, "from_updated_at": cursor, "page_size": page_size}

            def make(a: Auth, params: Mapping[str, Any] = params) -> Call:
                return Call("GET", "api", "/v1/user/shipping_address", a, params=params,
                            name="user.shipping_addresses")

            body = yield from self._flow(target_id, make)
            pages.append(body)
            items = body.get("shipping_addresses") or []
            more = False
            if len(items) < page_size:
                break
            cursor = items[-1].get("updated_at")
            if not cursor:
                break
            more = True
        if raw:
            return pages if all_pages else pages[0]
        from .frames import frame

        records = [a for p in pages for a in (p.get("shipping_addresses") or [])]
        df = frame(records, columns=ADDRESS_COLUMNS, ints=["id"], bools=["is_default"], unix=["updated_at"],
                   meta={"user_id": pages[0].get("user_id"), "pages": len(pages),
                         "shipping_addresses_needs_agreement": pages[0].get("shipping_addresses_needs_agreement")})
        if all_pages and more:   # the last page was full: the walk stopped at max_pages, not at the end
            warn_truncated(df, "shipping_addresses", len(df), None,
                           f"the walk stopped at max_pages={max_pages} (page_size={page_size}); pass a larger "
                           "max_pages or page_size")
        return df

    # ------------------------------------------------------------------ reporting
    @endpoint
    def consent_report(self, user_ids: Iterable[int] | None = None):
        """Admin key: a DataFrame users × scopes of ``agreed`` (bool), for the given users or every linked user
        (all pages of ``GET /v1/user/ids``; no cap). ``df.attrs["meta"]["agreement_rate"]`` is the share of users
        agreeing per scope and ``["users"]`` the number of users read.

        Spec: identity §4.5 scopes, for many users (ids from identity §4.14 list users).

        >>> report = tk.user.consent_report()           # doctest: +SKIP
        >>> report.mean().sort_values()                 # share of users agreeing, per scope   # doctest: +SKIP
        """
        if user_ids is None:
            user_ids, from_id = [], None
            for _ in range(MAX_PAGES * 100):
                body = yield Call("GET", "api", "/v1/user/ids", self.client.admin_auth(),
                                  params={"limit": 100, "order": "asc", "from_id": from_id}, name="user.ids")
                page = [int(i) for i in body.get("elements", [])]
                user_ids += [i for i in page if i != from_id]
                if not body.get("after_url") or not page:
                    break
                from_id = page[-1]
        rows = {}
        for uid in user_ids:
            body = yield Call("GET", "api", "/v2/user/scopes", self.client.user_auth(int(uid)), name="user.scopes")
            rows[int(uid)] = {s["id"]: bool(s["agreed"]) for s in body.get("scopes", [])}
        import pandas as pd

        df = pd.DataFrame.from_dict(rows, orient="index").fillna(False).astype(bool)
        df.index.name = "user_id"
        df.attrs["meta"] = {"agreement_rate": df.mean().to_dict() if len(df) else {}, "users": len(df)}
        if not len(df):
            import warnings

            from .errors import ToolkitWarning, _user_stacklevel

            sandbox = getattr(self.client, "sandbox", None)
            how = ("on the sandbox, tk.sandbox.replay_consent_history() links nine demo users with a week of "
                   "consents, and tk.sandbox.login(user_id, scopes=[...]) links one" if sandbox is not None else
                   "users appear once they log in to the app and consent")
            hint = f"no user is linked to the app, so there is no consent to report: {how}"
            df.attrs["meta"]["hint"] = hint
            warnings.warn(f"consent_report: {hint}.", ToolkitWarning, stacklevel=_user_stacklevel())
        return df

    @staticmethod
    def plot_consent(report, ax=None):
        """A matplotlib bar chart of the agreement rate per scope of :meth:`consent_report`: agreed ÷ every linked
        user (the report cannot tell who was asked; :func:`toolkit.reports.consent_summary` with the consent log
        can), as its title says; the figure carries a text alternative (:func:`toolkit.plots.alt_text`).

        Spec: identity §4.5 scopes (a chart of a consent report).

        >>> tk.user.plot_consent(tk.user.consent_report())   # doctest: +SKIP
        """
        import matplotlib.pyplot as plt

        from .plots import OKABE_ITO, use_hangul_font, with_alt

        use_hangul_font()

        rates = report.mean().sort_values(ascending=False) if len(report) else report.sum()
        created = ax is None
        if created:
            _, ax = plt.subplots(figsize=(7, 3.6))
        ax.bar(rates.index.astype(str), rates.values * 100, color=OKABE_ITO["sky blue"])
        ax.set_ylabel("users agreeing (% of the linked users)")
        ax.set_ylim(0, 100)
        ax.set_title(f"Consent per scope ({len(report)} users linked): agreed ÷ linked")
        plt.setp(ax.get_xticklabels(), rotation=45, ha="right", rotation_mode="anchor")
        if created:
            ax.figure.tight_layout()
            with_alt(ax.figure, f"Bar chart: consent per scope, the share of the {len(report)} linked users who "
                                "agree (agreed ÷ linked, not ÷ asked): "
                                + "; ".join(f"{scope} {100 * rate:.0f}%" for scope, rate in rates.items()) + ".")
        return ax
