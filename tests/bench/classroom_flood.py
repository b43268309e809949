"""Anyone on the network flooding a class sandbox, for a while, from one loopback address: its own process, so its CPU
is not the measuring process's (run by tests/classroom/test_anyone_on_the_network.py and bench_class_load).

    python tests/bench/classroom_flood.py < job.json      # run by the tests, never by hand

The job (JSON on standard input, so no token shows in a process list): ``{"host", "port", "source" (the loopback
address to send from, e.g. 127.0.0.2), "connections", "seconds", "mode", "request"}``. ``mode``:

* ``requests``: each connection sends ``request`` (the raw head of an HTTP/1.1 request, keep-alive) as soon as the
  last answer came, never waiting for ``Retry-After``;
* ``half``: each connection sends the first half of ``request``'s head and then nothing (a slow client, or one
  that means harm); a connection the class sandbox closes is opened again, until ``seconds`` have passed.

The process prints ``ready`` once set up, waits for ``go`` on standard input and prints ``result {...}``: answers by
status, connections opened, closed by the other side, refused, and requests sent. Raw asyncio streams keep its own
cost small (a few µs a request), so what is measured is the class sandbox's.
"""
from __future__ import annotations

import asyncio
import collections
import json
import socket
import sys
import time


async def _open(job: dict):
    sock = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    sock.setblocking(False)
    sock.bind((job["source"], 0))
    await asyncio.get_running_loop().sock_connect(sock, (job["host"], job["port"]))
    return await asyncio.open_connection(sock=sock)


async def _answer(reader) -> int:
    """Read one answer; its status."""
    head = await reader.readuntil(b"\r\n\r\n")
    status = int(head[9:12])
    length = 0
    for line in head.split(b"\r\n"):
        if line[:15].lower() == b"content-length:":
            length = int(line[15:])
    if length:
        await reader.readexactly(length)
    return status


async def flood(job: dict) -> dict:
    statuses: collections.Counter = collections.Counter()
    counts = collections.Counter()
    request = job["request"].encode("latin-1")
    print("ready", flush=True)
    await asyncio.to_thread(sys.stdin.readline)
    until = time.monotonic() + job["seconds"]

    async def one():
        writers = []
        while time.monotonic() < until:
            try:
                reader, writer = await asyncio.wait_for(_open(job), max(0.01, until - time.monotonic()))
            except (OSError, asyncio.TimeoutError):
                counts["refused"] += 1
                await asyncio.sleep(0.01)
                continue
            counts["opened"] += 1
            writers.append(writer)
            try:
                if job["mode"] == "half":
                    writer.write(request[:len(request) // 2])
                    await writer.drain()
                    left = until - time.monotonic()
                    if left > 0 and not await asyncio.wait_for(reader.read(1), left):
                        counts["closed"] += 1           # the class sandbox gave up on it
                    continue
                while time.monotonic() < until:
                    writer.write(request)
                    counts["sent"] += 1
                    statuses[await asyncio.wait_for(_answer(reader), max(0.01, until - time.monotonic() + 5))] += 1
            except asyncio.TimeoutError:
                pass
            except (OSError, asyncio.IncompleteReadError, ValueError):
                counts["closed"] += 1
            finally:
                writer.close()
        for writer in writers:
            writer.close()

    await asyncio.gather(*(one() for _ in range(job["connections"])))
    return {"statuses": {str(k): v for k, v in statuses.items()}, **counts}


def start(job: dict):
    """Start the flood process; returns it and ``go()``, which starts the flood and returns its result."""
    import subprocess
    from pathlib import Path

    proc = subprocess.Popen([sys.executable, str(Path(__file__).resolve())], stdin=subprocess.PIPE,
                            stdout=subprocess.PIPE, text=True)
    proc.stdin.write(json.dumps(job) + "\n")
    proc.stdin.flush()
    assert proc.stdout.readline().strip() == "ready"

    def go() -> dict:
        proc.stdin.write("go\n")
        proc.stdin.flush()
        line = proc.stdout.readline()
        proc.wait(60)
        return json.loads(line.split(" ", 1)[1])
    return proc, go


def main() -> int:
    job = json.loads(sys.stdin.readline())
    result = asyncio.run(flood(job))
    print("result " + json.dumps(result), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
