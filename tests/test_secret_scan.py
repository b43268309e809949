"""No secret of the sandbox's demo app, and no raw token, in any stored notebook output."""
from __future__ import annotations

import json
import re
from pathlib import Path

import pytest

NOTEBOOKS = sorted((Path(__file__).resolve().parents[1] / "notebooks").glob("*.ipynb"))
# secrets.token_urlsafe(32) tokens of the sandbox, and JWTs (ID tokens)
TOKEN_LIKE = re.compile(r"(?<![\w-])[A-Za-z0-9_-]{43}(?![\w-])|eyJ[\w-]{10,}\.[\w-]{10,}\.[\w-]{10,}")
# an image inlined in an output's HTML (a figure's <img alt> of toolkit.plots.figure_bundle): image data, as the
# output's image/* data that the scan skips, not text
INLINE_IMAGE = re.compile(r"data:image/(?:png|jpeg);base64,[A-Za-z0-9+/=]+")


def outputs_text(path: Path) -> str:
    nb = json.loads(path.read_text("utf-8"))
    chunks = []
    for cell in nb["cells"]:
        for out in cell.get("outputs", []):
            chunks.append(json.dumps({k: v for k, v in out.items() if k != "data"}, ensure_ascii=False))
            for mime, data in (out.get("data") or {}).items():
                if not mime.startswith("image/"):
                    text = (data if isinstance(data, str) else "".join(data) if isinstance(data, list)
                            else json.dumps(data))
                    chunks.append(INLINE_IMAGE.sub("data:image;base64,…", text))
    return "\n".join(chunks)


def test_there_are_notebooks_to_scan():
    assert NOTEBOOKS, "notebooks/ has no notebook"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_no_app_secret_in_stored_outputs(path, sandbox_server):
    app = sandbox_server.app_config()
    text = outputs_text(path)
    for name in ("rest_api_key", "admin_key", "native_app_key", "javascript_key", "client_secret"):
        assert app[name] not in text, f"{name} of the demo app appears in the outputs of {path.name}"


@pytest.mark.parametrize("path", NOTEBOOKS, ids=lambda p: p.name)
def test_no_token_like_string_in_stored_outputs(path):
    found = TOKEN_LIKE.findall(outputs_text(path))
    assert not found, f"token-like strings in {path.name}: {[f[:6] + '…' for f in found]}"
