"""matplotlib reports. Imported lazily: ``import toolkit`` never imports matplotlib.

>>> fig = status_report(tk.status.current(), tk.status.history())     # doctest: +SKIP

Importing this module registers the bundled Hangul font (NanumGothic, :mod:`toolkit.fonts`) with matplotlib
and adds it to the sans-serif fallback list, so any plot drawn afterwards — the toolkit's and your own, e.g. a
title "서면 카페" or place names as tick labels — draws Hangul instead of boxes, with no "Glyph … missing"
warnings; Latin text keeps matplotlib's default font. Every toolkit call that draws imports this module first.

>>> import toolkit.plots                                              # doctest: +SKIP
>>> df.plot.bar(title="서면 카페")                                    # doctest: +SKIP
"""
from __future__ import annotations

import pandas as pd

from .frames import STATUS_ORDER

__all__ = ["status_heatmap", "status_summary", "status_report", "STATUS_COLORS", "use_hangul_font"]


STATUS_COLORS = {"UNKNOWN": "#bdbdbd", "GREEN": "#2e7d32", "MAINTENANCE": "#1565c0", "YELLOW": "#f9a825",
                 "RED": "#c62828"}


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


def shown_once(fig):
    """``fig``, displayed once in a notebook when it is a cell's last expression. The inline backend shows every
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
        from IPython.display import display as show

        manager = getattr(fig, "_ipython_display_", None)
        try:
            del fig._ipython_display_         # the figure's own display (png), once
            show(fig)
        finally:
            fig._ipython_display_ = manager
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


def status_heatmap(history: pd.DataFrame, by: str = "product", ax=None):
    """Heatmap of a :meth:`StatusArea.history` frame: rows products (or APIs with ``by="api"``), columns UTC days
    (the status API's days; a day in Seoul, KST, starts at 15:00 UTC the day before), each cell the day's worst
    status. The axes say so: ``day (UTC, month-day)`` and ``product`` (or ``API``)."""
    if by not in ("product", "api"):
        raise ValueError("by must be 'product' or 'api'")
    plt = _plt()
    if ax is None:
        _, ax = plt.subplots(figsize=(11, 3.5))
    if by == "product":
        rows = history[history["apiId"].isna()]
        key = "productId"
    else:
        rows = history[history["apiId"].notna()]
        key = "apiId"
    codes = rows.assign(code=rows["status"].cat.codes, day=rows["date"].dt.strftime("%m-%d"))
    grid = codes.pivot_table(index=key, columns="day", values="code", aggfunc="max", observed=True)
    if by == "api":
        days = sorted(history["date"].dt.strftime("%m-%d").unique())
        grid = grid.reindex(columns=days).fillna(STATUS_ORDER.index("GREEN"))
    else:
        grid = grid.reindex(index=list(dict.fromkeys(rows[key])))
    cmap, norm = _cmap()
    ax.imshow(grid.to_numpy(dtype=float), aspect="auto", cmap=cmap, norm=norm, interpolation="nearest")
    ax.set_yticks(range(len(grid.index)), grid.index)
    step = max(1, len(grid.columns) // 15)
    ax.set_xticks(range(0, len(grid.columns), step), list(grid.columns)[::step], rotation=45, ha="right")
    ax.set_title(f"Daily status by {by}: each UTC day's worst status")
    ax.set_xlabel("day (UTC, month-day)")
    ax.set_ylabel(by if by == "product" else "API")
    from matplotlib.patches import Patch

    ax.legend(handles=[Patch(color=STATUS_COLORS[s], label=s) for s in STATUS_ORDER], loc="upper left",
              bbox_to_anchor=(1.01, 1), fontsize=8, frameon=False)
    return ax


def status_summary(current: pd.DataFrame, ax=None):
    """Horizontal bar per product coloured by its current status, annotated with the APIs that have issues."""
    plt = _plt()
    if ax is None:
        _, ax = plt.subplots(figsize=(11, 3))
    products = current[current["apiId"].isna()].reset_index(drop=True)
    issues = current[current["apiId"].notna()].groupby("productId")["apiId"].apply(list).to_dict()
    y = range(len(products))
    ax.barh(list(y), [1] * len(products), color=[STATUS_COLORS[s] for s in products["status"].astype(str)])
    for i, row in products.iterrows():
        note = ", ".join(issues.get(row["productId"], []))
        ax.text(0.02, i, f"{row['productId']}: {row['status']}" + (f"  ({note})" if note else ""), va="center",
                color="white", fontsize=9, fontweight="bold")
    ax.set_yticks([])
    ax.set_xticks([])
    updated = current.attrs.get("meta", {}).get("updatedAt")
    ax.set_title("Current status" + (f" (updated {updated:%Y-%m-%d %H:%M} UTC)" if updated is not None else ""))
    ax.invert_yaxis()
    return ax


def status_report(current: pd.DataFrame, history: pd.DataFrame, by: str = "product"):
    """Figure with the current summary above the daily heatmap."""
    plt = _plt()
    fig, (top, bottom) = plt.subplots(2, 1, figsize=(11, 7), gridspec_kw={"height_ratios": [1, 1.3]})
    status_summary(current, ax=top)
    status_heatmap(history, by=by, ax=bottom)
    fig.tight_layout()
    return fig
