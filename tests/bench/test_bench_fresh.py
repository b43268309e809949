"""CI runs the fresh-sandbox benchmark short so it cannot rot; timings are printed, never asserted."""
import subprocess
import sys
from pathlib import Path


def test_fresh_benchmark_runs_and_prints_its_ratio():
    script = Path(__file__).with_name("bench_fresh.py")
    out = subprocess.run([sys.executable, str(script), "--short"], capture_output=True, text=True, timeout=300)
    assert out.returncode == 0, out.stderr
    lines = [line for line in out.stdout.splitlines() if line and not line.startswith("benchmark")]
    assert len(lines) == 4 and all(float(line.split()[-1]) > 0 for line in lines)
    print(out.stdout)
