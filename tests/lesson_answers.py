"""The rules of the walkthroughs' exercises, in plain text: what ``toolkit.lessons`` stores encoded.

Only facts of the read-only city (and of the toolkit's behaviour) are stored with their right value (``v``). The
exercises marked ``# live`` depend on the learner's world: their rule stores the kind of answer and its known
slips, and ``toolkit.lessons`` computes what is right from the learner's sandbox when it checks.

After changing a rule here (or adding an exercise), write the encoded form into ``toolkit/lessons.py``:
``python -m tests.lesson_answers`` prints the new ``_RULES`` line. ``tests/test_lessons.py`` checks that the two
agree, that every exercise of the notebooks has a rule and the reverse, and each rule's feedback.
"""
from __future__ import annotations


def choice(level, v, why, explain, wants="one letter", options="abc", task="predict"):
    """A predict exercise (or another task answered by one letter): ``explain`` is what
    :func:`toolkit.lessons.answer` shows (it starts with the letter, so the solution's source need not hold it)."""
    assert explain.startswith(f"({v}): "), explain
    return {"kind": "choice", "level": level, "predict": task == "predict", "wants": wants, "v": v,
            "options": list(options), "why": why, "explain": explain, "task": task}


def claims(level, v, why, explain, options="abcd", task="interpret", wants="the letters of the claims that hold"):
    """An interpret (or explain) exercise: the learner picks every stated claim that holds (``v``, letters);
    ``why`` says, for each claim that does not hold, what is wrong with it."""
    assert set(v) <= set(options) and set(why) == set(options) - set(v), (v, why)
    return {"kind": "claims", "level": level, "wants": wants, "v": sorted(v), "options": list(options), "why": why,
            "explain": explain, "task": task}


def facts(level, wants, *facts_, task="write", min_words=10, max_words=None, explain=None):
    """A write exercise: a text for a reader that must contain ``facts`` (``{"say": ..., "any": [...]}`` or
    ``{"say": ..., "number": v, "tol": t}``); a live rule fills in the facts' values from the learner's world."""
    rule = {"kind": "facts", "level": level, "wants": wants, "facts": list(facts_), "task": task,
            "min_words": min_words}
    if max_words:
        rule["max_words"] = max_words
    if explain:
        rule["explain"] = explain
    return rule


def number(v, **extra):
    return {"kind": "number", "v": v, **extra}


def text(*v, **extra):
    return {"kind": "text", "v": list(v), **extra}


def items(v, **extra):
    return {"kind": "items", "v": list(v), **extra}


def record(level, wants, task="compute", **parts):
    return {"kind": "record", "level": level, "wants": wants, "parts": parts, "task": task}


def top(level, wants, rule, task="compute"):
    return {"level": level, "wants": wants, "task": task, **rule}


RULES = {
    "00.1": choice(1, "c", {
        "a": "the service keeps 30 days before today: 90 days of rows cannot exist.",
        "b": "nothing is dropped silently: a bound the toolkit knows is checked before sending.",
        "d": "think of where the bound is known: no request goes out for a value outside it."},
        "(c): the toolkit knows the bound (1 to 31 days) and refuses before a request is sent; the next cell "
        "shows it.", options="abcd"),
    "00.2": facts(2, "two or three sentences for a manager (a string)",                      # live
                  {"say": "the products' availability over the week (%)", "number": None, "tol": 0.06},
                  {"say": "which product was the least available", "any": None},
                  {"say": "that the dates are UTC days", "any": ["UTC"]}, min_words=15, max_words=80),
    "00.3": top(1, "a number", {"kind": "number"}),                                      # live
    "00.4": top(2, "a list of IP blocks, earliest change first",
                items(["198.51.100.96/27", "192.0.2.80/28", "192.0.2.144/28", "203.0.113.80/28"], ordered=True)),
    "00.5": claims(2, "ac", {
        "b": "a cell is the day's worst status, not how long it lasted: Local's red day of 15 November was a "
             "2-hour outage (the weekly update below gives its start and end).",
        "d": "blue is planned MAINTENANCE: it is left out of availability and reported apart from outages."},
        "(a) and (c) hold: a cell is one UTC day's worst status, and every product has at least one cell that is "
        "not green. A red cell is not a whole day down, and blue (planned maintenance) is not counted as an outage."),
    "01.1": choice(1, "b", {
        "a": "a code alone proves nothing: the app first checks that the redirect answers its own request.",
        "c": "the token endpoint is never reached: the check happens in the app, before any request."},
        "(b): the app compares the redirect's state with the request's and refuses before any request is sent."),
    "01.2": {"kind": "pkce", "level": 2, "wants": "the pair (your_verifier, your_challenge)", "task": "compute"},
    "01.3": top(2, "the user id (sub) in the fixed cell's token", text("4100000002", noun="user id", numeric_ok=True,
                                                                     why={"4100000001": (
        "that is 민지's id, from the token of section 2: read the claims of the token the fixed cell gets.")}),
        task="debug"),
    "01.4": facts(3, "your text (a string of two to four sentences)",                     # live
                  {"say": "how many users are linked to the app"},
                  {"say": "how many of them share their e-mail (account_email)"},
                  {"say": "who withdrew a consent most recently"},
                  task="write", min_words=20, max_words=100),
    "01.5": record(2, "{'users': ..., 'before': ..., 'after': ...}",                     # live
                   users={"kind": "number"}, before={"kind": "number"}, after={"kind": "number"}),
    "01.6": claims(2, "ace", {
        "b": "민지 had agreed to profile (section 4 shows it agreed); the app requires it, so it is not revocable "
             "and the service answers -3.",
        "d": "nothing failed: the answer lists what was revoked, and a term never agreed to is left out."},
        "(a), (c), (e) hold.", options="abcde", task="explain"),
    "02.1": choice(1, "b", {
        "a": "a right issuer and audience say nothing about who signed: the signature is checked too.",
        "c": "the issuer is right here; the check that fails comes later in the order."},
        "(b): issuer and audience pass; the signature check refuses the token (invalid_key), and the app answers "
        "400."),
    "02.2": record(2, "{'status': ..., 'err': ...}", task="debug",
                   status={"kind": "number", "v": 400, "why": {
                       "202": "202 is the answer to a verified token; this one is forged."}},
                   err={"kind": "text", "v": ["invalid_issuer"], "noun": "error",
                        "why": {"invalid_key": "the issuer is checked before the signature.",
                                "invalid_request": "that is the broken cell's answer: the inbox refused the request "
                                                   "by its Content-Type and never read the token; send the token "
                                                   "itself with the SET's content type."}}),
    "02.3": record(1, "{'received': ..., 'verified': ...}",                               # live
                   received={"kind": "number"}, verified={"kind": "number"}),
    "02.4": claims(2, "ad", {
        "b": "after its last attempt a delivery stays failed: nothing sends it again, the app must catch up "
             "another way.",
        "c": "the log holds what the platform sent; the forged tokens went straight to the inbox, never through "
             "the platform."},
        "(a) and (d) hold: three attempts each, then failed; delivered is about the answer, not what the app did."),
    "03a.1": top(2, "the number of stories", {"kind": "number"}, task="debug"),          # live
    "03a.2": top(2, "a list of nicknames", items(["Alex", "Alice", "Ivy"])),
    "03a.3": choice(1, "b", {
        "a": "with several receivers the call answers 200: a partial failure is a row of the report, not an error.",
        "c": "the limit counts at once: the third message of the call already meets it."},
        "(b): a limit reached in the middle of a call is a partial failure (HTTP 200 with failure_info); the next "
        "cells show it."),
    "03a.4": claims(2, "ad", {
        "b": "the limit counts the messages friends received, one per receiver; a memo to oneself and a refused "
             "receiver do not count.",
        "c": "a refused message is not kept for later: the app must send it again.",
        "e": "two messages had gone out already, so a limit of 5 leaves three: two of the five are still refused."},
        "(a) and (d) hold: a partial failure is rows of a 200 report; for one receiver the limit is an ApiError.",
        options="abcde"),
    "03b.1": choice(1, "b", {
        "a": "NONE is the relation of a linked user who never added the channel; these users are not linked.",
        "c": "one call reads many users; unknown ones do not fail it."},
        "(b): users not linked to the app are omitted, and the meta lists them; the next cell shows it."),
    "03b.2": facts(2, "a text for the marketing team (2 to 4 sentences)",                 # live
                   {"say": "how many users the file stores", "number": None},
                   {"say": "what they spent together (KRW)", "number": None},
                   {"say": "why the others are not stored",                 # only who added the channel
                    "any": ["added the channel", "added our channel", "added your channel", "added this channel",
                            "added _xcLqmC", "who added", "not added", "채널을 추가", "채널 추가", "추가한"]},
                   min_words=20, max_words=100),
    "03b.3": top(2, "the number stored", {"kind": "number"}),                             # live
    "04a.1": choice(1, "a", {
        "b": "the exact search reads land-lot addresses too: the lots 341-17 and 341-5 are land-lot addresses.",
        "c": "the exact search answered in full (one empty page): there is nothing more to read."},
        "(a): no lot is numbered 341 alone in 전포동; 'similar' lets the main number 341 match every sub-number "
        "(341-1, 341-5, …), 'exact' wants that very number.", task="explain"),
    "04a.2": record(2, "{'legal': ..., 'administrative': ...}", task="debug",
                    legal={"kind": "text", "v": ["우동"], "noun": "dong",
                           "why": {"우제1동": "that is the administrative dong (H); the legal one is type B."}},
                    administrative={"kind": "text", "v": ["우제1동"], "noun": "dong",
                                    "why": {"우동": "that is the legal dong (B); the administrative one is type H."}}),
    "04a.3": choice(1, "b", {
        "a": "however many match, the pages of one search stop at a ceiling.",
        "c": "category_all reads every page, not just the first."},
        "(b): a search shows at most 45 places however many match; the next cells show the counts."),
    "04a.4": claims(2, ["a", "c"], {
        "b": "the map draws one page (15 places) of the search: a part of the rect with no dot may hold cafés that "
             "page did not reach.",
        "d": "a rect has no centre: a rect search gives no distance (a centre with x and y does)."},
        "(a) and (c) hold: one page shows 15 of the cafés, and every page together stops at the 45 ceiling, so only "
        "smaller searches combined reach them all."),
    "04b.1": choice(1, "b", {
        "a": "the answers already received are kept: the run stops cleanly.",
        "c": "geocode does not sleep until tomorrow: it stops and says how to go on."},
        "(b): geocode stops cleanly at the quota and says how to resume; the next cells show it."),
    "04b.2": claims(2, ["a", "c"], {
        "b": "one of them is in Seoul: the sandbox's world is Busan, so no correction places it.",
        "d": "the exact search settled none of them (0 of 3): a lot without its sub-number, or a road in two "
             "districts, needs a person."},
        "(a) and (c) hold: a road number in two districts and a lot number shared by several lots are several "
        "places; only the customer can say which."),
    "04b.3": top(1, "a district name", text("기장군", noun="district", why={
        "부산진구": "부산진구 has the most customers; the question is spend per customer."})),
    "04b.4": facts(2, "a text for the shop's manager (2–4 sentences)",
                   {"say": "which district has the most customers", "any": ["부산진구", "Busanjin"]},
                   {"say": "how many customers live there", "number": 10},
                   {"say": "how many customers are not on the map", "number": 5},
                   {"say": "their share of all spending (in %)", "number": 1.8, "tol": 0.05},
                   min_words=20, max_words=90),
    "04b.5": record(2, "{'customers': ..., 'blank': ..., 'spaced': ...}", task="debug",
                    customers={"kind": "number", "v": 93, "why": {
                        "99": "that counts the file's rows: 6 rows repeat a customer (count after dropping them)."}},
                    blank={"kind": "number", "v": 1, "why": {
                        "0": "the empty cell was read as NaN, and NaN == '' is False: read with keep_default_na=False "
                             "(and dtype=str), as section 1 does."}},
                    spaced={"kind": "number", "v": 0, "why": {
                        "8": "str.strip() trims only the ends: split the address into words and join them with one "
                             "space, as section 2 does."}}),
    "05.1": record(2, "{'left': ..., 'right': ..., 'longest_m': ...}",
                   left={"kind": "number", "v": 8}, right={"kind": "number", "v": 5},
                   longest_m={"kind": "number", "v": 3145, "unit": "m",
                              "scale": {"0.001": "that is km: the answer is in metres."}}),
    "05.2": choice(1, "b", {
        "a": "the tunnel is the short way through; going round is longer.",
        "c": "avoid=['toll'] changes the route, not only the report."},
        "(b): the detour around the hill is longer and slower, and costs no toll; the next cell shows by how much."),
    "05.3": claims(2, ["a", "c"], {
        "b": "the traffic is the sandbox's model of the time of day on synthetic roads (the lesson's first lines "
             "say so): it says nothing of real Busan at 18:00.",
        "d": "only the main route is coloured by traffic; the dashed lines are the alternatives, in their own "
             "colours, named 'alternative 1' and 'alternative 2' in the legend."},
        "(a) and (c) hold: the bracket is the traffic_state code of the colour, and each dashed line is an "
        "alternative route with its own distance, time and fare."),
    "05.4": facts(2, "a text for a colleague (2–3 sentences)",                          # live
                  {"say": "the distance in km", "tol": 0.5},
                  {"say": "the driving time in minutes", "tol": 1},
                  {"say": "the taxi fare in KRW", "tol": 0},
                  {"say": "that the time is a model's estimate", "any": [
                      "model", "estimate", "synthetic", "simulated", "not observed", "추정", "모델", "가상"]},
                  min_words=20, max_words=80),
    "06.1": choice(1, "a", {
        "b": "cafés are many, but fewer than another group everywhere.",
        "c": "estate agents are many in some districts, but never the largest group."},
        "(a): restaurants lead in every district; the table below shows it in its last column."),
    "06.2": record(2, "{'most': [...], 'fewest': ...}",
                   most={"kind": "items", "v": ["기장군", "서구"], "tie": True,      # tied in the table's rounding,
                         "also": [["기장군"]]},                                       # not in the exact ratios
                   fewest={"kind": "text", "v": ["사하구"], "noun": "district"}),
    "06.3": claims(2, ["a", "c"], {
        "b": "MT1 holds the registry's 슈퍼마켓 class, mostly small grocery stores; 대형마트 (supermarket) is only the "
             "group's name in the API.",
        "d": "the ratio compares counts of places; it says nothing of how much coffee anyone drinks."},
        "(a) and (c) hold: a landmark group holds only the buildings named so, and the registry's groups count "
        "every shop."),
    "06.4": record(2, "{'car_minutes': ..., 'subway_minutes': ..., 'faster': 'car' or 'subway'}",
                   car_minutes={"kind": "number", "v": 39, "tol": 1, "unit": "min",
                                "scale": {"60": "that is seconds: divide by 60 for minutes."}},
                   subway_minutes={"kind": "number", "v": 50, "tol": 1, "unit": "min",
                                   "scale": {"60": "that is seconds: divide by 60 for minutes."}},
                   faster={"kind": "text", "v": ["car"], "noun": "answer"}),
    "07.1": choice(1, "b", {
        "a": "availability is time, not days: one bad day does not lose the whole day when the outage was 2 hours.",
        "c": "a product is down while any of its APIs is: the address search outage counts against Local."},
        "(b): 2 hours down in the 168 hours of the week: (168 − 2) ÷ 168 = 98.8%; the next cell shows it."),
    "07.2": claims(2, "ad", {
        "b": "planned MAINTENANCE is not counted: Channel stays at 100% (its maintenance minutes are reported apart).",
        "c": "YELLOW is up but degraded: the six hours of Blog search count as up, and Search stays at 100%."},
        "(a) and (d) hold: 8 November 16:00 UTC is 9 November 01:00 in Seoul, inside the KST week; Local's 2-hour "
        "outage falls in both weeks. Maintenance is not counted and YELLOW is counted as up."),
    "07.3": choice(1, "b", {
        "a": "a rate of 0 % would need users who were asked and said no; for this item there is nobody to count.",
        "c": "the items the app requires are drawn dark; this one is not required."},
        "(b): no linked user was ever asked for it (no consent is recorded), so there is no rate to draw; a 0 % bar "
        "would say that everyone asked refused.", task="explain"),
    "07.4": facts(2, "two to four sentences for the product owner (a string)",                # live
                  {"say": "how many users are linked to the app", "number": None},
                  {"say": "the share of the users asked who agree to share their e-mail (%)", "number": None,
                   "tol": 0.06},
                  {"say": "which consent item the share is about", "any": ["e-mail", "email", "이메일",
                                                                           "account_email"]},
                  min_words=15, max_words=90),
    "07.5": top(1, "a list of sheet names", items(["availability", "days", "incidents", "periods"])),
}

if __name__ == "__main__":
    from toolkit.lessons import _encode

    print(f'_RULES = "{_encode(RULES)}"')
