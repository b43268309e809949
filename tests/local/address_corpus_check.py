"""Geocode the address corpus (``tests/local/data/address_corpus.csv``, see ``make_address_corpus.py``) and judge
the answers against the data itself: a known place must be ``matched`` on its own address, no row may be matched
to another place, and every reason given for a row that did not match must be true of the data (a "no building
numbered N" reason: N really absent there and the nearest numbers really the nearest; a "did you mean" list: real
names; an "outside the city" reason: a city or district that is not Busan's).

It uses only ``tk.local.geocode`` and reads the data files itself (no toolkit internals), so the same check runs
against any version of the toolkit: ``python -m tests.local.address_corpus_check`` prints the figures.
"""
from __future__ import annotations

import re
from collections import defaultdict
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

from tests.local import make_address_corpus as corpus

DATA = Path(__file__).resolve().parents[2] / "toolkit" / "data" / "local"
OTHER_SIDO = ("서울", "대구", "인천", "광주", "대전", "울산", "세종", "경기", "강원", "충북", "충청", "전북", "전라",
              "전남", "경북", "경상", "경남", "제주", "Seoul", "Daegu", "Incheon")


@dataclass
class Facts:
    """What the data says, to check reasons against."""
    districts: set = field(default_factory=set)
    roads: dict = field(default_factory=lambda: defaultdict(set))          # road -> districts
    numbers: dict = field(default_factory=lambda: defaultdict(set))        # (district, road) -> main numbers
    road_subs: dict = field(default_factory=lambda: defaultdict(set))      # (district, road, main) -> subs
    dongs: dict = field(default_factory=lambda: defaultdict(set))          # legal dong, 읍/면, 리, admin -> districts
    lots: dict = field(default_factory=lambda: defaultdict(set))           # (district, dong) -> (mountain, main)
    lot_subs: dict = field(default_factory=lambda: defaultdict(set))       # (district, dong, mountain, main) -> subs
    road_names: set = field(default_factory=set)
    lot_names: set = field(default_factory=set)


@lru_cache(maxsize=1)
def facts() -> Facts:
    f = Facts()
    for a in corpus.addresses():
        d = a["region_2depth_name"]
        f.districts.add(d)
        f.roads[a["road_name"]].add(d)
        f.numbers[(d, a["road_name"])].add(int(a["main_building_no"]))
        f.road_subs[(d, a["road_name"], a["main_building_no"])].add(a["sub_building_no"])
        f.road_names.add(a["road_address_name"])
        f.lot_names.add(a["address_name"])
        for dong in {a["region_3depth_name"], a["region_4depth_name"], a["region_3depth_h_name"]} - {""}:
            f.dongs[dong].add(d)
            f.dongs[re.sub(r"제(\d+)동$", r"\1동", dong)].add(d)
        for dong in {a["region_3depth_name"], a["region_4depth_name"]} - {""}:
            f.lots[(d, dong)].add((a["mountain_yn"], int(a["main_address_no"])))
            f.lot_subs[(d, dong, a["mountain_yn"], a["main_address_no"])].add(a["sub_address_no"])
    return f


def _nearest(have: set[int], n: int) -> set[int]:
    below = [v for v in have if v < n]
    above = [v for v in have if v > n]
    return {v for v in ([max(below)] if below else []) + ([min(above)] if above else [])}


def check_reason(reason: str, row: dict) -> str | None:
    """None when ``reason`` is true of the data (and of the row's ``expect``), else what is wrong with it."""
    f = facts()
    expect = row.get("expect", "")
    if not isinstance(reason, str) or not reason:
        return "no reason given"
    m = re.match(r"no building numbered (\d+)(?:-(\d+)| (without) a sub-number)? on (\S+) in ([^;]+); (.*)$", reason)
    if m:
        n, sub, road, where, rest = int(m.group(1)), m.group(2), m.group(4), m.group(5), m.group(6)
        sub = "" if m.group(3) else sub
        ds = [d.strip() for d in where.split(",")]
        homes = f.roads.get(road, set())
        if (len(ds) == 1 and ds[0] not in homes) or (len(ds) > 1 and set(ds) != homes):
            return f"districts {ds} are not those of {road} ({sorted(f.roads.get(road, ()))})"
        have = set().union(*(f.numbers[(d, road)] for d in ds))
        if sub is None and n in have:
            return f"{road} {n} exists in {ds}"
        if sub is not None and any(sub in f.road_subs[(d, road, str(n))] for d in ds):
            return f"{road} {n}-{sub} exists"
        if rest.startswith("numbered "):
            listed = {v.split("-")[1] if "-" in v else "" for v in re.findall(r"\d+(?:-\d+)?", rest.split(": ", 1)[1])}
            if not listed <= set().union(*(f.road_subs[(d, road, str(n))] for d in ds)):
                return f"the numbers listed are not all on {road}: {sorted(listed)}"
        near = rest.removeprefix("nearest: ")
        if rest.startswith("nearest: "):
            said = {int(v) for v in re.findall(r"(\d+)(?: \([^)]*\))?", near)}
            if said != _nearest(have, n):
                return f"nearest said {sorted(said)}, data {sorted(_nearest(have, n))}"
        return _expect(expect, "no building")
    m = re.match(r"no (mountain )?lot numbered (?:산)?(\d+)(?:-(\d+)| (without) a sub-number)? in (\S+) (\S+); (.*)$",
                 reason)
    if m:
        mountain, n, sub, d, dong, rest = "Y" if m.group(1) else "N", int(m.group(2)), m.group(3), m.group(5), \
            m.group(6), m.group(7)
        sub = "" if m.group(4) else sub
        have = {v for mt, v in f.lots[(d, dong)] if mt == mountain}
        if not f.lots[(d, dong)]:
            return f"{d} {dong} has no lots at all in the data"
        if sub is None and n in have:
            return f"lot {n} exists in {d} {dong}"
        if sub is not None and sub in f.lot_subs[(d, dong, mountain, str(n))]:
            return f"lot {n}-{sub} exists"
        if rest.startswith("numbered "):
            listed = {v.split("-")[1] if "-" in v else "" for v in re.findall(r"\d+(?:-\d+)?", rest.split(": ", 1)[1])}
            if not listed <= f.lot_subs[(d, dong, mountain, str(n))]:
                return f"the lots listed are not all in {d} {dong}: {sorted(listed)}"
        if rest.startswith("nearest: "):
            said = {int(v) for v in re.findall(r"\d+", rest)}
            if said != _nearest(have, n):
                return f"nearest said {sorted(said)}, data {sorted(_nearest(have, n))}"
        return _expect(expect, "no lot")
    m = re.match(r"no such dong '([^']+)'(?: in (\S+))?; did you mean (.+)\?$", reason)
    if m:
        x, d, said = m.group(1), m.group(2), [s.split(" (")[0] for s in m.group(3).split(", ")]
        if x in f.dongs and (d is None or d in f.dongs[x]):
            return f"{x} is a dong" + (f" of {d}" if d else "")
        if any(s not in f.dongs for s in said):
            return f"a suggestion is no dong: {said}"
        if expect.startswith("dong typo:") and expect.split(":")[1] not in said:
            return f"the dong meant ({expect.split(':')[1]}) is not among the suggestions {said}"
        return _expect(expect, "dong typo")
    m = re.match(r"(\S+) is not in (\S+): it is in (.+)$", reason)
    if m:
        dong, d, homes = m.group(1), m.group(2), {h.strip() for h in m.group(3).split(",")}
        if d in f.dongs.get(dong, ()):
            return f"{dong} is in {d}"
        if homes != f.dongs.get(dong, set()):
            return f"{dong} is in {sorted(f.dongs.get(dong, ()))}, not {sorted(homes)}"
        return _expect(expect, "dong elsewhere")
    m = re.match(r"no such road name '([^']+)' in (\S+) \(the road is in ([^)]+)\)$", reason)
    if m:
        road, d, homes = m.group(1), m.group(2), {h.strip() for h in m.group(3).split(",")}
        if d in f.roads.get(road, ()):
            return f"{road} is in {d}"
        if homes != f.roads.get(road, set()):
            return f"{road} is in {sorted(f.roads.get(road, ()))}"
        return _expect(expect, "road elsewhere")
    m = re.match(r"no such road name '([^']+)'(?: in (\S+))?(?: \(did you mean ([^)]+)\?\))?$", reason)
    if m:
        road, d, said = m.group(1), m.group(2), (m.group(3) or "").split(", ") if m.group(3) else []
        if road in f.roads and (d is None or d in f.roads[road]):
            return f"{road} is a road" + (f" of {d}" if d else "")
        if any(s not in f.roads or (d and d not in f.roads[s]) for s in said):
            return f"a suggestion is no road (of {d}): {said}"
        if expect.startswith("road typo:") and expect.split(":")[1] not in said:
            return f"the road meant ({expect.split(':')[1]}) is not among the suggestions {said}"
        return _expect(expect, "road typo")
    m = re.match(r"romanised address: no (road|dong|district) named '([^']+)'[^(]*(?:\(did you mean (.+)\?\))?$",
                 reason)
    if m:
        said = re.findall(r"\(([^()]+)\)", m.group(3) or "")
        pool = {"road": f.roads, "dong": f.dongs, "district": f.districts}[m.group(1)]
        if any(s not in pool for s in said):
            return f"a suggestion is no {m.group(1)}: {said}"
        if expect.startswith("road typo:") and expect.split(":")[1] not in said:
            return f"the road meant is not among the suggestions {said}"
        return _expect(expect, "road typo" if expect.startswith("road typo") else "romanised")
    m = re.match(r"outside the sandbox's city: (\S+) is (?:not in|no district of) Busan", reason)
    if m:
        what = m.group(1)
        if what in f.districts or what.startswith("부산") or what == "Busan":
            return f"{what} is in Busan"
        if not (what.startswith(OTHER_SIDO) or what.endswith(("구", "군", "시"))):
            return f"{what} is no city or district"
        return _expect(expect, "outside")
    m = re.match(r"garbage: ", reason)
    if m:
        text = row["address"]
        if re.search(r"[가-힣]", text):
            return "it has Hangul words"
        return _expect(expect, "no address")
    m = re.match(r"not understood: no building or lot number(?:; (.+))?$", reason)
    if m:
        if re.search(r"\d", row["address"]):
            return "the address has a number"
        for word in re.findall(r"'([^']+)'", m.group(1) or ""):
            if word in f.dongs or word in f.roads or word in f.districts:
                return f"{word} is a name"
        return _expect(expect, "no address")
    if reason == "empty":
        return None if not row["address"].strip() else "the address is not empty"
    return f"a reason this check cannot verify: {reason!r}"


def _expect(expect: str, got: str) -> str | None:
    if not expect:
        return None
    if expect.startswith(got) or (got == "romanised" and expect):
        return None
    return f"a reason of another kind than expected ({expect!r})"


@dataclass
class Figures:
    rows: int
    known: int
    matched_right: int
    matched_wrong: int
    known_not_matched: int
    wrong_rows: int
    wrong_matched: int
    reasons: int
    reasons_true: int
    problems: list

    def __str__(self):
        return (f"{self.rows} rows: {self.known} known places, {self.matched_right} matched to the right place "
                f"({100 * self.matched_right / self.known:.1f} %), {self.known_not_matched} not matched, "
                f"{self.matched_wrong} matched to a wrong place; {self.wrong_rows} wrong-but-plausible, "
                f"{self.wrong_matched} of them matched; reasons true: {self.reasons_true} of {self.reasons}")


def evaluate(tk, rows: list[dict] | None = None) -> tuple[Figures, object]:
    import pandas as pd

    rows = corpus.read() if rows is None else rows
    frame = pd.DataFrame(rows)
    out = tk.local.geocode(frame, "address", progress=False)
    right = wrong = known_missed = wrong_matched = reasons = true = 0
    problems = []
    for row, status, address, reason in zip(rows, out["geocode_status"], out["geocode_address"],
                                            out["geocode_reason"]):
        place = set(row["place"].split("|")) if row["place"] else set()
        if status == "matched":
            if place and address in place:
                right += 1
            else:
                wrong += 1
                wrong_matched += not place
                problems.append((row["address"], status, address, "matched to a wrong place"))
            continue
        if place:
            known_missed += 1
        if status in ("not_found", "similar", "ambiguous", "region", "empty"):
            reasons += 1
            why = check_reason(reason if isinstance(reason, str) else "", row)
            if why is None:
                true += 1
            else:
                problems.append((row["address"], status, address, f"{reason!r}: {why}"))
        else:
            problems.append((row["address"], status, address, "status " + str(status)))
    known = sum(1 for r in rows if r["place"])
    return Figures(len(rows), known, right, wrong, known_missed, len(rows) - known, wrong_matched, reasons, true,
                   problems), out


def by_form(rows: list[dict], out) -> dict[str, tuple[int, int]]:
    """Per form written (of the known places): (matched to the right place, rows with that form)."""
    tally: dict[str, list[int]] = defaultdict(lambda: [0, 0])
    for row, status, address in zip(rows, out["geocode_status"], out["geocode_address"]):
        if not row["place"]:
            continue
        for form in re.split(r"[:,] ", row["form"]):
            if form.strip() not in ("road", "lot"):
                tally[form.strip()][1] += 1
                tally[form.strip()][0] += status == "matched" and address in row["place"].split("|")
    return {k: (v[0], v[1]) for k, v in sorted(tally.items(), key=lambda kv: -kv[1][1])}


if __name__ == "__main__":
    import toolkit

    tk = toolkit.connect()
    try:
        figures, out = evaluate(tk)
    finally:
        tk.close()
    print(figures)
    print("matched to the right place, by form written:")
    for form, (ok, n) in by_form(corpus.read(), out).items():
        print(f"  {form:36s} {ok:4d} / {n:4d}")
    print("rows that did not match or whose reason is not true:")
    for p in figures.problems[:400]:
        print("  ", " | ".join(str(v) for v in p))
