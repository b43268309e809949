"""One load-generator process of bench_classroom: simulated students against a class sandbox.

    python tests/bench/classroom_load.py < job.json      # run by bench_classroom, never by hand

The job (JSON on standard input, so no student token shows in a process list): ``{"url", "students": [[name,
token], ...], "walkthrough": true|false, "seconds", "think": [lo, hi], "seed"}``.

Set-up, before the clock starts: every student (``walkthrough``: true), or only the first, runs a walkthrough's
calls with the toolkit's own client bound to their world (``toolkit.connect(classroom=...)``: status, its
history, keyword, address, category and region searches, a route, a login, a story posted and listed, a memo, an
incident and a clock advance, the tiles of one map view), every request recorded; the others only log in (their
world is made by it: a GET of its configuration and the walkthrough's login, 16 students at a time) and take the first
one's recorded requests. Each student then replays requests of the walkthrough calls, with its own classroom
header, keys and login token: one *step* (a call a notebook cell makes; a map view is its 12 tiles fetched over 6
connections, as a browser does) then a think time drawn uniformly from ``think`` seconds, until ``seconds`` have
passed. Control calls (login, incident, clock) are not replayed. Students start at random moments of their first
think time, so the class does not start in step.

The process prints ``ready {...}`` after its set-up, waits for ``go`` on standard input, and prints ``result
{...}``: each step kind's latencies (ms, one per request), the requests that failed (transport errors or HTTP
status ≥ 400, by kind and status, never their bodies) and its own CPU seconds.
"""
from __future__ import annotations

import asyncio
import json
import random
import resource
import ssl
import sys
import time

# step kind -> weight in the replay mix (a walkthrough's cells: searches and routes more often than posts)
MIX = {"status": 2, "history": 1, "keyword": 3, "address": 2, "category": 2, "region": 1, "route": 2,
       "story": 1, "talk": 1, "map": 1}
TILES = [(14, x, y) for x in range(14064, 14068) for y in range(6479, 6482)]   # one map view over central Busan
SCOPES = ["profile", "friends", "talk_message", "story_permalink"]
USER = 4100000001


def walkthrough(tk, tag, student: str) -> None:
    """The calls of a walkthrough, each under ``tag(kind)`` so its requests are recorded as that step."""
    from toolkit import templates
    from toolkit.local import BUSAN_RECT

    with tag("status"):
        tk.status.current(lang="en")
    with tag("history"):
        tk.status.history(lang="en")
    with tag("keyword"):
        tk.local.keyword("해운대역", category_group_code="SW8", rect=BUSAN_RECT, size=1)
    with tag("address"):
        tk.local.address("부산진구 전포동 341-17")
    with tag("category"):
        tk.local.category("CE7", x=129.0592, y=35.1579, radius=500, sort="distance")
    with tag("region"):
        tk.local.regions(129.0592, 35.1579)
    with tag("route"):
        tk.navi.directions((129.1586, 35.1631), (129.0592, 35.1579))
    with tag("login"):
        tk.login_as(USER, scopes=SCOPES)
    with tag("story"):
        tk.story.post_note(f"a note from {student}", permission="F")
        tk.story.mystories(expand_media=False)
    with tag("talk"):
        tk.talk.send_memo(templates.text("hello", link=templates.link(web_url="https://example.test")))
    with tag("control"):
        tk.sandbox.incident("local_search_keyword", "RED", hours=2, started_minutes_ago=10, note="demo outage")
        tk.sandbox.advance(minutes=5)
    with tag("map"):
        base = tk.hosts.url("api", "").split("/api")[0]
        from toolkit.classroom import HEADER

        # as a student's Jupyter server forwards a map's tiles: with the student's header (no anonymous tiles)
        student_header = {HEADER: tk.core.headers[HEADER]} if HEADER in tk.core.headers else {}
        for z, x, y in TILES:
            tk.core.http.get(f"{base}/sandbox/tiles/{z}/{x}/{y}.png", headers=student_header).raise_for_status()


class Recorder:
    """Records every request of a client's httpx connection under the current step kind."""

    def __init__(self, tk):
        self.kind = None
        self.requests: dict[str, list[tuple[str, str, dict, bytes]]] = {}
        tk.core.http.event_hooks["request"].append(self._hook)

    def _hook(self, request):
        if self.kind is not None:
            headers = {k: v for k, v in request.headers.items() if k.lower() not in ("host", "content-length")}
            self.requests.setdefault(self.kind, []).append(
                (request.method, str(request.url), headers, request.read()))

    def tag(self, kind):
        import contextlib

        @contextlib.contextmanager
        def scope():
            self.kind = kind
            try:
                yield
            finally:
                self.kind = None
        return scope()


def _credentials(tk) -> dict[str, str]:
    """The values a student's recorded requests carry that belong to that student (header, keys, login token)."""
    from toolkit.classroom import HEADER

    out = {"header": tk.core.headers.get(HEADER, "")}
    for name in ("rest_api_key", "admin_key"):
        try:
            out[name] = tk.credentials.need(name).reveal()
        except Exception:
            pass
    out["bearer"] = tk.access_token.reveal() if tk.access_token is not None else ""
    return out


def swapped(template: dict, swap: list[tuple[str, str]]) -> dict:
    """``template``'s requests with the recorded student's values (header, keys, login token) swapped for
    another student's."""
    from toolkit.classroom import HEADER

    steps = {}
    for kind, reqs in template.items():
        steps[kind] = []
        for method, url, headers, body in reqs:
            headers = dict(headers)
            for key in headers:
                if key.lower() in (HEADER.lower(), "authorization"):
                    for old, new in swap:
                        headers[key] = headers[key].replace(old, new)
            steps[kind].append((method, url, headers, body))
    return steps


async def log_in(students: list, base: str, values: dict, template: dict) -> list[dict]:
    """The light set-up, 16 students at a time: each student's world is made by a GET of its ``/sandbox/config``
    (its app's keys), then the walkthrough's login (``login_as``: ``POST /sandbox/login``) gives its token."""
    import httpx

    from toolkit.classroom import HEADER, classroom_header

    gate = asyncio.Semaphore(16)

    async def one(client, name, token):
        header = {HEADER: classroom_header(name, token)}
        async with gate:
            config = (await client.get(f"{base}/sandbox/config", headers=header)).raise_for_status().json()
            tokens = (await client.post(f"{base}/sandbox/login", headers=header, json={
                "scopes": SCOPES, "user_id": USER})).raise_for_status().json()
        mine = {"header": header[HEADER], "bearer": tokens["access_token"],
                **{k: config["app"][k] for k in ("rest_api_key", "admin_key") if k in config["app"]}}
        return swapped(template, [(values[k], mine[k]) for k in values if values[k] and mine.get(k)])

    async with httpx.AsyncClient(timeout=60, trust_env=False) as client:
        return await asyncio.gather(*(one(client, name, token) for name, token in students))


def setup(job: dict) -> list[dict]:
    """Each student's steps: ``{kind: [(method, url, headers, body), ...]}`` with that student's values."""
    import toolkit

    full = job["students"] if job["walkthrough"] else job["students"][:1]
    students, template, values, base = [], None, None, None
    for name, token in full:
        tk = toolkit.connect(classroom=job["url"], student=name, token=token)
        rec = Recorder(tk)
        walkthrough(tk, rec.tag, name)
        students.append({k: v for k, v in rec.requests.items() if k in MIX})
        if template is None:
            template, values, base = students[0], _credentials(tk), tk.sandbox.base_url
        tk.close()
    rest = job["students"][len(full):]
    if rest:
        students += asyncio.run(log_in(rest, base, values, template))
    return students


async def student(steps: dict, seconds: float, think: tuple[float, float], rng: random.Random, out: dict,
                  errors: dict, tls) -> None:
    import httpx

    if seconds <= 0:
        return
    kinds = [k for k in MIX if k in steps]
    weights = [MIX[k] for k in kinds]
    end = time.monotonic() + seconds
    await asyncio.sleep(rng.uniform(0, think[1]))
    async with httpx.AsyncClient(timeout=30, trust_env=False, verify=tls) as client:
        while time.monotonic() < end:
            kind = rng.choices(kinds, weights)[0]

            async def one(method, url, headers, body):
                t0 = time.perf_counter()
                try:
                    resp = await client.request(method, url, headers=headers, content=body or None)
                    status = resp.status_code
                except httpx.HTTPError as exc:
                    status = type(exc).__name__
                out.setdefault(kind, []).append(round((time.perf_counter() - t0) * 1000, 3))
                if not isinstance(status, int) or status >= 400:
                    key = f"{kind} {status}"
                    errors[key] = errors.get(key, 0) + 1

            if kind == "map":        # a browser fetches a map view's tiles together, 6 connections at a time
                gate = asyncio.Semaphore(6)

                async def gated(r):
                    async with gate:
                        await one(*r)
                await asyncio.gather(*(gated(r) for r in steps[kind]))
            else:                    # a cell's calls one after the other
                for r in steps[kind]:
                    await one(*r)
            await asyncio.sleep(rng.uniform(*think))


async def run(students: list[dict], job: dict) -> dict:
    rng = random.Random(job.get("seed", 7))
    out: dict[str, list[float]] = {}
    errors: dict[str, int] = {}
    # one TLS context for every student's client (the URLs are http): httpx loads the CA bundle for each client
    # otherwise, 13-45 ms of this loop's time each: with 240 students a process their clients took 3-10 s to make,
    # every student's start delay ran out meanwhile and they all sent their first step together
    tls = ssl.create_default_context()
    await asyncio.gather(*(student(s, job["seconds"], tuple(job["think"]), random.Random(rng.random()), out, errors,
                                   tls) for s in students))
    return {"latencies_ms": out, "errors": errors}


def main() -> int:
    job = json.loads(sys.stdin.readline())
    t0 = time.perf_counter()
    students = setup(job)
    print("ready " + json.dumps({"setup_s": round(time.perf_counter() - t0, 2), "students": len(students)}),
          flush=True)
    if sys.stdin.readline().strip() != "go":
        return 1
    cpu0 = resource.getrusage(resource.RUSAGE_SELF)
    result = asyncio.run(run(students, job))
    cpu1 = resource.getrusage(resource.RUSAGE_SELF)
    result["cpu_s"] = round(cpu1.ru_utime + cpu1.ru_stime - cpu0.ru_utime - cpu0.ru_stime, 2)
    print("result " + json.dumps(result), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
