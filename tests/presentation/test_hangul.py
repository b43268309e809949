"""Hangul in matplotlib (the bundled NanumGothic, registered by importing toolkit.plots) and in the sandbox's
HTML pages (served as a web font)."""
from __future__ import annotations

import io
import subprocess
import sys
import warnings

import httpx
import pytest

from toolkit.fonts import hangul_font_path

SCRIPT = r"""
import io, warnings
import matplotlib
matplotlib.use("Agg")
import matplotlib.pyplot as plt
from matplotlib import font_manager
import toolkit.plots  # registers the font
import numpy as np

warnings.simplefilter("error")          # a 'Glyph ... missing' warning fails the script


def pixels(text, **kw):
    fig = plt.figure(figsize=(2, 1), dpi=60)
    fig.text(0.05, 0.4, text, fontsize=20, **kw)
    buf = io.BytesIO()
    fig.savefig(buf, format="rgba")
    plt.close(fig)
    return np.frombuffer(buf.getvalue(), dtype=np.uint8)


fig, ax = plt.subplots()
ax.set_title("서면 카페 −12 (Latin and Hangul)")
ax.bar(["해운대구", "부산진구", "Seomyeon"], [3, -2, 1])
fig.canvas.draw()
plt.close(fig)

nanum = font_manager.findfont(font_manager.FontProperties(family="NanumGothic"), fallback_to_default=False)
found = [str(f) for f in font_manager.fontManager._find_fonts_by_props(font_manager.FontProperties())]
latin = font_manager.findfont(font_manager.FontProperties())
hangul_default = pixels("서면")
hangul_nanum = pixels("서면", family="NanumGothic")
latin_default = pixels("Abc")
latin_dejavu = pixels("Abc", family="DejaVu Sans")
print(str(nanum))
print(nanum in found)
print(str(latin))
print(bool((hangul_default == hangul_nanum).all()), bool((hangul_default != 255).any()))
print(bool((latin_default == latin_dejavu).all()))
"""


def test_hangul_plots_draw_with_the_bundled_font_and_no_glyph_warning():
    # a subprocess: a clean matplotlib state (no font registered before the import under test)
    run = subprocess.run([sys.executable, "-c", SCRIPT], capture_output=True, text=True, timeout=120)
    assert run.returncode == 0, run.stderr[-2000:]
    nanum, in_fallback, latin, hangul_same, latin_same = run.stdout.split("\n")[:5]
    assert nanum == str(hangul_font_path()), "NanumGothic resolves to the bundled TTF, never a system font"
    assert in_fallback == "True", "the default font properties fall back on NanumGothic"
    assert latin.endswith("DejaVuSans.ttf"), "Latin text keeps matplotlib's default font"
    assert hangul_same == "True True", "Hangul in default text is drawn with NanumGothic's glyphs"
    assert latin_same == "True", "Latin text is drawn exactly as before"


def test_registration_is_idempotent_and_keeps_the_minus_sign():
    import matplotlib

    from toolkit.plots import use_hangul_font

    use_hangul_font()
    before = (list(matplotlib.rcParams["font.family"]), list(matplotlib.rcParams["font.sans-serif"]))
    assert use_hangul_font() == "NanumGothic"
    after = (list(matplotlib.rcParams["font.family"]), list(matplotlib.rcParams["font.sans-serif"]))
    assert before == after and after[0].count("NanumGothic") == 1
    assert matplotlib.rcParams["axes.unicode_minus"] is True   # U+2212 still comes from DejaVu Sans


def test_consent_chart_registers_the_font(fresh_tk):
    import matplotlib

    matplotlib.use("Agg")
    import pandas as pd

    report = pd.DataFrame({"profile": [True, False], "배송지": [True, True]})
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        ax = fresh_tk.user.plot_consent(report)
        ax.set_title("동의율 서면")
        ax.figure.canvas.draw()
    assert "NanumGothic" in matplotlib.rcParams["font.family"]


@pytest.mark.parametrize("name", ["NanumGothic.ttf", "NanumGothicBold.ttf"])
def test_the_sandbox_serves_the_font_with_caching_headers(sandbox_server, name):
    r = httpx.get(f"{sandbox_server.base_url}/sandbox/fonts/{name}")
    assert r.status_code == 200
    assert r.headers["content-type"] == "font/ttf"
    assert "max-age=86400" in r.headers["cache-control"]
    from fontTools.ttLib import TTFont

    served = TTFont(io.BytesIO(r.content))
    bundled = TTFont(str(hangul_font_path(bold=name.endswith("Bold.ttf"))))
    assert not [t for t in served.keys() if t.startswith("TSI")]   # browsers reject the font with them
    assert served["cmap"].getBestCmap() == bundled["cmap"].getBestCmap()
    assert served.getGlyphOrder() == bundled.getGlyphOrder()
    assert httpx.get(f"{sandbox_server.base_url}/sandbox/fonts/other.ttf").status_code == 404


def test_every_sandbox_page_declares_the_web_font(fresh_tk):
    tk = fresh_tk
    base = tk.sandbox.base_url
    request = tk.oauth.authorize_url(["profile"], redirect_uri=base + "/sandbox/callback")
    pages = {"login": httpx.get(request.url, follow_redirects=True).text,
             "callback": httpx.get(base + "/sandbox/callback?code=x&state=y").text,
             "logged-out": httpx.get(base + "/sandbox/logged-out").text}
    for name, html in pages.items():
        assert "@font-face{font-family:'NanumGothic';src:url('/sandbox/fonts/NanumGothic.ttf')" in html, name
        assert "'NanumGothic'" in html.split("body{font-family:")[1].split(";")[0], name
