"""toolkit's Jupyter extensions: the server extension's Hangul font route (a real ``jupyter server`` with the
checkout's config, as ``toolkit lab`` starts it in a checkout: the session's ``checkout_jupyter_server``), the
shipped subsets, and the built lab extension against its source. The browser side is tests/browser/test_lab_hangul.py."""
from __future__ import annotations

import json
import re
import time
from pathlib import Path

import httpx
import pytest

from toolkit.jupyter import fonts

REPO = Path(__file__).resolve().parents[1]
BUILT = REPO / "toolkit" / "jupyter" / "labextension"
SOURCE = REPO / "labextension"


def test_font_names_are_looked_up_never_joined_to_a_folder():
    assert fonts.font_bytes("NanumGothic-hangul.woff2")[:4] == b"wOF2"
    assert fonts.font_bytes("NanumGothicBold-hangul.woff2")[:4] == b"wOF2"
    for name in ("../fonts.py", "NanumGothic.ttf", "", "hangul/README.md"):
        assert fonts.font_bytes(name) is None


def test_the_shipped_subsets_hold_every_hangul_code_point_of_nanumgothic_and_nothing_else():
    pytest.importorskip("brotli")
    from fontTools.ttLib import TTFont

    from toolkit.fonts import hangul_font_path

    wanted = {u for lo, hi in fonts.HANGUL_RANGES for u in range(lo, hi + 1)}
    for name, bold in fonts.FACES.items():
        with TTFont(str(fonts.FONT_DIR / name)) as shipped, TTFont(str(hangul_font_path(bold)), lazy=True) as font:
            source = set(font.getBestCmap())
            assert shipped.flavor == "woff2"
            assert set(shipped.getBestCmap()) == source & wanted
            assert len(source & wanted) >= 11172           # every modern syllable
            assert shipped["name"].getDebugName(2) == ("Bold" if bold else "Regular")


def test_the_built_lab_extension_is_built_from_its_source():
    package = json.loads((BUILT / "package.json").read_text())
    source = json.loads((SOURCE / "package.json").read_text())
    assert package["name"] == source["name"] == "toolkit-jupyter"
    assert (BUILT / package["jupyterlab"]["_build"]["load"]).is_file()
    built_js = "".join(p.read_text("utf-8") for p in (BUILT / "static").glob("*.js"))
    src = "".join(p.read_text("utf-8") for p in sorted((SOURCE / "src").glob("*.js")))
    for text in (fonts.UNICODE_RANGE, *fonts.FACES, "toolkit-hangul", "toolkit-jupyter:hangul-font",
                 "toolkit-jupyter:static-widgets", "toolkit-static-widget", "toolkit-widget-replaced",
                 "Error displaying widget"):
        assert text in src and text in built_js, text
    # every exported function of the source is in the built bundle under its name (index.js exports them all;
    # the minifier renames the others): a change to src/ without a rebuild shows here
    exported = re.findall(r"^export function (\w+)", src, re.M)
    assert {"fontFaces", "redrawHangul", "brokenView", "staticHtml", "showStaticViews"} <= set(exported)
    for name in exported:
        assert re.search(rf"\b{name}:", built_js), name
    # the style that hides a replaced widget view is built in too
    built_css = "".join(p.read_text("utf-8") for p in (BUILT / "static").glob("*.js"))
    assert ".toolkit-widget-replaced" in built_css
    assert (SOURCE / "package-lock.json").is_file()


def test_the_server_serves_the_font_under_its_base_url_with_cache_headers(checkout_jupyter_server):
    server = checkout_jupyter_server
    for name, bold in fonts.FACES.items():
        r = server.get(f"toolkit/fonts/{name}")
        assert r.status_code == 200 and r.content == fonts.font_bytes(name)
        assert r.headers["content-type"] == "font/woff2"
        assert r.headers["cache-control"] == "private, max-age=604800"
        again = server.get(f"toolkit/fonts/{name}", headers={"If-None-Match": r.headers["etag"]})
        assert again.status_code == 304 and again.content == b""
    missing = server.get("toolkit/fonts/NanumGothic.ttf")
    assert missing.status_code == 404 and "NanumGothic-hangul.woff2" in missing.text
    # not under the base URL; not without login (a browser is sent to the login page)
    assert server.base_url == "/user/ann/"
    assert httpx.get(f"http://127.0.0.1:{server.port}/toolkit/fonts/NanumGothic-hangul.woff2",
                     headers={"Authorization": f"token {server.token}"}).status_code == 404
    anonymous = server.get("toolkit/fonts/NanumGothic-hangul.woff2", auth=False)
    assert anonymous.status_code in (302, 403) and anonymous.content != fonts.font_bytes("NanumGothic-hangul.woff2")
    server.get("toolkit/fonts/nope.woff2", auth=False, params={"token": server.token})
    time.sleep(0.5)
    assert server.token not in server.output(), "the token reached the server's log"
