"""Progress bars for long jobs (``geocode``, ``add_users`` …) that leave a line saying how the work ended.

In a notebook's kernel the bar is tqdm's widget while the work runs, displayed with a display id; when it closes,
that display is replaced by one line of text, e.g. ``geocode: 274/274 in 1.4 s``. So a saved notebook, one
reopened with no kernel, and one executed by nbconvert/nbclient (which applies display updates to the stored output)
keep that line, not a widget view: a stored widget view needs the kernel that made it (reopened, JupyterLab draws
"Error displaying widget: model not found", and nbconvert's text of the bar is its first state, ``0/274``).
Elsewhere (a terminal, a script) it is tqdm's text bar, which ends on the same counts.

>>> from toolkit.progress import Progress
>>> bar = Progress(3, "geocode", "query", disable=True)
>>> bar.update(3); bar.close()
>>> bar.line()[:19]
'geocode: 3/3 in 0.0'
"""
from __future__ import annotations

import sys
import time

__all__ = ["Progress"]


def _close(widget) -> None:
    """Close an ipywidget with its children, layout and style (closing a box leaves their models behind)."""
    if widget is None or getattr(widget, "comm", None) is None:
        return
    for child in getattr(widget, "children", ()):
        _close(child)
    for part in ("layout", "style"):
        _close(getattr(widget, part, None))
    widget.close()


class Progress:
    """A progress bar over ``total`` items, ``initial`` of them done already (e.g. answers from a cache).

    ``disable=True``: nothing is shown (the counts are still kept for :meth:`line`). Use as a context manager or
    call :meth:`close` once the work ends (also when it stopped early: the line then says so).
    """

    def __init__(self, total: int, desc: str, unit: str = "it", *, initial: int = 0, disable: bool = False):
        self.total, self.desc, self.unit, self.initial = int(total), desc, unit, int(initial)
        self.n = self.initial
        self.started = time.perf_counter()
        self.elapsed: float | None = None
        self.bar = self.handle = None
        if disable:
            return
        from tqdm.auto import tqdm

        notebook = sys.modules.get("tqdm.notebook")       # imported by tqdm.auto in a kernel with ipywidgets only
        if notebook is not None and issubclass(tqdm, notebook.tqdm_notebook):
            from IPython.display import display

            self.bar = tqdm(total=self.total, initial=self.initial, desc=desc, unit=unit, display=False)
            container = getattr(self.bar, "container", None)
            if container is not None:
                self.handle = display(container, display_id=True)
        else:
            self.bar = tqdm(total=self.total, initial=self.initial, desc=desc, unit=unit)

    def update(self, n: int = 1) -> None:
        """``n`` more items done."""
        self.n += n
        if self.bar is not None:
            self.bar.update(n)

    def line(self) -> str:
        """How the work ended (or stands): ``geocode: 274/274 in 1.4 s``; ``… (60 from the cache)`` when some were
        done before it started; ``… stopped at 60/93 …`` when it ended early."""
        seconds = self.elapsed if self.elapsed is not None else time.perf_counter() - self.started
        ended = self.elapsed is not None and self.n < self.total
        text = f"{self.desc}: {'stopped at ' if ended else ''}{self.n}/{self.total} in {seconds:.1f} s"
        if self.initial:
            text += f" ({self.initial} from the cache)"
        return text

    def close(self) -> None:
        """End the bar: in a notebook its display becomes :meth:`line`. Closing twice does nothing more."""
        if self.elapsed is not None:
            return
        self.elapsed = time.perf_counter() - self.started
        if self.bar is None:
            return
        self.bar.close()
        if self.handle is not None:
            self.handle.update({"text/plain": self.line()}, raw=True)
            _close(getattr(self.bar, "container", None))   # its models go too: nothing of the bar is left to save

    def __enter__(self) -> "Progress":
        return self

    def __exit__(self, *exc) -> None:
        self.close()
