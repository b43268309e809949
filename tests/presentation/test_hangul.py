"""Hangul in matplotlib (the bundled NanumGothic, registered when matplotlib loads in a process that imported
toolkit, or by importing toolkit.plots), on machines with and without a NanumGothic of their own, and in the
sandbox's HTML pages (served as a web font)."""
from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
import warnings

import httpx
import pytest

from toolkit.fonts import hangul_font_path

SCRIPT = r"""
import io, json, sys, warnings
import matplotlib
matplotlib.use("Agg")
{trigger}
assert "matplotlib.font_manager" not in sys.modules or "{trigger}" != "import toolkit", "import toolkit imported matplotlib"
import matplotlib.pyplot as plt
from matplotlib import font_manager
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
hangul_default = pixels("서면")
hangul_nanum = pixels("서면", family="NanumGothic")
print(json.dumps({{
    "nanum": str(nanum),
    "nanum_family": font_manager.get_font(nanum).family_name,
    "in_fallback": nanum in found,
    "latin": str(font_manager.findfont(font_manager.FontProperties())),
    "hangul_same": bool((hangul_default == hangul_nanum).all()),
    "hangul_drawn": bool((hangul_default != 255).any()),
    "latin_same": bool((pixels("Abc") == pixels("Abc", family="DejaVu Sans")).all()),
}}))
"""


def _user_font_home(tmp_path, with_font: bool) -> dict[str, str]:
    """The environment of a user whose home (a fresh one) has, or has not, its own NanumGothic in
    ``~/.local/share/fonts`` and ``~/.fonts`` (where fontconfig and matplotlib look, like a system font), with a
    matplotlib cache of its own (so the font list is built from this machine's and this home's fonts)."""
    home = tmp_path / "home"
    for folder in (home / ".local" / "share" / "fonts", home / ".fonts"):
        folder.mkdir(parents=True)
        if with_font:
            shutil.copyfile(hangul_font_path(), folder / "NanumGothic.ttf")
    env = {k: v for k, v in os.environ.items() if not k.startswith(("MPL", "XDG_", "TOOLKIT_"))}
    env.update(HOME=str(home), MPLCONFIGDIR=str(tmp_path / "mpl"))
    return env


@pytest.mark.parametrize("trigger", ["import toolkit", "import toolkit.plots"])
@pytest.mark.parametrize("user_font", [False, True], ids=["the machine's fonts", "plus a NanumGothic of the user's"])
def test_hangul_plots_draw_with_nanumgothic_whichever_is_found_and_no_glyph_warning(tmp_path, trigger, user_font):
    """Hangul draws with a NanumGothic, the bundled one or one the machine or the user has (Debian's fonts-nanum:
    matplotlib then finds that one first), after ``import toolkit`` alone (nothing of matplotlib imported by it)
    as after ``import toolkit.plots``."""
    # a subprocess: a clean matplotlib state (no font registered before the import under test)
    run = subprocess.run([sys.executable, "-c", SCRIPT.format(trigger=trigger)], capture_output=True, text=True,
                         timeout=180, env=_user_font_home(tmp_path, user_font))
    assert run.returncode == 0, run.stderr[-2000:]
    seen = json.loads(run.stdout.strip().splitlines()[-1])
    assert seen["nanum_family"] == "NanumGothic", seen
    if user_font:
        assert seen["nanum"] != str(hangul_font_path()), "the user's NanumGothic is the one matplotlib finds"
    assert seen["in_fallback"], "the default font properties fall back on NanumGothic"
    assert seen["latin"].endswith("DejaVuSans.ttf"), "Latin text keeps matplotlib's default font"
    assert seen["hangul_drawn"] and seen["hangul_same"], "Hangul in default text is drawn with NanumGothic's glyphs"
    assert seen["latin_same"], "Latin text is drawn exactly as before"


def test_import_toolkit_leaves_matplotlib_alone_when_asked(tmp_path):
    code = ("import toolkit, matplotlib.pyplot as plt, matplotlib; "
            "print('NanumGothic' in matplotlib.rcParams['font.family'])")
    for value, expected in (("1", "False"), ("", "True")):
        env = {**_user_font_home(tmp_path / value, False), "TOOLKIT_NO_MPL_FONT": value, "MPLBACKEND": "Agg"}
        run = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, timeout=180, env=env)
        assert run.returncode == 0 and run.stdout.strip() == expected, (value, run.stdout, run.stderr[-2000:])


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
