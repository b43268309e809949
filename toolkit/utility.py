"""Utility endpoints (location §4.12–4.14): the IP lists and the API status, as DataFrames.

>>> tk = toolkit.connect()                         # doctest: +SKIP
>>> tk.status.current()                             # one row per product, plus one per API issue
>>> tk.status.history(days=14, product="local")     # one row per day × product (× API issue)
>>> tk.status.report()                              # matplotlib figure: heatmap + current summary
>>> tk.system.ips(rule_type="outbound")             # one row per service × CIDR block
"""
from __future__ import annotations

import warnings
from datetime import date, datetime, timedelta
from typing import Iterable

from .area import Area, Call, endpoint
from .errors import ParameterError, closed_set_error, suggest
from .http import NO_AUTH

__all__ = ["StatusArea", "SystemArea", "StatusWarning", "PRODUCTS", "STATUS_ORDER"]

PRODUCTS = ("login", "social", "message", "local", "navi", "channel", "search")
from .frames import STATUS_ORDER  # noqa: E402  (re-exported)

STATUS_COLUMNS = ["productId", "productName", "apiId", "apiName", "status"]


class StatusWarning(UserWarning):
    """The status API ignored product or API ids it does not know (its ``warning`` member)."""


def _ids(value: str | Iterable[str] | None, name: str) -> str | None:
    if value is None:
        return None
    items = [value] if isinstance(value, str) else list(value)
    items = [part.strip() for item in items for part in str(item).split(",") if part.strip()]
    if not items:
        raise ParameterError(name, "give at least one id, or None for all")
    if name == "product":   # a near miss of a known product is a typo; another id goes on (the service warns)
        for item in items:
            if item not in PRODUCTS and suggest(item, PRODUCTS, 0.8) is not None:
                raise closed_set_error(name, item, PRODUCTS, "a product id")
    return ",".join(items)


def _lang(lang: str) -> str:
    if lang not in ("ko", "en"):
        raise ParameterError("lang", "must be 'ko' or 'en'", lang)
    return lang


def _rows(statuses: list[dict]) -> list[dict]:
    """One row per product (apiId empty) and one per API issue of that product."""
    rows = []
    for st in statuses:
        rows.append({"productId": st["productId"], "productName": st.get("productName"), "apiId": None,
                     "apiName": None, "status": st["status"]})
        for issue in st.get("issues") or []:
            rows.append({"productId": st["productId"], "productName": st.get("productName"),
                         "apiId": issue["apiId"], "apiName": issue.get("apiName"), "status": issue["status"]})
    return rows


def _warn(warning: dict | None):
    if warning:
        parts = [f"{k}: {', '.join(v)}" for k, v in warning.items()]
        known = f" (product ids: {', '.join(PRODUCTS)})" if "invalidProduct" in warning else ""
        warnings.warn("the status API ignored " + "; ".join(parts) + known, StatusWarning, stacklevel=4)


def _as_date(value, name: str) -> str | None:
    if value is None:
        return None
    if isinstance(value, datetime):
        value = value.date()
    if isinstance(value, date):
        return value.isoformat()
    try:
        return datetime.strptime(str(value), "%Y-%m-%d").date().isoformat()
    except ValueError:
        raise ParameterError(name, "must be a date (yyyy-MM-dd)", value) from None


class StatusArea(Area):
    """API status: ``GET {status_url}/api/health/current`` and ``/api/health/history`` (no credential)."""

    @endpoint("GET", "status", "/api/health/current")
    def current(self, product=None, api=None, lang: str = "ko", *, raw: bool = False):
        """Current status: one row per product (``apiId`` empty) and one per API with an issue.

        ``status`` is an ordered categorical (UNKNOWN < GREEN < MAINTENANCE < YELLOW < RED);
        ``updatedAt`` (tz-aware UTC) and the raw ``warning`` are in ``df.attrs["meta"]``. Unknown ids raise a
        :class:`StatusWarning` (the service answers 200 and ignores them).

        >>> tk.status.current(product=["navi", "local"], lang="en")     # doctest: +SKIP

        Spec: location §4.13 current API status.
        """
        params = {"product": _ids(product, "product"), "api": _ids(api, "api"), "lang": _lang(lang)}

        def parse(body, response):
            if raw:
                return body
            from .frames import frame, to_utc

            _warn(body.get("warning"))
            df = frame(_rows(body.get("statuses", [])), columns=STATUS_COLUMNS,
                       categories={"status": STATUS_ORDER},
                       meta={"updatedAt": to_utc(body.get("updatedAt")), "warning": body.get("warning")})
            df["updatedAt"] = df.attrs["meta"]["updatedAt"]
            return df

        return Call("GET", "status", "/api/health/current", NO_AUTH, params=params, parse=parse,
                    name="status.current")

    @endpoint("GET", "status", "/api/health/history")
    def history(self, start=None, end=None, *, days: int | None = None, product=None, api=None, lang: str = "ko",
                raw: bool = False):
        """Daily status: one row per day × product, plus one per API with an issue that day.

        ``start``/``end`` are dates (``yyyy-MM-dd``, ``date`` or ``datetime``); ``days=N`` asks for the last N days
        instead (the service keeps at most 30 days before today). ``date`` is a tz-aware UTC datetime.

        >>> tk.status.history(days=7, product="navi")               # doctest: +SKIP

        Spec: location §4.14 API status history.
        """
        if days is not None:
            if start is not None:
                raise ParameterError("days", "give either days or start, not both", days)
            if not isinstance(days, int) or not 1 <= days <= 31:
                raise ParameterError("days", "must be 1 to 31 (the service keeps 30 days before today)", days)
        params = {"start": _as_date(start, "start"), "end": _as_date(end, "end"), "product": _ids(product, "product"),
                  "api": _ids(api, "api"), "lang": _lang(lang)}

        def parse(body, response):
            if raw:
                return body
            import json

            from .frames import frame

            warning = response.headers.get("x-status-warning")
            warning = json.loads(warning) if warning else None
            _warn(warning)
            rows = [dict(row, date=entry["date"]) for entry in body for row in _rows(entry["statuses"])]
            df = frame(rows, columns=["date", *STATUS_COLUMNS], categories={"status": STATUS_ORDER},
                       datetimes=["date"], meta={"warning": warning})
            if days is not None and len(df):
                df = df[df["date"] > df["date"].max() - timedelta(days=days)].reset_index(drop=True)
            return df

        return Call("GET", "status", "/api/health/history", NO_AUTH, params=params, parse=parse,
                    name="status.history")

    def report(self, days: int = 30, *, by: str = "product", product=None, lang: str = "en"):
        """A matplotlib figure: a status heatmap (products or APIs × days) and the current status summary.

        Synchronous clients only (it makes two calls and draws).

        >>> fig = tk.status.report(days=14)                          # doctest: +SKIP

        Spec: location §4.14 API status history (a summary of it).
        """
        if self._client._async:
            raise TypeError("report() draws a figure: use a synchronous client (toolkit.connect())")
        from .plots import status_report

        return status_report(self.current(product=product, lang=lang),
                             self.history(days=days, product=product, lang=lang), by=by)


    def weekly(self, days: int = 7, *, week: str | None = None, product=None, lang: str = "en", incidents=None):
        """A status update over whole days (location §4.13–4.14): availability per product and API **as time**
        (minutes up ÷ minutes counted, see :data:`toolkit.reports.UPTIME_DEFINITION`), the day counts
        (``days``), the non-GREEN days, a paragraph that names products and APIs, a figure and
        :meth:`~toolkit.reports.StatusReport.export` to CSV, Excel and PNG. Synchronous clients only.

        The window: the last ``days`` whole UTC days before today (today's partial day is left out), or with
        ``week="KST"`` the last whole Monday–Sunday week in Seoul (KST, UTC+9). The report has one time zone, named
        in its paragraph, tables, sheets and figure: a KST report's days are KST days (worked out from the
        incidents), with no day outside its week. The incidents' start and end come from the sandbox
        (``tk.sandbox.incidents()``); on the real service, which reports UTC days only, pass your incident log as
        ``incidents=`` (``api``, ``status``, ``start``, ``end``), else availability is the day counts
        (``days_up_pct``, UTC days) and ``week="KST"`` is refused.

        >>> weekly = tk.status.weekly()                # doctest: +SKIP
        >>> print(weekly.text); weekly.export("reports")   # doctest: +SKIP
        >>> tk.status.weekly(week="KST").window        # doctest: +SKIP
        'the week Monday 2026-11-09 to Sunday 2026-11-15 (KST)'
        """
        if self._client._async:
            raise TypeError("weekly() builds a report: use a synchronous client (toolkit.connect())")
        if week not in (None, "KST"):
            raise ParameterError("week", "must be None (the last whole UTC days) or 'KST' (Monday-Sunday in Seoul)",
                                 week)
        if week is None and (isinstance(days, bool) or not isinstance(days, int) or not 1 <= days <= 30):
            raise ParameterError("days", "must be 1 to 30 whole days (the service keeps 30 days before today)", days)
        import pandas as pd

        from .reports import status_weekly

        current = self.current(product=product, lang=lang)
        now = current.attrs["meta"].get("updatedAt") if len(current) else None
        now = pd.Timestamp.now(tz="UTC") if now is None or pd.isna(now) else pd.Timestamp(now).tz_convert("UTC")
        if week == "KST":
            kst = (now + pd.Timedelta(hours=9)).tz_localize(None)
            monday = kst.normalize() - pd.Timedelta(days=kst.weekday())
            end = (monday - pd.Timedelta(hours=9)).tz_localize("UTC")
            start = end - pd.Timedelta(days=7)
            window = (f"the week Monday {monday - pd.Timedelta(days=7):%Y-%m-%d} to Sunday "
                      f"{monday - pd.Timedelta(days=1):%Y-%m-%d} (KST)")
        else:
            end = now.normalize()
            start = end - pd.Timedelta(days=days)
            last = end - pd.Timedelta(days=1)
            window = (f"{start:%Y-%m-%d} to {last:%Y-%m-%d} ({days} whole UTC day{'s' if days > 1 else ''})")
        history = self.history(start=start.date(), end=(end - pd.Timedelta(seconds=1)).date(), product=product,
                               lang=lang)
        if incidents is None:
            sandbox = getattr(self._client, "sandbox", None)
            incidents = sandbox.incidents() if sandbox is not None and hasattr(sandbox, "incidents") else None
        if incidents is None and week == "KST":
            raise ParameterError("week", "'KST' needs the incidents' start and end (incidents=your incident log): the "
                                 "status API reports UTC days only, so a KST day cannot be read from it", week)
        return status_weekly(current, history, incidents, start=start, end=end, window=window,
                             tz="Asia/Seoul" if week == "KST" else "UTC")


class SystemArea(Area):
    """``GET {api_url}/v1/system/ips``: the IP lists the service uses (inbound) and serves from (outbound)."""

    @endpoint("GET", "api", "/v1/system/ips")
    def ips(self, rule_type: str | None = None, *, raw: bool = False):
        """One row per service × CIDR block, with ``rule_type``, ``ports`` and the scheduled changes.

        ``kind`` says whether the row is a current block (``current``), a scheduled ``addition`` or a
        scheduled ``exclusion`` (``change_date`` gives its date). ``updatedDate`` is in ``df.attrs["meta"]``.

        >>> tk.system.ips(rule_type="inbound")                        # doctest: +SKIP

        Spec: location §4.12 IP lists.
        """
        if rule_type not in (None, "inbound", "outbound"):
            raise ParameterError("rule_type", "must be 'inbound', 'outbound' or None (both)", rule_type)

        def parse(body, response):
            if raw:
                return body
            from .frames import frame

            rows = []
            for kind in ("inbound", "outbound"):
                for entry in body.get(kind) or []:
                    base = {"rule_type": kind, "service": entry["service"], "ports": list(entry.get("ports", [])),
                            "updatedDate": entry.get("updatedDate")}
                    rows += [dict(base, ip=ip, kind="current", change_date=None) for ip in entry.get("ips", [])]
                    for change in ("addition", "exclusion"):
                        if entry.get(change):
                            rows += [dict(base, ip=ip, kind=change, change_date=entry[change].get("date"))
                                     for ip in entry[change].get("ips", [])]
            df = frame(rows, columns=["rule_type", "service", "ip", "kind", "ports", "change_date", "updatedDate"],
                       datetimes=["change_date", "updatedDate"], objects=["ports"], meta={"updatedDate": body.get("updatedDate")})
            return df

        return Call("GET", "api", "/v1/system/ips", self._client.rest_auth(), params={"rule_type": rule_type},
                    parse=parse, name="system.ips")
