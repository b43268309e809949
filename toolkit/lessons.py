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
        self.feedback = _verdict(self.exercise, answer)      # the answer's own check: no learner's verdict
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


_UNRESERVED = re.compile(r"[A-Za-z0-9._~-]{43,128}")


def _pkce(answer, rule) -> list[str]:
    """(code_verifier, challenge): a verifier the learner made (text of 43 to 128 unreserved characters, RFC 7636
    §4.1) and its challenge BASE64URL(SHA-256(verifier)) without padding — computed, not read from a request's
    URL: a request's own verifier (a Secret) or a pair the toolkit made is refused."""
    answer = _plain(answer)
    if not isinstance(answer, (list, tuple)) or len(answer) != 2:
        return ["a pair is wanted: (your_verifier, your_challenge)."]
    verifier, challenge = answer
    if hasattr(verifier, "reveal"):
        return ["that is a request's own verifier, whose challenge its URL already shows: make a verifier of your "
                "own (secrets.token_urlsafe(48)) and hash that one."]
    if not isinstance(verifier, str) or not isinstance(challenge, (str, bytes)):
        return ["the verifier and the challenge are both text (a bytes challenge: .decode() it)."]
    challenge = challenge.decode() if isinstance(challenge, bytes) else challenge
    if verifier.startswith("••••"):
        return ["the verifier printed masked: hash verifier.reveal(), the value itself."]
    if not _UNRESERVED.fullmatch(verifier):
        return [f"a PKCE verifier is 43 to 128 characters of A-Z a-z 0-9 - . _ ~ (yours: {len(verifier)} "
                "character(s)" + (", some of them others" if re.search(r"[^A-Za-z0-9._~-]", verifier) else "") +
                "); secrets.token_urlsafe(48) makes one."]
    import sys

    made = getattr(sys.modules.get("toolkit.oauth"), "MADE_CHALLENGES", ())
    if challenge in made:
        return ["that challenge was made by the toolkit (it is in a request's URL): compute it yourself from "
                "your own verifier with hashlib and base64."]
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


# a number standing alone: not a piece of a date (2026-11-20), a time (18:00) or a code (KOE320)
_NUMBER = re.compile(r"(?<![\w.\-/:])[-+]?\d[\d,]*(?:\.\d+)?(?![\-/:]?\d)")


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
    world has no answer for the exercise, the feedback says why and how to start again. The verdict (the exercise
    id, right or not) is told to that sandbox, for the teacher's progress table in a class.

    >>> toolkit.lessons.check("00.1", "c")                               # doctest: +SKIP
    ✓ 00.1 — right.
    """
    feedback = _verdict(exercise_id, answer)
    _tell_world(feedback)
    return feedback


def _tell_world(feedback: Feedback) -> None:
    """Tell the learner's sandbox (:func:`toolkit.client.latest_client`'s: in a class, the student's world) the
    verdict: the exercise id and right or not, never the answer or the feedback, so the teacher's progress table
    (``toolkit classroom progress``) sees it. A client of the real service tells nothing; a sandbox that does not
    answer within a second is let be (the check stands as it is)."""
    from .client import latest_client

    sandbox = getattr(latest_client(), "sandbox", None)
    if sandbox is None:
        return
    try:
        sandbox.note_check(feedback.exercise, feedback.ok)
    except Exception as exc:  # noqa: BLE001 — recording is a courtesy: a check never fails for it
        import logging

        logging.getLogger(__name__).debug("the verdict of %s was not recorded (%s)", feedback.exercise,
                                          type(exc).__name__)


def _verdict(exercise_id: str, answer) -> Feedback:
    """:func:`check` without telling the sandbox (a walkthrough's own answer box checks itself with it)."""
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


def _consents(tk):
    """The consent report of the learner's world now, and its summary with the consent log (``n``: users asked)."""
    from .reports import consent_events_frame, consent_summary

    report = tk.user.consent_report()
    return report, consent_summary(report, events=consent_events_frame(tk.sandbox.consent_events()))


def _live_01_4(tk, rule):
    """A note for a reader about the consent report: the linked users, those sharing their e-mail, and who withdrew
    a consent most recently — all from the learner's sandbox now."""
    from .reports import consent_events_frame

    report = tk.user.consent_report()
    if report.empty:
        raise _drifted("no user is linked to the app")
    linked = len(report)
    email = int(report["account_email"].fillna(False).astype(bool).sum()) if "account_email" in report else 0
    events = consent_events_frame(tk.sandbox.consent_events())
    withdrawn = events[events["kind"] == "withdraw"] if len(events) else events
    if withdrawn.empty:
        raise _Unanswerable("no consent has been withdrawn in your sandbox yet: run sections 4 and 7 (민지's "
                            "e-mail, the week before this page), then check.")
    last = withdrawn[withdrawn["at"] == withdrawn["at"].max()]
    names = {int(u["id"]): u["nickname"] for u in tk.sandbox.demo_users()}
    who = sorted({int(u) for u in last["user_id"]})
    ways = [way for u in who for way in (names.get(u), str(u)) if way]
    say = [fact["say"] for fact in rule["facts"]]
    rule["facts"] = [{"say": say[0], "number": linked}, {"say": say[1], "number": email},
                     {"say": say[2], "any": ways}]
    return rule, (f"In your sandbox now: {linked} users are linked, {email} of them share their e-mail, and the "
                  f"most recent withdrawal was {' or '.join(names.get(u, str(u)) for u in who)}'s "
                  f"({', '.join(sorted(set(last['scope'].astype(str))))}, {last['at'].max():%Y-%m-%d %H:%M} UTC).")


JUNHO = 4100000002


def _live_01_5(tk, rule):
    report, summary = _consents(tk)
    if JUNHO not in set(int(u) for u in report.index):
        raise _drifted(f"준호 ({JUNHO}) is not linked to the app")
    if "account_email" not in set(summary["scope"]):
        raise _drifted("no linked user was asked for account_email")
    row = summary.set_index("scope").loc["account_email"]
    agreed, users, asked = int(row["agreed"]), int(row["linked"]), int(row["n"])
    if not bool(report.loc[report.index.astype("int64") == JUNHO, "account_email"].fillna(False).astype(bool).any()):
        raise _Unanswerable(f"준호 ({JUNHO}) has not agreed to account_email in your sandbox yet: act as him "
                            "(tk.sandbox.login(..., scopes=[\"account_email\"])), then count again.")
    users_why = {str(users + 1): f"{users + 1} counts a user who logs in later (section 9): count the users linked "
                                 "at this point."}
    for n in (asked, asked - 1):        # the summary's n with the consent log, after 준호 agreed or before
        if n != users:
            users_why.setdefault(str(n), "that is n, the users asked for account_email (a summary with events=); the "
                                         "users linked to the app are its linked column, every row of the report.")
    _set(rule, "users", v=users, why=users_why)
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


def _live_07_4(tk, rule):
    report, summary = _consents(tk)
    if report.empty:
        raise _drifted("no user is linked to the app")
    summary = summary.set_index("scope")
    if "account_email" not in summary.index or not int(summary.loc["account_email", "n"]):
        raise _drifted("no linked user was ever asked for account_email")
    row = summary.loc["account_email"]
    rule["facts"][0]["number"] = len(report)
    rule["facts"][1]["number"] = float(row["rate_pct"])
    return rule, (f"In your sandbox now: {len(report)} linked users; {int(row['agreed'])} of the {int(row['n'])} "
                  f"asked agree to share their e-mail ({float(row['rate_pct']):g}%).")


_LIVE = {"00.2": _live_00_2, "00.3": _live_00_3, "01.4": _live_01_4, "01.5": _live_01_5,
         "02.3": _live_02_3, "03a.1": _live_03a_1, "03b.2": _live_03b_2, "03b.3": _live_03b_3, "05.4": _live_05_4,
         "07.4": _live_07_4}



_RULES = "c-qxmTaO#ZmHsP*0SuDBXhL!>nhW$G3tHH)tr)QuMj!}-BD+Yo+3cdbnlnQf0+d7#MzBE^8yiR#_QEf_-Yg8P7T9?G;J5q}KT4zju-`eSsxQ3EC9)mM4`Z^~bvxJZTuL8pwA)*qjYIX(hB=!iI!^I<quFmAs(fTrZf!D-b2U!wspBU-J4++g?BFN0-BFRAyOz>;l$pWI8K-(?U^AmM9(*`6E?2Qr&ZPMf4^PcmuKFfPlpE2MalW;&sW!%O8qvc2k&XL?o+RePBzV-pXFJVfn>u`Zu%YS49{uUlpJ?MD{!TL!#r+&F<k`&NL9X4H<_kaI(FxB_pH6j}(_|YqH7YTAZZdv6nll|V{X~0pCOg4y)YzD*Q`>DmY&c(T@$FC@_@{QDGCEIRr>V`AIg6c~tVgrq(I`%bM2aZ0)2WG+ixUtf!4%rlbeZ0Gy+1PjF<$qpf{+m=+LEL5KI3#utDlYx?W*7q#?mC|p-OGRilGIA>?~K94C|igWM=5QizCCVc=QMpLn69NiGl7jp&op+k<KPPkO{NRk_7KKJr87>W;UAP#fH)+I!<&iPU3v7?1{;EKc~iwRr9qL?K!u^)Am+-4-0|R>3nI*(^1?Xg-O+^7O_i=#{T^RiP@+Of3We7_wTS66r0jH4~le-^J>rqZ!n)W9zCo`o1CvAY+Zbw=(FQfn?-c+{Wd*_)8avAw<27pS)7}iK;@@aSvqxQm{++;``Cd{d!kc41WlS+xjX|GTN|F*+f41SD^KbL9SDo|?PNMzSXL`P#?QA?n-80uES(bPfxJY^8dI77go)cZ*x%aiY;`d2!QRihH|dwoL3ay6vbEp-S$DtsptG~%pLE;Xc+%-?`<EWpH=IB}NNnGHSM?IxAG=Lube6;<rTvjkhei$J%;n)oyGtfYi`jvxQX`v0q(^L5Ao!%$p5qOtz&lLpa-Gkx3XK6BvUwq5BZwFTMkI`e@-!?&n2WS|2zI7h>NfN!Di)z1G}O)}BxrLLLD^*b9%)q*J55u(Kf#6}2O5&l3gh}v(Hy_g$|)%z1fy;Tam*D=yUY#-Cen%-Y+qioQOm0}Hi%-8{bK`0Uu9uAJ(0C)7<<CHKmgIOWeU>)VcS(=$>M>qpsN9Y-nM<6;B6uz5ezGKcGW%D36fpbbgjBKMs}8YlBi~|AIV(Jrlig=gbC&z#wUiHhoe=qT)3J>t<o?u6R^v`hIekidGG$+d$;f1xqC>v!cU1A<ZKPGlbY!gcQ&;d^Jq#73^F_MyK=!yc2+pfo_CyjI#r}fFg`*lazvTw=MCO64ssgjBmWB<=Z0J9M$`GCBYg>nc`aYryQ;5*NLcs}ozOebDq@ZIcqK7do5h`Z@v2e<=X9qehQv}RQaJOL?Ayy~ZpS7iK2I$qoRx`G882&09LZw51e6+HHpP5t*umxsl9rt8)=cJfT&HRG5(CU`P{*+Cb4c$o_7o3dlWi*g3VW8o*$<63_?-oVp92#uu9m_=&~K21OvS8*u<@9;e{9Fgyo*e4HY}BW2iBVZ>n<z2pHVg4tk(+k8N_Gav_TA+%vCNI({&2>3fe#a?{Ck)e2n+wXjAl~<PkK=fvpfi)jcHsL{;nJZH>HIUtSGOUQw`}MI7Q?JlU5CF_KOrE<OPe!X$vDp5cNK76-`M6TnX`cnMrHH(;a_IOaYZ=3_%&Teb19^Q^H^W=_e|K)axdYGNVO5MYLKmw=1y1#khPE})BU`$BX<!lX!8N(jNn0qDS~2lQ)!ISNtRt%(}8inSJnjVzoKeIDeD@|MsD%_jP@?pNl-${!zHqCFoqcx>ZPZEbCBs)npneC0jKw@2Yrdn@3;CSd{mF#-r))}P{!sX5iK+M-J>UVJIPD%u3Q1&>2`gC!ZpbbvSky6Tl_rwE(;TdkwQ!jeskGj@xc%31H^$Qx(o1ilxrnLSK3v<YVS#&+pBL$ES{5(J|v?=fnFyQf2tyQX=ebAoy_L^GRsi(DR|;%9?ech~sM*tr>vrO9SdOmYmX>YN<W#lsW;BMTNjILgwJG~*NzO&lGM&Ahc)oRw%3&bb39`O|ZsSv(x&D~}KB6I`j%J;Ewvh=>${GbLFn(IUdgy65zB;}uzpg2khXyJWc}hC4znplSk$k_GR;!9vNs?zK#c$+DH+E_gWnZnILU0uN=!qF0_;74|NlYavjsk%nmzMtj#^^<*41XDmbB1&X`~h2ykm&%C%rRm7%xbH*!oEE(PW#{KzJG^{`+Q7N5A9J^Pf6(dbDC}H4xckefd`aGA)F_)*f;OaFYA`xwe9Z8^4w@v(^|AnJ@<%KdL<QHfXg-t=UBwmU+OdXntR(-SzT2$<{Y^ku&U}4QZcNYN8vWRqQB0>%nfIeF1TEeFPM(+})FZLVeTiEo@+88qmF{VWJ8hSjLg7btsH;Klnx0XjLG6~kA7zY#;l`VN7!O>|zzhs%BIQlUnzvz32{03|ia>o%}AOd8{A9+rJ&D<4!BiJpHd+)J8*UjSOlNkjBI`5AV+krrMox{L+-E<{($op|6-N2w6!aAws6-9PMs_`bN5D=1PW9K0u>+z;nPB7BWhNIea!NP58@1WLaWV#nB2q!vu3<KfZX0dS_Veanb*_pM;nA?dtqi?qp@3!7NnXgN&q;Y?o>Pcng?UinqMoi*7L{Y)$PvR&7VxZU<T#}GqD^l86C(LAWI?Xrk-+vdtwJnCsKR%Arfo&~hd>vz#m&^G6Fdmq<?no|hGH)$1v7LPKfF5wn!xc1O!els_*Ca_Dh^}kItK{GoWSR-i!3O7^EPTCBxR2s2Qec{+{6|nt-b6wUWsctvAytyK;Oi9(*UDXU#+n&S43upjaki3(6$qiq9mkxnx;>5W7H9fC5%v#gyq2iWA}(Zx$%2BCkqVw-lL;_oCoV)dq6Ds)aHNIb*mVo)4ZxrvS7gf^U&;3J#lTz-&c|jd`FMt0hjsJFm?4<XEuomtGZ&kukYPysC12yEgad$}*r3rar8iF)EyIBwa?I#SH^8PjfOdJDBw?3@boJJNbqT!b084>4&t|c59%2I_cCLK@K>_#=P!9TGjKjU3-@6--RA#^=io;lG{J}Y)La^M2K2hXhBIU7DlkiEMsiZ1Os+ID=iD%6W(2&G3xpAasDOYk>?t*lY7FUfx@5&{ch17|NKw{WUiLY2YG&o>*`YD4{J2dRHn{WN%{Z_puvqT0usXU}a#nQw1%BKuZm!2M<_22$*az|KYh2j!Y<mH$1|9SHK$v>Ze{zRRB{mHYZkIQG(2mI;9r=L~pM_|8%J#@B`V@#mvniZsLCwa7Fcm`JN?nGx}lM{@}jh?7xm-K9BDbEA`Z(jqltjl3~&=O8cGw<jX20*vCte99yG4LqxWqYUNv%tU*=U+T|@%yiy|Nc)$s^MUV5}h?j$GqvqRAD(9Hennng&8;N-S9s(@!JjPJpFHXQ+@aNKUx%ToPq2O#akDf&*Nmw_hvu_I&o%w{zpb$VnGVu!&?U1bcSP!iYKs)Hxdz9XddS>tQ7}<$Bqx(xyc5U&o61trBQWgQCmoWi(t9|R9Q7?n*`hEzym`g#fmKWB8KY|sc!QogL&D}*9`h~1d)#kf#+~97smgQO)Ht}^M8GM{>5h<h)pf@$76c55VI#{2tY#<sOIY-6INR}gtin;t2g{{c-Zy!v|>MDn+tndSYI~xhToiQxVop;uM%$aureQ7TcH-i?ySf7ULwTJYM;5@*`?rzO4NAF-itj0E8}YP&IX+k)KAV)FCRf-%_*ZKcx)OQ$dKD9QGu$NaS}QzScwpknxW0+$E7p&^<vB;p#B4bX5u)rvWT>E5fCq`)C?>M{s|{KyCujU{PoZE0yVu>_*mL9bB<mH<NU@M>De@a*_=?BDf34(oXP9ODMM34c2f4hE3ZhQS-iwlMVUTzCE1#tAhWG7l^i(4IAs(@?IRS~!Ba)x+C<NJB~NKtn&*t-$mhvHr!o<)We(~Oz!X&D$;_ehPrV>XA(~czMpBKRYBTbxEPloerS<^qxDb_fsCsBD*HVSqeSmi2tY`X%GYbe!(>cnsusV{RcC(3jWn%3z8Rm+RHiTX5;3ysvCz#FBIw49W4Rj)^3OGxQnF1*zh5=FF!w}nYo!_g?0?~$~GZk)huhL$USwvbMm{5}BRJfjj4$cRI<d_49q5@+?IpUC6V5iQJmVY2}d?f12N&&-SCm7sEm`%BVZiaeA6qZ9!UtNv4^8TK&v&5GvK%bsHlV*{GlcTTC@Q}?HX%{%=Yh2zVdD)Ft0vm_DC5E)NvS_nSAGal?WkvZZCgwJg0#j}(?#5zfE^?8wgC^oU7fxQ2kc&(9oho?nvu#|I$b0t9)AN7(_h)~3x|qESqZOs@sx*H7_2ctjKRy5Q$+N$F#RbF4ceYV%Fv+V2De{Fgu2m3Wsefcj2?a`QgqJEuTq?GQSgy7-US`gH07ZGY*tS>fe)WbHqRUQuMOa$AtSGB2_;g|1?uElbyk>nKQ%@I{-P*5pFveb4IjW~r#8kR0si3G9`WAPu7ycc*T=WMcK5e+NbFll}<3B71e_-A9s{B0!5#tLAN}Y<>wF~{@sDX1eQv221zjjaG6U>4S>eemQXpo%!1I13h@q^tU_0S$iW}s(Dew^xC`~rL>21W#gZ$WOTX6uT+kq#SoFP^0Yt>5**c4gZK2L&*%B>X7R(U837q1u!DXJ)2GkYF&rO&+17-ogF49Dl>a1PAV>Fj3J3d#M)W_UUIFZ;Mo8+HAp<auZB2`jmM*gwQ3iuL?<E2jc`s#d5>+{lH3Mej)^AFiYF05v^Mg?XsAnplI24K~hnClOxumi`|8?$Yo+ib^i-!w9l~^;v<-+<H?#AU0){>KSKHH{YT?Ttv5kj&cpzD5do+pC5^evI|(apcXoE^2d;r%u(RDO6cy=k1+jR-;#+a11?qLzb_+%(r}UT3ibn8JEEN}?OPT^)V!4D!pZk{bs41nRlVo)&wKr$5Gnp*{h@S`u%x9F;3t=<%oKaKBJXGe6fYC_pve3;gl&B=sPi!3Bde9&WG#>h<VV|aj*Y}}Xp=DCt2;OdYMV!2Z_@pgB_s6D)?h$kk266vbS~wYk26$u>u+WEZ6mCV@Q8f)Qn(=iLoq!gp<OO((qRFA<F+>oETH}c{5)5=^UZHT!Q>Wl*f%zsNR8qA4(dqD+dw>CR=P91%7)FrHNzZQr187r>l(tbKqGLepY)fE0f%%ZKqRSTsc$#quMN6IiL*M8Vi6nX<;H;yNp7P4fGQsG6>qow;xnP~Z2{tn&_ka_{76UmD=VT&6kHBn^YE&8BX)q^i&$^9JWKGNv=D(E6b^VUKs}Nyg?08Z|CA-y5MSeAlPuOP>smUtFDbDQ5F`dN`xju_o-01bUe(`=~`dV6_ImvY>V9JRWvskc@zr>Rnm9mPAyzNo9nNP}p{mJ<kpVFu2|Mj2GfA<Z2diM13`EP!;@&bqKpYS-Z3wbD(eaVX)SI1%0?3p0`98yz10kG{Q0JgU#MGjAt>siKW>cmLAA*r2!lSSTg?#+|V_M*QpPRm{k>|i!Ye=IY8<;1p6q>$7Q2H#XYx>{to*=R(X=zBVbP`Rm`oUbXBM%;)Y1-ec1aw0mr130M$W;AtZ-JmRZHslLUG;>g&y=x|^X{Ro~I1yZl<$N;u*I&K(^p6w>J)}h`z7fBcI7=_oLc6Mr7L6WxY)T$1MuVgyPd=0BF9#vCIzYw)pbRY4kOS3F$KF*Oo#v_nm6|-Oq~E46o4r|_P(b9ofpfMj>t<$1G@@%DJk|-`4y7CfFt3OMd*^<~pL^k0=fC~<#qYj-{^iH#-~NH7agatLd`P*{x%<-oL>1H{_57b6zxd;)81Uk^-%y)9!fh$zwd8V=rz(@HAv6vC;P$(3*0Uaz<hSKb5+BRpOd)r)!WRbEhqng<!xtV%iQyE|u`88j=UU3r*V%D!BbPz-y>=C+BQ~)d;zV#t08H?<du=wYem+6#-Z52ids%GTKA=|ybd%`fZc+&bO6kD1MN!?X2Xy&&Ji>1K3JP7Jav6!$c3wOdV&E$cYEV+kzuEAre{)TaxvS`kmE#L*LGC(x`~Im{7rJzHsG9WryN~}xbzADM|Hp6LQV086`>(w+?Hjd=T?9-4DI_$Y`=C;f>FLN{;q%$##5w_e<@LVPk-w|ruclEB#8a}`<P$Cx#-6^Xqd1W(M<6Wub7(kS>^-c7`aY}arw)B#)bj%$$M@!f+TOe%Rb4cD?U%ReI(tCEd>IluIw+sFJM=u{XbI2q9bnqjTkqXx_8%2D_Uf1N2Ab*%7}|r$;WyoudZ)bQxOB-8d;8_xx8MHx`vSU)tB<qkE7JM8;tt`$ArI9ZX;Se$uoQ!|+pno6vAl8vG}sG<I`u1ttx}9iYQYy1@QKVY(^1*-e^x5%>(n3X<;Ul(XqY(Y_d>O^vZqp#R+oyYucO-7q^16eY3Ui+Jh+@Dr|jhpRLp&IbVnd+aXP=!Qb7KTy9ua@M?G|H^%~R-(?aUFBqL;Jv_PsTs}xOWKT<2lb?$1=fk1aUh#Z1S2ELh!Z;8?2<rq?R;^N|w&*@T@3P7+*qn?fCM52X;L2g+l%(#5PhlGa+n!++=<9ZXn)G_(RsATod-_{&<!M(Z*{y~5unI5hiI!_O7)}ot1G~22Rco+O50S`9hC5}DAhx5<>_xYbcIsg1y?hUKn-diqB6yoa1?>7*-^fz8Iv44es8DQy>UXkYyUIQLu#Xk^mb0NLI)H2?=sM1t*fNT%xpF!aJFnw73RE`OV8e5!WO)I$@86y=b2a)=Jw59WH"
