"""The HTTP server ``serve`` runs: uvicorn workers (one event loop each) under gunicorn's master,
so a connection that sends nothing, or its headers or body a byte at a time, costs a socket and
no thread: with 1,000 such connections held, reads and uploads of other clients still answer
within a second (``make server-bench``; gunicorn's threaded workers gave each of them a thread,
and 70 stopped the server). uvicorn has a keep-alive timeout but none for a request still
arriving, so ``DeadlineProtocol`` adds one: a new connection's first byte within
``FIRST_BYTE_SECONDS``, a request's headers and body within ``REQUEST_SECONDS`` of its first
byte; then the connection is closed (nginx's client_header_timeout and client_body_timeout do
the same)."""
from __future__ import annotations

import os
import signal

from uvicorn.protocols.http.httptools_impl import HttpToolsProtocol
from uvicorn_worker import UvicornWorker

FIRST_BYTE_SECONDS = 10
REQUEST_SECONDS = 30
MAX_HEAD = 64 * 1024  # request line and headers (httptools itself has no limit)
KEEPALIVE_SECONDS = 20  # idle between requests (the sync tool and the boxes keep connections open)


class DeadlineProtocol(HttpToolsProtocol):
    _deadline = None
    _head = 0

    def _arm(self, seconds: float) -> None:
        self._disarm()
        self._deadline = self.loop.call_later(seconds, self._too_slow)

    def _disarm(self) -> None:
        if self._deadline is not None:
            self._deadline.cancel()
            self._deadline = None

    def _too_slow(self) -> None:
        self._deadline = None
        if not self.transport.is_closing():
            self.transport.close()

    def connection_made(self, transport) -> None:
        super().connection_made(transport)
        self._arm(FIRST_BYTE_SECONDS)

    def connection_lost(self, exc) -> None:
        self._disarm()
        super().connection_lost(exc)

    def on_message_begin(self) -> None:
        super().on_message_begin()
        self._head = 0
        self._arm(REQUEST_SECONDS)

    def on_url(self, url: bytes) -> None:
        self._count(len(url))
        super().on_url(url)

    def on_header(self, name: bytes, value: bytes) -> None:
        self._count(len(name) + len(value))
        super().on_header(name, value)

    def _count(self, n: int) -> None:
        self._head += n
        if self._head > MAX_HEAD and not self.transport.is_closing():
            self.transport.write(b"HTTP/1.1 431 Request Header Fields Too Large\r\ncontent-length: 0\r\nconnection: close\r\n\r\n")
            self.transport.close()

    def on_message_complete(self) -> None:
        self._disarm()  # the request is in: the application's time is not the client's
        super().on_message_complete()


class Worker(UvicornWorker):
    """A worker that also ends when its master is gone (gunicorn's own workers check this; the
    uvicorn worker did not, and a killed master left its workers serving the port)."""

    # the client's address is read by edge.client_ip from the documented proxy only, not by
    # uvicorn from any X-Forwarded-For of a loopback peer; Django has no lifespan events
    CONFIG_KWARGS = {"loop": "asyncio", "http": DeadlineProtocol, "lifespan": "off", "proxy_headers": False, "server_header": False,
                     "timeout_notify": 1, "timeout_graceful_shutdown": 10}  # callback_notify every second

    async def callback_notify(self) -> None:
        if os.getppid() != self.ppid:
            self.log.info("master gone, shutting down: %s", self)
            os.kill(os.getpid(), signal.SIGTERM)  # uvicorn's graceful exit
            return
        self.notify()
