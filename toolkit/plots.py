"""matplotlib reports. Imported lazily: ``import toolkit`` never imports matplotlib.

>>> fig = status_report(tk.status.current(), tk.status.history())     # doctest: +SKIP

Importing this module registers the bundled Hangul font (NanumGothic, :mod:`toolkit.fonts`) with matplotlib
and adds it to the sans-serif fallback list, so any plot drawn afterwards — the toolkit's and your own, e.g. a
title "서면 카페" or place names as tick labels — draws Hangul instead of boxes, with no "Glyph … missing"
warnings; Latin text keeps matplotlib's default font. Every toolkit call that draws imports this module first.

>>> import toolkit.plots                                              # doctest: +SKIP
>>> df.plot.bar(title="서면 카페")                                    # doctest: +SKIP

Every figure drawn here reads without colour and without sight. Its colours are the Okabe–Ito palette
(:data:`OKABE_ITO`), which readers with a colour-vision deficiency tell apart, and what a colour means is also said
another way: a letter in each status cell (:data:`STATUS_MARKS`), a hatch per category (:data:`CATEGORY_HATCHES`),
markers and dashes per line. Each carries a text alternative (:func:`alt_text`), shown with the image: the output's
``image/png`` metadata ``alt`` and an ``<img alt>`` in its ``text/html`` (:func:`figure_bundle`).
:func:`with_alt` gives one to your own chart.

>>> fig = toolkit.plots.with_alt(df.plot.bar(title="Friends").figure)     # doctest: +SKIP
"""
from __future__ import annotations

import numpy as np
import pandas as pd

from .frames import STATUS_ORDER

__all__ = ["status_heatmap", "status_summary", "status_report", "status_weekly_figure", "heatmap_text", "category_mix",
           "STATUS_COLORS", "STATUS_MARKS", "STATUS_MEANING", "OKABE_ITO", "NEUTRAL", "CATEGORY_COLORS",
           "CATEGORY_HATCHES", "use_hangul_font", "alt_text", "with_alt", "describe", "figure_bundle", "tz_label"]


#: The Okabe–Ito palette ("Color Universal Design", Okabe & Ito 2008): eight colours chosen to stay apart for
#: readers with any common colour-vision deficiency. Every categorical colour of the toolkit's figures is one of
#: these (or the neutral grey ``NEUTRAL``), and each figure also says what a colour means without colour: a letter
#: in a cell, a hatch, a marker or a label (:data:`STATUS_MARKS`, :data:`CATEGORY_HATCHES`).
OKABE_ITO = {"orange": "#E69F00", "sky blue": "#56B4E9", "bluish green": "#009E73", "yellow": "#F0E442",
             "blue": "#0072B2", "vermillion": "#D55E00", "reddish purple": "#CC79A7", "black": "#000000"}
#: the grey for "no data" and "other" (not a category of its own)
NEUTRAL = "#BBBBBB"

#: the status colours, from :data:`OKABE_ITO`: the status names are the platform's (GREEN, YELLOW, RED), the colours
#: are ones a reader with deuteranopia, protanopia or tritanopia tells apart too
STATUS_COLORS = {"UNKNOWN": NEUTRAL, "GREEN": OKABE_ITO["bluish green"], "MAINTENANCE": OKABE_ITO["blue"],
                 "YELLOW": OKABE_ITO["yellow"], "RED": OKABE_ITO["vermillion"]}
#: what a status means, in the legends and text alternatives
STATUS_MEANING = {"UNKNOWN": "no data", "GREEN": "up", "MAINTENANCE": "planned, not counted",
                  "YELLOW": "up but degraded", "RED": "outage"}
#: the letter written in a heatmap cell of each status (a GREEN cell, the usual day, stays blank): the status reads
#: without its colour
STATUS_MARKS = {"UNKNOWN": "?", "GREEN": "", "MAINTENANCE": "M", "YELLOW": "Y", "RED": "R"}

#: the colours and hatches of the segments of a category chart (:func:`category_mix`), in order; a group "other" is
#: drawn in :data:`NEUTRAL`
CATEGORY_COLORS = [OKABE_ITO[c] for c in ("blue", "orange", "sky blue", "vermillion", "bluish green",
                                          "reddish purple", "yellow")]
CATEGORY_HATCHES = ["", "//", "..", "xx", "\\\\", "oo", "--", "++"]


def use_hangul_font() -> str:
    """Register the bundled NanumGothic (regular and bold) with matplotlib's font manager and add it as a
    fallback: to ``font.family`` after the families already there (matplotlib falls back glyph by glyph along
    that list, so Latin text keeps its font and Hangul comes from NanumGothic) and to ``font.sans-serif``.
    Idempotent; returns the family name. ``import toolkit`` already does this when matplotlib loads
    (:mod:`toolkit._mplfont`); call it again after a matplotlib style or ``rcdefaults()`` reset the fonts.

    >>> use_hangul_font()
    'NanumGothic'
    """
    from ._mplfont import register

    return register()


# ------------------------------------------------------------------------------------------------ text alternatives
_ALT = "_toolkit_alt"


def alt_text(fig) -> str | None:
    """The text alternative of a figure made by the toolkit (or given one by :func:`with_alt`): what it shows, in
    words, for a reader who cannot see it. None for a figure without one.

    >>> import matplotlib; matplotlib.use("Agg"); import matplotlib.pyplot as plt
    >>> fig = with_alt(plt.figure(), "A blank figure."); alt_text(fig); plt.close(fig)
    'A blank figure.'
    """
    return getattr(fig, _ALT, None)


def with_alt(fig, alt: str | None = None):
    """``fig`` with a text alternative: ``alt``, or — when None — one the toolkit writes from what the figure draws
    (:func:`describe`: its titles, axis labels, and each bar and line series with its values). Returns the figure,
    displayed once in a notebook (:func:`shown_once`) with the text stored with the image: as the output's
    ``image/png`` metadata ``alt`` (the key ``IPython.display.Image(alt=...)`` writes, which nbconvert's classic
    template reads) and as the ``alt`` of an ``<img>`` in the output's ``text/html`` (which JupyterLab and
    ``jupyter nbconvert --to html`` show). :func:`toolkit.reports.export_frames` writes it into the PNG file too.

    >>> ax = summary.plot.bar(title="Friends by script")          # doctest: +SKIP
    >>> toolkit.plots.with_alt(ax.figure)                          # doctest: +SKIP
    """
    if alt is None:
        alt = describe(fig)
    if not isinstance(alt, str) or not alt.strip():
        from .errors import ParameterError

        raise ParameterError("alt", "must be a text that says what the figure shows (None: the toolkit writes one)",
                             alt)
    setattr(fig, _ALT, " ".join(alt.split()))
    return shown_once(fig)


def _number(value) -> str:
    value = float(value)
    return f"{value:g}" if abs(value) >= 1 or value == 0 else f"{value:.2g}"


def describe(fig) -> str:
    """A text alternative written from what a figure draws: per axes its title and axis labels, each bar series
    (its legend label, then category: value) and each labelled line (its first and last point). Meant for plain
    bar and line charts (pandas' ``.plot.bar()``, ``.plot()``); a figure of the toolkit writes its own, closer text.

    >>> import matplotlib; matplotlib.use("Agg"); import matplotlib.pyplot as plt
    >>> fig, ax = plt.subplots(); _ = ax.bar(["a", "b"], [3, 5], label="n"); _ = ax.set_title("Counts")
    >>> describe(fig)
    'Bar chart "Counts". n: a 3, b 5.'
    >>> plt.close(fig)
    """
    from matplotlib.container import BarContainer

    parts = []
    for ax in fig.axes:
        bars = [c for c in ax.containers if isinstance(c, BarContainer)]
        lines = [ln for ln in ax.get_lines() if not ln.get_label().startswith("_")]
        if not bars and not lines:
            continue
        kind = "Bar chart" if bars else "Line chart"
        head = f'{kind} "{ax.get_title()}"' if ax.get_title() else kind
        axes = [f"{name}: {label}" for name, label in (("x", ax.get_xlabel()), ("y", ax.get_ylabel())) if label]
        parts.append(head + (f" ({'; '.join(axes)})" if axes else "") + ".")
        for container in bars:
            horizontal = getattr(container, "orientation", "vertical") == "horizontal"
            ticks = (ax.get_yticks() if horizontal else ax.get_xticks())
            names = [t.get_text() for t in (ax.get_yticklabels() if horizontal else ax.get_xticklabels())]
            by_tick = dict(zip(ticks, names))
            items = []
            for patch in container.patches:
                where = patch.get_y() + patch.get_height() / 2 if horizontal else patch.get_x() + patch.get_width() / 2
                name = min(by_tick.items(), key=lambda kv: abs(kv[0] - where))[1] if by_tick else ""
                items.append(f"{name} {_number(patch.get_width() if horizontal else patch.get_height())}".strip())
            label = container.get_label()
            parts.append((f"{label}: " if label and not label.startswith("_") else "") + ", ".join(items) + ".")
        for line in lines:
            ys = line.get_ydata()
            if len(ys):
                parts.append(f"{line.get_label()}: from {_number(ys[0])} to {_number(ys[-1])} "
                             f"({len(ys)} points).")
    return " ".join(parts) if parts else "A figure without bars or labelled lines."


def figure_bundle(fig) -> tuple[dict, dict]:
    """The display data of a figure with its text alternative (:func:`alt_text`): ``image/png`` (base64) with the
    metadata ``{"image/png": {"alt": ...}}``, ``text/html`` (an ``<img>`` of the same PNG with that ``alt``) and
    ``text/plain`` (the text itself). In IPython the PNG comes from its figure formatter (its formats and
    resolution); elsewhere from ``savefig``. A figure without a text alternative: the PNG and matplotlib's text.

    >>> import matplotlib; matplotlib.use("Agg"); import matplotlib.pyplot as plt
    >>> data, meta = figure_bundle(with_alt(plt.figure(figsize=(1, 1)), "Nothing to see."))
    >>> meta["image/png"]["alt"], data["text/plain"], 'alt="Nothing to see."' in data["text/html"]
    ('Nothing to see.', 'Nothing to see.', True)
    >>> plt.close("all")
    """
    import base64
    import html

    data, meta = {}, {}
    shell = _shell()
    if shell is not None:
        own = fig.__dict__.pop("_ipython_display_", None)     # the figure's formatters, not this display again
        try:
            data, meta = shell.display_formatter.format(fig)
        finally:
            if own is not None:
                fig._ipython_display_ = own
        data, meta = dict(data), {k: dict(v) if isinstance(v, dict) else v for k, v in (meta or {}).items()}
    if "image/png" not in data:
        import io

        buf = io.BytesIO()
        fig.savefig(buf, format="png", bbox_inches="tight")
        data["image/png"] = base64.b64encode(buf.getvalue()).decode("ascii")
        data.setdefault("text/plain", repr(fig))
    png = data["image/png"]
    if isinstance(png, bytes):
        png = data["image/png"] = base64.b64encode(png).decode("ascii")
    alt = alt_text(fig)
    if alt:
        for mime in ("image/png", "image/jpeg", "image/svg+xml"):
            if mime in data:
                meta.setdefault(mime, {})["alt"] = alt
        size = "".join(f' {k}="{int(v)}"' for k, v in meta.get("image/png", {}).items() if k in ("width", "height"))
        data["text/html"] = (f'<img src="data:image/png;base64,{png}" alt="{html.escape(alt, quote=True)}"'
                             f'{size} style="max-width: 100%; height: auto"/>')
        data["text/plain"] = alt
    return data, meta


def _shell():
    try:
        from IPython import get_ipython
    except ImportError:
        return None
    return get_ipython()


def shown_once(fig):
    """``fig``, displayed once in a notebook when it is a cell's last expression (or when the inline backend shows
    it at the end of the cell), with its text alternative (:func:`figure_bundle`). The inline backend shows every
    figure a cell opened when the cell ends; the cell's value was shown as well, so a returned figure appeared
    twice, or not at all where the figure was not drawn while interactive. Its own display closes it in pyplot
    (so the backend does not show it again) and shows it, once. Outside IPython nothing changes.

    >>> import matplotlib; matplotlib.use("Agg"); import matplotlib.pyplot as plt
    >>> fig = shown_once(plt.figure()); callable(fig._ipython_display_); plt.close(fig)
    True
    """
    def display():
        import matplotlib.pyplot as plt

        number = getattr(fig, "number", None)
        if number is not None and plt.fignum_exists(number) and _inline():
            # shown here, once: closed in pyplot, the inline backend does not show it again at the end of the
            # cell (which it would do only for a figure drawn while interactive, so it cannot be relied on)
            plt.close(fig)
        from IPython.display import publish_display_data

        data, meta = figure_bundle(fig)
        publish_display_data(data, meta)
        return None

    fig._ipython_display_ = display
    return fig


def _inline() -> bool:
    import matplotlib

    return "inline" in matplotlib.get_backend().lower()


def _plt():
    import matplotlib

    if matplotlib.get_backend().lower() not in ("module://matplotlib_inline.backend_inline", "inline"):
        try:
            import IPython  # noqa: F401

            in_kernel = IPython.get_ipython() is not None
        except ImportError:
            in_kernel = False
        if not in_kernel:
            matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


use_hangul_font()


def _cmap():
    from matplotlib.colors import BoundaryNorm, ListedColormap

    cmap = ListedColormap([STATUS_COLORS[s] for s in STATUS_ORDER])
    return cmap, BoundaryNorm(range(len(STATUS_ORDER) + 1), cmap.N)


def tz_label(tz) -> str:
    """How a report names its time zone: ``UTC``, ``KST`` (Asia/Seoul), else the zone's name.

    >>> tz_label("Asia/Seoul"), tz_label("UTC")
    ('KST', 'UTC')
    """
    name = str(tz) if tz is not None else "UTC"
    return {"Asia/Seoul": "KST", "UTC": "UTC", "Etc/UTC": "UTC"}.get(name, name)


def _days_tz(history: pd.DataFrame) -> str:
    """The time zone of a history frame's ``date`` (the status API's: UTC; a report's daily frame: its own)."""
    tz = getattr(history["date"].dtype, "tz", None) if "date" in history else None
    return tz_label(tz)


def _ink(color: str) -> str:
    """Black or white, whichever reads on ``color`` (WCAG relative luminance)."""
    from matplotlib.colors import to_rgb

    def channel(c):
        return c / 12.92 if c <= 0.04045 else ((c + 0.055) / 1.055) ** 2.4

    r, g, b = (channel(c) for c in to_rgb(color))
    luminance = 0.2126 * r + 0.7152 * g + 0.0722 * b
    return "black" if (luminance + 0.05) / 0.05 >= 1.05 / (luminance + 0.05) else "white"


def _status_grid(history: pd.DataFrame, by: str, names: bool = False) -> pd.DataFrame:
    """Rows (products or APIs; their ids, or with ``names`` the names the status API gives them) × days (month-day
    in the frame's time zone) of status codes (STATUS_ORDER index)."""
    if by == "product":
        rows, key = history[history["apiId"].isna()], "productId"
    else:
        rows, key = history[history["apiId"].notna()], "apiId"
    if names:
        label = "productName" if by == "product" else "apiName"
        if label in rows:
            rows = rows.assign(**{key: rows[label].astype("string").fillna(rows[key].astype("string"))})
    codes = rows.assign(code=rows["status"].cat.codes, day=rows["date"].dt.strftime("%m-%d"))
    grid = codes.pivot_table(index=key, columns="day", values="code", aggfunc="max", observed=True)
    days = sorted(history["date"].dt.strftime("%m-%d").unique())
    if by == "api":       # the status API lists an API only on the days it had an issue: the other days are GREEN
        grid = grid.reindex(columns=days).fillna(STATUS_ORDER.index("GREEN"))
    else:
        grid = grid.reindex(index=list(dict.fromkeys(rows[key])), columns=days)
    return grid


def heatmap_text(history: pd.DataFrame, by: str = "product", *, names: bool = False) -> str:
    """The text alternative of :func:`status_heatmap`: the days shown and, per row, its days that were not GREEN.

    >>> heatmap_text(tk.status.history(days=7))          # doctest: +SKIP
    "Each UTC day's worst status, 11-13 to 11-19 (7 days), per product: local RED on 11-15; ...; the other 4 GREEN every day."
    """
    if history.empty:
        return "No status data."
    grid = _status_grid(history, by, names)
    tz = _days_tz(history)
    days = list(grid.columns)
    head = (f"Each {tz} day's worst status, {days[0]} to {days[-1]} ({len(days)} day{'s' if len(days) > 1 else ''}), "
            f"per {'product' if by == 'product' else 'API'}: ")
    rows, quiet = [], []
    for name, codes in grid.iterrows():
        bad: dict[str, list] = {}
        for day, code in codes.items():
            if not pd.isna(code) and STATUS_ORDER[int(code)] != "GREEN":
                bad.setdefault(STATUS_ORDER[int(code)], []).append(day)
        if bad:
            rows.append(f"{name} " + ", ".join(f"{st} on {', '.join(d)}" for st, d in
                                               sorted(bad.items(), key=lambda kv: -STATUS_ORDER.index(kv[0]))))
        else:
            quiet.append(str(name))
    if quiet and rows:
        rows.append(f"{', '.join(quiet)}: GREEN every day" if len(quiet) < 3 else
                    f"the other {len(quiet)} GREEN every day")
    elif quiet:
        rows.append("every one GREEN every day")
    return head + "; ".join(rows) + "."


def status_heatmap(history: pd.DataFrame, by: str = "product", ax=None, *, names: bool = False,
                   legend: str = "right"):
    """Heatmap of a :meth:`StatusArea.history` frame: rows products (or APIs with ``by="api"``), columns the days of
    its ``date`` (the status API's UTC days; a report's days in its own time zone, e.g. KST), each cell the day's
    worst status: coloured (:data:`STATUS_COLORS`, colour-blind safe) and lettered (:data:`STATUS_MARKS`: R, Y, M,
    ?; a GREEN day is blank), so it reads without colour. The axes name the time zone: ``day (UTC, month-day)``
    and ``product`` (or ``API``). ``names``: rows named as the status API names them (else their ids);
    ``legend``: ``"right"`` or ``"below"``."""
    if by not in ("product", "api"):
        raise ValueError("by must be 'product' or 'api'")
    plt = _plt()
    if ax is None:
        _, ax = plt.subplots(figsize=(11, 3.5))
    grid = _status_grid(history, by, names)
    tz = _days_tz(history)
    cmap, norm = _cmap()
    values = grid.to_numpy(dtype=float)
    ax.imshow(values, aspect="auto", cmap=cmap, norm=norm, interpolation="nearest")
    for (i, j), code in pd.DataFrame(values).stack().items():
        status = STATUS_ORDER[int(code)]
        if STATUS_MARKS[status]:
            ax.text(j, i, STATUS_MARKS[status], ha="center", va="center", fontsize=9, fontweight="bold",
                    color=_ink(STATUS_COLORS[status]))
    ax.set_yticks(range(len(grid.index)), grid.index)
    step = max(1, len(grid.columns) // 15)
    ax.set_xticks(range(0, len(grid.columns), step), list(grid.columns)[::step], rotation=45, ha="right")
    ax.set_title(f"Daily status by {by}: each {tz} day's worst status")
    ax.set_xlabel(f"day ({tz}, month-day)")
    ax.set_ylabel(by if by == "product" else "API")
    from matplotlib.patches import Patch

    handles = [Patch(facecolor=STATUS_COLORS[s], edgecolor="#555555",
                     label=f"{STATUS_MARKS[s] or 'blank'}: {s} ({STATUS_MEANING[s]})") for s in reversed(STATUS_ORDER)]
    if legend == "below":
        ax.legend(handles=handles, loc="upper center", bbox_to_anchor=(0.5, -0.28), ncol=3, fontsize=8,
                  frameon=False)
    else:
        ax.legend(handles=handles, loc="upper left", bbox_to_anchor=(1.01, 1), fontsize=8, frameon=False,
                  title="cell: status", title_fontsize=8)
    return ax


def _when(updated, tz: str) -> str:
    zone = {"KST": "Asia/Seoul"}.get(tz, tz)
    return f"{pd.Timestamp(updated).tz_convert(zone):%Y-%m-%d %H:%M} {tz}"


def status_summary(current: pd.DataFrame, ax=None, *, tz: str = "UTC"):
    """Horizontal bar per product coloured by its current status and labelled with it (the status in words, and
    the APIs that have issues); the update time in ``tz`` (``"UTC"`` or ``"KST"``)."""
    plt = _plt()
    if ax is None:
        _, ax = plt.subplots(figsize=(11, 3))
    products = current[current["apiId"].isna()].reset_index(drop=True)
    issues = current[current["apiId"].notna()].groupby("productId")["apiId"].apply(list).to_dict()
    y = range(len(products))
    colors = [STATUS_COLORS[s] for s in products["status"].astype(str)]
    ax.barh(list(y), [1] * len(products), color=colors)
    for i, row in products.iterrows():
        note = ", ".join(issues.get(row["productId"], []))
        ax.text(0.02, i, f"{row['productId']}: {row['status']}" + (f"  ({note})" if note else ""), va="center",
                color=_ink(colors[i]), fontsize=9, fontweight="bold")
    ax.set_yticks([])
    ax.set_xticks([])
    updated = current.attrs.get("meta", {}).get("updatedAt")
    ax.set_title("Current status" + (f" (updated {_when(updated, tz)})" if updated is not None else ""))
    ax.invert_yaxis()
    return ax


def _current_text(current: pd.DataFrame, tz: str = "UTC", names: bool = False) -> str:
    products = current[current["apiId"].isna()]
    if names and "productName" in products:
        products = products.assign(label=products["productName"].astype("string").fillna(products["productId"]))
    else:
        products = products.assign(label=products["productId"])
    updated = current.attrs.get("meta", {}).get("updatedAt")
    when = f" (updated {_when(updated, tz)})" if updated is not None else ""
    issues = current[current["apiId"].notna()].groupby("productId")["apiId"].apply(list).to_dict()
    bad = [f"{r.label} {r.status}" + (f" ({', '.join(issues[r.productId])})" if r.productId in issues else "")
           for r in products.itertuples() if str(r.status) != "GREEN"]
    if not bad:
        return f"Current status{when}: every product GREEN."
    return f"Current status{when}: {'; '.join(bad)}; the other {len(products) - len(bad)} GREEN."


def status_report(current: pd.DataFrame, history: pd.DataFrame, by: str = "product"):
    """Figure with the current summary above the daily heatmap, with its text alternative (:func:`alt_text`):
    the current status and each row's days that were not GREEN."""
    plt = _plt()
    tz = _days_tz(history) if len(history) else "UTC"
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(11, 7), gridspec_kw={"height_ratios": [1, 1.3]})
    status_summary(current, ax=top, tz=tz)
    status_heatmap(history, by=by, ax=bottom)
    fig.tight_layout()
    return with_alt(fig, "Status figure. " + _current_text(current, tz) + " " + heatmap_text(history, by))


def _pct_column(table: pd.DataFrame) -> str:
    return "availability_pct" if "availability_pct" in table else "days_up_pct"


def status_weekly_figure(report):
    """The figure of a :class:`~toolkit.reports.StatusReport`: its window and time zone in the title, the
    availability per product (dots labelled with the figure and the time down), the heatmap of the window's days in
    the report's time zone, and under them the definition and the current status. It reads alone, as the PNG
    a report sends; its text alternative says the same in words.

    >>> fig = tk.status.weekly(week="KST").figure         # doctest: +SKIP
    """
    plt = _plt()
    tz = report.tz
    products = report.availability[report.availability["apiId"].isna()].copy()
    column = _pct_column(products)
    products = products.sort_values([column, "name"], ascending=[True, True], na_position="last")
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(10, 8.6), gridspec_kw={"height_ratios": [1, 1.25]})
    y = list(range(len(products)))
    pct = products[column].astype(float)
    lo = min(99.0, float(pct.min()) - 0.3) if pct.notna().any() else 99.0
    top.scatter(pct.fillna(lo), y, s=60, marker="o", color=OKABE_ITO["blue"], zorder=3)
    labels = []
    for value, row in zip(pct, products.itertuples()):
        if pd.isna(value):
            labels.append("no time counted")
        elif column == "availability_pct":
            extra = [f"{_duration(row.down_min)} down"] if row.down_min else []
            extra += [f"{_duration(row.degraded_min)} degraded"] if row.degraded_min else []
            extra += [f"{_duration(row.maintenance_min)} maintenance"] if row.maintenance_min else []
            labels.append(f"{value:.2f}%" + (f"  ({', '.join(extra)})" if extra else ""))
        else:
            labels.append(f"{value:.1f}% of the days counted")
    for value, i, text in zip(pct.fillna(lo), y, labels):
        top.annotate(text, (value, i), xytext=(-8, 0), textcoords="offset points", ha="right", va="center",
                     fontsize=9)
    top.set_yticks(y, list(products["name"].astype(str)))
    top.invert_yaxis()                              # the least available on top
    left = float(np.floor(10 * (lo - (100 - lo) * 1.2)) / 10)
    top.set_xlim(left, 100 + (100 - lo) * 0.05)
    top.grid(axis="x", color="#dddddd", zorder=0)
    what = ("minutes up ÷ minutes counted" if column == "availability_pct" else "days up ÷ days counted")
    top.set_xlabel(f"availability, % ({what}); the axis starts at {left:g}%, not 0")
    overall = _overall(products, column)
    top.set_title("Availability per product" + (f": all products together {overall}" if overall else ""))
    status_heatmap(report.daily, by="product", ax=bottom, names=True, legend="below")
    fig.suptitle(f"Status update, {report.window or f'{report.start} to {report.end}'}", fontsize=13,
                 fontweight="bold")
    notes = [f"All days and times in {tz}."]
    if report.current is not None and len(report.current):
        notes.append(_current_text(report.current, tz, names=True))
    fig.tight_layout(rect=(0, 0.04, 1, 1))
    fig.text(0.01, 0.005, " ".join(notes), fontsize=9, ha="left", va="bottom", wrap=True)
    listed = [f"{name} {text}" for name, text in zip(products["name"].astype(str), labels)]
    alt = (f"Status update figure for {report.window or report.start + ' to ' + report.end}, all times in {tz}. "
           + (f"All products together: {overall}. " if overall else "")
           + f"Availability per product ({what}): {'; '.join(listed)}. {heatmap_text(report.daily, names=True)} "
           + (_current_text(report.current, tz, names=True) if report.current is not None and len(report.current) else ""))
    return with_alt(fig, alt)


def _overall(products: pd.DataFrame, column: str) -> str:
    """All products together, as the report's paragraph says it: time up ÷ time counted (or days)."""
    if column == "availability_pct":
        counted = float(products["counted_min"].sum())
        return f"{100 * (counted - float(products['down_min'].sum())) / counted:.2f}% of the time counted" \
            if counted else ""
    from .reports import NOT_COUNTED, UP

    counted = float((products["days"] - products[list(NOT_COUNTED)].sum(axis=1)).sum())
    return f"{100 * float(products[list(UP)].sum(axis=1).sum()) / counted:.1f}% of the days counted" if counted else ""


def _duration(minutes) -> str:
    h, m = divmod(int(round(float(minutes))), 60)
    return f"{h} h {m:02d} min" if h else f"{m} min"


def category_mix(counts: pd.DataFrame, *, top: int = 7, title: str | None = None, xlabel: str | None = None,
                 ax=None):
    """Stacked horizontal bars of each row's mix of categories (``counts``: rows such as districts × a column per
    category, counts): the ``top`` largest categories and the rest as "other", each segment the category's share of
    the row. Colour-blind safe and readable without colour: each category has its own Okabe–Ito colour
    (:data:`CATEGORY_COLORS`, "other" grey) **and** its own hatch (:data:`CATEGORY_HATCHES`), shown in the legend;
    the figure carries a text alternative (the share range of each category and where it is largest). Returns the
    figure.

    >>> category_mix(shops_per_district, top=7, title="Category mix per district")   # doctest: +SKIP
    """
    if not isinstance(counts, pd.DataFrame) or counts.empty:
        from .errors import ParameterError

        raise ParameterError("counts", "must be a non-empty DataFrame: rows × a column of counts per category",
                             type(counts).__name__)
    plt = _plt()
    if ax is None:
        _, ax = plt.subplots(figsize=(9, 6))
    totals = counts.sum(axis=1)
    share = counts.div(totals.where(totals > 0), axis=0).fillna(0)
    keep = list(counts.sum().sort_values(ascending=False).index[:top])
    rest = [c for c in counts.columns if c not in keep]
    plot = share[keep].copy()
    if rest:
        plot["other"] = share[rest].sum(axis=1)
    colors = CATEGORY_COLORS + [OKABE_ITO["black"]]
    left = pd.Series(0.0, index=plot.index)
    y = list(range(len(plot)))
    for i, column in enumerate(plot.columns):
        other = bool(rest) and i == len(plot.columns) - 1
        color = NEUTRAL if other else colors[i % len(colors)]
        ax.barh(y, plot[column], left=left, height=0.8, color=color, label=str(column),
                hatch=CATEGORY_HATCHES[i % len(CATEGORY_HATCHES)],
                edgecolor="white" if _ink(color) == "white" else "#333333", linewidth=0.4)
        left += plot[column]
    ax.set_yticks(y, [str(i) for i in plot.index])
    ax.set_xlim(0, 1)
    ax.invert_yaxis()
    ax.set_xlabel(xlabel or "share of the row's total")
    shown = f"the {len(keep)} largest groups" + (f" and the other {len(rest)} together" if rest else "")
    ax.set_title(title or f"Category mix: {shown}")
    ax.legend(ncol=4, loc="upper center", bbox_to_anchor=(0.5, -0.1), frameon=False, handleheight=1.6,
              handlelength=2.4)
    fig = ax.figure
    fig.tight_layout()
    parts = []
    for column in plot.columns:
        values = plot[column]
        parts.append(f"{column} {100 * values.min():.0f}–{100 * values.max():.0f}% (most in {values.idxmax()})")
    alt = (f"Stacked bar chart \"{ax.get_title()}\": one bar per {plot.index.name or 'row'} ({len(plot)}), "
           f"split into the shares of {shown}. Share per group, lowest–highest: " + "; ".join(parts) + ".")
    return with_alt(fig, alt)
