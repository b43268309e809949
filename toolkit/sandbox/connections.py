"""Bounds on what anyone who can open a TCP connection to the class sandbox may hold, before any header is parsed.

uvicorn bounds a connection that is idle between requests (``timeout_keep_alive``) and the requests in progress
(``limit_concurrency``: HTTP 503 past it), and h11 the size of a request's head (``h11_max_incomplete_event_size``),
but nothing bounds a connection that was opened and says nothing, or sends its head a byte at a time, or stops in
the middle of its body, nor how many connections one address holds: 20,000 half-sent requests took a class sandbox to
its file limit and no other request got through. :func:`guarded_protocol` makes uvicorn's HTTP protocol class (the
one :func:`toolkit.loopback.one_write_protocol` gives) keep :class:`ConnectionLimits`:

* **a head in time**: from the connection's first moment (or a request's first byte on a kept-alive connection)
  its whole head (request line and headers) must arrive within ``head_seconds`` and be at most ``head_bytes``
  long, else the connection is closed;
* **a body in time**: while a request's body is being read, ``body_idle`` seconds at most pass without a byte
  (an upload at any honest speed sends far more often), else the connection is closed (the app sees a disconnect);
* **connections per address and in all**: a new connection past ``per_address`` of its address, or past ``total``
  in all, first closes the oldest connection of that address (or of all) that is not in a request (opened and
  silent, sending its head, or idle between requests); when every one is in a request, the new one is closed at
  once. A request in progress is never cut for another. :func:`raise_file_limit` lifts the process's soft limit of
  open files to its hard limit, and ``total`` stays below it. On one machine every kernel and the hub's proxy
  reach the class sandbox from 127.0.0.1, so the default per address (2,048) holds a class of a thousand with its
  map views; in a cluster, where each student's server has an address of its own, set it lower.

>>> limits = ConnectionLimits(per_address=2, total=3)
>>> print(limits)
connections: 2 per address, 3 in all; a request's head within 10 s and 65536 bytes, its body never idle 30 s
"""
from __future__ import annotations

import collections

__all__ = ["ConnectionLimits", "guarded_protocol", "raise_file_limit"]


def raise_file_limit() -> int:
    """Lift this process's soft limit of open files to its hard limit (where the system has one); returns the soft
    limit now (a large number where it cannot be read)."""
    try:
        import resource
    except ImportError:           # Windows: no such limit to lift
        return 1 << 20
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    if hard != resource.RLIM_INFINITY and soft < hard:
        try:
            resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
            soft = hard
        except (ValueError, OSError):
            pass
    return soft if soft != resource.RLIM_INFINITY else 1 << 20


class ConnectionLimits:
    """The bounds of one server's connections (see the module docstring) and their bookkeeping.

    ``open`` counts the connections held now, ``refused`` the connections closed at once and ``evicted`` the ones
    closed for a newer one; ``timed_out`` the ones closed for a slow head or body."""

    def __init__(self, per_address: int = 2048, total: int = 8192, head_seconds: float = 10.0,
                 head_bytes: int = 64 * 1024, body_idle: float = 30.0):
        for key, value in (("per_address", per_address), ("total", total), ("head_seconds", head_seconds),
                           ("head_bytes", head_bytes), ("body_idle", body_idle)):
            if not isinstance(value, (int, float)) or isinstance(value, bool) or not value > 0:
                raise ValueError(f"{key} must be positive (got {value!r})")
        self.per_address, self.total = int(per_address), int(total)
        self.head_seconds, self.head_bytes, self.body_idle = float(head_seconds), int(head_bytes), float(body_idle)
        self.open = 0
        self.refused = self.evicted = self.timed_out = 0
        self._count: dict[str, int] = {}
        self._idle: "collections.OrderedDict" = collections.OrderedDict()     # not in a request, oldest first
        self._idle_of: dict[str, collections.OrderedDict] = {}

    def __str__(self) -> str:
        return (f"connections: {self.per_address} per address, {self.total} in all; a request's head within "
                f"{self.head_seconds:g} s and {self.head_bytes} bytes, its body never idle {self.body_idle:g} s")

    def __repr__(self) -> str:
        return (f"<ConnectionLimits open={self.open} refused={self.refused} evicted={self.evicted} "
                f"timed_out={self.timed_out}>")

    def admit(self, conn, address: str) -> bool:
        """Make room for a new connection from ``address`` (closing the oldest one not in a request where the
        address or the server is full); False when there is none to close (the new one is then closed)."""
        if self._count.get(address, 0) >= self.per_address and not self._evict(self._idle_of.get(address)):
            self.refused += 1
            return False
        if self.open >= self.total and not self._evict(self._idle):
            self.refused += 1
            return False
        self._count[address] = self._count.get(address, 0) + 1
        self.open += 1
        self.idle(conn, address)
        return True

    def _evict(self, idle) -> bool:
        if not idle:
            return False
        oldest = next(iter(idle))
        self.evicted += 1
        self.busy(oldest, oldest._guard_address)   # closing: never picked twice (it is counted until it is gone)
        oldest._guard_close()
        return True

    def idle(self, conn, address: str) -> None:
        """``conn`` waits for a request (its head): the first it may close for a newer connection."""
        self._idle[conn] = None
        self._idle_of.setdefault(address, collections.OrderedDict())[conn] = None

    def busy(self, conn, address: str) -> None:
        """``conn`` is in a request: never closed for another."""
        self._idle.pop(conn, None)
        mine = self._idle_of.get(address)
        if mine is not None:
            mine.pop(conn, None)

    def gone(self, conn, address: str) -> None:
        self.busy(conn, address)
        if not self._idle_of.get(address, True):
            del self._idle_of[address]
        left = self._count.get(address, 0) - 1
        if left > 0:
            self._count[address] = left
        else:
            self._count.pop(address, None)
        self.open -= 1


def guarded_protocol(base, limits: ConnectionLimits):
    """A subclass of uvicorn's HTTP protocol class ``base`` (httptools' or h11's) that keeps ``limits``."""

    class GuardedProtocol(base):
        _guard_address = None
        _guard_timer = None
        _guard_head: int | None = 0            # bytes of the head received so far (None: in a request)

        def connection_made(self, transport) -> None:
            client = transport.get_extra_info("peername")
            address = str(client[0]) if isinstance(client, tuple) and client else "?"
            if not limits.admit(self, address):
                transport.abort()
                return
            self._guard_address = address
            super().connection_made(transport)
            self._guard_arm(limits.head_seconds)

        def connection_lost(self, exc) -> None:
            self._guard_disarm()
            if self._guard_address is not None:
                limits.gone(self, self._guard_address)
                self._guard_address = None
                super().connection_lost(exc)

        def data_received(self, data: bytes) -> None:
            if self._guard_address is None:
                return
            before = self.cycle
            if self._guard_head is not None:           # reading a head
                if self._guard_timer is None:          # a request's first byte on a kept-alive connection
                    self._guard_arm(limits.head_seconds)
                self._guard_head += len(data)
            super().data_received(data)
            cycle = self.cycle
            if cycle is not None and cycle is not before and not cycle.response_complete:
                self._guard_head = None                # its head is whole: a request
                limits.busy(self, self._guard_address)
            if self._guard_head is not None:
                if self._guard_head > limits.head_bytes:
                    self._guard_timeout()
                return
            if cycle is not None and getattr(cycle, "more_body", False) and not cycle.response_complete:
                self._guard_arm(limits.body_idle)      # the body goes on: never idle longer than body_idle
            else:
                self._guard_disarm()

        def on_response_complete(self) -> None:
            super().on_response_complete()
            if self._guard_address is not None and not self.transport.is_closing():
                self._guard_disarm()
                self._guard_head = 0                    # idle until the next request's head
                limits.idle(self, self._guard_address)

        def _guard_arm(self, seconds: float) -> None:
            if self._guard_timer is not None:
                self._guard_timer.cancel()
            self._guard_timer = self.loop.call_later(seconds, self._guard_timeout)

        def _guard_disarm(self) -> None:
            if self._guard_timer is not None:
                self._guard_timer.cancel()
                self._guard_timer = None

        def _guard_timeout(self) -> None:
            self._guard_timer = None
            limits.timed_out += 1
            self._guard_close()

        def _guard_close(self) -> None:
            self._guard_disarm()
            transport = self.transport
            if transport is not None and not transport.is_closing():
                transport.close()

    GuardedProtocol.__qualname__ = GuardedProtocol.__name__ = f"Guarded{base.__name__}"
    return GuardedProtocol
