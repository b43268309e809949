"""notebooks/reference/api.md gives every endpoint's parameters, auth and a curl line against the sandbox; the curl
lines run (read here and sent with httpx, as curl would send them) against a live sandbox."""
from __future__ import annotations

import json
import re
import shlex
from pathlib import Path

import httpx

API_MD = Path(__file__).resolve().parents[1] / "notebooks" / "reference" / "api.md"


def _curl_lines() -> list[str]:
    return re.findall(r"^curl .+$", API_MD.read_text("utf-8"), flags=re.M)


def _send(http: httpx.Client, line: str, base: str, values: dict[str, str]) -> httpx.Response:
    for name, value in values.items():
        line = line.replace(name, value)
    args = shlex.split(line)[1:]
    method, url, headers, data, files, body, get = "POST", None, {}, [], [], None, False
    it = iter(args)
    for a in it:
        if a == "-G":
            get = True
        elif a == "-X":
            method = next(it)
        elif a == "-H":
            k, v = next(it).split(": ", 1)
            headers[k] = v
        elif a == "--data-urlencode":
            data.append(tuple(next(it).split("=", 1)))
        elif a == "-F":
            k, v = next(it).split("=", 1)
            files.append((k, (None, v)))
        elif a == "-d":
            body = next(it)
        else:
            url = a
    assert url and url.startswith(base), line
    if get:
        return http.request("GET" if method == "POST" else method, url, params=data, headers=headers)
    if body is not None:
        return http.request(method, url, content=body.encode(), headers=headers)
    if files:
        return http.request(method, url, files=files, headers=headers)
    if not data and method == "POST" and "-X" not in args:
        method = "POST"
    return http.request(method, url, data=dict(data) if data else None, headers=headers)


def test_every_endpoint_has_parameters_auth_and_a_curl_line():
    text = API_MD.read_text("utf-8")
    spec = json.loads((API_MD.parents[2] / "tests" / "data" / "spec_endpoints.json").read_text("utf-8"))
    for row in spec:
        head = f"**`{row['method']} {row['host']}{row['path']}`**"
        assert head in text, head
        block = text.split(head, 1)[1].split("**`", 1)[0]
        assert "Auth: " in block and "Parameters: " in block and "\ncurl " in block, head
        assert f"'http://127.0.0.1:PORT/{row['host']}" in block, head


def test_the_curl_lines_run_against_the_sandbox(fresh_server):
    app = fresh_server.app_config()
    base = fresh_server.base_url
    with httpx.Client(timeout=30) as http:
        token = http.post(f"{base}/sandbox/login", json={
            "user_id": 4100000001, "scopes": ["profile", "account_email", "openid", "friends", "talk_message",
                                              "story_publish", "shipping_address", "plusfriends"]}).json()
        values = {"http://127.0.0.1:PORT": base, "REST_API_KEY": app["rest_api_key"], "ADMIN_KEY": app["admin_key"],
                  "ACCESS_TOKEN": token["access_token"]}
        answers = {}
        ending = ("logout", "unlink", "revoke", "delete")           # lines that end the session go last
        for line in sorted(_curl_lines(), key=lambda ln: any(w in ln.split("'")[1] for w in ending)):
            r = _send(http, line, base, values)
            answers[line.split("'")[1].split("PORT", 1)[1]] = r
            assert r.status_code < 500, (line, r.status_code, r.text[:200])
            assert "no such API" not in r.text, line
    ok = [p for p, r in answers.items() if r.status_code in (200, 302)]
    assert len(answers) >= 60 and len(ok) >= 35, {p: answers[p].status_code for p in set(answers) - set(ok)}
    for path in ("/local/v2/local/search/keyword.json", "/navi/v1/directions", "/status/api/health/current",
                 "/api/v2/api/talk/memo/default/send", "/api/v2/user/me"):
        assert answers[path].status_code == 200, (path, answers[path].text[:200])
    assert answers["/local/v2/local/search/keyword.json"].json()["documents"]          # a point of the city
