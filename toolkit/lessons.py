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


def _live_07_3(tk, rule):
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
         "02.3": _live_02_3, "03b.2": _live_03b_2, "03b.3": _live_03b_3, "07.3": _live_07_3}


_RULES = "c-q}tTaP2f75*zFORMojv&Qy}y)$0%u)s#FU<br*gwV3G%I>n=al6ZOwP)5sD<Q-~ltc=Nf*=SYA|*mdMB-sdc*tA+NgmnZKjb^7s`@q_+p|D`@UTpG*X7i?eCJZfZ`PX4Myu8nZ`Ra<c_hOaf7j~6-JVD%N~Bsx(=Zj&Sf3hxGti4T5cL*5iT#!c<kIX4iC2jlEsQc^phh}TLgK|63uRIf8evqNUgzntdXS2tiXveqv}BkzYI~wK4dZ||9!_*PRP-iNCo00L7XH@rG}N)d)4iIcj|2K=NdE-2`}lXBs307s7?36lg%_zbQ(Dh|z^fBppZ+?PaY~ETbgV?A(o`k<da`6bNcu#y8kL-Y8ZlLBZp40*59`mDYCQGCk$bC0BBApPWgP2Ns0X33CmYaecr^**F|i^@^n9)YVZsPZiLiupJU!2E3?EL^aEjq>S1>ZbLJfO#rZbGEwEO8q5mlLlFqamIdm`4ED8?EB(u-7JG3<LHqlKbp69$S!@$exQhDNlR6C*ifM%{a}7B6N4unDUzq6lM*TzWRm6CErta7V}!8AfstMq#=X`a~s6&#6*VQNOZFG^d(m+H5qt*a)nSm*<u|orJ@QUsRk*t9Fr+px<o}saj$Bz1lDCKFey55hYWe6v!0kmEa3Tu$*cS?-#Vqp0A*6ZTvlx5BjG%3FzR5O?nZ=*^5@Epj@X(n5vROrKehGI(4F0R;h}Ipulo_CSy4UPwG;bG=UU%YmVFd%xzDVV|B#_{H8-an=dNcO5x_X^$tqwfymjpQ{p_(m*Bj`6xKgs=C+Ow8=Y38g>{d*PqnYnm)23c0VQc1HlJ!A7GJau4&0k|b02S7t$jD>ewpA1_CacU>t!*B^l)nSgpx@Vl9mo9G9D{23KNt1BX!O}l(et|s1g$$1!PBzD^Ps0YbWs?BOp60YEqdlunWxrAChIJViTws6vk>8P32`+iLe$~^BCfc8{!7+D9ARU4-#glBT}@b2w-e>`2kr~9hAl~#?L@7^gu!rcKy5|Of<ze+BqfzgkqF&5XW30v`skZg-AOlz`isWqqIXyVz7oq_{RW7k9K2wdSYu47zb8#o&nav&U2U!2y7RTCd30{!B++Oyr_pV!f0Y5F$_DlI^q~OLAuM9E=Bw5L@yG@5>fZ~5iP}HPUZ|CjIj1NJW=F44DFhvR;qEZn*$>Y0aSW1+`e(^`0mZ)8^_Py>=9M?6sb|lXb4J5&}H4(Tqi7}Ic+dX^vqFZJWRG$IL?7{oN_)FWJ&-Z%PDe1i5jLmOfn8~8m1HXg~55ptaPLCvg$~`g~Pm*uN-XaE1?n^{zFDI23AF)aUL&c23xarXHLC}T){cbDXAfe6o%x_+^}>zT}|~=#U$sshK92-ktt)a#KM8yjJJSM!^_54FZLAdtzc;`$#w}c=hHGz+ZzCw-JlGC?O3=$+~|X@a1^R!Pb^8HfoTyO{#ZHCZ&g4aOaLTT<w&Y$cpO=Uxxh^r*p=dM``u<U^MI@_LmdaECxY;VT>M}uXb3wbUXl6REzN<u!|_UUx}_Npi+-G_T*M)%Q*FYZrY7x^rIv_I5%$qmF@TSrc>wc%9b4br;VpN1qS0vVi5<T*UhKSv|E}J?ef7ELb{=|`ZsGS<Y?p>AH-;51$_(`!Py+w&w&`q;+<r-Na+Gr5bWU=#npMe*z5)nV3w;aD@!X7acAxB#X|hj_dF>0ZEHq{T3nOHbiy)+U2AXb+jpj`_jsg0Kw>l4Axv|#67*S>z^rvdMYu%$q1aI;OaPL1pNK3-;BwcxYM42AmgdC9nKoG#J@DP-<r4Yd*v@fHXTN^{{UKGGzFF+U@<OpubkS76GBdC7j5sd>lk6-Nyex29Jc1b5ylB_jPeAh`HJ9rsdifs(xxK$AE`Eym0mlA6n={9J%0N7}EXh&hYc9RZD|ML-u)gsD9k<VDn4Xo}FFI_MgatuCJ0qwfkb}UhuwSXHHTiL%9xA9#eUI{KTb5HgYTDo68qt~xjB6?ps3$Mz&Xk=dgbCt{>Mi^XeU25>s@r$qZZ{Iv0ROa(3#PvIQA^!Z8TQ`rNEBc(u92bkuCmLcksYb94Lp!k{^6lzG4nE*yIXQN?#B*#2cW!kU5T|qAc)*$V6FCmcgd351Ku<R!hg!EzmKS9^aX6gD61JSlWPc^<(u^5`R2SHIo1cY2fNX=pRRN#RQMeSOXrYW4DhPAx&)>cKvS`E2bBO6)_rrLkcPm90!&R7XSA_X~0GLTP6y4!uPQw!?Z#ubm9yn%i1rL}p36ADe$*O|QO^|UhzLn9~GMp1LP6suh-qpY+VS+SH8AB<F&y$#l2m%V0_@+`*sGmTt2TzvL6O)=%YeEXKh*H*br#FKOyfr(0K4cWe*6HN#7HrWtBXXMD56@I;wUb#p`yOg^-;a76zjS=l+kc|q7#(a#e{kXi`(>LU$RJRG^R1K*MtoAE9LI<^IoEQ<;A#L#n&fP#g0r+Uu8T#?<u!6I2Dv{^C+#b$!Jq;xTdRSOs9$*H)s=-FQOB3vOc^%SkG4r)+`@#M@I<`wLDgk!N>Y$&2mMH=Yhw$D0t#(%0Db(Ax6a=F;_FAhKYRc0XTSMKeDmI;vkxCV{_R^|fBCsM`|yj$zx$KucDkjoW9^*m;qhNS65V#U>M#;5gR2C?!qMWqhfD};tqssouHq;@d;kKw!Hu6;@y<2Egs9I}x$eAnoVDIPmJZzWu&<}NIaod%95#<SwfkFme9!01;}>WtIsF59$-qzsNdEu_2`uVlLkg$kaV|v2>Fkq_T98#qPF8$X0YqvHj?e<4{*3cU<()m-(<M@`=bb_Ew9C=7f*wz1g{I2>mbm8~ahBjBP0wr>N%F)z?JDh2mDEL{fK^O~#UOYFVT*$fRko<OjMoft3{Eqd4kxRfybYDez5VFW{QMF2Y|uv4HiC7U>)DX%IdOsNkYVKSLKv-w$dASd{Q5a!yGk$CvA+M83u6mUT#oWUeNgq+o6LmyxF%_7cMC^sb&9&iH8RlCV+sodih7a$T}NB2sDfzsQjt;aHpxktzx9McY(sUL0J=qWW>Kd%Pw)8Wo!yei&mj~kQo(FKee3M~ch7$P*LLU5**hOS{_GKf>?iMT1x?JEOyM1cWlg^*co{3rp*%?#xnrbc94&<_6uz<0h*T(SF?8L=3avRZnyH^mP@CtgCW{??_Qo;DRLxTxbS8_q%!pjgJ)Z(?>#V{=O3e|Fq=-IJJ<|woPr1fz7pO9Atf7RN>JKjIAvSs1i^18Y`k9`wp{t;T&p1vW(3`2bcgj6mMKw6fKtI?)#D!36>9m64KIh2Yc)mI{a}}pB1vTX8a33FGfhiz83P<!8<)-;pW@kN}Hryr+4Da&>_19|=-CgwU>V3D_>p03WXx+6JQC=)^45fDLE%E2*=;%`XAzqB=F8BYIL!04bt+oMH{GHQImDAa`9Ch}$E`JbiCeFey%=^Fo>Wi~K|LyB9zo;hrezu?xvvw|MJ^S<>9EOG#pZOM&Gcxk-L%1nD<2=KHA3&5#7glBgl{2zI1yeq_RAoBbWsN86aFK2TaO%&8>Bb8Px)CUPJ1ItqWc}%h8Iss=4xNOjYPm}YoMXsWTBS>cPVrXZiYKMjIAmgo0sU!mdI2$&+=*wl4-Y%d<~Hujvm|q2*>?FG&yA8>>uk)G$~a1wk8AjTjRRf;p^$ukwhiCQjGxYW#qy}lV36%6%H802HqHEw``vDvK5#L54P~u^t>WHM9tH4<*;96?3j5j@-lYaAC1{gL)+RFvZSjlOvgLUbA&5+DWn-wRpb=|$yC_;+(|`_=JDe?slOJW6kS?f7;gb{4oKP>!l3GjjVvG=ftm*zC@x4Bl6M2vzPjnbOeQ$?2uyfzFRQU84^0MKurU)yqk9j2NT(ZDDq8om*KJA|;p-#ednFHwETU0u>_(E6hmtNqxTX*i#eg0N~sox{hLq~K)3lA<;@R)A4OdwtPdX;Ukc)Lm?7!0SgbvQW9EVXsiU`us3wHrz3Zn_h8_q%SrA`wLb@Hz7eUCZzX;U$6iu(=fsPiL8!98uY`-?SvR?uwK`?ox_{AYhTu!qnfxg>;*7c_(erA*G%&*IMFho-~%a5vY9yh!QPk@&5`b<Q7OVuo>^@-=Ep?CFRb0VnDrpiZ8@q@c=`O<0WDYo1fd0bDv<26UsKDAphjLw_AwLZr}$qHW|CLEvDM~STg30LR#75M)#7r1W~%d>WiV6OHbea{G0bapb(0&gW@F%osrQrpcI)EyZy3jozjJWHJHOIB)xX|&5BC9Llf^o74H+K@PR6-dAUZ9O{ImyYE@ueI^izx9OHa0FWTRH@YUHnpSZKSmo4}5yUFsqm#wJCr2oU=*|jDOVUMu>V%&yPIZw@E0I%%482|kPo}#l=gqt%uk7!Gjmpvq1ebb~JYHW2QeaFqU3o1En+bYB@k^b(o)jf1?-3=PG_4P!Z-v8%Ue-Q0m@$Y}~sHerzVdL=1Pv$PF)H+B3TR3y!6?Gi<xZ*dEfol?VHJeBq+YpgAkOG-qYlm%qq=v|Lp-s!iby?eL==ghzVAwXbfwAPUZoGVpvU?Z*m(qT}w7=%0L>wT_otYlQudRs0eXnicdu<Q%zRgy*hxmosZ9&md{=V6w_mKV_r5Dj2{^BlkBI<=ZcUk<`v!2j$+viA96%SJfa9=#qG{o(^kM>*}Eogh~=8G@B^eT6q<ju9@n!f+8+Th!F)voALtsJr^p0ziZRM%MYMF0ZFE22&!FZ39DykK8mZercd)hOo{;sWyQff^?=$Qzg*<i`3;q{m)=m>A1hn`+(hRrvx<xhCyz`7;7e#j?v)CjHz6wr%-e^E(92%RR^4LWb6$YhXz|+_ah<g&|=g)YTc?*sl9+!o8XuL<5xn<Lu){k3ak4*~kB)2RUS>^zGOC)gLkd)~RV%Q1l^kGO0E~y<?aBLBi1!{2&2`9&u@~^m~NDFE^;+cE#@!t~nQ8MR(-YrAu~cuUQ<kX>A10b&Sf6PCeh`{#CHMhq#jVPMi^ogu+jd7$oxax{#tNt^h5uEI@<n*4An`b|oaWyVyp<;5+jLKpaza2L8-X(l|&5f)>(2>>*<1cx6}>PwDXX7`8MYVu-%(q(YS%rz)OD105`hMXYC)9zu#~vlb8PY7P@;`^3-~jwP9v8{r63+`u5W)Xw@2sMfklXwd;O9?}nO_6RSBK>XNh^jsl-hss{i8D%C)*@~$FP5%Y6GIz`"
