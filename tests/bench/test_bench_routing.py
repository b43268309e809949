"""CI runs the short routing benchmark so it cannot rot; timings are printed, never asserted."""
import subprocess
import sys
from pathlib import Path


def test_routing_benchmark_runs_and_prints_ratios():
    out = subprocess.run([sys.executable, str(Path(__file__).with_name("bench_routing.py")), "--short"],
                         capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    assert "cold/cached =" in out.stdout and "ratio =" in out.stdout
    print(out.stdout)
