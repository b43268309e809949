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
import contextvars
import copy
import decimal
import hashlib
import json
import math
import numbers
import re
import unicodedata
import zlib
from dataclasses import dataclass, field

__all__ = ["check", "answer", "exercises", "Answer", "Feedback", "LEVELS", "TASKS", "RESET", "watch_kernel"]

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


def _off(answer: numbers.Number, value) -> float:
    """``abs(answer - float(value))``: how far a number answer is from ``value`` (typeshed's ``numbers.Number``
    declares no arithmetic; the numbers that reach here, a Decimal made a float first, all subtract a float)."""
    return abs(answer - float(value))  # type: ignore[operator]


def _number(answer, rule) -> list[str]:
    answer = _plain(answer)
    if isinstance(answer, str):                 # "3,145", "nine", "42 minutes": the one figure of the text
        from .prose import numbers_in

        found = [n for n in numbers_in(unicodedata.normalize("NFKC", answer).casefold()) if not n.ratio]
        if len(found) != 1:
            return [f"a number is wanted, not text ({answer[:30]!r})."]
        answer = found[0].value
    if isinstance(answer, bool) or not isinstance(answer, numbers.Number):
        return [f"a number is wanted, not {_kind_of(answer)}."]
    if isinstance(answer, decimal.Decimal):     # a Number that does no arithmetic with a float
        answer = float(answer)
    want, tol = rule["v"], rule.get("tol", 0)
    if isinstance(answer, float) and math.isnan(answer):
        return ["the answer is NaN: the number was not computed."]
    if abs(answer - want) <= tol or any(_off(answer, v) <= tol for v in rule.get("also", {})):
        return []
    for wrong, why in rule.get("why", {}).items():
        if _off(answer, wrong) <= tol:
            return [why]
    unit = f" {rule['unit']}" if rule.get("unit") else ""
    scale = rule.get("scale", {})
    for factor, why in scale.items():            # a known slip of units (m for km, s for min, ...)
        if abs(answer - want * float(factor)) <= max(tol * abs(float(factor)), 1e-9):
            return [why]
    if _TRY.get() < HINT_FROM:                  # no hint that halves the search before the third try
        return [f"{answer:g}{unit} is not it yet: re-check how you got it (from your third try on, the check also "
                "says in which direction it is off)."]
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
    if got in {_norm(v) for v in rule["v"]} or any(_same_name(answer, v) for v in rule["v"]):
        return []
    for wrong, why in rule.get("why", {}).items():
        if got == _norm(wrong) or _same_name(answer, wrong):
            return [why]
    if any(_norm(v) in got for v in rule["v"]):
        return ["close: the right name is in your text, with more around it; give just the name."]
    return [rule.get("else", f"not this {rule.get('noun', 'one')}.")]


def _same_name(answer: str, name) -> bool:
    """Whether ``answer`` writes the name ``name`` another way: romanised (기장군: Gijang-gun, Gijang; 우제1동:
    Uje 1-dong), without hyphens, spaces or case (:func:`toolkit.prose.romanise`)."""
    from .prose import _aliases, _key

    if not isinstance(answer, str) or not str(answer).strip():
        return False
    return _key(answer) in {a.replace(" ", "") for a in _aliases([str(name)], "district")}


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
    want = [_norm(v) for v in rule["v"]]
    names = [str(v) for v in rule["v"]] + [str(v) for also in rule.get("also", []) for v in also]
    answer = [next((n for n in names if isinstance(v, str) and _same_name(v, n)), v) for v in answer]
    got = [_norm(v) for v in answer]
    for also in rule.get("also", []):               # another right answer (e.g. the exact values, unrounded)
        if sorted(got) == sorted(_norm(v) for v in also) and len(set(got)) == len(got):
            return []
    lines = []
    if len(set(got)) < len(got):
        lines.append("some items appear more than once.")
    extra = [v for v in answer if _norm(v) not in want]
    missing = len(set(want) - set(got))
    if extra:                                   # how many, never which: no answer by elimination
        lines.append(f"{len(extra)} item(s) should not be there.")
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
    wrong, missing = sorted(set(got) - want), len(want - set(got))
    parts = []
    if wrong:                                   # how many are off, never which letter: no answer by elimination
        parts.append(f"{len(wrong)} of the claims you picked {'does' if len(wrong) == 1 else 'do'} not hold")
    if missing:
        parts.append(f"{missing} claim(s) that hold are missing")
    if parts:
        lines.append(" and ".join(parts) + f": re-read each claim against {rule.get('evidence', 'what it is about')}.")
    if wrong and _TRY.get() >= HINT_FROM:       # from the third try: what is wrong with one of them, still no letter
        lines.append("one that does not hold: " + rule.get("why", {}).get(wrong[0], "look again at what it claims."))
    return lines


def _facts(answer, rule) -> list[str]:
    """A write or explain exercise: a text for a reader, judged by the facts it must state, each bound to its role
    (:mod:`toolkit.prose`: a figure to what it counts, a name to what it did, a claim not denied), in the learner's
    own words. The feedback names each fact that is missing, misplaced or contradicted by its role, never by its
    value."""
    from . import prose

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
    return lines + prose.judge(answer, rule["facts"], rule.get("names") or {}, rule.get("groups") or {})


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


HINT_FROM = 3
"""The try from which feedback narrows the search (a number too high or too low and by how much, what is wrong with
one claim): before it, the feedback names the part and its role, not the direction."""

_TRY: contextvars.ContextVar[int] = contextvars.ContextVar("toolkit_lessons_try", default=HINT_FROM)
_TRIES: dict[str, int] = {}
"""How many times this kernel checked each exercise (``check``; a walkthrough's answer box does not count)."""


def _judge(key: str, answer, rule: dict) -> Feedback:
    """The feedback to ``answer`` against ``rule`` (the stored one, or the one computed from the learner's world).
    A wrong answer that is right in an earlier state of the learner's world (``rule["then"]``: a rule and what
    changed since) is told that its world changed, and how to go on, instead of what is off."""
    lines = KINDS[rule["kind"]](answer, rule)
    if lines:
        for then in rule.get("then", []):
            token = _TRY.set(HINT_FROM)
            try:
                right_then = not KINDS[then["rule"]["kind"]](answer, then["rule"])
            finally:
                _TRY.reset(token)
            if right_then:
                return Feedback(key, False, [then["said"]])
    return Feedback(key, not lines, lines, _notes(answer, rule) if not lines else [])


def _notes(answer, rule) -> list[str]:
    """What a right answer that took another accepted form is told (``also`` of a number)."""
    answer = _plain(answer)
    if rule["kind"] == "record" and isinstance(answer, dict):
        return [note for key, part in rule["parts"].items() if key in answer for note in _notes(answer[key], part)]
    if rule["kind"] == "number" and isinstance(answer, numbers.Number) and not isinstance(answer, bool):
        if isinstance(answer, decimal.Decimal):     # as _number compares it
            answer = float(answer)
        tol = rule.get("tol", 0)
        return [note for value, note in rule.get("also", {}).items()
                if _off(answer, value) <= tol and abs(answer - rule["v"]) > tol]
    return []


def check(exercise_id: str, answer) -> Feedback:
    """Check ``answer`` to exercise ``exercise_id`` (e.g. ``"04a.2"``): ✓ when right, else what is off.

    The feedback names the part of the answer that is off and how (wrong type, wrong key, how many items or claims
    are off, a known slip; from the third try of an exercise in this kernel also whether a number is too high or too
    low and by about how much), never the right answer and never which item or letter to drop. Where the answer
    depends on the learner's world, what is right is computed from it now (see the module's docstring); where that
    world has no answer for the exercise, the feedback says why and how to start again. The verdict (the exercise
    id, right or not) is told to that sandbox, for the teacher's progress table in a class.

    >>> toolkit.lessons.check("00.1", "c")                               # doctest: +SKIP
    ✓ 00.1 — right.
    """
    key = _known(exercise_id)
    _TRIES[key] = _TRIES.get(key, 0) + 1
    token = _TRY.set(_TRIES[key])
    try:
        feedback = _verdict(key, answer)
    finally:
        _TRY.reset(token)
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


# ------------------------------------------------------------------------------------------------- the kernel's cells
_KIND = re.compile(r"[A-Za-z_][A-Za-z0-9_]{0,59}")
_WATCHED: set[int] = set()
_SHIPPED: set[str] = set()


def watch_kernel(shell=None) -> bool:
    """In an IPython kernel (``shell``: the running one by default), tell the learner's sandbox the *kind* of each
    error that ends a cell of the learner's own code: the exception's class name (``KeyError``), never its message,
    its traceback or the cell's code. A walkthrough's cell run as shipped is not the learner's own (its errors are the
    lesson's, e.g. 00's ``history(days=90)``); an interrupt is no error. Sent as a self-check's verdict is (one attempt
    of at most a second, :meth:`~toolkit.client.SandboxHandle.note_raised`); it never fails the cell. In a class the
    teacher's progress table shows each student's last one. ``toolkit.connect()`` calls this in a kernel; registered
    once per shell. Returns whether the shell is watched.

    >>> toolkit.lessons.watch_kernel()                 # doctest: +SKIP
    True
    """
    if shell is None:
        try:
            from IPython import get_ipython
        except ImportError:                           # pragma: no cover - IPython comes with Jupyter
            return False
        shell = get_ipython()
    events = getattr(shell, "events", None)
    if events is None:
        return False
    if id(shell) not in _WATCHED:
        events.register("post_run_cell", _after_cell)
        _WATCHED.add(id(shell))
    return True


def _cell_key(source: str) -> str:
    return "\n".join(line.rstrip() for line in source.strip().splitlines())


def _shipped(source: str) -> bool:
    """Whether ``source`` is a code cell of a walkthrough as toolkit ships it (whitespace at line ends aside)."""
    if not _SHIPPED:
        from .walkthroughs import source as walkthroughs

        for path in walkthroughs().glob("*.ipynb"):
            try:
                cells = json.loads(path.read_text("utf-8")).get("cells", [])
            except (OSError, ValueError):
                continue
            _SHIPPED.update(_cell_key("".join(c.get("source", ""))) for c in cells if c.get("cell_type") == "code")
        _SHIPPED.add("")
    return _cell_key(source) in _SHIPPED


def _after_cell(result) -> None:
    """IPython's ``post_run_cell``: an error raised by the learner's own cell code → its class name to the sandbox."""
    try:
        error = getattr(result, "error_in_exec", None)
        if error is None or isinstance(error, (KeyboardInterrupt, SystemExit)):
            return
        kind = type(error).__name__
        if not _KIND.fullmatch(kind) or _shipped(getattr(getattr(result, "info", None), "raw_cell", "") or ""):
            return
        from .client import latest_client

        sandbox = getattr(latest_client(), "sandbox", None)
        if sandbox is not None:
            sandbox.note_raised(kind)
    except Exception as exc:  # noqa: BLE001 — recording is a courtesy: a cell never fails for it
        import logging

        logging.getLogger(__name__).debug("the kind of a cell's error was not recorded (%s)", type(exc).__name__)


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
        def value(f):
            if f.get("number") is not None:
                return f" ({f['number']:,g})"
            names = (rule.get("names") or {}).get(f.get("entity"), {})
            return f" ({', '.join(str((names.get(i) or [i])[0]) for i in f['is'])})" if f.get("is") else ""
        return "A text that says " + "; ".join(f["say"] + value(f) for f in rule["facts"]
                                               if not f.get("decoy")) + "."
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


def _fact(rule: dict, fact_id: str) -> dict:
    return next(f for f in rule["facts"] if f.get("id") == fact_id)


def fill_00_2(rule: dict, overall: float, products: dict[str, tuple[str, float]]) -> dict:
    """00.2's rule in a world: the products' availability together (``overall``, %), and each product (productId →
    (name, availability %)): the least available ones are the answer, and every product's own figure is a decoy
    (the overall figure given to one product is that product's figure, not the overall)."""
    lowest = min(pct for _, pct in products.values())
    _fact(rule, "overall")["number"] = overall
    _fact(rule, "least")["is"] = sorted(pid for pid, (_, pct) in products.items() if pct == lowest)
    rule["names"] = {**rule.get("names", {}), "product": {pid: [name, pid] for pid, (name, _) in products.items()}}
    rule["facts"] = [f for f in rule["facts"] if not f.get("decoy")] + [
        {"id": f"product:{pid}", "decoy": True, "number": pct, "unit": "%", "tol": 0.005, "round": 0.1,
         "names": [name, pid]} for pid, (name, pct) in sorted(products.items())]
    return rule


def _live_00_2(tk, rule):
    week = tk.status.weekly(days=7)
    products = week.availability[week.availability["apiId"].isna()]
    counted = int(products["counted_min"].sum()) if "counted_min" in products else 0
    if not counted:
        raise _drifted("no product time was counted in this week's update")
    overall = round(100 * (counted - int(products["down_min"].sum())) / counted, 2)
    fill_00_2(rule, overall, {str(r.productId): (str(r.name), float(r.availability_pct))
                              for r in products.itertuples()})
    lowest = products["availability_pct"].min()
    least = products[products["availability_pct"] == lowest]
    return rule, (f"In your sandbox now ({week.window}): the products were available {overall:.2f}% of the time "
                  f"counted; the least available: {', '.join(sorted({str(n) for n in least['name']}))} "
                  f"({lowest}%). A text for a manager says both, and that the days are UTC days.")


def _utc(unix):
    import pandas as pd

    return pd.Timestamp(float(unix), unit="s", tz="UTC")


def _product_red_days(tk, end) -> int:
    """The products' RED days in the seven whole UTC days before ``end`` (a UTC midnight), from the status history."""
    import pandas as pd

    rows = tk.status.history(start=(end - pd.Timedelta(days=7)).date(), end=(end - pd.Timedelta(days=1)).date())
    return int(((rows["apiId"].isna()) & (rows["status"].astype(str) == "RED")).sum()) if len(rows) else 0


def _live_00_3(tk, rule):
    """00.3 checks its step: an outage that began today (the learner's, or a teacher's) is not a whole day yet, so
    the answer waits until the clock has moved to the next day. A count that was right before the clock moved on
    (the seven days' window moved with it) is told its world changed."""
    import pandas as pd

    now = _utc(tk.sandbox.clock()["unix"])
    today = now.normalize()
    begun = [i for i in tk.sandbox.incidents() if i.get("status") == "RED" and _utc(i["start"]) >= today]
    if begun:
        first = min(begun, key=lambda i: i["start"])
        raise _Unanswerable(
            f"the step is missing: the outage of {first['api']} began today in your sandbox "
            f"({_utc(first['start']):%Y-%m-%d %H:%M} UTC) and the clock is still on that day ({now:%H:%M} UTC), so a "
            "weekly update, which counts whole "
            "days only, cannot count it yet. Move the clock to the next day (tk.sandbox.advance(days=1)), build the "
            "update again and count.")
    week = tk.status.weekly(days=7)
    rows = week.days                    # the day counts (a day's worst status); .availability is time
    products = int(rows.loc[rows["apiId"].isna(), "RED"].sum())
    every_row = int(rows["RED"].sum())
    rule["v"] = products
    rule["why"] = {str(every_row): "that counts the API rows too: count the product rows (apiId empty)."} \
        if every_row != products else {}
    red = [i for i in tk.sandbox.incidents() if i.get("status") == "RED"]
    newest = max((_utc(i["start"]).normalize() for i in red), default=None)
    then = []
    for back in range(1, 4):            # the windows of the days since the newest outage's day became whole
        end = today - pd.Timedelta(days=back)
        if newest is None or end <= newest:
            break
        count = _product_red_days(tk, end)
        if count != products and all(t["rule"]["v"] != count for t in then):
            then.append({"rule": {"kind": "number", "v": count}, "said": (
                f"your world changed since you counted: the sandbox clock has moved on to {now:%Y-%m-%d %H:%M} UTC, "
                f"and the last seven whole days moved with it (your count fits the week that ended "
                f"{end - pd.Timedelta(days=1):%Y-%m-%d}). Build the update again (tk.status.weekly(days=7)) and "
                f"count, or {RESET}.")})
    rule["then"] = then
    return rule, f"In your sandbox now, this week's update counts {products} product-day(s) of outage (RED)."


def _consents(tk):
    """The consent report of the learner's world now, and its summary with the consent log (``n``: users asked)."""
    from .reports import consent_events_frame, consent_summary

    report = tk.user.consent_report()
    return report, consent_summary(report, events=consent_events_frame(tk.sandbox.consent_events()))


def fill_01_4(rule: dict, linked: int, email: int, who: list[int], users: dict[int, str]) -> dict:
    """01.4's rule in a world: ``linked`` users, ``email`` of them sharing it, ``who`` withdrew most recently (user
    ids), ``users`` every demo user's nickname (id → nickname: a name the text gives that role is read among them,
    in Hangul or romanised, or by id)."""
    _fact(rule, "linked")["number"] = linked
    _fact(rule, "email")["number"] = email
    _fact(rule, "who")["is"] = sorted(str(u) for u in who)
    rule["names"] = {**rule.get("names", {}), "user": {str(u): [name, str(u)] for u, name in users.items()}}
    return rule


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
    fill_01_4(rule, linked, email, who, names)
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
    rule["then"] = _since_junho_agreed(tk, report, users, agreed)
    return rule, (f"In your sandbox now: e-mail consent {agreed - 1} of {users} linked users before, {agreed} of "
                  f"{users} after 준호 agreed.")


def _since_junho_agreed(tk, report, users: int, agreed: int) -> list[dict]:
    """What 01.5's answer was when 준호 last agreed to his e-mail, when the consent log has changed since (a login, a
    consent, a withdrawal): a count of that moment is told that the world changed, by whom and when."""
    from .reports import consent_events_frame

    events = consent_events_frame(tk.sandbox.consent_events())
    if events.empty:
        return []
    mine = events[(events["user_id"].astype("int64") == JUNHO) & (events["scope"] == "account_email") &
                  (events["kind"] == "consent")]
    if mine.empty:
        return []
    at = mine["at"].max()
    later = events[(events["at"] > at) | ((events["at"] == at) & (events.index > mine.index.max()))]
    if later.empty:
        return []
    linked = {int(u) for u in report.index}
    first = events.groupby(events["user_id"].astype("int64"))["at"].min()
    users_then = users - sum(1 for u in linked if u in first.index and first[u] > at)
    email = events[events["scope"] == "account_email"]
    agreed_then = agreed
    for user, rows in email.groupby(email["user_id"].astype("int64")):
        before = rows[rows["at"] <= at]
        then_ok = bool(len(before)) and before.iloc[-1]["kind"] == "consent"
        now_ok = rows.iloc[-1]["kind"] == "consent" and user in linked
        agreed_then += int(then_ok) - int(now_ok)
    if (users_then, agreed_then) == (users, agreed):
        return []
    names = {int(u["id"]): u["nickname"] for u in tk.sandbox.demo_users()}
    what = "; ".join(f"{names.get(int(r.user_id), r.user_id)} ({int(r.user_id)}) {'withdrew' if r.kind == 'withdraw' else 'agreed to'} "
                     f"{r.scope} at {r.at:%H:%M} UTC" for r in later.head(3).itertuples())
    more = f" and {len(later) - 3} more" if len(later) > 3 else ""
    parts = {"users": {"kind": "number", "v": users_then}, "before": {"kind": "number", "v": agreed_then - 1},
             "after": {"kind": "number", "v": agreed_then}}
    return [{"rule": {"kind": "record", "parts": parts}, "said": (
        f"your world changed since you counted: after 준호 agreed, {what}{more}. Your counts fit the moment he agreed; "
        f"count again now (run your cell again), or {RESET}.")}]


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
    _fact(rule, "stored")["number"] = len(stored)       # how many users the file stores
    _fact(rule, "spent")["number"] = total              # what they spent together
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
    for fact_id, value in (("km", km), ("minutes", minutes), ("fare", taxi)):
        _fact(rule, fact_id)["number"] = float(value)
    try:                       # the hour only annotates the answer: a clock not readable does not fail the check
        unix = (tk.sandbox.clock() or {}).get("unix")
    except (ToolkitError, OSError, AttributeError):
        unix = None
    at = f" at {pd.Timestamp(unix, unit='s', tz='UTC').tz_convert('Asia/Seoul'):%H:%M} KST" if unix else ""
    rule["then"] = _trip_at_six(rule, unix)
    return rule, (f"A text that says: {km:.1f} km, about {minutes:.0f} minutes{at}, a taxi fare of {taxi:,} KRW, and "
                  "that the time is the sandbox's estimate from a traffic model, not observed traffic.")


def _trip_at_six(rule, unix) -> list[dict]:
    """05.4 when the sandbox clock is no longer at the lesson's hour (advanced, or ticking): the trip as the lesson
    computed it (the rule's ``lesson`` values, a fact of the read-only city at the lesson's frozen clock; the
    traffic follows the clock, and the service answers no trip in the past), so that a text written then is told its
    world changed."""
    import pandas as pd

    lesson = rule.get("lesson")
    if not unix or not lesson or int(unix) == int(lesson["unix"]):
        return []
    now = pd.Timestamp(unix, unit="s", tz="UTC").tz_convert("Asia/Seoul")
    then_at = pd.Timestamp(lesson["unix"], unit="s", tz="UTC").tz_convert("Asia/Seoul")
    then = copy.deepcopy(rule)
    then.pop("then", None)
    for fact_id in ("km", "minutes", "fare"):
        _fact(then, fact_id)["number"] = float(lesson[fact_id])
    return [{"rule": then, "said": (
        f"your world changed since you computed the trip: the sandbox clock is at {now:%Y-%m-%d %H:%M} KST now, not "
        f"{then_at:%H:%M}, and the traffic follows the clock (your text fits the trip at {then_at:%H:%M}). Describe "
        "the trip as it is now (run your trip cell again), or put the clock back at the lesson's hour with the "
        "lesson's first cell.")}]


def _live_07_4(tk, rule):
    report, summary = _consents(tk)
    if report.empty:
        raise _drifted("no user is linked to the app")
    summary = summary.set_index("scope")
    if "account_email" not in summary.index or not int(summary.loc["account_email", "n"]):
        raise _drifted("no linked user was ever asked for account_email")
    row = summary.loc["account_email"]
    _fact(rule, "linked")["number"] = len(report)
    _fact(rule, "share")["number"] = 100 * int(row["agreed"]) / int(row["n"])      # unrounded: 7 of 8 is 87.5
    return rule, (f"In your sandbox now: {len(report)} linked users; {int(row['agreed'])} of the {int(row['n'])} "
                  f"asked agree to share their e-mail ({float(row['rate_pct']):g}%).")


_LIVE = {"00.2": _live_00_2, "00.3": _live_00_3, "01.4": _live_01_4, "01.5": _live_01_5,
         "02.3": _live_02_3, "03a.1": _live_03a_1, "03b.2": _live_03b_2, "03b.3": _live_03b_3, "05.4": _live_05_4,
         "07.4": _live_07_4}



_RULES = "c-qxH{g2zmmH*0kfncR(y_K{dv3C&&NzQi-+PX#KLve7o#z-7Vj3`p&P`g$_1CHwpj3mAEBfdJhb>ISNlNN5zmpW;R%l*{<q(55n|8VbPh8$AVeq54XU7%TUNDkk;@Au}t@vAG1#(HyQN4&bCu8srghwyu))~)Y|WS~S6MZwTd#4wBwG>vqkN$81M6K;u(rtsuc*M)?kSoJ1aY0*)=C{{wkz>g+MC&Jf4t1#K6*F$wR5nUAoLJx3CKUrT{6DvbM^zg&oLF9K8js$971u)cv-_bbnqfo=u<rRrHJNTb2{>NL{ga3|W<@wzN9!TPef`LTpA<k!Sz|cO;kG~FNnBZh9QK&?ql0?NcJeU$5B;G<;wTkxv8ZlIAti?uy7Hij+L~yku&YRJwCt_SrSB7Df2zAxhys{3?215fs>?10?I2w<YC$t{`QUaJl8k{cT8y@ctRCfrEo38>QJ(y^nmrii{;Sj%mFi;3pMj?0?Ckb~%7-gjBM?j!xk_ea#zPm4jiNb5`dx}VL?HWuB9MK|7^kkP1bs3NXvm$<hS>OqSU7(<l`_d0&Cs5+R0x*svZvt<^YWfNW;x>^BARr3<;0GQ11pLHX@F&_=u?&KIpm1R)%164<sN;vqb6)7ik#=VEL->9oomqgr6Il2tA2Aem-U6<Rr$j7gW(~MH7({`}#}1s|(Zm8azjt%~@k9P~`1t3yX21BLJ->U0c+@9)nRVhL;bhbS&I1BXf&i{#q+5n!EvJ?bEw)xIvi-nMrUIuTd><$^ToW+sBIZTysXBfui2|Cr(b$5kN$4XjSDsn{a=&V+c`)$113LwiEDDoY##2kSQ3O1c5j;o0!0!)$z4C!h;i?Dgn^wISBDRGGT$+#3H)0j|&ZCbWT%W)H>&rh}-+Q&O)@)sC&tCsI;nd}+KuPzbL3B_6;vk9(mr4!`_Yn%hCIV0brvgG8O8k+tm~jLGn!UOJa&30w59#d2o%w5rb%GtFAE?Mmicr3iF$pb&E_Kcxh9L@65(kpCGQE+bxPq<-tat@99#a-H{U}4-B<UKkfir+4S_bsISy_K%SM~VL&*t}Ti}w8HXOI4PbN=QbQ=!BrLl=QVz>2Je^|q+#1nh*2JyCBLQKwZj;V+in3rV>aWSX9};M_iZ^vUl5oHq|2J-F#e87yceM;W|T!U5sTlL=@;83VTV923M!&#^!)_&t(WuK)*mh_Z7H9Pq<zpos&a91$<Rnvs(!cg?Xz2eF^1f(1$rA`zh!$BLADqC!wdMm>*YDElbGQs^WGl~i9b>Uo1cWFa<+q+~ShM?q7LC#BCyVcs$GZ5HMOAV&)rfVF~t_ZCg8GygtuK=b^$^{wW56Xrd?{q@!}c&B;3wGLKg{aoYgt#j@`b92*-v>F>Q(rj*+hxUp92VhXq&b|0u0kYj4>NTNc9QbI~x&s;ZmFW2(;&w?}?9=RnWdoF2RXR{I8Obp@EM#xVa>29%m_CZ9q6<ox$?v*Dl3g5div*Yf4{bL2FkobnoBsLI3&^OeT9B3jYRO~*0OC7jP%?QPpe;#^xZ<nu8UP~6OG3xtpT2kD!o_v*ocP{_f5^UpH;e_M7f|`|>;Pg2R#1HVxfd^9x^VHii!WTTFVITh7Je~ABM-b(^tD(Al<9n&uVv}(!|XBmS4mEJ$&VH&$Jz;fEOL_Yl0VGLMs&K)SBI%>SI%;}h*?}9dLKcAUKJn|@Tq_<--^02fTt0Ah$;ADb4y$VQ;F<O>Qai<*#VergA!4*CKPPcWQ<AyoGq{(q7SMN9aN29jT5G3=+$%QtAuq!j2#3BE(6s|$k_rQ3Wl4#<#7}fdB!+*FOEhAAZ@*{W`$qgF@Cumj|B=IXfH+*`nj>{CaVN3tl_{<2Ida=eyh6DOAn`IKm7~%<EL`PJ12F;fg2)lPi275fFL1Nj6<CxgJhq*Wy4u6R$!g_067q;iH6>+d7a@lY??$v6(Whp5imE&5jiMeh+txmKSrMbIR+;_g!w`X!CD1Mb4s=f3U)j!;<R;)x+W)3`d|sBz_?ccCco#acumkHXukkriM}%Cp;<By34~nbuZ5r-$WVd@EPT(nqcCsxN;F)gou@jJelF*mpxfzxtwmWkGlI3Bbm|sAJ^w1OItulwW;DB0&ZcYfB&-c*|M~g+!|U+8@2#<X<TL__(m+;VLebhm`gpElF=~b%Eq-2rTkHtf=0cd02R0)lB*+(7o)99ig&2m19fuRHYdTe4z3ql6pb@%>`y3$1@{HpF`F&L5ld&7mur0E)&42me(Z>%QCx-#3iX@ERldS@2qMfy1>~26<al!%mUcq(DX3ztC+fRyEP-ojC&}%qmpuM8(04@q%s;N}z6nz)FjJpqKzkO$Z_j6|@*-OVQgef~R;J{Ci33V3V1}Djdpnmkaz?70LC@%;D1JIiu#B&E<%VN)HD1aJ6CmfZ?S&L)3T^fwlel&FE8c#5)%`QQY0x>}CTikqn@9}$Y(XT&!G=KfAQk;Nf%!342!_p8T61)s`fSwAdYM4Zr$f`?ehhu!+jgrp`5_+`LOR$~9<3*JvP$lJVEs+%*Vc^Oh-p%~rOrdQR6dJ4nfGDdpw4)4*>?H)uf`^Q=v6fzTmn5a~=CxyV^sB4%?&^+MUteDntNfkpl3?PiYj#!J3ohyb>OP~{wAdtzy+xTa7WAS|x`qxZ{711@`bC{PoWJ1V*{_xTyX?U)<m9n_2TKY*P#?k{(n?_7dp>x%HLKn?vpk`Bs=k}qe6+HDOg`G0(2;Sw&^1K4>ym449etb2vyQ;ojogj1*|{Dl4r}K5If^>K_ryh@z94y49{b)B*f<^;A0c0Y<M~-b(>l(Rvu=yR$ZxbpzkIDHXyfUjiRUAa*yXTUL!$xiaI6eGW@&8k&>bS=<Er$I$kKz^Ts1%3mx1qHu_M4s<TZZd(xvZ;%|@e?vDHM1FP5?WYCOaOGTf{wh6NO?k<(@zG(X9_V4%D4M;K$dKM3I#Ecq;wgUE`HEb~1r;#-Xt#B>lw02j#2{Qwe-rN*yuC`hp6oY6X!YEyAs>DyU<4(>;BF0huu%u6h@266V*P-S^WeySqtT);2k$i8hHUDt1;6m(3BHx3`;hw<fyo#?8;zvsp$qBAA${DlaWe{%NHbj<9Y`QTpe)$LLu-0||@O%?R=py#Cvm*B%)o=YS!m%%s(kW11hh_p?zbQViMQhWp{YnEmd1CiJ`;+_SH*a`X6rxZ?KdHB_9RgSb{HyEVMQUD1HcA`~s=NDO|Szr;g@DRCr%S@aF`u}L<?DQGDcD@qOo0a(&PX#_nK@jyb-Ap_I<m$zebB<N17tf|%I9Db?5sb#bFBqGxu})<Dy=y<BXcL4sE*#2n?%=>ih$z3F@BJ+jBi@&g7(p+B#3Z16FCzgsF~ch`(^O}c%vv^-7GpyJuWQ-LM-vR1Wzro$=m7|dXwTq4PK$vt5)0wcIo|AEinF!H9M7@<Pom&~e<%I^Ah7`lQF_gYG!QbH^aq9MtX|xZ#$+zfakh>WE3#bl4h4%z6#L+*+PPcD=R23CH=hgCRlIsGFm~_7{pqq~W$1T@>?7MRZ&W%0_{NCr5@i}}*gWz*kJFQ2!X#(Jq(D*kWk5tmdsicS-D)&g{h8q_e%OoZPmBpC(6yr7F=2F!@nvY`xs7e?RN#OR6T{MsByoC;WnG4X%wmbB3E>=KV@fsxEoJt+2Y&1cAezSXpcPF5B0w`Vg?lQ|&VDJ-wOZXV7{xh^(j$<B73gENUgeT$$C<bTsm~wVrOgAxw8f&xm+Mn5__?uvAw$TQ88Cc>ns0$*Bp*y8v>ZNZIBT5N2mxdA8yE?@xSyg%6lB6Z@)p>Mx4uY*E-%XS=dMF&AGDldVvV61^L{$0Fze-Hx|Q4%t9REKV`keY10ExwKEjKJ%CH#4Ggd1Aj<#^iV4plzuzoufE*sSK0BFkX=)?~K3uVTdoh7jc=Y((p3ppX0ErKs6Hq>EcC(^`2n1lHW$~nFo&2sTO7cW@nEmlAz3@b@!%)%*Si8&J!$$6gfOmSN&Q~|A2D<_MVV=d<ogn$Gb>8G8%+pd^|REa@+XSoZd*wrANijs?pT%;dX<*d-WIcX&_)lL$U>Q@Ta<D{^sTJw{XSt(F;XW!m;H|s}|YDAn}f9dSZCKO)+h*>2B?teQuK7{c!*-8r!*>0tm<?~Eg3T2Rsg(;&6I)+G*rDZ63tisD)vRBB^#Xxq5*4l3M36+s#&*+I$LIUiPr)?j7a)0*W2lVT+Tl3q$qV<DC$hOAOzB?rYxVekVP2rc0!n6xIBO1Z=0GP<31aPcG)7W?DA;&&wEay6Zz`;7KFgdE&r0J#&*|!5Ha!gTERzvd5?|r|JP=)JKI#pst1jmU)XG6pR0EIjYPShw0D=H5#T!ufFf4IJjg%aD1Yi-79O?j!#GU;b(SS=DE^QGY`{judE@V9PX$2yDbbvF%9GVOe4i@#GtNk|#u6g}rO#_VyJ8eY$G)}Oxf=)v{Jw-4PCln*IUd&b_ogUPJ<?Khl3(VpMFwOAo>h6-f55>VuTv;iQUY?UnoJb2~Elz`vVq<HZ%Ma4uvC?!R|Fm|U$C*yinp;HE6(@aad>wpgkDHIrh)P!yDJB`5>M5EN3jKTNC>WOx05&<c>GjMGnad@`|IF0u63F{E)J9n`j4&F0majAJ2CK^PbUJjm4$3B7Ml8O{s-GRNe#e@eBnm{ZH0h$980o4bXy(<nedNR;xWI$(w_~k|?lZYwtG=)XE>Nl$FbX6luGU&?_<&v}Hy@(ySk&K5b!C)>?awKXkG}xO9xpFWh8>a}ImhCp0(8;b8XWo>Hp2WonVncFJ=J#$se*6CH?RUv7qPIZ{Y-~1p-<I7Xc$TpU<7Ywh;GeBE@z?9W*%hlAe4RkXt7ylKdk0^!kl;)s3RF3ZrYD`Vd<#=1R{{I0f>yvjBt66T$wWJ5wOp-K18o<8(Dc(}I*x!9dy`jQnWmw_z4aswaQg>Xe5mNBZVUR2w>#6iWwgwyAYAPle;MY&6}Rh|1<lsu?EGPEL5;V_+8n{bS{)k!4xNA15g1y3iiV_4UM?WNmVmG*l+;nZP(ium=Iqn!vyX4luRnf<zl!@zqsSwU=!20MQ_3j{*a91)!j#H(pDt%3dyCdYn0vsf5=<*nHzy`r5!WQwkbDSiipjLPOGu|k6X{(Grl{ie)1U|w{F~ax^wae=<FM8~bGGij#GlP)avp>CzE&e<O*xyGaz+w=MWL-6pxMq;yh)S`qZI$5BVUs#I5YJ+acVo4LVStjCw&==eToLKE=thO@7;d<?(N6#-x9cvQ&NZ4>ClF+t0==5F?3<^U$E+CpOr<oAm>)d%U1mi8L>sfQd%QF7OE3H=nR$3m4_wG?eKE6x|gJW_Oni$L1ow}`KGDFHGr6%VA3!Gs%30~&(?em7CGgRk0)Hk-~5w9LH;E255A1soAow)vR)~>DM)9%!uo>mnWEQ3e3W)&9J4Kl1^87auTtN*j$^^U+Q=|`w)z2gRy(Oh1H1*g0^A&wy06XO|LOeWhv4P#)h}N!JyV;#@lHCwd%f=7XT^iAQ&rt)%_7qxI3@b=f)>4>Bn7t)baVkN#sypy|DwD;%`+GM1QPxgS5VmhCC;fZYFy>7*%2UdG#Pjj$ejiMSaG(Rv^MFX_DV@A>9!F_&-e2E495!Aj6z*w`K@yVxzrD79#_43uCR|!+J&vWq%iz)u25Jlu_`eN-&Owj#Noa9jr%Kmg?$8P8@X5oKsQ1T$P2{)WY%Iza+Lj>O?k>4GwH!%eN03r{=PbL^URAvr^spk-h=tQ!zQS@!oC>{<4|eCD*)dz5IBLTJ#V+D3tzVTLbw+tzG32idhK*DRlsAxEWuRzJ_Gj+0~`bF!u0$}_NwT$yr`k@g~A5V=JHgx;creDNmG}yxrKWGSo@5{4w#3bTmXqlbrPF0G?WYcyGuDOE`hgP#+2_f3~teoL}SDP*1Y<G?d_qI5{6j)D4t%)(@LhA80O*JHu@0xhQG}wZ7$14yQR<keXwGf*gLl1newTa^<=U&xALTR?=QbC);i;3S@HnaM`Xr_fy!o;l;EVzay`QGMe83b+_mM_9^MV%f-iXF38`JSX!c@xpmVg<nwG)qb}C-5P3`A97ueRp&LqezdaP6WlEJjCD1bT9LU6SU;3+R>kvs>Mn!^-W?iH&YVMYztacwhx!N;x)tOk+hQU3T<BIuN?Rz2gZWy$2eil|1HiQNs9M9LbX|7a2=lBUzRH%YRKEopi(QcqNgiQR*;+dy`=ft+N_PjHkQPr@Q1a*4KhB42<~34u~$0ZPorH03CY<LH3u$Bo#Okk&_;aj4O%-gV+$O+bH$HA(2cU<}K0@5d+aafl=7S=R%%BoCNhVjo+~c=sgtjJPP%!#WPTkC(;!c7P>d*Hp=%IGKbe_D$kSxl!i{5p@%NlY;W87W^e_PGT<5fFCYv07omJQiSIxFi46I<q~LZYTS(BGhFXka0=m>2G|0H^6q@J*1(?|yn!6C+Q8V8dKR1n33U?@G0Rk3BNm}uWy(N1ymfRDdDHb#%xo)1ZJR&(?7{r~UqAZfL3yv-zAZvi{b6wo!NUB;gZYOyAANG43I?5P(r&g}FXJM;YZQ*sgjnoo7~>8cCfe;o&JvfEe{;8(1+20avZspeg{AI8Hfp7AKnR{+TWDJ>wi^a$<(<TJXQKV$cVyfz41k_+cWmNf^CCs>5_fn)h(^I3DFQV6@ZU<=1(%i_6%|Gp>;h%>%DsshL91z0U0{yoD}utlibDH+<<?{4L&a{)Q{Zm^Fn}hl!k>c^3}tRSbV5V=sH>G+tk~$O0x{XP3nhEYJ6#!0oaLXaAis#DGpE})AbsPdBS{(eAVNRWOMAE@gqbem!K7%4!_=58FQvEY1yt{2#d{4jP8#)kg<HL(YJ3v%ryc6~S{Hh)aiFHOyLkh1SeS~>WqsRc9{=oc{^sHAr|u@q?9car5cKQT&Dq`maoa-;9EFXsXO1M0&Hd;2Ic`TX-;Ly|ZfaS;TBI@e@SkKiQp><?PR}+cUF3l076d7mLMAdu^A2_g^YryXGjuXoXf?sThJ}qx!07zbLqg++AK<U@mZmG71^&+@P=+sqk73`tG6`W(*{Ydsi4v<xk%bm`tw??cPm7ENOk+3ifE}C-QA9+6?wjkIM>OC2aZWi5!z}ekqn3K>ORe>%+8#Q8On*hDZ}8&LgWL0)hin!vJ6C&V<N4n0>|S=o_pA+Gw8*m?AK918Pa1vu-E5S9n$g+&cbpsMYOl-!l{#_u>1+AD*X-#0#{Kz^vm5!9x%c??9p|38qI)?a94yRl-I?FXXUnekxRGjpFMlb!qI-8<o4uWZo?p?u4}O;2;GcWcgZ^;--ox2j*X_N+Krs_`>?R+m-0`Z;8^2qBz5a{EJwEVUPS+3vUPCxMqUO2jcwLRm{Tz*xDcAOJ>w~0T;*0Vk2mA0tJo~IzT}3zRA8{kqbmCF`h+DK*Jk^tvAh{CCXXyb@Rq&#R>859ao$G5jq3!f&QdDHTv)o%)4)ysB2ki6bv-Fo!Ach4bt6V3yBepp(iq%+gzQx8KHP(Jyi$@#Lw9SeeX0~d4Oy*)aEN;#CIWBjJ*HL1}wK~M0)Rkys9;{T`0Ywt{rUaR@*x;K(gh%2}_<cFzD$o%llu||rMgeK93~9$@?lO$#9ZJX**%dFbki*+5)!-h-W~j4|s;sAsXB49UdS$faLEQzD$BejMY6u;U3avRDag9_G69OFFJF;JFo!@NWjTmc?kAQ6B1a<GYxC~h|VRn_Rsf4}O(xx9zC71x0adz;}z~}N_nk(kOACEAJS=hP}*4>3zz8D16rFWgFuw_qwm)VnKg2i+;ISnw!*i$vNW#GG_AEDUA_Vgmggj0aIANk(1msb%3t9$0m2UFGuE|*D&W>Uu0ur}D+vf1dxgy<^vYxNa1P<dS7KER`O5E!ZvG&#>>^CjH)BD+JCrQjiC?DhQa6>iC=)Q?RrL;-MsNt<Gt(~}x2zv+8irYi$LWyr~US|KX}+rn-$cWZpC2~O0Lv3i2iqy{?~OJo@n+=L3UHf~%U{HEg^LZPQ2j3)3JCNwl3-+&Hf6k-br^}QhyHKmhuROfUWCeds+1fJEUWWf0t%u+Vb?KB#B@+IRTD%fDuV^b87j5AyY^j&j6MMgTEZJ0aM(`%-nADl^~98ZL~7m3Yft1h9Nt3=7dSZmcb1TdrKOuf16n6A<xUBDO%;l|JwF%JCz3`1g52+}FEusr4-tK>#&UQEt^7E6P@a|%mQ4BX3Ad-dqQ9?X7o-|@<aqZ8IB61r{58j!*-R(jxYs}PWF6;VPbhfp3C&9EFU<{iKrpCqNIBP`T~Qp>lSN{HNs@WOFM-Xx}t&LZyexalV2<ueB<=KH6?3`|L`3yKUH$9x7xQPZ`OpvM+!XiGusK{N@d(N$jc$p$ST3GX=hr$UrTM$0`6VSvdiCu}=#@iB}K?6FQizKcgoq09Z=I}pJ*IO&z6x1$k4aQ95%G*+!1QN-#KCq#569CZ-HYz+MTn1Dj*Dk&*vF_?24$;6G`{m~>Sj#%a8mhq0`=xXUrZj7q+Ct$5o_`h^2Q6ZiqmigUBv!8rs^Hx88jqbjAIQzr>*}YryyAS98dZ)6;!Y<I^Y9%%5wS|$93Jdf@rCB?hih8@oIqiDe=t1`sjQvcpy9tJ5f@g}A$8pBXXT@GoR!XP8&ENb0A~ZJ{7f<+jw7gEkC|zQF@ZYE<BpQjDQGV3ifNx<@@6yOza}DUL%w@n#+viClhUly|&#gDkHP>>n1c$b{zF{=ZRea)^^IOgBtyZIP?bN4-ohU-Yqa1=j$^JxfXt=Qu8g5r?(8)RmW}q`c1z})>IZ~7d-mSHXg<a=7EI$7zYrOZvyyXxen2f@|m4hiy;9z!mtDN>mQPMGSw<bDx$fcrAUCe*m)<&w*;gu8D<nE<n9}VK}Fv%yvwQEcnJ3A&gwe4U8fH)z~Gh55Neaa#g-c2~V5X4D1@0ar+_)$!Rv&S9i2p=e9cwCmx`W+Kr<uoX7)8x68y%U5-_;m<>E<^kSpIYSw72=`oB`!FfJxYAHX1i|8VOxa*+BCRKU3HROO9*Q{td=&!=El{`r|V4o026rHcwaioTbyFmM=axUV_eR~xddBsJc!0mh<E+%OHH%x(z51n+<N?z&u1Urnt%QaoJIpbBk61%2CloyeZ<&xvnytAU4MM%HoWlojnD8*r?HB;61~oc-x;hDx>gyd)>(b-yDt_uG|2<Xk1aEK8d#Iv7OrsAZAc4G_j-y>*P>(dAUqrDT--KKC2n0AU&+<@(P@b7hMR-XFf*lZJRjK@LxJrEDQ7buXCkV-Et_qiL`V-$tULNJ2TpY4+|k7fYf48=IuJSkKQ3XbaRQa#U^&k+6(G-s85wYiFRh~MWu9C$%Hx?Og(oe6NBL<w5z+EpbNiebHR6JY`|XGtj{o)6&qb>){_-b!>RECA-1@nvo|sm~!YP6nHG{juX%9Rmm5a1GVBGnPNK;}GMCQP;{QSrRdxDHP0ul4O29s{Xt39;RH~2jm_yM192Z%+F03;j_sop81F-^gOnc6m3WB)5yNjjg=itRH?>Q}Hrflp%8PSpx%9zXK*v7OTA^5Y(x+Yr~&>71~H^Z9tAiQ~3j1EX^`Lh$WxzI2KBWj8xYvUpl#Phyo4yxIXBMNjH=@okB^JmjFXbowU1_AeK{^{wxGpHm3gnVggH6LRLn@kfmAh!?n1)|@_p8I?xkDQqj%ltZz&F=9{NRq+7Kdd_z_w!nC!ujQ$JEIoTLllHIX()~Q1Oko(#B=PYzw&*X}0!s&`ob@)UdYRmYV9C{%Fe8qkegyMW3qff#>Quzzl>U?CC6R>zEuEtCxzQhKh^Ig*V-rkkd*CZM75E;1AnV&Mb}N<ZB)G4Vj#^)UuBsEG#=xav)QP+){1G*?%6gmTYNuh|MWjTEybb|g@u8GYpvA3vJe;d=6X(RgRox5(U20DF!5RVx%J9rPt}UoL4HmXop<Js_nxXIt?Hp%?|Hr?;xWbj@*kIfUvyjj&aKPLIwe~!l`Z@)ENMTZNuDRc*k-nnh$ZhVx>$Fklj$WOPRW#;y>e8AB3=7u$y?5px|9<x1Kiu}wGxOUwXZIh@-o9xXPN_MRA5CZX{~P}Q`TXA>*3I2*ym|YLbpFfN>(z}FSRp|ChV3c!Hg}IL_J!1Nk;q$VN2!qdBwS$a@%Y8A9s90f;M7xH%!C4sCDo_8D58{LikU!crIGZXuwAz&xp}323~kQ0bk8-!6MQqCr!!?Bnpx~yvYD%x&-2YRFA8OK$C9W~!z?B}gl%I*Nx&JfKO3uK!2+aI4gjkRBT#1&+~h*9Yt_S5?JLMp1Y$=~=P@<8=%;Iw&{I7^-$==j<V^#zM&n3pA3~v&wq;XOH{)`5tt+ubiT?o#{6nouUHVAg6jg4NsR3?ak?g_2TR|67Rw<z?#Tw?ila@k{5ib!^Y~lrYSq##GKsg9$psaiy|I;W+F8TMMF>CCF@&}93ZIx=x07DO!=YFb$SVC&WG7+1=k<(O9`WUYxN`q-iT#zQ<^#RL+ebSg5p_A54DoUCRaG8EoHrY<?5rl1O<O3B=hkyd>Xk-zr6@kkr*K~Ml{*4EZZ{HL1TX%%*nwtIj=KS!Z`Q3+hq%lAIeD<qDF}rbRcIzfT^Xbjm?>@q=a(pHi5`=K2+_KC^jGGc~5&^&?QuCOqlw+HPw!f;ro@c)Fvv`j@gxAOIwP5K#7V@_}YuDYgVL#cfi*%|hfTUXs1!AOQ-Q4NRu+)Og>g*r@n|3c8ar@}M9?b9EvfDDBUZ+)8R<7COos9;rtc%S}%`zjC(W*3_S(<W%Y#Dr7^VBVZLkRJ#07qyG)VF6N<j3yP`4Gal+Yht1-!1+#EqR%kqPh<TM7wAC8W+PoJH&W5mWjw-)AVGniv^)aZ(J<HIh|8O2tmH8ItKaZnzV&~76h$l*&ZHstaH`z&18YgRlwGQ;!Tk+$)3pfrIg1V{qJfl94DN)3^uR@AGG41*LbE>UA1sLT=S?pcV69EF<7Ti42(P<o!P~3m)C29+9l`5>48#Q7_T94`Cs3n$y5"
