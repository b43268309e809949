"""Markdown as the repository writes it for forges and JupyterLab. The anchors its pages set Markdown pages set for forges and JupyterLab (``<a id="x"></a>`` before a
heading) as MyST targets, so ``page.md#x`` links resolve on the site as they do there (the file is not changed); and ``mermaid`` fences, which JupyterLab draws, shown as text."""
import re

ANCHOR = re.compile(r'^<a id="([^"]+)"></a>[ \t]*$', flags=re.M)


def _read(app, docname, source):
    if app.env.doc2path(docname).suffix == ".md":
        source[0] = ANCHOR.sub(r"(\1)=", source[0])


def setup(app):
    from pygments.lexers.special import TextLexer

    app.connect("source-read", _read)
    # diagrams written for JupyterLab's mermaid renderer show as their text (mermaid's script would be fetched)
    app.add_lexer("mermaid", TextLexer)
    return {"parallel_read_safe": True, "parallel_write_safe": True}
