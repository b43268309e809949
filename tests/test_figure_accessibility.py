"""Accessible figures (issue 42.6): every figure the reports and lessons make carries a text alternative, stored with
the output (the ``image/png`` metadata ``alt`` and an ``<img alt>`` in ``text/html``) and kept by
``jupyter nbconvert --to html``; the status and category colours stay apart under simulated colour-vision
deficiencies, and each figure says what a colour means without colour (letters, hatches, markers)."""
from __future__ import annotations

import itertools
import json
import subprocess
import sys
from pathlib import Path

import matplotlib
import pandas as pd
import pytest

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402

from toolkit import plots  # noqa: E402
from toolkit.frames import STATUS_ORDER  # noqa: E402

NOTEBOOKS = Path(__file__).resolve().parents[1] / "notebooks"
#: the walkthroughs whose stored outputs hold figures
WITH_FIGURES = ["00_quickstart", "01_login_and_consent", "03a_story_and_messenger", "06_whole_city",
                "07_manager_report"]

#: the published Okabe–Ito values ("Color Universal Design", Okabe & Ito 2008)
OKABE_ITO = {"orange": "#E69F00", "sky blue": "#56B4E9", "bluish green": "#009E73", "yellow": "#F0E442",
             "blue": "#0072B2", "vermillion": "#D55E00", "reddish purple": "#CC79A7", "black": "#000000"}
#: how far apart two colours of one figure must stay, in CAM02-UCS ΔE (about 1 is a just-noticeable difference):
#: under simulated deuteranopia and protanopia (Machado et al. 2009, severity 100) and in normal vision; tritanopia,
#: much rarer, a little less
APART = {None: 15, "deuteranomaly": 15, "protanomaly": 15, "tritanomaly": 10}


def _closest(colors: dict[str, str], cvd: str | None) -> tuple[float, str, str]:
    """The closest pair of ``colors`` as seen with the deficiency ``cvd`` (None: normal vision)."""
    cs = pytest.importorskip("colorspacious")
    import numpy as np
    from matplotlib.colors import to_rgb

    seen = {}
    for name, color in colors.items():
        rgb = np.array(to_rgb(color))
        if cvd is not None:
            rgb = np.clip(cs.cspace_convert(rgb, {"name": "sRGB1+CVD", "cvd_type": cvd, "severity": 100}, "sRGB1"),
                          0, 1)
        seen[name] = rgb
    return min((float(cs.deltaE(seen[a], seen[b], input_space="sRGB1")), a, b)
               for a, b in itertools.combinations(seen, 2))


@pytest.mark.parametrize("cvd", list(APART))
def test_status_colours_stay_apart_with_colour_blindness(cvd):
    assert set(plots.STATUS_COLORS) == set(STATUS_ORDER)
    assert set(plots.STATUS_COLORS.values()) - {plots.NEUTRAL} <= {c.upper() for c in OKABE_ITO.values()}
    assert plots.OKABE_ITO == OKABE_ITO
    distance, a, b = _closest(plots.STATUS_COLORS, cvd)
    assert distance >= APART[cvd], (cvd, a, b, distance)


def test_the_former_status_colours_fail_the_same_check():
    """The bound means something: the former greens and reds (#2e7d32, #c62828) merge for a deuteranope."""
    former = {"UNKNOWN": "#bdbdbd", "GREEN": "#2e7d32", "MAINTENANCE": "#1565c0", "YELLOW": "#f9a825",
              "RED": "#c62828"}
    distance, a, b = _closest(former, "deuteranomaly")
    assert distance < APART["deuteranomaly"] and {a, b} == {"GREEN", "RED"}


@pytest.mark.parametrize("cvd", list(APART))
def test_category_colours_stay_apart_with_colour_blindness(cvd):
    colors = {f"c{i}": c for i, c in enumerate(plots.CATEGORY_COLORS)} | {"other": plots.NEUTRAL}
    assert set(plots.CATEGORY_COLORS) <= set(OKABE_ITO.values())
    distance, a, b = _closest(colors, cvd)
    # eight categories cannot all be far apart for every reader: the bound is lower, and each has its hatch too
    assert distance >= 8, (cvd, a, b, distance)
    assert len(set(plots.CATEGORY_HATCHES)) == len(plots.CATEGORY_HATCHES) >= len(colors)


def _history() -> pd.DataFrame:
    days = pd.date_range("2026-11-14", periods=4, freq="D", tz="UTC")
    statuses = {"local": ["GREEN", "RED", "YELLOW", "GREEN"], "login": ["MAINTENANCE", "GREEN", "GREEN", "UNKNOWN"]}
    rows = [{"date": d, "productId": p, "productName": p.title(), "apiId": None, "apiName": None, "status": st}
            for p, sts in statuses.items() for d, st in zip(days, sts)]
    df = pd.DataFrame(rows)
    df["status"] = pd.Categorical(df["status"], categories=STATUS_ORDER, ordered=True)
    return df


def test_the_status_heatmap_reads_without_colour():
    ax = plots.status_heatmap(_history())
    try:
        letters = sorted(t.get_text() for t in ax.texts)
        assert letters == sorted(["R", "Y", "M", "?"])            # each non-GREEN day is lettered; GREEN is blank
        legend = [t.get_text() for t in ax.get_legend().get_texts()]
        assert "R: RED (outage)" in legend and "blank: GREEN (up)" in legend and "M: MAINTENANCE (planned, " \
            "not counted)" in legend
        text = plots.heatmap_text(_history())
        assert text == ("Each UTC day's worst status, 11-14 to 11-17 (4 days), per product: local RED on 11-15, "
                        "YELLOW on 11-16; login MAINTENANCE on 11-14, UNKNOWN on 11-17.")
    finally:
        plt.close(ax.figure)


def test_the_status_figure_has_a_text_alternative():
    current = pd.DataFrame([{"productId": "local", "apiId": None, "status": "GREEN"},
                            {"productId": "login", "apiId": None, "status": "YELLOW"},
                            {"productId": "login", "apiId": "login_token", "status": "YELLOW"}])
    current["status"] = pd.Categorical(current["status"], categories=STATUS_ORDER, ordered=True)
    fig = plots.status_report(current, _history())
    try:
        alt = plots.alt_text(fig)
        assert alt.startswith("Status figure. Current status: login YELLOW (login_token); the other 1 GREEN.")
        assert "local RED on 11-15" in alt
        # the status bars' labels are dark on light colours and light on dark ones (contrast)
        bars = fig.axes[0]
        ink = {t.get_text().split(":")[0]: t.get_color() for t in bars.texts}
        assert ink == {"local": "black", "login": "black"}
        assert plots._ink(plots.STATUS_COLORS["MAINTENANCE"]) == "white"
    finally:
        plt.close(fig)


def test_the_category_chart_is_hatched_labelled_and_described():
    counts = pd.DataFrame({"restaurant": [60, 50], "cafe": [10, 30], "bank": [5, 5], "school": [1, 2]},
                          index=pd.Index(["중구", "서구"], name="district"))
    fig = plots.category_mix(counts, top=2, title="Mix")
    try:
        ax = fig.axes[0]
        labels = [t.get_text() for t in ax.get_legend().get_texts()]
        assert labels == ["restaurant", "cafe", "other"]
        by_label = {c.get_label(): {p.get_hatch() or "" for p in c.patches} for c in ax.containers}
        assert all(len(h) == 1 for h in by_label.values())                   # one hatch per group ...
        assert len({next(iter(h)) for h in by_label.values()}) == 3         # ... and each its own
        assert [p.get_hatch() or "" for p in ax.get_legend().get_patches()] == [next(iter(by_label[k])) for k in labels]
        alt = plots.alt_text(fig)
        assert alt.startswith('Stacked bar chart "Mix": one bar per district (2)')
        assert "restaurant 57–79% (most in 중구)" in alt and "other" in alt
    finally:
        plt.close(fig)
    with pytest.raises(Exception, match="counts"):
        plots.category_mix(pd.DataFrame())


def test_a_plain_pandas_chart_gets_a_text_alternative_from_what_it_draws():
    summary = pd.DataFrame({"friends": [22, 5], "favorites": [6, 1]}, index=pd.Index(["Korean", "emoji"], name="s"))
    ax = summary.plot.bar(rot=0, title="Friends by script")
    fig = plots.with_alt(ax.figure)
    try:
        assert plots.alt_text(fig) == ('Bar chart "Friends by script" (x: s). friends: Korean 22, emoji 5. '
                                       'favorites: Korean 6, emoji 1.')
    finally:
        plt.close(fig)
    with pytest.raises(Exception, match="alt"):
        plots.with_alt(plt.figure(), "  ")
    plt.close("all")


def test_the_display_bundle_stores_the_text_with_the_image():
    fig = plots.with_alt(plt.figure(figsize=(1, 1)), 'Shares of "cafés" & <bakeries>: 서면 40%.')
    try:
        data, meta = plots.figure_bundle(fig)
    finally:
        plt.close(fig)
    assert meta["image/png"]["alt"] == 'Shares of "cafés" & <bakeries>: 서면 40%.' == data["text/plain"]
    html = data["text/html"]
    assert html.startswith('<img src="data:image/png;base64,' + data["image/png"][:20])
    assert 'alt="Shares of &quot;cafés&quot; &amp; &lt;bakeries&gt;: 서면 40%."' in html


def _figure_outputs(name: str):
    nb = json.loads((NOTEBOOKS / f"{name}.ipynb").read_text("utf-8"))
    for i, cell in enumerate(nb["cells"]):
        for out in cell.get("outputs", []):
            if "image/png" in out.get("data", {}):
                yield i, out


@pytest.mark.parametrize("name", WITH_FIGURES)
def test_every_stored_figure_carries_its_text_alternative(name):
    found = list(_figure_outputs(name))
    assert found, f"{name} stores no figure"
    for i, out in found:
        alt = out.get("metadata", {}).get("image/png", {}).get("alt")
        assert alt and len(alt.split()) >= 8, (name, i, alt)
        html = "".join(out["data"].get("text/html", ""))
        assert f'alt="{__import__("html").escape(alt, quote=True)}"' in html, (name, i)
        assert "".join(out["data"]["text/plain"]) == alt
        assert not alt.startswith("<Figure")


def test_the_html_export_keeps_the_text_alternatives(tmp_path):
    """``jupyter nbconvert --to html`` (its default template, lab) shows the ``text/html`` of an output before its
    PNG: each figure's ``<img>`` has the alt stored with it, and nbconvert finds no image without one."""
    from bs4 import BeautifulSoup

    name = "07_manager_report"
    done = subprocess.run([sys.executable, "-m", "jupyter", "nbconvert", "--to", "html", "--output-dir",
                           str(tmp_path), str(NOTEBOOKS / f"{name}.ipynb")], capture_output=True, text=True,
                          timeout=120, env={"HOME": str(tmp_path), "PATH": "/usr/bin:/bin",
                                            "JUPYTER_PLATFORM_DIRS": "1"})
    assert done.returncode == 0, done.stderr[-2000:]
    assert "Alternative text is missing" not in done.stderr
    soup = BeautifulSoup((tmp_path / f"{name}.html").read_text("utf-8"), "html.parser")
    alts = [img.get("alt") for img in soup.find_all("img")]
    stored = [out["metadata"]["image/png"]["alt"] for _, out in _figure_outputs(name)]
    assert alts == stored and len(alts) == 2
    assert any(a.startswith("Bar chart: consent per item, agreed ÷ n.") for a in alts)
    assert any(a.startswith("Status update figure for 2026-11-13 to 2026-11-19") for a in alts)


@pytest.mark.parametrize("module", ["toolkit.plots", "toolkit.reports"])
def test_the_docstring_examples_run(module):
    import doctest
    import importlib

    result = doctest.testmod(importlib.import_module(module))
    assert result.failed == 0 and result.attempted > 0
