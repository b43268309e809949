"""Tile benchmark, measured side by side (run: .venv/bin/python tests/bench/bench_tiles.py [--short]).

Starts ``toolkit sandbox`` in its own process, then requests a realistic pan over the city — at each zoom level
a window of tiles moving across Busan, as a map view does when dragged — once cold (drawn on demand) and once
again (from the tile cache), and prints p50 / p95 tile time of both, side by side, with their ratio.
"""
from __future__ import annotations

import argparse
import math
import socket
import statistics
import subprocess
import sys
import time
from pathlib import Path

import httpx

ROOT = Path(__file__).resolve().parents[2]
#: 서면, 남포, 광안, 동래
CENTRES = [(129.059, 35.157), (129.035, 35.105), (129.105, 35.163), (129.085, 35.205)]


def tile_of(lon: float, lat: float, z: int) -> tuple[int, int]:
    n = 1 << z
    return int((lon + 180) / 360 * n), int((1 - math.asinh(math.tan(math.radians(lat))) / math.pi) / 2 * n)


def pan(zooms, window: int) -> list[tuple[int, int, int]]:
    """The tiles a view of ``window`` × ``window`` tiles loads while panning from centre to centre."""
    out: list[tuple[int, int, int]] = []
    for z in zooms:
        for lon, lat in CENTRES:
            cx, cy = tile_of(lon, lat, z)
            for dx in range(-(window // 2), window - window // 2):
                for dy in range(-(window // 2), window - window // 2):
                    if (z, cx + dx, cy + dy) not in out:
                        out.append((z, cx + dx, cy + dy))
    return out


def pct(values, q):
    s = sorted(values)
    return s[min(len(s) - 1, int(round(q * (len(s) - 1))))]


def main(argv=None) -> int:
    parser = argparse.ArgumentParser()
    parser.add_argument("--short", action="store_true", help="zoom 12-15 with a 3x3 view instead of 11-17 4x4")
    short = parser.parse_args(argv).short
    tiles = pan(range(12, 16), 3) if short else pan(range(11, 18), 4)
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    exe = Path(sys.executable).with_name("toolkit")
    cmd = [str(exe)] if exe.exists() else [sys.executable, "-m", "toolkit.cli"]
    proc = subprocess.Popen([*cmd, "sandbox", "--port", str(port)], stdout=subprocess.DEVNULL,
                            stderr=subprocess.DEVNULL, cwd=ROOT)
    base = f"http://127.0.0.1:{port}"
    try:
        with httpx.Client(base_url=base, timeout=30) as http:
            deadline = time.monotonic() + 60
            while True:
                try:
                    if http.get("/sandbox/health").status_code == 200:
                        break
                except httpx.TransportError:
                    pass
                if time.monotonic() > deadline or proc.poll() is not None:
                    print("the sandbox did not start")
                    return 1
                time.sleep(0.2)
            timings = {}
            for run in ("cold", "cached"):
                times = []
                for z, x, y in tiles:
                    t = time.perf_counter()
                    r = http.get(f"/sandbox/tiles/{z}/{x}/{y}.png")
                    times.append(time.perf_counter() - t)
                    if r.status_code != 200 or r.headers["content-type"] != "image/png":
                        print(f"tile {z}/{x}/{y}: HTTP {r.status_code}")
                        return 1
                timings[run] = times
    finally:
        proc.terminate()
        proc.wait(10)
    cold, cached = timings["cold"], timings["cached"]
    print(f"{len(tiles)} tiles, zoom {tiles[0][0]}-{tiles[-1][0]}, `toolkit sandbox` in its own process, one "
          "HTTP keep-alive client")
    print(f"{'':22}{'p50':>10}{'p95':>10}{'mean':>10}")
    for name, t in (("cold (drawn)", cold), ("cached", cached)):
        print(f"{name:22}{pct(t, .5) * 1000:8.1f}ms{pct(t, .95) * 1000:8.1f}ms{statistics.mean(t) * 1000:8.1f}ms")
    print(f"cold/cached p50 = {pct(cold, .5) / pct(cached, .5):5.1f}x   "
          f"p95 = {pct(cold, .95) / pct(cached, .95):5.1f}x")
    return 0


if __name__ == "__main__":
    sys.exit(main())
