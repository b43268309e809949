"""The base map's tiles for stored maps, served by the reader's Jupyter server (see :mod:`toolkit.jupyter`)."""
from __future__ import annotations


def handlers(base_url: str, serverapp=None) -> list:
    """Tornado handlers for ``{base_url}toolkit/tiles/{z}/{x}/{y}.png``."""
    return []
