"""toolkit's Jupyter server extension: what a notebook's stored outputs need, served from the installed package
by the Jupyter server the reader is using, under that server's own base URL.

A notebook saved in one run is opened later by someone else: a learner, a colleague, a student on a hub. Its
stored outputs must not point at the sandbox of the run that saved them (a port that is gone). So what they need
comes from the package, through whichever Jupyter server shows the notebook:

* ``{base_url}toolkit/tiles/{z}/{x}/{y}.png`` — the sandbox city's base map (:mod:`toolkit.jupyter.tiles`);
* ``{base_url}toolkit/fonts/{name}`` — the bundled Hangul font (:mod:`toolkit.jupyter.fonts`), which the lab
  extension shipped beside it (``share/jupyter/labextensions/toolkit-jupyter``) adds as JupyterLab's fallback.

The extension is enabled on install, as Jupyter packages do it: the wheel carries
``etc/jupyter/jupyter_server_config.d/toolkit.json``. ``base_url`` is the server's (``/`` in a plain lab,
``/user/NAME/`` under JupyterHub), so the same stored output works under a hub's proxy.

>>> _jupyter_server_extension_points()
[{'module': 'toolkit.jupyter'}]
"""
from __future__ import annotations

__all__ = ["ROUTE", "handlers"]

ROUTE = "toolkit"
"""The path segment under the server's base URL that every route of this extension starts with."""


def _jupyter_server_extension_points():
    return [{"module": "toolkit.jupyter"}]


def handlers(base_url: str, serverapp=None) -> list:
    """The extension's tornado handlers under ``base_url`` (each part of the extension gives its own)."""
    from . import fonts, tiles

    return [*tiles.handlers(base_url, serverapp), *fonts.handlers(base_url, serverapp)]


def _load_jupyter_server_extension(serverapp) -> None:
    base_url = serverapp.web_app.settings.get("base_url", "/")
    serverapp.web_app.add_handlers(".*$", handlers(base_url, serverapp))
    serverapp.log.info("toolkit: serving map tiles and the Hangul font under %s%s/", base_url, ROUTE)
