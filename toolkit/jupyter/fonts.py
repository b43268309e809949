"""The bundled Hangul font, served by the reader's Jupyter server (see :mod:`toolkit.jupyter`).

``GET {base_url}toolkit/fonts/{name}`` answers the two faces the lab extension ``toolkit-jupyter`` declares for
the family ``toolkit-hangul``: NanumGothic regular and bold (SIL Open Font License 1.1, from the package
``koreanize-matplotlib``, :mod:`toolkit.fonts`) cut down to Hangul and stored as WOFF2 in the package
(``toolkit/jupyter/hangul/``). Every other name is a 404.

Why shipped subsets: the whole TTFs are about 4.3 MB a face as a browser takes them; the Hangul-only WOFF2 are
about 220 KB (regular) and 290 KB (bold), and the lab's ``unicode-range`` asks for them only where Hangul is drawn.
Making them takes fontTools and brotli about 10 s of CPU a face, which every user's server on a hub would spend
again; so they are made once, by ``python -m toolkit.jupyter.fonts`` in a checkout (which needs the ``brotli``
package of the ``[test]`` extra), and committed.

Login: the handler is authenticated like the rest of the server. The fonts are harmless, but on a hub everything
under a user's server is authenticated anyway, the font request of a lab page carries the page's login cookie
(same origin), and an open route would make each user's server a font host for anyone who can reach it.

Responses carry ``Cache-Control: private, max-age=604800`` (a week, in the user's own browser cache only) and an
ETag (a later request with ``If-None-Match`` gets 304).

>>> sorted(FACES)
['NanumGothic-hangul.woff2', 'NanumGothicBold-hangul.woff2']
>>> font_bytes('NanumGothic-hangul.woff2')[:4]
b'wOF2'
>>> font_bytes('../secrets') is None
True
"""
from __future__ import annotations

from functools import lru_cache
from pathlib import Path

__all__ = ["CACHE_CONTROL", "FACES", "FONT_DIR", "HANGUL_RANGES", "UNICODE_RANGE", "build", "font_bytes", "handlers"]

FONT_DIR = Path(__file__).resolve().with_name("hangul")
"""Where the package keeps the Hangul subsets."""

FACES = {"NanumGothic-hangul.woff2": False, "NanumGothicBold-hangul.woff2": True}
"""The names served, each with whether it is the bold face."""

HANGUL_RANGES = ((0x1100, 0x11FF),     # Hangul Jamo
                 (0x3130, 0x318F),     # Hangul Compatibility Jamo
                 (0xA960, 0xA97F),     # Hangul Jamo Extended-A
                 (0xAC00, 0xD7A3),     # Hangul Syllables
                 (0xD7B0, 0xD7FF),     # Hangul Jamo Extended-B
                 (0xFFA0, 0xFFDC))     # halfwidth Hangul
"""The code points of the subsets (those of them NanumGothic has) and of the lab's ``unicode-range``."""

UNICODE_RANGE = ", ".join(f"U+{lo:04X}-{hi:04X}" for lo, hi in HANGUL_RANGES)
"""The CSS ``unicode-range`` of the lab extension's ``@font-face`` rules (its source has the same string)."""

CACHE_CONTROL = "private, max-age=604800"


def font_bytes(name: str) -> bytes | None:
    """The WOFF2 served as ``name``; None for any name that is not one of :data:`FACES` (the name comes from
    the request path: it is looked up, never joined to a folder)."""
    bold = FACES.get(name)
    return None if bold is None else _read(bold)


@lru_cache(maxsize=2)
def _read(bold: bool) -> bytes:
    name = next(n for n, b in FACES.items() if b == bold)
    return (FONT_DIR / name).read_bytes()


def handlers(base_url: str, serverapp=None) -> list:
    """Tornado handlers for ``{base_url}toolkit/fonts/{name}``."""
    from jupyter_server.utils import url_path_join

    from . import ROUTE

    return [(url_path_join(base_url, ROUTE, "fonts", r"([^/]+)"), _handler_class())]


@lru_cache(maxsize=1)
def _handler_class():
    from jupyter_server.base.handlers import JupyterHandler
    from tornado import web

    class HangulFontHandler(JupyterHandler):
        """One face of the bundled Hangul font as WOFF2."""

        @web.authenticated
        def get(self, name: str) -> None:
            data = font_bytes(name)
            if data is None:
                # answered here, not by raising HTTPError with a message: tornado's log line of that message
                # holds the request's query, and with it a token given in the URL
                self.set_status(404)
                self.set_header("Content-Type", "text/plain; charset=utf-8")
                self.finish(f"toolkit serves no font named {name!r}; it serves {', '.join(sorted(FACES))}\n")
                return
            self.set_header("Content-Type", "font/woff2")
            self.set_header("Cache-Control", CACHE_CONTROL)
            self.finish(data)         # tornado adds the ETag and answers a matching If-None-Match with 304

    return HangulFontHandler


def build(out: Path = FONT_DIR) -> dict[str, int]:
    """Make the Hangul-only WOFF2 of both faces from the bundled TTFs into ``out``; returns each file's size.
    Needs fontTools and ``brotli``. The same input gives the same bytes (no timestamps)."""
    import io
    import logging

    from fontTools import subset
    from fontTools.ttLib import TTFont

    from ..fonts import hangul_font_path

    logging.getLogger("fontTools").setLevel(logging.ERROR)      # "TSI0 NOT subset …": hinting sources it drops
    out = Path(out)
    out.mkdir(parents=True, exist_ok=True)
    wanted = {u for lo, hi in HANGUL_RANGES for u in range(lo, hi + 1)}
    sizes = {}
    for name, bold in FACES.items():
        options = subset.Options()
        options.flavor = "woff2"
        options.hinting = False               # browsers draw this outline font well unhinted; half the bytes
        options.layout_features = ["*"]       # jamo composition (ljmo/vjmo/tjmo) for old Hangul
        options.name_IDs = [0, 1, 2, 3, 4, 5, 6, 13, 14]    # copyright, names, version, licence
        options.recalc_timestamp = False
        with TTFont(str(hangul_font_path(bold)), recalcTimestamp=False) as font:
            subsetter = subset.Subsetter(options)
            subsetter.populate(unicodes=sorted(wanted & set(font.getBestCmap())))
            subsetter.subset(font)
            font.flavor = "woff2"
            buf = io.BytesIO()
            font.save(buf)
        (out / name).write_bytes(buf.getvalue())
        sizes[name] = len(buf.getvalue())
    return sizes


if __name__ == "__main__":
    for name, size in build().items():
        print(f"{FONT_DIR / name}: {size} bytes")
