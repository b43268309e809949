"""Reports that ship: tables, a text paragraph, a figure and exported files from the toolkit's frames.

Pure functions of DataFrames (no requests), so they work the same on the sandbox and on the real service.

>>> weekly = tk.status.weekly(days=7)                 # doctest: +SKIP
>>> weekly.availability                               # one row per product (and API): availability % of the time   # doctest: +SKIP
>>> weekly.days                                       # the day counts (a day's worst status)   # doctest: +SKIP
>>> print(weekly.text)                                # a paragraph for the status update   # doctest: +SKIP
>>> weekly.export("reports/")                         # CSV, Excel (with openpyxl) and PNG   # doctest: +SKIP
>>> tk.status.weekly(week="KST")                      # last Monday-Sunday week in Seoul   # doctest: +SKIP

Availability is **time**: minutes up ÷ minutes counted, from the incidents' start and end (the sandbox's
``tk.sandbox.incidents()``; on the real service pass your incident log as ``incidents=``), over whole days (today's
partial day is left out). The status API itself reports **UTC days** (a Korean day, KST = UTC+9, starts at 15:00 UTC
the day before): the day counts (``days``, ``incidents``) are per UTC day, and say so.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

__all__ = ["StatusReport", "status_availability", "status_incidents", "status_paragraph", "status_weekly",
           "status_uptime", "uptime_paragraph", "incidents_frame", "UPTIME_DEFINITION",
           "export_frames", "consent_summary", "consent_trend", "consent_events_frame", "consent_daily",
           "consent_figure"]

#: the status that is fully up; every other status is a non-GREEN day of :func:`status_incidents`
AVAILABLE = ("GREEN",)
#: statuses that count as up in ``availability_pct``: GREEN, and YELLOW (up but degraded)
UP = ("GREEN", "YELLOW")
#: statuses left out of ``availability_pct``: planned MAINTENANCE (reported apart from outages) and UNKNOWN (no data)
NOT_COUNTED = ("MAINTENANCE", "UNKNOWN")

#: what ``availability_pct`` means, printed with the figures (paragraph, report, exported text)
AVAILABILITY_DEFINITION = ("Availability = days up ÷ days counted: GREEN days are up, YELLOW days are up but degraded, "
                           "RED days are outages; planned MAINTENANCE days (and UNKNOWN days, without data) are not "
                           "counted and are reported apart.")


def _subject(history: pd.DataFrame) -> pd.Series:
    """``product`` for product rows, ``product / api`` for API rows."""
    api = history["apiId"].astype("string")
    return history["productId"].astype("string").where(api.isna(), history["productId"].astype("string") + " / " + api)


def status_availability(history: pd.DataFrame) -> pd.DataFrame:
    """One row per product (and one per API that had an issue): days observed, days per status and
    ``availability_pct`` = days up (GREEN or YELLOW) / days counted (observed, less MAINTENANCE and UNKNOWN) × 100,
    see :data:`AVAILABILITY_DEFINITION` (an API's days without an issue count as GREEN, as the status API lists
    only APIs with an issue; a subject with no day counted has NA). Sorted worst first.

    >>> status_availability(tk.status.history(days=7)).head()      # doctest: +SKIP
    """
    if history.empty:
        return pd.DataFrame(columns=["subject", "name", "productId", "apiId", "days", "GREEN", "MAINTENANCE",
                                     "YELLOW", "RED", "UNKNOWN", "availability_pct"])
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
    out["availability_pct"] = (100 * up / counted.where(counted > 0)).round(1).astype("Float64")
    out = out.astype({"subject": "string", "productId": "string", "apiId": "string"})
    pnames = history.dropna(subset=["productName"]).drop_duplicates("productId").set_index("productId")[
        "productName"].astype(str) if "productName" in history else pd.Series(dtype=str)
    anames = history.dropna(subset=["apiName"]).drop_duplicates("apiId").set_index("apiId")[
        "apiName"].astype(str) if "apiName" in history else pd.Series(dtype=str)
    out["productName"] = out["productId"].map(pnames).astype("string")
    out["apiName"] = out["apiId"].map(anames).astype("string")
    out["name"] = _display_names(out)
    cols = ["subject", "name", "productId", "apiId", "days", "GREEN", "MAINTENANCE", "YELLOW", "RED", "UNKNOWN",
            "availability_pct"]
    return out[cols].sort_values(["availability_pct", "subject"]).reset_index(drop=True)


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
        worst = max((st for s, e, st in spans if s < b and e > a and st in _RANK), key=_RANK.get, default="GREEN")
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
    lo, hi = _when(start), _when(end)
    if not hi > lo:
        from .errors import ParameterError

        raise ParameterError("end", "must be after start", end)
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


def status_incidents(history: pd.DataFrame) -> pd.DataFrame:
    """The non-GREEN days: one row per day × product or API whose status was not GREEN (UTC days), oldest first.

    >>> status_incidents(tk.status.history(days=7))                 # doctest: +SKIP
    """
    bad = history[~history["status"].astype(str).isin(AVAILABLE)]
    out = pd.DataFrame({"date_utc": bad["date"].dt.strftime("%Y-%m-%d"), "subject": _subject(bad),
                        "name": bad["apiName"].astype("string").fillna(bad["productName"].astype("string")),
                        "status": bad["status"]})
    return out.astype({"date_utc": "string", "subject": "string", "name": "string"}).sort_values(
        ["date_utc", "subject"]).reset_index(drop=True)


def status_paragraph(availability: pd.DataFrame, incidents: pd.DataFrame, current: pd.DataFrame | None = None,
                     *, start: str | None = None, end: str | None = None) -> str:
    """A short status update in plain English, generated from the tables.

    >>> print(status_paragraph(status_availability(h), status_incidents(h)))   # doctest: +SKIP
    """
    products = availability[availability["apiId"].isna()]
    span = f"{start} to {end} (UTC days)" if start and end else "the period (UTC days)"
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
            apis = api_days[(api_days["date_utc"] == r.date_utc)
                            & api_days["subject"].str.startswith(f"{r.subject} / ")]
            names = ", ".join(n if not pd.isna(n) else a.split(" / ", 1)[1]       # the API's name, else its id
                              for a, n in zip(apis["subject"], apis["name"]))
            out.append(f"{r.subject if pd.isna(r.name) else r.name} on {r.date_utc}" + (f" ({names})" if names else ""))
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
    parts.append(f"({AVAILABILITY_DEFINITION})")
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
    pct = products["availability_pct"].dropna()
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


def export_frames(folder, tables: dict[str, pd.DataFrame], *, figure=None, stem: str = "report",
                  excel: bool | None = None) -> dict[str, Path]:
    """Write each table as ``<stem>_<name>.csv`` (UTF-8 with BOM, so Excel shows Hangul), all tables as sheets of
    ``<stem>.xlsx`` (needs openpyxl; ``excel=None`` writes it when openpyxl is installed), and the figure as
    ``<stem>.png``. Returns the paths written.

    >>> export_frames("out", {"availability": weekly.availability}, figure=weekly.figure)   # doctest: +SKIP
    """
    import importlib.util

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    written: dict[str, Path] = {}
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
                        plain[col] = plain[col].dt.tz_localize(None)     # Excel has no time zones: UTC, stated
                plain.to_excel(book, sheet_name=name[:31], index=False)
                _fit_sheet(book.sheets[name[:31]], plain)
        written[path.name] = path
    if figure is not None:
        path = folder / f"{stem}.png"
        figure.savefig(path, dpi=120, bbox_inches="tight")
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
    """A status update over whole days: ``availability`` (per product and API; as time when the incidents' start
    and end are known, see :data:`UPTIME_DEFINITION`, else as days), ``days`` (the day counts: a day's worst
    status, UTC days), ``incidents`` (the non-GREEN days), ``periods`` (the incidents in the window, with start
    and end; None without them), ``text`` (a paragraph naming products and APIs by name), ``figure`` (heatmap +
    current summary) and :meth:`export`. ``start``/``end``: the window, ``end`` excluded (UTC timestamps as
    text); ``window`` says it in words."""

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
    _figure: object = field(default=None, repr=False)

    @property
    def figure(self):
        if self._figure is None:
            from .plots import shown_once, status_report

            self._figure = shown_once(status_report(self.current, self.history))
        return self._figure

    def tables(self) -> dict[str, pd.DataFrame]:
        """The report's tables by name (what :meth:`export` writes)."""
        out = {"availability": self.availability}
        if self.days is not None and self.days is not self.availability:
            out["days"] = self.days
        out["incidents"] = self.incidents
        if self.periods is not None:
            out["periods"] = self.periods
        return out

    def export(self, folder, *, stem: str = "status", excel: bool | None = None) -> dict[str, Path]:
        """CSV per table, one Excel book, the PNG figure and ``<stem>.txt`` with the paragraph; returns the paths
        by file name."""
        written = export_frames(folder, self.tables(), figure=self.figure, stem=stem, excel=excel)
        path = Path(folder) / f"{stem}.txt"
        path.write_text(self.text + "\n", "utf-8")
        written[path.name] = path
        return written

    def _repr_markdown_(self) -> str:
        return f"**Status update {self.window or f'{self.start} – {self.end} (UTC days)'}**\n\n{self.text}"

    def __repr__(self) -> str:
        return (f"<StatusReport {self.window or f'{self.start} – {self.end} (UTC days)'}: "
                f"{len(self.availability)} products and APIs, {len(self.incidents)} non-GREEN day rows>")


def status_weekly(current: pd.DataFrame, history: pd.DataFrame, incidents=None, *, start=None, end=None,
                  window: str = "", tz: str = "UTC") -> StatusReport:
    """Build a :class:`StatusReport` from ``tk.status.current()`` and ``tk.status.history(...)``. With
    ``incidents`` (``tk.sandbox.incidents()``, or a frame of ``api``, ``status``, ``start``, ``end``) and the window
    ``[start, end)``, availability is time (:func:`status_uptime`); without, it is the day counts."""
    days = status_availability(history)
    incident_days = status_incidents(history)
    if incidents is None or start is None or end is None:
        s = history["date"].min().strftime("%Y-%m-%d") if len(history) else ""
        e = history["date"].max().strftime("%Y-%m-%d") if len(history) else ""
        text = status_paragraph(days, incident_days, current, start=s, end=e)
        return StatusReport(s, e, history, current, days, incident_days, text, days=days, window=window)
    lo, hi = _when(start), _when(end)
    uptime = status_uptime(incidents, lo, hi, history)
    periods = incidents_frame(incidents)
    periods = periods[(periods["start"] < hi) & (periods["end"] > lo)].reset_index(drop=True)
    names = {str(r.apiId): str(r.name) for r in uptime[uptime["apiId"].notna()].itertuples()}
    periods.insert(1, "name", periods["api"].map(lambda a: names.get(str(a), str(a))).astype("string"))
    periods["minutes_in_window"] = [round((min(b, hi) - max(a, lo)).total_seconds() / 60)
                                    for a, b in zip(periods["start"], periods["end"])]
    text = uptime_paragraph(uptime, incidents, lo, hi, current, window=window, tz=tz)
    return StatusReport(lo.isoformat(), hi.isoformat(), history, current, uptime, incident_days, text, days=days,
                        periods=periods, window=window)


# ------------------------------------------------------------------------------------------------ consent
def consent_summary(report: pd.DataFrame, scopes: pd.DataFrame | None = None, *,
                    events: pd.DataFrame | None = None) -> pd.DataFrame:
    """Per scope of a :meth:`~toolkit.user.UserArea.consent_report` (users × scopes): ``linked`` users read, ``n``
    users the rate is over, ``agreed`` users and ``rate_pct`` = agreed ÷ n × 100, and — given a
    ``tk.user.scopes()`` frame — the scope's ``display_name`` (the name on the consent screen) and whether the app
    requires it (``required``: a required consent item cannot be withdrawn, ``revocable`` false).

    ``n`` is the users **asked** for the scope when ``events`` (:func:`consent_events_frame`, the platform's
    consent log) is given: the linked users who agreed to it at some time (now, or before they withdrew). The log
    records a request only when it was answered yes, so a request declined on the consent screen is not counted;
    a scope no linked user was ever asked for has ``n`` 0 and ``rate_pct`` <NA> (it never reads as "nobody
    agreed"). Without ``events``, ``n`` is every linked user (``linked``). ``scopes`` may hold the scopes of
    several users (one frame after another, or a list of one frame per user): ``revocable`` is known only for an item some user agreed to, so
    ``required`` is <NA> for a scope nobody agrees to now. Sorted by rate, highest first (never asked last).

    >>> report = pd.DataFrame({"profile": [True, True], "friends": [True, False], "talk_chats": [False, False]})
    >>> log = consent_events_frame([{"type": "scope_consent", "user_id": 0, "scopes": "profile friends", "at": 0},
    ...                             {"type": "scope_consent", "user_id": 1, "scopes": "profile friends", "at": 0},
    ...                             {"type": "scope_withdraw", "user_id": 1, "scopes": "friends", "at": 60}])
    >>> consent_summary(report, events=log)[["scope", "linked", "n", "agreed", "rate_pct"]]
            scope  linked  n  agreed  rate_pct
    0     profile       2  2       2     100.0
    1     friends       2  2       1      50.0
    2  talk_chats       2  0       0      <NA>
    """
    if scopes is not None and not isinstance(scopes, pd.DataFrame):   # one tk.user.scopes() frame per user
        frames = list(scopes)
        scopes = pd.concat(frames, ignore_index=True) if frames else None
    linked = len(report)
    agreed = report.sum().astype("int64") if linked else pd.Series(dtype="int64")
    out = pd.DataFrame({"scope": agreed.index.astype(str), "linked": linked, "agreed": agreed.values})
    if events is not None:
        users = {str(u) for u in report.index}
        said_yes = events[events["kind"].astype(str).eq("consent") & events["user_id"].astype(str).isin(users)]
        ever = said_yes.groupby(said_yes["scope"].astype(str))["user_id"].agg(lambda u: {str(x) for x in u})
        now = {scope: {str(u) for u in report.index[report[scope].astype(bool)]} for scope in report.columns}
        out["n"] = [len(ever.get(scope, set()) | now.get(scope, set())) for scope in out["scope"]]
    else:
        out["n"] = linked
    out["n"] = out["n"].astype("int64")
    rate = (100 * out["agreed"] / out["n"].where(out["n"] > 0)).round(1)
    out["rate_pct"] = rate.astype("Float64")
    out = out[["scope", "linked", "n", "agreed", "rate_pct"]]
    if scopes is not None and len(scopes):
        names = scopes.drop_duplicates("id").set_index("id")["display_name"]
        out["display_name"] = out["scope"].map(names).astype("string")
        # ``revocable`` is given only for agreed items: a scope is required when some user's agreed item is not
        # revocable, optional when some user's is; unknown (<NA>) when nobody agrees to it now
        revocable = scopes.dropna(subset=["revocable"]).groupby("id")["revocable"].agg(
            lambda r: bool(r.astype(bool).all()))
        out["required"] = out["scope"].map(~revocable.astype(bool)).astype("boolean")
    out = out.astype({"scope": "string"})
    return out.sort_values(["rate_pct", "agreed", "scope"], ascending=[False, False, True],
                           na_position="last").reset_index(drop=True)


_EVENT_TYPES = {"scope_consent": "consent", "scope_withdraw": "withdraw",
                "User Scope Consent": "consent", "User Scope Withdraw": "withdraw"}


def consent_events_frame(events) -> pd.DataFrame:
    """Consent events as one row per user × scope × event: ``at`` (UTC), ``user_id``, ``scope``, ``kind``
    (``consent`` or ``withdraw``). Takes the sandbox's consent-event log (``tk.sandbox.consent_events()``: a
    list of ``{type, user_id, scopes, at}``) or a webhook inbox frame (``inbox.frame()``: *User Scope
    Consent* / *User Scope Withdraw* security events, whose ``members`` carry ``scope``).

    >>> consent_events_frame(inbox.frame())          # doctest: +SKIP
    """
    rows = []
    if isinstance(events, pd.DataFrame):
        records = events.to_dict("records")
    else:
        records = list(events)
    for ev in records:
        kind = _EVENT_TYPES.get(ev.get("type") or ev.get("event_type"))
        if kind is None:
            continue
        scopes = ev.get("scopes")
        if scopes is None:
            members = ev.get("members") or {}
            scopes = members.get("scope", "") if isinstance(members, dict) else ""
        at = ev.get("at", ev.get("toe"))
        at = pd.to_datetime(at, unit="s", utc=True) if isinstance(at, (int, float)) else pd.to_datetime(at, utc=True)
        for scope in str(scopes).replace(",", " ").split():
            rows.append({"at": at, "user_id": ev.get("user_id"), "scope": scope, "kind": kind})
    out = pd.DataFrame(rows, columns=["at", "user_id", "scope", "kind"])
    out["at"] = pd.to_datetime(out["at"], utc=True)
    return out.astype({"scope": "string", "kind": "string"}).sort_values("at", kind="stable").reset_index(drop=True)


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
    screen names them (``display_name``), each labelled ``agreed of n`` (n: the users the rate is over, see
    :func:`consent_summary`), the items the app requires dark and the optional ones light; scopes nobody was asked
    for (``n`` 0) are not drawn but listed under the bars. Given :func:`consent_trend`'s output, a second panel
    shows the users agreeing at the end of each UTC day for ``scopes`` (default: the ``top`` optional scopes with
    the most users agreeing now), and its title says which it keeps. Returns the matplotlib figure.

    >>> fig = consent_figure(consent_summary(report, scopes, events=events), consent_trend(events))  # doctest: +SKIP
    """
    import matplotlib.pyplot as plt
    from matplotlib.patches import Patch

    from .plots import shown_once, use_hangul_font

    use_hangul_font()
    asked = summary[summary["n"] > 0]
    never = summary[summary["n"] <= 0]
    panels = 2 if trend is not None and not trend.empty else 1
    height = max(3.2, 0.32 * len(asked) + 1.6)
    fig, axes = plt.subplots(1, panels, figsize=(12 if panels == 2 else 7, height), squeeze=False,
                             gridspec_kw={"width_ratios": [1.15, 1]} if panels == 2 else None)
    ax = axes[0][0]
    required = asked["required"] if "required" in asked else pd.Series(pd.NA, index=asked.index)
    required = required.astype("object").where(required.notna(), None)
    kinds = ["required" if r is True else "optional" if r is False else "unknown" for r in required]
    palette = {"required": "#8a6d00", "optional": "#f2b807", "unknown": "#bdbdbd"}

    def names(frame):
        ids = frame["scope"].astype(str)
        if "display_name" in frame:              # the names users see on the consent screen, not scope ids
            return frame["display_name"].astype("string").fillna(ids).astype(str)
        return ids

    labels = names(asked)
    y = list(range(len(asked)))
    bars = ax.barh(y, asked["rate_pct"].astype(float).fillna(0), color=[palette[k] for k in kinds])
    for bar, agreed, n in zip(bars, asked["agreed"], asked["n"]):
        ax.annotate(f"{int(agreed)} of {int(n)}", (bar.get_width(), bar.get_y() + bar.get_height() / 2),
                    ha="left", va="center", fontsize=8, xytext=(3, 0), textcoords="offset points")
    ax.set_yticks(y, list(labels))
    ax.set_ylim(len(asked) + 0.9, -0.6)          # top to bottom, and a free band at the bottom for the legend
    ax.set_xlim(0, 118)
    xlabel = "users agreeing (% of n)"
    if len(never):                              # not drawn as 0 %: nobody was asked, so there is no rate
        import textwrap

        xlabel += "\n" + textwrap.fill("Never asked (no consent recorded): " + ", ".join(names(never)), 70)
    ax.set_xlabel(xlabel)
    linked = int(summary["linked"].max()) if "linked" in summary and len(summary) else 0
    if len(summary) and (summary["n"] == summary.get("linked", summary["n"])).all():
        ax.set_title(f"Consent per item (n = the {linked} linked users)")
    else:
        ax.set_title(f"Consent per item (n = users asked, of {linked} linked)")
    present = [k for k in ("required", "optional", "unknown") if k in kinds]
    said = {"required": "required by the app (cannot be withdrawn)", "optional": "optional",
            "unknown": "required or optional: unknown (nobody agrees now)"}
    if present:
        ax.legend(handles=[Patch(color=palette[k], label=said[k]) for k in present], loc="lower right", fontsize=8)
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
        for scope in scopes:
            ax2.plot(daily.index.strftime("%m-%d"), daily[scope], marker="o", label=shown_as.get(scope, scope))
        ax2.set_title(title, fontsize=10)
        ax2.set_xlabel("day (UTC, month-day)")
        ax2.set_ylabel("users agreeing")
        ax2.yaxis.get_major_locator().set_params(integer=True)
        ax2.legend(fontsize=8, loc="upper left", frameon=False)
    fig.tight_layout()
    return shown_once(fig)
