"""Where pulled records go: the tournament server (POST /api/records, or /api/records:batch),
one persistent HTTP connection. A sink's put(envelopes) gives one Outcome per envelope."""
from __future__ import annotations

import http.client
import json
import time
import urllib.parse
from dataclasses import dataclass
from typing import Optional

from protocol.envelope import BATCH_MAX

from .errors import ServerError, SyncError
from .text import clean

STORED, KNOWN, HELD, REFUSED = "stored", "known", "held", "refused"


@dataclass
class Outcome:
    status: str  # STORED, KNOWN, HELD (stored, waiting for a referee on the server) or REFUSED
    code: int = 0
    message: str = ""

    @property
    def kept(self) -> bool:
        """The server has the record: the box may be acknowledged for it."""
        return self.status in (STORED, KNOWN, HELD)


class ServerSink:
    """POST {server}/api/records (or :batch, up to BATCH_MAX) with one persistent HTTP connection."""

    def __init__(self, url: str, batch: bool = True, timeout: float = 15.0, tries: int = 3, pause: float = 0.2):
        u = urllib.parse.urlsplit(url)
        if u.scheme not in ("http", "https") or not u.hostname:
            raise SyncError("server URL must be http(s)://host[:port][/path], not %r" % url)
        self.url = url.rstrip("/")
        self.u = u
        self.base = u.path.rstrip("/")
        self.batch = batch
        self.timeout = timeout
        self.tries = tries
        self.pause = pause
        self.conn = None
        self.name = "server %s" % self.url

    def _connect(self):
        cls = http.client.HTTPSConnection if self.u.scheme == "https" else http.client.HTTPConnection
        return cls(self.u.hostname, self.u.port, timeout=self.timeout)

    def _post(self, path: str, obj) -> tuple[int, object]:
        body = json.dumps(obj).encode()
        last = None
        for attempt in range(self.tries):
            if attempt:
                time.sleep(self.pause * attempt)
            try:
                if self.conn is None:
                    self.conn = self._connect()
                self.conn.request("POST", self.base + path, body, {"Content-Type": "application/json"})
                r = self.conn.getresponse()
                data = r.read()
                status = r.status
                if r.getheader("connection", "").lower() == "close":
                    self.close()
            except (OSError, http.client.HTTPException) as e:
                self.close()
                last = "%s: %s" % (type(e).__name__, e)
                continue
            if status >= 500:
                last = "HTTP %d" % status
                continue
            try:
                parsed = json.loads(data.decode()) if data else None
            except (UnicodeDecodeError, ValueError, RecursionError):
                parsed = None
            return status, parsed
        raise ServerError("%s unreachable (%s)" % (self.name, last))

    def close(self):
        if self.conn is not None:
            try:
                self.conn.close()
            except Exception:
                pass
            self.conn = None

    def put(self, envs: list[dict]) -> list[Outcome]:
        out: list[Outcome] = []
        i = 0
        while i < len(envs):
            part = envs[i:i + BATCH_MAX]
            res = self._batch(part) if self.batch and len(part) > 1 else None
            if res is None:
                res = [self._one(e) for e in part]
            out += res
            i += len(part)
        return out

    def _one(self, env: dict) -> Outcome:
        status, body = self._post("/api/records", env)
        return outcome(status, body)

    def _batch(self, envs: list[dict]) -> Optional[list[Outcome]]:
        status, body = self._post("/api/records:batch", envs)
        if status in (404, 405, 501):
            self.batch = False  # an older server: one by one
            return None
        if status != 200:
            return None  # the whole batch refused: one by one, for per-record reasons
        items = body.get("results") if isinstance(body, dict) else body
        if not isinstance(items, list) or len(items) != len(envs):
            return None
        if not all(isinstance(it, dict) for it in items):
            return None
        return [outcome(it.get("status_code"), it) for it in items]


def outcome(status, body) -> Outcome:
    """One record's answer from the server. 201 stored, 200 known; "held" (or 202): stored and
    set aside on the server for a referee (it counts once accepted there); 403 stops the run (an
    unregistered box or a wrong key: every record would fail alike); anything else is a refusal
    of this record, with the server's reason."""
    st = body.get("status") if isinstance(body, dict) else None
    if not isinstance(status, int) or isinstance(status, bool):
        status = {"stored": 201, "known": 200, "held": 202, "quarantined": 202}.get(st, 400)
    msg = ""
    if isinstance(body, dict) and status not in (200, 201):
        msg = clean(body.get("error") or body.get("reason") or body.get("message") or st or "", 200)
    if status == 202 or st in ("held", "quarantined"):
        if 200 <= status < 300:
            return Outcome(HELD, status, msg)
    if status == 201:
        return Outcome(STORED, status)
    if status == 200 and st in (None, "known", "stored"):
        return Outcome(KNOWN if st != "stored" else STORED, status)
    if status == 403:
        raise ServerError("the server refused a record of this box with 403 (%s): is the box registered on the "
                          "server with the key it was provisioned with?" % (msg or "unknown device or bad signature"))
    return Outcome(REFUSED, status, msg or "HTTP %d" % status)
