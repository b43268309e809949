"""Read a learner's text for the facts it states, each bound to what it is about.

A write or explain exercise of the walkthroughs is judged by the facts its answer must state
(:func:`toolkit.lessons.check`). A fact is a *role*, and the text states it only when it binds the right value to
that role, in a sentence, without denying it:

* a **number** fact (``{"number": 99.72, "unit": "%", "cues": [...]}``): a figure of the text is bound to the fact
  whose cue words are nearest to it in its clause (one figure per fact and clause, so "11 users are linked and 7 share
  their e-mail" binds 11 and 7 each to its own role, and the same words with the figures swapped bind them wrong);
  decoys (``"decoy": true``: another product's availability, say) compete for the figures, so the overall figure
  given to one product is a figure for that product. Numbers are read in the forms people write: digits with
  thousands separators, words ("nine", "forty-two"), percent, fractions ("7 of the 8", "seven in eight", "7/8",
  0.875), units converted (m for km, seconds for minutes), and rounding stated ("about 17,000 won") or implied
  ("88%" for 87.5, at most to the fact's ``round``);
* an **entity** fact (``{"entity": "product", "is": ["local"], "cues": ["least available", ...]}``): the name
  nearest to an asserted cue is the one the text gives that role (names in Hangul, romanised, English district
  names); a cue bound to another name, or a contrary cue ("most available") bound to the right one, is a misplaced
  fact;
* a **claim** (``{"claims": [...], "contrary": [...]}``): a proposition stated and not denied ("an estimate, not
  observed traffic"); a denied claim ("not UTC") or an asserted contrary ("it is observed traffic") contradicts it.

Negation has a scope: a "not", "no", "never", "-n't", "without", "rather than" or "instead of" before a cue in its
clause (up to a comma, colon, dash, "but") denies it; Korean negation (않, 아니, 없, 못) follows its word. A cue
pattern written with a leading ``!`` carries a negation of its own ("!\\bno\\b.{0,40}\\b341\\b": no lot is 341 alone).
Only sentences count: a clause with no verb and no small word to tie its words together (a keyword salad) states
nothing, while a label and its value ("Linked users: 11") do.

The feedback names each fact that is missing, misplaced or contradicted by its role (``say``, ``ask``), never its
value.

>>> facts = [{"id": "linked", "say": "how many users are linked", "number": 11, "unit": "count", "cues": ["linked"]},
...          {"id": "email", "say": "how many share their e-mail", "number": 7, "unit": "count",
...           "cues": ["e-?mail", "share"]}]
>>> judge("11 users are linked and 7 of them share their e-mail.", facts)
[]
>>> judge("7 users are linked and 11 of them share their e-mail.", facts)       # doctest: +NORMALIZE_WHITESPACE
['how many users are linked: what the text gives for it is attached to another subject (re-check which is which).',
 'how many share their e-mail: what the text gives for it is attached to another subject (re-check which is which).']
>>> judge("Nine users are linked; seven share their e-mail.", facts)[0]
'how many users are linked: the figure the text gives it is not right yet (re-check it).'
"""
from __future__ import annotations

import math
import re
import unicodedata
from dataclasses import dataclass, field

__all__ = ["judge", "read", "romanise", "numbers_in"]

# ------------------------------------------------------------------------------------------------ words and names
_INITIALS = ["g", "kk", "n", "d", "tt", "r", "m", "b", "pp", "s", "ss", "", "j", "jj", "ch", "k", "t", "p", "h"]
_VOWELS = ["a", "ae", "ya", "yae", "eo", "e", "yeo", "ye", "o", "wa", "wae", "oe", "yo", "u", "wo", "we", "wi", "yu",
           "eu", "ui", "i"]
# a final consonant as it sounds at the end of a syllable, and as it moves onto a following ㅇ (liaison)
_FINALS = ["", "k", "k", "k", "n", "n", "n", "t", "l", "k", "m", "l", "l", "l", "p", "l", "m", "p", "p", "t", "t",
           "ng", "t", "t", "k", "t", "p", "t"]
_LIAISON = ["", "g", "kk", "ks", "n", "nj", "nh", "d", "r", "lg", "lm", "lb", "ls", "lt", "lp", "lh", "m", "b", "bs",
            "s", "ss", "ng", "j", "ch", "k", "t", "p", "h"]


def romanise(hangul: str) -> str:
    """``hangul`` in the Revised Romanization of Korean (lower case, no hyphens), with the sound changes that
    official names show: a final consonant carried onto a following ㅇ, ㄹ read as n after ㅇ or ㅁ (동래 →
    dongnae), ㄴ and ㄹ together as ll, a stop before ㄴ or ㅁ nasalised. Other characters pass through.

    >>> [romanise(w) for w in ("민지", "부산진구", "기장군", "동래구", "해운대")]
    ['minji', 'busanjingu', 'gijanggun', 'dongnaegu', 'haeundae']
    """
    sylls: list[tuple[int, int, int] | str] = []
    for ch in hangul:
        code = ord(ch) - 0xAC00
        sylls.append((code // 588, (code % 588) // 28, code % 28) if 0 <= code < 11172 else ch)
    out = []
    for i, syl in enumerate(sylls):
        if isinstance(syl, str):
            out.append(syl)
            continue
        ini, vow, fin = syl
        before, after = (sylls[i - 1] if i else ""), (sylls[i + 1] if i + 1 < len(sylls) else "")
        prev = None if isinstance(before, str) else before
        nxt = None if isinstance(after, str) else after
        head = _INITIALS[ini]
        if prev is not None:
            pfin = prev[2]
            if ini == 11 and pfin not in (0, 21):                       # liaison: the final moved here
                head = _LIAISON[pfin]
            elif ini == 5 and pfin in (21, 16, 1, 17):                  # ㄹ after ㅇ ㅁ ㄱ ㅂ reads n
                head = "n"
            elif ini == 5 and pfin in (4, 8):                           # ㄴㄹ, ㄹㄹ: ll
                head = "l"
        tail = _FINALS[fin]
        if nxt is not None and fin:
            nini = nxt[0]
            if nini == 11 and fin != 21:
                tail = ""                                               # carried onto the next syllable
            elif nini == 5 and fin == 4:
                tail = "l"
            elif nini in (2, 6) or (nini == 5 and fin in (1, 17)):      # a stop before ㄴ ㅁ (or ㄹ) is nasal
                tail = {"k": "ng", "t": "n", "p": "m"}.get(tail, tail)
        out.append(head + _VOWELS[vow] + tail)
    return "".join(out)


_HANGUL = re.compile(r"[\uac00-\ud7a3]")
_SUFFIXES = {"구": "gu", "군": "gun", "시": "si", "동": "dong"}


def _aliases(names: list[str], kind: str | None = None) -> list[str]:
    """Every written form of a name: as given, romanised when in Hangul (with and without an administrative suffix
    for a district: 부산진구 → busanjingu, busanjin), each folded (lower case, no hyphens or spaces)."""
    out = set()
    for name in names:
        name = str(name)
        out.add(" ".join(_key(w) for w in name.split()))
        if _HANGUL.search(name):
            out.add(romanise(name))
            if kind == "district" and name[-1] in _SUFFIXES and len(name) > 2:
                out.add(romanise(name[:-1]))
                out.add(name[:-1])
    return sorted(a for a in out if a)


def _key(word: str) -> str:
    """A word folded for comparing names: NFKC, lower case, without hyphens, apostrophes, spaces or a trailing 's."""
    word = unicodedata.normalize("NFKC", word).casefold()
    word = re.sub(r"['’]s$", "", word)
    return re.sub(r"[\s\-‐'’.]", "", word)


# ------------------------------------------------------------------------------------------------ numbers
_SMALL = {w: i for i, w in enumerate("zero one two three four five six seven eight nine ten eleven twelve thirteen "
                                     "fourteen fifteen sixteen seventeen eighteen nineteen".split())}
_TENS = {"twenty": 20, "thirty": 30, "forty": 40, "fifty": 50, "sixty": 60, "seventy": 70, "eighty": 80,
         "ninety": 90}
_SCALES = {"hundred": 100, "thousand": 1000, "million": 1_000_000}
_WORDS_RE = re.compile(rf"\b(?:(?:{'|'.join(_TENS)})(?:[-\s](?:{'|'.join(_SMALL)}))?|{'|'.join(_SMALL)})"
                       rf"(?:[-\s]+(?:hundred|thousand|million|point|and|{'|'.join(_TENS)}|{'|'.join(_SMALL)})\b)*\b")
_DETERMINER_ONE = re.compile(r"\b(no|any|some|every|each|the|this|that|which|someone|anyone|a)\s+$")

_MASKS = [
    re.compile(r"\b\d{4}-\d{1,2}-\d{1,2}(?:[ t]\d{1,2}:\d{2}(?::\d{2})?)?\b"),        # dates (and times)
    re.compile(r"\b\d{1,2}:\d{2}(?::\d{2})?\b"),                                      # times
    re.compile(r"\b\d{1,2}(?:st|nd|rd|th)?\s+(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?"
               r"(?:\s+\d{4})?\b"),                                                   # 20 November (2026)
    re.compile(r"\b(?:jan|feb|mar|apr|may|jun|jul|aug|sep|sept|oct|nov|dec)[a-z]*\.?\s+\d{1,2}(?:st|nd|rd|th)?"
               r"(?:,?\s+\d{4})?\b"),                                                 # November 20
    re.compile(r"\b(?:19|20)\d{2}\b(?!\s*(?:%|km|won|krw|원|명|users?|customers?|people|minutes?))"),  # a year
    re.compile(r"\d+월\s*\d+일|\d+시(?:\s*\d+분)?(?=\s|$|[^\d])"),                     # 11월 20일, 18시
    re.compile(r"[a-z_]+\d+[a-z_\d]*|\d+[a-z_]*_[a-z_\d]+"),                           # codes: KOE320, h3_4
    re.compile(r"\b\d+(?:-\d+)+\b"),                                                  # lot numbers: 341-17
    re.compile(r"(?<![\d,.])\d{7,}(?![\d,.])"),                                       # ids: 4100000001
]
_DIGITS = re.compile(r"(?<![\w.,])(?:\d{1,3}(?:,\d{3})+|\d{1,3}(?:[ \u202f\u00a0]\d{3})+(?![\d,.])|\d+)(?:\.\d+)?"
                     r"(?:\s*(?:만|천)(?:\s*\d+\s*(?:천))?)?(?![\d])")
_UNITS = [
    ("%", r"%|\s*(?:per\s?cent|pct|퍼센트|프로)\b"),
    ("km", r"\s*(?:km|kilomet(?:re|er)s?|킬로미터|킬로)(?![a-z])"),
    ("m", r"\s*(?:m|met(?:re|er)s?|미터)(?![a-z])"),
    ("min", r"\s*(?:min(?:ute)?s?|분)(?![a-z])"),
    ("s", r"\s*(?:s|secs?|seconds?|초)(?![a-z])"),
    ("h", r"\s*(?:h|hrs?|hours?|시간)(?![a-z])"),
    ("KRW", r"\s*(?:krw|won|원|₩)(?![a-z])"),
    ("day", r"\s*(?:days?|일)(?![a-z])"),
    ("count", r"\s*(?:\w+\s+)?(?:users?|people|persons?|customers?|accounts?|members?|명|개|사람)(?![a-z])"),
    ("k", r"k(?![a-z])"),
]
_UNIT_RES = [(unit, re.compile(pattern)) for unit, pattern in _UNITS]
_PRE_UNIT = re.compile(r"(?:₩|krw)\s*$")
_HEDGE = re.compile(r"(?:\b(?:about|around|roughly|approximately|approx\.?|nearly|almost|some|close to|circa|ca\.|"
                    r"more or less|give or take|just (?:over|under)|a little (?:over|under)|~)|~|약|대략)\s*(?:₩|krw)?\s*$")
_BOUND_BELOW = re.compile(r"\b(?:under|below|less than|fewer than|lower than|not even)\s*$")
_BOUND_ABOVE = re.compile(r"\b(?:over|above|more than|upwards of|higher than)\s*$")


@dataclass
class Number:
    """A figure of a text as :func:`numbers_in` reads it: its value, where it stands, its unit and how it is stated."""

    value: float
    start: int
    end: int
    unit: str | None
    grain: float                 # the step the figure is stated to (99.7 → 0.1; 17,000 → 1,000 when hedged)
    hedge: str | None = None     # "about", "below", "above"
    ratio: bool = False          # X of Y, X/Y, X in Y: a share, in percent
    whole: bool = False          # the Y of "X of Y"
    part: bool = False           # the X of "X of Y"


def _grain(token: str, hedged: bool) -> float:
    token = token.replace(",", "").replace(" ", "").replace("\u202f", "").replace("\u00a0", "")
    if "." in token:
        return 10.0 ** -len(token.split(".")[1])
    if not hedged:
        return 1.0
    digits = token.lstrip("-+")
    zeros = len(digits) - len(digits.rstrip("0")) if digits.strip("0") else 0
    return 10.0 ** zeros


def _korean_amount(token: str) -> float:
    """68만 7천 → 687000; 17,000 → 17000."""
    token = token.replace(",", "").replace(" ", "").replace("\u202f", "").replace("\u00a0", "")
    total, number = 0.0, ""
    for ch in token:
        if ch.isdigit() or ch == ".":
            number += ch
        elif ch == "만":
            total += float(number or 1) * 10_000
            number = ""
        elif ch == "천":
            total += float(number or 1) * 1_000
            number = ""
    return total + (float(number) if number else 0.0)


def _words_value(phrase: str) -> float | None:
    parts = [p for p in re.split(r"[-\s]+", phrase.strip()) if p and p != "and"]
    if "point" in parts:
        i = parts.index("point")
        whole, decimals = parts[:i], parts[i + 1:]
        if not decimals or any(d not in _SMALL or _SMALL[d] > 9 for d in decimals):
            return None
        head = _words_value(" ".join(whole)) if whole else 0.0
        if head is None:
            return None
        return head + float("0." + "".join(str(_SMALL[d]) for d in decimals))
    total, current = 0, 0
    for p in parts:
        if p in _SMALL:
            current += _SMALL[p]
        elif p in _TENS:
            current += _TENS[p]
        elif p == "hundred":
            current = (current or 1) * 100
        elif p in ("thousand", "million"):
            total += (current or 1) * _SCALES[p]
            current = 0
        else:
            return None
    return float(total + current)


def _masked(text: str) -> str:
    """``text`` with dates, times, codes, lot numbers and ids blanked (same length), so no figure is read in them."""
    for mask in _MASKS:
        text = mask.sub(lambda m: " " * len(m.group()), text)
    return text


def numbers_in(text: str) -> list[Number]:
    """The figures of ``text`` (casefolded, NFKC) as people write them: digits (with separators), number words,
    units after them (or ₩/KRW before), a hedge before ("about", "under"), and shares ("7 of the 8", "7/8",
    "seven in eight") as extra figures in percent.

    >>> [(n.value, n.unit) for n in numbers_in("about 17,000 won for 18.0 km, forty-two minutes")]
    [(17000.0, 'KRW'), (18.0, 'km'), (42.0, 'min')]
    >>> [round(n.value, 1) for n in numbers_in("seven of the eight users asked") if n.ratio]
    [87.5]
    """
    plain = _masked(text)
    found: list[Number] = []
    spans = []
    for m in _DIGITS.finditer(plain):
        token = m.group()
        value = _korean_amount(token) if ("만" in token or "천" in token) else float(
            token.replace(",", "").replace(" ", "").replace("\u202f", "").replace("\u00a0", ""))
        spans.append((m.start(), m.end(), value, token, False))
    for m in _WORDS_RE.finditer(plain):
        phrase = m.group().strip()
        phrase = re.sub(r"(?:[-\s]+(?:and|point|a))+$", "", phrase)
        if not phrase or phrase in ("a", "and", "point"):
            continue
        if phrase == "one" and _DETERMINER_ONE.search(plain[:m.start()]):
            continue                                            # "no one", "the one to watch"
        if phrase == "one" and re.match(r"\s+(?:of|another|by|after|or)\b", plain[m.start() + len(phrase):]):
            continue
        spoken = _words_value(phrase)
        if spoken is not None:
            spans.append((m.start(), m.start() + len(phrase), spoken, phrase, True))
    spans.sort()
    for start, end, value, token, word in spans:
        before = plain[max(0, start - 24):start]
        hedge = "about" if _HEDGE.search(before) else "below" if _BOUND_BELOW.search(before) else \
            "above" if _BOUND_ABOVE.search(before) else None
        rest = plain[end:end + 24]
        unit = None
        for name, pattern in _UNIT_RES:
            um = pattern.match(rest)
            if um:
                unit = name
                end2 = end + um.end()
                break
        else:
            end2 = end
        if unit == "k":
            value, unit = value * 1000, None
            rest2 = plain[end2:end2 + 12]
            for name, pattern in _UNIT_RES:
                um = pattern.match(rest2)
                if um and name == "KRW":
                    unit, end2 = name, end2 + um.end()
                    break
        if unit is None and _PRE_UNIT.search(plain[max(0, start - 6):start]):
            unit = "KRW"
        grain = 1.0 if word else _grain(token, hedge is not None)
        if token.strip().endswith(("만", "천")) or "만" in token or "천" in token:
            grain = 1000.0 if hedge else 1.0
        found.append(Number(value, start, end2, unit, grain, hedge))
    found.sort(key=lambda n: n.start)
    # shares: X of (the|those|...)? Y, X out of Y, X in Y, X/Y
    joins = re.compile(r"\s*(?:(?:out\s+)?of(?:\s+(?:the|those|these|them|our|all|its|their))*|in|/|:)\s*$")
    for a, b in zip(found, found[1:]):
        between = plain[a.end:b.start]
        if a.unit in (None, "count") and b.unit in (None, "count") and b.value and \
                joins.match(between) and (len(between) < 25) and a.value <= b.value:
            a.part, b.whole = True, True
            found.append(Number(100 * a.value / b.value, a.start, b.end, "%", 1e-9, None, ratio=True))
    korean = re.compile(r"(\d+)\s*명?\s*중\s*(\d+)\s*명?")
    for m in korean.finditer(plain):
        whole, part = float(m.group(1)), float(m.group(2))
        if whole and part <= whole:
            found.append(Number(100 * part / whole, m.start(), m.end(), "%", 1e-9, None, ratio=True))
    found.sort(key=lambda n: (n.start, n.ratio))
    return found


# ------------------------------------------------------------------------------------------------ clauses
_SENTENCE = re.compile(r"(?<=[.!?。])\s+|\n+|(?<=다\.)|;")
_CLAUSE = re.compile(r",\s+(?=(?:and|but|while|whereas|so|although|though|yet|whereas)\b)|\s+(?=(?:while|whereas|"
                     r"but|however|although|though|because|since|even though|despite)\b)|\s+[—–]\s+|—")
_CONCESSIVE = re.compile(r"^\W*(?:although|though|even though|despite|even if)\b")
_SCOPE_END = re.compile(r"[,:;()—–]|\b(?:but|however|while|whereas|yet|though|although|so|then|because|since|as|"
                        r"which|who|whom|whose|when|where|unless|and)\b")
_NEGATOR = re.compile(r"\b(?:not|no|never|none|nobody|nothing|neither|nor|without|cannot|rather than|instead of|"
                      r"far from)\b|n['’]t\b")
_KO_NEGATOR = re.compile(r"않|아니|없|못|안\s")
_HYPOTHETICAL = re.compile(r"\b(?:would|could|might|if|whether|suppose|imagine)\b|면\b|라면")
_FUNCTION = re.compile(r"\b(?:the|a|an|of|to|in|on|at|by|for|with|from|and|or|that|this|these|those|their|its|our|"
                       r"his|her|they|we|it|who|which|there|than|as|per|each|only|all|so|because|since|but|out|"
                       r"whom|whose|what|them|us|you|your|i|my|she|he)\b")
_PREDICATE = re.compile(
    r"\b(?:is|are|was|were|be|been|being|am|has|have|had|do|does|did|will|would|can|could|may|might|must|shall|"
    r"should|'s|'re|'ve|'ll|isn't|aren't|wasn't|weren't|doesn't|don't|didn't|hasn't|haven't|hadn't|won't|can't|"
    r"cost|costs|take|takes|took|spent|spend|spends|share|shares|agree|agrees|live|lives|hold|holds|keep|keeps|kept|"
    r"store|stores|stored|leave|leaves|left|went|go|goes|come|comes|came|mean|means|say|says|said|show|shows|"
    r"showed|stand|stands|stood|lead|leads|led|reach|reached|reaches|run|runs|ran|get|gets|got|make|makes|made|"
    r"need|needs|want|wants|let|lets|match|matches|find|finds|found|return|returns|look|looks|treat|treats|"
    r"count|counts|drop|drops|use|uses|work|works|withdrew|withdraw|withdraws|revoke|revokes|exist|exists|"
    r"refuse|refuses|refused|decline|declines|reflect|reflects|expect|covers|cover|miss|misses|lie|lies|sit|sits|"
    r"charge|charges|add|adds|put|puts|give|gives|gave|seem|seems|stay|stays|remain|remains|belong|belongs|"
    r"contain|contains|include|includes|rely|note|trust|lets|tell|tells|told|list|lists|draw|draws|drew|call)\b|"
    r"\b\w{3,}ed\b|:\s*\S")
_KO_PREDICATE = re.compile(r"[\uac00-\ud7a3](?:다|요|음|함|임|됨|니다|며|고|서|지만|는데|라)(?=[\s.,]|$)|"
                           r"[\uac00-\ud7a3](?:은|는|이|가|을|를|에|의|로|으로|와|과|도|만)(?=\s)")


@dataclass
class Clause:
    """A clause of a text (:func:`read`): where it stands, and whether it is prose, hypothetical, Korean, concessive."""

    start: int
    end: int
    text: str
    prose: bool
    hypothetical: bool
    korean: bool
    concessive: bool = False


@dataclass
class Reading:
    """A text as :func:`read` reads it: the text (NFKC, casefolded), its clauses, its figures and its words."""

    text: str                                   # NFKC, casefolded
    clauses: list[Clause]
    numbers: list[Number]
    words: list[tuple[int, int, str]] = field(default_factory=list)   # (start, end, key)

    def clause_of(self, pos: int) -> Clause | None:
        for clause in self.clauses:
            if clause.start <= pos < clause.end:
                return clause
        return None

    def word_index(self, pos: int) -> int:
        lo, hi = 0, len(self.words)
        while lo < hi:
            mid = (lo + hi) // 2
            if self.words[mid][1] <= pos:
                lo = mid + 1
            else:
                hi = mid
        return lo


def _split(text: str) -> list[tuple[int, int]]:
    spans, start = [], 0
    for m in _SENTENCE.finditer(text):
        if m.end() > start:
            spans.append((start, m.start() if m.start() > start else m.end()))
            start = m.end()
    spans.append((start, len(text)))
    out = []
    for s, e in spans:
        cut = s
        for m in _CLAUSE.finditer(text, s, e):
            if m.start() > cut:
                out.append((cut, m.start()))
            cut = m.end()
        out.append((cut, e))
    return [(s, e) for s, e in out if text[s:e].strip()]


_LATIN = r"[0-9a-z_\u00c0-\u024f]"
_TOKEN = re.compile(rf"{_LATIN}+(?:[-'’]{_LATIN}+)*|[\uac00-\ud7a3]+|[^\w\s]")
"""Words: Latin (with inner hyphens and apostrophes: e-mail, Busanjin-gu, Minji's), Hangul runs, punctuation."""


def read(text: str) -> Reading:
    """``text`` read into clauses (whether each is prose, hypothetical, Korean), its figures and its words."""
    text = unicodedata.normalize("NFKC", text).casefold()
    text = text.replace("’", "'").replace("‘", "'").replace("“", '"').replace("”", '"')
    clauses = []
    for s, e in _split(text):
        part = text[s:e]
        korean = len(_HANGUL.findall(part)) > len(re.findall(r"[a-z]", part)) / 2
        label = bool(re.search(r"[\w)%]\s*:\s*\S", part))
        prose = label or bool(_KO_PREDICATE.search(part)) or bool(_PREDICATE.search(part)) or (
            len(part.split()) >= 3 and bool(_FUNCTION.search(part)))
        clauses.append(Clause(s, e, part, prose, bool(_HYPOTHETICAL.search(part)), korean,
                              bool(_CONCESSIVE.search(part))))
    words = [(m.start(), m.end(), _key(m.group())) for m in _TOKEN.finditer(text)]
    return Reading(text, clauses, numbers_in(text), words)


# ------------------------------------------------------------------------------------------------ cues
@dataclass
class Hit:
    start: int
    end: int
    negated: bool
    clause: Clause


def _negations(text: str) -> int:
    return len(_NEGATOR.findall(text))


_AUX = re.compile(r"(?:be|been|being|is|are|was|were|am|have|has|had|do|does|did|ever|yet|even|really|actually|"
                  r"just|quite|at|all|a|an|the|to|been|always|necessarily|exactly|only|simply|so|very|much|too)$")


def _applies(reading: Reading, neg_end: int, cue_start: int) -> bool:
    """Whether a negator ending at ``neg_end`` still bears on a cue at ``cue_start``: it denies the first word group
    after it (past auxiliaries), and a later verb begins what it no longer covers ("the customers the map could not
    place spent 1.8%": "spent" is not denied)."""
    between = [m.group() for m in _TOKEN.finditer(reading.text, neg_end, cue_start)]
    i = 0
    while i < len(between) and _AUX.match(between[i]):
        i += 1
    if any(_PREDICATE.fullmatch(w) for w in between[i + 1:]):
        return False
    first = _TOKEN.search(reading.text, cue_start)
    cue_is_verb = bool(first and first.start() == cue_start and _PREDICATE.fullmatch(first.group()))
    return i == len(between) or not cue_is_verb      # a verb after the denied word group is not denied


def _is_negated(reading: Reading, clause: Clause, start: int, end: int, own: int) -> bool:
    """Whether the words at [start, end) of ``clause`` are denied: negators before them in their scope (back to a
    comma, colon, dash or a conjunction, and up to the next verb after the word group they deny), and inside them
    beyond the ``own`` negations the cue pattern carries; in Korean, a negator after them in the clause."""
    before = reading.text[clause.start:start]
    cut = 0
    for m in _SCOPE_END.finditer(before):
        cut = m.end()
    count = sum(1 for m in _NEGATOR.finditer(reading.text, clause.start + cut, start)
                if _applies(reading, m.end(), start))
    span = reading.text[start:end]
    count += max(0, _negations(span) + len(_KO_NEGATOR.findall(span)) - own)
    if clause.korean or _HANGUL.search(span):
        after = reading.text[end:clause.end]
        stop = re.search(r"[,.;]|지만|는데|고\s", after)
        after = after[:stop.start()] if stop else after
        count += len(_KO_NEGATOR.findall(after[:12]))
    return count % 2 == 1


def _pattern(cue: str) -> tuple[re.Pattern, int]:
    own = 0
    while cue.startswith("!"):
        own, cue = own + 1, cue[1:]
    return re.compile(cue), own


def hits(reading: Reading, cues: list[str], *, prose_only: bool = True) -> list[Hit]:
    """Where any of ``cues`` (regular expressions on the casefolded text; a leading ``!`` per negation the cue
    carries itself) occurs, in prose clauses, and whether it is denied there."""
    out = []
    for cue in cues or []:
        rx, own = _pattern(cue)
        for clause in reading.clauses:
            if prose_only and not clause.prose:
                continue
            for m in rx.finditer(reading.text, clause.start, clause.end):
                if m.end() == m.start():
                    continue
                out.append(Hit(m.start(), m.end(), _is_negated(reading, clause, m.start(), m.end(), own), clause))
    return out


@dataclass
class Name:
    id: str
    start: int
    end: int
    clause: Clause


def names(reading: Reading, lexicon: dict[str, list[str]], kind: str | None = None) -> list[Name]:
    """Where the names of ``lexicon`` (id → written forms) occur: Hangul forms anywhere (a particle may follow),
    other forms as whole words (folded: hyphens, case and a trailing 's do not count)."""
    out = []
    keys = [w[2] for w in reading.words]
    for ident, forms in lexicon.items():
        for form in _aliases(forms, kind):
            if _HANGUL.search(form):
                for m in re.finditer(re.escape(form), reading.text):
                    clause = reading.clause_of(m.start())
                    if clause is not None:
                        out.append(Name(ident, m.start(), m.end(), clause))
                continue
            parts = form.split(" ")
            n = len(parts)
            for i in range(len(keys) - n + 1):
                if keys[i:i + n] == parts or (n == 1 and _joined(keys, i) == form):
                    start, end = reading.words[i][0], reading.words[i + n - 1][1]
                    clause = reading.clause_of(start)
                    if clause is not None:
                        out.append(Name(ident, start, end, clause))
    out.sort(key=lambda n: n.start)
    return out


def _joined(keys: list[str], i: int) -> str:
    """Two words written apart that are one name (Busanjin gu, Min ji)."""
    return keys[i] + keys[i + 1] if i + 1 < len(keys) else ""


# ------------------------------------------------------------------------------------------------ judging
_COMPATIBLE = {
    "%": {None, "%"},
    "km": {None, "km", "m"},
    "min": {None, "min", "s", "h"},
    "KRW": {None, "KRW"},
    "count": {None, "count"},
}
_CONVERT: dict[tuple[str, str | None], float] = {("km", "m"): 0.001, ("min", "s"): 1 / 60, ("min", "h"): 60.0}


def _value_in(number: Number, unit: str) -> float:
    value = number.value * _CONVERT.get((unit, number.unit), 1.0)
    if unit == "%" and number.unit is None and 0 < number.value < 1 and not number.ratio:
        value = number.value * 100                    # 0.875 as a share
    return value


def _matches(number: Number, fact: dict) -> bool:
    """Whether ``number`` states the fact's value: within ``tol``, or rounded correctly to a step the reader accepts
    (``round`` without a hedge, ``about`` with one), or a bound ("under 2%") that holds within that step."""
    unit = fact.get("unit", "count")
    value, want = _value_in(number, unit), float(fact["number"])
    tol = float(fact.get("tol", 0)) + 1e-9 * max(1.0, abs(want))
    grain = number.grain * _CONVERT.get((unit, number.unit), 1.0)
    if number.unit is None and unit == "%" and 0 < number.value < 1 and not number.ratio:
        grain *= 100
    allowed = float(fact.get("about" if number.hedge else "round", 0) or 0)
    if number.hedge == "below":
        return want < value and value - want <= max(allowed, tol)
    if number.hedge == "above":
        return want > value and want - value <= max(allowed, tol)
    if abs(value - want) <= tol:
        return True
    return grain <= allowed + 1e-12 and abs(value - want) <= grain / 2 + tol


def _dist(reading: Reading, a: int, b: int) -> int:
    return abs(reading.word_index(a) - reading.word_index(b))


def _reserved(reading: Reading, number: Number) -> tuple[int, int] | None:
    """The noun group right after the whole of a share ("of the 11 linked users"): its cue words are the whole's."""
    if not number.whole:
        return None
    m = re.match(r"[\s\w\-]{0,30}?(?=\s+(?:share|agree|have|has|let|are|were|is|was|do|did|who|that|which|said|"
                 r"gave|keep|use|live)\b|[,.;:]|$)", reading.text[number.end:])
    return (number.start, number.end + (m.end() if m else 0))


def _bind_numbers(reading: Reading, facts: list[dict], lexicons: dict) -> dict[int, list[tuple[Number, bool]]]:
    """Figures bound to number facts, clause by clause: nearest cue first, one figure per fact and clause (the part
    of a share before its whole). Returns fact index → [(figure, binding denied)]."""
    bound: dict[int, list[tuple[Number, bool]]] = {}
    cue_hits = {}
    facts = list(facts) + [{"id": f"against:{f.get('id')}", "decoy": True, "number": math.nan,
                            "unit": f.get("unit", "count"), "cues": f["against"]}
                           for f in facts if "number" in f and f.get("against")]
    for i, fact in enumerate(facts):
        if "number" not in fact:
            continue
        found = hits(reading, fact.get("cues", []))
        if fact.get("names"):
            found += [Hit(n.start, n.end, _is_negated(reading, n.clause, n.start, n.end, 0), n.clause)
                      for n in names(reading, {fact["id"]: fact["names"]}, fact.get("kind"))]
        cue_hits[i] = found
    for clause in reading.clauses:
        figures = [n for n in reading.numbers if clause.start <= n.start < clause.end]
        if not clause.prose:              # a terse list ("18.0 km, 42 min"): only figures with their own unit
            figures = [n for n in figures if n.unit not in (None, "count") and not n.ratio]
        pairs = []
        units_of: dict = {}
        for j, number in enumerate(figures):
            for i, fact in enumerate(facts):
                if "number" not in fact or number.unit not in _COMPATIBLE.get(fact.get("unit", "count"), {None}):
                    continue
                if number.ratio and fact.get("unit") != "%":
                    continue
                units_of.setdefault(j, []).append(i)
                reserved = None
                for other in figures:
                    if other.whole and other.start > number.start and number.part:
                        reserved = _reserved(reading, other)
                near = [h for h in cue_hits.get(i, []) if h.clause is clause and not (
                    reserved and reserved[0] <= h.start < reserved[1])]
                if not near:
                    continue
                hit = min(near, key=lambda h: (_dist(reading, h.start, number.start), h.start < number.start))
                d = _dist(reading, hit.start, number.start) + (6 if number.whole else 0) + (
                    0 if number.unit else 4)            # a figure with the fact's unit first
                pairs.append((d, j, i, hit.negated))
        for j, number in enumerate(figures):          # a figure with its unit and no cue near: its unit's fact
            same = [i for i in units_of.get(j, []) if facts[i].get("unit") == number.unit]
            if number.unit not in (None, "count") and len(same) == 1 and not facts[same[0]].get("decoy") and \
                    not any(p[1] == j for p in pairs):
                pairs.append((50, j, same[0], False))
        pairs.sort()
        taken_fig, taken_fact = set(), set()
        for _, j, i, denied in pairs:
            if j in taken_fig or i in taken_fact:
                continue
            taken_fig.add(j)
            taken_fact.add(i)
            bound.setdefault(i, []).append((figures[j], denied))
    return bound


def _number_verdicts(reading, facts, lexicons) -> dict[int, str]:
    bound = _bind_numbers(reading, facts, lexicons)
    facts = list(facts) + [{"id": f"against:{f.get('id')}", "decoy": True, "number": math.nan,
                            "unit": f.get("unit", "count")} for f in facts if "number" in f and f.get("against")]
    out = {}
    for i, fact in enumerate(facts):
        if "number" not in fact or fact.get("decoy"):
            continue
        state = "missing"
        for number, denied in bound.get(i, []):
            clause = reading.clause_of(number.start)
            if _matches(number, fact):
                need = fact.get("need")
                if denied:
                    state = "contradicted" if state == "missing" else state
                elif need and not [h for h in hits(reading, need) if h.clause is clause and not h.negated]:
                    state = "misplaced" if state != "ok" else state
                elif [h for h in hits(reading, fact.get("deny", [])) if h.clause is clause and not h.negated] and \
                        not [h for h in hits(reading, fact.get("deny_unless", [])) if h.clause is clause]:
                    state = "misplaced" if state != "ok" else state
                else:
                    state = "ok"
            elif state == "missing" and _coarse(number, fact):
                state = "coarse"
            elif state == "missing":
                state = "wrong"
        if state in ("missing", "wrong"):
            for j, other in enumerate(facts):         # its figure bound to another role (a decoy or another fact)
                if j != i and "number" in other and any(_matches(n, fact) and not _matches(n, other)
                                                        for n, _ in bound.get(j, [])):
                    state = "misplaced"
        if [h for h in hits(reading, fact.get("contrary", [])) if not h.negated and not h.clause.hypothetical]:
            state = "misplaced" if state == "ok" else state
        out[i] = state
    return out


def _coarse(number: Number, fact: dict) -> bool:
    """A figure rounded right but further than the reader accepts (about 20 km for 18.03)."""
    unit = fact.get("unit", "count")
    value, want = _value_in(number, unit), float(fact["number"])
    grain = _grain(f"{number.value:g}", True) * _CONVERT.get((unit, number.unit), 1.0)
    return abs(value - want) <= grain / 2 and not _matches(number, fact) and grain > float(fact.get("about", 0) or 0)


def _entity_verdict(reading, fact, lexicons) -> str:
    lexicon = lexicons.get(fact["entity"], {})
    found = names(reading, lexicon, fact["entity"])
    right = {str(x) for x in fact.get("is") or []}
    state = "missing"
    wrong = False
    for kind, cues in (("cue", fact.get("cues", [])), ("contrary", fact.get("contrary", []))):
        for hit in hits(reading, cues):
            near = [n for n in found if n.clause is hit.clause and not (n.start >= hit.start and n.end <= hit.end)]
            if not near:
                continue
            # the subject before the cue in its clause (English puts it first), else the nearest after it
            name = min(near, key=lambda n: (n.start > hit.start, _dist(reading, n.start, hit.start)))
            if hit.negated:
                if kind == "cue" and name.id in right:
                    state = "contradicted" if state == "missing" else state
                continue
            if kind == "contrary":
                if name.id in right:
                    wrong = True
                continue
            if name.id in right:
                state = "ok" if state in ("missing", "contradicted") else state
            else:
                wrong = True
    if wrong:
        return "misplaced"
    if state == "missing" and fact.get("said_alone") and any(n.id in right for n in found):
        state = "ok"
    return state


def _claim_verdict(reading, fact) -> str:
    claims = hits(reading, fact.get("claims", []))
    contrary = hits(reading, fact.get("contrary", []))
    stated = [h for h in claims if not h.negated and not (fact.get("reason") and h.clause.concessive)]
    if fact.get("negated_contrary", True):
        stated += [h for h in contrary if h.negated]
    denied = [h for h in claims if h.negated and not h.clause.hypothetical]
    asserted_contrary = [h for h in contrary if not h.negated and not h.clause.hypothetical and not any(
        s.clause is h.clause for s in claims if not s.negated)]
    if denied or asserted_contrary:
        return "contradicted"
    return "ok" if stated else "missing"


SAY = {
    "missing": "the text does not say {say} yet{ask}.",
    "wrong": "{say}: the figure the text gives it is not right yet (re-check it).",
    "misplaced": "{say}: what the text gives for it is attached to another subject (re-check which is which).",
    "contradicted": "{say}: the text says the opposite, or denies it (a 'not' or a contrary word); re-read it.",
    "coarse": "{say}: rounded further than your reader can use (give it more precisely).",
}


def judge(text: str, facts: list[dict], lexicons: dict | None = None, groups: dict | None = None) -> list[str]:
    """The feedback on ``text`` against ``facts`` (empty: every fact is stated, bound to its role and not denied):
    one line per fact that is missing, wrong, misplaced or contradicted, naming its role (``say``, and ``ask``
    where given), never its value. ``lexicons``: the names an entity fact picks from (kind → id → written forms).
    ``groups``: facts with the same ``group`` are one role stated by any of them (none misplaced or contradicted);
    the group's ``say`` names it.
    """
    lexicons = lexicons or {}
    groups = groups or {}
    reading = read(text)
    latin = re.findall(rf"{_LATIN}+(?:[-'’]{_LATIN}+)*", reading.text)
    small = len(_FUNCTION.findall(reading.text))
    salad = len(latin) >= 6 and small < 0.1 * len(latin) and not any(c.korean for c in reading.clauses)
    if salad or not any(c.prose for c in reading.clauses):
        return ["write sentences for your reader: the text reads as a list of words, and a figure or a name says "
                "nothing until a sentence ties it to what it is (a verb, and the small words around it)."]
    numbers = _number_verdicts(reading, facts, lexicons)
    lines: list = []
    grouped: dict = {}
    for i, fact in enumerate(facts):
        if fact.get("decoy"):
            continue
        if "number" in fact:
            state = numbers.get(i, "missing")
        elif "entity" in fact:
            state = _entity_verdict(reading, fact, lexicons)
        else:
            state = _claim_verdict(reading, fact)
        if fact.get("group"):
            grouped.setdefault(fact["group"], []).append(state)
            continue
        if state != "ok":
            lines.append(_line(state, fact))
    for group, states in grouped.items():
        bad = [s for s in states if s in ("misplaced", "contradicted")]
        if bad or "ok" not in states:
            lines.append(_line(bad[0] if bad else "missing", {"say": group, **groups.get(group, {})}))
    return lines


def _line(state: str, fact: dict) -> str:
    ask = f" ({fact['ask']})" if fact.get("ask") and state == "missing" else ""
    return SAY[state].format(say=fact["say"], ask=ask)

