"""Strip this machine's paths from the tracebacks stored in notebooks (cells tagged ``raises-exception`` show an
error as a learner meets it; its traceback names the toolkit's files by absolute path).

    python notebooks/tidy_tracebacks.py notebooks/00_quickstart.ipynb [...]

``/any/where/<repo>/toolkit/area.py`` becomes ``toolkit/area.py``; nbval does not compare tracebacks, so the
stored page still checks. Run it after re-executing a notebook that has such a cell.
"""
from __future__ import annotations

import json
import re
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
# an absolute path up to the repository's top-level package, or into a site-packages folder
PATH = re.compile(r"(\x1b\[[0-9;]*m|^|\s)/[^\s:,\x1b]*?/(?=(?:toolkit|site-packages)/)", re.M)


def tidy(text: str) -> str:
    text = text.replace(str(ROOT) + "/", "")
    return PATH.sub(lambda m: m.group(1), text)


def main(paths: list[str]) -> int:
    for name in paths:
        path = Path(name)
        nb = json.loads(path.read_text("utf-8"))
        changed = False
        for cell in nb["cells"]:
            for out in cell.get("outputs", []):
                if out.get("output_type") == "error":
                    lines = [tidy(line) for line in out["traceback"]]
                    changed |= lines != out["traceback"]
                    out["traceback"] = lines
        if changed:
            path.write_text(json.dumps(nb, ensure_ascii=False, indent=1) + "\n", "utf-8")
            print("tidied", path)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
