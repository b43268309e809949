"""Tiles area: no state of its own; the renderer is built from the datasets on the first tile request."""
from __future__ import annotations

from .render import renderer

SCHEMA = ""


class Model:
    def __init__(self, sandbox):
        self.sandbox = sandbox

    @property
    def renderer(self):
        """The process-wide renderer of this sandbox's datasets (built once, on first use)."""
        return renderer(self.sandbox.datasets)
