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


def claims(level, v, why, explain, options="abcd", task="interpret", wants="the letters of the claims that hold",
           evidence="what it is about"):
    """An interpret (or explain) exercise: the learner picks every stated claim that holds (``v``, letters);
    ``why`` says, for each claim that does not hold, what is wrong with it (shown from the third try, without its
    letter); ``evidence``: what to re-read the claims against (the feedback says how many are off, not which)."""
    assert set(v) <= set(options) and set(why) == set(options) - set(v), (v, why)
    return {"kind": "claims", "level": level, "wants": wants, "v": sorted(v), "options": list(options), "why": why,
            "explain": explain, "task": task, "evidence": evidence}


def facts(level, wants, *facts_, task="write", min_words=10, max_words=None, explain=None, names=None,
          groups=None, lesson=None):
    """A write or explain exercise: a text that must state ``facts``, each bound to its role (see
    :mod:`toolkit.prose`): a number (``number``, ``unit``, ``tol``, ``round``, ``about``, ``cues``), an entity picked
    from ``names[entity]`` (``is``, ``cues``, ``contrary``) or a claim (``claims``, ``contrary``). ``names``: the
    names entity facts pick from (kind → id → written forms); ``groups``: facts of which one stated suffices (e.g.
    what either search did), by group id → ``say``. A live rule fills in the values from the learner's world;
    ``lesson``: the facts' values at the lesson's own clock (a fact of the read-only city at a fixed time), so that a
    text written then is told its world changed once the learner's clock moved on."""
    rule = {"kind": "facts", "level": level, "wants": wants, "facts": list(facts_), "task": task,
            "min_words": min_words}
    for key, value in (("max_words", max_words), ("explain", explain), ("names", names), ("groups", groups),
                       ("lesson", lesson)):
        if value:
            rule[key] = value
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
                  {"id": "overall", "say": "the products' availability over the week, all products together (%)",
                   "ask": "how available were the products together?", "number": None, "unit": "%", "tol": 0.005,
                   "round": 0.1, "about": 0.1,
                   "cues": [r"\bproducts\b", r"\boverall\b", r"\ball\b", r"\btogether\b", r"\bcombined\b",
                            r"\bacross\b", r"\bin total\b", r"\bplatform\b", r"\bservices\b", r"\beverything\b",
                            r"\bas a whole\b", r"\bwe\b", r"\bour\b", "전체", "제품들?의"]},
                  {"id": "least", "say": "which product was the least available", "ask": "which product?",
                   "entity": "product", "is": None,
                   "cues": [r"\bleast\b", r"\blowest\b", r"\bworst\b", r"\bweakest\b", r"\bdown the most\b",
                            r"\bmost down\b", r"\bmost downtime\b", r"\bpoorest\b", "가장[^.]{0,12}?(낮|나쁜)"],
                   "contrary": [r"\bmost available\b", r"\bhighest\b", r"\bbest\b", r"\bfully available\b",
                                r"\bnever down\b", r"\bmost reliable\b", "가장[^.]{0,12}?높"]},
                  {"id": "utc", "say": "in which time zone the dates are", "ask": "which time zone?",
                   "claims": [r"\butc\b", r"universal time", r"\bgmt\b", "협정 ?세계시"],
                   "contrary": [r"\bkst\b", r"\bkorea(n)? (standard )?time\b", r"\bseoul time\b", r"\bkorean days\b",
                                r"\bin seoul\b", "한국 ?시간"]},
                  names={"product": None}, min_words=10, max_words=80),
    "00.3": top(1, "a number", {"kind": "number"}),                                      # live
    "00.4": top(2, "a list of IP blocks, earliest change first",
                items(["198.51.100.96/27", "192.0.2.80/28", "192.0.2.144/28", "203.0.113.80/28"], ordered=True)),
    "00.5": claims(2, "ac", {
        "b": "a cell is the day's worst status, not how long it lasted: Local's RED day of 15 November was a 2-hour "
             "outage (the weekly update below gives its start and end).",
        "d": "MAINTENANCE is planned: it is left out of availability and reported apart from outages."},
        "(a) and (c) hold: a cell is one UTC day's worst status, and every product has at least one day that is not "
        "GREEN. A RED cell is not a whole day down, and planned MAINTENANCE is not counted as an outage.",
        evidence="the heatmap and the table of history counts"),
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
                  {"id": "linked", "say": "how many users are linked to the app", "ask": "how many are linked?",
                   "number": None, "unit": "count",
                   "cues": [r"\blinked\b", r"\blink(s|ed)?\b", r"\bconnected\b", r"\buse the app\b",
                            r"\bsigned up\b", r"\baccounts?\b", "연결"]},
                  {"id": "email", "say": "how many of them share their e-mail (account_email)",
                   "ask": "how many share it?", "number": None, "unit": "count",
                   "cues": [r"e-?mail", r"account_email", r"\bshar(e|es|ing)\b", "이메일"]},
                  {"id": "who", "say": "who withdrew a consent most recently", "ask": "who was it?",
                   "entity": "user", "is": None,
                   "cues": [r"\bwithdr\w*", r"\btook back\b", r"\btaken back\b", r"\btakes? back\b", r"\brevok\w*",
                            r"\bpull\w*", r"\bopted out\b", "철회", "취소"]},
                  names={"user": None}, task="write", min_words=10, max_words=100),
    "01.5": record(2, "{'users': ..., 'before': ..., 'after': ...}",                     # live
                   users={"kind": "number"}, before={"kind": "number"}, after={"kind": "number"}),
    "01.6": claims(2, "ace", {
        "b": "민지 had agreed to profile (section 4 shows it agreed); the app requires it, so it is not revocable "
             "and the service answers -3.",
        "d": "nothing failed: the answer lists what was revoked, and a term never agreed to is left out."},
        "(a), (c), (e) hold.", options="abcde", task="explain", evidence="what sections 4 and 5 showed"),
    "02.1": choice(1, "b", {
        "a": "the signature is checked last: a check before it refuses this token first.",
        "c": "a well-formed token proves nothing: the app answers 202 only to a token that passes every check."},
        "(b): the app checks the form, the issuer, the audience and then the signature, and answers the first that "
        "fails: here the audience (invalid_audience), with HTTP 400; the next cells show it."),
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
        "(a) and (d) hold: three attempts each, then failed; delivered is about the answer, not what the app did.", evidence="the delivery log and the inbox's frame"),
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
        options="abcde", evidence="the report of the call and the error after it"),
    "03b.1": choice(1, "b", {
        "a": "NONE is the relation of a linked user who never added the channel; these users are not linked.",
        "c": "one call reads many users; unknown ones do not fail it."},
        "(b): users not linked to the app are omitted, and the meta lists them; the next cell shows it."),
    "03b.2": facts(2, "a text for the marketing team (2 to 4 sentences)",                 # live
                   {"id": "stored", "say": "how many users the file stores", "ask": "how many are in it?",
                    "number": None, "unit": "count",
                    "cues": [r"\bstor\w*", r"\bholds?\b", r"\bkeeps?\b", r"\bkept\b", r"\bin (it|the file)\b",
                             r"\bfile\b", r"\bmade it\b", r"\bhas\b", r"\bthere are\b", "저장"]},
                   {"id": "spent", "say": "what they spent together (KRW)", "ask": "how much, all together?",
                    "number": None, "unit": "KRW", "round": 1, "about": 10000,
                    "cues": [r"\bspen[dt]\w*", r"\bpurchases?\b", r"\btotal\w*", r"\bsum\b", r"\badd up\b",
                             "구매", "금액"],
                    "deny": [r"\beach\b", r"\bper (user|person|customer|head)\b", r"\bon average\b", r"\bapiece\b",
                             r"\baverage\b"]},
                   {"id": "why", "say": "why the others are not stored", "ask": "what do the stored users have in common?",
                    "claims": [r"\bonly\b[^.;]{0,60}?\badd(ed|s)?\b",
                               r"!(\bnot\b|n't\b|\bnever\b)[^.;]{0,12}?\badd(ed)?\b",
                               r"\badded\b[^.;]{0,50}?\b(kept|stored|stay|remain|made it)\b",
                               "추가한[^.]{0,12}?만", "!추가하지 않", "!추가 ?안"],
                    "contrary": [r"!\bbecause\b[^.;]{0,30}?(\bnot\b|n't\b|\bnever\b)[^.;]{0,20}?\b(log\w* in|"
                                 r"consent\w*|link\w*|agree\w*|sign\w* up)",
                                 r"\bbecause\b[^.;]{0,40}?\b(blocked|deleted|the delete|random|duplicates?|invalid|"
                                 r"errors?|consent)\b", r"\b(removed|deleted) by\b",
                                 r"\b(drops?|dropped|removed?|chos\w+|picked|kept|stored|keeps)\b[^.;]{0,25}?\bat random\b"],
                    "negated_contrary": False, "reason": True},
                   min_words=10, max_words=100),
    "03b.3": top(2, "the number stored", {"kind": "number"}),                             # live
    "04a.1": facts(1, "your explanation (a string of one or two sentences)",
                   {"id": "similar", "say": "what the similar search let 341 match", "group": "roles",
                    "entity": "mode", "is": ["similar"],
                    "cues": [r"sub-?(numbers?|lots?)", r"\bmain number\b", r"\bstart(s|ing)? with 341\b",
                             r"\bprefix\b", r"\b(every|each) one of (those|them)\b", r"\ball of (those|them)\b",
                             "부번", "본번"],
                    "contrary": [r"\b(spelling|typos?|fuzzy|nearest|look alike|looks? like|nearby)\b"]},
                   {"id": "exact", "say": "what the exact search wants", "group": "roles",
                    "entity": "mode", "is": ["exact"],
                    "cues": [r"\b(that|the|this) very number\b", r"\bexact(ly)?\s+(lot\s+|number\s+)?341\b(?!-)",
                             r"\bexact match\b", r"\b341\b(?!-)\s*(alone|itself|by itself|on its own)",
                             r"!\b341\b(?!-)\s*(with no|without (a|any)) sub-?number", r"\b(plain|just|only) 341\b(?!-)",
                             "정확히 ?341"]},
                   {"id": "alone", "say": "whether a lot numbered 341 alone exists",
                    "ask": "what are the lots of 전포동 numbered?",
                    "claims": [r"!\bno\b[^.;]{0,40}?\b341\b(?!-)", r"!\bnone\b[^.;]{0,40}?\b341\b(?!-)",
                               r"!\b341\b(?!-)[^.;]{0,40}?\b(does ?n[o']t|is ?n[o']t)\s+(exist|there|a lot|in)",
                               r"!\b341\b(?!-)[^.;]{0,40}?\bno such\b",
                               r"!\b(isn't|is not|there's no|there is no)\s+(one|such (a )?lot)\b",
                               r"\b(every|each|all)\b[^.;]{0,40}?\b(has|have|with|carr\w*|are|is)\b[^.;]{0,25}?"
                               r"\bsub-?(numbers?|lots?)\b",
                               r"\bonly\b[^.;]{0,30}?\b341-", r"\bonly\b[^.;]{0,25}?\bsub-?numbers?\b",
                               "!341번지?\\s*자체가?\\s*없", "!341번지?(는|은)?\\s*없", "부번만"],
                    "contrary": [r"\b(there is|there's|exists?)\b[^.;]{0,20}?\b(lot|address)\b[^.;]{0,12}?\b341\b(?!-)",
                                 r"\b341\b(?!-)\s+exists\b"]},
                   names={"mode": {"similar": ["similar", "유사"], "exact": ["exact", "정확"]}},
                   groups={"roles": {"say": "what each search did with the number 341 (similar, exact)",
                                     "ask": "what does each one match?"}},
                   task="explain", min_words=8, max_words=80,
                   explain="No lot of 전포동 is numbered 341 alone: the lots are 341-1, 341-5, …; 'similar' lets the "
                           "main number 341 match every sub-number, 'exact' wants that very number."),
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
        "smaller searches combined reach them all.", evidence="the map and the search's meta"),
    "04b.1": choice(1, "b", {
        "a": "the answers already received are kept: the run stops cleanly.",
        "c": "geocode does not sleep until tomorrow: it stops and says how to go on."},
        "(b): geocode stops cleanly at the quota and says how to resume; the next cells show it."),
    "04b.2": claims(2, ["a", "c"], {
        "b": "one of them is in Seoul: the sandbox's world is Busan, so no correction places it.",
        "d": "the exact search settled none of them (0 of 3): a lot without its sub-number, or a road in two "
             "districts, needs a person."},
        "(a) and (c) hold: a road number in two districts and a lot number shared by several lots are several "
        "places; only the customer can say which.", evidence="the rows that need a look and their counts"),
    "04b.3": top(1, "a district name", text("기장군", noun="district", why={
        "부산진구": "부산진구 has the most customers; the question is spend per customer."})),
    "04b.4": facts(2, "a text for the shop's manager (2–4 sentences)",
                   {"id": "district", "say": "which district has the most customers", "ask": "which district?",
                    "entity": "district", "is": ["부산진구"],
                    "cues": [r"\bmost\b", r"\bleads?\b", r"\bbusiest\b", r"\blargest\b", r"\btop\b", r"\bfirst\b",
                             r"\bmore than (in )?any\b", "가장 많"],
                    "contrary": [r"\bfewest\b", r"\bleast\b", r"\bsmallest\b", "가장 적"]},
                   {"id": "there", "say": "how many customers live there", "ask": "how many live there?",
                    "number": 10, "unit": "count", "names": ["부산진구"], "kind": "district",
                    "cues": [r"\blive\w*", r"\bthere\b", r"\bmost\b", r"\bleads?\b", r"\bbusiest\b", r"\bhome to\b",
                             r"\btop\b", "가장 많", "살"]},
                   {"id": "unplaced", "say": "how many customers are not on the map", "ask": "how many?",
                    "number": 7, "unit": "count",
                    "cues": [r"!(\bnot\b|n't\b|\bnever\b)[^.;]{0,20}?\b(placed|mapped|located|found|on the map|shown|"
                             r"geocoded|place)\b", r"\bleaves? (out|off)\b", r"\bleft (out|off)\b", r"\bunplaced\b",
                             r"\bmissing\b", r"\bmiss(es)?\b", r"\boff the map\b", r"\bmisses\b",
                             "!표시되지 않", "빠진", "누락"]},
                   {"id": "share", "say": "their share of all spending (in %)", "ask": "what share of spending?",
                    "number": 4.4, "unit": "%", "tol": 0.05, "round": 0.1, "about": 1,
                    "cues": [r"\bspen[dt]\w*", r"\bsales\b", r"\bpurchases\b", r"\bof (all|the total|everything)\b",
                             r"\bshare\b", r"\bworth\b", r"\baccount for\b", "구매", "지출", "매출"],
                    "deny": [r"\blive\w*", "부산진구", r"\bbusanjin"],
                    "deny_unless": [r"\bnot\b", r"n't\b", r"\bleft\b", r"\bleaves?\b", r"\bmiss\w*", r"\bunplaced\b",
                                    r"\boff\b", "않"]},
                   names={"district": {d: [d] for d in ["중구", "서구", "동구", "영도구", "부산진구", "동래구", "남구",
                                                         "북구", "해운대구", "사하구", "금정구", "강서구", "연제구",
                                                         "수영구", "사상구", "기장군"]}},
                   min_words=10, max_words=90),
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
                   left={"kind": "number", "v": 4}, right={"kind": "number", "v": 3},
                   longest_m={"kind": "number", "v": 2940, "unit": "m",
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
        "alternative route with its own distance, time and fare.", evidence="the map's legend and what hovering a line shows"),
    "05.4": facts(2, "a text for a colleague (2–3 sentences)",                          # live
                  {"id": "km", "say": "the distance in km", "ask": "how far?", "number": None, "unit": "km",
                   "tol": 0.05, "round": 1, "about": 1,
                   "cues": [r"\bkm\b", r"kilomet", r"\bfar\b", r"\bdistance\b", r"\blong\b", r"\bdrive\b", r"\btrip\b",
                            r"\bit is\b", r"\bit's\b", "거리"]},
                  {"id": "minutes", "say": "the driving time in minutes", "ask": "how long does it take?",
                   "number": None, "unit": "min", "tol": 1, "round": 1, "about": 5,
                   "cues": [r"\bminutes?\b", r"\bmins?\b", r"\btakes?\b", r"\btook\b", r"\btime\b", r"\bduration\b",
                            r"\bdriv\w*", "분", "걸"]},
                  {"id": "fare", "say": "the taxi fare in KRW", "ask": "what would a taxi cost?", "number": None,
                   "unit": "KRW", "round": 1, "about": 1000,
                   "cues": [r"\btaxi\b", r"\bfare\b", r"\bcosts?\b", r"\bcharge\w*", r"\bwon\b", r"\bkrw\b", "택시",
                            "요금"]},
                  {"id": "trust", "say": "where the time comes from (how far to trust it)",
                   "ask": "is it observed, or what is it?",
                   "claims": [r"\bmodel\w*", r"\bestimat\w*", r"\bsimulat\w*", r"\bsynthetic\b", r"\bapproximat\w*",
                              r"\brough (guide|idea)\b", "추정", "모델", "가상", "시뮬레이션"],
                   "contrary": [r"\bobserved\b", r"\bmeasured\b", r"\bmeasurements?\b",
                                r"\breal(-| )?(world )?traffic\b", r"\blive traffic\b", r"\bactual traffic\b",
                                r"\breal[- ]time\b", r"\breliable\b", "실제"]},
                  min_words=10, max_words=80,
                  # the trip as the lesson computes it, its clock frozen at 2026-11-20 18:00 KST
                  lesson={"unix": 1795165200, "km": 18.081, "minutes": 41.35, "fare": 16900}),
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
        "every shop.", evidence="the side table, the chart and the table of sources"),
    "06.4": record(2, "{'car_minutes': ..., 'subway_minutes': ..., 'faster': 'car' or 'subway'}",
                   car_minutes={"kind": "number", "v": 34, "tol": 1, "unit": "min",
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
        "outage falls in both weeks. Maintenance is not counted and YELLOW is counted as up.", evidence="the two updates and their periods"),
    "07.3": facts(1, "your explanation (a string of one or two sentences)",
                  {"id": "asked", "say": "who was asked for the item",
                   "ask": "how many users were ever asked for it?",
                   "claims": [r"!\b(no one|nobody|no (linked )?users?|none of (the |our )?(linked )?users|"
                              r"not a single (linked )?user|no user)\b[^.;]{0,40}?\b(asked|requested|prompted|shown)\b",
                              r"!\bnever\b[^.;]{0,20}?\b(asked|requested)\b",
                              r"!\bnot\b[^.;]{0,10}?\b(asked|requested)\b",
                              r"!\basked of (nobody|no one|no user|none)\b",
                              r"\bn\b\s*(=|is|was|equals)\s*(0|zero)\b", r"\b(zero|0) (users|people)\b[^.;]{0,20}?\basked\b",
                              "!요청받지 않", "!!아무도[^.]{0,30}?(요청|묻|물어)[^.]{0,6}?(않|없)"],
                   "contrary": [r"\b(all|every(one)?|each)\b[^.;]{0,30}?\b(was|were|been)\s+asked\b",
                                r"\beveryone\b[^.;]{0,30}?\b(refused|declined|said no)\b",
                                r"\b(it is|it's|is a|is an?) required\b"]},
                  {"id": "rate", "say": "why that leaves no rate to draw", "ask": "what would a rate be counted over?",
                   "claims": [r"!\bno (agreement |consent )?(rate|percentage|share|denominator)\b",
                              r"\b(rate|percentage|share)\b[^.;]{0,20}?\b(is|would be|stays?)\s+(undefined|meaningless|"
                              r"impossible|empty|missing)\b",
                              r"!\b(can't|cannot|can not|could ?n[o']t)\b[^.;]{0,12}?\b(be )?(comput|calculat|count|draw)\w*",
                              r"\bdivi\w*\s+by\s+(0|zero|nobody|no one)\b", r"\b0\s*/\s*0\b",
                              r"!\bnothing to (divide|count)\b", r"!\bno one to (count|divide)\b",
                              r"\b0\s*%[^.;]{0,20}?\bwould\b[^.;]{0,12}?\b(mean|say|suggest|imply|claim|tell|be misleading)",
                              r"\brates?\b[^.;]{0,20}?\b(needs?|requires?|only makes? sense|depends? on)\b",
                              "!계산할 수 없", "!비율이 없", "0으로 나누", "!분모가 없"]},
                  task="explain", min_words=6, max_words=80,
                  explain="No linked user was ever asked for it (n = 0), so there is no one to count a rate over: a "
                          "0 % bar would say that everyone asked refused."),
    "07.4": facts(2, "two to four sentences for the product owner (a string)",                # live
                  {"id": "linked", "say": "how many users are linked to the app", "ask": "how many are linked?",
                   "number": None, "unit": "count",
                   "cues": [r"\blinked\b", r"\blink\b", r"\bconnected\b", r"\bin all\b", r"\bin total\b", "연결"]},
                  {"id": "share", "say": "the share of the users asked who agree to share their e-mail (%)",
                   "ask": "what share of the users asked?", "number": None, "unit": "%", "tol": 0.05, "round": 1,
                   "about": 1,
                   "cues": [r"\bagree\w*", r"\bsaid yes\b", r"\bshar\w+", r"\brate\b", r"\bconsent\w*",
                            r"\bopt(ed)? in\b", "동의"],
                   "need": [r"\bask\w*", r"\brequest\w*", r"\bprompted\b", "요청", "물어"],
                   "against": [r"\brefus\w*", r"\bdeclin\w*", r"\bsaid no\b", r"\breject\w*", r"\bdisagree\w*",
                               r"\bwithdr\w*", "거절", "거부"],
                   "contrary": [r"\b(all|every|each)\b[^.;]{0,30}?\blinked\b[^.;]{0,30}?\basked\b"]},
                  {"id": "item", "say": "which consent item the share is about", "ask": "which item?",
                   "claims": [r"e-?mail", r"account_email", "이메일"]},
                  min_words=10, max_words=90),
    "07.5": top(1, "a list of sheet names", items(["about", "availability", "days", "incidents", "periods"])),
}

if __name__ == "__main__":
    from toolkit.lessons import _encode

    print(f'_RULES = "{_encode(RULES)}"')
