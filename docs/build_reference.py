"""Write notebooks/reference/api.md: every endpoint of the service by area and section, with the toolkit call that wraps it.

    python docs/build_reference.py          # rewrites notebooks/reference/api.md
    python docs/build_reference.py --check  # exits 1 when notebooks/reference/api.md is out of date (the test suite runs this)

Sources: ``tests/data/spec_endpoints.json`` (the endpoint list with its section numbers), the client's
``@endpoint`` registry (:data:`toolkit.area.WRAPPED`) and the sandbox's OpenAPI document
(:func:`toolkit.sandbox.openapi.build_document`: each endpoint's parameters and auth, and the curl line against a
sandbox). Section numbers are the ones every docstring, notebook and the user guide cite, e.g. "location §4.6".
"""
from __future__ import annotations

import importlib
import json
import sys
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
OUT = ROOT / "notebooks" / "reference" / "api.md"

AREAS = {
    "identity": ("Identity: login, tokens, consent, OIDC, business authorization",
                 "login, tokens, consent, OpenID Connect, shipping addresses, business authorization, webhooks"),
    "social": ("Social: story, messenger, channel",
               "story feed, messenger profile and friends, messages, channel relations, customer files"),
    "location": ("Location: local search, directions, utility",
                 "address and place search, coordinates, public transit, driving directions, IP lists, status"),
}

TITLES = {
    ("identity", "4.1"): "Authorization request (login and consent pages)",
    ("identity", "4.2"): "Token: exchange a code, refresh",
    ("identity", "4.3"): "Log out (expire the user's tokens)",
    ("identity", "4.4"): "Log out of the account session in the browser",
    ("identity", "4.5"): "Consent items (scopes) of a user",
    ("identity", "4.6"): "Revoke consent to scopes",
    ("identity", "4.7"): "Service terms a user consented to",
    ("identity", "4.8"): "Revoke service terms",
    ("identity", "4.9"): "Record consent to service terms",
    ("identity", "4.10"): "OpenID Connect discovery document",
    ("identity", "4.11"): "Public keys (JWKS) of ID tokens and webhooks",
    ("identity", "4.12"): "ID token information",
    ("identity", "4.13"): "OpenID Connect user information",
    ("identity", "4.14"): "User management: sign-up, me, unlink, token info, properties, user list",
    ("identity", "4.15"): "Shipping addresses",
    ("identity", "4.16"): "Business authorization request",
    ("identity", "4.17"): "Business token",
    ("identity", "4.18"): "Business token information",
    ("identity", "4.19"): "Business user information (retired 2026-11-30)",
    ("identity", "4.20"): "Revoke a business token",
    ("identity", "4.21"): "Shared Signals (SSF) configuration",
    ("social", "4.1"): "Story feed: post, read, delete, upload images",
    ("social", "4.2"): "Messenger profile and friends",
    ("social", "4.3"): "Messenger profiles of several users (admin key)",
    ("social", "4.4"): "Messages to the user's own chatroom (memo)",
    ("social", "4.5"): "Messages to friends",
    ("social", "4.6"): "Channel relationship",
    ("social", "4.7"): "Customer files of a channel",
    ("location", "4.1"): "Address search",
    ("location", "4.2"): "Coordinates to region codes",
    ("location", "4.3"): "Coordinates to address",
    ("location", "4.4"): "Coordinate system conversion",
    ("location", "4.5"): "Keyword search of places",
    ("location", "4.6"): "Category search of places",
    ("location", "4.7"): "Public transit",
    ("location", "4.8"): "Directions: origin to destination (up to 5 waypoints)",
    ("location", "4.9"): "Directions through many waypoints",
    ("location", "4.10"): "Directions from many origins",
    ("location", "4.11"): "Directions to many destinations; future driving estimate",
    ("location", "4.12"): "IP address lists",
    ("location", "4.13"): "Current API status",
    ("location", "4.14"): "Past API status",
}

# Sections that describe events the service sends (no endpoint of the service; the toolkit receives them).
EVENTS = [
    ("identity", "6.1", "Unlink webhook", "toolkit.events.inbox(tk)"),
    ("identity", "6.2", "Account-status change webhook (security event tokens)", "toolkit.events.verify_set(...)"),
    ("social", "6.1", "Share webhook", "toolkit.events.inbox(tk)"),
    ("social", "6.2", "Channel webhook", "toolkit.events.inbox(tk)"),
]

AREA_ATTR = {"toolkit.utility.StatusArea": "tk.status", "toolkit.utility.SystemArea": "tk.system",
             "toolkit.oauth.OAuthArea": "tk.oauth", "toolkit.user.UserArea": "tk.user",
             "toolkit.business.BusinessArea": "tk.business", "toolkit.story.StoryArea": "tk.story",
             "toolkit.talk.TalkArea": "tk.talk", "toolkit.channel.ChannelArea": "tk.channel",
             "toolkit.local.LocalArea": "tk.local", "toolkit.navi.NaviArea": "tk.navi",
             "toolkit.events.EventsArea": "tk.events"}


def _call_name(qualified: str) -> str:
    module_class, _, method = qualified.rpartition(".")
    return f"{AREA_ATTR.get(module_class, module_class)}.{method}()"


def wrapped() -> dict[tuple[str, str, str], list[str]]:
    sys.path.insert(0, str(ROOT))
    from toolkit.area import WRAPPED
    from toolkit.client import AREAS as CLIENT_AREAS

    for target in CLIENT_AREAS.values():
        importlib.import_module(target.split(":")[0])
    return WRAPPED


AUTH_HEADERS = {
    "BearerToken": ("user access token", "Bearer ACCESS_TOKEN"),
    "RestApiKey": ("REST API key", "ServiceAK REST_API_KEY"),
    "AdminKey": ("admin key (with target_id_type=user_id&target_id=... to act on a user)", "ServiceAK ADMIN_KEY"),
    "BusinessToken": ("business access token", "Bearer BUSINESS_TOKEN"),
    "AnyAppKey": ("any app key (native app, REST API, JavaScript or admin)", "ServiceAK REST_API_KEY"),
}


def operations() -> dict[tuple[str, str, str], dict]:
    """(method, host, spec path) → the OpenAPI operation of the sandbox's document."""
    sys.path.insert(0, str(ROOT))
    from toolkit.sandbox.openapi import build_document

    doc = build_document("http://127.0.0.1:PORT")
    out = {}
    for ops in doc["paths"].values():
        for method, op in ops.items():
            out[(method.upper(), op["x-spec-host"], op["x-spec-path"])] = op
    return out


def _type(schema: dict) -> str:
    if "enum" in schema:
        shown = ", ".join(map(str, schema["enum"][:8])) + (", …" if len(schema["enum"]) > 8 else "")
        return f"one of {shown}"
    kind = schema.get("type", "object")
    kind = "/".join(kind) if isinstance(kind, list) else kind
    if kind == "array":
        kind = f"array of {schema.get('items', {}).get('type', 'object')}"
    bounds = [f"{k} {schema[k]}" for k in ("minimum", "maximum", "default") if k in schema]
    return kind + (f" ({', '.join(bounds)})" if bounds else "")


# The curl lines run against the sandbox, whose world is one city (Busan): points there, not the document's.
CITY_EXAMPLES = {"x": 129.0592, "y": 35.1579, "radius": 1000, "origin": "129.0325,35.1000,name=Nampo",
                 "destination": "129.0600,35.1570"}


def _example(param: dict):
    if param["name"] in CITY_EXAMPLES and param.get("in") == "query":
        return CITY_EXAMPLES[param["name"]]
    schema = param.get("schema", {})
    for value in (param.get("example"), schema.get("example"), schema.get("default")):
        if value is not None:
            return value
    if schema.get("enum"):
        return schema["enum"][0]
    return {"integer": 1, "number": 1.0, "boolean": "true"}.get(schema.get("type"), param["name"].upper())


def _fields(op: dict) -> tuple[list[dict], str | None, dict]:
    """Parameters as ``{name, in, required, schema, ...}`` (path, query, header and body fields), the body's
    content type and the body's example."""
    fields = [p for p in op.get("parameters", []) if p.get("in") != "header" or p["name"] != "Authorization"]
    ctype, example = None, {}
    body = op.get("requestBody")
    if body:
        ctype, content = next(iter(body["content"].items()))
        schema = content.get("schema", {})
        example = content.get("example") or {}
        required = set(schema.get("required", []))
        where = {"application/json": "json", "multipart/form-data": "multipart"}.get(ctype, "form")
        for name, prop in (schema.get("properties") or {}).items():
            fields.append({"name": name, "in": where, "required": name in required, "schema": prop,
                           "description": prop.get("description", ""), "example": example.get(name)})
    return fields, ctype, example


def _curl(method: str, host: str, spec_path: str, op: dict) -> str:
    fields, ctype, example = _fields(op)
    path = spec_path
    for p in fields:
        if p["in"] == "path":
            value = "json" if p["name"].lower() == "format" else _example(p)
            path = path.replace("{" + p["name"] + "}", str(value)).replace("{" + p["name"].upper() + "}", str(value))
    parts = ["curl"]
    if method == "GET":
        parts.append("-G")
    elif method != "POST" or not any(p["in"] in ("form", "json", "multipart") for p in fields):
        parts.append(f"-X {method}")
    parts.append(f"'http://127.0.0.1:PORT/{host}{path}'")
    security = op.get("security") or []
    if security:
        parts.append(f"-H 'Authorization: {AUTH_HEADERS[next(iter(security[0]))][1]}'")
    wanted = [p for p in fields if p["in"] not in ("path",) and (p["required"] or p.get("example") is not None
                                                                   or p.get("schema", {}).get("example") is not None)]
    if ctype == "application/json":
        body = example or {p["name"]: _example(p) for p in wanted}
        parts.append("-H 'Content-Type: application/json'")
        parts.append("-d '" + json.dumps(body, ensure_ascii=False).replace("'", "'\\''") + "'")
    else:
        flag = "-F" if ctype == "multipart/form-data" else "--data-urlencode"
        for p in wanted:
            value = p.get("example") if p["name"] not in CITY_EXAMPLES else None
            value = _example(p) if value is None else value
            if isinstance(value, (dict, list)):
                value = json.dumps(value, ensure_ascii=False)
            parts.append(f"{flag} '{p['name']}={str(value)}'".replace("\n", " "))
    return " ".join(parts)


def detail(row: dict, op: dict | None, call: str) -> list[str]:
    """The parameters, auth and curl line of one endpoint."""
    title = f"**`{row['method']} {row['host']}{row['path']}`** ({row['source'].removesuffix('.md')} §{row['section']})"
    if op is None:
        return [title, "", "Not in the sandbox's OpenAPI document.", ""]
    security = op.get("security") or []
    auth = " or ".join(f"{AUTH_HEADERS[next(iter(s))][0]} (`Authorization: {AUTH_HEADERS[next(iter(s))][1]}`)"
                       for s in security) or "none"
    fields, _, _ = _fields(op)
    params = []
    for p in fields:
        note = (p.get("description") or "").strip().rstrip(".").replace("|", "/").replace("\n", " ")
        req = "required" if p.get("required") else "optional"
        params.append(f"`{p['name']}` ({p['in']}, {_type(p.get('schema', {}))}, {req}{'; ' + note if note else ''})")
    lines = [title, "", f"Auth: {auth}. toolkit: {call}.", "",
             "Parameters: " + ("; ".join(params) if params else "none") + ".", "", "```",
             _curl(row["method"], row["host"], row["path"], op), "```", ""]
    return lines


def render() -> str:
    spec = json.loads((ROOT / "tests" / "data" / "spec_endpoints.json").read_text("utf-8"))
    calls = wrapped()
    ops = operations()
    by_section: dict[tuple[str, str], list[dict]] = defaultdict(list)
    for row in spec:
        by_section[(row["source"].removesuffix(".md"), row["section"])].append(row)
    lines = [
        "# API reference: every endpoint and the toolkit call for it",
        "",
        "The service's API is described in three parts: **identity**, **social** and **location**. Docstrings,",
        "notebooks and the user guide cite a part and a section, e.g. *location §4.6* (category search); this page",
        "lists each section with its endpoints and the toolkit call that wraps it. Words are explained in",
        "[concepts.md](concepts.md). Generated by `docs/build_reference.py`; the tests check it is current.",
        "",
        "Hosts: the service has five base URLs, `auth`, `api`, `local`, `navi`, `status` (in the sandbox all five",
        "share one port: `http://127.0.0.1:PORT/<host>/...`).",
        "",
        "Each area's table is followed by every endpoint in detail: its parameters, its auth and a curl line",
        "against a sandbox. Start one with `toolkit sandbox --port 8000` and replace `PORT` with 8000 and",
        "`REST_API_KEY`, `ADMIN_KEY` with the demo app's keys (`toolkit sandbox --print-config --port 8000`);",
        "`ACCESS_TOKEN` is a user's token (`POST /sandbox/login {\"user_id\": 4100000001, \"scopes\": [...]}` on the",
        "control API gives one). The sandbox's OpenAPI document, `/sandbox/openapi.json`, has the same in full.",
        "",
    ]
    for area, (heading, summary) in AREAS.items():
        lines += [f"## {heading}", "", f"Covers {summary}.", "",
                  "| Section | What | Endpoint | toolkit |", "|---|---|---|---|"]
        sections = sorted((s for a, s in by_section if a == area), key=lambda s: tuple(map(int, s.split("."))))
        for sec in sections:
            rows = sorted(by_section[(area, sec)], key=lambda r: (r["path"], r["method"]))
            for i, row in enumerate(rows):
                names = calls.get((row["method"], row["host"], row["path"]), [])
                call = ", ".join(f"`{_call_name(n)}`" for n in sorted(set(names))) or "—"
                what = TITLES.get((area, sec), row.get("title", "")) if i == 0 else ""
                label = f"{area} §{sec}" if i == 0 else ""
                lines.append(f"| {label} | {what} | `{row['method']} {row['host']}{row['path']}` | {call} |")
        lines += ["", f"### {heading.split(':')[0]}: endpoints in detail", ""]
        for sec in sections:
            for row in sorted(by_section[(area, sec)], key=lambda r: (r["path"], r["method"])):
                names = calls.get((row["method"], row["host"], row["path"]), [])
                call = ", ".join(f"`{_call_name(n)}`" for n in sorted(set(names))) or "—"
                lines += detail(row, ops.get((row["method"], row["host"], row["path"])), call)
        events = [e for e in EVENTS if e[0] == area]
        if events:
            lines += ["", "Events the service sends to the app (the toolkit receives and verifies them):", "",
                      "| Section | What | toolkit |", "|---|---|---|"]
            lines += [f"| {a} §{s} | {what} | `{call}` |" for a, s, what, call in events]
        lines.append("")
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    text = render()
    if "--check" in argv:
        current = OUT.read_text("utf-8") if OUT.exists() else ""
        if current != text:
            print("docs/api.md is out of date: run python docs/build_reference.py", file=sys.stderr)
            return 1
        return 0
    OUT.write_text(text, "utf-8")
    print(f"wrote {OUT.relative_to(ROOT)}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
