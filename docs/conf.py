"""The documentation site, built offline from the repository (Sphinx, MyST and myst-nb, the PyData theme):

    .venv/bin/python -m sphinx -W --keep-going -n -b html -c docs . docs/_build/html

The source folder is the repository's root, so the pages stay where the repository keeps them and link to each
other as they do on a forge: the site's own pages in ``docs/``, the walkthroughs (``notebooks/*.ipynb``, rendered
with their stored outputs, never executed here: nbval runs them) and the pages they link to
(``notebooks/reference/``), the deploy guide (``deploy/README.md``) and the changelog (``CHANGELOG.md``). The
API reference is generated from the docstrings (autodoc). ``-W -n``: a warning, a broken cross-reference among
them, fails the build (``tests/test_docs_site.py`` runs it).

A stored map draws on the site with no network and no Jupyter server, as the HTML export draws it
(``jupyter nbconvert --to toolkit_html``): :mod:`_ext.maps` draws its data form with the tiles of its first view
embedded and Leaflet shipped by the site."""
from __future__ import annotations

import re
import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent
sys.path.insert(0, str(HERE))            # the site's own extensions (_ext/)

import toolkit  # noqa: E402

project = "toolkit"
author = "the toolkit authors"
copyright = "the toolkit authors, MIT licence"
release = toolkit.__version__
version = re.sub(r"\+.*", "", release)

root_doc = "docs/index"
include_patterns = ["docs/**", "notebooks/*.ipynb", "notebooks/reference/*.md", "deploy/README.md", "CHANGELOG.md"]
exclude_patterns = ["docs/_build", "docs/_build/**", ".venv", ".git", "**/.ipynb_checkpoints", "**/node_modules"]

extensions = [
    "myst_nb",                           # MyST markdown pages and notebooks with their stored outputs
    "sphinx.ext.autodoc",
    "sphinx.ext.napoleon",
    "sphinx.ext.viewcode",
    "_ext.maps",
    "_ext.anchors",
    "_ext.hangul",
]

# ------------------------------------------------------------------ pages and notebooks
myst_enable_extensions = ["colon_fence", "deflist"]
myst_heading_anchors = 4                 # `page.md#a-heading` links, as GitHub and JupyterLab make them
nb_execution_mode = "off"                # the stored outputs, as nbval checks them; nothing runs at build time
nb_merge_streams = True
# a saved toolkit widget shows its static view (text/html) where there is no kernel, as in the lab; the
# widget manager of a live notebook would be fetched from a CDN
nb_mime_priority_overrides = [("html", "application/vnd.jupyter.widget-view+json", None)]
nb_ipywidgets_js = {}                    # and so no widget manager script (it would come from a CDN)
# a stored toolkit map: its data form (application/vnd.toolkit.map+json) drawn as the HTML export draws it, tiles
# embedded, in place of folium's HTML (_ext/maps.py); myst-nb then meets no mime type it does not know
nb_custom_formats = {".ipynb": ["_ext.maps.read_notebook", {}, False]}

# ------------------------------------------------------------------ the API reference
autodoc_member_order = "bysource"
autodoc_typehints = "signature"
autodoc_default_options = {"members": True}
napoleon_numpy_docstring = True
napoleon_google_docstring = False
nitpicky = True
# Only references into toolkit are checked: the types of other libraries (pandas, folium, httpx …) have no
# inventory offline, so a reference to one renders as plain text instead of a link.
# Private names (``toolkit.errors._HttpError``, a base class) are not documented either, nor are the sandbox's
# modules beyond the few the pages name (api/internals.md): references into them are not checked.
nitpick_ignore_regex = [(r"py:.*", r"(?!toolkit\b).*"), (r"py:class", r"toolkit(\.\w+)*\._[A-Za-z]\w*"),
                        (r"py:.*", r"toolkit\.sandbox\..*")]

# ------------------------------------------------------------------ the look
html_theme = "pydata_sphinx_theme"
html_title = f"toolkit {version}"
html_static_path = ["_static"]
html_css_files = ["toolkit.css"]
html_extra_path = ["_extra"]             # index.html at the site's root: the way to docs/index.html
html_theme_options = {
    "navigation_with_keys": False,
    "show_toc_level": 2,
    "header_links_before_dropdown": 4,
    "footer_start": ["copyright"],
    "footer_end": ["sphinx-version"],
}
html_sidebars = {"CHANGELOG": [], "deploy/README": []}
html_show_sourcelink = False
html_copy_source = False
