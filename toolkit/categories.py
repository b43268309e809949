"""Category group codes of place search (location §2, ``CategoryGroupCode``) with their Korean and English names.

>>> CATEGORIES["CE7"]
Category(ko='카페', en='cafe')
>>> category_code("pm9")
'PM9'
"""
from __future__ import annotations

from typing import NamedTuple

from .errors import ParameterError, suggest

__all__ = ["CATEGORIES", "Category", "category_code"]


class Category(NamedTuple):
    ko: str
    en: str


CATEGORIES: dict[str, Category] = {
    "MT1": Category("대형마트", "supermarket"),
    "CS2": Category("편의점", "convenience store"),
    "PS3": Category("어린이집, 유치원", "daycare or kindergarten"),
    "SC4": Category("학교", "school"),
    "AC5": Category("학원", "private learning institute"),
    "PK6": Category("주차장", "parking lot"),
    "OL7": Category("주유소, 충전소", "gas or charging station"),
    "SW8": Category("지하철역", "subway station"),
    "BK9": Category("은행", "bank"),
    "CT1": Category("문화시설", "cultural facility"),
    "AG2": Category("중개업소", "real estate agency"),
    "PO3": Category("공공기관", "public institution"),
    "AT4": Category("관광명소", "attraction"),
    "AD5": Category("숙박", "accommodation"),
    "FD6": Category("음식점", "restaurant"),
    "CE7": Category("카페", "cafe"),
    "HP8": Category("병원", "hospital"),
    "PM9": Category("약국", "pharmacy"),
}
"""code → (Korean name, English name), in the spec's order."""


def category_code(value, name: str = "category_group_code") -> str:
    """The category group code ``value`` in upper case, or a :class:`ParameterError` naming the value, the
    nearest code (a code one character off, or the code of a name: ``"cafe"``, ``"카페"``) and every code.

    >>> category_code("CE8")
    Traceback (most recent call last):
    ...
    toolkit.errors.ParameterError: category_group_code='CE8': 'CE8' is not a category group code; did you mean 'CE7' (cafe)? Valid: MT1 supermarket, CS2 convenience store, PS3 daycare or kindergarten, SC4 school, AC5 private learning institute, PK6 parking lot, OL7 gas or charging station, SW8 subway station, BK9 bank, CT1 cultural facility, AG2 real estate agency, PO3 public institution, AT4 attraction, AD5 accommodation, FD6 restaurant, CE7 cafe, HP8 hospital, PM9 pharmacy
    """
    code = value.strip().upper() if isinstance(value, str) else value
    if code not in CATEGORIES:
        listed = ", ".join(f"{c} {n.en}" for c, n in CATEGORIES.items())
        by_name = {n: c for c, cat in CATEGORIES.items() for n in (cat.en, cat.ko, *cat.ko.split(", "),
                                                                     *cat.en.split(" or "))}
        text = str(value).strip().lower() if value is not None else ""
        near = by_name.get(text) or (suggest(text, CATEGORIES) if text else None) or \
            (by_name.get(named) if text and (named := suggest(text, by_name)) is not None else None)
        mean = f"; did you mean {near!r} ({CATEGORIES[near].en})?" if near else "."
        raise ParameterError(name, f"{str(value)!r} is not a category group code{mean} Valid: {listed}", value)
    return code
