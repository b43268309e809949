"""Hangul in every matplotlib figure of a process that imported toolkit, without importing matplotlib early.

``import toolkit`` calls :func:`install`: if matplotlib's font manager is already loaded, the bundled NanumGothic
(:mod:`toolkit.fonts`) is registered right away; otherwise a finder on ``sys.meta_path`` waits for the first
import of ``matplotlib.font_manager`` (which ``import matplotlib.pyplot`` and every figure import) and registers
the font just after that module has loaded. So a user's own figure with a Hangul title draws Hangul, not boxes
with "Glyph … missing" warnings, with nothing of matplotlib imported at ``import toolkit``:

>>> import toolkit
>>> import matplotlib.pyplot as plt                      # doctest: +SKIP
>>> plt.title("서면 카페")                                 # doctest: +SKIP

The registration (:func:`register`) adds NanumGothic as the *last* family of ``font.family`` and
``font.sans-serif``: matplotlib falls back glyph by glyph along that list, so Latin text keeps matplotlib's
default font and only glyphs it lacks (Hangul) come from NanumGothic. ``TOOLKIT_NO_MPL_FONT=1`` turns the
automatic registration off (``toolkit.plots.use_hangul_font()`` still does it on request). A matplotlib style or
``rcdefaults()`` applied later resets ``font.family``; call ``toolkit.plots.use_hangul_font()`` after it.

A neutral module (neither client nor sandbox); it imports nothing heavy.
"""
from __future__ import annotations

import os
import sys

__all__ = ["TARGET", "DISABLE_ENV", "install", "register"]

TARGET = "matplotlib.font_manager"
"""The module after whose first import the font is registered."""

DISABLE_ENV = "TOOLKIT_NO_MPL_FONT"
"""``TOOLKIT_NO_MPL_FONT=1``: ``import toolkit`` leaves matplotlib's fonts alone."""


def register() -> str:
    """Register the bundled NanumGothic (regular and bold) with matplotlib's font manager and add it as the last
    fallback of ``font.family`` and ``font.sans-serif``. Idempotent; returns the family name. This is what
    ``toolkit.plots.use_hangul_font()`` does.

    >>> register()                                       # doctest: +SKIP
    'NanumGothic'
    """
    import dataclasses

    import matplotlib
    from matplotlib import font_manager

    from .fonts import FONT_FAMILY, hangul_font_path

    manager = font_manager.fontManager
    known = {f.fname for f in manager.ttflist}
    for bold in (False, True):
        path = str(hangul_font_path(bold))
        if path not in known:
            manager.addfont(path)
            if bold:   # its metadata says weight 600 ("semibold"): matplotlib would log a miss for every bold text
                manager.ttflist = [dataclasses.replace(f, weight=700) if f.fname == path else f
                                   for f in manager.ttflist]
    rc = matplotlib.rcParams
    for key in ("font.family", "font.sans-serif"):
        families = [rc[key]] if isinstance(rc[key], str) else list(rc[key])
        if FONT_FAMILY not in families:
            rc[key] = families + [FONT_FAMILY]
    # the minus sign U+2212, which NanumGothic lacks, comes from the first font (DejaVu Sans has it); should
    # NanumGothic be the only font, draw an ASCII hyphen instead
    families = [rc["font.family"]] if isinstance(rc["font.family"], str) else list(rc["font.family"])
    if families[0] == FONT_FAMILY:
        rc["axes.unicode_minus"] = False
    return FONT_FAMILY


def _register_quietly() -> None:
    """:func:`register`, never failing the user's import of matplotlib (without the font package, figures draw as
    matplotlib alone would; ``use_hangul_font()`` then says what is missing)."""
    try:
        register()
    except Exception:  # noqa: BLE001 — an import of matplotlib must not fail because of toolkit
        pass


class _AfterImport:
    """A ``sys.meta_path`` finder that lets the other finders find :data:`TARGET` and runs
    :func:`_register_quietly` once that module has executed; it removes itself on first use."""

    def find_spec(self, name, path=None, target=None):
        if name != TARGET:
            return None
        _uninstall()
        for finder in list(sys.meta_path):
            find = getattr(finder, "find_spec", None)
            spec = find(name, path, target) if find is not None else None
            if spec is not None:
                break
        else:
            return None
        loader = spec.loader
        exec_module = getattr(loader, "exec_module", None)
        if exec_module is None:
            return spec

        def exec_then_register(module):
            exec_module(module)
            _register_quietly()

        loader.exec_module = exec_then_register     # this spec's own loader instance
        return spec


_FINDER = _AfterImport()


def _uninstall() -> None:
    try:
        sys.meta_path.remove(_FINDER)
    except ValueError:
        pass


def install() -> None:
    """Have matplotlib draw Hangul with the bundled font: now if its font manager is loaded, else right after it
    loads. Does nothing with ``TOOLKIT_NO_MPL_FONT=1``; idempotent."""
    if os.environ.get(DISABLE_ENV, "").strip().lower() not in ("", "0", "false", "no"):
        return
    if TARGET in sys.modules:
        _register_quietly()
    elif _FINDER not in sys.meta_path:
        sys.meta_path.insert(0, _FINDER)
