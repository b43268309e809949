"""The rules of the walkthroughs' exercises, in plain text: what ``toolkit.lessons`` stores encoded.

Only facts of the read-only city (and of the toolkit's behaviour) are stored with their right value (``v``). The
exercises marked ``# live`` depend on the learner's world: their rule stores the kind of answer and its known
slips, and ``toolkit.lessons`` computes what is right from the learner's sandbox when it checks.

After changing a rule here (or adding an exercise), write the encoded form into ``toolkit/lessons.py``:
``python -m tests.lesson_answers`` prints the new ``_RULES`` line. ``tests/test_lessons.py`` checks that the two
agree, that every exercise of the notebooks has a rule and the reverse, and each rule's feedback.
"""
from __future__ import annotations


def choice(level, v, why, explain, wants="one letter", options="abc"):
    """A predict exercise: one letter; ``explain`` is what :func:`toolkit.lessons.answer` shows (it starts with the
    letter, so the solution's source need not hold it)."""
    assert explain.startswith(f"({v}): "), explain
    return {"kind": "choice", "level": level, "predict": True, "wants": wants, "v": v,
            "options": list(options), "why": why, "explain": explain}


def number(v, **extra):
    return {"kind": "number", "v": v, **extra}


def text(*v, **extra):
    return {"kind": "text", "v": list(v), **extra}


def items(v, **extra):
    return {"kind": "items", "v": list(v), **extra}


def record(level, wants, **parts):
    return {"kind": "record", "level": level, "wants": wants, "parts": parts}


def top(level, wants, rule):
    return {"level": level, "wants": wants, **rule}


# not a wrong answer but a search never made: the learner's sandbox still has the day quota of section 3
NOT_DONE = {"not_done": "not searched: your sandbox's daily quota of address searches is spent (section 3 set it); "
                        "lift it as section 3 does (tk.sandbox.set_quota(\"local_search_address\", None)) and "
                        "geocode again."}

RULES = {
    "00.1": choice(1, "c", {
        "a": "the service keeps 30 days before today: 90 days of rows cannot exist.",
        "b": "nothing is dropped silently: a bound the toolkit knows is checked before sending.",
        "d": "think of where the bound is known: no request goes out for a value outside it."},
        "(c): the toolkit knows the bound (1 to 31 days) and refuses before a request is sent; the next cell "
        "shows it.", options="abcd"),
    "00.2": top(2, "a list of product ids", {"kind": "items"}),                          # live
    "00.3": top(1, "a number", {"kind": "number"}),                                      # live
    "00.4": top(2, "a list of IP blocks, earliest change first",
                items(["198.51.100.96/27", "192.0.2.80/28", "192.0.2.144/28", "203.0.113.80/28"], ordered=True)),
    "01.1": choice(1, "b", {
        "a": "a code alone proves nothing: the app first checks that the redirect answers its own request.",
        "c": "the token endpoint is never reached: the check happens in the app, before any request."},
        "(b): the app compares the redirect's state with the request's and refuses before any request is sent."),
    "01.2": {"kind": "pkce", "level": 2, "wants": "the pair (req.code_verifier, your challenge)"},
    "01.3": record(1, "{'hours': ..., 'kst_date': 'YYYY-MM-DD'}",                          # live
                   hours={"kind": "number", "tol": 0.01, "unit": "h",
                          "scale": {"3600": "that is seconds: divide by 3600 for hours.",
                                    "60": "that is minutes: divide by 60 for hours."}},
                   kst_date={"kind": "text", "noun": "date"}),
    "01.4": top(2, "a list of scope ids", {"kind": "items", "tie": True}),               # live
    "01.5": record(3, "{'users': ..., 'before': ..., 'after': ...}",                     # live
                   users={"kind": "number"}, before={"kind": "number"}, after={"kind": "number"}),
    "02.1": choice(1, "b", {
        "a": "a right issuer and audience say nothing about who signed: the signature is checked too.",
        "c": "the issuer is right here; the check that fails comes later in the order."},
        "(b): issuer and audience pass; the signature check refuses the token (invalid_key), and the app answers "
        "400."),
    "02.2": record(2, "{'status': ..., 'err': ...}",
                   status={"kind": "number", "v": 400, "why": {
                       "202": "202 is the answer to a verified token; this one is forged."}},
                   err={"kind": "text", "v": ["invalid_issuer"], "noun": "error",
                        "why": {"invalid_key": "the issuer is checked before the signature."}}),
    "02.3": record(2, "{'received': ..., 'verified': ...}",                               # live
                   received={"kind": "number"}, verified={"kind": "number"}),
    "03a.1": top(1, "the permission as text", text("ONLY_ME", noun="permission", why={
        "M": "that is the code you send; the story reports the permission in words.",
        "FRIEND": "that is the permission of the photo story above."})),
    "03a.2": top(2, "a list of nicknames", items(["Alex", "Alice", "Ivy"])),
    "03a.3": choice(1, "b", {
        "a": "with several receivers the call answers 200: a partial failure is a row of the report, not an error.",
        "c": "the limit counts at once: the third message of the call already meets it."},
        "(b): a limit reached in the middle of a call is a partial failure (HTTP 200 with failure_info); the next "
        "cells show it."),
    "03a.4": top(1, "the result code", number(0)),
    "03b.1": choice(1, "b", {
        "a": "NONE is the relation of a linked user who never added the channel; these users are not linked.",
        "c": "one call reads many users; unknown ones do not fail it."},
        "(b): users not linked to the app are omitted, and the meta lists them; the next cell shows it."),
    "03b.2": top(1, "a number (KRW)", {"kind": "number", "unit": "KRW"}),                 # live
    "03b.3": top(2, "the number stored", {"kind": "number"}),                             # live
    "04a.1": record(1, "{'land_lot': ..., 'postal_code': ...}",
                    land_lot={"kind": "text", "v": ["부산광역시 해운대구 우동 656"], "noun": "address",
                              "why": {"부산광역시 해운대구 해운대로 626": "that is the road-name address you searched; "
                                                                 "the land-lot one is in address.*"}},
                    postal_code={"kind": "text", "v": ["48095"], "numeric_ok": True, "noun": "postal code"}),
    "04a.2": record(2, "{'legal': ..., 'administrative': ...}",
                    legal={"kind": "text", "v": ["우동"], "noun": "dong",
                           "why": {"우제1동": "that is the administrative dong (H); the legal one is type B."}},
                    administrative={"kind": "text", "v": ["우제1동"], "noun": "dong",
                                    "why": {"우동": "that is the legal dong (B); the administrative one is type H."}}),
    "04a.3": choice(1, "b", {
        "a": "however many match, the pages of one search stop at a ceiling.",
        "c": "category_all reads every page, not just the first."},
        "(b): a search shows at most 45 places however many match; the next cells show the counts."),
    "04a.4": record(2, "{'count': ..., 'nearest': ...}",
                    count={"kind": "number", "v": 26, "why": {
                        "15": "that is one page: read every page (category_all)."}},
                    nearest={"kind": "text", "v": ["지에스25S서면역점"], "noun": "place",
                             "else": "not the nearest: sort by distance (sort='distance')."}),
    "04b.1": choice(1, "b", {
        "a": "the answers already received are kept: the run stops cleanly.",
        "c": "geocode does not sleep until tomorrow: it stops and says how to go on."},
        "(b): geocode stops cleanly at the quota and says how to resume; the next cells show it."),
    "04b.2": record(2, "{'해운대구 해운대로 626': status, '해운대로 999': status}",
                    **{"해운대구 해운대로 626": {"kind": "text", "v": ["matched"], "noun": "status", "why": NOT_DONE},
                       "해운대로 999": {"kind": "text", "v": ["not_found"], "noun": "status", "why": NOT_DONE}}),
    "04b.3": top(1, "a district name", text("기장군", noun="district", why={
        "부산진구": "부산진구 has the most customers; the question is spend per customer."})),
    "04b.4": record(3, "{'customers': ..., 'spend_krw': ..., 'share_pct': ...}",
                    customers={"kind": "number", "v": 5},
                    spend_krw={"kind": "number", "v": 1288500, "unit": "KRW"},
                    share_pct={"kind": "number", "v": 1.8, "tol": 0.051, "unit": "%",
                               "scale": {"0.01": "that is a fraction: multiply by 100 for percent."}}),
    "05.1": record(2, "{'left': ..., 'right': ..., 'longest_m': ...}",
                   left={"kind": "number", "v": 8}, right={"kind": "number", "v": 5},
                   longest_m={"kind": "number", "v": 3145, "unit": "m",
                              "scale": {"0.001": "that is km: the answer is in metres."}}),
    "05.2": choice(1, "b", {
        "a": "the tunnel is the short way through; going round is longer.",
        "c": "avoid=['toll'] changes the route, not only the report."},
        "(b): the detour around the hill is longer and slower, and costs no toll; the next cell shows by how much."),
    "05.3": record(2, "{'shortest': ..., 'fastest': ...}",
                   shortest={"kind": "text", "v": ["DISTANCE"], "noun": "priority"},
                   fastest={"kind": "text", "v": ["TIME"], "noun": "priority"}),
    "05.4": record(1, "{'km': ..., 'minutes': ..., 'taxi_krw': ...}",
                   km={"kind": "number", "v": 18.0, "tol": 0.051, "unit": "km",
                       "scale": {"1000": "that is metres: divide by 1000 for km."}},
                   minutes={"kind": "number", "v": 41, "tol": 1, "unit": "min",
                            "scale": {"60": "that is seconds: divide by 60 for minutes."}},
                   taxi_krw={"kind": "number", "v": 16900, "unit": "KRW"}),
    "06.1": choice(1, "a", {
        "b": "cafés are many, but fewer than another group everywhere.",
        "c": "estate agents are many in some districts, but never the largest group."},
        "(a): restaurants lead in every district; the table below shows it in its last column."),
    "06.2": record(2, "{'most': [...], 'fewest': ...}",
                   most={"kind": "items", "v": ["기장군", "서구"], "tie": True,      # tied in the table's rounding,
                         "also": [["기장군"]]},                                       # not in the exact ratios
                   fewest={"kind": "text", "v": ["사하구"], "noun": "district"}),
    "06.3": record(1, "{'count': ..., 'nearest': ...}",
                   count={"kind": "number", "v": 8},
                   nearest={"kind": "text", "v": ["서면역 2호선", "서면역 1호선"], "noun": "station"}),  # both 67 m
    "06.4": record(2, "{'car_minutes': ..., 'subway_minutes': ..., 'faster': 'car' or 'subway'}",
                   car_minutes={"kind": "number", "v": 39, "tol": 1, "unit": "min",
                                "scale": {"60": "that is seconds: divide by 60 for minutes."}},
                   subway_minutes={"kind": "number", "v": 50, "tol": 1, "unit": "min",
                                   "scale": {"60": "that is seconds: divide by 60 for minutes."}},
                   faster={"kind": "text", "v": ["car"], "noun": "answer"}),
}

if __name__ == "__main__":
    from toolkit.lessons import _encode

    print(f'_RULES = "{_encode(RULES)}"')
