"""Check an exercise of the walkthroughs from its own cell, without reading its answer.

>>> import toolkit
>>> toolkit.lessons.check("04a.4", {"count": 3, "nearest": "GS25"})        # doctest: +SKIP
✗ 04a.4 — not yet:
  · count: 3 is too low (by about 90%).
  · nearest: not this place.

Each exercise has a rule: the kind of answer it wants (a choice, a number, a name, a list, several named parts or a
relation the answer must satisfy) and what is right. The feedback says what is off — the wrong type, a missing
part, how far a number is off, how many items are missing, a known mistake — and never shows what is right.

The right answers are the sandbox's: its world is seeded and its clock frozen by each walkthrough, so an answer
is the same on every run. They are stored encoded (so that reading this file does not give them away at a glance;
it is no secret), and each walkthrough's folded answer checks itself, so strict nbval runs notice when the world
changes and a stored answer no longer fits.

:func:`exercises` lists the exercises (id, lesson, difficulty, kind); :func:`check` checks an answer;
:class:`Answer` is how a walkthrough shows its own answer: folded in a box a learner opens with a click.
"""
from __future__ import annotations

import base64
import hashlib
import json
import math
import numbers
import unicodedata
import zlib
from dataclasses import dataclass, field

__all__ = ["check", "exercises", "Answer", "Feedback", "LEVELS"]

LEVELS = {1: "★ easy", 2: "★★ medium", 3: "★★★ hard"}


@dataclass
class Feedback:
    """What :func:`check` found: ``ok`` (also the truth value) and the lines of feedback."""

    exercise: str
    ok: bool
    lines: list[str] = field(default_factory=list)

    def __bool__(self) -> bool:
        return self.ok

    def __str__(self) -> str:
        head = f"✓ {self.exercise} — right." if self.ok else f"✗ {self.exercise} — not yet:"
        return "\n".join([head] + [f"  · {line}" for line in self.lines])

    __repr__ = __str__


class Answer:
    """An exercise's answer as a walkthrough shows it: what the answer's code prints (``box.print``) and its check
    (``box.check(answer)``) go into one box that stays closed — after Run All too — until the learner clicks it.

    >>> box = Answer("03a.4")
    >>> box.print("Delivered to the user's own chatroom.")
    >>> box.check(0)                                          # doctest: +SKIP
    """

    def __init__(self, exercise_id: str):
        self.exercise = str(exercise_id)
        self.lines: list[str] = []
        self.feedback: Feedback | None = None

    def print(self, *values, sep: str = " ", end: str = "\n") -> None:
        self.lines.append(sep.join(str(v) for v in values) + end)

    def check(self, answer) -> None:
        """Check ``answer`` (as :func:`check`) and show the box with everything printed and the verdict."""
        self.feedback = check(self.exercise, answer)
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
    for wrong, why in rule.get("why", {}).items():
        if abs(answer - float(wrong)) <= tol:
            return [why]
    if abs(answer - want) <= tol:
        return []
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
    """Every exercise of the walkthroughs: id (``lesson.number``), difficulty 1–3, kind, what the answer is."""
    return [Exercise(key, r["level"], r["kind"], r["wants"], r.get("predict", False))
            for key, r in sorted(_rules().items(), key=lambda kv: _order(kv[0]))]


def _order(key: str):
    lesson, _, number = key.partition(".")
    return lesson, int(number)


def check(exercise_id: str, answer) -> Feedback:
    """Check ``answer`` to exercise ``exercise_id`` (e.g. ``"04a.2"``): ✓ when right, else what is off.

    The feedback names the part of the answer that is off and how (wrong type, wrong key, a number too high or too
    low and by about how much, items missing or extra, a known slip), never the right answer.
    """
    rules = _rules()
    key = str(exercise_id).strip()
    if key not in rules:
        from .errors import ParameterError, suggest

        near = suggest(key, rules)
        raise ParameterError("exercise_id", f"no exercise {key!r}" + (f"; did you mean {near!r}?" if near else
                                                                       f"; they are {', '.join(sorted(rules))}"))
    rule = rules[key]
    lines = KINDS[rule["kind"]](answer, rule)
    return Feedback(key, not lines, lines)


_RULES = "c-qBUTZ<dX75*!QAj~+-Xj`p|XJnS(-Er6<v3FTJgvA(9QkSHPT3wy0>XC&RFpHm(KsFD{I*SPoY*-dH;0JH;d;X0r|A(AYm%eF68YP7B!+5&7>eRV@=hE|}5d_UvqfeeRW;}`Dm&Rx+_=q(QNF!!vEQX~P{4P?>MWW#8VT0n!A^sTQkErnoex{N|e57H6mKlSEGeZnFENG(fWJ4s3#7t`@&GK|<E~fZOPZ?26p25{*##pLIJ0KBVDl%kaAsNvEp8Dk2t%@;`Vxh>0CW+95J?2U`Enh$lmZm(J5UxlhMVhjRC?2y!$3TLTp~#Ym;FVg4c*ZrEB}fdmkEU!igYE8C#gYgJHLaY6PoB*1_QjMTS3tv3gR@8^>61hd$$p<PrO8AvU^UYOh{3&QG|m`4D;_bzf#LIWAPgo5D<<HY%~ja~q0{HXMl2>gF$&MMN=XdDBTuOmQ8v<qN2=inw=0B`Y(BKgFWVL=x2qJ3jowP3m7Z#p6vZBa*gCfkEF^4!ve60alVQeVt6|AfAvK{B$`eAzV0*L7lM(13u{P`Fv<*>9|Mq96*2G|=zPk<Ay^!YJK27;)MA$sl%NvC{JKNPMWCR9`s{Z=0(K<eAc3aIB5IOFB5Z=UNt>dr>CTbo9AB0Ecg;uBIR>GhSE3H=BZMwujr=O8wEJibRKp2%VM;{qYX)<AC%%#%SYOVh%A}<fd;Z=i?g1W&$X^eY7-)G>(E~NU#1~g4A!!};fU{pJEM_e*64^7m9Nr)*hCxnF$iKb=JMZ6X>mJo=sRPe-jRss@A*i3<NWG^#UkSW~B5}=oO4i3EY(PUYWKX)puMpQbhDljZ-!gv+slI#POCW<})Cis{$c|evTlW3zD;A6sWcnekI3M2-9s#_?f(p>PQF$E&(l1Nk|8Z+~*-3x+plqsN^M5<3BeujWCToT-3z{F6r!BaUi=Sikn<xH<~0{PbhSqz#1a+xI@9i=gCI6vv(mYLFnh-y}0TC>L*cO?*v_-r=hp%VsS@37T63|rRyJ#hHtppGEFdGIko61UK(_nF9I@D_Y|Y?&o7yp(9t^Rl^~?3uTFebQ_;56GTp6&CisfPaT~?;f6<?45g4T>%U<XLTS*r{Mg9l9{xS%R!nAA(p3?#kU%Xlo|Lf6yP1QyTxPL6^}7Ud5Om$gGVI|-?S;uA;~Yu>bs}!pT8mVOd;+{hH*yd$Ux|T%_)z|ux-7}0;~%k`*y?aH*r@6`C4t*)M}M@Y?=Jg3O&M8g2y3?3IZw3gtf6Y*#~|Q*vRpXGU}VlK+g##XM;81Ck8bx@DH;&_YW&g{%AC7pPY+?*N?Z7Pp0VlDgzZzFbB;d&Jrkw6kU4kC3J|j1nNxjN#gMlf2TSFbC&8CNSalsb+loNy$j2iTP1uofjI`>02*S>T=03gHQCaGYghx<bzcrEzRaZD2qW-b$O1=r0(BCP2A1OrmiSjQwp^F1R=QPG<5*W3o;LYxCkU$0g<If14_P*=nRp^DM?^M@-Lfu;R)+t8g9(c+a81iW?u;OM%@x}_sTSTderC#;OOXNzdtNuibV=|d@33$w1mJ>N>8(^QYXjV&C-f1saRZj&{+bH}_nhXU`@I$U+q4#o-dD<z==~;Tat`K)s4Sf4(|f=EVsQ6P6`)Om&o>j4#*y^`|MK(GJNHiN3957kq%|v30k$`}0Hg7YnIOBnUK>N|h04M74>ro|8CwmnQHLm7fSr|(Fi^vlJA&IWdyH>x#}2ek&z6_vr-YAY35Dp+wcWm6<Xdn(1tozm(3m(EkxqwDa^+QI7zEh3q2qJdi8$o|k76U>&12PjV0@86VTr&}g~6E5dERD#!31Eeg;5A!84=Kpf)2(Lv`oZMk48&)$FwT7ZJ@r+72B(z?v9eFEY`+RoGpgeorUgwdhd>RV95afo!?WRcJqvFi*y=AEOHqHx^Na7M^`>qQ?L)(!5%KGfE*aLqEew?#p>OhxJ9zWw9p8m(6|e898F!;`LGrl7wg;?wZHoOw|QB6bTbHoi`rbW58H0!X4uv;hh@Ml+tg9RNM})5y{*6s9y>{m64%scG-eO?p(qkFlJ`{T)q9HEJ~_E_Vj5qsj!qpfw{;>h6c>Y7=#2>(SOfo51**RL*VEOPuin1?%j%nduKxIfy#M<3>f6`v{`B<iPd}2?x3Av)`LCqc?NxI1#xwcDyT896y|7mYP$_71h)6{oFAhzq#J<oXDvELlqWGMP^98%P`E#qDR6x3o2PVii$!qu7U_3A;hukz8h*`ZU=o|&d-NvJOZu3gbb6e@+N_y+i9ZM$~K|=@NEg>4uwlrfRnG_ZSqpV)OXn|oWMzOZ4YddBW5FZJU{f}-~?N)F0I@U|*Z$5F}XO8X0(*^u^Hfuc9?zhZ+;+V4xmwEc=f|A4RD(e0U!Ma(lIS)?7!eFXF!#UNX>4B{gAQzcoC!V$Lj}Va}G*ANRGWOF+gRLW|*(cbi7Wj%}mxhi_i@(FJ&=hkxzbWBJXD7!r8FWK68TQKf*DYJu43*535IHO{NcPM8`*B_ZQZr@mVzFXwzUxMg=3SpCoG}iUBmx6dY@7CR<-<Myym!MW=~4iQ>8LcxSbhI=_03nSKYSN<@2{S{c=y9=#IToNtw+95L+)aZovLqLdtNX47L}JWz8W_<XU0-(Yap2=#=W4KiW!A`Rk+rK2~*WZ!VUw8iWy5GWoyXKTFeF1S_{(*SOVC@DxB1VYh%AO5n%Y--G)2j;I`y(IRv?uFSo4;E=bRhkdX?d<KyF<D1j0NW1Ri3yTwL!!96S~@R&LS`Mbh<+E?y}(AgzAO3vcjH?LNI`^Vd#Uey}{zm;H)ZLDSO)%VYUbKF{fCR5i3&IL|>0Z7E$)NQzC#;>NAQADNC_F#XLZz>tSv(p?bzhwi~bWLkN1y>%VBfWLZigV909#Jxu)XbdvWDZ3+PoYi&ENQt>E66c2Un(l2({8!U{8>KpYMOT2C}1#?i%Xcfpge7bM@QWtSOXX@e-1J^?PA4?UICu&*2=INVlf-*Z6m)JvM`u=Fu#hDt6HAT`{fCWt=HyE17KRsdY#PujqP49#202>wQ0`SSx@}q0+h}1{3(~9rmOJ!F<NJ)3vl(1nqo>@&?P)ckxizz077vHDE;R~BTA{grDuXiA3odz7mfEGxoNO3r!(#Hzv)7XuEGaqcgMlgm@4hF@}*f-av`~17I^gF6h|{QT;cNF37nkXe{lQW$9L8t*AvVw?KrI2xwBKZG~4dzfD+XYFvg|J-(PTt0g~B#6Nb!k$8Q}sjpMs-Ia^uiZTo8Ez5qFTWhTlD!0Q}Q%{L%TAM+hS>?l}=u-QDfiQ^!D_BT|F)cZdbO!NxDIJ8yt_}@R+0S4CN2V{s}@R=F>LQnyO2?!ubCJ<JstzXSw0~DdiFo^@!O_&)oIYNkd3cx(izRHre;}qM{%8B{A0i^6hv$tcdgq&^(to2G^_2rN6zkZHM--IV-_=^XS7knx!stj0ydf8H`c>z)cGd~17Kf>rVOxEna+eg)HEl9WCJ!~rMDnsPF<|pC%=WkZeUj8?Qe{a{0ips(DMf}YGw;0Ua{ISO7??P898$yzDpl*J@Mk%`M^;4nMqF$=7Sxp%DIR+2y5xCgx#81iR{{i*Ky7d"
