"""Start-up to the first local answer: ``toolkit.connect(sandbox=True, fresh=True)`` then one keyword search over
the whole city, each run in a new Python process (nothing loaded before), median of the runs.

    .venv/bin/python tests/bench/bench_startup.py [--short] [--datasets DIR [DIR ...]]

With several ``--datasets`` folders (for example the datasets of two revisions) the runs alternate between them,
so the figures printed side by side were measured under the same machine load. Goal (issue "the whole city"):
first local answer at most 2 s after ``connect()``.
"""
from __future__ import annotations

import os
import statistics
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
CHILD = r"""
import time
t0 = time.perf_counter()
import toolkit
from toolkit.local import BUSAN_RECT
tk = toolkit.connect(sandbox=True, fresh=True)
t1 = time.perf_counter()
docs = tk.local.keyword("해운대", rect=BUSAN_RECT, size=5)
t2 = time.perf_counter()
assert len(docs) > 0
print(f"{t1 - t0:.4f} {t2 - t1:.4f} {t2 - t0:.4f}")
"""


def run(datasets: Path | None) -> tuple[float, float, float]:
    env = dict(os.environ)
    if datasets is not None:
        env["TOOLKIT_DATASETS"] = str(datasets)
    out = subprocess.run([sys.executable, "-c", CHILD], env=env, cwd=ROOT, capture_output=True, text=True,
                         timeout=300, check=True).stdout.split()
    return float(out[0]), float(out[1]), float(out[2])


def main(argv: list[str]) -> int:
    n = 3 if "--short" in argv else 7
    folders: list[Path | None] = [Path(a).resolve() for a in argv[argv.index("--datasets") + 1:]] \
        if "--datasets" in argv else [None]
    times: dict[int, list[tuple[float, float, float]]] = {i: [] for i in range(len(folders))}
    for _ in range(n):
        for i, folder in enumerate(folders):
            times[i].append(run(folder))
    print(f"benchmark start-up, new process each run, median of {n}")
    print(f"{'datasets':<44} {'connect (s)':>12} {'1st keyword (s)':>16} {'total (s)':>10}")
    for i, folder in enumerate(folders):
        med = [statistics.median(t[k] for t in times[i]) for k in range(3)]
        name = str(folder) if folder else "repository datasets/"
        print(f"{name[-44:]:<44} {med[0]:>12.3f} {med[1]:>16.3f} {med[2]:>10.3f}"
              f"   goal total ≤ 2 s {'met' if med[2] <= 2 else 'NOT met'}")
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
