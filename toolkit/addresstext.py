"""How people write a Korean address, read into its parts: the one reader of address text that both sides share
(the sandbox's address search and the client's ``geocode``), so that a customer file gets the same reading
against the sandbox and against the real service. Pure text: no data is loaded here; a caller that knows the
city's names passes ``known`` to split words written without spaces.

What it reads (the forms of Korean customer files):

* spaces anywhere or nowhere (``부산진구전포동341-17``, ``가야대로785``), full-width digits, letters and
  punctuation (NFKC), every kind of dash (``341–17``, ``341－17``);
* the city written ``부산``, ``부산시``, ``부산광역시`` or not at all (any province or city of the country, in its
  long or short form: :data:`SIDO`);
* a postcode in front (``47291 …``, ``(47291) …``, ``[47291]``, ``우)47291``, the old ``612-020``);
* lot numbers as ``341``, ``341-17``, ``341번지``, ``341-17번지``, ``341번지 17호`` (the old way of writing the
  sub-number), ``산 12``, ``산12번지``; ``지하`` before a building number (underground);
* a legal dong with its ``가`` written apart (``중앙동 4가`` → ``중앙동4가``);
* everything after the number is **detail** that the address search should not be sent (location §4.1: "leave
  detailed addresses such as building names out of the query"): a unit or floor after a comma or a space
  (``, 1층``, ``101호``, ``101동 1001호``, ``지하1층``, ``B1``), a building name; and text in parentheses or
  brackets anywhere (``(가야동)``, ``(삼정타워)``) is a **note**, left out too;
* romanised addresses (``92, Gaya-daero, Busanjin-gu, Busan``): :func:`read` gives their parts in Latin letters
  (:attr:`Written.roman`); turning them into Korean names needs the city's names (the client's
  :func:`toolkit.geocodes.prepare` does it for Busan).

>>> w = read("(47291) 부산광역시 부산진구 전포동 341번지 17호, 2층")
>>> w.query, w.number, w.detail, w.postcode
('부산광역시 부산진구 전포동 341-17', ('N', '341', '17'), '2층', '47291')
>>> read("가야대로 ７８５, 101동 1001호 (가야동)").query
'가야대로 785'
>>> read("중구 중앙동 4가 35-2").words
('중구', '중앙동4가')
>>> r = read("92, Gaya-daero, Geumjeong-gu, Busan"); r.latin, r.roman["road"], r.roman["district"], r.number
(True, 'Gaya-daero', 'Geumjeong-gu', ('N', '92', ''))
"""
from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from typing import Callable

__all__ = ["SIDO", "SIDO_ROMAN", "Written", "read", "sido_of", "kind_of", "dong_stem", "normalise", "roman_key"]

SIDO: dict[str, tuple[str, ...]] = {
    "서울특별시": ("서울특별시", "서울시", "서울"),
    "부산광역시": ("부산광역시", "부산시", "부산"),
    "대구광역시": ("대구광역시", "대구시", "대구"),
    "인천광역시": ("인천광역시", "인천시", "인천"),
    "광주광역시": ("광주광역시", "광주시", "광주"),
    "대전광역시": ("대전광역시", "대전시", "대전"),
    "울산광역시": ("울산광역시", "울산시", "울산"),
    "세종특별자치시": ("세종특별자치시", "세종시", "세종"),
    "경기도": ("경기도", "경기"),
    "강원특별자치도": ("강원특별자치도", "강원도", "강원"),
    "충청북도": ("충청북도", "충북"),
    "충청남도": ("충청남도", "충남"),
    "전북특별자치도": ("전북특별자치도", "전라북도", "전북"),
    "전라남도": ("전라남도", "전남"),
    "경상북도": ("경상북도", "경북"),
    "경상남도": ("경상남도", "경남"),
    "제주특별자치도": ("제주특별자치도", "제주도", "제주"),
}
"""The 17 provinces and metropolitan cities, each with the ways it is written (long form first). ``광주`` is also a
city of 경기도 and ``광주시`` both; a reader that meets them takes the metropolitan city."""
_SIDO_OF = {alias: long for long, aliases in SIDO.items() for alias in aliases}
SIDO_ROMAN = {"busan": "부산광역시", "seoul": "서울특별시", "daegu": "대구광역시", "incheon": "인천광역시",
               "gwangju": "광주광역시", "daejeon": "대전광역시", "ulsan": "울산광역시", "sejong": "세종특별자치시",
               "gyeonggi": "경기도", "gyeonggido": "경기도", "gangwon": "강원특별자치도", "jeju": "제주특별자치도"}

_DASHES = dict.fromkeys(map(ord, "‐‑‒–—―−－﹣"), "-")
_HANGUL = re.compile(r"[가-힣]")
_LATIN = re.compile(r"[A-Za-z]")
_BRACKETS = re.compile(r"\(([^()]*)\)|\[([^\[\]]*)\]|「([^「」]*)」|<([^<>]*)>|\{([^{}]*)\}")
_POSTCODE = re.compile(r"^\s*(?:우편번호\s*:?|우\s*\)|우\.?|zip\s*:?)?\s*[(\[]?\s*(\d{5}|\d{3}-\d{3})\s*[)\]]?(?=[\s,]|$)",
                       re.I)
_PIECES = re.compile(r"\d+|[^\d]+")
_NUM = re.compile(r"^(산)?(\d+)(?:-(\d+))?$")
# what a digit run glued after a name continues it as (a road number of a 번길/가길, a 로 numbered, a dong's 가,
# an administrative dong's number): 중앙대로180번길, 가덕해안로2번가길, 가달1로, 중앙동4가, 대저1동
_NAME_GOES_ON = re.compile(r"^(?:번[가-하]?길|[가-하]?길|로|대로|가|동|번가|안길)")
_ROAD_END = ("로", "길")
TEXT_MAX = 400
"""Texts longer than this (after :func:`normalise`) are no address: :func:`read` gives their words as they are."""
_GLUED_MAX = 48                 # the longest run of names written without spaces that is split (a city, district,
                                # dong and road: 5 + 4 + 5 + 12 syllables and more; the split is quadratic in it)
_UNIT_WORD = re.compile(r"^(?:지하|지상|B|b|비)?\d*(?:층|호|호실|동|F|f)$|^[Bb]\d+(?:층|F|f)?$|^(?:지하|지상|상가|\d+)$")


def normalise(text: str) -> str:
    """NFKC (full-width digits, letters and punctuation become plain), one kind of dash, one space between words.

    >>> normalise("전포동　３４１－１７ ")
    '전포동 341-17'
    """
    text = unicodedata.normalize("NFKC", text).translate(_DASHES)
    return " ".join(text.split())


def sido_of(word: str) -> str | None:
    """The long name of the province or metropolitan city ``word`` writes (``부산`` → ``부산광역시``), else None."""
    return _SIDO_OF.get(word)


def kind_of(word: str) -> str | None:
    """What a name word is by its ending: ``"sido"``, ``"district"`` (구/군/시), ``"dong"`` (동/가/읍/면/리),
    ``"road"`` (로/길), else None.

    >>> [kind_of(w) for w in ("부산", "부산진구", "전포동", "중앙동4가", "가야대로", "수영로39번길", "삼정타워")]
    ['sido', 'district', 'dong', 'dong', 'road', 'road', None]
    """
    if word in _SIDO_OF:
        return "sido"
    if len(word) < 2 or not _HANGUL.search(word):
        return None
    if word.endswith(_ROAD_END):
        return "road"
    if word.endswith(("구", "군", "시")):
        return "district"
    if word.endswith(("동", "가", "읍", "면", "리")):
        return "dong"
    return None


def dong_stem(word: str) -> str:
    """The legal dong an administrative dong's name is made from (``전포제1동``, ``전포1동`` → ``전포동``); other
    names unchanged.

    >>> dong_stem("전포제1동"), dong_stem("우3동"), dong_stem("중앙동4가")
    ('전포동', '우동', '중앙동4가')
    """
    return re.sub(r"제?\d+동$", "동", word) if re.search(r"[가-힣]제?\d+동$", word) else word


@dataclass(frozen=True)
class Written:
    """An address as written, read into its parts. ``words``: the region, dong and road words kept, in order
    (the city as written; leftovers that are none of those, e.g. a building name before the number, stay too);
    ``number``: ``(mountain "Y"/"N", main, sub "" for none)`` or None; ``query``: what an address search should
    be sent (``words`` and the number; no detail). ``detail``: what came after the number (unit, floor, building);
    ``note``: text in parentheses; ``postcode``; ``latin``: written in Latin letters (``roman``: its parts, see
    :func:`read`)."""

    text: str
    words: tuple[str, ...] = ()
    number: tuple[str, str, str] | None = None
    underground: bool = False
    detail: str = ""
    note: str = ""
    postcode: str = ""
    latin: bool = False
    roman: dict = field(default_factory=dict)

    @property
    def number_text(self) -> str:
        """The number as an address writes it (``산12-3``, ``341-17``, ``지하 785``), "" for none."""
        if self.number is None:
            return ""
        mountain, main, sub = self.number
        text = ("산" if mountain == "Y" else "") + main + (f"-{sub}" if sub else "")
        return ("지하 " if self.underground else "") + text

    @property
    def detail_is_unit(self) -> bool:
        """Is the detail only a unit, floor or apartment number (``1층``, ``101동 1001호``, ``지하1층``, ``B1``) or
        nothing? (An exact search takes those; other words after the number are not understood.)"""
        return all(_UNIT_WORD.match(w) for w in self.detail.split())

    @property
    def query(self) -> str:
        return " ".join([*self.words, self.number_text] if self.number else self.words)

    def names(self, kind: str) -> list[str]:
        """The words of one kind (:func:`kind_of`), in order."""
        return [w for w in self.words if kind_of(w) == kind]

    @property
    def kind(self) -> str | None:
        """``"road"`` when the word before the number is a road name, ``"lot"`` when it is a dong (or the number is
        a mountain lot), else None."""
        if self.number is None or not self.words:
            return None
        if self.number[0] == "Y":
            return "lot"
        last = kind_of(self.words[-1])
        return {"road": "road", "dong": "lot"}.get(last) if last else None


# --------------------------------------------------------------------------- Hangul
def _segment(piece: str, known: Callable[[str], bool] | None) -> list[str]:
    """A name written without spaces split into known names (``부산진구전포동`` → ``부산진구``, ``전포동``): the
    split into the fewest known names, when there is one; else a leading city split off; else the piece whole."""
    if len(piece) > _GLUED_MAX:
        return [piece]                  # no name is this long: nothing to split (and a long text costs nothing)
    if known is not None and len(piece) > 2 and not known(piece):
        best: dict[int, list[str]] = {0: []}
        for i in range(len(piece)):
            if i not in best:
                continue
            for j in range(len(piece), i + 1, -1):
                part = piece[i:j]
                if (part in _SIDO_OF or known(part)) and (j not in best or len(best[i]) + 1 < len(best[j])):
                    best[j] = best[i] + [part]
        if len(piece) in best:
            return best[len(piece)]
    for alias in sorted(_SIDO_OF, key=len, reverse=True):
        if piece.startswith(alias) and len(piece) > len(alias) + 1 and len(alias) > 2:
            return [alias] + _segment(piece[len(alias):], known)
    # no known split: a district glued to what follows it (강남구테헤란로, 동래구온천동)
    m = re.match(r"^([가-힣]{1,4}?[구군시])([가-힣]{2,}[동리가로길읍면])$", piece)
    if m and (known is None or not known(piece)):
        return [m.group(1), *_segment(m.group(2), known)]
    return [piece]


def _tokens(text: str) -> list[str]:
    """Words and numbers: a digit run glued to a name is split from it unless it continues the name
    (``가야대로785`` → ``가야대로``, ``785``; ``중앙대로180번길12`` → ``중앙대로180번길``, ``12``; ``대저1동``);
    ``-`` joins the two numbers of ``N-M``; ``번지`` is a word of its own; a number glued to what follows it
    stays one word (``4가``, ``17호``, ``1층``, ``101동``, ``8부두로``)."""
    out: list[str] = []
    for chunk in re.split(r"[\s,;/]+", text):
        pieces = _PIECES.findall(chunk)
        word = ""
        i = 0
        while i < len(pieces):
            p = pieces[i]
            nxt = pieces[i + 1] if i + 1 < len(pieces) else ""
            if p.isdigit():
                goes_on = _NAME_GOES_ON.match(nxt)
                if word and _HANGUL.search(word[-1]) and goes_on and not nxt.startswith(("번지", "호", "층")):
                    word += p + goes_on.group(0)              # 중앙대로180번길, 가달1로, 대저1동
                    rest = nxt[goes_on.end():]
                    if rest:
                        pieces[i + 1] = rest
                        i += 1
                    else:
                        i += 2
                    continue
                if word and re.fullmatch(r"[A-Za-z]{1,2}", word):
                    word += p                                 # B1
                    i += 1
                    continue
                if word:
                    out.append(word)
                    word = ""
                if nxt.startswith("-") and nxt.strip() == "-" and i + 2 < len(pieces) and pieces[i + 2].isdigit():
                    p, i = p + "-" + pieces[i + 2], i + 2     # 341-17
                    nxt = pieces[i + 1] if i + 1 < len(pieces) else ""
                if nxt and not nxt[0].isspace() and not nxt.startswith(("번지", "-")) and (
                        _HANGUL.match(nxt) or re.match(r"[A-Za-z]", nxt)):
                    word = p + nxt                            # 4가, 17호, 1층, 101동, 8부두로, 1F
                    i += 2
                    continue
                out.append(p)
            elif p.strip("-") == "":
                if word:
                    out.append(word)
                    word = ""
                out.append("-")                               # a dash apart: 341 - 17
            else:
                if word:
                    if p.startswith(("층", "호")) and re.search(r"\d$", word):
                        word += p                             # 지하1층
                        i += 1
                        continue
                    out.append(word)
                word = p.lstrip("-")
            i += 1
        if word:
            out.append(word)
    # 산 glued to a dong (전포동산12)
    fixed: list[str] = []
    for t in out:
        if len(t) > 2 and t.endswith("산") and t[-2] in "동리가":
            fixed += [t[:-1], "산"]
        else:
            fixed.append(t)
    return fixed


def _join_numbers(tokens: list[str]) -> list[str]:
    """``341 - 17`` (spaces around the dash) and ``341-`` ``17`` back into ``341-17``."""
    out: list[str] = []
    for t in tokens:
        if len(out) > 1 and out[-1] == "-" and out[-2].isdigit() and t.isdigit():
            out[-2:] = [out[-2] + "-" + t]
        else:
            out.append(t)
    return [t for t in out if t != "-"]


def _city_roman(token: str) -> str | None:
    """The city a romanised word names (``Busan``, ``BUSAN-SI``, ``busan city``), in Korean, else None."""
    return SIDO_ROMAN.get(roman_key(re.sub(r"(?i)[\s-]*(si|city)$", "", token.strip(" ,"))))


def read(text, known: Callable[[str], bool] | None = None) -> Written:
    """The parts of an address as written (see the module docstring). ``known(word)``: is ``word`` a region,
    dong or road name (used to split words written without spaces; without it only a leading city is split).
    Non-text ``text`` reads as empty."""
    if not isinstance(text, str):
        return Written("")
    original = text
    text = normalise(text)
    if len(text) > TEXT_MAX:                   # no address is this long: its words as they are, read in linear time
        return Written(original, tuple(text.split()))
    notes: list[str] = []

    def note(m):
        notes.append(next(g for g in m.groups() if g is not None).strip())
        return " "

    text = _BRACKETS.sub(note, text)
    postcode = ""
    m = _POSTCODE.match(text)
    if m and (_HANGUL.search(text[m.end():]) or _LATIN.search(text[m.end():])):
        postcode, text = m.group(1), text[m.end():]
    elif notes and re.fullmatch(r"\d{5}|\d{3}-\d{3}", notes[0]):
        postcode = notes.pop(0)
    text = text.strip(" ,")
    if not _HANGUL.search(text) and _LATIN.search(text):
        return _read_roman(original, text, postcode, notes)
    tokens = _join_numbers(_tokens(text))
    words: list[str] = []
    number = None
    underground = False
    detail: list[str] = []
    i = 0
    while i < len(tokens):
        t = tokens[i]
        m = _NUM.match(t)
        if m and words and number is None:
            mountain = "Y" if m.group(1) else "N"
            if words and words[-1] == "산":
                words.pop()
                mountain = "Y"
            if words and words[-1] == "지하":
                words.pop()
                underground = True
            main, sub = m.group(2), m.group(3) or ""
            i += 1
            if i < len(tokens) and tokens[i] == "번지":
                i += 1
                ho = re.fullmatch(r"(\d{1,3})호", tokens[i]) if i < len(tokens) else None
                if not sub and ho:
                    sub, i = ho.group(1), i + 1       # 341번지 17호: the old way of writing 341-17
            number = (mountain, main, sub)
            detail = tokens[i:]
            break
        if (m and not words) or (_UNIT_WORD.match(t) and not _HANGUL.match(t) and not m):
            detail.append(t)                       # a number before any name, a unit before the number (B1)
            i += 1
            continue
        if re.fullmatch(r"\d+가", t) and words and kind_of(words[-1]) == "dong":
            words[-1] += t                         # 중앙동 4가
        elif t == "번지" and words and re.fullmatch(r"\d+", words[-1]):
            pass
        elif not words and not _HANGUL.search(t) and (city := _city_roman(t)):
            words.append(city)                     # Busan 가야대로 785: a romanised city beside Korean names
        else:
            words.extend(_segment(t, known) if _HANGUL.search(t) else [t])
        i += 1
    return Written(original, tuple(words), number, underground, " ".join(detail), "; ".join(n for n in notes if n),
                   postcode)


# --------------------------------------------------------------------------- romanised
_ROMAN_GENERIC = (("daero", "road"), ("ro", "road"), ("gil", "road"), ("dong", "dong"), ("ga", "dong"),
                  ("eup", "dong"), ("myeon", "dong"), ("ri", "dong"), ("gu", "district"), ("gun", "district"),
                  ("si", "city"))
_ROMAN_DROP = {"republic", "of", "korea", "south", "kr", "rok", "metropolitan", "city", "gwangyeoksi",
               "teukbyeolsi"}
_ROMAN_UNIT = re.compile(r"^(?:#?\d+(?:st|nd|rd|th)?(?:f|fl|floor)?|b\d+f?|floor|fl|room|rm|unit|apt|suite|ho|"
                         r"bldg|building|no\.?)$", re.I)


def roman_key(text: str) -> str:
    """A romanised name as letters and digits only, lower case (``Gaya-daero`` → ``gayadaero``): the form
    romanised names are compared in."""
    return re.sub(r"[^a-z0-9]", "", unicodedata.normalize("NFKD", text).lower())


def _roman_kind(name: str) -> str | None:
    key = roman_key(name)
    parts = re.split(r"[\s-]+", name.strip().lower())
    last = parts[-1] if parts else ""
    for generic, kind in _ROMAN_GENERIC:
        if last == generic or last.endswith("beon" + generic) or (len(parts) == 1 and key.endswith(generic)
                                                                  and len(key) > len(generic) + 2):
            return kind
    return None


def _read_roman(original: str, text: str, postcode: str, notes: list[str]) -> Written:
    """A romanised address: number(s), road, dong, district and city in any order, separated by commas or spaces
    (``92, Gaya-daero, Busanjin-gu, Busan 47291``; ``Gaya-daero 92``; ``341-17 Jeonpo-dong, Busanjin-gu``)."""
    parts: dict[str, str] = {}
    number = None
    detail: list[str] = []
    leftovers: list[str] = []
    last: list[str] = []                       # the kind of the name read last (a 39beon-gil or 4-ga goes on it)
    for group in re.split(r"[,;]", text):
        name: list[str] = []

        def flush(name: list[str] = name) -> None:
            if name:
                joined = " ".join(name)
                kind = _roman_kind(joined)
                if all(roman_key(n) in _ROMAN_DROP for n in name):
                    pass
                elif kind == "city" or roman_key(re.sub(r"(?i)[\s-]*(si|city)$", "", joined)) in SIDO_ROMAN:
                    parts.setdefault("city", joined)
                elif kind and kind not in parts:
                    parts[kind] = joined
                    last[:] = [kind]
                else:
                    leftovers.append(joined)
                name.clear()

        for tok in group.split():
            m = re.fullmatch(r"(?:san\s*)?(\d+)(?:-(\d+))?", tok, re.I)
            if re.fullmatch(r"\d+(?:beon)?-?[a-z]{0,2}-?gil|\d+-?ro|\d+-?ga", tok, re.I):
                if name:
                    name.append(tok)                   # Gadal 1-ro
                    flush()
                elif last and last[0] in parts:
                    parts[last[0]] += " " + tok         # Suyeong-ro 39beon-gil, Jungang-dong 4-ga
                else:
                    leftovers.append(tok)
            elif m and len(m.group(1)) == 5 and not m.group(2) and not postcode and (number or parts or name):
                flush()
                postcode = tok
            elif m and number is None:
                flush()
                number = ("N", m.group(1), m.group(2) or "")
            elif _ROMAN_UNIT.match(tok):
                flush()
                detail.append(tok)
            elif roman_key(tok) in _ROMAN_DROP:
                flush()
            elif roman_key(tok) in SIDO_ROMAN or re.fullmatch(r"(?i)[a-z]+-si", tok):
                flush()
                parts.setdefault("city", tok)
            else:
                name.append(tok)
                if _roman_kind(tok):
                    flush()
        flush()
    if leftovers:
        parts["other"] = ", ".join(leftovers)
    return Written(original, (), number, False, " ".join(detail), "; ".join(n for n in notes if n), postcode,
                   True, parts)
