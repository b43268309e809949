"""The base map's tiles for stored maps, served by the reader's Jupyter server (see :mod:`toolkit.jupyter`).

``GET {base_url}toolkit/tiles/{z}/{x}/{y}.png`` answers a 256×256 PNG of the sandbox city (Web Mercator, XYZ
numbering), to a logged-in user of the server only (``@tornado.web.authenticated``: a map's ``srcdoc`` iframe is
same-origin and sends the lab's cookie). A toolkit map whose base layer is the sandbox's asks for its tiles here,
resolved in the browser from the page it is shown in (:mod:`toolkit.mapassets`), so a stored map draws in any
later session, in ``toolkit lab``, in one's own JupyterLab or Notebook 7, and under a hub's ``/user/NAME/``.

Where the tiles come from:

* **Drawn here** (the default): the sandbox's own renderer (:mod:`toolkit.sandbox.tiles.render`) over the
  package's city, imported and built on the first tile (nothing is loaded for a server that never shows a map),
  drawn in a worker thread (never on the server's event loop), kept in the renderer's bounded LRU cache
  (at most 4096 tiles and 48 MB of PNG).
* **Forwarded to a class sandbox**: when the server's environment binds it to a class (``TOOLKIT_CLASSROOM_URL``,
  ``TOOLKIT_CLASSROOM_TOKEN``, ``JUPYTERHUB_USER``, as :func:`toolkit.connect` reads them, see
  :func:`toolkit.classroom.from_env`), a tile request goes to the class sandbox's ``/sandbox/tiles/{z}/{x}/{y}.png``
  with the student's header (:data:`toolkit.classroom.HEADER`, as the kernel's client sends it), by one async
  httpx client with a bounded timeout: the class has one renderer, and a student's server holds none.

Answers: ``200 image/png`` with ``ETag`` (the release, the tiles' style and the tile: those tiles never change) and
``Cache-Control: private, max-age=604800``; ``304`` to a matching ``If-None-Match`` (nothing is drawn);
``404`` with a one-line text outside the city's zooms (:data:`MIN_ZOOM`–:data:`MAX_ZOOM`) or the zoom's
tile numbers; ``502``/``504`` when the class sandbox answers with an error or not in time; a redirect to the
login page (or ``403``) without a logged-in user.

>>> route("/user/ann/")
'/user/ann/toolkit/tiles/(-?\\\\d+)/(-?\\\\d+)/(-?\\\\d+)\\\\.png'
"""
from __future__ import annotations

import asyncio
import os
import threading
from typing import TYPE_CHECKING, Mapping

if TYPE_CHECKING:
    from ..sandbox.tiles.render import TileRenderer

__all__ = ["MIN_ZOOM", "MAX_ZOOM", "handlers", "route", "source_from_env", "LocalTiles", "ForwardedTiles", "TileError"]

MIN_ZOOM, MAX_ZOOM = 10, 18
"""The city's zooms: the zooms a toolkit map's sandbox base layer shows (``min_zoom``/``max_zoom``)."""
CACHE_CONTROL = "private, max-age=604800"
FORWARD_TIMEOUT = 10.0
"""Seconds a forwarded tile may take (connect, read) before the browser gets a 504."""


class TileError(Exception):
    """A tile that cannot be answered: ``status`` (HTTP) and a one-line message for the browser."""

    def __init__(self, status: int, message: str):
        super().__init__(message)
        self.status = status


def check_tile(z: int, x: int, y: int) -> None:
    """:class:`TileError` 404 unless ``z/x/y`` is a tile of the city's zooms.

    >>> check_tile(14, 13969, 6505)
    >>> check_tile(9, 0, 0)
    Traceback (most recent call last):
    ...
    toolkit.jupyter.tiles.TileError: no tile at zoom 9: the city's map has zooms 10 to 18
    """
    if not MIN_ZOOM <= z <= MAX_ZOOM:
        raise TileError(404, f"no tile at zoom {z}: the city's map has zooms {MIN_ZOOM} to {MAX_ZOOM}")
    n = 1 << z
    for name, v in (("x", x), ("y", y)):
        if not 0 <= v < n:
            raise TileError(404, f"no tile {z}/{x}/{y}: {name} must be between 0 and {n - 1} at zoom {z}")


class LocalTiles:
    """Tiles drawn in this process by the sandbox's renderer over the package's city (built on first use)."""

    kind = "local"

    def __init__(self, datasets=None):
        self._datasets = datasets
        self._renderer: TileRenderer | None = None
        self._lock = threading.Lock()

    def __repr__(self) -> str:
        return f"<LocalTiles {'loaded' if self._renderer is not None else 'not loaded'}>"

    def _load(self) -> TileRenderer:
        with self._lock:
            if self._renderer is None:
                from ..data import root
                from ..sandbox.tiles.render import renderer

                self._renderer = renderer(self._datasets or root())
            return self._renderer

    async def tile(self, z: int, x: int, y: int) -> bytes:
        rend = self._renderer
        png = rend.cached(z, x, y) if rend is not None else None
        if png is None:
            png = await asyncio.to_thread(lambda: self._load().tile(z, x, y))
        return png

    async def close(self) -> None:
        pass


class ForwardedTiles:
    """Tiles asked of a class sandbox at ``url`` for ``student`` (the token is sent, never shown)."""

    kind = "forwarded"

    def __init__(self, url: str, student: str, token, *, timeout: float = FORWARD_TIMEOUT):
        from ..classroom import check_name
        from ..secrets import Secret

        self.url = url.rstrip("/")
        self.student = check_name(student)
        self._token = token if isinstance(token, Secret) else Secret(str(token))
        self.timeout = timeout
        self._client = None

    def __repr__(self) -> str:
        return f"<ForwardedTiles {self.url} for {self.student}>"

    def _http(self):
        if self._client is None:
            import httpx

            from ..classroom import HEADER, classroom_header
            from ..http import LOOPBACK_DIRECT

            self._client = httpx.AsyncClient(
                base_url=self.url, timeout=httpx.Timeout(self.timeout),
                headers={HEADER: classroom_header(self.student, self._token.reveal())},
                limits=httpx.Limits(max_connections=16, max_keepalive_connections=8), mounts=LOOPBACK_DIRECT)
        return self._client

    async def tile(self, z: int, x: int, y: int) -> bytes:
        import httpx

        try:
            r = await self._http().get(f"/sandbox/tiles/{z}/{x}/{y}.png")
        except httpx.TimeoutException:
            raise TileError(504, f"the class sandbox at {self.url} did not answer tile {z}/{x}/{y} within "
                                 f"{self.timeout:g} s") from None
        except httpx.TransportError as e:
            raise TileError(502, f"the class sandbox at {self.url} cannot be reached for tiles "
                                 f"({type(e).__name__})") from None
        if r.status_code != 200 or not r.headers.get("content-type", "").startswith("image/png"):
            raise TileError(502, f"the class sandbox at {self.url} answered tile {z}/{x}/{y} with HTTP "
                                 f"{r.status_code} ({r.headers.get('content-type', 'no content type')})")
        return r.content

    async def close(self) -> None:
        if self._client is not None:
            await self._client.aclose()
            self._client = None


def source_from_env(env: Mapping[str, str] | None = None, log=None):
    """Where this server's tiles come from: :class:`ForwardedTiles` when ``env`` binds it to a class sandbox
    (:func:`toolkit.classroom.from_env`), else :class:`LocalTiles`. A half-set class environment is logged
    (what is missing) and the tiles are drawn here.

    >>> source_from_env({})
    <LocalTiles not loaded>
    >>> source_from_env({"TOOLKIT_CLASSROOM_URL": "http://127.0.0.1:9", "TOOLKIT_CLASSROOM_TOKEN": "t" * 32,
    ...                  "JUPYTERHUB_USER": "ann"})
    <ForwardedTiles http://127.0.0.1:9 for ann>
    """
    from ..classroom import ClassroomError, from_env

    try:
        bound = from_env(os.environ if env is None else env)
    except ClassroomError as e:
        if log is not None:
            log.warning("toolkit: map tiles are drawn by this server, not the class sandbox: %s", e)
        bound = None
    if bound is None:
        return LocalTiles()
    url, student, token = bound
    return ForwardedTiles(url, student, token)


def _etag(z: int, x: int, y: int) -> str:
    from .. import __version__
    from ..sandbox.tiles.render import STYLE

    return f'"toolkit-{__version__}-s{STYLE}-{z}-{x}-{y}"'


def _handler_class():
    import tornado.web
    from jupyter_server.base.handlers import JupyterHandler

    class TileHandler(JupyterHandler):
        """``GET {base_url}toolkit/tiles/{z}/{x}/{y}.png`` (see :mod:`toolkit.jupyter.tiles`)."""

        def initialize(self, source):
            self.source = source

        def compute_etag(self):
            return None                   # the ETag is the tile's own (set before drawing), not a hash of it

        def _text(self, status: int, message: str) -> None:
            self.clear_header("ETag")
            self.clear_header("Cache-Control")
            self.set_status(status)
            self.set_header("Content-Type", "text/plain; charset=utf-8")
            self.finish(message + "\n")

        @tornado.web.authenticated
        async def get(self, z: str, x: str, y: str):
            zi, xi, yi = int(z), int(x), int(y)
            try:
                check_tile(zi, xi, yi)
            except TileError as e:
                return self._text(e.status, str(e))
            self.set_header("ETag", _etag(zi, xi, yi))
            self.set_header("Cache-Control", CACHE_CONTROL)
            if self.check_etag_header():
                self.set_status(304)
                return self.finish()
            try:
                png = await self.source.tile(zi, xi, yi)
            except TileError as e:
                self.log.warning("toolkit tiles: %s", e)
                return self._text(e.status, str(e))
            self.set_header("Content-Type", "image/png")
            self.finish(png)

    return TileHandler


def route(base_url: str) -> str:
    """The tornado URL pattern of the tiles under ``base_url``."""
    from . import ROUTE

    return f"{base_url.rstrip('/')}/{ROUTE}/tiles/" + r"(-?\d+)/(-?\d+)/(-?\d+)\.png"


def handlers(base_url: str, serverapp=None) -> list:
    """Tornado handlers for ``{base_url}toolkit/tiles/{z}/{x}/{y}.png``, with the tile source of
    :func:`source_from_env` (the server's environment)."""
    source = source_from_env(log=getattr(serverapp, "log", None))
    if serverapp is not None:
            serverapp.log.info("toolkit: map tiles %s", "forwarded to the class sandbox at " + source.url
                           if source.kind == "forwarded" else "drawn by this server (loaded on the first tile)")
    return [(route(base_url), _handler_class(), {"source": source})]
