"""toolkit.lessons: every exercise of the walkthroughs can be checked from its own cell, and the feedback says
what is off without giving the answer away."""
from __future__ import annotations

import base64
import hashlib
import json
import re
import subprocess
import sys
from pathlib import Path

import pytest

import toolkit.lessons as lessons
from toolkit.errors import ParameterError
from toolkit.oauth import pkce_pair
from toolkit.secrets import Secret
from tests import answer_corpus
from tests.lesson_answers import RULES
from tests.test_answer_corpus import author_rule, values

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("*.ipynb"))
EXERCISE_HEAD = re.compile(r"\*\*Exercise (\d\d[ab]?\.\d+)\*\* · (★{1,3}) (easy|medium|hard) · \*([^*]+)\*")
CHECK_CALL = re.compile(r'toolkit\.lessons\.(?:check\("([^"]+)", |Answer\("([^"]+)"\)|answer\("([^"]+)"[,)])')
LIVE = {"00.2", "00.3", "01.4", "01.5", "02.3", "03a.1", "03b.2", "03b.3", "05.4", "07.4"}  # answers that depend on the world
# The author's world (a fresh sandbox, each walkthrough run top to bottom): what the live exercises' rules become
# there, so that their feedback is tested as the stored rules' is.
AUTHOR = {"00.3": {"v": 3, "why": {"6": "that counts the API rows too"}},
          "01.5": {"users": {"v": 11}, "before": {"v": 7, "also": {"8": "already agreed"}}, "after": {"v": 8}},
          "02.3": {"received": {"v": 9}, "verified": {"v": 7, "why": {"9": "not verified"}}},
          "03a.1": {"v": 4, "why": {"8": "a row per image"}},
          "03b.3": {"v": 7, "why": {"10": "only users who added the channel"}}}
# the write exercises' rules in the author's world are built by the fill functions the live checks use
# (tests/test_answer_corpus.py: author_rule)


def rule_of(eid):
    """The rule of ``eid``: the stored one, or for a live exercise the one its check computes in the author's world."""
    import copy

    if RULES[eid]["kind"] == "facts":
        return author_rule(eid)
    rule = copy.deepcopy(RULES[eid])
    if eid in AUTHOR:
        if rule["kind"] == "record":
            for key, values in AUTHOR[eid].items():
                rule["parts"][key].update(values)
        else:
            rule.update(AUTHOR[eid])
    return rule


def judge(eid, answer, attempt=lessons.HINT_FROM):
    """``toolkit.lessons.check`` for a stored rule; for a live one, the same judgement against the author's world;
    as the learner's ``attempt``-th check of the exercise in this kernel (the third by default: every hint shows)."""
    if eid in LIVE:
        token = lessons._TRY.set(attempt)
        try:
            return lessons._judge(eid, answer, rule_of(eid))
        finally:
            lessons._TRY.reset(token)
    lessons._TRIES[eid] = attempt - 1
    return lessons.check(eid, answer)


def _cells(path):
    return json.loads(path.read_text("utf-8"))["cells"]


def _src(cell):
    return "".join(cell["source"])


def notebook_exercises():
    """(notebook, exercise id, level, solution cell) for every exercise of the walkthroughs."""
    found = []
    for path in NOTEBOOKS:
        cells = _cells(path)
        for i, cell in enumerate(cells):
            if "exercise" in cell.get("metadata", {}).get("tags", []):
                head = EXERCISE_HEAD.search(_src(cell))
                assert head, f"{path.name} cell {i}: an exercise without '**Exercise ID** · ★ easy' at its head"
                found.append((path.name, head.group(1), len(head.group(2)), cells[i + 1]))
    return found


def right_answer(rule, eid=None):
    kind = rule["kind"]
    if kind == "choice":
        return rule["v"]
    if kind == "number":
        return rule["v"]
    if kind == "text":
        return rule["v"][0]
    if kind == "items":
        return list(rule["v"])
    if kind == "record":
        return {key: right_answer(part) for key, part in rule["parts"].items()}
    if kind == "claims":
        return list(rule["v"])
    if kind == "facts":              # the corpus's first right answer, in the author's world
        template = next(t for t, right in answer_corpus.DEV[eid] if right)
        return template.format(**values(eid))
    if kind == "pkce":
        verifier = "a-verifier-of-enough-length-for-pkce-0123456789-abcdefghij"
        digest = hashlib.sha256(verifier.encode()).digest()
        return (verifier, base64.urlsafe_b64encode(digest).rstrip(b"=").decode())
    raise AssertionError(kind)


def wrong_answers(rule, eid=None):
    """(answer, a phrase its feedback must contain) for the typical mistakes of one rule."""
    kind, out = rule["kind"], []
    if kind == "choice":
        out += [(letter, why) for letter, why in rule["why"].items()]
        out += [("z", "one letter is wanted"), (3, "one letter is wanted")]
    elif kind == "number":
        v = rule["v"]
        out += [(wrong, why) for wrong, why in rule.get("why", {}).items() if float(wrong) != v]
        out += [(v * 3 + 10, "too high"), ("many", "a number is wanted"), ([v], "a number is wanted")]
        if v > 0:
            out.append((-v - 10, "too low"))
        out += [(v * float(f), why) for f, why in rule.get("scale", {}).items()]
    elif kind == "text":
        out += [(wrong, why) for wrong, why in rule.get("why", {}).items()]
        out += [("?", "not"), (object(), "is wanted"), ([rule["v"][0], "x"], "not a list")]
    elif kind == "items":
        v = list(rule["v"])
        out += [(v + ["intruder"], "1 item(s) should not be there."), ("".join(v), "a list is wanted")]
        if len(v) > 1:
            short = v[1:] if v[:-1] in rule.get("also", []) else v[:-1]      # not another accepted answer
            out.append((short, "missing" + (" (a tie?" if rule.get("tie") else "")))
        if rule.get("ordered"):
            out.append((v[::-1], "wrong order"))
    elif kind == "record":
        right = right_answer(rule)
        first = next(iter(rule["parts"]))
        out += [([1, 2], "a dict is wanted"), ({k: x for k, x in right.items() if k != first}, "missing key"),
                ({**right, "extra": 1}, "unknown key")]
        for key, part in rule["parts"].items():
            for wrong, phrase in wrong_answers(part):
                out.append(({**right, key: wrong}, (f"· {key}: ", phrase)))
    elif kind == "claims":
        v = list(rule["v"])
        out += [(v + [letter], f"1 of the claims you picked does not hold: re-read each claim against "
                               f"{rule['evidence']}.") for letter in rule["why"]]
        out += [(v + [letter], f"one that does not hold: {why}") for letter, why in rule["why"].items()]
        out += [(["z"], "the letters of the claims"), (7, "the letters of the claims")]
        if len(v) > 1:
            out.append((v[:-1], "1 claim(s) that hold are missing"))
    elif kind == "facts":            # the corpus's confident wrong answers (tests/answer_corpus.py has them all)
        out += [(7, "text is wanted"), ("Too short.", "write at least")]
        out += [(t.format(**values(eid)), "") for t, right in answer_corpus.DEV[eid] if not right][:4]
    elif kind == "pkce":
        verifier, challenge = right_answer(rule)
        digest = hashlib.sha256(verifier.encode()).digest()
        out += [((verifier, digest.hex()), "hex digest"), ((verifier, challenge + "="), "padding"),
                ((verifier, base64.b64encode(digest).decode()), "URL-safe") if re.search(r"[+/]", base64.b64encode(
                    digest).decode()) else ((verifier, verifier), "plain"),
                ((verifier, verifier), "plain"), ((verifier, "x"), "not the S256"), ("x", "a pair is wanted"),
                ((Secret(verifier), challenge), "a request's own verifier"), (("short", "x"), "43 to 128"),
                ((verifier + " é", challenge), "some of them others")]
        made_verifier, made = pkce_pair()            # a pair the toolkit made: its challenge is in a request's URL
        out.append(((made_verifier.reveal(), made), "made by the toolkit"))
    return out


def secrets_of(rule) -> list[str]:
    """The parts of a right answer that must never show in feedback."""
    kind = rule["kind"]
    if kind == "record":
        return [s for part in rule["parts"].values() for s in secrets_of(part)]
    if kind in ("text", "items"):
        return [str(v) for v in rule["v"]]
    if kind == "number":
        return [f"{rule['v']:g}"] if abs(rule["v"]) >= 10 else []
    return []


def test_the_encoded_rules_are_the_plain_ones():
    assert lessons._load() == json.loads(json.dumps(RULES, ensure_ascii=False))


def test_every_exercise_of_the_notebooks_has_a_rule_and_every_rule_an_exercise():
    ids = [eid for _, eid, _, _ in notebook_exercises()]
    assert len(ids) == len(set(ids)), "an exercise id is used twice"
    assert sorted(ids) == sorted(RULES), set(ids) ^ set(RULES)
    for name, eid, level, _ in notebook_exercises():
        assert RULES[eid]["level"] == level, f"{name} {eid}: the notebook says {level} stars, the rule not"
        assert eid.split(".")[0] == name.split("_")[0], f"{name}: {eid} belongs to another lesson"


@pytest.mark.parametrize("name,eid,level,solution", notebook_exercises(), ids=lambda v: v if isinstance(v, str) else "")
def test_each_folded_answer_checks_itself_right(name, eid, level, solution):
    """The solution checks itself (``toolkit.lessons.Answer(<its own id>)`` … ``box.check(answer)``, or
    ``toolkit.lessons.answer(<its own id>)`` for a predict exercise, which shows and checks the answer), and its
    stored output (compared by nbval on every run) holds the ✓: so the stored rule fits the sandbox's world as it
    is. The output is a box folded until opened (``<details>``), and the same text as plain text."""
    calls = ["".join(ids) for ids in CHECK_CALL.findall(_src(solution))]
    assert calls and set(calls) == {eid}, f"{name}: the answer to {eid} checks {calls}"
    last = _src(solution).rstrip().splitlines()[-1]
    assert last == "box.check(answer)" or "toolkit.lessons.check(" in _src(solution) or \
        re.match(rf'toolkit\.lessons\.answer\("{re.escape(eid)}"(, box)?\)', last), last
    shown = "".join("".join(o.get("text", "")) + "".join((o.get("data") or {}).get("text/plain", ""))
                    for o in solution.get("outputs", []))
    assert f"✓ {eid} — right." in shown, f"{name} {eid}: the stored answer does not pass its own check:\n{shown}"
    html = "".join("".join((o.get("data") or {}).get("text/html", "")) for o in solution.get("outputs", []))
    assert html.startswith('<details class="toolkit-answer">') and " open" not in html.split(">", 1)[0], \
        f"{name} {eid}: the answer is not in a closed box"
    assert not any(o.get("output_type") == "stream" for o in solution.get("outputs", [])), \
        f"{name} {eid}: the answer prints outside its box (box.print)"


@pytest.mark.parametrize("eid", sorted(RULES))
def test_a_right_answer_passes(eid):
    result = judge(eid, right_answer(rule_of(eid), eid))
    assert result and result.ok and str(result) == f"✓ {eid} — right.", str(result)


@pytest.mark.parametrize("eid", sorted(RULES))
def test_typical_wrong_answers_get_feedback_that_names_the_slip_and_not_the_answer(eid):
    rule = rule_of(eid)
    for wrong, phrase in wrong_answers(rule, eid):
        result = judge(eid, wrong)
        text = str(result)
        assert not result, f"{eid}: {wrong!r} passed"
        assert text.startswith(f"✗ {eid} — not yet:")
        where, phrase = phrase if isinstance(phrase, tuple) else ("", phrase)
        assert any(where in line and phrase in line for line in text.splitlines()), \
            f"{eid}: {wrong!r} → {text!r}, wanted {where}{phrase!r}"
        said = re.sub(r"\(by about [^)]*\)", "", text)
        for key in rule.get("parts", {}):
            said = said.replace(f"'{key}'", "").replace(f"· {key}:", "·")      # the keys are the prompt's
        for secret in secrets_of(rule):
            if secret in str(wrong):
                continue                     # the learner's own text may contain it (a part right, another not)
            assert secret not in said, f"{eid}: the feedback to {wrong!r} shows the answer {secret!r}: {text}"


def test_right_answers_in_other_shapes_pass():
    import numpy as np
    import pandas as pd

    assert judge("03a.1", np.int64(4))
    assert lessons.check("05.1", {"left": np.int64(4), "right": 3.0, "longest_m": "2940"})
    assert lessons.check("03a.2", pd.Series(["Ivy", "alex", "Alice"]))        # a Series, any order, any case
    assert lessons.check("04a.2", {"legal": " 우동 ", "administrative": "우제1동"})
    assert lessons.check("04b.5", {"customers": np.int64(93), "blank": np.int64(1), "spaced": 0.0})
    assert lessons.check("01.3", " 4100000002 ") and lessons.check("01.3", np.int64(4100000002))
    assert judge("01.4", ["11 users are linked to the app; 7 of them share their e-mail address with us.",
                          "The most recent withdrawal: 민지 took back her e-mail this morning."])
    assert lessons.check("00.1", "(C)")
    # names romanised, English district names, numbers as people type them (issue 42)
    for district in ("Gijang-gun", "gijang", "Gijang Gun", "기장군 "):
        assert lessons.check("04b.3", district), district
    assert "the question is spend per customer" in str(lessons.check("04b.3", "Busanjin-gu"))
    assert not lessons.check("04b.3", "Haeundae-gu")
    assert lessons.check("04a.2", {"legal": "U-dong", "administrative": "Uje 1-dong"})
    assert "that is the legal dong" in str(lessons.check("04a.2", {"legal": "U-dong", "administrative": "Udong"}))
    assert lessons.check("06.2", {"most": ["Gijang-gun", "Seo-gu"], "fewest": "Saha-gu"})
    assert lessons.check("05.1", {"left": "four", "right": "3", "longest_m": "2,940 m"})
    assert "that is km" in str(lessons.check("05.1", {"left": 4, "right": 3, "longest_m": "2.94 km"}))


def test_an_unknown_exercise_is_refused_with_a_suggestion():
    with pytest.raises(ParameterError, match="did you mean '04a.2'"):
        lessons.check("04a.20", 1)


def test_exercises_lists_them_in_lesson_order_with_a_predict_one_per_lesson():
    listed = lessons.exercises()
    assert [e.id for e in listed][:3] == ["00.1", "00.2", "00.3"]
    lessons_with_predict = {e.id.split(".")[0] for e in listed if e.predict}
    assert lessons_with_predict == {e.id.split(".")[0] for e in listed}
    assert {e.level for e in listed} == {1, 2, 3}


def test_importing_toolkit_does_not_import_the_lessons():
    code = "import sys, toolkit; print('toolkit.lessons' in sys.modules); toolkit.lessons; print('toolkit.lessons' in sys.modules)"
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True).stdout.split()
    assert out == ["False", "True"]


def test_the_answer_box_collects_prints_and_folds_them():
    box = lessons.Answer("03a.1")
    box.print("One", "row", "per story.")
    box.feedback = judge("03a.1", 4)
    assert str(box) == "One row per story.\n✓ 03a.1 — right."
    html = box._repr_html_()
    assert html.startswith('<details class="toolkit-answer"><summary>Answer to exercise 03a.1 (click to open)')
    assert "<pre>One row per story.\n✓ 03a.1 — right.</pre>" in html


def test_only_facts_of_the_city_are_stored_the_rest_is_computed_from_the_world():
    """The exercises whose answer depends on state are computed at check time (``live``); their stored rules hold
    the kind of answer and no right value."""
    assert {e.id for e in lessons.exercises() if e.live} == LIVE
    assert set(lessons._LIVE) == LIVE

    def leaves(rule):
        if rule["kind"] == "record":
            return [v for part in rule["parts"].values() for v in leaves(part)]
        if rule["kind"] == "facts":       # the figures and names a text must give (its cue words are no answer)
            return [fact.get("number") if "number" in fact else fact.get("is") for fact in rule["facts"]
                    if "number" in fact or "entity" in fact]
        return [rule.get("v")]

    for eid in LIVE:
        assert all(leaf is None for leaf in leaves(RULES[eid])), f"{eid}: a stored answer for an exercise that depends on the world"
    for eid in set(RULES) - LIVE - {"01.2"}:                 # 01.2 (PKCE) is checked by computing, nothing stored
        assert None not in leaves(RULES[eid]), f"{eid}: a fact of the city without its stored answer"


def test_a_live_exercise_without_a_sandbox_in_the_kernel_says_how_to_get_one(monkeypatch):
    import toolkit.client

    monkeypatch.setattr(toolkit.client, "_LATEST", [])
    result = lessons.check("00.3", 3)
    assert not result and "has none yet" in str(result) and "toolkit.connect" in str(result), str(result)
    assert lessons.check("04a.3", "b")                   # a fact of the city needs no sandbox


def test_a_right_answer_taken_another_accepted_way_is_told_so():
    result = judge("01.5", {"users": 11, "before": 8, "after": 8})
    assert result and result.notes == ["already agreed"] and str(result).endswith("  · already agreed")


def test_answer_says_a_city_fact_in_words(capsys):
    lessons.answer("04a.2")
    shown = capsys.readouterr().out
    assert shown == ("administrative: 우제1동; legal: 우동\n✓ 04a.2 — right.\n"), shown


def test_the_newest_client_still_in_use_is_the_learners():
    import gc

    import toolkit
    import toolkit.client

    first = toolkit.connect(sandbox=True)
    try:
        assert toolkit.client.latest_client() is first
        toolkit.connect(sandbox=True)                       # a client made and dropped at once
        gc.collect()
        assert toolkit.client.latest_client() is first
    finally:
        first.close()


def test_each_exercise_is_tagged_by_its_task_and_its_prompt_says_it():
    """``kind:<task>`` on the prompt cell, the same task in the rule, and the prompt's head says it in words."""
    problems = []
    for path in NOTEBOOKS:
        for i, cell in enumerate(_cells(path)):
            tags = cell.get("metadata", {}).get("tags", [])
            if "exercise" not in tags:
                continue
            head = EXERCISE_HEAD.search(_src(cell))
            eid, said = head.group(1), head.group(4)
            kinds = [t.split(":", 1)[1] for t in tags if t.startswith("kind:")]
            if len(kinds) != 1 or kinds[0] not in lessons.TASKS:
                problems.append(f"{path.name} {eid}: kind tags {kinds} (one of {sorted(lessons.TASKS)} wanted)")
                continue
            if RULES[eid]["task"] != kinds[0]:
                problems.append(f"{path.name} {eid}: tagged {kinds[0]}, its rule says {RULES[eid]['task']}")
            if said != lessons.TASKS[kinds[0]]:
                problems.append(f"{path.name} {eid}: the prompt says *{said}*, not *{lessons.TASKS[kinds[0]]}*")
            if ("predict" in tags) != (kinds[0] == "predict"):
                problems.append(f"{path.name} {eid}: the 'predict' tag and kind:{kinds[0]} disagree")
    assert not problems, "\n".join(problems)


def test_claims_and_facts_are_judged_without_giving_the_answer_away():
    claims = {"kind": "claims", "v": ["a", "c"], "options": list("abcd"),
              "why": {"b": "the figure shows days, not hours.", "d": "the counts are per district."}}
    assert lessons._claims(["c", "a"], claims) == [] and lessons._claims("a, c", claims) == []
    assert lessons._claims("ac", claims) == [] and lessons._claims({"a", "c"}, claims) == []
    assert lessons._claims(["a"], claims) == ["1 claim(s) that hold are missing: re-read each claim against what it "
                                              "is about."]
    assert lessons._claims(["a", "c", "d"], claims) == [
        "1 of the claims you picked does not hold: re-read each claim against what it is about.",
        "one that does not hold: the counts are per district."]          # from the third try (the default here)
    assert "the letters of the claims" in lessons._claims(["x"], claims)[0]
    facts = {"kind": "facts", "min_words": 8, "names": {"product": {"message": ["Kakao Talk Message", "메시지"],
                                                                     "local": ["Local"]}}, "facts": [
        {"id": "least", "say": "which product was least available", "entity": "product", "is": ["message"],
         "cues": [r"\bleast\b", r"\blowest\b"]},
        {"id": "pct", "say": "its availability", "number": 98.8, "unit": "%", "tol": 0.05, "cues": [r"\bat\b"]}]}
    good = "This week Kakao Talk Message was the least available product, at 98.8% of the time."
    assert lessons._facts(good, facts) == []
    assert lessons._facts(good.replace("98.8", "97"), facts) == [
        "its availability: the figure the text gives it is not right yet (re-check it)."]
    assert lessons._facts("Hello.", facts) == ["1 word(s): write at least 8 for your reader."]
    assert lessons._facts(good.replace("Kakao Talk Message", "a product"), facts) == [
        "the text does not say which product was least available yet."]
    assert lessons._facts(good.replace("Kakao Talk Message", "Local"), facts) == [
        "which product was least available: what the text gives for it is attached to another subject (re-check "
        "which is which)."]
    assert lessons._facts("The total is 1,234.5, and 2 and 3 are its parts.", {
        "kind": "facts", "min_words": 1, "facts": [{"say": "the total", "number": 1234.5, "cues": ["total"]}]}) == []
    on_a_date = {"kind": "facts", "min_words": 1, "facts": [{"say": "the count", "number": 11, "cues": ["changed"]}]}
    assert lessons._facts("It changed on 2026-11-20 at 18:11, code KOE11.", on_a_date) == [
        "the text does not say the count yet."]
    assert lessons._facts("11 users changed, on 2026-11-20.", on_a_date) == []
    feedback = str(lessons._judge("00.1", good.replace("98.8", "97"), facts))
    assert "98.8" not in feedback and "Kakao" not in feedback


REASONING = {"explain", "debug", "interpret", "write"}


def test_every_lesson_has_a_reasoning_exercise_and_the_lessons_have_at_least_twelve():
    """Issue 34: beside predict and compute, at least one explain/debug/interpret/write exercise per lesson, at least
    12 in all; at least one exercise of each of the four kinds."""
    by_lesson: dict[str, list[str]] = {}
    for name, eid, _level, _solution in notebook_exercises():
        by_lesson.setdefault(name, []).append(RULES[eid]["task"])
    short = {name: tasks for name, tasks in by_lesson.items() if not REASONING & set(tasks)}
    assert not short, f"lessons with no explain/debug/interpret/write exercise: {sorted(short)}"
    reasoning = [task for tasks in by_lesson.values() for task in tasks if task in REASONING]
    assert len(reasoning) >= 12, f"{len(reasoning)} reasoning exercises in all (at least 12 wanted)"
    assert REASONING <= set(reasoning), f"kinds never used: {sorted(REASONING - set(reasoning))}"
