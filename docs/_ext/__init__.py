"""The documentation site's own Sphinx extensions (docs/conf.py)."""
