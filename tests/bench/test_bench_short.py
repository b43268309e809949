"""CI runs the short benchmarks so they cannot rot; timings are printed, never asserted."""
import subprocess
import sys
from pathlib import Path

import pytest


@pytest.mark.parametrize("script, lines_expected", [("bench_core.py", 3), ("bench_fresh.py", 4)])
def test_short_benchmarks_run_and_print_ratios(script, lines_expected):
    path = Path(__file__).with_name(script)
    out = subprocess.run([sys.executable, str(path), "--short"], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    lines = [line for line in out.stdout.splitlines() if line and not line.startswith("benchmark")]
    assert len(lines) == lines_expected and all(float(line.split()[-1]) > 0 for line in lines)
    print(out.stdout)
