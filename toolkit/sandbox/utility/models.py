"""Utility area state: the IP lists and the API status with its incident history (location §4.12–4.14).

Choices where the spec is silent, written down here:

* Status is derived from *incidents* (API id, status, start, end). An API without an incident at an instant
  is ``GREEN``. A product's status is the worst status of its (selected) APIs, ranked
  RED > YELLOW > MAINTENANCE > GREEN; it is ``UNKNOWN`` only when all its selected APIs are ``UNKNOWN``.
  ``issues`` lists the product's non-GREEN APIs and is omitted when the product is GREEN or UNKNOWN.
* "Refreshes every 5 minutes": the current status is computed at the sandbox time floored to 5 minutes,
  which is also ``updatedAt`` (RFC 3339, UTC).
* History days are UTC days; a day's status is the worst status of any incident overlapping it (for today,
  up to now). ``start`` defaults to 30 days before today and ``end`` to today; ``end`` after today is
  clamped to today; ``start`` more than 30 days back, ``start`` after ``end`` or a malformed date answer
  HTTP 400 ``{code: -2}``. Entries are in date order, oldest first.
* With ``api`` given, products are narrowed to those owning a named API and their status covers only the
  named APIs. Unknown product ids go to ``warning.invalidProduct``; unknown API ids, or APIs outside the
  named products, go to ``warning.invalidUri`` (HTTP 200 either way, as the spec says).
* The seeded incidents (``toolkit/data/status/incidents.json``) are placed relative to the sandbox's day at
  seeding, so a sandbox always has 40+ days of history behind it.
"""
from __future__ import annotations

import json
from datetime import date, datetime, time, timedelta, timezone
from typing import Any

SCHEMA = """
CREATE TABLE IF NOT EXISTS status_incidents (
    id INTEGER PRIMARY KEY AUTOINCREMENT, api TEXT NOT NULL, status TEXT NOT NULL,
    start INTEGER NOT NULL, end INTEGER NOT NULL, note TEXT NOT NULL DEFAULT ''
);
"""

STATUSES = ("GREEN", "YELLOW", "RED", "MAINTENANCE", "UNKNOWN")
RANK = {"UNKNOWN": 0, "GREEN": 1, "MAINTENANCE": 2, "YELLOW": 3, "RED": 4}
LANGS = ("ko", "en")
HISTORY_DAYS = 30
REFRESH_SECONDS = 300


class Model:
    def __init__(self, sandbox):
        self.sandbox = sandbox
        self.store = sandbox.store
        self.catalog = json.loads((sandbox.datasets / "status" / "catalog.json").read_text("utf-8"))["products"]
        self.product_apis = {p["productId"]: [a["apiId"] for a in p["apis"]] for p in self.catalog}
        self.api_product = {a: pid for pid, apis in self.product_apis.items() for a in apis}
        self.names = {p["productId"]: p["name"] for p in self.catalog}
        self.names.update({a["apiId"]: a["name"] for p in self.catalog for a in p["apis"]})
        self.ips = json.loads((sandbox.datasets / "utility" / "ips.json").read_text("utf-8"))

    # ------------------------------------------------------------------ seeding and incidents
    def seed(self, rng) -> None:
        today = self.sandbox.clock.now().date()
        rows = []
        for inc in json.loads((self.sandbox.datasets / "status" / "incidents.json").read_text("utf-8"))["incidents"]:
            day = today - timedelta(days=inc["day_offset"])
            hh, mm = map(int, inc["start"].split(":"))
            start = datetime.combine(day, time(hh, mm), tzinfo=timezone.utc).timestamp()
            rows.append((inc["api"], inc["status"], int(start), int(start + inc["hours"] * 3600), inc.get("note", "")))
        with self.store.tx() as db:
            db.executemany("INSERT INTO status_incidents (api, status, start, end, note) VALUES (?,?,?,?,?)", rows)

    def add_incident(self, api: str, status: str, start: int, end: int, note: str = "") -> dict:
        if api not in self.api_product:
            raise ValueError(f"unknown API id {api!r}")
        if status not in STATUSES:
            raise ValueError(f"status must be one of {STATUSES}")
        if end <= start:
            raise ValueError("end must be after start")
        cur = self.store.execute("INSERT INTO status_incidents (api, status, start, end, note) VALUES (?,?,?,?,?)",
                                 api, status, int(start), int(end), note)
        return {"id": cur.lastrowid, "api": api, "status": status, "start": int(start), "end": int(end), "note": note}

    def incidents(self) -> list[dict]:
        return [dict(r) for r in self.store.all("SELECT * FROM status_incidents ORDER BY start, id")]

    def end_incident(self, incident_id: int, at: int | None = None) -> str:
        """End incident ``incident_id`` at ``at`` (default: the sandbox's now), keeping its history: one still
        running ends then (``"ended"``; the status API shows it over from its next 5-minute refresh), one that
        has not begun by then is removed (``"removed"``: it never happened), one already over stays
        (``"over"``); ``"missing"`` when there is no such incident."""
        at = self.sandbox.clock.unix() if at is None else int(at)
        with self.store.tx() as db:
            row = db.execute("SELECT start, end FROM status_incidents WHERE id = ?", (int(incident_id),)).fetchone()
            if row is None:
                return "missing"
            if row["start"] >= at:
                db.execute("DELETE FROM status_incidents WHERE id = ?", (int(incident_id),))
                return "removed"
            if row["end"] <= at:
                return "over"
            db.execute("UPDATE status_incidents SET end = ? WHERE id = ?", (at, int(incident_id)))
            return "ended"

    def _api_status(self, lo: float, hi: float) -> dict[str, str]:
        """Worst status of each API over [lo, hi); APIs without an incident are GREEN."""
        out = {api: "GREEN" for api in self.api_product}
        for row in self.store.all("SELECT api, status FROM status_incidents WHERE start < ? AND end > ?", hi, lo):
            if row["api"] in out and (out[row["api"]] == "GREEN" or RANK[row["status"]] > RANK[out[row["api"]]]):
                out[row["api"]] = row["status"]
        return out

    # ------------------------------------------------------------------ selection
    def select(self, products: list[str] | None, apis: list[str] | None) -> tuple[dict[str, list[str]], dict]:
        """(product → selected APIs, warning) for the product/api filters of §4.13."""
        warning: dict[str, list[str]] = {}
        chosen = list(self.product_apis)
        if products is not None:
            bad = [p for p in products if p not in self.product_apis]
            if bad:
                warning["invalidProduct"] = bad
            chosen = [p for p in dict.fromkeys(products) if p in self.product_apis]
        selection = {p: list(self.product_apis[p]) for p in chosen}
        if apis is not None:
            bad = [a for a in apis if self.api_product.get(a) not in selection]
            if bad:
                warning["invalidUri"] = bad
            wanted = set(apis)
            selection = {p: [a for a in al if a in wanted] for p, al in selection.items()}
            selection = {p: al for p, al in selection.items() if al}
        return selection, warning

    def _statuses(self, selection: dict[str, list[str]], api_status: dict[str, str], lang: str) -> list[dict]:
        out = []
        for pid, apis in selection.items():
            known = [api_status[a] for a in apis if api_status[a] != "UNKNOWN"]
            status = max(known, key=RANK.__getitem__) if known else "UNKNOWN"
            entry = {"productId": pid, "productName": self.names[pid][lang], "status": status}
            if status not in ("GREEN", "UNKNOWN"):
                entry["issues"] = [{"apiId": a, "apiName": self.names[a][lang], "status": api_status[a]}
                                   for a in apis if api_status[a] != "GREEN"]
            out.append(entry)
        return out

    # ------------------------------------------------------------------ endpoints
    def current(self, products, apis, lang: str) -> dict:
        now = self.sandbox.clock.timestamp()
        refreshed = now - now % REFRESH_SECONDS
        selection, warning = self.select(products, apis)
        body: dict[str, Any] = {
            "updatedAt": datetime.fromtimestamp(refreshed, timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ"),
            "statuses": self._statuses(selection, self._api_status(refreshed, refreshed + 1e-3), lang)}
        if warning:
            body["warning"] = warning
        return body

    def today(self) -> date:
        return self.sandbox.clock.now().date()

    def history(self, start: date, end: date, products, apis, lang: str) -> tuple[list[dict], dict]:
        selection, warning = self.select(products, apis)
        now = self.sandbox.clock.timestamp()
        entries, day = [], start
        while day <= end:
            lo = datetime.combine(day, time(0), tzinfo=timezone.utc).timestamp()
            hi = min(lo + 86400, now)
            entries.append({"date": day.isoformat(), "statuses": self._statuses(selection, self._api_status(lo, hi), lang)})
            day += timedelta(days=1)
        return entries, warning

    def ip_lists(self, rule_type: str | None) -> dict:
        body = {}
        for kind in ("inbound", "outbound"):
            if rule_type in (None, kind):
                body[kind] = self.ips[kind]
        body["updatedDate"] = self.ips["updatedDate"]
        return body
