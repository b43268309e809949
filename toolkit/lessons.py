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


def _consents(tk):
    from .reports import consent_summary

    report = tk.user.consent_report()
    return report, consent_summary(report)


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


_LIVE = {"00.2": _live_00_2, "00.3": _live_00_3, "01.4": _live_01_4, "01.5": _live_01_5,
         "02.3": _live_02_3, "03a.1": _live_03a_1, "03b.2": _live_03b_2, "03b.3": _live_03b_3, "05.4": _live_05_4}



_RULES = "c-qxlPj4f~mH#RQ0Si)qMiD7Wo{=yIJMh9rvW}4qkb^N0irq!B&F(I`t6LOd3@}ON5CjPlATf{x&cc^nZvq25dx+tKZ~IMhoY8!T{k`|9`VUD-BafZ6=b$00yQ<#*_j|93AMP9+><@NM)Q3CfVv*`3$LF1Xw0ok;nNg*+={zabJhw~7BV$|TvFZ=-NF5GTtXFPVX$%!+QaR()*i39;l*YgZm2ss?oN^{FPkDN7E=m=dG*xa!OD5(1&Ys$tCwWX8M>Cs5hDK6zZc+>l@YycP#O4m)-rLdia7=$9`V;Rw#NS0>;v_2ZLRnM>1EqFzS}#1n&^fP9pO!i=X|Wxf8<m=}GzAaORxAfikBC-higQq-=Ef|XIy_)z1AnE(w-a^GkJ^bUh@VL3xh<8sNStssrqwVsOY$j+A};J=VPfTy6hcX{g!VGsls8_FW+s~Bb-ybF8DpV+VV&tr@;U9koEf63))3~>BKe8RZLNx_g@SBVDlCS5&vjZE`tFk0uqqxs!oskKAxk1?B`Hnj+DaL=L>$>{QI)16Sglg<Ph>3$8&?sGAa*-`?ZeL6d6kVt{%wt4zqp^{*BjkTt1V(kC*HJ=*81mcUW0pg_m2kq1FU=R_<O_G=*i&Ta33PszkBe#;obJYU^Mb0!-GSN3<ih(rH9+4@%FoFoZ4va_LR{@nvhPSna-z1O_IWu!qQ-iLyo;e>cv74(Yi3=k7VG5iOL?ltkk7Z%cPw7C#-Zl*yf)3YTZF!!4YregX5R=K@Cn}mpY|)U`Xd6-+NLc43?X?2?<1(9jSm%w=@OC85sUD4?OP+-QLklJ2$z4Yb|V&vpjMzUEpPng=5)_w@@?eX>zQW2MYGKh%`9TV9k*h^R7&9@*~<}p_4-OSGFq7KvObFOtGi<D=a5P5Sg0YU^iXYDiLefcgqnR=oxIGfK$?AcoWu*&g^_scd;2))5beS@C*Jo>{>X{=~q;JSB-ard?v{Sf)~Ymm?4X~t>t>Tfh?j~_Rs(O%gaw6<NYMwQ<K7Gs?iaA$U&_zLNz=g{Yco1;3pXe;pWxu_G)TM*QiBe#zaR<|9c<qI87w&ASbDe6iM8`aiG=|0TzoO-FbzRus0{j-Wk%GmN*QpnLC+IQq|W{1hJQAhQ980<}YWKJvJ`PQjx*u<ccb@Flrbur-+?L4_lroM7Pv>h|ih6I9nph5jPMjjU;(JGCXLhbXg>8Rz}98$XGxrf=EG`ir86N;(9_)i71mt#?_{F)G;-XioMp24N;1BfIm;j!MDVHT21`ts;8`ptq&jF;5{Gqcy8}R?eFjJsh;dpe`T8F+oQnM@kZd)yL$?72!G73n%Ok&hDkQOjdXJzUcn#3-V;a<yVYK%>$lCOn@Oy!ZQWZw`wmgpb}xn=;!TKKvC`ARh$SPKPJln)tKOMLH5~JA?Vi>VmSS2$=_V=nl(Y0s!hsl1&TXW}so@OMhD;&s-Z^ZbN&rC<I6(-i@*d|$2M7ZumfG>U@VPx+R>L%l%tz#g1(1-MNlEA>xb^UgyqP#x(Og=riW9P9L{;a6MVCx-T~<Yi@F7t)k))sGKuSq`HaDx?y_#2&P2h6`yzuQypG7jAm0Q_I^a-g{=`kTf3PdD|pqWN2EfflP+RdDPZM-6T5ePkPrAxL;Qn(}30;#5eC`HH)49gnr4Q~}vOi^sjb|J&zxh)!}3OW>u#jm`yTI${8YYl*RM8mQOvwiAsXEH|P1>2BMfnqNr;Upj13vX_58?mYJit)<#Ed|~3&V$uLJgi0~abumQTobgc6*EmbX<*<_-h9v_>GN8u#9ChB1Q#oJ1sErxjX046DGd)uKlEQ<%{wog5v7DclQ<9s(?X2O*?J(jsflUVN86x9D_#ppb%cfrJMnqA25>e_WY94YN}$O(<NmFwB@q1;vrAaMrZ=p&M)YV)Qel1eV@WAw4~T0@!;iBCG*7s5k7S(tXnCq)lVUH#0+Oh>Y@>rc4#&%Yekn4=$t!27c9H@vHU&aaxt6BlSI<zKhuPp$4deGhfK7RpS5(-b#145Q#4WOWpRpj<y_)l^qJlt|(M(koq47G_U+PsibftF6^teWDP*4eD&075mv0brhyh$zugrqsxc}U29yyu-0inP^q)>$q@xI^s|)YY}`@LC7q1`5w%AY9r4735A>`>WOLqRZD)b3xx;Pkq{Y`+Rj(5t}E`Jl9!k=fkaOmu6&18LFrd^s^+6ff%q5;4TUnwr537o9L94Oi8Ez)`JJ{0=OPXAoIg#Nj|Z=Yn>#=*yYtaN#9HcX3`zm1vvB3qLA3hoCov(Hcz(5fCW>4HSbA<S=gc!U)QKtDZ#DTGz*-I4a|kMkn4RTZ<Z9Xg3_Fxn%Xs)h?Ek_3eQj>wVFWC>q`W#tyFU-j1^1@6tYjb=S0E^f=~^`#A&WxUnFnVJbj%A`x^{i8&YQz7cnDb!9giVg-o%>0$6Yo7a^QNNSVpF(!w)N-GX`pFsQ{9Th=`9)2O|9F(}uA^SN0_pN}EeNjE$)W(c8kUnEA{pyaEGr;=ex^ir<zR>B29aBRrv2m;gRjFyqWPPk_DqMLwdE}&hRq-mhCwyyCNU|kAtVql~2=G82AE<<e~!Y;KhAgBQU2HMQuOmKMTNAJ8DkW^uyB&x&MX*}cHP$5|EOP@IQFp)Zjxk;H*XIia_Mrw_H5C!b#q(9ecZk(zr=MFL3U9c|l;&u=i`?S((mH4cML|mmQ;mED66ET6*aGH`_aplyIfRX7J3{vgXaMJGo;Kx7p{SvG!idh!}aVmq<sMr`>Z5?HJx-oio5&iIk?E9iBD-xHIqHMlg{?C)=Pkwj#mnZ7-^FKU$`nVZu5AdfKAAQWmQ?t2}vWIwUG{ypoZ)oxiU$x1jrNcu3fxSi-b5jzGDvi!me@K2d+UWB@|A)7LELZg~J!lD>(#j*fB>?DMKCVcuv>136^l~^F_%1Lo#N{VXUi|j6=fC~asp>hzp;Q+=@-ZKJu~gWOre%x+jljrie8)fP<JlefJpFgHr~dKyKX<9#xPaJuib<E4&+}x?*A_q~I(6pi{*TPOA%fJohe?LobOAQS#ZyGaJE@o~Jdb-B)=C1vuw$kNuW<ln{-w>iF{=wLIvWXa5llCME2}<{Nw9qdJTNtKSW$#r#Be>6Q!^$qgqM-NWznx=n0!JAyhM7rw*HT8-s)Um{`u+UCm#=BHl5NR!!)#3v!`YXKtl_t{u`ka*4a6fwp325w>&#M?RGS6p(l{JM$_8<Lfl)PI3c)A(;F{SZu7LJAKKZWQ^Ss~#`xYMB+Y8yxgH%+@e>h<uuINfoEg{|x1)Cs=!~Ggb%}bD1*tU`jFOPCX>JfhX%{2~lr|<w!$~bW5h_wMwZ-bJNyZYEXdMCd?-MkW#91_lNTch3cocv*151K`qKUy#1M(;T`&TD;soAi}u|zU!j$Vf1JmHM=Y@Q-)W^~L{coq$J^2SNd&=i%O9DCrEe@43@`g#z1rWYzM^wKqA>kop>?uMm=;ZWl=RT$zRS9Zu$F|?NH74PIFEnD-NaT5DJIpowd!nLe1(-a&Po$(arMEOx~NYg}4JF$i<HMMN}+P^BBU$8<~pa2xtrg9ako*K(%siN!%pq(`9mHt6x0ikI*M|~D{M~c&~%FK7B)^3_%t}baq*~JNt>LE#jMU{62(Ku<46G>ITS!&DzNEtN@gn}G~+V+GhC+{|ELYtD$w6rn2*>S1FN2TR~2{lQUqV)oDaK0F%#2i2r9Wch!BMzMfPU>7~`2n%xQ*mE*3IrCLVRD2rn|lAtS>i47+wZVkg8I|dgiqdoVr-TAV+zP;Y%h9F0SBkt9DSq0AcrsVE@;f3arunoZ8zQuY#eAy4S8*A)BXW{Jd~D}73Zg#m|B(%rbKOD1ZA#kk-CE><~|oV?^ww7NA`m@c<`(3T-V5Z_Qli7fB%nXe}B5(y$iDyweH$7e*XF6%b!2J{PfAQzkkLDhOO@$qc~tvRu5L>56<|kf&@$VM;6pjpvFdcsm0>PVSA|MI$Psq*4+DWlupqEOKqs%PS9F)IXKu-mewyT>M9F9U7L4w?X*y@S>MOhi}h{y?=}m_4FI_fKvg}pA{KIciw+dkzwELeEou2+|KR9$<=?$mtNswg7d>tUAWfkf8vf()?>CD-sP1;B{9_am^J@;21}(EYsQr(t2JY3!*)N?`JN1r!M=%RMsQdR-uSa(FuT(qviyxc@>2BUxY$m!&%d=eH=NFJGF)=0}d>?j0XSS}sH!|Sh?#;8YpsT6Aci1BP-n|-_w;F!b=;%q`^F$p>|FbX)BS<g=-#*V!a^AuB0J;7~hzSYYEfAvOYiMa7$layKU~ivXW6|G5D&<QsA?Q=*@dQSfCjL}N3OfWRBr3KWmhbyk8uOV5l))^K(Gl9P7TQfUMJ>_h+67rf{Y_ZxR2N5U$09eG8J+uIBcs>27DIi6@N|}4@uG`#D)l3ruY3P!o^|dfNXp3!kQWJnZlvT1AM<8m$HU{}AwA$T@ayb<^b)6v#9b{dUa|gGGqonZ;g#0~V^dQ9OBeMG(^(=%F1(i93UI0AGer6vS!$%_)Q?Wn?Y-3TiqTG1ts{tU2?{JL>gt8M88jDkt7H|9=1u|9$nT19O;#k)>ZqUFB)<P%k0j80=<jFxJ}uI|uhnWdljDt$?vAz;${UbR?gi**ZtC(LRrh3)L}zk`lQC$(M>d5Def>uDR;(Qzr=dtQ{@_HXkVP(y0VYvgIox>+B?QXWB$Jy26YXy=d^hSfFP&PaHR#JAsI<QKN8I6a3}qu`xmAwQ64MBiIn|fl9q<=s%Dqt%qGLqt?5^N?Li3?#MYp;Q05t;>DwhU#Py9`vSS-;S0k<7R^wd~pl?h1qq>C%HR3~_X<4mJH07VJLfDWWNS%}~xKwGSOZAA}ytjW&Uuoq5QQ!_>UZ>;jF3y(}yC^0d2p0#1gQTwVQzgi^coU};P6c&>lJiBJjV0}iZFA_F4di@7K{%LFZPG6rj$p=vYm6?{XSgVk~Bw0mgS#?X^j_JCY@5+Dvhs#esqEFBN_FvC`^96l+_Vn@PFMierllA>zp`QRb?+bgVx4j(@yZhCF7~S?vQGiY>BM9tp1A!f1(IZDHDs@$GpE@;Ca7b?_0A;bak}v0t4FY^~!7s_1%NC%Z%JP3!7=P)`w(q2n)es2ZQ)Bwgg5ldnGx9`#sbdP4TL|a;`-dio8wsR<w|UttM7%qolXhiBONYA~)CMo6{7VU1Ik?a9ExXi2sVlGV1h<Mg-wpoxXD>ebBUM5VX;Uh2B(J5;(hHs1u5F|BO^-4$jSkk!LGqC&AItJLgAm#sAmcrt3~bdChB~O@_+=8E=3@mqYx1g+3paJx99Kz76_N7+&e`T%w=h$Z(F(rFbDaS0aF&A#<~x$W{_VlQ^S#E_<*$DE;x}JD|MZuaU;dt!aj-@beCW9n-;vyZq9fE(_59b5U;ObSOnC9DFX)~<>TNm4+f_+Rsw}Ra$TZ}G*WZ1++xDO?zioa>;)@yj#g1<tZOMfJ_TlZx#PBa3$cd2@^0{lAWppcNiF9!m(#TC%{rI2_)KQ#Ru5n@{B>*O5+v5Wct$sa$>pn5HfqQe>_8Mg&gn74qKYiU{r5b3g!&PH|O7T_s{Qt<s(ZNgjbW6}pHP)fL9u|4vD^2QAW6QtUgZDrBKa<rO)B"
