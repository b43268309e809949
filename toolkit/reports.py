"""Reports that ship: tables, a text paragraph, a figure and exported files from the toolkit's frames.

Pure functions of DataFrames (no requests), so they work the same on the sandbox and on the real service.

>>> weekly = tk.status.weekly(days=7)                 # doctest: +SKIP
>>> weekly.availability                               # one row per product (and API): availability %   # doctest: +SKIP
>>> print(weekly.text)                                # a paragraph for the status update   # doctest: +SKIP
>>> weekly.export("reports/")                         # CSV, Excel (with openpyxl) and PNG   # doctest: +SKIP

Days are **UTC days**, as the status API reports them (a Korean day, KST = UTC+9, starts at 15:00 UTC the day
before); every table and the paragraph say so.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

import pandas as pd

__all__ = ["StatusReport", "status_availability", "status_incidents", "status_paragraph", "status_weekly",
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
        return pd.DataFrame(columns=["subject", "productId", "apiId", "days", "GREEN", "MAINTENANCE", "YELLOW",
                                     "RED", "UNKNOWN", "availability_pct"])
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
    cols = ["subject", "productId", "apiId", "days", "GREEN", "MAINTENANCE", "YELLOW", "RED", "UNKNOWN",
            "availability_pct"]
    return out[cols].sort_values(["availability_pct", "subject"]).reset_index(drop=True)


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
                            & api_days["subject"].str.startswith(f"{r.subject} / ")]["subject"]
            names = ", ".join(a.split(" / ", 1)[1] for a in apis)
            out.append(f"{r.subject} on {r.date_utc}" + (f" ({names})" if names else ""))
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
        now_bad = current[current["apiId"].isna() & ~current["status"].astype(str).isin(AVAILABLE)]
        parts.append("Right now every product is GREEN." if now_bad.empty else "Right now: " + ", ".join(
            f"{r.productId} {r.status}" for r in now_bad.itertuples()) + ".")
    parts.append(f"({AVAILABILITY_DEFINITION})")
    return " ".join(parts)


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
    tied = sorted(products.loc[pct.index[pct == lowest], "subject"].astype(str))
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
        written[f"{name}.csv"] = path
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
        written["xlsx"] = path
    if figure is not None:
        path = folder / f"{stem}.png"
        figure.savefig(path, dpi=120, bbox_inches="tight")
        written["png"] = path
    return written


@dataclass(repr=False)
class StatusReport:
    """A status update over a period: ``availability`` (per product and API), ``incidents`` (non-GREEN days),
    ``text`` (a paragraph), ``figure`` (heatmap + current summary) and :meth:`export`."""

    start: str
    end: str
    history: pd.DataFrame
    current: pd.DataFrame
    availability: pd.DataFrame
    incidents: pd.DataFrame
    text: str
    _figure: object = field(default=None, repr=False)

    @property
    def figure(self):
        if self._figure is None:
            from .plots import status_report

            self._figure = status_report(self.current, self.history)
        return self._figure

    def export(self, folder, *, stem: str = "status", excel: bool | None = None) -> dict[str, Path]:
        """CSV per table, one Excel book, the PNG figure and ``<stem>.txt`` with the paragraph."""
        written = export_frames(folder, {"availability": self.availability, "incidents": self.incidents},
                                figure=self.figure, stem=stem, excel=excel)
        path = Path(folder) / f"{stem}.txt"
        path.write_text(self.text + "\n", "utf-8")
        written["txt"] = path
        return written

    def _repr_markdown_(self) -> str:
        return f"**Status update {self.start} – {self.end} (UTC days)**\n\n{self.text}"

    def __repr__(self) -> str:
        return (f"<StatusReport {self.start} – {self.end} (UTC days): {len(self.availability)} products and APIs, "
                f"{len(self.incidents)} non-GREEN day rows>")


def status_weekly(current: pd.DataFrame, history: pd.DataFrame) -> StatusReport:
    """Build a :class:`StatusReport` from ``tk.status.current()`` and ``tk.status.history(days=N)``."""
    start = history["date"].min().strftime("%Y-%m-%d") if len(history) else ""
    end = history["date"].max().strftime("%Y-%m-%d") if len(history) else ""
    availability = status_availability(history)
    incidents = status_incidents(history)
    text = status_paragraph(availability, incidents, current, start=start, end=end)
    return StatusReport(start, end, history, current, availability, incidents, text)


# ------------------------------------------------------------------------------------------------ consent
def consent_summary(report: pd.DataFrame, scopes: pd.DataFrame | None = None) -> pd.DataFrame:
    """Per scope of a :meth:`~toolkit.user.UserArea.consent_report` (users × scopes): ``n`` users, ``agreed``
    users, ``rate_pct``, and — given a ``tk.user.scopes()`` frame — the scope's ``display_name`` and whether it is
    ``required`` (a required consent item cannot be revoked: ``revocable`` false). ``scopes`` may hold the
    scopes of several users (one frame after another): ``revocable`` is known only for an item the user agreed
    to, so ``required`` is <NA> for a scope nobody agreed to. Sorted by rate, highest first.

    >>> scopes = pd.concat(tk.user.scopes(target_id=u) for u in report.index)      # doctest: +SKIP
    >>> consent_summary(tk.user.consent_report(), scopes)                            # doctest: +SKIP
    """
    n = len(report)
    agreed = report.sum().astype("int64") if n else pd.Series(dtype="int64")
    out = pd.DataFrame({"scope": agreed.index.astype(str), "n": n, "agreed": agreed.values})
    out["rate_pct"] = (100 * out["agreed"] / n).round(1) if n else 0.0
    if scopes is not None and len(scopes):
        names = scopes.drop_duplicates("id").set_index("id")["display_name"]
        out["display_name"] = out["scope"].map(names).astype("string")
        # ``revocable`` is given only for agreed items: a scope is required when some user's agreed item is not
        # revocable, optional when some user's is; unknown (<NA>) when nobody agreed to it
        revocable = scopes.dropna(subset=["revocable"]).groupby("id")["revocable"].agg(
            lambda r: bool(r.astype(bool).all()))
        out["required"] = out["scope"].map(~revocable.astype(bool)).astype("boolean")
    out = out.astype({"scope": "string"})
    return out.sort_values(["rate_pct", "scope"], ascending=[False, True]).reset_index(drop=True)


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


def consent_figure(summary: pd.DataFrame, trend: pd.DataFrame | None = None, *, scopes=None):
    """The consent report as one figure: the agreement rate per scope (required items dark, optional light, each
    bar labelled with ``agreed/n``) and, given :func:`consent_trend`'s output, the users agreeing per day for
    ``scopes`` (default: the five optional scopes agreed most). Returns the matplotlib figure.

    >>> fig = consent_figure(consent_summary(report, scopes), consent_trend(events))   # doctest: +SKIP
    """
    import matplotlib.pyplot as plt

    from .plots import use_hangul_font

    use_hangul_font()
    panels = 2 if trend is not None and not trend.empty else 1
    fig, axes = plt.subplots(1, panels, figsize=(12 if panels == 2 else 7, 4.2), squeeze=False)
    ax = axes[0][0]
    required = summary["required"] if "required" in summary else pd.Series(pd.NA, index=summary.index)
    colors = ["#8a6d00" if r is True else "#f2b807" if r is False else "#d9d9d9"
              for r in required.astype("object").where(required.notna(), None)]
    bars = ax.bar(summary["scope"].astype(str), summary["rate_pct"], color=colors)
    for bar, agreed, n in zip(bars, summary["agreed"], summary["n"]):
        ax.annotate(f"{agreed}/{n}", (bar.get_x() + bar.get_width() / 2, bar.get_height()), ha="center",
                    va="bottom", fontsize=7, xytext=(0, 2), textcoords="offset points")
    n = int(summary["n"].max()) if len(summary) else 0
    ax.set_ylim(0, 110)
    ax.set_ylabel("users agreeing (%)")
    ax.set_title(f"Consent per scope ({n} linked users)")
    plt.setp(ax.get_xticklabels(), rotation=45, ha="right", rotation_mode="anchor")
    from matplotlib.patches import Patch

    ax.legend(handles=[Patch(color="#8a6d00", label="required"), Patch(color="#f2b807", label="optional"),
                       Patch(color="#d9d9d9", label="nobody agreed")], loc="upper right", fontsize=8)
    if panels == 2:
        daily = consent_daily(trend)
        if scopes is None:
            optional = summary.loc[required.eq(False).fillna(False).to_numpy(bool), "scope"].astype(str)
            scopes = [c for c in optional if c in daily.columns][:5]
        ax2 = axes[0][1]
        for scope in scopes:
            ax2.plot(daily.index.strftime("%m-%d"), daily[scope], marker="o", label=scope)
        ax2.set_title("Users agreeing at the end of each day (UTC)")
        ax2.set_ylabel("users")
        ax2.legend(fontsize=8, loc="upper left", bbox_to_anchor=(1.01, 1), frameon=False)
    fig.tight_layout()
    return fig
