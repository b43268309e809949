"""CI runs the short geocode benchmark so it cannot rot; timings are printed, never asserted."""
import subprocess
import sys
from pathlib import Path


def test_geocode_benchmark_runs_and_prints_ratios():
    script = Path(__file__).with_name("bench_geocode.py")
    out = subprocess.run([sys.executable, str(script), "--short"], capture_output=True, text=True, timeout=600,
                         cwd=Path(__file__).resolve().parents[2])
    assert out.returncode == 0, out.stderr
    lines = out.stdout.splitlines()
    values = {line.rsplit(" ", 1)[0]: float(line.rsplit(" ", 1)[1]) for line in lines[1:]}
    assert values["speed-up toolkit vs plain loop (ratio)"] > 0
    assert values["toolkit distinct-request rate vs raw rate (ratio)"] > 0
    assert values["sandbox raw request rate, bare httpx, 210 distinct requests (per second)"] > 0
    assert values["cached run: first run requests"] == 210
    assert values["cached run: second run requests (client count)"] == 0
    assert values["cached run: second run requests (sandbox count)"] == 0
    print(out.stdout)
