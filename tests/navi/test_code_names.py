"""The English names of the guide and traffic codes cover the same codes as the Korean ones, and say what the
concepts page says."""
from __future__ import annotations

import re
from pathlib import Path

from toolkit.navicodes import GUIDE_TYPES, GUIDE_TYPES_EN, TRAFFIC_STATES, TRAFFIC_STATES_EN

CONCEPTS = Path(__file__).resolve().parents[2] / "notebooks" / "reference" / "concepts.md"


def _table(codes: dict) -> dict:
    """code -> (Korean, English) from the concepts page's rows ``| code | 한국어 | English |``."""
    rows = re.findall(r"^\s*\|\s*(\d+)\s*\|\s*([^|]+?)\s*\|\s*([^|]+?)\s*\|\s*$", CONCEPTS.read_text("utf-8"), re.M)
    return {int(c): (ko, en) for c, ko, en in rows if int(c) in codes and ko == codes[int(c)]}


def test_english_names_cover_the_same_codes():
    assert GUIDE_TYPES_EN.keys() == GUIDE_TYPES.keys()
    assert TRAFFIC_STATES_EN.keys() == TRAFFIC_STATES.keys()


def test_english_names_match_the_concepts_page():
    for korean, english in ((GUIDE_TYPES, GUIDE_TYPES_EN), (TRAFFIC_STATES, TRAFFIC_STATES_EN)):
        page = _table(korean)
        assert page.keys() == korean.keys()
        assert {code: en for code, (_, en) in page.items()} == english
