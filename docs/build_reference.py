"""Write notebooks/reference/api.md: every endpoint of the service by area and section, with the toolkit call that wraps it.

    python docs/build_reference.py          # rewrites notebooks/reference/api.md
    python docs/build_reference.py --check  # exits 1 when notebooks/reference/api.md is out of date (the test suite runs this)

Sources: ``tests/data/spec_endpoints.json`` (the endpoint list with its section numbers) and the client's
``@endpoint`` registry (:data:`toolkit.area.WRAPPED`). Section numbers are the ones every docstring, notebook and
the README cite, e.g. "location §4.6".
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


def render() -> str:
    spec = json.loads((ROOT / "tests" / "data" / "spec_endpoints.json").read_text("utf-8"))
    calls = wrapped()
    by_section: dict[tuple[str, str], list[dict]] = defaultdict(list)
    for row in spec:
        by_section[(row["source"].removesuffix(".md"), row["section"])].append(row)
    lines = [
        "# API reference: every endpoint and the toolkit call for it",
        "",
        "The service's API is described in three parts: **identity**, **social** and **location**. Docstrings,",
        "notebooks and the README cite a part and a section, e.g. *location §4.6* (category search); this page",
        "lists each section with its endpoints and the toolkit call that wraps it. Words are explained in",
        "[concepts.md](concepts.md). Generated by `docs/build_reference.py`; the tests check it is current.",
        "",
        "Hosts: the service has five base URLs, `auth`, `api`, `local`, `navi`, `status` (in the sandbox all five",
        "share one port: `http://127.0.0.1:PORT/<host>/...`).",
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
