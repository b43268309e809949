"""toolkit — the social platform's whole HTTP API from Jupyter, with an embedded emulator.

>>> import toolkit
>>> tk = toolkit.connect()            # doctest: +SKIP
>>> tk.status.current()               # doctest: +SKIP

``connect()`` with no configuration starts the embedded sandbox (a faithful emulator of the service on
127.0.0.1) and returns a :class:`Client` bound to it; with base URLs and keys (arguments or ``TOOLKIT_*``
variables) it talks to those hosts. Importing toolkit stays light: pandas, httpx, folium and matplotlib are
imported only when first needed. Once matplotlib loads, its figures draw Hangul with the bundled NanumGothic
(your own figures too; :mod:`toolkit._mplfont`).
"""
from __future__ import annotations

from . import _mplfont
from ._version import __version__

__all__ = ["connect", "connect_async", "Client", "AsyncClient", "Secret", "CATEGORIES", "to_geodataframe",
           "__version__"]

# submodules reachable as attributes (``toolkit.events.inbox(tk)``), imported on first use
_SUBMODULES = ("errors", "frames", "plots", "maps", "navimaps", "widgets", "config", "http", "sandbox", "secrets",
               "events", "templates", "oauth", "user", "business", "story", "talk", "channel", "local", "navi",
               "utility", "area", "client", "cli", "reports", "fonts", "categories", "coords", "geo", "authpages",
               "samples", "data", "walkthroughs", "lessons", "cassette")

_mplfont.install()      # matplotlib, once imported, draws Hangul (nothing of it is imported here)


def __getattr__(name: str):
    if name in ("connect", "connect_async", "Client", "AsyncClient"):
        from . import client

        return getattr(client, name)
    if name == "CATEGORIES":
        from .categories import CATEGORIES

        return CATEGORIES
    if name == "to_geodataframe":
        from .geo import to_geodataframe

        return to_geodataframe
    if name == "Secret":
        from .secrets import Secret

        return Secret
    if name in _SUBMODULES:
        import importlib

        return importlib.import_module(f".{name}", __name__)
    raise AttributeError(f"module 'toolkit' has no attribute {name!r}")
