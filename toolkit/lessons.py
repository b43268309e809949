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
import unicodedata
import zlib
from dataclasses import dataclass, field

__all__ = ["check", "answer", "exercises", "Answer", "Feedback", "LEVELS", "RESET"]

LEVELS = {1: "★ easy", 2: "★★ medium", 3: "★★★ hard"}


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


KINDS = {"number": _number, "text": _text, "choice": _choice, "items": _items, "pkce": _pkce}


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
    return [Exercise(key, r["level"], r["kind"], r["wants"], r.get("predict", False), key in _LIVE)
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
    if kind == "items":
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


_LIVE = {"00.2": _live_00_2, "00.3": _live_00_3, "01.3": _live_01_3, "01.4": _live_01_4, "01.5": _live_01_5,
         "02.3": _live_02_3, "03b.2": _live_03b_2, "03b.3": _live_03b_3}


_RULES = "c-q}sTZ<gW75*#5K$zXI8qYnuBm5vo3Kogh#ufx4FGEdt%}i%{y4qdUvpWcZFnUS?aUP5vBZ2}6#^8V+<ly)G8)@_(a?Yu$zRhhXwo!;4R@-$sb*|qzr)nS8n$1S5Hee5H;wlb#5W(-YBky>?^i(h{WjG5on?>?c(a1=qk<X4=FvU78=JTaGW*mkRF;10GY$V1q5sbsYC#g`H1&S#V>6^4Y5?7jeA`F?DBFR8EYA38V3nCv6_NFrM1dfDaAwn2x!S6EGfs7P<J*aV<9N`ZSfB3Zv_!%d{4?GPEbdm}fSP(H>aLFT$J8Lo$EEHOcgodX}5}M-_GNwebfTP(=h*+^slO%J(XbE2fc4kNAm?g-($D>GUCawZy#26tp7@7vr1m*S<8OOqBDhNRXA&}r!f$PeJ<=#|yGgxj<1+Do&sA1$JK7(k6r(aG5a+R3__9BsJz#^IHeImgcGSv)-!MO__rUJiJ;0x0Gqenm(%-<$WI1>a~%vI3>?V=Vr3qe@qAx@;9dSG5()hwY-iBOczM@HF2TNWtU1$J|HKNm9bL2kcn<_ERb*=eKKYP5jJS^ur}FK}Dytla>~8mG;-+NZ^VR<~<M+RYA(v|1gz=wh>+ci(5DP<k_U!URvk09ETvc{CAh93)B`{#zS@Xk>$k$1(HdJm!foF@)Zl2v64`GBnqMT?Tq;XUKLiu_>gYWi_aNK=5pjo6&XShJ#q(OFYCi;13Jn)p~y}IVs7wHcHQRNd+L3x)ccl0XXYr<OFOOCT(zPITI0saEN6Pk?;{nn80EVgne@u9l@q>rig%E<TyClpg-sQt%~!<v$6t9zK`@`9wh7ts5DUYAuth)1CgAtrA!m_ix47xB95I`ltTg}1|P0k2poeBcvzbP5w#_Vl*dCsbDe&(Y53vR5j+|BYQX$pfw4VWGF(D&PZUX+{nDO!5T#m__Vi0Tkbf<a#b%?4T&7Wgj#8V_)J*B253XBcRs*=>Q4xR=e$xU{bf&|Hb)sJ%utuYC!s?C=4Aeh@e>d*kyK(z={gKn(HBdnZB6r{o0jxY3iyWp}jou!cbV@eiV|4uuHbH8}v$oAb@NPC|RVTDC(}^LPeG&ua%c`Zl1#AMPQiuwK4xajfh&*&yrA+Eo!6f23O<bfnbjbtkD2O0S1paU)md7VV$3?LV(=LGQ8^)X@m`wFXSruP8{9$~Asqb<sNp6P`xef~H7V>ZzZY*tBV$Q;Bd$WKs6hvblgbHyTR2YH>Ck}EbOF4jPR{&<++u9{>6G^f&q+ni>QcUV|1~VL+6lS$mu;sd3l}e+e8p}FnrgR$^;pyNCh2z>y6cqnM`s6m`GFT@<@nLY%H;#t7ghgm&_zyUk2p><aM1|oXivtk75(S-uR15PWSWx+}F<Kpu*9llhD`U=WE^*l5Hc+e9EXInnY%G#F7zpAfH}8Arzxil*?@qZip)`~&W*oF_$vRv7>Vvy?&TkjtzOn~Ukw&HxtfRC{mKZM!L1A#Ox{;DR<TolvEtb%pM8p!bTcr+ha0!-BE(Smi*C;WK#J56mg)_H83oCaQ%Waie6nL|UL;Pjh?relb+%bnb+g1xMPUnH|hXM&f9RqnA#pMkBCEy{2H{!(6yZ7(E&)SeqsYtWK!yp>V<4Q}TsHgd1EzOUBki@6L`Uu3Zj+$6YqL>cKL8ie5fk_L{-Z&>QMm|Acg{_PLs0^1zyB_#4_yV|%1T41g<1|Qo1{P9$A{;@(L<rXKmoO)^Ds&@Y#O^h^2-HZk8Wd1or=ccywH`6rk|-(Pl0+eNR0K<TrUM;F5J(F@Pl0oxjo*<T=RZL&`y&|s{Jrx#E@l$}Imw1PcT%F*loCz#%za<@HmyM?D?$=W39BAdM6ROT<j4Wp5G@FmB$m~*<0eZZYC{p(q4|}x9sR0k;86t(HXGPgo4@|xx3x`OBRhhb<IK$aI?uH_-cmsv1H>mX-6~q|tJXvCj$tVE&V&t02ESA}roZ~v<JG6nU%vSB>WhD_{_vE&{`|%2s~4~S`1s{_-?G(L&tLuNFRb6|mvZ^eJ=w>rzddFBcE1YWiRAtb#7Sm(u~^O%L__1sD9Q~G#pPsxNV~Z4b7QzzLOKqI6kNOHHS0_eo{%XZGkQZgt9I?()8<*Pc2Ui&PN`XDEgW1*u3dg$X~lhLdLV=o2#m#^#zjVx++tvq)w8E9FigoP##U8rhhhTaBLQ~wj?EC|lbw$B655h?ZCuc{!+6@jk7KjKQ{{Za+`E=J!*G$OcQ({wv?^~&N(8HB*_MTk%UQ4l?&e@w*6lG^=K)^8Fu@W5%A9L&x;ej^k_3~@n}yqTeoss#1i6mx2yw5IS<4tjhDt*Op}W*0IQ5`+m_Ri(%pn!YE{TpwyT417xiz7?6o;hUYO3590Hm}X1%10;5V6%OdJ$dl06zobu)rWYD)N79d5Z+zb(yn7sD!;1wdSO`0aH*`;Jt$nj>NHjJHnB->+ZXLT(a*P(4f~80^;k(t1muV{r>Om-iNCvPhWlW0<rShXX^+<YRFvKvQzfqZFR#$NGgWWoX|vtf=A(!*(<G2QVB%@RtyR+iOE$Z6(w`=zga2fU7E@YGS}Hq`k#qdn@TQ8qq5Yw13RVo(p>*B6$%kUEubOsYdM!tF<uTpSWBR)p@{_d%A9(1Agb?6h1&tuHn^DwQ3wmagsC9T5a2R%V3#!q=DtsXEF*bUhhhh+oTYUEEV*o^wd?72U&SKQ;N-%i!mI<65L+5xI1I-48@6)!EUEKI&l>iS1}q=a0Y@L#LJ1Yv&`=-R!#)O4&Vkos^B&{O!YAOtR=p+toSmH=q#xA97@r&dZ#7f_ik+?nfMFB_7*bVhHkac`=i2uG2!9C%b*A{2-#=gd^&c<4dtPmX-BO0tU2UyiTz&lnILD>MZ#LzoDxmc1L28k6D&7r-0TxmZZ>-^CU!N^11Znr6JJjry9oeTxmrhfFonh?hy_ev4D_zV`oQ)Gso-tr^Xaj>7ybZET%U*<o93DNGlrFY=#a`oQj+Iv9l$b#U3}?yZ7G^3v3hiv4p7xr}wUp!J&(cmtJ0EePmr_x0Z%<N&!%&QOrFfDng!&K6Je*%g$z?6i=7Zwhp6L{zIfm#mnsqvvyAwODE?JgtQg@nvt>PT#S(<idUzq?ERkgQ1!TCZX8u281e4Pg7#)oK`dt?<tMVFYS-;>zuM-mcL7;bL&!MQMl%~Nms=F_-Nv4M95KQIWj)g@oT7l=H8N_rykRy=Xf#YXHriSvaF{I?&}QQZ24ec*KcW2$W-DzV(jFNGW)^bWj<9do5!dAPN_O9Gh$dYQxE{kwP*YES|WKb*kryC2@ab^gmc>m{Khn0c7xu;O3cgRTc=`{N71sr)KOkyLz?!xe;Iv-vLQnq~3UI&Cy@oqgcj%R+zOQ=)wqwDgKh6d8c&>|LNmOZZiAAa?f8){%2I&un5j$iCePB_s7WRPOv3+ZM>kX@Z0yj5u8an=ZyBQ4{2vk3tYz02E}mdbk#!r$dejQ-<k0`bh$wUnAg0rez%e`x|pXht1~+8{uDh2zqUSzy$!4AWOm~5W2Aulm22P4|iey?f@D%y0f)}P*4SVD$|KFq|J4qxhF~{^tUBQ*@b`qz>*y~-4nd)MbPTgZ(o1@CDt<p0a&~k1PqnL1*J0SqF|luv7z)%T&=8N2)af?zT$#-6!_Q!aIy=82I9Wrbca3j?`y<Qt3C9t620_bly$zW{rb!AS5KZ<!R%nm4*nNCasSZE2A&Mx90qmHa0#LK?)Owv$m9wHwr!3{N02|?pa{M7Dl%7TUNx53EaxwLF2zlC1_#@f_?H!r{sWa}&ou"
