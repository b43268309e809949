"""Check an exercise of the walkthroughs from its own cell, without reading its answer.

>>> import toolkit
>>> toolkit.lessons.check("04b.5", {"customers": 95, "blank": 1})         # doctest: +SKIP
✗ 04b.5 — not yet:
  · missing key(s): 'spaced'.
  · customers: 95 is too high (a little).

Each exercise has a rule: the kind of answer it wants (a choice, a number, a name, a list, several named parts or a
relation the answer must satisfy) and what is right. The feedback says what is off — the wrong type, a missing
part, how far a number is off, how many items are missing, a known mistake — and never shows what is right.

The self-check judges the learner's own world. Where an answer depends on state (what the learner did: consents,
an inbox, customer files, incidents), :func:`check` computes what is right from the learner's sandbox when it
runs — the world of the process's most recent ``toolkit.connect()`` (:func:`toolkit.client.latest_client`; in a
class, the student's world) — through the client's public calls; running a cell twice, an extra request or a
teacher's incident change the answer, and the check with it. Where the world has drifted so that the exercise has
no answer (the user it is about is no longer linked, the file it reads is gone), the feedback says so and how to
start again (``toolkit.connect(fresh=True)``). Only facts of the read-only city (places, routes, the toolkit's own
behaviour) are stored, encoded (so that reading this file does not give them away at a glance; it is no secret).
Each walkthrough's folded answer checks itself, so strict nbval runs notice when a stored answer no longer fits.

:func:`exercises` lists the exercises (id, lesson, difficulty, kind, whether it depends on state); :func:`check`
checks an answer; :func:`answer` shows an exercise's answer when asked, in a closed box; :class:`Answer` is that
box (a walkthrough's solution prints into it): folded until the learner opens it with a click.

>>> toolkit.lessons.answer("00.1")                                      # doctest: +SKIP
▸ Answer to exercise 00.1 (click to open)
"""
from __future__ import annotations

import base64
import copy
import hashlib
import json
import math
import numbers
import re
import unicodedata
import zlib
from dataclasses import dataclass, field

__all__ = ["check", "answer", "exercises", "Answer", "Feedback", "LEVELS", "TASKS", "RESET"]

LEVELS = {1: "★ easy", 2: "★★ medium", 3: "★★★ hard"}
#: What an exercise asks the learner to do, as its prompt says it (``*…*`` after the level) and its cell is tagged
#: (``kind:…``): predict the next cell's result, compute a value, explain why, debug a broken cell, interpret a
#: figure or table (pick the claims it supports), write for a reader (a text with the facts it must contain).
TASKS = {"predict": "predict before you run", "compute": "compute", "explain": "explain",
         "debug": "debug: fix the cell", "interpret": "interpret", "write": "write for a reader"}


@dataclass
class Feedback:
    """What :func:`check` found: ``ok`` (also the truth value) and the lines of feedback."""

    exercise: str
    ok: bool
    lines: list[str] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)     # said with a ✓ (e.g. a cell that ran twice)

    def __bool__(self) -> bool:
        return self.ok

    def __str__(self) -> str:
        head = f"✓ {self.exercise} — right." if self.ok else f"✗ {self.exercise} — not yet:"
        return "\n".join([head] + [f"  · {line}" for line in self.lines + (self.notes if self.ok else [])])

    __repr__ = __str__


class Answer:
    """An exercise's answer as a walkthrough shows it: what the answer's code prints (``box.print``) and its check
    (``box.check(answer)``) go into one box that stays closed — after Run All too — until the learner clicks it.

    >>> box = Answer("03a.1")
    >>> box.print("One row per story, not per image.")
    >>> box.check(4)                                          # doctest: +SKIP
    """

    def __init__(self, exercise_id: str):
        self.exercise = _known(exercise_id)
        self.lines: list[str] = []
        self.feedback: Feedback | None = None

    def print(self, *values, sep: str = " ", end: str = "\n") -> None:
        self.lines.append(sep.join(str(v) for v in values) + end)

    def check(self, answer) -> None:
        """Check ``answer`` (as :func:`check`) and show the box with everything printed and the verdict."""
        self.feedback = check(self.exercise, answer)
        self._show()

    def _show(self) -> None:
        try:
            from IPython.display import display
        except ImportError:                                   # pragma: no cover - IPython comes with Jupyter
            print(self)
        else:
            display(self)

    def __str__(self) -> str:
        return "".join(self.lines) + (str(self.feedback) if self.feedback is not None else "")

    __repr__ = __str__

    def _repr_html_(self) -> str:
        import html

        return (f'<details class="toolkit-answer"><summary>Answer to exercise {html.escape(self.exercise)} '
                f'(click to open)</summary><pre>{html.escape(str(self))}</pre></details>')


# ------------------------------------------------------------------------------------------------- answers
def _norm(value) -> str:
    text = unicodedata.normalize("NFC", str(value)).strip().casefold()
    return " ".join(text.split())


def _plain(value):
    """numpy / pandas scalars and containers → plain Python."""
    if hasattr(value, "tolist") and not isinstance(value, (str, bytes)):
        try:
            return _plain(value.tolist())
        except (TypeError, ValueError):
            pass
    if hasattr(value, "item") and not isinstance(value, (str, bytes)):
        try:
            return value.item()
        except (TypeError, ValueError):
            pass
    if isinstance(value, dict):
        return {k: _plain(v) for k, v in value.items()}
    if isinstance(value, (list, tuple, set, frozenset)):
        return type(value)(_plain(v) for v in value) if not isinstance(value, (set, frozenset)) else value
    return value


def _kind_of(value) -> str:
    if isinstance(value, bool):
        return "True/False"
    if isinstance(value, numbers.Number):
        return "a number"
    if isinstance(value, str):
        return "text"
    if isinstance(value, dict):
        return "a dict"
    if isinstance(value, (list, tuple, set, frozenset)):
        return "a list"
    return f"a {type(value).__name__}"


def _number(answer, rule) -> list[str]:
    answer = _plain(answer)
    if isinstance(answer, str):
        try:
            answer = float(answer.replace(",", ""))
        except ValueError:
            return [f"a number is wanted, not text ({answer[:30]!r})."]
    if isinstance(answer, bool) or not isinstance(answer, numbers.Number):
        return [f"a number is wanted, not {_kind_of(answer)}."]
    want, tol = rule["v"], rule.get("tol", 0)
    if isinstance(answer, float) and math.isnan(answer):
        return ["the answer is NaN: the number was not computed."]
    if abs(answer - want) <= tol or any(abs(answer - float(v)) <= tol for v in rule.get("also", {})):
        return []
    for wrong, why in rule.get("why", {}).items():
        if abs(answer - float(wrong)) <= tol:
            return [why]
    unit = f" {rule['unit']}" if rule.get("unit") else ""
    scale = rule.get("scale", {})
    for factor, why in scale.items():            # a known slip of units (m for km, s for min, ...)
        if abs(answer - want * float(factor)) <= max(tol * abs(float(factor)), 1e-9):
            return [why]
    side = "too high" if answer > want else "too low"
    off = abs(answer - want) / abs(want) if want else None
    if off is None:
        how = ""
    elif off < 0.05:
        how = " (a little)"
    else:
        how = f" (by about {max(10, round(off * 10) * 10) if off < 10 else round(off)}{'%' if off < 10 else ' times'})"
    return [f"{answer:g}{unit} is {side}{how}."]


def _text(answer, rule) -> list[str]:
    answer = _plain(answer)
    if isinstance(answer, (list, tuple)) and len(answer) == 1:
        answer = answer[0]
    if not isinstance(answer, str):
        if isinstance(answer, (list, tuple, set)):
            return [f"one answer as text is wanted, not a list of {len(answer)}" +
                    (" (is there a tie? this one has a single answer)." if len(answer) > 1 else ".")]
        if isinstance(answer, numbers.Number) and rule.get("numeric_ok"):
            answer = str(answer)
        else:
            return [f"text is wanted, not {_kind_of(answer)}."]
    got = _norm(answer)
    if got in {_norm(v) for v in rule["v"]}:
        return []
    for wrong, why in rule.get("why", {}).items():
        if got == _norm(wrong):
            return [why]
    if any(_norm(v) in got for v in rule["v"]):
        return ["close: the right name is in your text, with more around it; give just the name."]
    return [rule.get("else", f"not this {rule.get('noun', 'one')}.")]


def _choice(answer, rule) -> list[str]:
    answer = _plain(answer)
    if not isinstance(answer, str) or _norm(answer).strip("() .") not in rule["options"]:
        return [f"one letter is wanted: {', '.join(repr(o) for o in rule['options'])}."]
    got = _norm(answer).strip("() .")
    if got == rule["v"]:
        return []
    return [rule.get("why", {}).get(got, f"not ({got}).")]


def _items(answer, rule) -> list[str]:
    answer = _plain(answer)
    if isinstance(answer, str):
        return ["a list is wanted (even of one item), not text."]
    if isinstance(answer, dict) or not isinstance(answer, (list, tuple, set, frozenset)):
        return [f"a list is wanted, not {_kind_of(answer)}."]
    got = [_norm(v) for v in answer]
    want = [_norm(v) for v in rule["v"]]
    for also in rule.get("also", []):               # another right answer (e.g. the exact values, unrounded)
        if sorted(got) == sorted(_norm(v) for v in also) and len(set(got)) == len(got):
            return []
    lines = []
    if len(set(got)) < len(got):
        lines.append("some items appear more than once.")
    extra = [v for v in answer if _norm(v) not in want]
    missing = len(set(want) - set(got))
    if extra:
        shown = ", ".join(repr(v) for v in list(extra)[:5])
        lines.append(f"{len(extra)} item(s) should not be there: {shown}.")
    if missing:
        lines.append(f"{missing} item(s) are missing" + (" (a tie? every one that shares the place belongs in "
                                                         "the list)." if rule.get("tie") else "."))
    if not lines and rule.get("ordered") and got != want:
        lines.append("the right items, in the wrong order.")
    return lines


def _pkce(answer, rule) -> list[str]:
    """(code_verifier, challenge): the challenge must be BASE64URL(SHA-256(verifier)) without padding."""
    answer = _plain(answer)
    if not isinstance(answer, (list, tuple)) or len(answer) != 2:
        return ["a pair is wanted: (req.code_verifier, your challenge)."]
    verifier, challenge = answer
    verifier = verifier.reveal() if hasattr(verifier, "reveal") else verifier
    if not isinstance(verifier, str) or not isinstance(challenge, (str, bytes)):
        return ["the verifier and the challenge are both text (a bytes challenge: .decode() it)."]
    challenge = challenge.decode() if isinstance(challenge, bytes) else challenge
    if verifier.startswith("••••"):
        return ["the verifier printed masked: hash verifier.reveal(), the value itself."]
    digest = hashlib.sha256(verifier.encode()).digest()
    right = base64.urlsafe_b64encode(digest).rstrip(b"=").decode()
    if challenge == right:
        return []
    if challenge == right + "=":
        return ["S256 drops the '=' padding of the base64 text (.rstrip('='))."]
    if challenge == digest.hex():
        return ["that is the hex digest; the challenge is the digest's bytes in base64url."]
    if challenge.rstrip("=") == base64.b64encode(digest).decode().rstrip("="):
        return ["that is standard base64 (with + and /); PKCE uses the URL-safe alphabet (- and _)."]
    if challenge == verifier:
        return ["that is the verifier itself (the 'plain' method); S256 hashes it first."]
    return ["not the S256 challenge of that verifier: SHA-256 of the verifier's ASCII bytes, then base64url."]


def _letters(answer, options) -> list[str] | None:
    """``answer`` as a list of option letters ("ac", "a, c", ["a", "c"], {"a"}), or None when it is not one."""
    answer = _plain(answer)
    if isinstance(answer, str):
        parts = [p for p in _norm(answer).replace(",", " ").replace("(", " ").replace(")", " ").split() if p]
        if len(parts) == 1 and all(ch in options for ch in parts[0]):
            parts = list(parts[0])                  # "ac"
    elif isinstance(answer, (list, tuple, set, frozenset)):
        parts = [_norm(p).strip("() .") for p in answer if isinstance(p, str)]
        if len(parts) != len(answer):
            return None
    else:
        return None
    return parts if parts and all(p in options for p in parts) else None


def _claims(answer, rule) -> list[str]:
    """An interpret (or explain) exercise: the letters of every stated claim that holds, e.g. ``["a", "c"]``."""
    options = rule["options"]
    got = _letters(answer, options)
    if got is None:
        return [f"the letters of the claims that hold are wanted, e.g. ['{options[0]}', '{options[-1]}'] "
                f"(options: {', '.join(options)})."]
    lines = []
    if len(set(got)) < len(got):
        lines.append("a letter appears more than once.")
    want = set(rule["v"])
    for letter in sorted(set(got) - want):
        lines.append(f"({letter}) does not hold: " + rule.get("why", {}).get(letter, "look again at what it claims."))
    missing = len(want - set(got))
    if missing:
        lines.append(f"{missing} claim(s) that hold are missing.")
    return lines


_NUMBER = re.compile(r"(?<![\w.])[-+]?\d[\d,]*(?:\.\d+)?")


def _numbers_in(text: str) -> list[float]:
    found = []
    for token in _NUMBER.findall(text):
        try:
            found.append(float(token.replace(",", "")))
        except ValueError:
            pass
    return found


def _facts(answer, rule) -> list[str]:
    """A write exercise: a text for a reader, checked for the facts it must contain (from the learner's world).

    Each fact is ``{"say": what it is, "any": [ways to say it]}`` (one of them appears in the text, case and width
    folded) or ``{"say": ..., "number": v, "tol": t}`` (a number within ``t`` of ``v`` appears). The feedback names
    the facts not yet there by what they are, never by their value."""
    answer = _plain(answer)
    if isinstance(answer, (list, tuple)) and answer and all(isinstance(a, str) for a in answer):
        answer = "\n".join(answer)
    if not isinstance(answer, str):
        return [f"text is wanted (your sentences in a string), not {_kind_of(answer)}."]
    words = len(answer.split())
    if words < rule.get("min_words", 1):
        return [f"{words} word(s): write at least {rule.get('min_words', 1)} for your reader."]
    lines = []
    if rule.get("max_words") and words > rule["max_words"]:
        lines.append(f"{words} words: your reader wants at most {rule['max_words']}.")
    text, numbers = _norm(answer), _numbers_in(answer)
    for fact in rule["facts"]:
        if "number" in fact:
            tol = fact.get("tol", 0)
            ok = any(abs(n - fact["number"]) <= tol for n in numbers)
        else:
            ok = any(_norm(way) in text for way in fact["any"])
        if not ok:
            lines.append(f"the text does not say {fact['say']} yet.")
    return lines


KINDS = {"number": _number, "text": _text, "choice": _choice, "items": _items, "pkce": _pkce, "claims": _claims,
         "facts": _facts}


def _record(answer, rule) -> list[str]:
    answer = _plain(answer)
    parts = rule["parts"]
    if not isinstance(answer, dict):
        return [f"a dict is wanted with the keys {', '.join(repr(k) for k in parts)}, not {_kind_of(answer)}."]
    lines = []
    missing = [k for k in parts if k not in answer]
    if missing:
        lines.append(f"missing key(s): {', '.join(repr(k) for k in missing)}.")
    unknown = [k for k in answer if k not in parts]
    if unknown:
        lines.append(f"unknown key(s): {', '.join(repr(k) for k in unknown)} (the keys are "
                     f"{', '.join(repr(k) for k in parts)}).")
    for key, part in parts.items():
        if key in answer:
            lines += [f"{key}: {line}" for line in KINDS[part["kind"]](answer[key], part)]
    return lines


KINDS["record"] = _record


# ------------------------------------------------------------------------------------------------- exercises
@dataclass(frozen=True)
class Exercise:
    id: str
    level: int
    kind: str
    wants: str        # what the answer is, as the prompt says it
    predict: bool = False
    live: bool = False   # its answer depends on the learner's world: computed from their sandbox at check time
    task: str = "compute"  # what the learner does: one of TASKS (the notebook's ``kind:`` tag says the same)


def _load() -> dict:
    return json.loads(zlib.decompress(base64.b85decode(_RULES)).decode("utf-8"))


def _encode(rules: dict) -> str:
    """How ``_RULES`` is made from a dict of rules (kept for whoever adds an exercise)."""
    return base64.b85encode(zlib.compress(json.dumps(rules, ensure_ascii=False, sort_keys=True).encode(), 9)).decode()


_CACHE: dict = {}


def _rules() -> dict:
    if not _CACHE:
        _CACHE.update(_load())
    return _CACHE


def exercises() -> list[Exercise]:
    """Every exercise of the walkthroughs: id (``lesson.number``), difficulty 1–3, kind, what the answer is, whether
    it is a predict exercise and whether its answer depends on the learner's world (``live``)."""
    return [Exercise(key, r["level"], r["kind"], r["wants"], r.get("predict", False), key in _LIVE, r["task"])
            for key, r in sorted(_rules().items(), key=lambda kv: _order(kv[0]))]


def _order(key: str):
    lesson, _, number = key.partition(".")
    return lesson, int(number)


def _known(exercise_id) -> str:
    """``exercise_id`` as a known id, or a ParameterError that suggests the nearest (did you mean)."""
    rules = _rules()
    key = str(exercise_id).strip()
    if key not in rules:
        from .errors import ParameterError, suggest

        near = suggest(key, rules)
        raise ParameterError("exercise_id", f"no exercise {key!r}" + (f"; did you mean {near!r}?" if near else
                                                                       f"; they are {', '.join(sorted(rules))}"))
    return key


def _judge(key: str, answer, rule: dict) -> Feedback:
    """The feedback to ``answer`` against ``rule`` (the stored one, or the one computed from the learner's world)."""
    lines = KINDS[rule["kind"]](answer, rule)
    return Feedback(key, not lines, lines, _notes(answer, rule) if not lines else [])


def _notes(answer, rule) -> list[str]:
    """What a right answer that took another accepted form is told (``also`` of a number)."""
    answer = _plain(answer)
    if rule["kind"] == "record" and isinstance(answer, dict):
        return [note for key, part in rule["parts"].items() if key in answer for note in _notes(answer[key], part)]
    if rule["kind"] == "number" and isinstance(answer, numbers.Number) and not isinstance(answer, bool):
        tol = rule.get("tol", 0)
        return [note for value, note in rule.get("also", {}).items()
                if abs(answer - float(value)) <= tol and abs(answer - rule["v"]) > tol]
    return []


def check(exercise_id: str, answer) -> Feedback:
    """Check ``answer`` to exercise ``exercise_id`` (e.g. ``"04a.2"``): ✓ when right, else what is off.

    The feedback names the part of the answer that is off and how (wrong type, wrong key, a number too high or too
    low and by about how much, items missing or extra, a known slip), never the right answer. Where the answer
    depends on the learner's world, what is right is computed from it now (see the module's docstring); where that
    world has no answer for the exercise, the feedback says why and how to start again.

    >>> toolkit.lessons.check("00.1", "c")                               # doctest: +SKIP
    ✓ 00.1 — right.
    """
    key = _known(exercise_id)
    try:
        rule, _ = _rule_now(key)
    except _Unanswerable as why:
        return Feedback(key, False, why.lines)
    return _judge(key, answer, rule)


def answer(exercise_id: str, box: "Answer | None" = None) -> None:
    """Show the answer to exercise ``exercise_id`` — only now that it is asked for, and still in a closed box
    (:class:`Answer`) that the learner opens with a click. Where the answer depends on the learner's world it is
    computed from it now; the box ends with the answer's own check. ``box``: an :class:`Answer` of the same exercise
    that already holds what a solution printed (the answer goes below it).

    Works from any cell; an unknown id is a ``ParameterError`` that names the nearest one.

    >>> toolkit.lessons.answer("05.2")                                   # doctest: +SKIP
    ▸ Answer to exercise 05.2 (click to open)
    """
    key = _known(exercise_id)
    if box is None:
        box = Answer(key)
    elif not isinstance(box, Answer) or box.exercise != key:
        from .errors import ParameterError

        raise ParameterError("box", f"the box of exercise {key!r} is wanted (toolkit.lessons.Answer({key!r})), "
                                    f"not {getattr(box, 'exercise', type(box).__name__)!r}")
    try:
        rule, explained = _rule_now(key)
    except _Unanswerable as why:
        box.feedback = Feedback(key, False, why.lines)
    else:
        box.print(explained)
        right = _right(rule)
        box.feedback = _judge(key, right, rule) if right is not _NONE else None
    box._show()


_NONE = object()


def _right(rule):
    """A right answer of ``rule`` (``_NONE`` for a kind whose answer is the learner's own, e.g. PKCE)."""
    kind = rule["kind"]
    if kind in ("choice", "number"):
        return rule["v"]
    if kind == "text":
        return rule["v"][0]
    if kind in ("items", "claims"):
        return list(rule["v"])
    if kind == "record":
        parts = {key: _right(part) for key, part in rule["parts"].items()}
        return _NONE if _NONE in parts.values() else parts
    return _NONE


def _said(rule) -> str:
    """A right answer in words (for :func:`answer`), from the rule."""
    if rule.get("explain"):
        return rule["explain"]
    kind = rule["kind"]
    if kind == "number":
        return f"{rule['v']:,g}" + (f" {rule['unit']}" if rule.get("unit") else "")
    if kind == "text":
        return " or ".join(rule["v"])                 # each is right (a tie)
    if kind == "items":
        return ", ".join(str(v) for v in rule["v"]) or "none"
    if kind == "claims":
        return ", ".join(f"({v})" for v in rule["v"]) + " hold."
    if kind == "facts":
        return "A text that says " + "; ".join(f["say"] + (f" ({f['number']:,g})" if "number" in f else
                                                          f" ({f['any'][0]})") for f in rule["facts"]) + "."
    if kind == "record":
        return "; ".join(f"{key}: {_said(part)}" for key, part in rule["parts"].items())
    return rule.get("v", "")


# ------------------------------------------------------------------------------------------------- the learner's world
RESET = ("to start again from the seed: tk = toolkit.connect(fresh=True), then run the walkthrough from the top "
         "(in a class this resets your own world only)")


class _Unanswerable(Exception):
    """The learner's world gives the exercise no answer now: ``lines`` say why (and how to go on)."""

    def __init__(self, *lines: str):
        super().__init__(" ".join(lines))
        self.lines = list(lines)


def _drifted(why: str) -> _Unanswerable:
    return _Unanswerable(f"your sandbox has drifted: {why}, so this exercise has no answer in it now; {RESET}.")


def _world():
    """The learner's client: the process's newest (its most recent ``toolkit.connect()``), bound to a sandbox."""
    from .client import latest_client

    tk = latest_client()
    if tk is None:
        raise _Unanswerable("this exercise is checked against your sandbox, and this kernel has none yet: run the "
                            "walkthrough's first cells (tk = toolkit.connect(...)) and the cells before the exercise.")
    if getattr(tk, "sandbox", None) is None:
        raise _Unanswerable("this exercise is checked against a sandbox, and the newest client talks to the real "
                            "service: tk = toolkit.connect(fresh=True), then run the walkthrough from the top.")
    return tk


def _rule_now(key: str) -> tuple[dict, str]:
    """The rule of exercise ``key`` as it stands in the learner's world, and the answer in words."""
    rule = _rules()[key]
    live = _LIVE.get(key)
    if live is None:
        return rule, _said(rule)
    tk = _world()
    try:
        return live(tk, copy.deepcopy(rule))
    except _Unanswerable:
        raise
    except Exception as exc:           # the world cannot be read (a sandbox stopped, a kernel restarted, ...)
        from .errors import ToolkitError

        if not isinstance(exc, (ToolkitError, OSError)):
            raise
        raise _Unanswerable(f"your sandbox could not be read for this exercise ({type(exc).__name__}: {exc}); "
                            f"{RESET}.") from None


def _set(rule: dict, part: str, **values) -> dict:
    target = rule["parts"][part] if part else rule
    target.update(values)
    return rule


def _live_00_2(tk, rule):
    month = tk.status.weekly(days=30)
    products = month.availability[month.availability["apiId"].isna()]
    lowest = products["availability_pct"].min()
    least = sorted(products.loc[products["availability_pct"] == lowest, "productId"])
    rule["v"] = least
    return rule, f"In your sandbox now, the least available over 30 days, at {lowest}%: {', '.join(least)}."


def _live_00_3(tk, rule):
    week = tk.status.weekly(days=7)
    rows = week.days                    # the day counts (a day's worst status); .availability is time
    products = int(rows.loc[rows["apiId"].isna(), "RED"].sum())
    every_row = int(rows["RED"].sum())
    rule["v"] = products
    rule["why"] = {str(every_row): "that counts the API rows too: count the product rows (apiId empty)."} \
        if every_row != products else {}
    return rule, f"In your sandbox now, this week's update counts {products} product-day(s) of outage (RED)."


def _live_01_3(tk, rule):
    import pandas as pd

    token = getattr(getattr(tk, "_areas", {}).get("oauth"), "token", None)
    claims = getattr(token, "claims", None) if token is not None else None
    if not claims or "exp" not in claims or "iat" not in claims:
        raise _Unanswerable("no ID token in this kernel yet: log in first (section 2, tk.login(...)), then check.")
    issued = pd.Timestamp(claims["iat"], unit="s", tz="UTC")
    expires = pd.Timestamp(claims["exp"], unit="s", tz="UTC")
    hours = (expires - issued) / pd.Timedelta(hours=1)
    day = f"{expires.tz_convert('Asia/Seoul'):%Y-%m-%d}"
    _set(rule, "hours", v=hours)
    utc_day = f"{expires:%Y-%m-%d}"
    _set(rule, "kst_date", v=[day],
         why={utc_day: "that is the UTC date; in Seoul it is 9 hours later."} if utc_day != day else {})
    return rule, (f"Your ID token expires at {expires:%Y-%m-%d %H:%M} UTC = "
                  f"{expires.tz_convert('Asia/Seoul'):%Y-%m-%d %H:%M} KST, {hours:g} hours after it was issued.")


def _consents(tk):
    from .reports import consent_summary

    report = tk.user.consent_report()
    return report, consent_summary(report)


def _live_01_4(tk, rule):
    import pandas as pd

    from .reports import consent_summary

    report = tk.user.consent_report()
    if report.empty:
        raise _drifted("no user is linked to the app")
    scopes = pd.concat(tk.user.scopes(target_id=user) for user in report.index)
    summary = consent_summary(report, scopes)
    optional = summary[summary["required"].eq(False).fillna(False).astype(bool) & (summary["agreed"] > 0)]
    if optional.empty:
        raise _drifted("no linked user agrees to an optional scope")
    lowest = optional["rate_pct"].min()
    rule["v"] = sorted(optional.loc[optional["rate_pct"] == lowest, "scope"])
    return rule, f"In your sandbox now, the lowest optional rate, {lowest}% each: {', '.join(rule['v'])}."


JUNHO = 4100000002


def _live_01_5(tk, rule):
    report, summary = _consents(tk)
    if JUNHO not in set(int(u) for u in report.index):
        raise _drifted(f"준호 ({JUNHO}) is not linked to the app")
    if "account_email" not in set(summary["scope"]):
        raise _drifted("no linked user was asked for account_email")
    row = summary.set_index("scope").loc["account_email"]
    agreed, users = int(row["agreed"]), int(row["n"])
    if not bool(report.loc[report.index.astype("int64") == JUNHO, "account_email"].fillna(False).astype(bool).any()):
        raise _Unanswerable(f"준호 ({JUNHO}) has not agreed to account_email in your sandbox yet: act as him "
                            "(tk.sandbox.login(..., scopes=[\"account_email\"])), then count again.")
    _set(rule, "users", v=users, why={str(users + 1): f"{users + 1} counts a user who logs in later (section 9): "
                                                      "count the users linked at this point."})
    _set(rule, "before", v=agreed - 1, also={str(agreed): (
        "your two counts are the same because 준호 had already agreed on an earlier run of your cell; "
        "before his first agreement it was one fewer.")})
    _set(rule, "after", v=agreed, why={str(agreed - 1): "no change? 준호 must agree to account_email before the "
                                                        "second count."})
    return rule, (f"In your sandbox now: e-mail consent {agreed - 1} of {users} linked users before, {agreed} of "
                  f"{users} after 준호 agreed.")


def _live_02_3(tk, rule):
    from .events import latest_inbox

    box = latest_inbox()
    if box is None:
        raise _Unanswerable("no inbox runs in this kernel (it ends with the kernel): the events it received are "
                            f"gone, so this exercise has no answer now; {RESET}.")
    received = box.frame()
    total, verified = len(received), int(received["verified"].sum()) if len(received) else 0
    _set(rule, "received", v=total)
    _set(rule, "verified", v=verified, why={str(total): "that counts every event: the forged tokens of section 3 "
                                                         "were not verified."} if total != verified else {})
    return rule, f"Your inbox has received {total} events so far; {verified} of them verified."


def _live_03a_1(tk, rule):
    stories = tk.story.mystories(expand_media=False)
    rows = len(tk.story.mystories())
    rule["v"] = len(stories)
    rule["why"] = {str(rows): "that counts rows: a photo story has a row per image (expand_media); count the "
                              "stories."} if rows != len(stories) else {}
    return rule, f"Your user has {len(stories)} stories on the feed now."


def _newest_file(tk, channel: str, name: str):
    files = tk.channel.files(channel)
    files = files[files["file_name"] == name]
    return None if files.empty else int(files["file_id"].max())


def _live_03b_2(tk, rule):
    fid = _newest_file(tk, "_xcLqmC", "겨울 VIP")
    if fid is None:
        raise _drifted("the channel _xcLqmC has no customer file 겨울 VIP")
    stored = tk.sandbox.customer_file_users(fid)
    total = int(sum(float((u.get("field") or {}).get("구매금액") or 0) for u in stored))
    rule["facts"][0]["number"] = len(stored)            # how many users the file stores
    rule["facts"][1]["number"] = total                  # what they spent together
    return rule, (f"The {len(stored)} users stored in 겨울 VIP in your sandbox now spent {total:,} KRW together; "
                  f"a customer file keeps only users who added the channel.")


def _live_03b_3(tk, rule):
    fid = _newest_file(tk, "_kQbVnP", "봄 이벤트")
    if fid is None:
        raise _Unanswerable("the channel _kQbVnP has no customer file 봄 이벤트 in your sandbox yet: create it and "
                            "add the users first, then check.")
    stored = len(tk.sandbox.customer_file_users(fid))
    rule["v"] = stored
    rule["why"] = {"10": "only users who added the channel are stored: look at the report's ADDED rows."} \
        if stored != 10 else {}
    return rule, f"Your file 봄 이벤트 stores {stored} users."


def _live_05_4(tk, rule):
    """The trip of 05.4 in the learner's sandbox now: the route's numbers follow its clock (the traffic model)."""
    import pandas as pd

    from .errors import ToolkitError
    from .local import BUSAN_RECT

    ends = []
    for name in ("부산대학교", "자갈치시장"):
        found = tk.local.keyword(name, rect=BUSAN_RECT, size=1)
        if found.empty:
            raise _drifted(f"a keyword search for {name} finds no place")
        top = found.iloc[0]
        ends.append((float(top["x"]), float(top["y"]), top["place_name"]))
    trip = tk.navi.directions(*ends).summary.loc[0]
    km, minutes, taxi = trip["distance"] / 1000, trip["duration"] / 60, int(trip["fare.taxi"])
    for fact, value in zip(rule["facts"], (km, minutes, taxi)):
        fact["number"] = float(value)
    try:                       # the hour only annotates the answer: a clock not readable does not fail the check
        unix = (tk.sandbox.clock() or {}).get("unix")
    except (ToolkitError, OSError, AttributeError):
        unix = None
    at = f" at {pd.Timestamp(unix, unit='s', tz='UTC').tz_convert('Asia/Seoul'):%H:%M} KST" if unix else ""
    return rule, (f"A text that says: {km:.1f} km, about {minutes:.0f} minutes{at}, a taxi fare of {taxi:,} KRW, and "
                  "that the time is the sandbox's estimate from a traffic model, not observed traffic.")


_LIVE = {"00.2": _live_00_2, "00.3": _live_00_3, "01.3": _live_01_3, "01.4": _live_01_4, "01.5": _live_01_5,
         "02.3": _live_02_3, "03a.1": _live_03a_1, "03b.2": _live_03b_2, "03b.3": _live_03b_3, "05.4": _live_05_4}


_RULES = "c-qxlOOGVSasDfb0gUbeW?R!e5AM!j52QqcgiM-{77z?#G03jU?k;v!WwEkqW*UnH*3upXL4piO1Z0CYc(G+0Jgg5Qc+k!NM91CP|KKkoGV9UP^CCr><YBfet1>b&o?k>JpKR^!j>cO@>dBTlFH)W4_`NlZwvSY`FsiaPT_%-U=Jw3-$kf((tcGK}QhQ?+>y_J98bhU-)y_CIH8Wcpr7`evZCs@ir<}>FW1gOy^GZb~O_f^^$)p->?WnC~lE<`gw6IBJXe2eKCdJSgzim+^Hg|aXa7)w6DgBA)PrUUQe~Z$@NmSv3s;mtLD(#j;FTB9eDbuH4XF9Kl*p|(WN=;Rnl7|;7mV>5O#H%yqDY#KfV+yDCc6qa5f0f14k$T`q?M#)lpGfDqt&}-Woa}5$)G)M2@;QkjE^SemSh*yHP*RZ4UZ$7jjnAWniI(`>uL?oNAT*M#GoMMmq}9(BhPY}pgt<f{KT^4ER57<ukgY2PVp#W7r?sJHm&Aru@$@MO!y+auiJ+CFGMVctWzrFGWV52KOi!>{rPx2QRg^ZaBN##Kwmj{<9__r&rXv5Y#;+&t=XiSiH}h)C7}AL^+ee4~DVx{$!Tr&}cr*sx2ZukHyg_fq4<;jsWORS`2b25Vf${#nADQg#VPrhs^B+ClERA<RP}9^#OShwpF4Kf`5-oH-H)@uYu97W{H#p?fJESfOMNI3`h(D5nmnNzP@Ulu*Mx7<q!oOjq<HaWT%vb9U`ZXN!PChujtq*GK6n3do`UZw{3iiDxwZdSziJOo>bk&mz_UX<{NpS{-f0l<mkA!dU=#^cXT*0*po8&By9Gfoju?FE-7ULz<0&AKa^zy*L&IXYNM;fm=QnBpI^d>)|B?_ICY6!w3lEw-6N@j^Echt((C0S33Kr%Pm!FKxY1tGxr*YybV;RT*-EkMLw;gBxUso{5fhr7GNkM`yg**tbfDo#!*bWB%@KH;#!6j{E9y*XKuV|%?hhrJoZe`Sfq-O(;_S?39v)7FAtEnRgI!@zsYR!AqbRF0TO&-?+){yMQf8Ss*WBQ+Y0cGMt{#=zho@ZY`n-n;js9}S)ck?wz`Xjmntb%qVWz(uw&ZD1Ua4sOugUQcs+Mn1Dab3{!{@~XE81e=w93(4`^Msl)F^T<5OlNa9PiddF7SHr_7GU+-_OdgS?J0~c?CG%WYbs4-a1h3Xvhe?j?mBc4Yv)bNaIw2wim)}PW|L%pfGMO)`joWv66~dd+Q_9k33(KMiA*dBg2N?h|^rM-ljZb7P0tUyO5XKHU(@E+mlR&B|Ouq~fjZ<ZaUz4@?b=f8-J)1OTd98cmy)D~h8+0ffOVaex>ZtefzScldPc$rxFx!XYZWv;ORI&{b4CU-d_97Ba@~J)d<`#FeD1|G^AwRTvg<N^>(W)@4z9v(|t#uwVPU~1JW}0-?rski%{b)eaXIiQPEiZ9O;q_JVn1lwS?nr5}OZuUI!q#Ln1kM5PBvr(LDVP?LV9wS9!Ocxft9D&JHq&~(=J3K&<Kj@^nuFgh;o!YVP8o}Bj7@>*uNa;J`G(&>Z;k2wOHoNn88eKxk&sgMxY9tN@Z+q2<_Qbzkc@M79ups{*rZqsv4A8hF5Bv0hnyKM>=6k?rZ|cF5ebWL0IN4uJ3#`#DyBpzs#=fI?N>bzA>oM26b=NuutWmdY&TAE!NP%@4L;Q{elG;rl;84-z$VHbk;G9Gx5(}ZY$-j5Tz8tCXElK|T}2C3Q-sFnpns-U{m_-#IrHOMxj{h{j5X`jkYc-H)%cQJ$W^80U<bo*{CLMZClqPx`JzWIM7TZe6V%o9$mCiF;i8u3a89pm2~@uoXn(ajN_6>VYR>8D&D5u@cTZPW6&86CEpwf9R^Ho~c4<Zi^>}0(f_|37acYPVFgE}t+p{94O?1jirld1`=h34N)C4$>1DPK_N%EQ9UaRgMm-k<<y8mV}FthH+F0eBnElP=<yz_t_u+5_lGGM`=(hr_gn!=Wq__{_7K?!cnrdi+-G9bJOMs1PneRE}zl(B-+oSvJ;HJOQ&63PniOyxR-IrMsqz_pQU?oP0RNrA%lF~e^XRuF`0Ii{WF>dhi~yV=v%h+Ft$zOCSON$PCkB4&gvI4A|FkSTUp00k#;5yCNql$p#@Fu^-c-Hg;4V9<ywwyb$xr&W9VVNh<um8)8sLV7O@xsLkbkugIEog<ML?dHt3%r5{l=EN`M8gC^#%Gt)TA)^BbOrJ7ZMgqekAmBwe1Jg=VAE`>xG;rBi*Ypao&X}J!kS4ic&K7Nhn#IZ$Nix9j%v2JaSoYaB(E9skg2VfN|Nh$nNtFgl!rJ0Ae&ZwwhUJo3bR2t_NL`%Vq`XsSyu?U0t<+lkAP(5iNq?w}sdK<Hj#Zs=*N*KjSQmM5Hwa99TAAsHcl6<tkhPGA>og@CsTnp?3~s4=6G#oGDajRAP7MhdnZ96<YUhTN_VC9)`PsHi1!Ympx)^AuGU$60{lV47QHH0NMo-S8zxz1*p{UA=#HFOD+J}q(dH(A8KVAImb9M2>?_a)n){b=t_}A-CK4s%+wz-nBhxXQLj0F^LJ$>9UP!ac9(987s$r%7I>0!*+JWKLsWU||_%Cj=L)XAg*i30+AjV_m_A{bQ}ovGo3{A{0r4;6^cw|Jocy*ogbtNKbFw1k}!<$b*&0O)OQA*WUvV>}Cb+1nrc&Kxkr#b?i7|Mv4&zy0T9HE@VSsV)cPV?OkPR9KFtWsC!jz{q-f&%YYt-97j`{d2IR{_^ZUwyEAYhu8;-S(lj4^JLCnEr85)>bemm2p~ideTxXv<Q`@jYSSgQDK4HOGTuwYWZ`+-%dl1w0EQiJdi(|lP~JaV;^kR=Xwh3pfQw+d8C+QniA{p-E8u~-kp^-ZauLJzOinVG$q-)l^&N|T9mC`kLf{qB%k}L!o6p;PfAKFbE<XEo472H#{urjAwVFLOa{wA5poVXGxY=Jhl(tk(t9Sf%c-q}~+Q3g>bB(99^@X{2JafWum#4RGQ*QILwxQNrp;yE1Uybp-MM#<jyO{;N*gv4+Cn6AG&p3N=W?*OBjNUn*GlKfgCF;vtkXo}~l!S~;bAuQvTaXk`+L$B_r)TU$s7TG+maCIC8B16qIs)oHB4{Rwvuqpt`_}>SC;)K=mIVJq6XSyx<j?;1zntKucEL8s63eVP`WTAyj5E@+d5W-^QQN=tTQuCsn<hC!Q&e`0x)7ezZ=>B1{dEv~rVAC9`pmUr8;*m`ZU<7b;ZWnWRT$zRS9Zu$F|?NH6|dwaElV@aIEh)WET{GyRSS)Urr-#9=T&KrlppnmG*9FN3N&1$sbxFV{!>}}oE5qP2jI9dm8($o+*m%}5@kmK?W9?+^p9%`2u<W1^;y^*DNegOGvAw9yKRQKrlbvJ7biHXha?G>b>0_5>!d+WBvk=tsWAnRGHMtI1vw10?GaT@-fh-|HYcCyXk&7-<5G!_O3MQiYLc9Z)=S92`C^a~a{y5bO__JPYB~#?)Vb2~17gR=;=b$@2rM?k<OpRp_5RNmiMPn_zQb|}I+HMy@M-8zjjdCEOab{!?fJkd;NX;-qi@w1<nTq_1&zV2sJ8MM$=hzc5!g8JmKyTf&Z5Iz`ne}9Ei2AXH8Hg;TTF@Cz6{D-*CKTXP0W2R?7U|odm8~m*N+<T;Hhn0*T{SM<%^4d`}dcBda>TU3$qoq?z%F5^~JM`pTD^H<MWq)`kX%PK68xXfJs?BSdl+C<Fg79EFIDo)KH+tM);_+#r^dPGSqUtrSUOq?jtx#uV{j$w%l)KXsx;&?`|kdn~xQBl?9)!%{#buTBz5o?_=s>ec93dmH<9Uyt8suPpybTZq(3$qWYWdt?n80!QINg2VbxHLl7?p+zddPLNzq`%d_8IF8-jpgFB(~DT;{YH3v%Lj@j)t{>N1V_iE0xlhZBy`@Vi(FbjUDhY!_YKz8=GR68BXN1O)fzSK!<X1Y$RlUzUK50EP{F(x4V5OzanwtSC(t#!=7-J54?L05DAV6VgWg9i;T?=<|V(J_#|=aD*;{%2_lBS<g=-yzRXa^Asrv$+07hzSYY6$nxBHN12W<nGgJY;Q!aQ4F_{N-2;wLErGL30I_vKNXU~4#5eDitUEw`;nE#d?o^AFiULogf?k}c2iB!NVGk-C#z_lWQ)D(;$ZDq<R&vq&8)gcMsIK}hWZHM=_I@Hz6qRfcigSEmf2DFcvDhNW`Ml>#gTAVBnvC<9Ue~T1)qUmXaD=RI8~(GHPT{=%~P|fHStZZyuuZmiuzx=Y;OH65;<~VT5>DErIybS>33wQk(yIKI!!nCQl~3MJ6XMsAig6gu&Sx67wTs44D5cUSK(;x7$A-Ot_)WfMG~Ek`l(IghaV0|0)xl?&YbVlBJKNHt#LCs-U#XLU_+sN3G&Ik039t&Q{JQMp3RczMDEow1`YVgrcj};->BY-wWH%S6lumEoahv?$fYsBEQ%|KduXAAK-rpPa+6@D{q2SCN4@5y)9ADTeHjFm22#8`{Ene)#4NYUF<N07VKS$NvbqEQ!c4i#M?!Rrh@IUQTu*2|^sMNntpT8BU_#~6`2LZ<=@W}3dL!Vrqllgw%d9d1>7I3QrH<+ZPjH-RwFjUm!5GkiG$(`zJ_5AGYS2~mc)*(MjZFsOlr=ST#Q)YRFJZ72rnDs{<}R}?EID9+)BUtePC03js3|PUMZ0#+czs5t&l5H``uxW~`B{g2udmOV<bx=H%1ldGY*fe(NmkQYR@0KVQ@S<nyYgTB{^GMw=+~?N{?Avx`I3IUeDUn!7ysA=lg*t?;hz9GuM2x<mc1JgyZ_aJ7+pC{QGm{CBM5Bo5&}ECqDPKYRO!0pK6PrO;E>)<0Lo%-m7b;uH3k8`IS8X~o68p9pw9AdD~#W|v+X-6WHkiBchr>bksH2kv>;FPmpbNfxk7f%chcJ+ZX}Qb-sV+Hi1zM)PP&yDkq&n^s107u`Sv<d4(@Y!$1XK->Z<EI!JT5xcY}Za`Rh;qK$XyAT9gVL$!n>z^g*w->)L2@)1!9@biEuTA9?<%kiQv((CPpg9|C1ysex>$hdK^#ljt-bE6`b!SCw42X~O2TPEx9foDXo$w&%K~nUjoG@J*iU1aOD598@shlLYqOqp{!j+O{r!^~=}4`SYtk{_^6_zaugZ)<}X6Jy+UyB=?`_2=!RK`t`HdfA|CwUjOP#HFP!VZ8^u=R!K*yEUtmbG~|OfKX|v__Mk4mZLjzHVut=N3g0~1kP8Fs!`HK!;alkB#7GMH(zVXAe<x>&ba@ie$W2)N@TQyL{+73=*S+W6z2u#>r)_Ug7DAYJ>ld8Y9agG=);e501*jBXmEZr5yExdrg->?`-Bx2g&YNM82VGH*=yVml_%G?6`qTdd&tFU3"
