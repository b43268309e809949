"""The write and explain exercises are judged as a reader would judge them: for each, a corpus of confident wrong
answers (swapped, negated, keyword salad, a fact given to the wrong subject) and right answers in other forms
(tests/answer_corpus.py), each against the rule as it stands in the author's world — through the same fill
functions the live checks use on a learner's world.

    .venv/bin/python -m pytest tests/test_answer_corpus.py -q -p no:cacheprovider

``DEV`` is what the judge was developed against; ``HOLDOUT`` was written with it and first run once the judge was
done (the closing report of issue 42 gives that first score); both are held to here.
"""
from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

import toolkit.lessons as lessons
from tests import answer_corpus as corpus
from tests.lesson_answers import RULES

USERS = {int(u["id"]): u["nickname"] for u in json.loads(
    (Path(lessons.__file__).parent / "data" / "users" / "demo_users.json").read_text("utf-8"))}

# The author's world: a fresh sandbox, each walkthrough run top to bottom (what the stored outputs show).
PRODUCTS = {"local": ("Local", 98.81), "message": ("Message", 99.26), "channel": ("Channel", 100.0),
            "login": ("Login", 100.0), "navi": ("Navi", 100.0), "search": ("Search", 100.0),
            "social": ("Social", 100.0)}
WORLD = {"00.2": {"overall": 99.72}, "01.4": {"linked": 11, "email": 7, "who": 4100000001},
         "03b.2": {"stored": 4, "spent": 687000, "sent": 4512},
         "05.4": {"km": 18.026, "minutes": 41.57, "fare": 16900}, "07.4": {"linked": 9, "asked": 8, "agreed": 7}}


def author_rule(eid: str) -> dict:
    """The rule of ``eid`` as its check builds it in the author's world."""
    rule = copy.deepcopy(RULES[eid])
    w = WORLD.get(eid, {})
    if eid == "00.2":
        lessons.fill_00_2(rule, w["overall"], PRODUCTS)
    elif eid == "01.4":
        lessons.fill_01_4(rule, w["linked"], w["email"], [w["who"]], USERS)
    elif eid == "03b.2":
        lessons._fact(rule, "stored")["number"], lessons._fact(rule, "spent")["number"] = w["stored"], w["spent"]
    elif eid == "05.4":
        for key in ("km", "minutes", "fare"):
            lessons._fact(rule, key)["number"] = w[key]
    elif eid == "07.4":
        lessons._fact(rule, "linked")["number"] = w["linked"]
        lessons._fact(rule, "share")["number"] = 100 * w["agreed"] / w["asked"]
    return rule


def _cap(text: str) -> str:
    return text[:1].upper() + text[1:]


def values(eid: str) -> dict:
    """What the corpus's templates are filled with, in the author's world."""
    rule = author_rule(eid)
    if eid == "00.2":
        least = lessons._fact(rule, "least")["is"][0]
        other = next(p for p, (_, pct) in PRODUCTS.items() if p != least and pct < 100)
        return {"overall": lessons._fact(rule, "overall")["number"], "least": PRODUCTS[least][0],
                "least_pct": PRODUCTS[least][1], "other": PRODUCTS[other][0], "other_pct": PRODUCTS[other][1]}
    if eid == "01.4":
        w = WORLD[eid]
        from toolkit.prose import romanise

        other = 4100000002
        return {"linked": w["linked"], "email": w["email"], "linked_w": corpus.words(w["linked"]),
                "Linked_w": _cap(corpus.words(w["linked"])), "email_w": corpus.words(w["email"]),
                "linked_plus": w["linked"] + 1, "who": USERS[w["who"]], "who_en": _cap(romanise(USERS[w["who"]])),
                "other": USERS[other], "other_en": _cap(romanise(USERS[other]))}
    if eid == "03b.2":
        w = WORLD[eid]
        return {"stored": w["stored"], "stored_w": corpus.words(w["stored"]), "spent": w["spent"],
                "spent_k": w["spent"] // 1000, "spent_about": round(w["spent"], -4), "sent": w["sent"],
                "spent_wrong": w["spent"] * 2, "missing": w["sent"] - w["stored"]}
    if eid == "04b.4":
        f = {x["id"]: x for x in rule["facts"]}
        customers = 93
        return {"district": "부산진구", "district_en": "Busanjin", "there": f["there"]["number"],
                "there_w": _cap(corpus.words(f["there"]["number"])), "unplaced": f["unplaced"]["number"],
                "unplaced_w": _cap(corpus.words(f["unplaced"]["number"])), "share": f["share"]["number"],
                "customers": customers, "placed": customers - f["unplaced"]["number"], "second": "사하구",
                "unplaced_pct": 100 * f["unplaced"]["number"] / customers, "share_wrong": f["share"]["number"] * 3,
                "share_ceil": int(f["share"]["number"]) + 1}
    if eid == "05.4":
        w = WORLD[eid]
        return {"km": w["km"], "minutes": w["minutes"], "fare": w["fare"], "fare_round": round(w["fare"], -3),
                "minutes_w": corpus.words(round(w["minutes"])), "metres": round(w["km"] * 1000),
                "seconds": round(w["minutes"] * 60)}
    if eid == "07.4":
        w = WORLD[eid]
        share = 100 * w["agreed"] / w["asked"]
        return {"linked": w["linked"], "asked": w["asked"], "agreed": w["agreed"], "share": share,
                "share_linked": 100 * w["agreed"] / w["linked"], "share_frac": f"{share / 100:g}",
                "refused_share": 100 - share, "linked_w": corpus.words(w["linked"]),
                "Linked_w": _cap(corpus.words(w["linked"])), "agreed_w": _cap(corpus.words(w["agreed"])),
                "asked_w": corpus.words(w["asked"])}
    return {}


KNOWN = {("03b.2", "{stored} users, {spent:,} KRW spent together;"):
         "a terse note: a count with no word that says what it counts (stored, in the file) is not bound to a role"}
"""Held-out answers the judge still misreads, and why (strict: when one is read right, it leaves this list)."""


def cases(which: dict) -> list:
    out = []
    for eid, answers in sorted(which.items()):
        for k, (template, right) in enumerate(answers):
            why = next((why for (e, head), why in KNOWN.items() if e == eid and template.startswith(head)), None)
            marks = [pytest.mark.xfail(reason=why, strict=True)] if why else []
            out.append(pytest.param(eid, template, right, id=f"{eid}-{'right' if right else 'wrong'}-{k}",
                                    marks=marks))
    return out


def verdict(eid: str, template: str):
    text = template.format(**values(eid))
    return text, lessons._judge(eid, text, author_rule(eid))


@pytest.mark.parametrize("eid,template,right", cases(corpus.DEV))
def test_the_development_corpus_is_judged_as_a_reader_would(eid, template, right):
    text, result = verdict(eid, template)
    assert result.ok == right, f"{eid}: {text!r}\n→ {result}"


@pytest.mark.parametrize("eid,template,right", cases(corpus.HOLDOUT))
def test_the_held_out_corpus_is_judged_as_a_reader_would(eid, template, right):
    text, result = verdict(eid, template)
    assert result.ok == right, f"{eid}: {text!r}\n→ {result}"


def test_each_write_and_explain_exercise_has_its_corpus():
    free = {eid for eid, rule in RULES.items() if rule["kind"] == "facts"}
    assert free == set(corpus.DEV) == set(corpus.HOLDOUT)
    for eid in free:
        answers = corpus.DEV[eid] + corpus.HOLDOUT[eid]
        assert sum(r for _, r in answers) >= 10 and sum(not r for _, r in answers) >= 10, eid


def test_the_feedback_names_roles_never_values():
    """Every wrong answer's feedback names what is off by its role; no right value shows in it."""
    for eid in corpus.DEV:
        v = values(eid)
        secrets = [f"{x:g}" if isinstance(x, float) else str(x) for k, x in v.items()
                   if k in ("overall", "least", "linked", "email", "who", "stored", "spent", "there", "unplaced",
                            "km", "fare", "district", "share") and not isinstance(x, str) or k in ("least", "who",
                                                                                                 "district")]
        for template, right in corpus.DEV[eid]:
            if right:
                continue
            text, result = verdict(eid, template)
            said = str(result).split("—", 1)[1]
            for secret in secrets:
                if len(secret) > 1 and secret not in text:
                    assert secret not in said, f"{eid}: {secret!r} shown in {result}"
