"""A loopback HTTP proxy that injects faults in front of a real server (the sandbox), for tests.

Each incoming request takes the next action of a script (the last action repeats):

* ``"forward"``      pass the request to the upstream and its answer back
* ``"429"``/``"503"``/``"500"``  answer that status without forwarding (429 carries ``Retry-After: 0``)
* ``"reset"``        close the connection without an answer, without forwarding
* ``"forward-reset"`` forward the request (the upstream acts on it), then drop the answer
* ``"slow:S"``       wait S seconds, then forward

It binds 127.0.0.1 only, serves one request per connection and counts what reached the upstream.
"""
from __future__ import annotations

import asyncio
import threading
from urllib.parse import urlsplit


class FaultProxy:
    def __init__(self, upstream: str, script: list[str]):
        parts = urlsplit(upstream)
        self.up_host, self.up_port = parts.hostname, parts.port
        self.script = list(script)
        self.seen: list[str] = []          # request lines received
        self.forwarded: list[str] = []     # request lines that reached the upstream
        self._loop = asyncio.new_event_loop()
        self._ready = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True)

    # ------------------------------------------------------------------ lifecycle
    def __enter__(self):
        self._thread.start()
        self._ready.wait(10)
        return self

    def __exit__(self, *exc):
        asyncio.run_coroutine_threadsafe(self._shutdown(), self._loop).result(10)
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(10)
        self._loop.close()

    async def _shutdown(self):
        self._server.close()
        await self._server.wait_closed()
        tasks = [t for t in asyncio.all_tasks() if t is not asyncio.current_task()]
        for task in tasks:
            task.cancel()
        await asyncio.gather(*tasks, return_exceptions=True)

    def _run(self):
        asyncio.set_event_loop(self._loop)
        self._server = self._loop.run_until_complete(asyncio.start_server(self._handle, "127.0.0.1", 0))
        self.port = self._server.sockets[0].getsockname()[1]
        self._ready.set()
        self._loop.run_forever()

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    # ------------------------------------------------------------------ one request
    def _next(self) -> str:
        return self.script.pop(0) if len(self.script) > 1 else self.script[0]

    async def _handle(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter):
        try:
            head = await reader.readuntil(b"\r\n\r\n")
            length = 0
            for line in head.split(b"\r\n")[1:]:
                name, _, value = line.partition(b":")
                if name.strip().lower() == b"content-length":
                    length = int(value.strip())
            body = await reader.readexactly(length) if length else b""
            request_line = head.split(b"\r\n", 1)[0].decode()
            self.seen.append(request_line)
            action = self._next()
            if action in ("429", "500", "503"):
                extra = b"Retry-After: 0\r\n" if action == "429" else b""
                payload = b'{"msg":"injected fault","code":-9}'
                writer.write(b"HTTP/1.1 " + action.encode() + b" Injected\r\nContent-Type: application/json\r\n" + extra
                             + b"Content-Length: " + str(len(payload)).encode() + b"\r\nConnection: close\r\n\r\n"
                             + payload)
            elif action == "reset":
                pass
            else:
                if action.startswith("slow:"):
                    await asyncio.sleep(float(action.split(":")[1]))
                answer = await self._forward(head, body)
                self.forwarded.append(request_line)
                if action != "forward-reset":
                    writer.write(answer)
            await writer.drain()
        except (asyncio.IncompleteReadError, ConnectionError, asyncio.CancelledError):
            pass
        finally:
            writer.close()

    async def _forward(self, head: bytes, body: bytes) -> bytes:
        lines = [line for line in head.split(b"\r\n") if line and not line.lower().startswith(b"connection:")]
        up_reader, up_writer = await asyncio.open_connection(self.up_host, self.up_port)
        up_writer.write(b"\r\n".join(lines) + b"\r\nConnection: close\r\n\r\n" + body)
        await up_writer.drain()
        answer = await up_reader.read()
        up_writer.close()
        return answer
