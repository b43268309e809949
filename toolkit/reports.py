"""Reports that ship: tables, a text paragraph, a figure and exported files from the toolkit's frames.

Pure functions of DataFrames (no requests), so they work the same on the sandbox and on the real service.

>>> weekly = tk.status.weekly(days=7)                 # doctest: +SKIP
>>> weekly.availability                               # one row per product (and API): availability % of the time   # doctest: +SKIP
>>> weekly.days                                       # the day counts (a day's worst status): days_up_pct   # doctest: +SKIP
>>> print(weekly.text)                                # a paragraph for the status update   # doctest: +SKIP
>>> weekly.export("reports/")                         # CSV, Excel (with openpyxl) and PNG   # doctest: +SKIP
>>> tk.status.weekly(week="KST")                      # last Monday-Sunday week in Seoul   # doctest: +SKIP

Availability (``availability_pct``) is **time**: minutes up ÷ minutes counted, from the incidents' start and end
(the sandbox's ``tk.sandbox.incidents()``; on the real service pass your incident log as ``incidents=``), over whole
days (today's partial day is left out). The day counts are another measure with another name (``days_up_pct``: days
up ÷ days counted, a day's worst status): no column name means two things in one report.

A report has **one time zone**, named wherever it shows a time: its window, paragraph, every date or time column
(``date_utc``, ``start_kst`` …), every sheet (the ``about`` sheet says it) and its figure. The status API reports
**UTC days** (a Korean day, KST = UTC+9, starts at 15:00 UTC the day before); a KST report (``week="KST"``) counts
KST days from the incidents' start and end, so it shows no day outside its week.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

from .frames import STATUS_ORDER

__all__ = ["StatusReport", "status_availability", "status_incidents", "status_paragraph", "status_weekly",
           "status_uptime", "status_daily", "uptime_paragraph", "incidents_frame", "UPTIME_DEFINITION",
           "AVAILABILITY_DEFINITION", "DAYS_UP_DEFINITION",
           "export_frames", "consent_summary", "consent_trend", "consent_events_frame", "consent_daily",
           "consent_figure", "CONSENT_N"]

#: the status that is fully up; every other status is a non-GREEN day of :func:`status_incidents`
AVAILABLE = ("GREEN",)
#: statuses that count as up in ``days_up_pct``: GREEN, and YELLOW (up but degraded)
UP = ("GREEN", "YELLOW")
#: statuses left out of ``days_up_pct``: planned MAINTENANCE (reported apart from outages) and UNKNOWN (no data)
NOT_COUNTED = ("MAINTENANCE", "UNKNOWN")

#: what ``days_up_pct`` (the day counts' measure) means, printed with the figures (paragraph, report, exported text)
DAYS_UP_DEFINITION = ("Availability by days (days_up_pct) = days up ÷ days counted: GREEN days are up, YELLOW days are "
                      "up but degraded, RED days are outages; planned MAINTENANCE days (and UNKNOWN days, without "
                      "data) are not counted and are reported apart.")
#: the former name of :data:`DAYS_UP_DEFINITION`
AVAILABILITY_DEFINITION = DAYS_UP_DEFINITION


def _subject(history: pd.DataFrame) -> pd.Series:
    """``product`` for product rows, ``product / api`` for API rows."""
    api = history["apiId"].astype("string")
    return history["productId"].astype("string").where(api.isna(), history["productId"].astype("string") + " / " + api)


def status_availability(history: pd.DataFrame) -> pd.DataFrame:
    """One row per product (and one per API that had an issue): days observed, days per status and
    ``days_up_pct`` = days up (GREEN or YELLOW) / days counted (observed, less MAINTENANCE and UNKNOWN) × 100,
    see :data:`DAYS_UP_DEFINITION` (an API's days without an issue count as GREEN, as the status API lists
    only APIs with an issue; a subject with no day counted has NA). Sorted worst first. The days are those of
    ``history["date"]``: the status API's UTC days, or a report's days in its time zone (:func:`status_daily`).
    (``availability_pct`` is the time measure of :func:`status_uptime`: another name for another measure.)

    >>> status_availability(tk.status.history(days=7)).head()      # doctest: +SKIP
    """
    if history.empty:
        return pd.DataFrame(columns=["subject", "name", "productId", "apiId", "days", "GREEN", "MAINTENANCE",
                                     "YELLOW", "RED", "UNKNOWN", "days_up_pct"])
    days = history["date"].nunique()
    rows = []
    products = history[history["apiId"].isna()]
    for pid, grp in products.groupby("productId", sort=False, observed=True):
        counts = grp["status"].astype(str).value_counts()
        rows.append({"subject": str(pid), "productId": pid, "apiId": pd.NA, "days": len(grp), **counts.to_dict()})
    apis = history[history["apiId"].notna()]
    for (pid, aid), grp in apis.groupby(["productId", "apiId"], sort=False, observed=True):
        counts = grp["status"].astype(str).value_counts()
        listed = grp["date"].nunique()
        counts["GREEN"] = counts.get("GREEN", 0) + (days - listed)     # days without an issue are GREEN days
        rows.append({"subject": f"{pid} / {aid}", "productId": pid, "apiId": aid, "days": days, **counts.to_dict()})
    out = pd.DataFrame(rows)
    for status in ("GREEN", "MAINTENANCE", "YELLOW", "RED", "UNKNOWN"):
        out[status] = out[status].fillna(0).astype("int64") if status in out else 0
    counted = out["days"] - out[list(NOT_COUNTED)].sum(axis=1)
    up = out[list(UP)].sum(axis=1)
    out["days_up_pct"] = (100 * up / counted.where(counted > 0)).round(1).astype("Float64")
    out = out.astype({"subject": "string", "productId": "string", "apiId": "string"})
    pnames = history.dropna(subset=["productName"]).drop_duplicates("productId").set_index("productId")[
        "productName"].astype(str) if "productName" in history else pd.Series(dtype=str)
    anames = history.dropna(subset=["apiName"]).drop_duplicates("apiId").set_index("apiId")[
        "apiName"].astype(str) if "apiName" in history else pd.Series(dtype=str)
    out["productName"] = out["productId"].map(pnames).astype("string")
    out["apiName"] = out["apiId"].map(anames).astype("string")
    out["name"] = _display_names(out)
    cols = ["subject", "name", "productId", "apiId", "days", "GREEN", "MAINTENANCE", "YELLOW", "RED", "UNKNOWN",
            "days_up_pct"]
    return out[cols].sort_values(["days_up_pct", "subject"]).reset_index(drop=True)


#: what the time-based ``availability_pct`` means (:func:`status_uptime`), printed with the figures
UPTIME_DEFINITION = ("Availability = minutes up ÷ minutes counted, from the incidents' start and end: a RED period "
                     "is down, a YELLOW period is up but degraded, planned MAINTENANCE is not counted and is "
                     "reported apart. Day counts (a day's worst status) are in the report's days table.")
_RANK = {"GREEN": 0, "MAINTENANCE": 1, "YELLOW": 2, "RED": 3}     # the worst status wins (frames.STATUS_ORDER)


def _when(value) -> pd.Timestamp:
    """A tz-aware UTC timestamp of Unix seconds, a datetime or a text."""
    if isinstance(value, (int, float)) and not isinstance(value, bool):
        return pd.Timestamp(value, unit="s", tz="UTC")
    ts = pd.Timestamp(value)
    return ts.tz_localize("UTC") if ts.tzinfo is None else ts.tz_convert("UTC")


def incidents_frame(incidents) -> pd.DataFrame:
    """Incidents (``tk.sandbox.incidents()``: dicts with ``api``, ``status``, ``start``, ``end`` in Unix seconds;
    or a frame of those columns, times as datetimes too) as a frame with tz-aware UTC ``start``/``end``.

    >>> incidents_frame([{"api": "local_search_keyword", "status": "RED", "start": 0, "end": 7200}])["end"][0]
    Timestamp('1970-01-01 02:00:00+0000', tz='UTC')
    """
    records = incidents.to_dict("records") if isinstance(incidents, pd.DataFrame) else list(incidents or [])
    rows = []
    for r in records:
        missing = [k for k in ("api", "status", "start", "end") if k not in r]
        if missing:
            from .errors import ParameterError

            raise ParameterError("incidents", f"each incident needs api, status, start and end (missing "
                                 f"{', '.join(missing)})", r)
        rows.append({"api": str(r["api"]), "status": str(r["status"]), "start": _when(r["start"]),
                     "end": _when(r["end"]), "note": str(r.get("note") or "")})
    out = pd.DataFrame(rows, columns=["api", "status", "start", "end", "note"])
    out["start"] = pd.to_datetime(out["start"], utc=True)
    out["end"] = pd.to_datetime(out["end"], utc=True)
    return out.astype({"api": "string", "status": "string", "note": "string"})


def _minutes_by_status(spans: list[tuple[pd.Timestamp, pd.Timestamp, str]], lo, hi) -> dict[str, float]:
    """Minutes of [lo, hi) per worst status of the overlapping ``spans`` (start, end, status); GREEN the rest."""
    cuts = sorted({lo, hi, *(max(lo, min(hi, t)) for a, b, _ in spans for t in (a, b))})
    out = dict.fromkeys(_RANK, 0.0)
    for a, b in zip(cuts, cuts[1:]):
        worst = max((st for s, e, st in spans if s < b and e > a and st in _RANK), key=lambda st: _RANK[st],
                    default="GREEN")
        out[worst] += (b - a).total_seconds() / 60
    return out


def status_uptime(incidents, start, end, history: pd.DataFrame | None = None) -> pd.DataFrame:
    """Availability as time over ``[start, end)`` (UTC timestamps): one row per product (every product of
    ``history``, the ones without incidents too) and one per API that had an incident in the window, with its
    ``productName``/``apiName`` (from ``history``, the status API's names), ``minutes`` in the window,
    ``maintenance_min`` (not counted), ``counted_min``, ``down_min`` (RED), ``degraded_min`` (YELLOW, counted as
    up) and ``availability_pct`` = (counted − down) ÷ counted × 100, see :data:`UPTIME_DEFINITION`. A product is
    down while any of its APIs is (the status API shows a product as its worst API). Sorted worst first.

    >>> status_uptime(tk.sandbox.incidents(), "2026-11-13", "2026-11-20", tk.status.history(days=8))  # doctest: +SKIP
    """
    lo, hi = _window(start, end)
    spans, product_of, names, products = _spans(incidents, lo, hi, history)
    rows = []

    def row(subject_id, pid, aid, pname, aname, minutes):
        counted = minutes["GREEN"] + minutes["YELLOW"] + minutes["RED"]
        return {"productId": pid, "apiId": aid, "productName": pname, "apiName": aname,
                "minutes": round((hi - lo).total_seconds() / 60), "maintenance_min": round(minutes["MAINTENANCE"]),
                "counted_min": round(counted), "down_min": round(minutes["RED"]),
                "degraded_min": round(minutes["YELLOW"]),
                "availability_pct": round(100 * (counted - minutes["RED"]) / counted, 2) if counted else None}

    for pid in sorted(set(products) | {product_of[a] for a in spans if a in product_of}):
        own = [sp for a, items in spans.items() if product_of.get(a) == pid for sp in items]
        rows.append(row(pid, pid, None, products.get(pid), None, _minutes_by_status(own, lo, hi)))
    for aid in sorted(spans):
        pid = product_of.get(aid)
        rows.append(row(aid, pid, aid, products.get(pid) if pid else None, names.get(aid),
                        _minutes_by_status(spans[aid], lo, hi)))
    cols = ["productId", "apiId", "productName", "apiName", "minutes", "maintenance_min", "counted_min", "down_min",
            "degraded_min", "availability_pct"]
    out = pd.DataFrame(rows, columns=cols)
    out = out.astype({"productId": "string", "apiId": "string", "productName": "string", "apiName": "string",
                      "minutes": "int64", "maintenance_min": "int64", "counted_min": "int64", "down_min": "int64",
                      "degraded_min": "int64", "availability_pct": "Float64"})
    out.insert(0, "name", _display_names(out))
    return out.sort_values(["availability_pct", "name"], na_position="last").reset_index(drop=True)


def _window(start, end) -> tuple[pd.Timestamp, pd.Timestamp]:
    lo, hi = _when(start), _when(end)
    if not hi > lo:
        from .errors import ParameterError

        raise ParameterError("end", "must be after start", end)
    return lo, hi


def _spans(incidents, lo, hi, history):
    """The incidents overlapping ``[lo, hi)`` as ``{api: [(start, end, status)]}``, with the product of each API,
    the APIs' and the products' names (from ``history``, the status API's; an API it does not list belongs to the
    product its id starts with)."""
    inc = incidents_frame(incidents)
    inc = inc[(inc["start"] < hi) & (inc["end"] > lo)]
    product_of, names, products = {}, {}, {}
    if history is not None and len(history):
        for r in history.itertuples():
            pid = str(r.productId)
            products.setdefault(pid, None if pd.isna(r.productName) else str(r.productName))
            if not pd.isna(r.apiId):
                product_of[str(r.apiId)] = pid
                names[str(r.apiId)] = None if pd.isna(r.apiName) else str(r.apiName)
    spans: dict[str, list] = {}
    for r in inc.itertuples():
        spans.setdefault(str(r.api), []).append((r.start, r.end, str(r.status)))
    for aid in spans:                # an API the history does not list: its product by the id's prefix
        if aid not in product_of:
            prefix = next((p for p in sorted(products, key=len, reverse=True) if aid.startswith(p + "_")), None)
            if prefix is not None:
                product_of[aid] = prefix
    return spans, product_of, names, products


def _zone(tz: str) -> str:
    """A report's time zone as pandas names it: ``"KST"`` is Asia/Seoul."""
    return "Asia/Seoul" if tz in ("KST", "Asia/Seoul") else str(tz)


def status_daily(incidents, start, end, history: pd.DataFrame | None = None, *, tz: str = "UTC") -> pd.DataFrame:
    """The days of ``[start, end)`` in the time zone ``tz`` (``"KST"``: Asia/Seoul), as the status API's history
    frame has them (``date``, ``productId``, ``productName``, ``apiId``, ``apiName``, ``status``: one row per day ×
    product, and one per API that was not GREEN that day), worked out from the incidents' start and end: a day's
    status is the worst of the incidents overlapping it, a product's the worst of its APIs'. ``date`` is the day's
    midnight in ``tz``. This is how a KST report counts KST days where the status API counts UTC days only.

    >>> status_daily(tk.sandbox.incidents(), "2026-11-08T15:00Z", "2026-11-15T15:00Z", h, tz="KST")  # doctest: +SKIP
    """
    lo, hi = _window(start, end)
    zone = _zone(tz)
    first = lo.tz_convert(zone)
    if first != first.normalize():
        from .errors import ParameterError

        raise ParameterError("start", f"must be a midnight in {tz} (the report counts whole {tz} days)", start)
    spans, product_of, names, products = _spans(incidents, lo, hi, history)
    rows = []
    for day in pd.date_range(first, hi.tz_convert(zone), freq="D", inclusive="left"):
        a, b = day, day + pd.Timedelta(days=1)

        def worst(items, a=a, b=b):
            hit = [st for s, e, st in items if s < b and e > a and st in _RANK]
            return max(hit, key=_RANK.get) if hit else "GREEN"

        extra = sorted({product_of[x] for x in spans if x in product_of} - set(products))
        for pid in [*products, *extra]:              # in the status API's order of products
            own = [sp for x, items in spans.items() if product_of.get(x) == pid for sp in items]
            rows.append({"date": day, "productId": pid, "productName": products.get(pid), "apiId": None,
                         "apiName": None, "status": worst(own)})
            for aid in sorted(x for x in spans if product_of.get(x) == pid):
                status = worst(spans[aid])
                if status != "GREEN":
                    rows.append({"date": day, "productId": pid, "productName": products.get(pid), "apiId": aid,
                                 "apiName": names.get(aid), "status": status})
    out = pd.DataFrame(rows, columns=["date", "productId", "productName", "apiId", "apiName", "status"])
    out["date"] = pd.to_datetime(out["date"]).dt.tz_convert(zone) if len(out) else \
        pd.Series(pd.DatetimeIndex([], tz=zone))
    out["status"] = pd.Categorical(out["status"], categories=STATUS_ORDER, ordered=True)
    return out.astype({"productId": "string", "productName": "string", "apiId": "string", "apiName": "string"})


def _display_names(df: pd.DataFrame) -> pd.Series:
    """``productName`` (the id when the name is missing), ``productName · apiName`` for API rows."""
    product = df["productName"].fillna(df["productId"]).fillna("")
    api = df["apiName"].fillna(df["apiId"])
    return product.where(df["apiId"].isna(), product + " · " + api.fillna("")).astype("string")


def _duration(minutes: float) -> str:
    h, m = divmod(int(round(minutes)), 60)
    return f"{h} h {m:02d} min" if h else f"{m} min"


def uptime_paragraph(uptime: pd.DataFrame, incidents, start, end, current: pd.DataFrame | None = None, *,
                     window: str = "", tz: str = "UTC") -> str:
    """A status update in plain English from :func:`status_uptime` and the incidents: availability as time, the
    outages, degraded and maintenance periods with their start, end and length (UTC), products and APIs by
    name, the least available product and the current state. ``tz``: the time zone the periods are written in
    (``"Asia/Seoul"``: KST).

    >>> print(uptime_paragraph(status_uptime(inc, s, e, h), inc, s, e))   # doctest: +SKIP
    """
    lo, hi = _when(start), _when(end)
    span = window or f"{lo:%Y-%m-%d %H:%M} to {hi:%Y-%m-%d %H:%M} UTC"
    products = uptime[uptime["apiId"].isna()]
    if products.empty:
        return f"No status data for {span}."
    counted = int(products["counted_min"].sum())
    up = counted - int(products["down_min"].sum())
    parts = [f"Status update for {span}: the {len(products)} products were available "
             f"{100 * up / counted:.2f}% of the time counted" if counted else
             f"Status update for {span}: no time counted towards availability"]
    parts[0] += f" ({_duration(counted - up)} down in {_duration(counted)} of product time)." if counted else "."
    names = {str(r.apiId): str(r.name) for r in uptime[uptime["apiId"].notna()].itertuples()}
    inc = incidents_frame(incidents)
    inc = inc[(inc["start"] < hi) & (inc["end"] > lo)].sort_values(["start", "api"])

    def listed(status: str) -> list[str]:
        out = []
        zone = "KST" if tz == "Asia/Seoul" else tz
        for r in inc[inc["status"] == status].itertuples():
            a, b = max(r.start, lo), min(r.end, hi)
            minutes = (b - a).total_seconds() / 60
            a, b = a.tz_convert(tz), b.tz_convert(tz)
            out.append(f"{names.get(str(r.api), str(r.api))} {a:%Y-%m-%d %H:%M}–{b:%H:%M}"
                       + (f" (+{(b.normalize() - a.normalize()).days} d)" if b.normalize() != a.normalize() else "")
                       + f" {zone} ({_duration(minutes)})")
        return out

    outages, degraded, planned = listed("RED"), listed("YELLOW"), listed("MAINTENANCE")
    if not outages and not degraded:
        parts.append("There were no outages and no degraded periods.")
    if outages:
        parts.append("Outages (RED): " + "; ".join(outages) + ".")
    if degraded:
        parts.append("Degraded service (YELLOW, counted as up): " + "; ".join(degraded) + ".")
    if planned:
        parts.append("Planned maintenance (not counted): " + "; ".join(planned) + ".")
    pct = products["availability_pct"].dropna()
    if not pct.empty:
        lowest = float(pct.min())
        if lowest >= 100:
            parts.append("Every product was available all the time counted.")
        else:
            tied = sorted(products.loc[pct.index[pct == lowest], "name"].astype(str))
            parts.append(f"Least available product{'s, tied' if len(tied) > 1 else ''}: {_names(tied)} "
                         f"({lowest:.2f}%).")
    if current is not None and len(current):
        parts.append(_right_now(current))
    parts.append(f"({UPTIME_DEFINITION})")
    return " ".join(parts)


def _tz_of(history: pd.DataFrame) -> str:
    """The time zone of a history frame's days, as a report names it (``UTC``: the status API's; ``KST``)."""
    from .plots import tz_label

    tz = getattr(history["date"].dtype, "tz", None) if "date" in history else None
    return tz_label(tz if tz is not None else "UTC")


def status_incidents(history: pd.DataFrame) -> pd.DataFrame:
    """The non-GREEN days: one row per day × product or API whose status was not GREEN, oldest first. The date
    column names its time zone: ``date_utc`` for the status API's UTC days, ``date_kst`` for a KST report's days
    (:func:`status_daily`).

    >>> status_incidents(tk.status.history(days=7))                 # doctest: +SKIP
    """
    column = f"date_{_tz_of(history).lower()}"
    bad = history[~history["status"].astype(str).isin(AVAILABLE)]
    out = pd.DataFrame({column: bad["date"].dt.strftime("%Y-%m-%d"), "subject": _subject(bad),
                        "name": bad["apiName"].astype("string").fillna(bad["productName"].astype("string")),
                        "status": bad["status"]})
    return out.astype({column: "string", "subject": "string", "name": "string"}).sort_values(
        [column, "subject"]).reset_index(drop=True)


def status_paragraph(availability: pd.DataFrame, incidents: pd.DataFrame, current: pd.DataFrame | None = None,
                     *, start: str | None = None, end: str | None = None) -> str:
    """A short status update in plain English, generated from the tables.

    >>> print(status_paragraph(status_availability(h), status_incidents(h)))   # doctest: +SKIP
    """
    products = availability[availability["apiId"].isna()]
    date_col = next((c for c in incidents.columns if c.startswith("date_")), "date_utc")
    zone = date_col.split("_", 1)[1].upper()
    span = f"{start} to {end} ({zone} days)" if start and end else f"the period ({zone} days)"
    if products.empty:
        return f"No status data for {span}."
    counted = int((products["days"] - products[list(NOT_COUNTED)].sum(axis=1)).sum())
    up = int(products[list(UP)].sum(axis=1).sum())
    if counted:
        parts = [f"Status update for {span}: the {len(products)} products were available "
                 f"{100 * up / counted:.1f}% of the product-days counted ({up} of {counted})."]
    else:
        parts = [f"Status update for {span}: no product-day counted towards availability."]
    product_days = incidents[~incidents["subject"].str.contains(" / ", regex=False)]
    api_days = incidents[incidents["subject"].str.contains(" / ", regex=False)]

    def listed(status: str) -> list[str]:
        out = []
        for r in product_days[product_days["status"].astype(str) == status].itertuples():
            day = getattr(r, date_col)
            apis = api_days[(api_days[date_col] == day) & api_days["subject"].str.startswith(f"{r.subject} / ")]
            names = ", ".join(n if not pd.isna(n) else a.split(" / ", 1)[1]       # the API's name, else its id
                              for a, n in zip(apis["subject"], apis["name"]))
            out.append(f"{r.subject if pd.isna(r.name) else r.name} on {day}" + (f" ({names})" if names else ""))
        return out

    outages, warned, planned = listed("RED"), listed("YELLOW"), listed("MAINTENANCE")
    if not outages and not warned:
        parts.append("There were no outages and no degraded days.")
    if outages:
        parts.append(f"Outages (RED) on {len(outages)} product-day(s): " + "; ".join(outages) + ".")
    if warned:
        parts.append(f"Degraded service (YELLOW, counted as up) on {len(warned)} product-day(s): "
                     + "; ".join(warned) + ".")
    if planned:
        parts.append(f"Planned maintenance (not counted) on {len(planned)} product-day(s): "
                     + "; ".join(planned) + ".")
    parts.append(_least_available(products))
    if current is not None and len(current):
        parts.append(_right_now(current))
    parts.append(f"({DAYS_UP_DEFINITION})")
    return " ".join(parts)


def _right_now(current: pd.DataFrame) -> str:
    """The paragraphs' sentence on the products not GREEN now, named as the status page names them."""
    now_bad = current[current["apiId"].isna() & ~current["status"].astype(str).isin(AVAILABLE)]
    label = (lambda r: str(r.productName) if "productName" in current and not pd.isna(r.productName)
             else str(r.productId))
    return "Right now every product is GREEN." if now_bad.empty else "Right now: " + ", ".join(
        f"{label(r)} {r.status}" for r in now_bad.itertuples()) + "."


def _names(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _least_available(products: pd.DataFrame) -> str:
    """The least available product, or the products tied for it, named as a tie."""
    pct = products["days_up_pct" if "days_up_pct" in products else "availability_pct"].dropna()
    if pct.empty:
        return "No product had a day counted towards availability."
    lowest = pct.min()
    if lowest >= 100:
        return "Every product was available on every day counted."
    label = products["name"] if "name" in products else products["subject"]
    tied = sorted(label.loc[pct.index[pct == lowest]].astype(str))
    if len(tied) == 1:
        return f"Least available product: {tied[0]} ({lowest:.1f}%)."
    return f"Least available products, tied at {lowest:.1f}%: {_names(tied)}."


def _named_times(table: pd.DataFrame) -> pd.DataFrame:
    """``table`` with each column of tz-aware times named with its time zone (``at`` → ``at_utc``, ``start`` →
    ``start_kst``) unless its name says it already: a file has no time zone of its own (Excel keeps none at all)."""
    from .plots import tz_label

    renames = {}
    for col in table.columns:
        if isinstance(table[col].dtype, pd.DatetimeTZDtype):
            zone = tz_label(table[col].dt.tz).lower().replace("/", "_")
            if not str(col).lower().endswith(f"_{zone}") and f"({zone})" not in str(col).lower():
                renames[col] = f"{col}_{zone}"
    return table.rename(columns=renames) if renames else table


def export_frames(folder, tables: dict[str, pd.DataFrame], *, figure=None, stem: str = "report",
                  excel: bool | None = None) -> dict[str, Path]:
    """Write each table as ``<stem>_<name>.csv`` (UTF-8 with BOM, so Excel shows Hangul), all tables as sheets of
    ``<stem>.xlsx`` (needs openpyxl; ``excel=None`` writes it when openpyxl is installed), and the figure as
    ``<stem>.png`` (with its text alternative, :func:`toolkit.plots.alt_text`, as the PNG's ``Description``).
    A column of tz-aware times is written as the wall time of its zone and named with it (``at`` → ``at_utc``):
    Excel has no time zones. Returns the paths written.

    >>> export_frames("out", {"availability": weekly.availability}, figure=weekly.figure)   # doctest: +SKIP
    """
    import importlib.util

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    written: dict[str, Path] = {}
    tables = {name: _named_times(table) for name, table in tables.items()}
    for name, table in tables.items():
        path = folder / f"{stem}_{name}.csv"
        table.to_csv(path, index=False, encoding="utf-8-sig")
        written[path.name] = path
    if excel is None:
        excel = importlib.util.find_spec("openpyxl") is not None
    if excel:
        path = folder / f"{stem}.xlsx"
        with pd.ExcelWriter(path, engine="openpyxl") as book:
            for name, table in tables.items():
                plain = table.copy()
                for col in plain.columns:
                    if isinstance(plain[col].dtype, pd.DatetimeTZDtype):
                        plain[col] = plain[col].dt.tz_localize(None)     # the zone's wall time; the name says which
                plain.to_excel(book, sheet_name=name[:31], index=False)
                _fit_sheet(book.sheets[name[:31]], plain)
        written[path.name] = path
    if figure is not None:
        from .plots import alt_text

        path = folder / f"{stem}.png"
        alt = alt_text(figure)
        figure.savefig(path, dpi=120, bbox_inches="tight", metadata={"Description": alt} if alt else None)
        written[path.name] = path
    return written


def _fit_sheet(sheet, table: pd.DataFrame) -> None:
    """Size an openpyxl sheet's columns to their text (header and values; wide characters such as Hangul count
    twice, at most 60) and write date-only columns (every time midnight) as dates, not midnight times."""
    import unicodedata

    from openpyxl.utils import get_column_letter

    def width(value) -> int:
        text = "" if value is None or (not isinstance(value, str) and pd.isna(value)) else str(value)
        return sum(2 if unicodedata.east_asian_width(c) in "WF" else 1 for c in text)

    for i, col in enumerate(table.columns, start=1):
        values = table[col]
        dated = pd.api.types.is_datetime64_any_dtype(values) and len(values.dropna()) and \
            bool((values.dropna() == values.dropna().dt.normalize()).all())
        if dated:
            for cell in sheet[get_column_letter(i)][1:]:
                cell.number_format = "yyyy-mm-dd"
            shown = values.dt.strftime("%Y-%m-%d")
        elif pd.api.types.is_datetime64_any_dtype(values):
            for cell in sheet[get_column_letter(i)][1:]:
                cell.number_format = "yyyy-mm-dd hh:mm"
            shown = values.dt.strftime("%Y-%m-%d %H:%M")
        else:
            shown = values
        longest = max([width(col), *(width(v) for v in shown.head(1000))])
        sheet.column_dimensions[get_column_letter(i)].width = min(60, longest + 2)


@dataclass(repr=False)
class StatusReport:
    """A status update over whole days, in one time zone (``tz``: ``"UTC"`` or ``"KST"``): ``availability`` (per
    product and API; as time, ``availability_pct``, when the incidents' start and end are known, see
    :data:`UPTIME_DEFINITION`; else the day counts), ``days`` (the day counts: a day's worst status and
    ``days_up_pct``, over the report's days), ``incidents`` (the non-GREEN days, ``date_utc`` or ``date_kst``),
    ``periods`` (the incidents in the window, with ``start_<tz>`` and ``end_<tz>``; None without them), ``text``
    (a paragraph naming products and APIs by name), ``figure`` (its window, the availability and the days' heatmap;
    with a text alternative), :meth:`about` and :meth:`export`. ``start``/``end``: the window, ``end`` excluded
    (ISO times in ``tz``); ``window`` says it in words. ``history`` is the status API's history (UTC days) and
    ``daily`` the report's days in ``tz`` (the same frame for a UTC report)."""

    start: str
    end: str
    history: pd.DataFrame
    current: pd.DataFrame
    availability: pd.DataFrame
    incidents: pd.DataFrame
    text: str
    days: pd.DataFrame | None = None
    periods: pd.DataFrame | None = None
    window: str = ""
    tz: str = "UTC"
    daily: pd.DataFrame | None = None
    _figure: object = field(default=None, repr=False)

    def __post_init__(self):
        if self.daily is None:
            self.daily = self.history

    @property
    def figure(self):
        if self._figure is None:
            from .plots import status_weekly_figure

            self._figure = status_weekly_figure(self)
        return self._figure

    def about(self) -> pd.DataFrame:
        """What the report is, in words, as a table (``item``, ``value``): its window, its one time zone, what each
        measure means and the paragraph; the first sheet of the exported workbook."""
        zone = {"UTC": "UTC", "KST": "KST = Asia/Seoul, UTC+9"}.get(self.tz, self.tz)
        items = [("report", "Status update"), ("window", self.window or f"{self.start} to {self.end}"),
                 ("time zone", f"{zone}: every date and time in this report (figure, paragraph, sheets)"),
                 ("start", self.start), ("end (excluded)", self.end)]
        if "availability_pct" in self.availability:
            items.append(("availability_pct (sheet availability)", UPTIME_DEFINITION))
        items.append(("days_up_pct (sheet days)" if self.days is not None and self.days is not self.availability
                      else "days_up_pct (sheet availability)", DAYS_UP_DEFINITION))
        items.append(("text", self.text))
        return pd.DataFrame(items, columns=["item", "value"]).astype("string")

    def tables(self) -> dict[str, pd.DataFrame]:
        """The report's tables by name (what :meth:`export` writes), ``about`` first."""
        out = {"about": self.about(), "availability": self.availability}
        if self.days is not None and self.days is not self.availability:
            out["days"] = self.days
        out["incidents"] = self.incidents
        if self.periods is not None:
            out["periods"] = self.periods
        return out

    def export(self, folder, *, stem: str = "status", excel: bool | None = None) -> dict[str, Path]:
        """CSV per table, one Excel book (a sheet per table, ``about`` first), the PNG figure (it names its window
        and time zone and shows the availability) and ``<stem>.txt`` with the paragraph; returns the paths by file
        name."""
        written = export_frames(folder, self.tables(), figure=self.figure, stem=stem, excel=excel)
        path = Path(folder) / f"{stem}.txt"
        path.write_text(self.text + "\n", "utf-8")
        written[path.name] = path
        return written

    def _repr_markdown_(self) -> str:
        return f"**Status update {self.window or f'{self.start} – {self.end} ({self.tz} days)'}**\n\n{self.text}"

    def __repr__(self) -> str:
        return (f"<StatusReport {self.window or f'{self.start} – {self.end} ({self.tz} days)'}: "
                f"{len(self.availability)} products and APIs, {len(self.incidents)} non-GREEN day rows>")


def status_weekly(current: pd.DataFrame, history: pd.DataFrame, incidents=None, *, start=None, end=None,
                  window: str = "", tz: str = "UTC") -> StatusReport:
    """Build a :class:`StatusReport` from ``tk.status.current()`` and ``tk.status.history(...)``. With
    ``incidents`` (``tk.sandbox.incidents()``, or a frame of ``api``, ``status``, ``start``, ``end``) and the window
    ``[start, end)``, availability is time (:func:`status_uptime`); without, it is the day counts (UTC days, the
    status API's). ``tz``: the report's one time zone, ``"UTC"`` or ``"KST"`` (``"Asia/Seoul"``); a KST report
    counts KST days from the incidents (the status API has UTC days only), so it needs them.

    >>> status_weekly(tk.status.current(), h, tk.sandbox.incidents(), start=s, end=e, tz="KST")   # doctest: +SKIP
    """
    from .plots import tz_label

    tz = tz_label(_zone(tz))
    if tz != "UTC" and (incidents is None or start is None or end is None):
        from .errors import ParameterError

        raise ParameterError("tz", f"a {tz} report needs the incidents' start and end (incidents=, start=, end=): the "
                                   "status API reports UTC days only", tz)
    if incidents is None or start is None or end is None:
        days = status_availability(history)
        incident_days = status_incidents(history)
        s = history["date"].min().strftime("%Y-%m-%d") if len(history) else ""
        e = history["date"].max().strftime("%Y-%m-%d") if len(history) else ""
        text = status_paragraph(days, incident_days, current, start=s, end=e)
        return StatusReport(s, e, history, current, days, incident_days, text, days=days, window=window, tz="UTC")
    lo, hi = _window(start, end)
    zone = _zone(tz)
    daily = history if tz == "UTC" else status_daily(incidents, lo, hi, history, tz=tz)
    days = status_availability(daily)
    incident_days = status_incidents(daily)
    uptime = status_uptime(incidents, lo, hi, history)
    periods = incidents_frame(incidents)
    periods = periods[(periods["start"] < hi) & (periods["end"] > lo)].reset_index(drop=True)
    names = {str(r.apiId): str(r.name) for r in uptime[uptime["apiId"].notna()].itertuples()}
    periods.insert(1, "name", periods["api"].map(lambda a: names.get(str(a), str(a))).astype("string"))
    periods["minutes_in_window"] = [round((min(b, hi) - max(a, lo)).total_seconds() / 60)
                                    for a, b in zip(periods["start"], periods["end"])]
    label = tz.lower()
    periods["start"] = periods["start"].dt.tz_convert(zone)
    periods["end"] = periods["end"].dt.tz_convert(zone)
    periods = periods.rename(columns={"start": f"start_{label}", "end": f"end_{label}"})
    text = uptime_paragraph(uptime, incidents, lo, hi, current, window=window, tz=zone)
    return StatusReport(lo.tz_convert(zone).isoformat(), hi.tz_convert(zone).isoformat(), history, current, uptime,
                        incident_days, text, days=days, periods=periods, window=window, tz=tz, daily=daily)


# ------------------------------------------------------------------------------------------------ consent
#: what ``n`` (and so ``rate_pct`` = agreed ÷ n) counts, by what the consent log tells (``summary.attrs["n"]``)
CONSENT_N = {
    "asked": ("n = the linked users asked for the item: those who agree now, those who declined it on the consent "
              "screen (left it unticked, or cancelled) and those who withdrew it later; rate_pct = agreed ÷ asked."),
    "ever agreed": ("n = the linked users who agreed to the item at some time (now, or before they withdrew): the "
                    "platform's consent events (webhooks) tell no decline, so a user who declined on the consent "
                    "screen is not in n, and rate_pct = agreed ÷ ever agreed, not agreed ÷ asked. Add your app's own "
                    "log of declines (consent_events_frame(..., declines=...)) to count the users asked."),
    "linked": ("n = every linked user (no consent log given: who was asked is not known); rate_pct = agreed ÷ "
               "linked."),
}


def consent_summary(report: pd.DataFrame, scopes: pd.DataFrame | None = None, *,
                    events: pd.DataFrame | None = None) -> pd.DataFrame:
    """Per scope of a :meth:`~toolkit.user.UserArea.consent_report` (users × scopes): ``linked`` users read, ``n``
    users the rate is over, ``agreed`` users, ``declined`` and ``withdrew`` (the users of ``n`` who do not agree
    now), ``rate_pct`` = agreed ÷ n × 100, and — given a ``tk.user.scopes()`` frame — the scope's ``display_name``
    (the name on the consent screen) and whether the app requires it (``required``: a required consent item cannot
    be withdrawn, ``revocable`` false).

    What ``n`` counts depends on the consent log ``events`` (:func:`consent_events_frame`), and
    ``summary.attrs["n"]`` says it in words (:data:`CONSENT_N`):

    * a log that records declines (the sandbox's ``tk.sandbox.consent_events()``, or your app's own log): ``n`` is
      the linked users **asked** for the item — they agree now (``agreed``), declined it on the consent screen
      (``declined``: left it unticked or cancelled) or withdrew it later (``withdrew``); ``rate_pct`` is agreed ÷
      asked;
    * the platform's consent events (a webhook inbox: *User Scope Consent* / *Withdraw*), which never tell a decline:
      ``n`` is the linked users who agreed at some time, ``declined`` is <NA>, and the rate is agreed ÷ ever agreed;
    * no log: ``n`` is every linked user (``linked``).

    A scope no linked user was asked for has ``n`` 0 and ``rate_pct`` <NA> (it never reads as "nobody agreed").
    ``scopes`` may hold the scopes of several users (one frame after another, or a list of one frame per user):
    ``revocable`` is known only for an item some user agreed to, so ``required`` is <NA> for a scope nobody agrees to
    now. Sorted by rate, highest first (never asked last).

    >>> report = pd.DataFrame({"profile": [True, True, True], "friends": [True, False, False],
    ...                        "talk_chats": [False, False, False]})
    >>> log = consent_events_frame([{"type": "scope_consent", "user_id": 0, "scopes": "profile friends", "at": 0},
    ...                             {"type": "scope_consent", "user_id": 1, "scopes": "profile friends", "at": 0},
    ...                             {"type": "scope_consent", "user_id": 2, "scopes": "profile", "at": 0},
    ...                             {"type": "scope_decline", "user_id": 2, "scopes": "friends", "at": 0},
    ...                             {"type": "scope_withdraw", "user_id": 1, "scopes": "friends", "at": 60}])
    >>> consent_summary(report, events=log)[["scope", "linked", "n", "agreed", "declined", "withdrew", "rate_pct"]]
            scope  linked  n  agreed  declined  withdrew  rate_pct
    0     profile       3  3       3         0         0     100.0
    1     friends       3  3       1         1         1      33.3
    2  talk_chats       3  0       0         0         0      <NA>
    """
    if scopes is not None and not isinstance(scopes, pd.DataFrame):   # one tk.user.scopes() frame per user
        frames = list(scopes)
        scopes = pd.concat(frames, ignore_index=True) if frames else None
    linked = len(report)
    agreed = report.sum().astype("int64") if linked else pd.Series(dtype="int64")
    out = pd.DataFrame({"scope": agreed.index.astype(str), "linked": linked, "agreed": agreed.values})
    if events is not None:
        declines = events.attrs.get("declines")
        counts = "asked" if declines or (events["kind"].astype(str) == "decline").any() else "ever agreed"
        users = {str(u) for u in report.index}
        mine = events[events["user_id"].astype(str).isin(users) & events["kind"].astype(str).isin(
            ["consent", "withdraw"] + (["decline"] if counts == "asked" else []))]
        last = (mine.assign(user=mine["user_id"].astype(str), key=mine["scope"].astype(str))
                .drop_duplicates(["user", "key"], keep="last").groupby("key"))     # each user's latest answer
        n, declined, withdrew = [], [], []
        for scope in out["scope"]:
            now = {str(u) for u in report.index[report[scope].fillna(False).astype(bool)]}
            latest = last.get_group(scope) if scope in last.groups else mine.iloc[:0].assign(user=[], key=[])
            before = {u: k for u, k in zip(latest["user"], latest["kind"].astype(str)) if u not in now}
            n.append(len(now) + len(before))
            declined.append(sum(k == "decline" for k in before.values()))
            withdrew.append(sum(k != "decline" for k in before.values()))
        out["n"] = n
        out["declined"] = pd.array(declined if counts == "asked" else [pd.NA] * len(out), dtype="Int64")
        out["withdrew"] = pd.array(withdrew, dtype="Int64")
    else:
        counts = "linked"
        out["n"] = linked
        out["declined"] = pd.array([pd.NA] * len(out), dtype="Int64")
        out["withdrew"] = pd.array([pd.NA] * len(out), dtype="Int64")
    out["n"] = out["n"].astype("int64")
    rate = (100 * out["agreed"] / out["n"].where(out["n"] > 0)).round(1)
    out["rate_pct"] = rate.astype("Float64")
    out = out[["scope", "linked", "n", "agreed", "declined", "withdrew", "rate_pct"]]
    if scopes is not None and len(scopes):
        names = scopes.drop_duplicates("id").set_index("id")["display_name"]
        out["display_name"] = out["scope"].map(names).astype("string")
        # ``revocable`` is given only for agreed items: a scope is required when some user's agreed item is not
        # revocable, optional when some user's is; unknown (<NA>) when nobody agrees to it now
        revocable = scopes.dropna(subset=["revocable"]).groupby("id")["revocable"].agg(
            lambda r: bool(r.astype(bool).all()))
        out["required"] = out["scope"].map(~revocable.astype(bool)).astype("boolean")
    out = out.astype({"scope": "string"})
    out = out.sort_values(["rate_pct", "agreed", "scope"], ascending=[False, False, True],
                          na_position="last").reset_index(drop=True)
    out.attrs["n"] = CONSENT_N[counts]
    out.attrs["n_counts"] = counts
    return out


_EVENT_TYPES = {"scope_consent": "consent", "scope_withdraw": "withdraw", "scope_decline": "decline",
                "User Scope Consent": "consent", "User Scope Withdraw": "withdraw"}
#: the types of the sandbox's consent-event log (``tk.sandbox.consent_events()``), which records declines
_SANDBOX_TYPES = {"linked", "unlinked", "scope_consent", "scope_withdraw", "scope_decline", "tokens_revoked"}


def consent_events_frame(events, *, declines: bool | None = None) -> pd.DataFrame:
    """Consent events as one row per user × scope × event: ``at`` (UTC), ``user_id``, ``scope``, ``kind``
    (``consent``, ``withdraw`` or ``decline``). Takes the sandbox's consent-event log (``tk.sandbox.consent_events()``:
    a list of ``{type, user_id, scopes, at}``; ``scope_decline`` rows are the items a consent screen asked for and
    the user did not agree to), a webhook inbox frame (``inbox.frame()``: *User Scope Consent* / *User Scope
    Withdraw* security events, whose ``members`` carry ``scope``), or your app's own records in the sandbox's
    shape.

    ``frame.attrs["declines"]`` says whether the log records declines, which decides what
    :func:`consent_summary`'s ``n`` counts: True for the sandbox's log (and for any log with a decline in it), False
    for the platform's webhooks (the service sends no event when a user declines: your app sees only
    ``error=access_denied`` at its redirect, or a token without the items left unticked). ``declines=True`` states
    it for your own log.

    >>> consent_events_frame(inbox.frame())          # doctest: +SKIP
    """
    rows = []
    if isinstance(events, pd.DataFrame):
        records = events.to_dict("records")
    else:
        records = list(events)
    sandbox = bool(records) and all(r.get("type") in _SANDBOX_TYPES for r in records)
    for ev in records:
        kind = _EVENT_TYPES.get(ev.get("type") or ev.get("event_type"))
        if kind is None:
            continue
        scopes = ev.get("scopes")
        if scopes is None:
            members = ev.get("members") or {}
            scopes = members.get("scope", "") if isinstance(members, dict) else ""
        if not isinstance(scopes, str):
            scopes = " ".join(str(s) for s in scopes)
        at = ev.get("at", ev.get("toe"))
        at = pd.to_datetime(at, unit="s", utc=True) if isinstance(at, (int, float)) else pd.to_datetime(at, utc=True)
        for scope in str(scopes).replace(",", " ").split():
            rows.append({"at": at, "user_id": ev.get("user_id"), "scope": scope, "kind": kind})
    out = pd.DataFrame(rows, columns=["at", "user_id", "scope", "kind"])
    out["at"] = pd.to_datetime(out["at"], utc=True)
    out = out.astype({"scope": "string", "kind": "string"}).sort_values("at", kind="stable").reset_index(drop=True)
    if declines is None:
        declines = True if sandbox or (out["kind"] == "decline").any() else (False if records else None)
    out.attrs["declines"] = declines
    return out


def consent_trend(events: pd.DataFrame, *, freq: str = "D") -> pd.DataFrame:
    """Per period (``freq``, UTC days by default) × scope: ``consents``, ``withdrawals``, ``net`` and the running
    total ``agreed`` (consents minus withdrawals since the first event). ``events`` is
    :func:`consent_events_frame`'s output.

    >>> consent_trend(consent_events_frame(tk.sandbox.consent_events()))   # doctest: +SKIP
    """
    if events.empty:
        return pd.DataFrame(columns=["period", "scope", "consents", "withdrawals", "net", "agreed"])
    period = events["at"].dt.floor(freq) if freq == "D" else events["at"].dt.tz_convert(None).dt.to_period(
        freq).dt.start_time.dt.tz_localize("UTC")
    counts = (events.assign(period=period, one=1)
              .pivot_table(index=["period", "scope"], columns="kind", values="one", aggfunc="sum", fill_value=0)
              .reindex(columns=["consent", "withdraw"], fill_value=0)
              .rename(columns={"consent": "consents", "withdraw": "withdrawals"}).reset_index())
    counts.columns.name = None
    counts["net"] = counts["consents"] - counts["withdrawals"]
    counts["agreed"] = counts.groupby("scope")["net"].cumsum()
    return counts.astype({"consents": "int64", "withdrawals": "int64", "net": "int64", "agreed": "int64"})


def consent_daily(trend: pd.DataFrame, *, freq: str = "D") -> pd.DataFrame:
    """Users agreeing to each scope at the end of each period (UTC day), one column per scope: the running
    ``agreed`` of :func:`consent_trend` carried over the days without an event (0 before a scope's first event).
    ``freq`` is the trend's; for another than ``"D"`` only the periods with events are listed.

    >>> consent_daily(consent_trend(events))[["account_email", "friends"]]   # doctest: +SKIP
    """
    if trend.empty:
        return pd.DataFrame()
    wide = trend.pivot(index="period", columns="scope", values="agreed")
    if freq == "D":                     # the trend's periods (consent_trend's freq): every day, quiet ones too
        wide = wide.reindex(pd.date_range(wide.index.min(), wide.index.max(), freq="D", name="period"))
    wide = wide.ffill().fillna(0).astype("int64")
    wide.columns = wide.columns.astype(str)
    wide.columns.name = "scope"
    return wide


def consent_figure(summary: pd.DataFrame, trend: pd.DataFrame | None = None, *, scopes=None, top: int = 5):
    """The consent report as one figure: the agreement rate per scope as horizontal bars, named as the consent
    screen names them (``display_name``), each labelled ``agreed of n`` and, where the log tells them, how many of n
    declined and withdrew (n: the users the rate is over, see :func:`consent_summary`; the title and axis say what
    it counts). The items the app requires are dark blue and hatched, the optional ones light blue (colour-blind
    safe, :data:`toolkit.plots.OKABE_ITO`, and told apart by the hatch too); scopes nobody was asked for (``n`` 0)
    are not drawn but listed under the bars. Given :func:`consent_trend`'s output, a second panel shows the users
    agreeing at the end of each UTC day for ``scopes`` (default: the ``top`` optional scopes with the most users
    agreeing now), each line with its own colour, marker and dash, and its title says which it keeps. Returns the
    matplotlib figure, with a text alternative (:func:`toolkit.plots.alt_text`).

    >>> fig = consent_figure(consent_summary(report, scopes, events=events), consent_trend(events))  # doctest: +SKIP
    """
    import matplotlib.pyplot as plt
    from matplotlib.patches import Patch

    from .plots import NEUTRAL, OKABE_ITO, use_hangul_font, with_alt

    use_hangul_font()
    counts = summary.attrs.get("n_counts") or ("linked" if len(summary) and "linked" in summary and
                                               (summary["n"] == summary["linked"]).all() else "asked")
    asked = summary[summary["n"] > 0]
    never = summary[summary["n"] <= 0]
    panels = 2 if trend is not None and not trend.empty else 1
    height = max(3.4, 0.34 * len(asked) + 1.9)
    fig, axes = plt.subplots(1, panels, figsize=(12.5 if panels == 2 else 7.5, height), squeeze=False,
                             gridspec_kw={"width_ratios": [1.25, 1]} if panels == 2 else None)
    ax = axes[0][0]
    required = asked["required"] if "required" in asked else pd.Series(pd.NA, index=asked.index)
    required = required.astype("object").where(required.notna(), None)
    kinds = ["required" if r is True else "optional" if r is False else "unknown" for r in required]
    palette = {"required": OKABE_ITO["blue"], "optional": OKABE_ITO["sky blue"], "unknown": NEUTRAL}
    hatches = {"required": "//", "optional": "", "unknown": ".."}

    def names(frame):
        ids = frame["scope"].astype(str)
        if "display_name" in frame:              # the names users see on the consent screen, not scope ids
            return frame["display_name"].astype("string").fillna(ids).astype(str)
        return ids

    def said(row) -> str:
        text = f"{int(row.agreed)} of {int(row.n)}"
        extra = []
        for what in ("declined", "withdrew"):
            value = getattr(row, what, pd.NA)
            if not pd.isna(value) and int(value):
                extra.append(f"{int(value)} {what}")
        return text + (f" ({', '.join(extra)})" if extra else "")

    labels = names(asked)
    y = list(range(len(asked)))
    bars = ax.barh(y, asked["rate_pct"].astype(float).fillna(0), color=[palette[k] for k in kinds],
                   hatch=[hatches[k] for k in kinds], edgecolor="white", linewidth=0.5)
    notes = [said(r) for r in asked.itertuples()]
    for bar, note in zip(bars, notes):
        ax.annotate(note, (bar.get_width(), bar.get_y() + bar.get_height() / 2),
                    ha="left", va="center", fontsize=8, xytext=(3, 0), textcoords="offset points")
    ax.set_yticks(y, list(labels))
    ax.set_ylim(len(asked) + 0.9, -0.6)          # top to bottom, and a free band at the bottom for the legend
    ax.set_xlim(0, 150)
    ax.set_xticks([0, 20, 40, 60, 80, 100])
    linked = int(summary["linked"].max()) if "linked" in summary and len(summary) else 0
    what = {"asked": f"n = users asked, of {linked} linked: they agree, declined or withdrew",
            "ever agreed": f"n = users who ever agreed, of {linked} linked (declines not known)",
            "linked": f"n = the {linked} linked users"}[counts]
    xlabel = {"asked": "users agreeing, % of the users asked", "ever agreed": "users agreeing, % of those who ever agreed",
              "linked": "users agreeing, % of the linked users"}[counts]
    if len(never):                              # not drawn as 0 %: nobody was asked, so there is no rate
        import textwrap

        xlabel += "\n" + textwrap.fill("Never asked (no consent or decline recorded): " + ", ".join(names(never)), 75)
    ax.set_xlabel(xlabel)
    ax.set_title(f"Consent per item: agreed ÷ n\n({what})", fontsize=10)
    present = [k for k in ("required", "optional", "unknown") if k in kinds]
    meaning = {"required": "required by the app (cannot be withdrawn)", "optional": "optional",
               "unknown": "required or optional: unknown (nobody agrees now)"}
    if present:
        ax.legend(handles=[Patch(facecolor=palette[k], hatch=hatches[k], edgecolor="white", label=meaning[k])
                           for k in present], loc="lower right", fontsize=8, handleheight=1.4)
    listed = [f"{name}{' (required)' if kind == 'required' else ''}: {note.replace(' (', ' agree, ').rstrip(')')}, "
              f"{float(rate):g}%" for name, note, rate, kind in zip(labels, notes, asked["rate_pct"], kinds)]
    alt = (f"Bar chart: consent per item, agreed ÷ n. {CONSENT_N[counts]} " + "; ".join(listed) + "."
           + (f" Never asked: {', '.join(names(never))}." if len(never) else ""))
    if panels == 2:
        daily = consent_daily(trend)
        title = "Users agreeing at the end of each UTC day"
        if scopes is None:
            optional = asked.loc[[k == "optional" for k in kinds]].sort_values(["agreed", "scope"],
                                                                               ascending=[False, True])
            kept = [c for c in optional["scope"].astype(str) if c in daily.columns]
            scopes = kept[:top]
            if len(kept) > len(scopes):
                title += f":\nthe {len(scopes)} optional items most agreed to now (of {len(kept)})"
            else:
                title += ":\nthe optional items"
        ax2 = axes[0][1]
        shown_as = dict(zip(summary["scope"].astype(str), names(summary)))
        colors = [OKABE_ITO[c] for c in ("blue", "orange", "bluish green", "vermillion", "reddish purple",
                                         "sky blue", "black")]
        markers, dashes = ["o", "s", "^", "D", "v", "P", "X"], ["-", "--", "-.", ":", (0, (5, 1, 1, 1))]
        days = daily.index.strftime("%m-%d")
        lines = []
        for i, scope in enumerate(scopes):
            ax2.plot(days, daily[scope], marker=markers[i % len(markers)], linestyle=dashes[i % len(dashes)],
                     color=colors[i % len(colors)], label=shown_as.get(scope, scope))
            lines.append(f"{shown_as.get(scope, scope)} from {int(daily[scope].iloc[0])} to "
                         f"{int(daily[scope].iloc[-1])}")
        ax2.set_title(title, fontsize=10)
        ax2.set_xlabel("day (UTC, month-day)")
        ax2.set_ylabel("users agreeing")
        ax2.yaxis.get_major_locator().set_params(integer=True)
        ax2.legend(fontsize=8, loc="upper left", frameon=False)
        if len(days):
            alt += (f" Line chart: {title.replace(chr(10), ' ')}, {days[0]} to {days[-1]}: " + "; ".join(lines) + ".")
    fig.tight_layout()
    return with_alt(fig, alt)
