"""The bundled Hangul font: NanumGothic (SIL Open Font License 1.1), shipped inside the PyPI package
``koreanize-matplotlib``, so Hangul draws the same on every machine, with or without a system CJK font.

A neutral utility (neither a client area nor a sandbox area): matplotlib plots, the sandbox's map tiles and the
sandbox's HTML pages (as a web font) all use it.

>>> from toolkit.fonts import hangul_font_path
>>> hangul_font_path().name
'NanumGothic.ttf'

The package is located without importing it (its ``__init__`` changes matplotlib's global settings and imports
``distutils``).
"""
from __future__ import annotations

import importlib.util
from functools import lru_cache
from pathlib import Path

__all__ = ["FONT_FAMILY", "FONT_PACKAGE", "FontMissingError", "hangul_font_path"]

FONT_FAMILY = "NanumGothic"
FONT_PACKAGE = "koreanize-matplotlib"
_FILES = {False: "NanumGothic.ttf", True: "NanumGothicBold.ttf"}


class FontMissingError(RuntimeError):
    """The package that ships the Hangul font is not installed."""


@lru_cache(maxsize=None)
def hangul_font_path(bold: bool = False) -> Path:
    """Path of the bundled NanumGothic TTF (regular, or bold with ``bold=True``)."""
    spec = importlib.util.find_spec("koreanize_matplotlib")
    locations = list(spec.submodule_search_locations or []) if spec is not None else []
    for where in locations:
        path = Path(where) / "fonts" / _FILES[bool(bold)]
        if path.is_file():
            return path
    raise FontMissingError(f"the Hangul font {_FILES[bool(bold)]} was not found: pip install {FONT_PACKAGE} "
                           "(a dependency of toolkit)")
