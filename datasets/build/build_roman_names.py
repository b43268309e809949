"""Build ``toolkit/data/local/names_roman.csv.gz``: the city's district, dong and road names in the Revised Romanization,
so that ``geocode`` can turn a romanised address (``92, Gaya-daero, Busanjin-gu, Busan``) into Korean.

Reads ``toolkit/data/local/addresses.csv.gz``, ``regions_b.geojson`` and ``codes_hdong.csv`` only; romanises with
the ``romaja`` package (MIT; ``pip install romaja==1.0.0``: Revised Romanization with its sound-change rules) the
specific part of each name apart from its generic part, as the official English names are written
(``가야대로`` → ``Gaya-daero``, ``수영로39번길`` → ``Suyeong-ro 39beon-gil``, ``중앙동4가`` → ``Jungang-dong 4-ga``,
``부산진구`` → ``Busanjin-gu``). Each row also has the syllable-by-syllable spelling (no sound changes across
syllables: ``백양`` → ``baekyang`` beside ``baegyang``), as people also write. Deterministic; no network.

Columns: ``kind`` (district, dong, road), ``name`` (Korean), ``roman`` (the name in Latin letters), ``key`` and
``key_syllables`` (letters and digits only, lower case: how romanised input is compared).

    python datasets/build/build_roman_names.py
"""
from __future__ import annotations

import csv
import gzip
import io
import json
import re
from pathlib import Path

from romaja import romaja

ROOT = Path(__file__).resolve().parents[2]
LOCAL = ROOT / "toolkit" / "data" / "local"
OUT = LOCAL / "names_roman.csv.gz"
GENERIC = [("번길", "beon-gil"), ("대로", "daero"), ("로", "ro"), ("길", "gil"), ("동", "dong"), ("구", "gu"),
           ("군", "gun"), ("읍", "eup"), ("면", "myeon"), ("리", "ri"), ("가", "ga")]


def _syllables(text: str) -> str:
    return "".join(romaja(ch) for ch in text)


def romanise(name: str, by_syllable: bool = False) -> str:
    """``name`` in Latin letters, the generic part apart (``가야대로`` → ``Gaya-daero``)."""
    rom = _syllables if by_syllable else romaja
    m = re.fullmatch(r"(.+?(?:로|길))(\d+)(번[가-하]?길|[가-하]?길|번길)", name)
    if m:
        tail = m.group(3)
        generic = "beon-gil" if tail == "번길" else ("beon" + rom(tail[1:-1]) + "-gil" if tail.startswith("번")
                                                    else rom(tail[:-1]) + "-gil" if len(tail) > 1 else "-gil")
        return f"{romanise(m.group(1), by_syllable)} {m.group(2)}{generic.replace('--', '-')}"
    m = re.fullmatch(r"(.+?)(\d+)(로|길)", name)
    if m:
        return f"{rom(m.group(1)).capitalize()} {m.group(2)}-{'ro' if m.group(3) == '로' else 'gil'}"
    m = re.fullmatch(r"(.+동)(\d+)가", name)
    if m:
        return f"{romanise(m.group(1), by_syllable)} {m.group(2)}-ga"
    m = re.fullmatch(r"(.+?)제?(\d+)동", name)
    if m:
        return f"{rom(m.group(1)).capitalize()} {m.group(2)}-dong"
    for ko, en in GENERIC:
        if name.endswith(ko) and len(name) > len(ko):
            return rom(name[: -len(ko)]).capitalize() + "-" + en
    return rom(name).capitalize()


def key(text: str) -> str:
    return re.sub(r"[^a-z0-9]", "", text.lower())


def names() -> list[tuple[str, str]]:
    rows = list(csv.DictReader(io.StringIO(gzip.decompress((LOCAL / "addresses.csv.gz").read_bytes()).decode())))
    out = {("road", a["road_name"]) for a in rows}
    out |= {("district", a["region_2depth_name"]) for a in rows}
    regions = json.loads((LOCAL / "regions_b.geojson").read_text("utf-8"))
    for feat in regions["features"]:
        p = feat["properties"]
        if p["level"] == "sigungu":
            out.add(("district", p["name"]))
        elif p["level"] in ("emd", "ri"):
            out.add(("dong", p["name"]))
    for r in csv.DictReader(io.StringIO((LOCAL / "codes_hdong.csv").read_text("utf-8"))):
        if not r["abolished"] and r["emd"]:
            out.add(("dong", r["emd"]))
    return sorted(out)


def main() -> None:
    buf = io.StringIO()
    w = csv.writer(buf, lineterminator="\n")
    w.writerow(["kind", "name", "roman", "key", "key_syllables"])
    for kind, name in names():
        roman = romanise(name)
        w.writerow([kind, name, roman, key(roman), key(romanise(name, by_syllable=True))])
    data = gzip.compress(buf.getvalue().encode("utf-8"), mtime=0)     # no timestamp: the same bytes every run
    OUT.write_bytes(data)
    print(f"{OUT.relative_to(ROOT)}: {buf.getvalue().count(chr(10)) - 1} names, {len(data)} bytes")


if __name__ == "__main__":
    main()
