"""CI runs the short benchmarks so they cannot rot; timings are printed, never asserted."""
import subprocess
import sys
from pathlib import Path


def test_core_benchmarks_run_and_print_ratios():
    script = Path(__file__).with_name("bench_core.py")
    out = subprocess.run([sys.executable, str(script), "--short"], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    lines = [line for line in out.stdout.splitlines() if line and not line.startswith("benchmark")]
    assert len(lines) == 3 and all(float(line.split()[-1]) > 0 for line in lines)
    print(out.stdout)
