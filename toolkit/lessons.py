"""Check an exercise of the walkthroughs from its own cell, without reading its answer.

>>> import toolkit
>>> toolkit.lessons.check("04a.4", {"count": 3, "nearest": "GS25"})        # doctest: +SKIP
✗ 04a.4 — not yet:
  · count: 3 is too low (by about 90%).
  · nearest: not this place.

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

    >>> box = Answer("03a.4")
    >>> box.print("Delivered to the user's own chatroom.")
    >>> box.check(0)                                          # doctest: +SKIP
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
    week = tk.status.weekly(days=7)
    products = week.availability[week.availability["apiId"].isna()]
    counted = int(products["counted_min"].sum()) if "counted_min" in products else 0
    if not counted:
        raise _drifted("no product time was counted in this week's update")
    overall = round(100 * (counted - int(products["down_min"].sum())) / counted, 2)
    lowest = products["availability_pct"].min()
    least = products[products["availability_pct"] == lowest]
    names = sorted({str(n) for n in least["name"]} | {str(p) for p in least["productId"]})
    rule["facts"][0]["number"] = overall
    rule["facts"][1]["any"] = names
    return rule, (f"In your sandbox now ({week.window}): the products were available {overall:.2f}% of the time "
                  f"counted; the least available: {', '.join(sorted({str(n) for n in least['name']}))} "
                  f"({lowest}%). A text for a manager says both, and that the days are UTC days.")


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
    _set(rule, "verified", v=verified, why={str(total): "that counts every event: the forged token of 02.2 was "
                                                         "not verified."} if total != verified else {})
    return rule, f"Your inbox has received {total} events so far; {verified} of them verified."


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
    rule["v"] = total
    return rule, f"The {len(stored)} users stored in 겨울 VIP in your sandbox now spent {total:,} KRW together."


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


def _live_07_4(tk, rule):
    from .reports import consent_events_frame, consent_summary

    report = tk.user.consent_report()
    if report.empty:
        raise _drifted("no user is linked to the app")
    events = consent_events_frame(tk.sandbox.consent_events())
    summary = consent_summary(report, events=events).set_index("scope")
    if "account_email" not in summary.index or not int(summary.loc["account_email", "n"]):
        raise _drifted("no linked user was ever asked for account_email")
    row = summary.loc["account_email"]
    rule["facts"][0]["number"] = len(report)
    rule["facts"][1]["number"] = float(row["rate_pct"])
    return rule, (f"In your sandbox now: {len(report)} linked users; {int(row['agreed'])} of the {int(row['n'])} "
                  f"asked agree to share their e-mail ({float(row['rate_pct']):g}%).")


_LIVE = {"00.2": _live_00_2, "00.3": _live_00_3, "01.3": _live_01_3, "01.4": _live_01_4, "01.5": _live_01_5,
         "02.3": _live_02_3, "03b.2": _live_03b_2, "03b.3": _live_03b_3, "07.4": _live_07_4}


_RULES = "c-q}tTaP2f75*zFORMojv&Qz!cxSxgVS$ZU!48Ps2%%+VmEC2#<93(nYR{~NRziq}D2Wsj1wjx*L`sB^h{VH^@Q}CslRUD+f5>-ERrSpt+p|D`@UTo*S67`nm+xHa_|00g*=W_e;?0_RFpFdu<L_F1u-g^sScz2YXcDGk66-U=BYi!O15t0`mDq2IKrYO#kQhqTaBh?leKpjH5)uP%%#}$+XoOL5dYwOy)q_+FR1^s_rX|C)QQH%>Nf-yT@nEdOfufN}ovH{!E&Q!#X{cj^r+YO?FZ=Y*fc^<;_wny6Q9(FJF(FOn3InM$6I#!|z|bkLPk)`sIHkpEI#wc5X{r()9xs>=l3o$5MkS}9Mog5N8L{8w!}{~38c$tu>_+uaBy^sEjANY&^&m9%WPMr<L*p<W5i5d3&t@tRCXB$82un!E(`9~R`e3XE6HIrzf{_6hYS^PQonbto-Ot8~sLCXSZ)uUZD`K6AVx%D;Jx>J|!@j37nk#xXVW3zP4<BM-XhfSiF_Z&l)V()r@qF3`o3PqEiZI8>g=f<&(ZL)OcZ58ZVI=!u6s8NIPgTP7oGCRC^((tXbE-+E%|^3>jlk-7v9#pbI2?@qqT)<iwTqMl{ceLu)e4{AtNr5cv#bUgQ8ML^0-55x5`4i7mQ(HF{ergH^A(h>jlZYzLGMf_0Ui9PNdsY=4YUpm%5|26sVXT{dZvY@QzwdLm8y6E3M{v$GL|Foq%MU?6G(Bl=D5Aj-1byCR#$AmZ#vM^*}Sr?6z&_h-a%<S5IJ2sCC&qV36?FUu>L7Cw{?8fIBYdqSogT|RQnpeX&tv4P?E+`^QrbxaiDc@;6~cbeT=kP`)<<xGQkn-gVgrc%c39Y!NlwdC6g#5Egg(yJW^s9CMNYqI$VM%X<-LYCB`}m$c`9Sp!j6hPU1U8Kz3Nvq%xgj7y1T#NEVrjjiF*t7^`9QDKEoHgtf?;M-XS+5I0~)LAD9KkT5$Pk)ka`0AsVu_sOd2pfrv#e+q)32NIgF>%SYoL{q$@ontaUC`K6vam*D$+k}H&h_qt@>`QYoN;|bA25VS^e+*#sXg9W}C$<)Wv2R7^8DK4JnZtBIV7rJkAs!eDzADJ)MLm!aW)l;MVc4;CC{BPAq`PeCQnas*^*nJb5p|Cr(L&5;WX=G>2y2hRQ$^0h(5^{pr5XpjIWV#iK&2PM?HjjF?%q7Paq{fVE>VS7ks79qhM=SbUDln=biy*4(FVgrPaRdp!(?lP<Lo=fDQ7c5rUdY@oFYe*s6o2JB;z1wVLEni7@T*^N;euWs*dzqILu4=%Ko;#5-OqLKV(F6U{xd<=kao8ur*tE=G3dm6`a$Yks6XnVMzYW4NJGv)l^SZOmd!SXgC`anKC9zEF9R)cncUcyljm1Vo$-|3YO-QY?mN&HYxM8y#avP4ayMMj)fb<jUMO<hoMUL#DWwWm=?j|kCX%bRt5CI1VD0Cj-+~q=aE&I3*3Z(T`7LI-)S~856J2=&~ae8A_z~(#rGG2rm#ce6`8-C(l>B-I9}<SPU(w>ML$kd&f}2OsW#?U6O;DHQcJ|92>WQO7{Eu*Jb`(?j;(L*@RmDW(P%XG#ExGY13RzbzpJ-zUw!Vmorj*KTll>d+ohq(jbVk0G6OvWl)(SHZ4Ng`ZoecsIZQclT9O>CW>xZ{w*Z3GLf?XO{B6cLyHEDWG}$M|y!HiH78)~$g%L8zc@R=O15G!^M)M{d#Q^=pTb&25+*s>jj3_e<dK0zSweHa)f;agCxc46)q$S~KoUS}RqD&8OLiWjjAP8VqcnHebQi$LY+LzJHt&J&mFACtV7a)ucatOC%$diDp5mZ0%h{ge&$FFt;zm|2fUD8RFBx}tR?{$*L4qk?qVjDv^ZWYA4e6C9JQeurG-3AR802}QN?I>*5Zqh;Ne?9`ST143>@)?V{fz>_Yr3(f_j=@JNpj|iHjwLFy7I33tEBlw?Hr^}5E5Su(?#X^aOZUrX^!oKmMDI&y;Z>Ozjm*n`rjjYd2!pGwOATH+dGWR0?VHO%W&S;dxPB)u#Gk)%>*mRGMW0jo#>Jwuv4&Vpsu8Ti&`xcLe7pJ~2On^<oE$q`;%{sSx3oG8h|@W5Jm5_Gi5!Pz!i`8hpr;#=L#<n<i;J?II2=r330ux&vcD2_>5D0XR2SHIo1cb3fNX=pRRN#RQMeSOXrYW4DhPAx&)>cKvS`E2bBO7Ndtp4(yOko0;VR6xE5dv~0L-KtitcbSr{Rf{H=W!&4;-_*f(Oi)1V?kKWL3fDCdjxL-^yrg8P16rr-K?$?`mM<FhLrpjG>go=SfUN1OWvLyi=(u)K4JSgC|SriAl|>H6ewVM=9&M)0_SU-kP00A2JGK>vVE=3$|#S5jjonho>sF+R3b)eh)Re??*jOUOKty?LSd)j1D%WKR9uM{j$vvWDuyp`BusYBR;87j$_1|oNKvaa5aD=O>#C=!CBZZu8Voh<u!6I2Dv|fPTE&ggMI~AwpIflQNQrYt1AmVqK-GanKEpuA8nJqxP=Kh;fZ+VgR0Bel%ycl4tkMJ*TxnQ1r*xk0Q&eJZ=JvW#n+F1fByd8&wulg_~yMw=N~?L{M)y_{_=Bi{^1vofA=TRIqa0ej<w%p50C%yk?6ELRfmyi8C)e87LFF@J!C>)Yi)pzaurAM;R6uZO>X?mig%_FCPY29%5~?p^Q`smv2@^`2R%K>&B5~F;HY_gSi8T4$M<~BJbr<elG8tsmkbPLfb<V=kieo&H>7Yn9_2!WoX$V_s0CS-<YdKH6+om$;0P@s>d!czRNmRMJzXI6dfpine|9;VR?y?gtk6{1-xBw{BhC_Br0JRMB1!%*PrFKcR3&v$C}0)SVKE4vLfGQqkSbeLT*fd%9D~zTri1ZnCvQU~a&JF6G+#c#o(<Zl+D5QW-+DHrdPZEJI%F96yAVd}0rH~}0>564*sjuxb*%6I<=oi96PKerP#;wN^(Hf6KCVex+MU7?TZctm;~E+0=`w`{0!6(@|E{AgR#ZW>d#T7McbnuS%<sCwAhw}8O#t1ZI<u(L$kRLid1tpI@+E{KMJkxhr*ECV|L*y(|JpvhbN<dpk3V}vAp6O?TR{_ZCR2DvVOi5J3SLG^b0|*|M(!9X8Al7@3WaaXH6j%XTMS*du|jK(jHc=*6V&GUs>xzUpS^JmGEuYC2A#<~E;AxmbI+$h+d8W-ky0}RBq^egR8KX6+cU0l+Xbpj8)+zEruzL$dWcP)_F`~$seYzsZ0IT|;WLiY1N3HU?wxYiR#6Sk($^1m5OE>YS~#tsxX(FqH=nOg%}m89OhFAeI^4%gSYQfBkHR7SMY(DImf2ZPCk?kr1JirFLH+ewM0XcGyL!)U_BxJo0$O+NMU)qd96_ladrSN|K0dw_e~1@Dy375)<<Mq0S*vY;6@TZnQ{{B_E=QgHt;-*Tn~AgV3-kW3zxv|*&wu;+%P*?QzW-WKh*?_-TF*ay2Zy1l#b>^S<cy5G`v7iAPdU%9;0F-p(uI{-K;?{VQo)oDE>)S%c3I=e4!KA-1~~O*gLLBs1l<S}y`2=pM6&*L#S}?wID<~YQ?=YB1kN$wE3ML{!eQ}N;fg1v)i`2ehylGxa&`eRmE4KHY#$vRHk;eHFVB+9g=O32Bc2;2w|2NOS1RKuT|Tbi`!x=D5rjhWz3Dc5FEf5J?H0?UHiJR7pD1^O<JmOzJMMQnZF<4Q=rxqJ4z`MWhj|phD`rpGp(^ZaUwD@qsFa{hCRv-zIJCttUdxu}O@tsav6YR1rh-PS;q9Vmbxi|0NbYbtAB=yLVM02mDuqu@KyyO9Fbire(en{P{E?>nhs5{#SWe_Yf;`n>@btYM;=s;**HYorU&zab!<r(jygufU<nWRO?jhaqoAqh`ED3cIri&av@7|))vBej<YQOXX&)vFnm+teo3QYYTnI1Z#D_VGPse;F3vt<J5%GaxGgT>obn!#W=nXbdZNoJ|7;|5!*yQ$qsLTA&Ru)E)N>lKM85`fp4SLj%VKL{@g#7E7oV0bdk#N>#|p8cjJxph{g6mpkRECd1bgchd$9xkNYjLSP|iw-IEl)2UtU-P87)Qv#xD?pTJK8^oZNFldCioVTwhyVV}mM<xH-V=T5?NfXq28#z6Y8)>SBiQ`Ro}BvxbDU7N83p+#*S+0Bban$jn6b&&rEM|Q*2j_&cNEgf9ydCd%q57@4OU+a#aw#&_UGTc_W^}aj2#p&S?G+6rU|9Utk~_BUF(!C{HwtnhLH5y<u@xT?G8=62UWaJn8F9DsOIGwJvNmVj;d9Gb?Jn=z;lfAxx8q9^TAi=?|kCU>IPeG@Vm+KJD07f$fWnf;n}q&O<|9){$kvQQ#nt~ybrJJycqxe1D@h=s|Yt|bRN-`C@*_Ry85P%cBrw{&Ga2N*Dk2!v~8;pw?z88%U0*ejk+5&YU}HYI*tG5SAP)gUGeXK@~o%D@loUG%1`Dls?<720b4kA;T3fpce&!%mw{^%bv2tv8`}_(H;@9EU2BJJex!!TcA-tn#&ucSYUucThG5t>wSlqZux`A3i?Vwc|CiE!zqG&Rq(mGb&YhVa#ILQ0#C@-A;CpS4^1jVhr;GT7+HFD6aX#K`(Kw`kN9lRAhrhVXoQQhi&RrJ&^{gkf-1a$?RK>%meYh{4X&T~o-bcICMhn_ryZPdaFTKiLCwX%%xu);Gt2X%dU9~H^R4a$<if8T3CDk<+d=Y@a@rtOE$O}Ej9xvFJmz!93b2ZAjg}8t`d!R;%4Dtr12f4966X}uHA120f)}~r_d{w?cQ?5y?uQZUDm2PRJt<z&!8Y9d@^i{_!Kq57~a*GuE4;Ae0Auu5t6Q>0tq4*`$B1q)fbs<GlT!Fb^S!f*>J}uih_#soYyVy>(;5!2osH`cXi9hp`be_?Hz;`-`Jw&V=uMA&lpV8s%F>Gx&#1ws<Imaze6zLRs)Yrj+Sj5t+G@(&Yl=TQuTWpv(<spW~K&E6;?xZ56bQ6PI)CXJsVuZ8q>>iyrTIyA>zwTJ`lM^n%c;j*lF+YeslG^oYH9HGa!bGU6Q@WgA_cN4xH9LtWDF4U#$B!O=_Q&&&|3wdSz#Qz^xA&{RS;^GZvELCuWiV<JyyS0Bj-TMSCph$wtH7n7o)mthL%r22eu8qX($l)s0o7Vp2`xH6#zXp{%^u<90Ei#kW6l)vcbwyb&L}fh%2rGbRO-JwId{w"
