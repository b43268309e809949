"""The browser's student from the hub's own OAuth for services (``toolkit.sandbox.classroom_hub``), against a
small stand-in of the hub on the same origin: its login and logout, ``/hub/api/oauth2/authorize`` (with PKCE),
``/hub/api/oauth2/token`` and ``/hub/api/user``, as JupyterHub answers them. The class sandbox's side is the real
one: ``jupyterhub.services.auth.HubOAuth`` configured as the hub configures its service. The real hub, its proxy and
chromium are in ``test_jupyterhub.py``.
"""
from __future__ import annotations

import base64
import hashlib
import secrets
import time
from urllib.parse import parse_qs, urlencode, urlsplit

import httpx
import pytest

from toolkit.classroom import COOKIE, HEADER, TICKET, classroom_header
from toolkit.loopback import LoopbackServer
from toolkit.sandbox.classroom import Classroom

from .conftest import SECRET, token

pytest.importorskip("jupyterhub")

PREFIX = "/services/toolkit-classroom"
CLIENT = "service-toolkit-classroom"
API_TOKEN = "the-service-api-token-" + "0" * 20
SCOPE = "access:services!service=toolkit-classroom"


class FakeHub:
    """What the class sandbox and a browser see of JupyterHub: ``/hub/login?user=NAME`` logs the browser in (a new
    ``jupyterhub-session-id``), ``/hub/logout`` logs it out and deletes the tokens of its session, the OAuth
    endpoints issue codes and tokens to the client ``service-toolkit-classroom`` only, and ``/hub/api/user`` tells
    whose a token is (HTTP 403 for a token it does not know)."""

    def __init__(self):
        self.codes: dict[str, dict] = {}
        self.tokens: dict[str, dict] = {}
        self.user_calls = 0
        self.allowed = True              # whether users hold access:services!service=toolkit-classroom

    async def __call__(self, scope, receive, send):
        from starlette.requests import Request
        from starlette.responses import HTMLResponse, JSONResponse, RedirectResponse

        request = Request(scope, receive)
        path, q = request.url.path, request.query_params
        user, session = request.cookies.get("fakehub-user"), request.cookies.get("jupyterhub-session-id")
        if path == "/hub/login":
            if "user" not in q:
                answer = HTMLResponse("<form id='hub-login'>the hub's login page</form>")
            else:
                answer = RedirectResponse(q.get("next", "/hub/home"), 302)
                answer.set_cookie("fakehub-user", q["user"], path="/hub/", httponly=True)
                answer.set_cookie("jupyterhub-session-id", secrets.token_hex(16), path="/")
        elif path == "/hub/logout":
            for key in [k for k, t in self.tokens.items() if t["session"] == session]:
                del self.tokens[key]
            answer = HTMLResponse("logged out")
            answer.delete_cookie("fakehub-user", path="/hub/")
            answer.delete_cookie("jupyterhub-session-id", path="/")
        elif path == "/hub/home":
            answer = HTMLResponse(f"home of {user}")
        elif path == "/hub/api/oauth2/authorize":
            if not user:
                answer = RedirectResponse("/hub/login?" + urlencode({"next": str(request.url.path) + "?" +
                                                                      request.url.query}), 302)
            elif q.get("client_id") != CLIENT or q.get("redirect_uri") != PREFIX + "/oauth_callback":
                answer = HTMLResponse("bad client", 400)
            elif not self.allowed:
                answer = HTMLResponse("You do not have permission to access the service", 403)
            else:
                code = secrets.token_hex(8)
                self.codes[code] = {"user": user, "session": session, "challenge": q.get("code_challenge")}
                answer = RedirectResponse(q["redirect_uri"] + "?" + urlencode({"code": code, "state": q["state"]}),
                                          302)
        elif path == "/hub/api/oauth2/token" and request.method == "POST":
            form = await request.form()
            made = self.codes.pop(form.get("code"), None)
            verifier = (form.get("code_verifier") or "").encode()
            digest = base64.urlsafe_b64encode(hashlib.sha256(verifier).digest()).decode().rstrip("=")
            if (made is None or form.get("client_secret") != API_TOKEN or form.get("client_id") != CLIENT
                    or (made["challenge"] and digest != made["challenge"])):
                answer = JSONResponse({"error": "invalid_grant"}, 400)
            else:
                value = secrets.token_hex(16)
                self.tokens[value] = {"user": made["user"], "session": made["session"]}
                answer = JSONResponse({"access_token": value, "token_type": "Bearer"})
        elif path == "/hub/api/user":
            self.user_calls += 1
            given = request.headers.get("authorization", "").partition(" ")[2]
            held = self.tokens.get(given)
            scopes = [SCOPE, f"read:users:name!user={held['user']}"] if held else []
            answer = (JSONResponse({"kind": "user", "name": held["user"], "scopes": scopes})
                      if held else JSONResponse({"status": 403}, 403))
        else:
            answer = JSONResponse({"status": 404}, 404)
        await answer(scope, receive, send)


class OneOrigin:
    """The hub's proxy, as a browser sees it: ``/hub/...`` goes to the hub, the rest to the class sandbox."""

    def __init__(self, hub, room):
        self.hub, self.room = hub, room

    async def __call__(self, scope, receive, send):
        if scope["type"] == "http" and scope["path"].startswith("/hub/"):
            await self.hub(scope, receive, send)
        else:
            await self.room(scope, receive, send)


@pytest.fixture
def hub():
    from jupyterhub.services.auth import HubOAuth

    from toolkit.sandbox.classroom_hub import HubLogin

    fake = FakeHub()
    auth = HubOAuth(api_token=API_TOKEN, oauth_client_id=CLIENT, base_url=PREFIX + "/", hub_prefix="/hub/",
                    oauth_redirect_uri=PREFIX + "/oauth_callback", access_scopes={SCOPE}, cache_max_age=1)
    login = HubLogin(auth)
    room = Classroom(SECRET, frozen=True, prefix=PREFIX + "/", hub=login)
    server = LoopbackServer(OneOrigin(fake, room), name="fake-hub").start()
    auth.api_url = server.base_url + "/hub/api"
    try:
        yield {"fake": fake, "login": login, "room": room, "url": server.base_url}
    finally:
        server.stop()
        room.close()


def browser(hub) -> httpx.Client:
    return httpx.Client(base_url=hub["url"], timeout=30, follow_redirects=True)


def make_app(hub, name: str) -> None:
    """An app named after the student in their own world (with their header, as their kernel would)."""
    with httpx.Client(base_url=hub["url"], timeout=30, headers={HEADER: classroom_header(name, token(name))}) as k:
        made = k.post("/sandbox/apps", json={"name": f"app of {name}", "redirect_uris": ["http://localhost/cb"]})
        assert made.status_code == 200, made.text


def apps_seen(answer: httpx.Response) -> list[str]:
    assert answer.status_code == 200 and answer.url.path == PREFIX + "/sandbox/apps", (answer.url, answer.text[:200])
    return [a["name"] for a in answer.json()["apps"] if a["name"].startswith("app of ")]


def test_without_a_hub_login_the_browser_gets_the_hubs_login_not_a_world(hub):
    with browser(hub) as b:
        page = b.get(PREFIX + "/sandbox/apps")
        assert page.url.path == "/hub/login" and "hub-login" in page.text
        first = page.history[0]        # the class sandbox sent it through the hub's OAuth, with PKCE and a state
        assert first.status_code == 302
        sent = urlsplit(first.headers["location"])
        asked = parse_qs(sent.query)
        assert sent.path == "/hub/api/oauth2/authorize" and asked["client_id"] == [CLIENT]
        assert asked["redirect_uri"] == [PREFIX + "/oauth_callback"] and asked["code_challenge_method"] == ["S256"]
        assert "state" in asked and b.cookies.get(CLIENT + "-oauth-state") == asked["state"][0]
        # not a page (a font, a form post): refused, not redirected
        font = b.get(PREFIX + "/sandbox/fonts/NanumGothic.ttf", headers={"Sec-Fetch-Mode": "cors"})
        assert font.status_code == 401 and not font.history
        assert b.post(PREFIX + "/auth/oauth/authorize").status_code == 401


def test_the_hub_login_reaches_the_students_world_and_no_cookie_holds_a_token(hub):
    make_app(hub, "ada")
    make_app(hub, "bea")
    with browser(hub) as b:
        b.get("/hub/login", params={"user": "ada"})
        page = b.get(PREFIX + "/sandbox/apps")
        assert apps_seen(page) == ["app of ada"]
        callback = page.history[-1]
        assert callback.url.path == PREFIX + "/oauth_callback"
        set_cookies = callback.headers.get_list("set-cookie")
        session = next(c for c in set_cookies if c.startswith(CLIENT + "="))
        assert f"Path={PREFIX}/;" in session and "HttpOnly" in session and "SameSite=Lax" in session
        assert any(c.startswith(CLIENT + "-oauth-state=;") and "Max-Age=0" in c for c in set_cookies)
        held = b.cookies.get(CLIENT)
        tokens = list(hub["fake"].tokens)
        assert len(tokens) == 1 and held and all(t not in str(b.cookies.jar) for t in tokens)
        assert tokens[0] not in repr(hub["login"].sessions) and tokens[0] not in repr(hub["login"])
        # the session carries on without the hub (cached) and the login pages open in ada's world
        again = b.get(PREFIX + "/sandbox/apps")
        assert apps_seen(again) == ["app of ada"] and not again.history


def test_a_hub_logout_or_another_hub_user_never_reaches_the_previous_world(hub):
    make_app(hub, "ada")
    make_app(hub, "bea")
    with browser(hub) as b:
        b.get("/hub/login", params={"user": "ada"})
        assert apps_seen(b.get(PREFIX + "/sandbox/apps")) == ["app of ada"]
        ours = b.cookies.get(CLIENT)
        b.get("/hub/logout")
        assert b.cookies.get(CLIENT) == ours          # the hub's logout does not clear the class sandbox's cookie
        after = b.get(PREFIX + "/sandbox/apps")
        assert after.url.path == "/hub/login"           # ... and yet: the hub's login, not ada's world
        b.get("/hub/login", params={"user": "bea"})    # another student on the same browser
        assert apps_seen(b.get(PREFIX + "/sandbox/apps")) == ["app of bea"]
        # another hub user logging in without a logout in between (a new hub session id): bea's session ends too
        b.get("/hub/login", params={"user": "ada"})
        assert apps_seen(b.get(PREFIX + "/sandbox/apps")) == ["app of ada"]
    assert len(hub["login"].sessions) <= 3


def test_a_token_the_hub_forgot_ends_the_session_at_the_next_request(hub):
    make_app(hub, "ada")
    with browser(hub) as b:
        b.get("/hub/login", params={"user": "ada"})
        assert apps_seen(b.get(PREFIX + "/sandbox/apps")) == ["app of ada"]
        calls = hub["fake"].user_calls
        b.get(PREFIX + "/sandbox/apps")
        assert hub["fake"].user_calls == calls + 1      # the hub is asked at every request, never a cached answer
        hub["fake"].tokens.clear()                       # the hub revoked it (a logout, an admin, an expiry)
        stale = b.get(PREFIX + "/sandbox/apps")          # at once: the fixture's HubOAuth would cache for 1 s
        # through the hub's OAuth again: still logged in to the hub, so back with a new token, same student
        assert apps_seen(stale) == ["app of ada"] and any(r.url.path == PREFIX + "/oauth_callback"
                                                         for r in stale.history)
        assert hub["fake"].user_calls > calls


def test_the_callback_refuses_a_forged_state_a_stale_code_and_a_user_without_access(hub):
    with browser(hub) as b:
        b.get("/hub/login", params={"user": "ada"})
        forged = b.get(PREFIX + "/oauth_callback", params={"code": "x", "state": "not-ours"})
        assert forged.status_code == 403 and "state" in forged.json()["msg"]
        assert b.get(PREFIX + "/oauth_callback").status_code == 400
        denied = b.get(PREFIX + "/oauth_callback", params={"error": "access_denied"})
        assert denied.status_code == 400 and "did not complete" in denied.json()["msg"]
        assert not hub["login"].sessions
    hub["fake"].allowed = False
    with browser(hub) as b:
        b.get("/hub/login", params={"user": "ada"})
        assert b.get(PREFIX + "/sandbox/apps").status_code == 403       # the hub's own refusal
        assert not hub["login"].sessions


def test_behind_the_hub_a_ticket_binds_nothing_and_the_kernels_header_still_works(hub):
    with httpx.Client(base_url=hub["url"], timeout=30) as kernel:
        made = kernel.post("/classroom/ticket", headers={HEADER: classroom_header("ada", token("ada"))}).json()
        with_header = kernel.get(PREFIX + "/sandbox/config", headers={HEADER: classroom_header("ada", token("ada"))})
        assert with_header.status_code == 200
    with httpx.Client(base_url=hub["url"], timeout=30, follow_redirects=False) as b:
        spent = b.get(PREFIX + "/sandbox/config", params={TICKET: made["ticket"]})
        assert spent.status_code == 302 and spent.headers["location"].startswith("/hub/api/oauth2/authorize?")
        assert COOKIE not in spent.headers.get("set-cookie", "")


def test_a_revoked_student_loses_their_hub_sessions(hub, tmp_path):
    from toolkit.classroom import read_secret, revoke

    secret_file = tmp_path / "class.secret"
    secret_file.write_text(SECRET)
    secret_file.chmod(0o600)
    read_secret(secret_file)
    hub["room"]._secret_file = secret_file
    make_app(hub, "ada")
    with browser(hub) as b:
        b.get("/hub/login", params={"user": "ada"})
        assert apps_seen(b.get(PREFIX + "/sandbox/apps")) == ["app of ada"]
        revoke(secret_file, "ada")
        time.sleep(1.1)                                   # the revocation file is read at most once a second
        hub["room"].generation("ada")
        again = b.get(PREFIX + "/sandbox/apps")
        assert any(r.url.path == PREFIX + "/oauth_callback" for r in again.history)   # a new session, same student


def test_from_environment_needs_a_hub_service(monkeypatch):
    from toolkit.sandbox.classroom_hub import HubLogin

    assert HubLogin.from_environment({"JUPYTERHUB_API_TOKEN": "x"}) is None      # a single-user server's: no
    env = {"JUPYTERHUB_SERVICE_NAME": "toolkit-classroom", "JUPYTERHUB_API_TOKEN": API_TOKEN,
           "JUPYTERHUB_CLIENT_ID": CLIENT, "JUPYTERHUB_SERVICE_PREFIX": PREFIX + "/",
           "JUPYTERHUB_API_URL": "http://127.0.0.1:1/hub/api",
           "JUPYTERHUB_OAUTH_CALLBACK_URL": PREFIX + "/oauth_callback",
           "JUPYTERHUB_OAUTH_ACCESS_SCOPES": f'["{SCOPE}"]'}
    for key, value in env.items():
        monkeypatch.setenv(key, value)
    login = HubLogin.from_environment()
    assert login.cookie_name == CLIENT and login.callback_path == PREFIX + "/oauth_callback"
    assert login.auth.access_scopes == {SCOPE} and API_TOKEN not in repr(login)


def test_at_its_own_address_the_class_sandbox_still_explains_what_a_kernel_must_send(hub):
    with httpx.Client(base_url=hub["url"], timeout=30, follow_redirects=False) as kernel:
        bare = kernel.get("/sandbox/config")           # not through the hub's proxy: no redirect to the hub
        assert bare.status_code == 401 and "TOOLKIT_CLASSROOM_TOKEN" in bare.json()["msg"]


def test_anonymous_logins_through_the_hub_are_bounded_in_count_length_and_rate(hub, monkeypatch):
    """Anyone reaching the hub's public address may start a login: each one's state is bounded in length (HTTP 414
    past 2,048 characters), all of them in count (the oldest goes), and one visitor's in rate (held, then 429)."""
    import toolkit.sandbox.classroom_hub as hub_module

    monkeypatch.setattr(hub_module, "STATES_MAX", 200)
    with httpx.Client(base_url=hub["url"], timeout=30, follow_redirects=False) as visitor:
        assert visitor.get(PREFIX + "/sandbox/config", params={"q": "x" * 14_000}).status_code == 414
        statuses = [visitor.get(PREFIX + f"/page/{k}", params={"q": "y" * 1500},
                                headers={"X-Forwarded-For": f"198.18.{k // 250}.{k % 250}"}).status_code
                    for k in range(600)]        # 600 visitors, each from their own address behind the proxy
        assert set(statuses) == {302}
        assert len(hub["login"].states) <= 200 and len(hub["login"].auth._oauth_states) <= 200
    from concurrent.futures import ThreadPoolExecutor

    def visit(_):
        with httpx.Client(base_url=hub["url"], timeout=30, follow_redirects=False) as one_visitor:
            return one_visitor.get(PREFIX + "/page", headers={"X-Forwarded-For": "198.51.100.7"}).status_code

    started = time.monotonic()
    with ThreadPoolExecutor(32) as pool:        # one visitor, 160 page visits at once: a burst, then held and refused
        one = list(pool.map(visit, range(160)))
    allowed = 100 + 20 * (time.monotonic() - started) + 1
    assert one.count(302) <= allowed and set(one) <= {302, 429}
    if len(one) > allowed + 5:
        assert one.count(429) >= len(one) - allowed - 5
