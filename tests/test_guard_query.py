"""The guard's query-string decoder answers exactly as ``urllib.parse.parse_qsl`` (keep_blank_values, strict
UTF-8) on every input: its fast path for ASCII query strings decodes escapes in C, and a query string with raw
non-ASCII bytes goes through ``parse_qsl`` itself."""
from __future__ import annotations

from urllib.parse import parse_qsl, urlencode

from hypothesis import given, settings, strategies as st

from toolkit.sandbox.guard import InputError, _decode_pairs, _unescape
from urllib.parse import unquote_to_bytes

PIECES = ["a", "query", "=", "&", "+", " ", "%", "%4", "%41", "%4a", "%zz", "%%", "%2", "%e2%82%ac", "%EB%B6%80",
          "%ED%A0%80", "%C0%80", "%FF", "%00", "%26", "%3D", "%2B", "\\", "\\x41", "\\n", "\\\\", "x", "0", "١",
          "ж", "\x00", "\x7f", "%0a"]


def reference(raw: bytes):
    try:
        return parse_qsl(raw.decode("latin-1"), keep_blank_values=True, encoding="utf-8", errors="strict")
    except UnicodeDecodeError:
        return "not UTF-8"


def ours(raw: bytes):
    try:
        return _decode_pairs(raw, "the query string")
    except InputError as exc:
        assert str(exc) == "the query string must be valid UTF-8 once percent-decoded"
        return "not UTF-8"


@settings(max_examples=3000, deadline=None)
@given(st.lists(st.sampled_from(PIECES), max_size=24))
def test_same_pairs_as_parse_qsl(pieces):
    raw = "".join(pieces).encode("utf-8")
    assert ours(raw) == reference(raw)


@settings(max_examples=1000, deadline=None)
@given(st.binary(max_size=40))
def test_same_pairs_as_parse_qsl_on_any_bytes(raw):
    assert ours(raw) == reference(raw)


@settings(max_examples=2000, deadline=None)
@given(st.text(alphabet="%\\x0123456789abcdefABCDEFz+ ", max_size=30))
def test_unescape_is_unquote_to_bytes(text):
    raw = text.encode("ascii")
    assert _unescape(raw) == unquote_to_bytes(raw)


def test_what_clients_send():
    raw = urlencode({"query": "부산 부산진구 전포동 341-17", "size": 1, "rect": "128.76,34.88,129.32,35.40"}).encode()
    assert ours(raw) == [("query", "부산 부산진구 전포동 341-17"), ("size", "1"),
                         ("rect", "128.76,34.88,129.32,35.40")] == reference(raw)


@given(st.text(alphabet=st.characters(max_codepoint=127), max_size=18))
def test_short_ascii_text_passes_every_check(text):
    """check_fields skips check_text for ASCII text without NUL up to SHORT_ASCII characters: it always passes."""
    from toolkit.sandbox.guard import SHORT_ASCII, check_text

    assert SHORT_ASCII == 18
    if "\x00" not in text:
        assert check_text(text, "f") == text
    assert check_text("9" * 18, "f") and check_text("-" + "9" * 18, "f")
