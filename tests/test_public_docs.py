"""Every public method of every area (and the top-level helpers) has a docstring with an example and names the
section of the spec it follows (``identity``/``social``/``location`` §N); category codes come with names."""
from __future__ import annotations

import importlib
import inspect
import re

import pytest

import toolkit
from toolkit.client import AREAS
from toolkit.errors import ParameterError

SECTION = re.compile(r"\b(identity|social|location) §\d+(\.\d+)?")


def public_methods():
    for attr, spec in AREAS.items():
        module, cls = spec.split(":")
        area = getattr(importlib.import_module(module), cls)
        for name, fn in inspect.getmembers(area, callable):
            if not name.startswith("_"):
                yield f"tk.{attr}.{name}", fn


METHODS = dict(public_methods())


def test_the_walk_finds_the_areas_methods():
    assert len(METHODS) > 90 and "tk.local.category" in METHODS and "tk.navi.directions" in METHODS


@pytest.mark.parametrize("name", sorted(METHODS))
def test_docstring_has_an_example_and_a_spec_section(name):
    doc = inspect.getdoc(METHODS[name]) or ""
    assert ">>> " in doc, f"{name}: no example"
    assert SECTION.search(doc), f"{name}: no spec section (e.g. 'location §4.6')"


@pytest.mark.parametrize("fn", [toolkit.connect, toolkit.connect_async, toolkit.to_geodataframe])
def test_top_level_helpers_have_examples(fn):
    assert ">>> " in (inspect.getdoc(fn) or "")


def test_categories_pair_every_spec_code_with_korean_and_english_names():
    assert len(toolkit.CATEGORIES) == 18
    assert toolkit.CATEGORIES["PM9"] == ("약국", "pharmacy") and toolkit.CATEGORIES["CE7"].en == "cafe"
    doc = inspect.getdoc(METHODS["tk.local.category"])
    assert all(code in doc for code in toolkit.CATEGORIES) and "약국" in doc


def test_category_accepts_lowercase_and_names_the_codes_when_wrong(tk):
    assert (tk.local.category("pm9", x=129.0592, y=35.1579, radius=1000)["category_group_code"] == "PM9").all()
    with pytest.raises(ParameterError) as info:
        tk.local.category("XX1", x=129.0592, y=35.1579, radius=1000)
    assert info.value.name == "category_group_code" and "PM9 pharmacy" in str(info.value)
