"""The live pages' poll held until the version moves (issue 20: a pushed hand on the projector
within 2 s with 300 viewers open). ``GET /t/<id>/live?wait=1`` with If-None-Match: while the
tournament's live version (``views.live.tag``) is the one the page has, the answer waits, up
to ``WAIT_S``; it comes within ``TICK_S`` of the version moving (200 and the new version), or
at the end of the wait (304). Without ``wait``, or on a server without this layer (``serve
--server gthread``), the poll answers at once as before, and /live.js then waits out the rest
of its interval: it never asks faster than once every ``POLL_MS``.

Chosen by measurement (bench/push_latency.py, docs/box_online.md): with 300 viewers, polling
every second took ~0.3 of a core, every 0.5 s ~0.4 (600 polls/s) for a p99 no better on this
machine (1.97 s); held polls take ~0.04, and show a stored hand sooner (median 0.16-0.23 s
against ~0.58 s). Most of a hand's p99 is its push (``boxes.ingest``'s group commit). A held
poll costs no thread: it waits in the worker's event loop (ASGI, ahead of a2wsgi's thread pool),
and one task per worker reads the versions of the tournaments being waited on, every
``TICK_S``, in a thread of its own (Django's database access is synchronous): a few queries a
second whatever the number of viewers. Server-sent events would do the same with a connection per viewer held open for
good; a held poll ends, so a viewer behind a proxy that cuts idle connections still follows."""
from __future__ import annotations

import asyncio
import random
from concurrent.futures import ThreadPoolExecutor
from typing import Optional

from django.db import close_old_connections

from .views import live

WAIT_S = 25.0  # the longest a poll is held: under the 30-60 s after which proxies and clients give up on an answer
TICK_S = 0.2  # how often the versions waited on are read (the WSGI poll's cache is as old)
SPREAD_S = 0.3  # the longest the answers to one move are spread over
MAX_WAITERS = 5000  # per worker; beyond, a poll is answered at once (then /live.js waits its interval)


def _wants_wait(scope) -> bool:
    return scope.get("method") == "GET" and b"wait=1" in scope.get("query_string", b"").split(b"&")


def _header(scope, name: bytes) -> Optional[str]:
    for k, v in scope.get("headers", ()):
        if k == name:
            return v.decode("latin-1")
    return None


class Watch:
    """The polls waiting in this worker, by tournament, and the task that wakes them."""

    def __init__(self):
        self.waiting: dict = {}  # tid -> [(the version the page has, future)]
        self.count = 0
        self.task = None
        self.pool = ThreadPoolExecutor(1, thread_name_prefix="live-wait")  # keeps its database connection

    async def wait(self, tid: str, seen: str, timeout: float) -> Optional[str]:
        """The live version once it is not ``seen`` (None: no such tournament), or ``seen`` after ``timeout``."""
        loop = asyncio.get_running_loop()
        fut = loop.create_future()
        entry = (seen, fut)
        self.waiting.setdefault(tid, []).append(entry)
        self.count += 1
        if self.task is None:
            self.task = loop.create_task(self._tick())
        try:
            return await asyncio.wait_for(fut, timeout)
        except asyncio.TimeoutError:
            return seen
        finally:
            self.count -= 1
            lst = self.waiting.get(tid)
            if lst is not None:
                if entry in lst:
                    lst.remove(entry)
                if not lst:
                    del self.waiting[tid]

    async def _tick(self) -> None:
        loop = asyncio.get_running_loop()
        try:
            while self.waiting:
                await asyncio.sleep(TICK_S)
                tids = list(self.waiting)
                try:
                    tags = await loop.run_in_executor(self.pool, _read, tids)
                except Exception:  # the database did not answer: every poll now as unchanged (304)
                    tags = [None] * len(tids)
                    for tid in tids:
                        for seen, fut in self.waiting.get(tid, ()):
                            if not fut.done():
                                fut.set_result(seen)
                    continue
                woken = [(fut, tag) for tid, tag in zip(tids, tags) for seen, fut in self.waiting.get(tid, ()) if tag != seen and not fut.done()]
                # spread over a moment (1 ms a poll, at most SPREAD_S): 300 answers at one instant
                # and 300 polls back at the next slowed the boxes' pushes landing meanwhile
                spread = min(SPREAD_S, len(woken) / 1000)
                for fut, tag in woken:
                    loop.call_later(random.random() * spread, _answer, fut, tag)
        finally:
            self.task = None


def _answer(fut, tag) -> None:
    if not fut.done():
        fut.set_result(tag)


def _read(tids: list) -> list:
    close_old_connections()
    try:
        return [live.tag(t) for t in tids]
    finally:
        close_old_connections()


class LiveWait:
    """ASGI middleware: ``GET /t/<id>/live?wait=1`` held here; everything else to ``app``."""

    def __init__(self, app):
        self.app = app
        self.watch = Watch()

    async def __call__(self, scope, receive, send):
        if scope["type"] != "http" or not _wants_wait(scope):
            return await self.app(scope, receive, send)
        m = live._PATH.match(scope.get("path", ""))
        seen = _header(scope, b"if-none-match")
        tid = m.group(1) if m else None  # ASGI's path is decoded already
        if tid is not None and any(ord(c) < 0x20 or ord(c) == 0x7F for c in tid):
            tid = None  # PostgreSQL refuses NUL in text: Django's 404 as for the WSGI poll (views.live._tid)
        if tid is None or not seen or self.watch.count >= MAX_WAITERS:
            return await self.app(scope, receive, send)  # the poll answered at once (views.live.shim)
        tag = await self.watch.wait(tid, seen, WAIT_S)
        if tag is None:  # no such tournament: Django's 404 page
            return await self.app(scope, receive, send)
        head = [(b"etag", tag.encode()), (b"cache-control", b"no-cache"), (b"x-content-type-options", b"nosniff")]
        if tag == seen:
            await send({"type": "http.response.start", "status": 304, "headers": head})
            await send({"type": "http.response.body", "body": b""})
            return None
        body = tag.encode()
        await send({"type": "http.response.start", "status": 200,
                    "headers": head + [(b"content-type", b"text/plain"), (b"content-length", str(len(body)).encode())]})
        await send({"type": "http.response.body", "body": body})
        return None
