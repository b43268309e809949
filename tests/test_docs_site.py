"""The documentation site builds offline from the repository with warnings as errors (a broken cross-reference,
a docstring that does not parse, a missing page fail it), and holds what it promises: getting started with the
README's two set-up commands, a user-guide page per area, every walkthrough rendered with its stored outputs,
every stored map carrying the tiles of its first view (so it draws with no network and no Jupyter), the bundled
Hangul font for the site's Hangul, an API reference with every public method of every area and its example, the
instructors' and deploy guides and the changelog; and no page loads anything from another host. The docstrings'
examples the reference shows are Python and name calls that exist.

One build per session (``docs_site`` in tests/conftest.py; its tests are one xdist group, conftest.py), shared
with tests/browser/test_docs_site.py."""
from __future__ import annotations

import ast
import html
import inspect
import json
import re
import zlib
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
pytestmark = pytest.mark.timeout(600)


@pytest.fixture(scope="module")
def site(docs_site):
    print(f"docs build: {docs_site.seconds:.0f} s")
    assert docs_site.returncode == 0, docs_site.output[-8000:]
    return docs_site.html


def _inventory(site: Path) -> dict[str, str]:
    """``{name: role}`` of the site's objects.inv (Sphinx's inventory of what the site documents)."""
    data = (site / "objects.inv").read_bytes()
    body = zlib.decompress(data.split(b"\n", 4)[4]).decode("utf-8")
    return {line.split(" ", 2)[0]: line.split(" ", 2)[1] for line in body.splitlines() if line}


def test_the_site_builds_with_warnings_as_errors(site):
    assert (site / "index.html").is_file() and (site / "docs" / "index.html").is_file()


def test_getting_started_shows_the_readmes_two_set_up_commands(site):
    page = html.unescape(re.sub(r"<[^>]+>", "", (site / "docs" / "getting-started.html").read_text("utf-8")))
    readme = (ROOT / "README.md").read_text("utf-8")
    for marker in ("<!-- lab-command -->", "<!-- test-command -->"):
        command = readme.split(marker, 1)[1].split("```", 2)[1].strip()
        assert command in page, command


def test_every_area_of_the_user_guide_and_every_walkthrough_has_a_page(site):
    for md in (ROOT / "docs" / "guide").glob("*.md"):
        assert (site / "docs" / "guide" / f"{md.stem}.html").is_file(), md.name
    for nb in (ROOT / "notebooks").glob("*.ipynb"):
        page = (site / "notebooks" / f"{nb.stem}.html").read_text("utf-8")
        assert "cell_output" in page, f"{nb.name}: rendered without its stored outputs"
    for extra in ("docs/instructors.html", "deploy/README.html", "CHANGELOG.html", "notebooks/reference/api.html"):
        assert (site / extra).is_file(), extra


def test_the_api_reference_has_every_public_method_of_every_area_with_its_example(site):
    from tests.test_public_docs import METHODS

    documented = _inventory(site)
    missing = []
    for name, fn in METHODS.items():
        qualified = f"{fn.__module__}.{fn.__qualname__}"
        if documented.get(qualified) != "py:method":
            missing.append(f"{name} ({qualified})")
    assert not missing, "area methods missing from the API reference:\n  " + "\n  ".join(missing)
    for fn in (METHODS["tk.local.category"], METHODS["tk.navi.directions"]):
        page = (site / "docs" / "api" / f"{fn.__module__.split('.')[-1]}.html").read_text("utf-8")
        anchor = page.index(f'id="{fn.__module__}.{fn.__qualname__}"')
        entry = page[anchor:page.index("</dd>", anchor)]
        assert "highlight-pycon" in entry or "doctest" in entry, f"{fn.__qualname__}: no example on its page"
        for parameter in list(inspect.signature(fn).parameters)[1:3]:
            assert parameter in entry, (fn.__qualname__, parameter)
    for name in ("toolkit.connect", "toolkit.maps.places_map", "toolkit.reports.consent_summary"):
        assert name in documented, name


def _site_widths() -> tuple[int, ...]:
    """The column widths the site embeds each map's first-view tiles for (``docs/_ext/maps.py``)."""
    import importlib.util

    spec = importlib.util.spec_from_file_location("_docs_maps", ROOT / "docs" / "_ext" / "maps.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module.WIDTHS


def test_every_stored_map_is_drawn_from_its_data_form_with_its_first_views_tiles(site):
    """As the HTML export draws it: each map's data form becomes a box with the spec, its first view at every width
    the theme's column takes and those views' tiles (no folium page in an iframe, which inlined Leaflet once per
    map), and a page with maps loads Leaflet and the drawing code from the site once."""
    from toolkit.mapassets.spec import MIME, spec_view

    widths = _site_widths()
    maps = tiles = 0
    for nb in sorted((ROOT / "notebooks").glob("*.ipynb")):
        stored = [o["data"][MIME] for cell in json.loads(nb.read_text("utf-8"))["cells"]
                  for o in cell.get("outputs", []) if MIME in o.get("data", {})]
        page = (site / "notebooks" / f"{nb.stem}.html").read_text("utf-8")
        boxes = re.findall(r'<script type="application/json" class="toolkit-export-map-data">(.*?)</script>', page,
                           flags=re.S)
        assert len(boxes) == len(stored), (nb.name, len(boxes), len(stored))
        assert "L.tileLayer.toolkit(" not in html.unescape(page) and MIME not in page, nb.name
        assert page.count('src="../_static/toolkit-maps.js"') == (1 if stored else 0), nb.name
        for spec, box in zip(stored, boxes):
            data = json.loads(box)
            assert data["spec"] == spec and [v["width"] for v in data["views"]] == sorted(widths, reverse=True)
            assert all(url.startswith("data:image/png;base64,") for url in data["tiles"].values())
            for view in data["views"]:
                first = spec_view(spec, view["width"], 520)
                keys = [f"{z}/{x}/{y}" for z, x, y in first["tiles"]]
                assert view["zoom"] == first["zoom"] and view["center"] == list(first["center"]), (nb.name, view)
                assert len(keys) >= 4 and set(keys) <= set(data["tiles"]), (nb.name, view["width"])
            maps += 1
            tiles += len(data["tiles"])
    script = (site / "_static" / "toolkit-maps.js").read_text("utf-8")
    assert 'version="1.9.4"' in script and "root.toolkitMap = factory()" in script and "drawMap(L, host" in script
    licences = (site / "_static" / "toolkit-maps-licences.txt").read_text("utf-8")
    assert "Agafonkin" in licences and "David Leaver" in licences          # Leaflet's and the clusters'
    print(f"{maps} maps on the site, {tiles} tiles embedded (first views at {widths} pixels)")
    assert maps > 0


def test_hangul_has_a_font_on_every_page_and_nothing_comes_from_another_host(site):
    css = (site / "_static" / "toolkit-hangul.css").read_text("utf-8")
    assert "unicode-range:U+1100" in css and "toolkit-hangul" in css
    for face in re.findall(r"url\(([^)]+)\)", css):
        assert (site / "_static" / face).stat().st_size > 100_000, face
    remote = re.compile(r"""<(?:script|link|img|iframe)\b[^>]*\b(?:src|href)=["'](?:https?:)?//""", re.I)
    pages = [p for p in site.rglob("*.html") if "_static" not in p.relative_to(site).parts]
    assert len(pages) > 40
    for page in pages:
        text = page.read_text("utf-8")
        assert "toolkit-hangul.css" in text or page == site / "index.html", page   # the root only redirects
        assert not remote.search(text), f"{page.relative_to(site)}: {remote.search(text).group(0)}"


API_MODULES = sorted({m for page in (ROOT / "docs" / "api").glob("*.md")
                      for m in re.findall(r"^\.\. automodule:: (\S+)", page.read_text("utf-8"), flags=re.M)})
"""The modules the API reference documents (its pages' ``automodule`` lines)."""


def test_every_example_in_the_api_references_docstrings_is_python_and_names_real_calls():
    """The site shows the docstrings' ``>>>`` examples without running them (nbval and the pages' own tests run
    code): each must at least be Python, and a ``tk.area.method(`` it names must exist on a client."""
    import doctest
    import importlib

    import toolkit
    from toolkit.client import AREAS

    parser = doctest.DocTestParser()
    areas = {name: getattr(importlib.import_module(spec.split(":")[0]), spec.split(":")[1])
             for name, spec in AREAS.items()}
    checked, broken = 0, []
    for module_name in API_MODULES:
        module = importlib.import_module(module_name)
        finder = doctest.DocTestFinder(exclude_empty=True)
        for test in finder.find(module, module_name, globs={}):
            for example in test.examples:
                checked += 1
                try:
                    # as Jupyter and the asyncio REPL read it: `await` at the top level is allowed
                    compile(example.source, f"{test.name} example", "exec", flags=ast.PyCF_ALLOW_TOP_LEVEL_AWAIT)
                except SyntaxError as error:
                    broken.append(f"{test.name}: {example.source.strip()!r}: {error.msg}")
                for area, method in re.findall(r"\btk\.([a-z]+)\.([a-z_]\w*)\(", example.source):
                    if area in areas and not hasattr(areas[area], method):
                        broken.append(f"{test.name}: tk.{area}.{method} does not exist")
    assert checked > 300 and toolkit.__name__ in API_MODULES, (checked, API_MODULES[:5])
    assert not broken, "docstring examples that are not Python or name no real call:\n  " + "\n  ".join(broken)
