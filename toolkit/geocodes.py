"""How :meth:`toolkit.local.LocalArea.geocode` reads an address, what it sends, and how it judges the answer: its
status and, for a row that did not match, the reason.

**What is sent** (:func:`prepare`). ``geocode`` reads each address as people write it
(:func:`toolkit.addresstext.read`: ``번지``, ``N번지 M호``, a unit or floor after a comma or a space, a building or
dong in parentheses, ``부산``/``부산시``/``부산광역시`` or none, no space before the number, full-width digits, a
postcode in front) and sends the address search only its address: the region, dong or road and the number, as
location §4.1 asks ("leave detailed addresses such as building names out of the query"). A romanised address of
the city (``92, Gaya-daero, Busanjin-gu, Busan``) is turned into Korean with the city's names in Latin letters
shipped with the toolkit (``names_roman.csv.gz``; Busan only). This is the client's choice, written down: the
understanding is in the client, so that a customer file sends the same queries, and gets the same answers, against
the sandbox and the real service (the sandbox's address search reads the same forms too, with the same reader, for
queries sent to it directly). Two spellings of one address are one query.

**Status** (from the first page of the address search, up to :data:`PAGE` documents):

* ``matched``: one place answers the address, in the region and on the road written. Documents that write the
  address's own building or lot number and whose city, district, dong and road are those written (a dong may be
  written by its administrative name, ``전포1동`` for ``전포동``) are the candidates; candidates within
  :data:`SAME_PLACE_M` metres of the first and in its district are the same place (a building and its lots).
* ``ambiguous``: the candidates are different places (the same road name in two districts, a lot number without
  its sub-number shared by several lots); the first is used and the reason lists them.
* ``similar``: the service answered with something else than what was asked (the default ``analyze_type``
  is ``similar``): another dong, district, city or road (the real service answers ``전북 삼성동 100`` with
  ``전북 익산시 부송동 100``), or another number (``341-17`` for ``341``). Not a match: the reason says what was
  asked and what was answered; x/y are the answer's.
* ``region``: the answer is a region (``REGION``) or a road without a number (``ROAD``): its centre, not an
  address. ``x``/``y`` hold that centre; count only ``matched`` rows as addresses.
* ``not_found``: no document.

**Reason** (``geocode_reason``; NA for ``matched``): each one a claim about the input that is true of the city's
address list shipped with the toolkit (``toolkit/data/local/addresses.csv.gz``, Busan; the sandbox's world). Against
the real service, which knows more addresses, a claim about that list says so. The reasons:
``empty``; ``garbage: …`` (no region, road or dong name); ``outside the sandbox's city: …`` (sandbox mode: a city or
district that is not Busan's); ``no building numbered N on ROAD in DISTRICT; nearest: A, B``; ``no lot numbered N in
DISTRICT DONG; nearest: A, B``; ``no such road name 'X' in DISTRICT (did you mean …?)``; ``no such road name 'X' in
DISTRICT (the road is in …)``; ``no such dong 'X' in DISTRICT; did you mean …?``; ``DONG is not in DISTRICT: it is in
…``; ``romanised address: no road named 'X' …``; ``not understood: …``; ``region only: …``; ``similar: asked …,
answered …``; ``ambiguous: N places answer it: …``.

>>> judge({"total_count": 1, "documents": [{"address_type": "REGION", "x": "129.1", "y": "35.1"}]}, "해운대구")
('region', 0, 'region only: no building or lot number written; the answer is the centre of a region or road')
>>> reason("", "empty"), reason("#$%!", "not_found")
('empty', 'garbage: no region, road or dong name and no number')
>>> prepare("부산진구 가야대로 785, 1층 (가야동)").query
'부산진구 가야대로 785'
"""
from __future__ import annotations

import csv
import difflib
import gzip
import io
import math
import re
from bisect import bisect_left
from collections import defaultdict
from dataclasses import dataclass, field, replace
from functools import lru_cache

from .addresstext import SIDO_ROMAN, Written, dong_stem, kind_of, read, roman_key, sido_of

__all__ = ["PAGE", "SAME_PLACE_M", "STATUSES", "judge", "prepare", "reason"]

PAGE = 10
"""Documents read per geocode query (one request: the first page) to tell one place from several."""
SAME_PLACE_M = 50.0
"""Documents this close to the first one are the same place (a building and its lot, two entrances)."""
STATUSES = ["matched", "ambiguous", "similar", "region", "not_found", "error", "empty", "not_done"]
CITY = "부산광역시"
"""The city whose address list (and romanised names) the toolkit ships: the sandbox's world."""

_HANGUL = re.compile(r"[가-힣]")
_LIST = " (in the toolkit's list of Busan addresses; the real service may know more)"


def _metres(x1: float, y1: float, x2: float, y2: float) -> float:
    """Approximate metres between two WGS84 points (enough to tell 50 m)."""
    kx = 111_320.0 * math.cos(math.radians((y1 + y2) / 2))
    return math.hypot((x2 - x1) * kx, (y2 - y1) * 110_540.0)


# --------------------------------------------------------------------------- the city's names
@dataclass
class _Gazetteer:
    districts: set = field(default_factory=set)
    roads: dict = field(default_factory=lambda: defaultdict(dict))        # road -> {district: sorted mains}
    road_subs: dict = field(default_factory=lambda: defaultdict(set))     # (district, road, main) -> subs
    dongs: dict = field(default_factory=lambda: defaultdict(set))         # legal dong/읍/면/리 -> districts
    lots: dict = field(default_factory=lambda: defaultdict(set))          # (district, dong) -> {(mountain, main)}
    lot_subs: dict = field(default_factory=lambda: defaultdict(set))      # (district, dong, mountain, main) -> subs
    admin: dict = field(default_factory=lambda: defaultdict(set))         # administrative dong -> {(district, legal)}

    def is_name(self, word: str) -> bool:
        return word in self.districts or word in self.roads or word in self.dongs or word in self.admin


@dataclass
class _Names:
    """The city's names and their romanisations (``names_roman.csv.gz``: small, read fast; what reading and
    translating an address needs, while the numbers of :func:`_gazetteer` are read only for a reason)."""
    names: set = field(default_factory=set)
    roman: dict = field(default_factory=lambda: defaultdict(list))        # (kind, key) -> [name]
    roman_names: dict = field(default_factory=dict)                       # (kind, name) -> roman


@lru_cache(maxsize=1)
def _names() -> _Names:
    from importlib.resources import files

    out = _Names()
    try:
        raw = gzip.decompress(files("toolkit").joinpath("data/local/names_roman.csv.gz").read_bytes()).decode()
    except (OSError, FileNotFoundError):     # not shipped (a trimmed install): no splitting, no translating
        return out
    for row in csv.DictReader(io.StringIO(raw)):
        out.names.add(row["name"])
        if re.search(r"제\d+동$", row["name"]):
            out.names.add(re.sub(r"제(\d+)동$", r"\1동", row["name"]))
        out.roman_names[(row["kind"], row["name"])] = row["roman"]
        for key in {row["key"], row["key_syllables"]}:
            out.roman[(row["kind"], key)].append(row["name"])
    return out


@lru_cache(maxsize=1)
def _gazetteer() -> _Gazetteer:
    """The city's names, numbers and romanised names, from the data shipped with the toolkit (Busan)."""
    from importlib.resources import files

    g = _Gazetteer()
    local = files("toolkit").joinpath("data/local")
    rows = csv.reader(io.StringIO(gzip.decompress(local.joinpath("addresses.csv.gz").read_bytes()).decode("utf-8")))
    head = next(rows)
    at = {name: i for i, name in enumerate(head)}
    d_, e_, r_, h_ = at["region_2depth_name"], at["region_3depth_name"], at["region_4depth_name"], \
        at["region_3depth_h_name"]
    road_, main_, sub_ = at["road_name"], at["main_building_no"], at["sub_building_no"]
    mt_, lmain_, lsub_ = at["mountain_yn"], at["main_address_no"], at["sub_address_no"]
    mains: dict = defaultdict(set)
    for row in rows:
        d = row[d_]
        g.districts.add(d)
        mains[(row[road_], d)].add(int(row[main_] or 0))
        g.road_subs[(d, row[road_], row[main_])].add(row[sub_])
        for dong in (row[e_], row[r_]):
            if dong:
                g.dongs[dong].add(d)
                g.lots[(d, dong)].add((row[mt_], int(row[lmain_] or 0)))
                g.lot_subs[(d, dong, row[mt_], row[lmain_])].add(row[lsub_])
        if row[h_]:
            g.admin[row[h_]].add((d, row[e_]))
            g.admin[re.sub(r"제(\d+)동$", r"\1동", row[h_])].add((d, row[e_]))
    for (road, d), numbers in mains.items():
        g.roads[road][d] = sorted(numbers)
    return g


def _known(word: str) -> bool:
    return word in _names().names


# --------------------------------------------------------------------------- what is sent
@lru_cache(maxsize=65_536)
def prepare(text: str) -> Written:
    """``text`` read as an address (:func:`toolkit.addresstext.read`, splitting glued words on the city's names),
    a romanised address of the city turned into Korean; its ``query`` is what ``geocode`` sends."""
    written = read(text, _known)
    if written.latin and written.roman:
        return _translate(written)
    return written


def query_of(text) -> str:
    """What ``geocode`` sends for one cell: its address (:func:`prepare`), "" for an empty or non-text one; a text
    that is no readable address is sent as written (whitespace-normalised)."""
    if not isinstance(text, str) or not text.strip():
        return ""
    written = prepare(" ".join(text.split()))
    return written.query if (written.words and not written.latin) else " ".join(text.split())


def _roman_lookup(kind: str, name: str) -> list[str]:
    g = _names()
    key = roman_key(name)
    found = list(dict.fromkeys(g.roman.get((kind, key), [])))
    if not found and kind == "district":
        for generic in ("gu", "gun"):
            found += g.roman.get((kind, key + generic), [])
    if not found and kind == "dong" and re.search(r"\d", key):
        found += g.roman.get((kind, re.sub(r"(\d+)", r"je\1", key)), [])
    return found


def _translate(written: Written) -> Written:
    """A romanised address of the city in Korean names (the words of a :class:`Written`); the parts not translated
    are kept in ``roman["untranslated"]`` (the address stays ``latin``)."""
    parts = dict(written.roman)
    city = parts.get("city", "")
    sido = SIDO_ROMAN.get(roman_key(re.sub(r"(?i)[\s-]*(si|city)$", "", city))) if city else None
    if sido and sido != CITY:
        parts["outside"] = sido
        return replace(written, roman=parts)
    words, missing = [], {}
    district = None
    if "district" in parts:
        found = _roman_lookup("district", parts["district"])
        if found:
            district = found[0]
            words.append(district)
        else:
            missing["district"] = parts["district"]
    for kind in ("dong", "road"):
        if kind not in parts:
            continue
        found = _roman_lookup(kind, parts[kind])
        if district and kind == "road" and len(found) > 1:
            found = sorted(found, key=lambda n: district not in _gazetteer().roads.get(n, {}))
        if found:
            words.append(found[0])
        else:
            missing[kind] = parts[kind]
    if missing or not words or "other" in parts:
        if "other" in parts:
            missing.setdefault("other", parts["other"])
        parts["untranslated"] = missing
        return replace(written, roman=parts)
    if city:
        words.insert(0, CITY)
    return replace(written, words=tuple(words), latin=False, roman=parts)


# --------------------------------------------------------------------------- judging an answer
def _doc_number(doc: dict):
    if doc.get("address_type") == "ROAD_ADDR":
        road = doc.get("road_address") or {}
        return ("N", str(road.get("main_building_no", "")), str(road.get("sub_building_no", "") or ""))
    lot = doc.get("address") or {}
    return (lot.get("mountain_yn", "N"), str(lot.get("main_address_no", "")), str(lot.get("sub_address_no", "") or ""))


def _same_number(written, found, kind) -> bool:
    mountain, main, sub = written
    if kind == "ROAD_ADDR":
        return mountain == "N" and (main, sub) == found[1:]
    return (mountain, main, sub) == found


def _district(doc: dict) -> str:
    part = doc.get("address") or doc.get("road_address") or {}
    return str(part.get("region_2depth_name") or "")


def _differences(written: Written, doc: dict) -> list[str]:
    """How the names of ``doc`` differ from those written (empty: they agree)."""
    addr, road = doc.get("address") or {}, doc.get("road_address") or {}
    part = addr or road
    out = []
    for w in written.names("sido"):
        got = str(part.get("region_1depth_name") or "")
        if got and (sido_of(got) or got) != sido_of(w):
            out.append(f"in {got}, not {w}")
    district = str(part.get("region_2depth_name") or "").split()
    for w in written.names("district"):
        if w not in district:
            out.append(f"in {' '.join(district) or 'no district'}, not {w}")
    legal = set(str(addr.get("region_3depth_name") or "").split()) | set(str(road.get("region_3depth_name") or "")
                                                                        .split())
    legal |= {str(addr.get("region_4depth_name") or "")} - {""}
    h = str(addr.get("region_3depth_h_name") or "")
    for w in written.names("dong"):
        if w not in legal and dong_stem(w) not in legal:
            where = " / ".join(sorted(legal)) or "no dong"
            out.append(f"in {where}" + (f" (administrative dong {h})" if h and h != where else "") + f", not {w}")
    roads = written.names("road")
    if roads:
        got = str(road.get("road_name") or "") if doc.get("address_type") == "ROAD_ADDR" else ""
        for w in roads:
            if w != got:
                out.append(f"on {got}, not {w}" if got else f"a land-lot address, not one on {w}")
    if written.underground and str(road.get("underground_yn") or "N") != "Y":
        out.append("at ground level, not underground")
    return out


def judge(meta: dict, query) -> tuple[str, int, str | None]:
    """``(status, index of the document used, reason or None)`` of an address-search answer (``meta`` holds
    ``total_count`` and ``documents``, the first page) for ``query`` (the text sent, or its :class:`Written`);
    see the module docstring. The reason is given here for ``region``, ``similar`` and ``ambiguous``."""
    written = query if isinstance(query, Written) else prepare(query)
    docs = meta.get("documents") or []
    total = int(meta.get("total_count") or 0)
    if not docs or not total:
        return "not_found", -1, None
    if docs[0].get("address_type") in ("REGION", "ROAD"):
        why = "no building or lot number written" if written.number is None else \
            f"the number {written.number_text} was not found there"
        return "region", 0, f"region only: {why}; the answer is the centre of a region or road"
    addresses = [i for i, d in enumerate(docs) if d.get("address_type") in ("ROAD_ADDR", "REGION_ADDR")]
    agree = [i for i in addresses if not _differences(written, docs[i])]
    exact = [i for i in agree if written.number is not None and
             _same_number(written.number, _doc_number(docs[i]), docs[i].get("address_type"))]
    asked = written.query or written.text
    if exact:
        places = _places(docs, exact)
        if len(places) == 1:
            return "matched", exact[0], None
        return "ambiguous", exact[0], _ambiguous(docs, places, total)
    if agree:
        places = _places(docs, agree)
        if len(places) > 1 or total > len(docs):
            return "ambiguous", agree[0], _ambiguous(docs, places, total)
        doc = docs[agree[0]]
        what = "a building by its name" if written.number is None else f"another number: {_number_text(doc)}"
        return "similar", agree[0], f"similar: asked {asked}, answered {doc.get('address_name')} ({what})"
    first = addresses[0] if addresses else 0
    doc = docs[first]
    return "similar", first, (f"similar: asked {asked}, answered {doc.get('address_name')} "
                              f"({'; '.join(_differences(written, doc))})")


def _number_text(doc: dict) -> str:
    mountain, main, sub = _doc_number(doc)
    return ("산" if mountain == "Y" else "") + main + (f"-{sub}" if sub else "")


def _places(docs: list[dict], cand: list[int]) -> list[int]:
    """The first document of each different place among ``cand`` (more than :data:`SAME_PLACE_M` apart, or in
    different districts)."""
    places: list[int] = []
    for i in cand:
        x, y, d = float(docs[i]["x"]), float(docs[i]["y"]), _district(docs[i])
        if not any(_metres(float(docs[j]["x"]), float(docs[j]["y"]), x, y) <= SAME_PLACE_M and _district(docs[j]) == d
                   for j in places):
            places.append(i)
    return places


def _ambiguous(docs: list[dict], places: list[int], total: int) -> str:
    n = max(len(places), 2)
    shown = "; ".join(str(docs[i].get("address_name")) for i in places[:3])
    more = f" (and more: {total} documents)" if total > len(docs) or len(places) > 3 else ""
    return f"ambiguous: {n} places answer it: {shown}{more}"


# --------------------------------------------------------------------------- reasons
def _nearest(numbers: list[int], n: int) -> list[int]:
    i = bisect_left(numbers, n)
    return ([numbers[i - 1]] if i > 0 else []) + ([numbers[i]] if i < len(numbers) and numbers[i] != n else
                                                   [numbers[i + 1]] if i + 1 < len(numbers) else [])


def reason(query, status: str, *, sandbox: bool = True) -> str | None:
    """Why a row of ``status`` did not match (None for ``matched`` and for the rows not done or in error:
    ``geocode_error`` says those). ``query``: the address as written (or its :class:`Written`). ``sandbox``: the
    answers came from the sandbox, whose world is the city's list; against the real service a claim about that
    list says so."""
    if status == "empty":
        return "empty"
    if status == "region":
        return "region only: the answer is a region's or a road's centre, not an address"
    if status != "not_found":
        return None
    written = query if isinstance(query, Written) else prepare(" ".join(str(query).split()))
    try:
        g = _gazetteer()
    except (OSError, KeyError):       # the list is not shipped (a trimmed install): no finer reason
        return "not understood"
    said = _why(written, g, sandbox)
    if not sandbox and said.startswith(("no building", "no lot", "no such", "romanised address: no")) or \
            (not sandbox and " is not in " in said):
        said += _LIST
    return said


def _why(w: Written, g: _Gazetteer, sandbox: bool) -> str:
    text = " ".join(w.text.split())
    if w.latin:
        return _why_roman(w, g, sandbox)
    if not _HANGUL.search(text):
        return "garbage: no region, road or dong name" + (" (only numbers)" if re.search(r"\d", text)
                                                          else " and no number")
    for s in w.names("sido"):
        if sido_of(s) != CITY:
            return _outside(s, sandbox)
    districts = w.names("district")
    for d in districts:
        if d not in g.districts:
            if not w.names("sido") and not any(x in g.roads or x in g.dongs or x in g.admin for x in w.words):
                return _outside(d, sandbox, district=True)
            near = difflib.get_close_matches(d, sorted(g.districts), n=3, cutoff=0.5)
            return f"no such district '{d}' in {CITY}" + (f"; did you mean {', '.join(near)}?" if near else "")
    district = districts[-1] if districts else None
    unknown = [x for x in w.words if kind_of(x) is None and not g.is_name(x)]
    if w.number is None:
        if unknown:
            return "not understood: no building or lot number; " + ", ".join(f"'{x}'" for x in unknown) + \
                (" is no region, road or dong name" if len(unknown) == 1 else " are no region, road or dong names")
        return "region only: no building or lot number"
    roads = w.names("road")
    last = w.words[-1] if w.words else ""
    if last in unknown:
        # a word the reader cannot place right before the number: a misspelt road or dong (연수노 for 연수로)
        road_pool = [r for r, ds in g.roads.items() if district is None or district in ds]
        road_score = max((difflib.SequenceMatcher(None, last, r).ratio() for r in
                          difflib.get_close_matches(last, road_pool, n=3, cutoff=0.5)), default=0)
        dong_pool = [n for n, ds in g.dongs.items() if district is None or district in ds]
        dong_score = max((difflib.SequenceMatcher(None, last, n).ratio() for n in
                          difflib.get_close_matches(last, dong_pool, n=3, cutoff=0.5)), default=0)
        if road_score and road_score >= dong_score:
            return _why_road(last, district, w, g)
        if dong_score:
            return _why_lot(last, district, w, g)
        return f"not understood: '{last}' is no region, road or dong name"
    if roads and (w.kind == "road" or not w.names("dong")):
        return _why_road(roads[-1], district, w, g)
    dongs = w.names("dong")
    if dongs:
        return _why_lot(dongs[-1], district, w, g)
    if unknown:
        near = difflib.get_close_matches(unknown[0], sorted(set(g.roads) | set(g.dongs)), n=3, cutoff=0.5)
        return (f"not understood: '{unknown[0]}' is no region, road or dong name" +
                (f" (did you mean {', '.join(near)}?)" if near else ""))
    return "not understood"


def _closest(word: str, pool, has_number) -> list[str]:
    """Up to three names of ``pool`` closest in spelling to ``word`` (difflib), those that have the number written
    first (of names as close, the one where the address exists is the likelier)."""
    near = difflib.get_close_matches(word, pool, n=12, cutoff=0.5)
    score = {n: difflib.SequenceMatcher(None, word, n).ratio() for n in near}
    near = sorted(near, key=lambda n: (-round(score[n], 6), not has_number(n)))
    stems = list(dict.fromkeys(dong_stem(n) for n in near))   # 하단1동, 하단2동: their legal dong 하단동 once
    return [next(n for n in near if dong_stem(n) == s) for s in stems][:3]


def _has_lot(g: _Gazetteer, dong: str, district: str | None, number) -> bool:
    if number is None:
        return False
    mountain, main, _ = number
    pairs = {(d, dong) for d in g.dongs.get(dong, ())} | set(g.admin.get(dong, ()))
    return any((mountain, int(main)) in g.lots.get(p, ()) for p in pairs if district is None or p[0] == district)


def _outside(what: str, sandbox: bool, district: bool = False) -> str:
    if not sandbox:
        return f"not found by the service ({what}: the toolkit can say more only of addresses in Busan)"
    return (f"outside the sandbox's city: {what} is {'no district of' if district else 'not in'} Busan (the "
            "sandbox's world is Busan; the real service covers the country)")


def _why_road(road: str, district: str | None, w: Written, g: _Gazetteer) -> str:
    assert w.number is not None                 # only numbered addresses are explained
    per = g.roads.get(road)
    if per is None:
        names = [r for r, ds in g.roads.items() if district is None or district in ds]
        wanted = int(w.number[1])
        near = _closest(road, names, lambda r: any(wanted in ns for d, ns in g.roads[r].items()
                                                   if district is None or d == district))
        where = f" in {district}" if district else ""
        return f"no such road name '{road}'{where}" + (f" (did you mean {', '.join(near)}?)" if near else "")
    if district and district not in per:
        return f"no such road name '{road}' in {district} (the road is in {', '.join(sorted(per))})"
    mountain, main, sub = w.number
    ds = [district] if district else sorted(per)
    have = {(n, d) for d in ds for n in per[d]}
    numbers = sorted({n for n, _ in have})
    where = ", ".join(ds)
    if int(main) not in numbers:
        closest = _nearest(numbers, int(main))
        shown = ", ".join(str(n) + ("" if len(ds) == 1 else
                                    " (" + ", ".join(d for d in ds if n in per[d]) + ")") for n in closest)
        return f"no building numbered {main} on {road} in {where}; nearest: {shown}"
    subs = sorted({s for d in ds for s in g.road_subs.get((d, road, main), ())}, key=lambda s: (s != "", len(s), s))
    if sub not in subs:
        shown = ", ".join(main + (f"-{s}" if s else "") for s in subs[:6])
        asked = f"{main}-{sub}" if sub else f"{main} without a sub-number"
        return f"no building numbered {asked} on {road} in {where}; numbered {main} there: {shown}"
    return f"not found, though {road} {w.number_text} is in the city's address list"


def _why_lot(dong: str, district: str | None, w: Written, g: _Gazetteer) -> str:
    assert w.number is not None                 # only numbered addresses are explained
    legal = set()
    if dong in g.dongs:
        legal = {(d, dong) for d in g.dongs[dong]}
    elif dong in g.admin:
        legal = set(g.admin[dong])
    if not legal:
        pool = sorted({n for n, ds in g.dongs.items() if district is None or district in ds} |
                      {n for n, pairs in g.admin.items() if district is None or any(d == district for d, _ in pairs)})
        near = _closest(dong, pool, lambda n: _has_lot(g, n, district, w.number))
        where = f" in {district}" if district and district in g.districts else ""
        if not near:
            return f"no such dong '{dong}'{where}"
        named = [n if district else f"{n} ({', '.join(sorted(g.dongs.get(n) or {d for d, _ in g.admin[n]}))})"
                 for n in near]
        return f"no such dong '{dong}'{where}; did you mean {', '.join(named)}?"
    if district:
        inside = {(d, x) for d, x in legal if d == district}
        if not inside:
            homes = sorted({d for d, _ in legal})
            return f"{dong} is not in {district}: it is in {', '.join(homes)}"
        legal = inside
    mountain, main, sub = w.number
    kind = "mountain lot" if mountain == "Y" else "lot"
    shown_no = ("산" if mountain == "Y" else "") + main
    out = []
    for d, x in sorted(legal):
        numbers = sorted(n for m, n in g.lots.get((d, x), ()) if m == mountain)
        if int(main) not in numbers:
            nearest = ", ".join(str(n) for n in _nearest(numbers, int(main)))
            out.append(f"no {kind} numbered {shown_no} in {d} {x}" + (f"; nearest: {nearest}" if nearest else ""))
        else:
            subs = sorted(g.lot_subs.get((d, x, mountain, main), ()), key=lambda s: (s != "", len(s), s))
            if sub in subs:
                return f"not found, though {d} {x} {w.number_text} is in the city's address list"
            shown = ", ".join(shown_no + (f"-{s}" if s else "") for s in subs[:6])
            asked = f"{shown_no}-{sub}" if sub else f"{shown_no} without a sub-number"
            out.append(f"no {kind} numbered {asked} in {d} {x}; numbered {shown_no} there: {shown}")
    return out[0] if len(out) == 1 else "; ".join(out)


def _why_roman(w: Written, g: _Gazetteer, sandbox: bool) -> str:
    parts = w.roman
    if parts.get("outside"):
        city = parts.get("city") or parts["outside"]
        return _outside(city, sandbox)
    missing = parts.get("untranslated") or {}
    if not parts or (set(parts) <= {"other", "untranslated"} and w.number is None):
        return "garbage: no region, road or dong name and no number"
    for kind in ("district", "dong", "road"):
        if kind in missing:
            name = missing[kind]
            pool = {n: r for (k, n), r in _names().roman_names.items() if k == kind}
            keys = {roman_key(r): n for n, r in pool.items()}
            near = difflib.get_close_matches(roman_key(name), list(keys), n=3, cutoff=0.75)
            shown = ", ".join(f"{pool[keys[k]]} ({keys[k]})" for k in near)
            return (f"romanised address: no {kind} named '{name}' among Busan's {kind} names in Latin letters" +
                    (f" (did you mean {shown}?)" if shown else ""))
    if "other" in missing:
        name = missing["other"].split(", ")[0]
        keys = {roman_key(r): (k, n, r) for (k, n), r in sorted(_names().roman_names.items())}
        near = difflib.get_close_matches(roman_key(name), list(keys), n=3, cutoff=0.75)
        if near:
            kind = keys[near[0]][0]
            shown = ", ".join(f"{keys[k][2]} ({keys[k][1]})" for k in near if keys[k][0] == kind)
            return (f"romanised address: no {kind} named '{name}' among Busan's {kind} names in Latin letters "
                    f"(did you mean {shown}?)")
        return (f"romanised address: '{missing['other']}' is no road, dong or district name (road names end in "
                "-ro, -daero or -gil, dongs in -dong, districts in -gu or -gun)")
    return "romanised address: not understood"
