"""CI runs the short tile benchmark so it cannot rot; timings are printed, never asserted."""
import re
import subprocess
import sys
from pathlib import Path


def test_tile_benchmark_runs_and_prints_cold_and_cached_percentiles():
    out = subprocess.run([sys.executable, str(Path(__file__).with_name("bench_tiles.py")), "--short"],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stdout + out.stderr
    rows = {name: re.search(rf"^{name}\s+([\d.]+)ms\s+([\d.]+)ms", out.stdout, re.M)
            for name in (r"cold \(drawn\)", "cached")}
    assert all(rows.values()), out.stdout
    assert all(float(v) > 0 for m in rows.values() for v in m.groups())
    assert "cold/cached p50 =" in out.stdout
    print(out.stdout)
