"""A real JupyterHub on loopback running the class sandbox as the hub-managed service of
``deploy/jupyterhub_config.py``: three users, their servers started through the hub's REST API, a walkthrough
executed in each user's kernel through the hub's proxy, and each user sees only their own world.

The hub (PyPI ``jupyterhub``) runs with its dummy authenticator and ``SimpleLocalProcessSpawner`` (single-user
servers as local processes of this user, ``--allow-root`` where we are root); its proxy is npm's
``configurable-http-proxy``, found on PATH, at ``$TOOLKIT_CHP``, or where ``.ci/run`` installs it
(``~/.cache/toolkit-ci/configurable-http-proxy``); without it the test is skipped with a message.

Everything lives in one temporary folder (the hub's database, cookie secret, the class secret, the class
sandbox's worlds, the users' homes and Jupyter folders) and every process started here is stopped at the end.
The path of a student is the real one: the hub's API starts the server, a token of that user (made by the hub)
opens a kernel with ``POST /user/NAME/api/kernels`` and runs cells over ``/api/kernels/ID/channels``, a
websocket through the proxy. The kernel's ``toolkit.connect()`` reads only the environment the hub
configuration gave it.
"""
from __future__ import annotations

import concurrent.futures
import json
import os
import secrets
import shutil
import signal
import socket
import subprocess
import sys
import time
import urllib.request
import uuid
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
DEPLOY_CONFIG = ROOT / "deploy" / "jupyterhub_config.py"
USERS = ("student1", "student2", "student3")
CHP_CACHE = Path.home() / ".cache" / "toolkit-ci" / "configurable-http-proxy"


def find_chp() -> str | None:
    """configurable-http-proxy: ``$TOOLKIT_CHP``, PATH, or the folder ``.ci/run`` installs it into."""
    for candidate in (os.environ.get("TOOLKIT_CHP"), shutil.which("configurable-http-proxy"),
                      str(CHP_CACHE / "node_modules" / ".bin" / "configurable-http-proxy")):
        if candidate and os.access(candidate, os.X_OK):
            return candidate
    return None


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def api(url: str, token: str, method: str = "GET", body=None, timeout: float = 30):
    data = None if body is None else json.dumps(body).encode()
    req = urllib.request.Request(url, data=data, method=method,
                                 headers={"Authorization": f"token {token}", "Content-Type": "application/json"})
    with urllib.request.urlopen(req, timeout=timeout) as answer:
        raw = answer.read()
        return answer.status, (json.loads(raw) if raw.strip() else None)


def wait_http(url: str, timeout: float, what: str, proc: subprocess.Popen | None = None) -> None:
    """Until ``url`` answers 2xx (the hub's proxy answers 404 until the hub has added its route)."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        if proc is not None and proc.poll() is not None:
            raise AssertionError(f"{what} exited with code {proc.returncode}")
        try:
            urllib.request.urlopen(url, timeout=2).close()
            return
        except OSError:
            time.sleep(0.2)
    raise AssertionError(f"{what} did not answer at {url} within {timeout:.0f} s")


# ----------------------------------------------------------------------------------------- kernel over websocket
class KernelSession:
    """One kernel of a user's single-user server, reached through the hub's proxy with that user's token."""

    def __init__(self, base: str, user: str, token: str):
        import websocket   # websocket-client (a dependency of jupyter_server)

        self.user = user
        self.headers = [f"Authorization: token {token}"]
        status, kernel = api(f"{base}/user/{user}/api/kernels", token, "POST", {"name": "python3"})
        assert status == 201, (status, kernel)
        self.kernel_id = kernel["id"]
        ws_url = base.replace("http://", "ws://") + f"/user/{user}/api/kernels/{self.kernel_id}/channels"
        self.ws = websocket.create_connection(ws_url, header=self.headers, timeout=120)
        self.session = uuid.uuid4().hex

    def execute(self, code: str, timeout: float = 120) -> dict:
        """Run ``code``; returns its stdout text, execute_result and error (None when it ran clean)."""
        msg_id = uuid.uuid4().hex
        self.ws.send(json.dumps({
            "header": {"msg_id": msg_id, "username": self.user, "session": self.session, "date": "",
                       "msg_type": "execute_request", "version": "5.3"},
            "parent_header": {}, "metadata": {}, "channel": "shell", "buffers": [],
            "content": {"code": code, "silent": False, "store_history": True, "user_expressions": {},
                        "allow_stdin": False, "stop_on_error": True}}))
        out = {"stdout": "", "result": None, "error": None}
        replied = idle = False
        deadline = time.monotonic() + timeout
        while not (replied and idle):
            if time.monotonic() > deadline:
                raise AssertionError(f"{self.user}: no answer within {timeout:.0f} s to {code[:60]!r}")
            msg = json.loads(self.ws.recv())
            if msg.get("parent_header", {}).get("msg_id") != msg_id:
                continue
            kind, content = msg["msg_type"], msg["content"]
            if msg["channel"] == "shell" and kind == "execute_reply":
                replied = True
            elif kind == "status" and content["execution_state"] == "idle":
                idle = True
            elif kind == "stream" and content["name"] == "stdout":
                out["stdout"] += content["text"]
            elif kind == "execute_result":
                out["result"] = content["data"].get("text/plain")
            elif kind == "error":
                out["error"] = f"{content['ename']}: {content['evalue']}"
        return out

    def close(self):
        self.ws.close()


def walkthrough_cells() -> list[tuple[str, bool, str | None]]:
    """The code cells of walkthrough 00 (status, reports, an incident on the sandbox clock), unchanged: each
    cell's code, whether it is meant to raise (nbval's ``raises-exception`` tag), and the text it printed when
    its outputs were stored (None when it printed nothing)."""
    nb = json.loads((ROOT / "notebooks" / "00_quickstart.ipynb").read_text(encoding="utf-8"))
    cells = []
    for c in nb["cells"]:
        if c["cell_type"] == "code":
            printed = "".join("".join(o["text"]) for o in c.get("outputs", [])
                              if o["output_type"] == "stream" and o["name"] == "stdout")
            cells.append(("".join(c["source"]), "raises-exception" in c["metadata"].get("tags", []),
                          printed or None))
    return cells


ISOLATION_CELL = """
import json, os, sys
tk.login_as(4100000001, scopes=["profile", "story_permalink"])
mine = tk.story.post_note("a note from " + os.environ["JUPYTERHUB_USER"], permission="F")
stories = tk.story.mystories(expand_media=False)
print(json.dumps({"user": os.environ["JUPYTERHUB_USER"], "story": mine,
                  "notes": [s for s in stories["content"].dropna() if s.startswith("a note from ")],
                  "api": tk.hosts.url("api", ""), "embedded": "toolkit.sandbox.app" in sys.modules}))
"""

BROWSER_CELL = """
import json, re
from toolkit.widgets import LoginWidget
box = LoginWidget(tk, ["profile"])
box.start_button.click()                      # the student presses Start login: the link to open
route = tk.navi.directions((129.1586, 35.1631), (129.0592, 35.1579))
shown = route.map()
print(json.dumps({"link": re.search(r"href='([^']+)'", box.link.value).group(1).replace("&amp;", "&"),
                  "tiles": shown.toolkit_tiles, "map_html": shown._repr_html_()}))
"""

COMPLETE_CELL = """
box.redirect.value = {pasted!r}               # the student pastes the address the browser landed on
box.complete_button.click()
print(json.dumps({{"status": box.status.value, "me": tk.user.me()["id"]}}))
"""


def hub_login(b, user: str) -> None:
    """``b`` (an httpx client on the hub's origin) logs in to the hub as ``user`` (its dummy authenticator: any
    password), with the login form's XSRF token as a browser sends it."""
    import re

    form = b.get("/hub/login")
    xsrf = re.search(r'name="_xsrf" value="([^"]+)"', form.text)
    answer = b.post("/hub/login", data={"username": user, "password": "any",
                                        **({"_xsrf": xsrf.group(1)} if xsrf else {})})
    assert answer.status_code in (302, 303) and b.cookies.get("jupyterhub-session-id"), answer.text[:300]


def browser_login(base: str, link: str, user: str) -> str:
    """A student's browser on the hub's origin: logs in to the hub, opens the login link (the class sandbox sends
    it through the hub's OAuth and back: the browser is the hub's user), logs in and consents through the hub's
    proxy; returns the address it lands on (the callback page, through the hub)."""
    import httpx

    from tests.classroom.test_behind_a_proxy import log_in

    with httpx.Client(base_url=base, timeout=60, follow_redirects=False) as b:
        hub_login(b, user)
        through = b.get(link, follow_redirects=True)        # the hub's OAuth, then the login page
        assert through.status_code == 200 and "id='login'" in through.text, through.text[:300]
        assert any(r.url.path == "/services/toolkit-classroom/oauth_callback" for r in through.history)
        location, _ = log_in(b, link)
        landed = b.get(location)
        assert landed.status_code == 200 and "Copy the whole address" in landed.text
    return base + location


def run_student(base: str, hub_api: str, admin: str, user: str) -> dict:
    """Start the user's server through the hub's REST API, then run walkthrough 00 and the isolation cell in a
    kernel of it with a token of that user."""
    status, _ = api(f"{hub_api}/users/{user}/server", admin, "POST", {})
    assert status in (201, 202), status
    deadline = time.monotonic() + 120
    while True:
        _, info = api(f"{hub_api}/users/{user}", admin)
        server = info.get("servers", {}).get("")
        if server and server.get("ready"):
            break
        assert time.monotonic() < deadline, f"{user}'s server not ready within 120 s: {info}"
        time.sleep(0.5)
    _, made = api(f"{hub_api}/users/{user}/tokens", admin, "POST",
                  {"note": "test kernel", "expires_in": 600, "scopes": [f"access:servers!user={user}"]})
    kernel = KernelSession(base, user, made["token"])
    try:
        for cell, raises, printed in walkthrough_cells():
            done = kernel.execute(cell)
            if raises:
                assert done["error"] is not None, f"{user}: walkthrough 00 cell did not raise:\n{cell}"
                continue
            assert done["error"] is None, f"{user}: walkthrough 00 cell failed: {done['error']}\n{cell}"
            if printed is not None:   # the world is seeded and its clock frozen as the embedded sandbox's
                assert done["stdout"] == printed, f"{user}: walkthrough 00 printed otherwise than stored:\n{cell}"
        done = kernel.execute(ISOLATION_CELL)
        assert done["error"] is None, f"{user}: {done['error']}"
        got = json.loads(done["stdout"].strip().splitlines()[-1])
        # the student's browser: the map's tiles and the login pages come through the hub's proxy
        done = kernel.execute(BROWSER_CELL)
        assert done["error"] is None, f"{user}: {done['error']}"
        got.update(json.loads(done["stdout"].strip().splitlines()[-1]))
        # a tile through the hub's proxy from the student's own server (its toolkit extension forwards it to the
        # class sandbox with the student's header)
        ask = urllib.request.Request(f"{base}/user/{user}/toolkit/tiles/12/3494/1620.png",
                                     headers={"Authorization": f"token {made['token']}"})
        with urllib.request.urlopen(ask, timeout=30) as tile:
            got["tile"] = (tile.status, tile.headers["content-type"], tile.read(8))
        got["pasted"] = browser_login(base, got["link"], user)
        done = kernel.execute(COMPLETE_CELL.format(pasted=got["pasted"]))
        assert done["error"] is None, f"{user}: {done['error']}"
        got["completed"] = json.loads(done["stdout"].strip().splitlines()[-1])
        return got
    finally:
        kernel.close()


# ----------------------------------------------------------------------------------------- the hub
@pytest.fixture
def hub(tmp_path):
    chp = find_chp()
    if chp is None:
        pytest.skip("configurable-http-proxy is not installed (npm install --prefix "
                    "~/.cache/toolkit-ci/configurable-http-proxy configurable-http-proxy; .ci/run does it)")
    hub_exe = Path(sys.executable).with_name("jupyterhub")
    if not hub_exe.exists():
        pytest.skip("jupyterhub is not installed in this environment (pip install jupyterhub)")
    ports = {k: free_port() for k in ("proxy", "proxy_api", "hub", "classroom")}
    admin = secrets.token_hex(32)
    home = tmp_path / "home"
    for d in ("home", "jupyter/config", "jupyter/data", "jupyter/runtime", "class"):
        (tmp_path / d).mkdir(parents=True)
    bin_dir = Path(sys.executable).parent
    (tmp_path / "hub_config.py").write_text(f"""
c = get_config()
load_subconfig({str(DEPLOY_CONFIG)!r})      # the configuration under test: the class sandbox and the users' env
c.JupyterHub.ip = "127.0.0.1"
c.JupyterHub.port = {ports['proxy']}
c.JupyterHub.hub_ip = "127.0.0.1"
c.JupyterHub.hub_port = {ports['hub']}
c.ConfigurableHTTPProxy.api_url = "http://127.0.0.1:{ports['proxy_api']}"
c.ConfigurableHTTPProxy.command = [{chp!r}]
c.ConfigurableHTTPProxy.pid_file = {str(tmp_path / 'proxy.pid')!r}
c.JupyterHub.db_url = "sqlite:///{tmp_path / 'jupyterhub.sqlite'}"
c.JupyterHub.cookie_secret_file = {str(tmp_path / 'cookie_secret')!r}
c.JupyterHub.authenticator_class = "dummy"
c.Authenticator.allow_all = True
c.JupyterHub.spawner_class = "simple"
c.SimpleLocalProcessSpawner.home_dir_template = {str(home)!r} + "/{{username}}"
c.Spawner.cmd = [{str(bin_dir / 'jupyterhub-singleuser')!r}]
c.Spawner.args = {["--allow-root"] if os.geteuid() == 0 else []!r}
c.Spawner.ip = "127.0.0.1"
c.Spawner.start_timeout = 120
c.Spawner.http_timeout = 120
c.Spawner.environment.update({{"MPLBACKEND": "module://matplotlib_inline.backend_inline"}})
c.JupyterHub.services.append({{"name": "test-admin", "api_token": {admin!r}}})
c.JupyterHub.load_roles.append({{"name": "test-admin", "services": ["test-admin"],
                                 "scopes": ["admin:users", "admin:servers", "tokens", "access:servers"]}})
c.JupyterHub.cleanup_servers = True
""")
    env = {**{k: v for k, v in os.environ.items() if not k.startswith(("JUPYTER", "TOOLKIT_", "IPYTHON"))},
           "HOME": str(tmp_path / "home"), "JUPYTER_CONFIG_DIR": str(tmp_path / "jupyter/config"),
           "JUPYTER_DATA_DIR": str(tmp_path / "jupyter/data"),
           "JUPYTER_RUNTIME_DIR": str(tmp_path / "jupyter/runtime"), "PATH": f"{bin_dir}:{os.environ['PATH']}",
           "TOOLKIT_CLASSROOM_SECRET_FILE": str(tmp_path / "class" / "class.secret"),
           "TOOLKIT_CLASSROOM_PORT": str(ports["classroom"]),
           "TOOLKIT_CLASSROOM_DB": str(tmp_path / "class" / "worlds.sqlite"),
           "TOOLKIT_CLASSROOM_TOOLKIT": str(bin_dir / "toolkit")}
    log = open(tmp_path / "jupyterhub.log", "wb")
    proc = subprocess.Popen([str(hub_exe), "-f", str(tmp_path / "hub_config.py")], cwd=tmp_path, env=env,
                            stdout=log, stderr=subprocess.STDOUT, start_new_session=True)
    base = f"http://127.0.0.1:{ports['proxy']}"
    try:
        wait_http(f"{base}/hub/api/", 90, "jupyterhub", proc)
        classroom = f"http://127.0.0.1:{ports['classroom']}"
        wait_http(classroom + "/classroom/health", 60, "the class sandbox service")
        yield {"base": base, "api": f"{base}/hub/api", "admin": admin, "classroom": classroom,
               "secret_file": tmp_path / "class" / "class.secret", "log": tmp_path / "jupyterhub.log",
               "home": home}
    finally:
        # the hub stops its single-user servers, its proxy and the class sandbox on SIGTERM
        proc.send_signal(signal.SIGTERM)
        try:
            proc.wait(timeout=40)
        except subprocess.TimeoutExpired:
            pass
        _kill_leftovers(proc, tmp_path)
        log.close()


def _kill_leftovers(proc: subprocess.Popen, tmp_path: Path) -> None:
    """Whatever the hub left (its session's processes, the proxy, servers spawned in their own sessions, whose
    command line names this test's folder) is killed."""
    import psutil

    mine = []
    for p in psutil.process_iter(["pid", "cmdline", "environ"]):
        try:
            text = " ".join(p.info["cmdline"] or []) + " " + " ".join(
                f"{k}={v}" for k, v in (p.info["environ"] or {}).items())
        except (psutil.Error, TypeError):
            continue
        if p.pid != os.getpid() and str(tmp_path) in text:
            mine.append(p)
    try:
        os.killpg(proc.pid, signal.SIGKILL)
    except ProcessLookupError:
        pass
    for p in mine:
        try:
            p.kill()
        except psutil.Error:
            pass
    psutil.wait_procs(mine, timeout=10)


def map_drawn_in_a_browser_on_the_hub(base: str, user: str, map_html: str) -> None:
    """chromium logs ``user`` in to the hub (its dummy authenticator), opens the user's JupyterLab page through
    the hub's proxy and shows in it the map the user's kernel rendered (its ``_repr_html_``, the ``srcdoc``
    iframe JupyterLab shows): the map finds the page's base URL (``/user/NAME/``) and its tiles come from the
    student's own server through the proxy, never from the class sandbox."""
    from tests.browser.conftest import ARGS, CHROMIUM

    if not os.path.exists(CHROMIUM):
        pytest.skip("Debian's chromium is not installed (apt-get install -y chromium)")
    sync_api = pytest.importorskip("playwright.sync_api")
    tiles, requests = [], []
    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            page = browser.new_page(viewport={"width": 1200, "height": 800})
            page.set_default_timeout(60000)
            page.on("request", lambda r: requests.append(r.url))
            page.on("response", lambda r: tiles.append((r.url, r.status)) if "/tiles/" in r.url else None)
            page.goto(base + "/hub/login")
            page.fill("input[name=username]", user)
            page.fill("input[name=password]", "any")
            page.click("input[type=submit], button[type=submit]")
            page.wait_for_url("**/user/**", timeout=90000)
            page.goto(f"{base}/user/{user}/lab", wait_until="domcontentloaded")
            page.wait_for_selector("#jupyter-config-data", state="attached")
            page.evaluate("""html => { const d = document.createElement('div');
                d.id = 'toolkit-test-map';
                d.style.cssText = 'position:fixed;left:0;top:0;width:1000px;height:640px;z-index:100000;background:#fff';
                d.innerHTML = html; document.body.appendChild(d); }""", map_html)
            frame = page.frame_locator("#toolkit-test-map iframe").first
            frame.locator("img.leaflet-tile-loaded").nth(3).wait_for(timeout=60000)
            inner = next(f for f in page.frames if f.url == "about:srcdoc")
            inner.wait_for_function("[...document.querySelectorAll('img.leaflet-tile')]"
                                    ".every(i => i.classList.contains('leaflet-tile-loaded'))")
            drawn = inner.evaluate("[...document.querySelectorAll('img.leaflet-tile-loaded')]"
                                   ".filter(i => i.naturalWidth === 256).length")
            note = inner.evaluate("document.querySelectorAll('.toolkit-tiles-note').length")
            shots = ROOT / "tests" / "browser" / "screenshots"
            shots.mkdir(parents=True, exist_ok=True)
            page.screenshot(path=str(shots / "hub_student_map.png"))
        finally:
            browser.close()
    assert drawn >= 4 and note == 0, f"only {drawn} tiles drew (note shown: {note})"
    assert tiles and all(url.startswith(f"{base}/user/{user}/toolkit/tiles/") and status == 200
                         for url, status in tiles), tiles[:5]
    assert not [u for u in requests if "/sandbox/tiles/" in u], "a tile was asked of the class sandbox"


def test_three_students_on_a_real_jupyterhub_each_see_only_their_own_world(hub):
    from toolkit.classroom import Teacher, read_secret, student_token

    status, _ = api(f"{hub['api']}/users", hub["admin"], "POST", {"usernames": list(USERS)})
    assert status == 201
    with concurrent.futures.ThreadPoolExecutor(len(USERS)) as pool:
        runs = {u: pool.submit(run_student, hub["base"], hub["api"], hub["admin"], u) for u in USERS}
        seen = {u: f.result(timeout=170) for u, f in runs.items()}
    for user, got in seen.items():
        assert got["user"] == user
        assert got["api"].startswith(hub["classroom"]), "the kernel is not bound to the class sandbox"
        assert not got["embedded"], "the kernel started an embedded sandbox"
        assert got["notes"] == [f"a note from {user}"], f"{user} sees {got['notes']}"
        assert got["tiles"] == hub["classroom"] + "/sandbox/tiles/{z}/{x}/{y}.png"     # the kernel's live source
        assert "/sandbox/" not in got["map_html"] and hub["classroom"] not in got["map_html"]
        assert got["tile"] == (200, "image/png", b"\x89PNG\r\n\x1a\n")
        assert got["link"].startswith("/services/toolkit-classroom/auth/oauth/authorize?")
        assert "toolkit_ticket=" in got["link"] and "toolkit_classroom=" not in got["link"]
        assert got["pasted"].startswith(hub["base"] + "/services/toolkit-classroom/sandbox/callback?code=")
        assert "logged in" in got["completed"]["status"].lower() and got["completed"]["me"]
    map_drawn_in_a_browser_on_the_hub(hub["base"], USERS[0], seen[USERS[0]]["map_html"])
    secret = read_secret(hub["secret_file"])
    worlds = Teacher(hub["classroom"], secret).worlds()
    assert sorted(worlds["student"]) == sorted(USERS) and (worlds["calls"] > 0).all()
    # the class secret and the students' tokens never reach the hub's log
    log = hub["log"].read_text(errors="replace")
    assert "JupyterHub is now running" in log or "running at" in log
    for value in (secret.reveal(), *(student_token(secret, u) for u in USERS)):
        assert value not in log
        assert all(value not in got["link"] for got in seen.values())    # links carry a ticket, not a token


def test_a_shared_browser_on_the_hub_reaches_only_the_logged_in_students_world(hub):
    """One chromium context (one browser, its cookies kept throughout), the hub's own login only: without a hub
    login the class sandbox's page gives the hub's login, not a world; student1 logs in and lands in student1's
    world; after the hub's logout (the class sandbox's cookie still in the browser) the same page asks for the
    hub's login again; student2 logs in on that browser and lands in student2's world, never student1's. Each
    world is told apart by an app named after its student, made with that student's own header."""
    import httpx

    from tests.browser.conftest import ARGS, CHROMIUM
    from toolkit.classroom import HEADER, classroom_header, read_secret, student_token

    if not os.path.exists(CHROMIUM):
        pytest.skip("Debian's chromium is not installed (apt-get install -y chromium)")
    sync_api = pytest.importorskip("playwright.sync_api")
    started = time.monotonic()
    users = ("student1", "student2")
    status, _ = api(f"{hub['api']}/users", hub["admin"], "POST", {"usernames": list(users)})
    assert status == 201
    secret = read_secret(hub["secret_file"])
    keys = {}
    for user in users:
        made = httpx.post(hub["classroom"] + "/sandbox/apps", timeout=60, json={"name": f"app of {user}"},
                          headers={HEADER: classroom_header(user, student_token(secret, user))})
        assert made.status_code == 200, made.text
        keys[user] = made.json()["rest_api_key"]
    page_url = hub["base"] + "/services/toolkit-classroom/sandbox/apps"

    def login_page_of(page, user: str) -> str:
        """The class sandbox's login page for ``user``'s app, as this browser's world shows it."""
        page.goto(hub["base"] + "/services/toolkit-classroom/auth/oauth/authorize?response_type=code&client_id="
                  + keys[user] + "&redirect_uri=http://localhost:8765/callback")
        return page.inner_text("body")
    shots = ROOT / "tests" / "browser" / "screenshots"
    shots.mkdir(parents=True, exist_ok=True)

    def apps_shown(page) -> list[str]:
        assert page.url == page_url, page.url
        return sorted(a["name"] for a in json.loads(page.inner_text("body"))["apps"] if a["name"].startswith("app of"))

    def hub_login_form(page) -> bool:
        return "/hub/login" in page.url and page.locator("input[name=username]").count() == 1

    def log_in(page, user: str) -> None:
        page.fill("input[name=username]", user)
        page.fill("input[name=password]", "any")
        page.click("input[type=submit], button[type=submit]")
        page.wait_for_url(page_url, timeout=60000)

    with sync_api.sync_playwright() as pw:
        browser = pw.chromium.launch(executable_path=CHROMIUM, args=ARGS, headless=True)
        try:
            context = browser.new_context(viewport={"width": 1000, "height": 700})
            page = context.new_page()
            page.set_default_timeout(60000)
            page.goto(page_url)                                   # no hub login: the hub's login, no world
            assert hub_login_form(page) and "app of" not in page.content()
            log_in(page, "student1")
            assert apps_shown(page) == ["app of student1"]
            assert "to continue to app of student1" in login_page_of(page, "student1")
            page.screenshot(path=str(shots / "hub_oauth_student1.png"))
            ours = [c for c in context.cookies() if c["name"] == "service-toolkit-classroom"]
            assert len(ours) == 1 and ours[0]["httpOnly"] and ours[0]["path"].startswith("/services/toolkit-classroom")
            page.goto(hub["base"] + "/hub/logout")
            assert any(c["name"] == "service-toolkit-classroom" for c in context.cookies())   # still held
            page.goto(page_url)                                   # the hub's login again, not student1's world
            assert hub_login_form(page) and "app of student1" not in page.content()
            log_in(page, "student2")                              # another student on the same browser
            assert apps_shown(page) == ["app of student2"]
            page.reload()
            assert apps_shown(page) == ["app of student2"]
            # worlds are seeded alike, so the app each student made has the same key in both: the very page
            # student1 saw now shows student2's app
            assert keys["student1"] == keys["student2"]
            shown = login_page_of(page, "student1")
            assert "to continue to app of student2" in shown and "student1" not in shown
            page.screenshot(path=str(shots / "hub_oauth_student2.png"))
        finally:
            browser.close()
    log = hub["log"].read_text(errors="replace")
    assert all(student_token(secret, u) not in log for u in users) and secret.reveal() not in log
    assert time.monotonic() - started < 90
