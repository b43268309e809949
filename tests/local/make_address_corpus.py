"""Make ``tests/local/data/address_corpus.csv``: addresses written the way Korean customer files write them, each
with the place it must land on, plus wrong-but-plausible ones. Run ``python tests/local/make_address_corpus.py``
(deterministic: a fixed seed; reads only the toolkit's own data files, no network).

How it is made:

* **Known places** (``place`` = the road and the land-lot address of one row of
  ``toolkit/data/local/addresses.csv.gz``, ``|``-separated): rows drawn at random from every district, each written
  once, as a road or as a land-lot address, with a mix of the forms of point 1 of the issue, several in one row as a
  real file has them: the city as ``부산``/``부산시``/``부산광역시`` or left out; the district left out when the road
  and number (or the dong) exist in one district only; no space before the number or none at all; full-width
  digits; a postcode in front (the row's ``zone_no``); a unit or floor after a comma or a space (``1층``, ``101호``,
  ``101동 1001호``, ``지하1층``, ``B1``); the dong or the building name in parentheses; lot numbers as ``N번지``,
  ``N-M번지``, ``N번지 M호``, ``산N``; a dong's ``가`` apart (``중앙동 4가``); the administrative dong instead of
  the legal one (``전포1동`` for ``전포동``: only where the administrative dong is made of that legal dong);
  the 읍/면 left out before a 리.
* **Romanised** (known places too): road and lot addresses in Latin letters, romanised here by a plain
  syllable-by-syllable table of the Revised Romanization (not the toolkit's code), in the orders people write
  (``92, Gaya-daero, Busanjin-gu, Busan``; ``Gaya-daero 92, Busanjin-gu, Busan 47291``), and a few official
  English names written by hand (``Dongnae-gu``, ``Jungang-daero``).
* **Wrong but plausible** (``place`` empty, ``expect`` names the reason wanted): a building or lot number that does
  not exist (between two that do), a misspelt dong (one syllable changed, so that it is no name of the city), a
  dong of another district, a misspelt road, a road of another district, addresses outside the city (by hand: public
  buildings of other cities), and a few cells that are no address at all.
"""
from __future__ import annotations

import csv
import gzip
import io
import random
import re
from collections import defaultdict
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
DATA = ROOT / "toolkit" / "data" / "local"
OUT = Path(__file__).resolve().parent / "data" / "address_corpus.csv"
SEED = 41

# ---------------------------------------------------------------------------------------------- romanisation
_I = ["g", "kk", "n", "d", "tt", "r", "m", "b", "pp", "s", "ss", "", "j", "jj", "ch", "k", "t", "p", "h"]
_V = ["a", "ae", "ya", "yae", "eo", "e", "yeo", "ye", "o", "wa", "wae", "oe", "yo", "u", "wo", "we", "wi", "yu",
      "eu", "ui", "i"]
_F = ["", "k", "k", "k", "n", "n", "n", "t", "l", "k", "m", "l", "l", "l", "p", "l", "m", "p", "p", "t", "t",
      "ng", "t", "t", "k", "t", "p", "t"]


def rr(text: str) -> str:
    """Syllable by syllable Revised Romanization (no sound changes across syllables)."""
    out = []
    for ch in text:
        code = ord(ch) - 0xAC00
        if 0 <= code < 11172:
            out.append(_I[code // 588] + _V[(code % 588) // 28] + _F[code % 28])
        else:
            out.append(ch)
    return "".join(out)


_GENERIC = [("번길", "beon-gil"), ("대로", "daero"), ("로", "ro"), ("길", "gil"), ("동", "dong"), ("구", "gu"),
            ("군", "gun"), ("읍", "eup"), ("면", "myeon"), ("리", "ri"), ("가", "ga")]


def romanise(name: str) -> str:
    """A road, dong or district name in Latin letters, the generic part apart: 가야대로 → Gaya-daero,
    수영로39번길 → Suyeong-ro 39beon-gil, 중앙동4가 → Jungang-dong 4-ga."""
    m = re.fullmatch(r"(.+?(?:로|길))(\d+)(번길|길)", name)
    if m:
        return f"{romanise(m.group(1))} {m.group(2)}{'beon-gil' if m.group(3) == '번길' else '-gil'}"
    m = re.fullmatch(r"(.+동)(\d+)가", name)
    if m:
        return f"{romanise(m.group(1))} {m.group(2)}-ga"
    for ko, en in _GENERIC:
        if name.endswith(ko) and len(name) > len(ko):
            stem = name[: -len(ko)]
            return rr(stem).capitalize() + "-" + en
    return rr(name).capitalize()


# ---------------------------------------------------------------------------------------------- data
def addresses() -> list[dict]:
    raw = gzip.decompress((DATA / "addresses.csv.gz").read_bytes()).decode("utf-8")
    return list(csv.DictReader(io.StringIO(raw)))


def _full_width(text: str) -> str:
    return "".join(chr(ord(c) + 0xFEE0) if c.isdigit() else c for c in text)


UNITS_ANY = [", 1층", " 2층", ", 지하1층", " B1", ", B1층", ", 3층", " 5층 501호", ", 101동 1001호", ", 상가 2층"]
UNITS_HO = [", 101호", " 203호", ", 3층 301호"]
OUTSIDE = ["서울 강남구 테헤란로 152", "서울특별시 중구 세종대로 110", "대구광역시 중구 공평로 88",
           "경기도 성남시 분당구 판교역로 235", "인천광역시 중구 공항로 272", "대전 유성구 대학로 99",
           "광주광역시 북구 용봉로 77", "울산 남구 중앙로 201", "제주특별자치도 제주시 문연로 6",
           "세종특별자치시 한누리대로 2130", "전북 삼성동 100", "경남 창원시 의창구 중앙대로 151"]
NOT_ADDRESSES = ["없음", "N/A", "주소 미상", "-", "asdf", "010-1234-5678"]
OFFICIAL_EN = [  # official English names written by hand: (road, district) as the city's signs write them
    ("중앙대로", "부산진구", "Jungang-daero", "Busanjin-gu"), ("충렬대로", "동래구", "Chungnyeol-daero", "Dongnae-gu"),
    ("해운대로", "해운대구", "Haeundae-ro", "Haeundae-gu"), ("수영로", "수영구", "Suyeong-ro", "Suyeong-gu"),
    ("가야대로", "부산진구", "Gaya-daero", "Busanjin-gu"), ("낙동대로", "사하구", "Nakdong-daero", "Saha-gu"),
    ("백양대로", "부산진구", "Baegyang-daero", "Busanjin-gu"), ("신라대학로", "사상구", "Silladaehak-ro", "Sasang-gu"),
]


def make() -> list[dict]:
    rng = random.Random(SEED)
    rows = addresses()
    by_district = defaultdict(list)
    for a in rows:
        by_district[a["region_2depth_name"]].append(a)
    road_number_districts = defaultdict(set)       # (road, main, sub) -> districts
    dong_districts = defaultdict(set)              # legal dong (or 리) -> districts
    road_districts = defaultdict(set)
    lots_of = defaultdict(set)                     # (district, dong, ri) -> main lot numbers (ground)
    numbers_of = defaultdict(set)                  # (district, road) -> main building numbers
    for a in rows:
        d = a["region_2depth_name"]
        road_number_districts[(a["road_name"], a["main_building_no"], a["sub_building_no"])].add(d)
        dong_districts[a["region_3depth_name"]].add(d)
        if a["region_4depth_name"]:
            dong_districts[a["region_4depth_name"]].add(d)
        road_districts[a["road_name"]].add(d)
        if a["mountain_yn"] == "N":
            lots_of[(d, a["region_3depth_name"], a["region_4depth_name"])].add(int(a["main_address_no"]))
        numbers_of[(d, a["road_name"])].add(int(a["main_building_no"]))
    hnames = {}
    for r in csv.DictReader(io.StringIO((DATA / "codes_hdong.csv").read_text("utf-8"))):
        if not r["abolished"] and r["emd"]:
            hnames[r["code"]] = r["emd"]
    names = set(dong_districts) | set(road_districts) | {a["region_2depth_name"] for a in rows} | set(hnames.values())
    names |= {re.sub(r"제(\d+)동$", r"\1동", n) for n in hnames.values()}
    out: list[dict] = []

    def city() -> str:
        return rng.choice(["", "", "부산 ", "부산시 ", "부산광역시 "])

    def front(a) -> str:
        if rng.random() < 0.1:
            return rng.choice(["{} ", "({}) ", "[{}] ", "우){} "]).format(a["zone_no"])
        return ""

    def digits(text: str) -> str:
        return _full_width(text) if rng.random() < 0.1 else text

    # ------------------------------------------------------------------ known places: road addresses
    picked = []
    for d in sorted(by_district):
        picked += [(a, kind) for a, kind in zip(rng.sample(by_district[d], 16), ["road"] * 8 + ["lot"] * 8)]
    # forms the draw above meets rarely: mountain lots (산), and the 리 of 기장군 (often without its 읍/면)
    picked += [(a, "lot") for a in rng.sample([a for a in rows if a["mountain_yn"] == "Y"], 10)]
    picked += [(a, "lot") for a in rng.sample([a for a in rows if a["region_4depth_name"]], 10)]
    for a, kind in picked:
        d = a["region_2depth_name"]
        place = a["road_address_name"] + "|" + a["address_name"]
        if kind == "road":
            number = a["main_building_no"] + (f"-{a['sub_building_no']}" if a["sub_building_no"] else "")
            unique = len(road_number_districts[(a["road_name"], a["main_building_no"], a["sub_building_no"])]) == 1
            forms = []
            head = city() + ("" if unique and rng.random() < 0.35 else d + " ")
            if not head.strip():
                forms.append("no city, no district")
            sep = " "
            r = rng.random()
            if r < 0.15:
                sep = ""
                forms.append("no space before the number")
            text = head + a["road_name"] + sep + digits(number)
            if r > 0.93:
                text = text.replace(" ", "")
                forms.append("no space at all")
            unit = ""
            if rng.random() < 0.55:
                unit = rng.choice(UNITS_ANY + UNITS_HO)
                forms.append("unit")
            paren = ""
            p = rng.random()
            if p < 0.12:
                paren = f" ({a['region_3depth_name']})"
                forms.append("dong in parentheses")
            elif p < 0.22 and a["building_name"]:
                paren = f" ({a['region_3depth_name']}, {a['building_name']})"
                forms.append("dong and building in parentheses")
            postcode = front(a)
            text = postcode + text + unit + paren
            forms += ["postcode"] * bool(postcode) + ["full-width digits"] * bool(re.search("[０-９]", text))
            out.append({"address": text.strip(), "place": place, "form": "road: " + ", ".join(forms or ["plain"]),
                        "expect": ""})
        else:
            lot_dong, ri = a["region_3depth_name"], a["region_4depth_name"]
            main, sub, mountain = a["main_address_no"], a["sub_address_no"], a["mountain_yn"] == "Y"
            forms = []
            dong = lot_dong
            if ri:
                dong = ri if rng.random() < 0.4 else f"{lot_dong} {ri}"
                if dong == ri:
                    forms.append("리 without its 읍/면")
            else:
                h = hnames.get(a["h_code"], "")
                short = re.sub(r"제(\d+)동$", r"\1동", h)
                if h and h != lot_dong and re.sub(r"\d+동$", "동", short) == lot_dong and rng.random() < 0.15:
                    dong = short
                    forms.append("administrative dong")
                m = re.fullmatch(r"(.+동)(\d+가)", lot_dong)
                if m and rng.random() < 0.5:
                    dong = f"{m.group(1)} {m.group(2)}"
                    forms.append("가 apart")
            unique = len(dong_districts[ri or lot_dong]) == 1 and dong != lot_dong + "x"
            head = city() + ("" if unique and rng.random() < 0.35 and "administrative dong" not in forms else d + " ")
            r = rng.random()
            if sub and r < 0.3:
                number, style = f"{main}번지 {sub}호", "N번지 M호"
            elif r < 0.55:
                number, style = main + (f"-{sub}" if sub else "") + "번지", "번지"
            else:
                number, style = main + (f"-{sub}" if sub else ""), "N-M"
            if mountain:
                number = rng.choice(["산", "산 "]) + number
                style += ", 산"
            forms.append(style)
            sep = "" if rng.random() < 0.1 else " "
            if not sep:
                forms.append("no space before the number")
            text = head + dong + sep + digits(number)
            if rng.random() < 0.3:
                unit = rng.choice(UNITS_ANY + ([] if style == "번지" and not sub else UNITS_HO))
                text += unit
                forms.append("unit")
            postcode = front(a)
            forms += ["postcode"] * bool(postcode) + ["full-width digits"] * bool(re.search("[０-９]", text))
            out.append({"address": (postcode + text).strip(), "place": place,
                        "form": "lot: " + ", ".join(forms), "expect": ""})
    # ------------------------------------------------------------------ known places: romanised
    plain = [a for a in rows if not a["region_4depth_name"] and a["mountain_yn"] == "N"]
    for i, a in enumerate(rng.sample(plain, 50)):
        d = a["region_2depth_name"]
        place = a["road_address_name"] + "|" + a["address_name"]
        if i < 35:
            number = a["main_building_no"] + (f"-{a['sub_building_no']}" if a["sub_building_no"] else "")
            road, gu = romanise(a["road_name"]), romanise(d)
            text = rng.choice([f"{number}, {road}, {gu}, Busan", f"{road} {number}, {gu}, Busan {a['zone_no']}",
                               f"{number} {road}, {gu}, Busan, Republic of Korea", f"Busan {gu} {road} {number}"])
            form = "romanised road"
        else:
            number = a["main_address_no"] + (f"-{a['sub_address_no']}" if a["sub_address_no"] else "")
            dong, gu = romanise(a["region_3depth_name"]), romanise(d)
            text = rng.choice([f"{number}, {dong}, {gu}, Busan", f"{dong} {number}, {gu}, Busan"])
            form = "romanised lot"
        out.append({"address": text, "place": place, "form": form, "expect": ""})
    for road, d, en_road, en_gu in OFFICIAL_EN:
        cands = [a for a in by_district[d] if a["road_name"] == road]
        if not cands:
            continue
        a = rng.choice(cands)
        number = a["main_building_no"] + (f"-{a['sub_building_no']}" if a["sub_building_no"] else "")
        out.append({"address": f"{number}, {en_road}, {en_gu}, Busan", "place": a["road_address_name"] + "|" +
                    a["address_name"], "form": "romanised road, official English names", "expect": ""})
    # ------------------------------------------------------------------ wrong but plausible
    keys = sorted(k for k, v in numbers_of.items() if len(v) >= 6)
    for d, road in rng.sample(keys, 22):
        have = sorted(numbers_of[(d, road)])
        gaps = [n for n in range(have[0] + 1, have[-1]) if n not in have]
        if not gaps:
            continue
        n = rng.choice(gaps)
        out.append({"address": f"{city()}{d} {road} {n}{rng.choice(['', '', ', 1층'])}", "place": "",
                    "form": "wrong: building number that does not exist", "expect": "no building"})
    lot_keys = sorted(k for k, v in lots_of.items() if len(v) >= 6 and not k[2])
    for d, dong, _ in rng.sample(lot_keys, 16):
        have = sorted(lots_of[(d, dong, "")])
        gaps = [n for n in range(have[0] + 1, have[-1]) if n not in have]
        if not gaps:
            continue
        n = rng.choice(gaps)
        out.append({"address": f"{city()}{d} {dong} {n}{rng.choice(['', '번지'])}", "place": "",
                    "form": "wrong: lot number that does not exist", "expect": "no lot"})
    syllables = "가나다라마바사아자차카타파하강남덕명성천한"
    done = 0
    for a in rng.sample(rows, 200):
        dong = a["region_3depth_name"]
        if done >= 16 or a["region_4depth_name"] or re.search(r"\d", dong) or len(dong) < 3:
            continue
        i = rng.randrange(len(dong) - 1)
        typo = dong[:i] + rng.choice(syllables) + dong[i + 1:]
        if typo in names or typo == dong:
            continue
        number = a["main_address_no"] + (f"-{a['sub_address_no']}" if a["sub_address_no"] else "")
        with_district = rng.random() < 0.6
        out.append({"address": f"{a['region_2depth_name'] + ' ' if with_district else ''}{typo} {number}",
                    "place": "", "form": "wrong: misspelt dong", "expect": f"dong typo:{dong}"})
        done += 1
    singles = sorted(g for g, ds in dong_districts.items() if len(ds) == 1 and not re.search(r"\d", g))
    for g in rng.sample(singles, 10):
        home = next(iter(dong_districts[g]))
        other = rng.choice(sorted(set(by_district) - {home}))
        n = rng.choice(sorted(lots_of.get((home, g, ""), {101})))
        out.append({"address": f"{other} {g} {n}", "place": "", "form": "wrong: dong of another district",
                    "expect": f"dong elsewhere:{home}"})
    done = 0
    for a in rng.sample(rows, 300):
        road = a["road_name"]
        if done >= 10 or re.search(r"\d", road):
            continue
        i = rng.randrange(len(road) - 1)
        typo = road[:i] + rng.choice(syllables) + road[i + 1:]
        if typo in names or typo == road or not typo.endswith(("로", "길")):
            continue
        out.append({"address": f"{a['region_2depth_name']} {typo} {a['main_building_no']}", "place": "",
                    "form": "wrong: misspelt road", "expect": f"road typo:{road}"})
        done += 1
    single_roads = sorted(r for r, ds in road_districts.items() if len(ds) == 1 and not re.search(r"\d", r))
    for road in rng.sample(single_roads, 6):
        home = next(iter(road_districts[road]))
        other = rng.choice(sorted(set(by_district) - {home}))
        n = min(numbers_of[(home, road)])
        out.append({"address": f"{other} {road} {n}", "place": "", "form": "wrong: road of another district",
                    "expect": f"road elsewhere:{home}"})
    for text in OUTSIDE:
        out.append({"address": text, "place": "", "form": "wrong: outside the city", "expect": "outside"})
    out.append({"address": "강남구 테헤란로 152", "place": "", "form": "wrong: outside the city, no city written",
                "expect": "outside"})
    out.append({"address": "152 Teheran-ro, Gangnam-gu, Seoul", "place": "", "form": "wrong: romanised, outside",
                "expect": "outside"})
    out.append({"address": "92, Gaya-daero, Geumjeong-gu, Busan", "place": "",
                "form": "wrong: romanised, road of another district", "expect": "road elsewhere:부산진구"})
    out.append({"address": "785, Gaya-dero, Busanjin-gu, Busan", "place": "", "form": "wrong: romanised, misspelt",
                "expect": "road typo:가야대로"})
    for text in NOT_ADDRESSES:
        out.append({"address": text, "place": "", "form": "wrong: no address", "expect": "no address"})
    rng.shuffle(out)                   # mixed, as a customer file is
    return out


HEADER = """# Addresses as Korean customer files write them, each with the place it must land on (place: the road and the
# land-lot address of one row of toolkit/data/local/addresses.csv.gz, "|"-separated) or, for the wrong-but-plausible
# ones, the reason wanted (expect). Made by tests/local/make_address_corpus.py (seed 41; see its docstring for the
# forms and how each was made); regenerate with: python tests/local/make_address_corpus.py
"""


def write(rows: list[dict], path: Path = OUT) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    buf = io.StringIO()
    writer = csv.DictWriter(buf, fieldnames=["address", "place", "form", "expect"], lineterminator="\n")
    writer.writeheader()
    writer.writerows(rows)
    path.write_text(HEADER + buf.getvalue(), encoding="utf-8")


def read(path: Path = OUT) -> list[dict]:
    lines = [ln for ln in path.read_text("utf-8").splitlines(keepends=True) if not ln.startswith("# ")]
    return list(csv.DictReader(io.StringIO("".join(lines))))


if __name__ == "__main__":
    rows = make()
    write(rows)
    print(f"{len(rows)} rows written to {OUT.relative_to(ROOT)}: "
          f"{sum(1 for r in rows if r['place'])} known places, {sum(1 for r in rows if not r['place'])} wrong")
