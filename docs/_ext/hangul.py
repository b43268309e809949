"""Hangul on every page of the site, on a machine with no Korean font (most): the bundled NanumGothic cut down
to Hangul (``toolkit/jupyter/hangul/``, the WOFF2 subsets toolkit's lab extension serves), limited to Hangul by
``unicode-range``, so a browser fetches it (about 220 KB, 290 KB for bold) only for a page that shows Hangul, from
the site itself. It leads the theme's font stacks: as the last fallback (the lab extension's place for it),
Chromium drew some Hangul of the page (the navigation) with the system font's missing-glyph boxes; everything
but Hangul still comes from the system fonts."""
from __future__ import annotations

import shutil
from pathlib import Path

CSS = "toolkit-hangul.css"
FAMILY = "toolkit-hangul"


def _css() -> str:
    from toolkit.jupyter.fonts import FACES, UNICODE_RANGE

    faces = "".join(f"@font-face{{font-family:{FAMILY};src:url(hangul/{name}) format('woff2');"
                    f"font-weight:{'bold' if bold else 'normal'};font-display:swap;unicode-range:{UNICODE_RANGE}}}\n"
                    for name, bold in FACES.items())
    return (faces + f"html:root{{--pst-font-family-base:{FAMILY},var(--pst-font-family-base-system);"
            f"--pst-font-family-heading:{FAMILY},var(--pst-font-family-base-system);"
            f"--pst-font-family-monospace:{FAMILY},var(--pst-font-family-monospace-system)}}\n")


def _finished(app, exception):
    if exception is not None or app.builder.format != "html":
        return
    from toolkit.jupyter.fonts import FACES, FONT_DIR

    static = Path(app.outdir) / "_static"
    (static / "hangul").mkdir(parents=True, exist_ok=True)
    for name in FACES:
        shutil.copyfile(FONT_DIR / name, static / "hangul" / name)
    (static / CSS).write_text(_css(), "utf-8")


def setup(app):
    app.add_css_file(CSS)
    app.connect("build-finished", _finished)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
