"""A class sandbox behind a hub's proxy: it answers under the service's path (``/services/toolkit-classroom``,
``--prefix`` or ``$JUPYTERHUB_SERVICE_PREFIX``) as well as at its root, so a student's browser reaches the maps'
tiles and the login pages through the hub, and a login link carries a single-use ticket, never the token.

These tests call the class sandbox the way the hub's proxy does (the whole path, prefix included, and the
hub's ``Host``); the real hub and proxy are in ``test_jupyterhub.py``.
"""
from __future__ import annotations

import re
from urllib.parse import parse_qs, urljoin, urlsplit

import httpx
import pytest

import toolkit
from toolkit.classroom import COOKIE, HEADER, TICKET, ClassroomError, classroom_header
from toolkit.sandbox.classroom import ClassroomServer, normalize_prefix

from .conftest import SECRET, token

PREFIX = "/services/toolkit-classroom"
HUB = "hub.example.test"
TILE = "/sandbox/tiles/12/3494/1620.png"


@pytest.fixture(scope="module")
def proxied():
    server = ClassroomServer(SECRET, frozen=True, prefix=PREFIX + "/").start()
    yield server
    server.stop()


def browser(server: ClassroomServer) -> httpx.Client:
    """A browser on the hub's origin: requests go to the class sandbox with the hub's Host, as the proxy sends
    them (configurable-http-proxy keeps the Host and the whole path)."""
    return httpx.Client(base_url=server.base_url, headers={"Host": HUB}, timeout=30, follow_redirects=False)


def hub_path(location: str) -> str:
    """A redirect as the browser follows it on the hub's origin: relative or on the hub, never elsewhere."""
    parts = urlsplit(location)
    assert parts.netloc in ("", HUB), f"the browser was sent off the hub: {location}"
    return location if not parts.netloc else location[len(f"{parts.scheme}://{parts.netloc}"):]


def test_prefix_is_normalized_and_checked():
    assert normalize_prefix("/services/toolkit-classroom/") == PREFIX
    assert normalize_prefix("") == normalize_prefix("/") == ""
    with pytest.raises(ClassroomError, match="starts with /"):
        normalize_prefix("services/toolkit-classroom")


def test_tiles_answer_under_the_prefix_to_a_student_only(proxied):
    with browser(proxied) as b:
        anonymous = b.get(PREFIX + TILE)                     # no anonymous load, tiles included
        assert anonymous.status_code == 401 and "own Jupyter server" in anonymous.json()["msg"]
        b.headers[HEADER] = classroom_header("uma", token("uma"))   # as the student's Jupyter server forwards it
        under = b.get(PREFIX + TILE)
        assert under.status_code == 200 and under.headers["content-type"] == "image/png"
        assert under.content.startswith(b"\x89PNG")
        root = httpx.get(proxied.base_url + TILE, headers={HEADER: b.headers[HEADER]}, timeout=30)
        assert root.content == under.content                 # the root still answers (the kernels' address)
        assert b.get(TILE).status_code == 400                # ... at the class sandbox's own names only
        del b.headers[HEADER]
        refused = b.get(PREFIX + "/local/search/keyword.json", params={"query": "해운대"})
        assert refused.status_code == 401 and "TOOLKIT_CLASSROOM_TOKEN" in refused.json()["msg"]
        assert b.get(PREFIX + "/classroom/health").json() == {"ok": True}


def test_api_calls_through_the_prefix_reach_the_students_world(proxied):
    name = "pia"
    with browser(proxied) as b:
        b.headers[HEADER] = classroom_header(name, token(name))
        config = b.get(PREFIX + "/sandbox/config")
        assert config.status_code == 200
    # a browser request through the proxy does not move the world's address: the kernel's stays
    assert proxied.classroom.world(name).sandbox.base_url != f"http://{HUB}"


def test_a_ticket_binds_a_browser_once_and_only_for_its_student(proxied):
    with httpx.Client(base_url=proxied.base_url, timeout=30) as kernel:
        refused = kernel.post("/classroom/ticket")
        assert refused.status_code == 401
        wrong = kernel.post("/classroom/ticket", headers={HEADER: classroom_header("ria", "0" * 32)})
        assert wrong.status_code == 401
        made = kernel.post("/classroom/ticket", headers={HEADER: classroom_header("ria", token("ria"))}).json()
    assert made["parameter"] == TICKET and made["expires_in"] == 300 and token("ria") not in made["ticket"]
    with browser(proxied) as b:
        first = b.get(PREFIX + "/sandbox/config", params={TICKET: made["ticket"]})
        assert first.status_code == 200
        cookie = first.headers["set-cookie"]
        assert cookie.startswith(COOKIE + "=") and f"Path={PREFIX}/;" in cookie and "HttpOnly" in cookie
        again = httpx.get(proxied.base_url + PREFIX + "/sandbox/config", params={TICKET: made["ticket"]},
                          headers={"Host": HUB})
        assert again.status_code == 401                      # spent
        assert b.get(PREFIX + "/sandbox/config").status_code == 200     # the cookie carries on
    assert httpx.get(proxied.base_url + PREFIX + "/sandbox/config",
                     params={TICKET: "not-a-ticket"}).status_code == 401


def test_a_hub_logout_or_another_hub_user_on_the_browser_ends_its_session(proxied):
    """A shared browser: student1's session of the class sandbox holds only while the browser keeps the hub's
    session cookie it had (the hub makes a new one at every login and clears it at logout), so the next hub user
    on that browser, or the same browser after a logout, never reaches student1's world."""
    with httpx.Client(base_url=proxied.base_url, timeout=30) as kernel:
        made = kernel.post("/classroom/ticket", headers={HEADER: classroom_header("una", token("una"))}).json()
    with browser(proxied) as b:
        b.cookies.set("jupyterhub-session-id", "hub-login-of-una")
        first = b.get(PREFIX + "/sandbox/config", params={TICKET: made["ticket"]})
        assert first.status_code == 200
        assert b.get(PREFIX + "/sandbox/config").status_code == 200          # same hub login: the session holds
        session = b.cookies.get(COOKIE)
        b.cookies.set("jupyterhub-session-id", "hub-login-of-someone-else")  # another hub user logged in here
        refused = b.get(PREFIX + "/sandbox/config")
        assert refused.status_code == 401 and "login link" in refused.json()["msg"]
        b.cookies.set("jupyterhub-session-id", "hub-login-of-una")           # and the session is gone for good
        assert b.get(PREFIX + "/sandbox/config").status_code == 401
    with browser(proxied) as b:                                             # a hub logout clears the cookie
        with httpx.Client(base_url=proxied.base_url, timeout=30) as kernel:
            made = kernel.post("/classroom/ticket", headers={HEADER: classroom_header("una", token("una"))}).json()
        b.cookies.set("jupyterhub-session-id", "hub-login-2")
        assert b.get(PREFIX + "/sandbox/config", params={TICKET: made["ticket"]}).status_code == 200
        session = b.cookies.get(COOKIE)
    with browser(proxied) as after_logout:
        after_logout.cookies.set(COOKIE, session)
        assert after_logout.get(PREFIX + "/sandbox/config").status_code == 401


def _form(page: str, form_id: str, current: str, **fields) -> tuple[str, dict]:
    form = re.search(rf"<form method='post' action='([^']+)' id='{form_id}'>(.*?)</form>", page, re.S)
    assert form, f"no {form_id} form on the page:\n{page[:400]}"
    data: dict = {}
    for kind, key, value in re.findall(r"<input type='(hidden|checkbox)' name='([^']+)' value='([^']*)'",
                                       form.group(2)):
        data.setdefault(key, []).append(value.replace("&amp;", "&").replace("&#x27;", "'").replace("&quot;", '"'))
    data.update(fields)
    return urljoin(current, form.group(1)), data


def log_in(b: httpx.Client, link: str) -> tuple[str, httpx.Response]:
    """A student's browser ``b`` on the hub's origin opens the login link, logs in as a demo user and consents,
    every redirect staying under the prefix on the hub; returns where it is sent at last (the app's callback, a
    path) and that redirect."""
    page = b.get(link)
    assert page.status_code == 200 and "id='login'" in page.text, page.text[:300]
    action, data = _form(page.text, "login", link, email="minji@sandbox.test", password="sandbox")
    assert action.startswith(PREFIX + "/auth/oauth/")
    # what a browser sends with a form's post: the origin of the page (the hub's, where the browser is)
    origin = {"Origin": f"http://{b.headers.get('host') or urlsplit(str(b.base_url)).netloc}"}
    answer = b.post(action, data=data, headers=origin)
    for _ in range(4):                                    # consent (or redirects) until the app's callback
        if answer.status_code in (302, 303):
            location = hub_path(answer.headers["location"])
            assert location.startswith(PREFIX + "/"), location
            if location.startswith(PREFIX + "/sandbox/callback"):
                return location, answer
            answer = b.get(location)
            continue
        assert answer.status_code == 200, answer.text[:400]
        action, data = _form(answer.text, "consent", str(answer.request.url.raw_path, "ascii"), action="agree")
        answer = b.post(action, data=data, headers=origin)
    pytest.fail("the browser never reached the callback")


def test_a_students_browser_logs_in_through_the_hub_and_the_kernel_finishes(proxied, monkeypatch):
    """The login widget's path, as a student on a hub takes it: the kernel makes the link (browser address and a
    ticket), the browser logs in and consents on the hub's origin and lands on the callback page there, the
    student pastes that address, the kernel exchanges the code."""
    monkeypatch.setenv("TOOLKIT_CLASSROOM_BROWSER_URL", PREFIX)
    tk = toolkit.connect(classroom=proxied.base_url, student="sol", token=token("sol"))
    assert tk.sandbox.browser_base == PREFIX
    from toolkit.widgets import LoginWidget

    box = LoginWidget(tk, ["profile"])
    box.start_button.click()                     # what the student presses
    request = box.request()
    link = re.search(r"href='([^']+)'", box.link.value).group(1).replace("&amp;", "&")
    box.unfollow()
    assert link.startswith(PREFIX + "/auth/oauth/authorize?") and f"{TICKET}=" in link
    assert token("sol") not in link and "toolkit_classroom=" not in link
    with browser(proxied) as b:
        location, answer = log_in(b, link)
        for cookie in answer.headers.get_list("set-cookie"):
            assert f"Path={PREFIX}" in cookie, cookie
        landed = b.get(location)
        assert landed.status_code == 200 and "Copy the whole address" in landed.text
        assert f"url('{PREFIX}/sandbox/fonts/NanumGothic.ttf')" in landed.text     # the page's font, via the hub
        assert b.get(f"{PREFIX}/sandbox/fonts/NanumGothic.ttf").status_code == 200
    pasted = f"https://{HUB}{location}"
    assert parse_qs(urlsplit(pasted).query)["state"] == [request.state]
    got = tk.oauth.complete(request, pasted)
    assert got.access_token and tk.user.me()["id"]
    assert proxied.classroom.world("sol").sandbox.base_url == proxied.base_url


def test_maps_hold_no_class_sandbox_address_and_the_kernel_knows_the_live_one(proxied, monkeypatch):
    """A student's map asks the Jupyter page it is shown in for tiles (the student's own server forwards them),
    so neither the class sandbox's address nor the hub's path to it is in the HTML; the kernel keeps the live
    source for m.save()."""
    monkeypatch.setenv("TOOLKIT_CLASSROOM_BROWSER_URL", PREFIX)
    tk = toolkit.connect(classroom=proxied.base_url, student="tae", token=token("tae"))
    route = tk.navi.directions((129.1586, 35.1631), (129.0592, 35.1579))
    m = route.map()
    html = m.get_root().render()
    assert "/sandbox/tiles" not in html and proxied.base_url not in html and "L.tileLayer.toolkit(" in html
    assert m.toolkit_tiles == proxied.base_url + "/sandbox/tiles/{z}/{x}/{y}.png"
    monkeypatch.delenv("TOOLKIT_CLASSROOM_BROWSER_URL")
    plain = toolkit.connect(classroom=proxied.base_url, student="tae", token=token("tae"))
    assert plain.sandbox.browser_base == proxied.base_url
    assert plain.sandbox.browser_link(proxied.base_url + "/x?y=1").startswith(proxied.base_url + "/x?y=1&" + TICKET)


def test_the_command_line_takes_the_hubs_service_prefix(tmp_path):
    from toolkit.cli import hub_lines, main

    lines = hub_lines("http://127.0.0.1:8765", tmp_path / "class.secret", PREFIX)
    assert f"\"TOOLKIT_CLASSROOM_BROWSER_URL\": '{PREFIX}'" in lines
    assert main(["classroom", "--secret-file", str(tmp_path / "s"), "--prefix", "services/x"]) == 1
