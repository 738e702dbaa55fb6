"""Results served per results version, computed once however many ask.

``Tournament.results_version`` is bumped in the same transaction as every change that feeds the
results (an upload, a ruling, a correction, a penalty, a seating published...). A reader takes
the version *before* it loads anything and files what it computed under that version: a change
that commits meanwhile has bumped the version, so the next reader recomputes. Nothing stale is
ever served as current.

* ``result(tid)``: the full ``Result`` (pages, exports), memoised in this process.
* ``standings_json(tid)``: the standings document as bytes, also kept in the database
  (``ResultsCache``) for the other server processes. A cold miss takes a lock across processes
  (``flock`` beside a SQLite file, ``pg_advisory_lock`` on PostgreSQL) and within this one, then
  looks again: eight concurrent cold requests compute once.
"""
from __future__ import annotations

import fcntl
import gc
import json
import os
import threading
import zlib
from contextlib import contextmanager
from typing import Optional

from django.db import connection

from host_tools.server.tournaments.models import ResultsCache, Tournament

from . import compute as compute_mod
from . import snapshot

_mem: dict = {}  # tid -> (version, Result)
_docs: dict = {}  # tid -> (version, bytes)
_guard = threading.Lock()
_locks: dict = {}
stats = {"computed": 0}


class NoTournament(LookupError):
    pass


def version(tid: str) -> int:
    v = Tournament.objects.filter(id=tid).values_list("results_version", flat=True).first()
    if v is None:
        raise NoTournament(tid)
    return v


def _thread_lock(tid: str) -> threading.Lock:
    with _guard:
        return _locks.setdefault(tid, threading.Lock())


@contextmanager
def _process_lock(tid: str):
    if connection.vendor == "postgresql":
        key = zlib.crc32(("results:" + tid).encode()) & 0x7FFFFFFF
        with connection.cursor() as c:
            c.execute("SELECT pg_advisory_lock(%s)", [key])
        try:
            yield
        finally:
            with connection.cursor() as c:
                c.execute("SELECT pg_advisory_unlock(%s)", [key])
        return
    path = str(connection.settings_dict["NAME"]) + "-results.lock"
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        fcntl.flock(fd, fcntl.LOCK_EX)
        yield
    finally:
        os.close(fd)


_gc_off = [0]  # computations under way in this process with the cyclic collector paused


@contextmanager
def _collector_paused():
    """The results allocate hundreds of thousands of small objects, none of them in a cycle that
    outlives the computation; the cyclic collector, triggered by the allocations, would walk the
    whole heap again and again (a third of the CPU at 4,000 players). Reference counting frees
    everything as usual; the collector runs again when the last computation ends."""
    with _guard:
        _gc_off[0] += 1
        if _gc_off[0] == 1:
            gc.disable()
    try:
        yield
    finally:
        with _guard:
            _gc_off[0] -= 1
            if _gc_off[0] == 0:
                gc.enable()


def _compute(tid: str, v: int):
    with _collector_paused():
        snap = snapshot.load(tid)
        snap.version = v
        res = compute_mod.compute(snap)
    stats["computed"] += 1
    with _guard:
        _mem[tid] = (v, res)
    return res


def result(tid: str):
    v = version(tid)
    hit = _mem.get(tid)
    if hit is not None and hit[0] == v:
        return hit[1]
    with _thread_lock(tid):
        hit = _mem.get(tid)
        if hit is not None and hit[0] == v:
            return hit[1]
        return _compute(tid, v)


def _encode(res) -> bytes:
    return json.dumps(res.as_json(), ensure_ascii=False, separators=(",", ":")).encode()


def standings_json(tid: str) -> tuple[bytes, str]:
    """(document, where it came from: "memory" of this process, "shared" from the database, or
    "computed" by this request)."""
    v = version(tid)
    doc = _docs.get(tid)
    if doc is not None and doc[0] == v:
        return doc[1], "memory"
    with _thread_lock(tid):
        doc = _docs.get(tid)
        if doc is not None and doc[0] == v:
            return doc[1], "memory"
        source = "shared"
        body = _shared(tid, v)
        if body is None:
            with _process_lock(tid):
                body = _shared(tid, v)
                if body is None:
                    hit = _mem.get(tid)
                    res = hit[1] if hit is not None and hit[0] == v else _compute(tid, v)
                    body = _encode(res)
                    _store(tid, v, body)
                    source = "computed"
        with _guard:
            _docs[tid] = (v, body)
        return body, source


def _shared(tid: str, v: int) -> Optional[bytes]:
    row = ResultsCache.objects.filter(tournament_id=tid, version=v).values_list("body", flat=True).first()
    return None if row is None else bytes(row)


def _store(tid: str, v: int, body: bytes) -> None:
    n = ResultsCache.objects.filter(tournament_id=tid, version__lte=v).update(version=v, body=body)
    if not n and not ResultsCache.objects.filter(tournament_id=tid).exists():
        from django.db import IntegrityError, transaction
        try:
            with transaction.atomic():
                ResultsCache.objects.create(tournament_id=tid, version=v, body=body)
        except IntegrityError:
            pass


def forget() -> None:
    """Drop this process's memo (the benchmark's cold runs)."""
    with _guard:
        _mem.clear()
        _docs.clear()
