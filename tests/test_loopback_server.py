"""The loopback servers' transport (:class:`toolkit.loopback.OneWrite`): an answer's head and body leave in one
send, and nothing is lost or reordered on the way: large bodies, streamed bodies, closing connections, HEAD."""
from __future__ import annotations

import asyncio
import socket

import httpx
import pytest
from starlette.applications import Starlette
from starlette.responses import Response, StreamingResponse
from starlette.routing import Route

from toolkit import loopback
from toolkit.loopback import LoopbackServer, OneWrite, one_write_protocol, server_stack


class FakeTransport:
    def __init__(self):
        self.writes, self.closed = [], False

    def write(self, data):
        assert not self.closed
        self.writes.append(data)

    def is_closing(self):
        return self.closed

    def close(self):
        self.closed = True

    def get_extra_info(self, name, default=None):
        return {"peername": ("127.0.0.1", 5)}.get(name, default)


def test_writes_of_one_turn_leave_as_one_at_its_end():
    async def main():
        t = FakeTransport()
        w = OneWrite(t, asyncio.get_running_loop())
        w.write(b"HTTP/1.1 200 OK\r\n\r\n")
        w.writelines([b"a", b"b"])
        assert t.writes == []                       # nothing sent during the turn
        await asyncio.sleep(0)
        assert t.writes == [b"HTTP/1.1 200 OK\r\n\r\nab"]
        w.write(b"next")
        await asyncio.sleep(0)
        assert t.writes[1:] == [b"next"]            # a later turn is a later send
        w.write(b"last")
        w.close()                                   # close sends what is pending, then closes
        assert t.writes[2:] == [b"last"] and t.closed
        w.write(b"too late")
        await asyncio.sleep(0)                      # the connection is gone: dropped, no write on a closed transport
        assert t.writes[3:] == []
        assert w.get_extra_info("peername") == ("127.0.0.1", 5) and w.is_closing()

    asyncio.run(main())


@pytest.mark.parametrize("http", ["h11", server_stack()["http"]])
def test_the_protocol_keeps_uvicorns_and_writes_through_one_write(http):
    cls = one_write_protocol(http)
    assert cls.__name__.startswith("OneWrite") and cls.__mro__[1].__module__.startswith("uvicorn.protocols.http")


BIG = bytes(range(256)) * 20_000          # 5 MB: beyond the transport's high-water mark, so flow control acts


async def small(request):
    return Response(b'{"ok":true}', media_type="application/json")


async def big(request):
    return Response(BIG, media_type="application/octet-stream")


async def stream(request):
    async def chunks():
        for i in range(50):
            await asyncio.sleep(0)
            yield f"{i:03d},".encode()
    return StreamingResponse(chunks(), media_type="text/plain")


@pytest.fixture(scope="module", params=sorted({"h11", server_stack()["http"]}))
def server(request):
    """A loopback server on each HTTP protocol it may run: httptools where installed, uvicorn's h11 else."""
    app = Starlette(routes=[Route("/small", small, methods=["GET", "HEAD"]), Route("/big", big),
                            Route("/stream", stream)])
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr(loopback, "server_stack", lambda: {**server_stack(), "http": request.param})
        srv = LoopbackServer(app, name="test-one-write").start()
    served = srv._server.config.http_protocol_class
    assert served.__name__.startswith("OneWrite") and served.__mro__[1].__module__.endswith(f"{request.param}_impl")
    yield srv
    srv.stop()


def test_each_answer_is_one_send(server, monkeypatch):
    sends = []
    flush = OneWrite.flush

    def counted(self):
        if self._pending:
            sends.append(len(self._pending))
        flush(self)

    monkeypatch.setattr(OneWrite, "flush", counted)
    with httpx.Client(base_url=server.base_url) as client:
        for _ in range(20):
            assert client.get("/small").json() == {"ok": True}
    # uvicorn's writes of each answer (httptools: head, body; h11: head, body, end of message), one send each
    assert len(sends) == 20 and min(sends) >= 2


def test_nothing_is_lost_or_reordered(server):
    with httpx.Client(base_url=server.base_url) as client:
        for _ in range(3):
            answer = client.get("/big")
            assert answer.content == BIG and answer.headers["content-length"] == str(len(BIG))
        assert client.get("/stream").text == "".join(f"{i:03d}," for i in range(50))
        head = client.head("/small")
        assert head.status_code == 200 and head.content == b""
        assert client.get("/small", headers={"Connection": "close"}).json() == {"ok": True}
        assert client.get("/small").json() == {"ok": True}     # the pool opens a new connection after the close


def test_a_closing_connection_gets_its_whole_answer(server):
    port = int(server.base_url.rsplit(":", 1)[1])
    with socket.create_connection(("127.0.0.1", port), timeout=5) as sock:
        sock.sendall(b"GET /small HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
        data = b""
        while chunk := sock.recv(65536):      # until the server closes: the answer is all there before it
            data += chunk
    assert data.startswith(b"HTTP/1.1 200 OK\r\n") and data.endswith(b'\r\n\r\n{"ok":true}')


def test_the_socket_listens_before_the_port_is_announced():
    announced = []
    srv = LoopbackServer(Starlette(routes=[Route("/small", small)]), name="test-announce")

    def on_bound(s):
        with socket.create_connection(("127.0.0.1", s.port), timeout=5):   # refused if not yet listening
            announced.append(s.port)
        s._server.should_exit = True

    try:
        srv.serve_forever(on_bound=on_bound)
    finally:
        srv.stop()
    assert announced and announced[0] > 0

