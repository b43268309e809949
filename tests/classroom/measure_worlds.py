"""Resident memory of a class sandbox per world: a ``toolkit classroom`` process, then N students each running a
walkthrough's calls (fresh world, status, login, a story, a keyword and an address search, a route).

    python tests/classroom/measure_worlds.py --worlds 60

prints the server's resident memory after its first world, after every tenth, and the cost per extra world,
next to the goal (60 worlds at most 1.5 GB in all). The server runs in its own process; this one is the
students' client.
"""
from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

import toolkit
from toolkit.classroom import read_secret, student_token

GOAL_MB = 1536


def rss_mb(pid: int) -> float:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1]) / 1024
    raise RuntimeError("no VmRSS")


def start(secret_file: Path) -> tuple[subprocess.Popen, str]:
    proc = subprocess.Popen([sys.executable, "-m", "toolkit.cli", "classroom", "--secret-file", str(secret_file)],
                            stdout=subprocess.PIPE, text=True)
    first = proc.stdout.readline()
    url = first.split(" on ", 1)[1].split()[0]
    return proc, url


def walkthrough_calls(url: str, name: str, secret) -> None:
    tk = toolkit.connect(classroom=url, student=name, token=student_token(secret, name), fresh=True)
    tk.status.current()
    tk.login_as(4100000001, scopes=["profile", "friends", "talk_message"])
    tk.story.post_note(f"{name}의 첫 글", permission="F")
    tk.local.keyword("카페", x=129.0592, y=35.1579, radius=1000)
    tk.local.address("전포동 341-17")
    tk.navi.directions((129.0325, 35.1000), (129.0600, 35.1570))
    tk.close()


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--worlds", type=int, default=60)
    args = parser.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        secret_file = Path(tmp) / "class.secret"
        secret = read_secret(secret_file, create=True)
        proc, url = start(secret_file)
        try:
            time.sleep(0.5)
            print(f"class sandbox started: {rss_mb(proc.pid):.0f} MB resident")
            walkthrough_calls(url, "s000", secret)
            first = rss_mb(proc.pid)
            print(f"after 1 world (the city loaded): {first:.0f} MB")
            for i in range(1, args.worlds):
                walkthrough_calls(url, f"s{i:03d}", secret)
                if (i + 1) % 10 == 0 or i + 1 == args.worlds:
                    print(f"after {i + 1} worlds: {rss_mb(proc.pid):.0f} MB", flush=True)
            total = rss_mb(proc.pid)
            per = (total - first) / max(1, args.worlds - 1)
            print(f"per extra world: {per:.1f} MB")
            verdict = "met" if args.worlds < 60 or total <= GOAL_MB else "NOT met"
            print(f"{args.worlds} worlds: {total:.0f} MB resident (goal for 60: at most {GOAL_MB} MB) {verdict}")
        finally:
            proc.terminate()
            proc.wait(30)
    return 0


if __name__ == "__main__":
    sys.exit(main())
