"""toolkit's Jupyter server extension serves the city's tiles under the server's base URL: a real ``jupyter
server`` subprocess on 127.0.0.1 with the extension enabled the way this checkout enables it
(``JUPYTER_CONFIG_PATH=<checkout>/jupyter-config``; a wheel install carries the same file in
``etc/jupyter``), under a hub-like base URL ``/user/ann/``. Drawn in-process, or forwarded to a class sandbox
with the student's header."""
from __future__ import annotations

import http.server
import io
import threading
from pathlib import Path

import httpx
import pytest
from PIL import Image

from tests.labrun import JupyterProcess
from tests.maps.test_tiles import SEOMYEON, colours
from toolkit.classroom import HEADER, classroom_header, student_token
from toolkit.sandbox.tiles.render import LAND

SECRET = "a-class-secret-for-the-tile-tests-0123456789"


def JupyterServer(tmp: Path, env: dict) -> JupyterProcess:
    """``jupyter server`` with toolkit's extension enabled from this checkout's jupyter-config under ``/user/ann/``,
    a clean environment plus ``env``; started."""
    return JupyterProcess.server_of_checkout(tmp, base_url="/user/ann/", env=env).start()


def tile_path(z, x, y) -> str:
    return f"toolkit/tiles/{z}/{x}/{y}.png"


@pytest.fixture
def server(checkout_jupyter_server):
    """The session's ``jupyter server`` of this checkout, under ``/user/ann/`` (tests/conftest.py)."""
    assert checkout_jupyter_server.base_url == "/user/ann/"
    return checkout_jupyter_server


def test_a_tile_is_a_png_of_the_city_under_the_base_url(server):
    r = server.get(tile_path(*SEOMYEON))
    assert r.status_code == 200, r.text
    assert r.headers["content-type"] == "image/png"
    img = Image.open(io.BytesIO(r.content))
    assert img.format == "PNG" and img.size == (256, 256)
    assert LAND in colours(r.content) and len(colours(r.content)) > 50
    assert "max-age=604800" in r.headers["cache-control"] and "no-cache" not in r.headers["cache-control"]
    etag = r.headers["etag"]
    assert etag.startswith('"toolkit-') and f"-{SEOMYEON[0]}-{SEOMYEON[1]}-{SEOMYEON[2]}" in etag
    again = server.get(tile_path(*SEOMYEON), headers={"If-None-Match": etag})
    assert again.status_code == 304 and not again.content
    assert "toolkit: map tiles drawn by this server" in server.output()


def test_the_route_needs_a_logged_in_user(server):
    r = server.get(tile_path(*SEOMYEON), auth=False, follow_redirects=False)
    assert r.status_code in (302, 403)
    if r.status_code == 302:
        assert "/user/ann/login" in r.headers["location"]
    assert r.headers.get("content-type", "") != "image/png"


@pytest.mark.parametrize("path, words", [("9/436/202", "zoom 9"), ("19/0/0", "zoom 19"),
                                         ("14/16384/0", "x must be between 0 and 16383"),
                                         ("14/0/-1", "y must be between 0 and 16383")])
def test_outside_the_city_s_zooms_or_tiles_is_a_clear_404(server, path, words):
    r = server.get(f"toolkit/tiles/{path}.png")
    assert r.status_code == 404
    assert words in r.text and r.headers["content-type"].startswith("text/plain")
    assert "etag" not in {k.lower() for k in r.headers}


def test_only_under_the_base_url(server):
    r = httpx.get(f"http://127.0.0.1:{server.port}/{tile_path(*SEOMYEON)}",
                  headers={"Authorization": f"token {server.token}"}, timeout=30)
    assert r.status_code == 404


class _Recorder(http.server.BaseHTTPRequestHandler):
    """A stand-in class sandbox: answers a fixed PNG and records the paths and the world header it got."""
    seen: list = []
    png = b""

    def do_GET(self):
        type(self).seen.append((self.path, self.headers.get(HEADER)))
        self.send_response(200)
        self.send_header("Content-Type", "image/png")
        self.send_header("Content-Length", str(len(self.png)))
        self.end_headers()
        self.wfile.write(self.png)

    def log_message(self, *a):
        pass


def test_a_hub_server_forwards_tiles_to_the_class_sandbox_with_the_student_header(tmp_path):
    buf = io.BytesIO()
    Image.new("RGB", (256, 256), (1, 2, 3)).save(buf, "PNG")
    _Recorder.png, _Recorder.seen = buf.getvalue(), []
    upstream = http.server.ThreadingHTTPServer(("127.0.0.1", 0), _Recorder)
    threading.Thread(target=upstream.serve_forever, daemon=True).start()
    token = student_token(SECRET, "ann")
    env = {"TOOLKIT_CLASSROOM_URL": f"http://127.0.0.1:{upstream.server_address[1]}",
           "TOOLKIT_CLASSROOM_TOKEN": token, "JUPYTERHUB_USER": "ann"}
    server = JupyterServer(tmp_path, env)
    try:
        r = server.get(tile_path(*SEOMYEON))
        assert r.status_code == 200 and r.content == _Recorder.png
        z, x, y = SEOMYEON
        assert _Recorder.seen == [(f"/sandbox/tiles/{z}/{x}/{y}.png", classroom_header("ann", token))]
        assert server.get("toolkit/tiles/9/0/0.png").status_code == 404 and len(_Recorder.seen) == 1
        assert "forwarded to the class sandbox" in server.output() and token not in server.output()
        upstream.shutdown()
        upstream.server_close()
        gone = server.get(tile_path(z, x + 1, y))
        assert gone.status_code == 502 and "cannot be reached" in gone.text and token not in gone.text
    finally:
        server.stop()
        upstream.server_close()


def test_forwarding_to_a_real_class_sandbox_gives_its_tiles(tmp_path):
    """``toolkit classroom`` started here: the student's server answers the class sandbox's own bytes."""
    from toolkit.sandbox.classroom import ClassroomServer

    room = ClassroomServer(SECRET, frozen=True).start()
    env = {"TOOLKIT_CLASSROOM_URL": room.base_url, "TOOLKIT_CLASSROOM_TOKEN": student_token(SECRET, "ann"),
           "JUPYTERHUB_USER": "ann"}
    server = JupyterServer(tmp_path, env)
    try:
        r = server.get(tile_path(*SEOMYEON))
        assert r.status_code == 200 and r.headers["content-type"] == "image/png"
        z, x, y = SEOMYEON
        direct = httpx.get(f"{room.base_url}/sandbox/tiles/{z}/{x}/{y}.png",
                           headers={HEADER: classroom_header("ann", student_token(SECRET, "ann"))}, timeout=60)
        assert direct.status_code == 200 and r.content == direct.content
    finally:
        server.stop()
        room.stop()
