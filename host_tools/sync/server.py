"""Where pulled records go: the tournament server (POST /api/records, or /api/records:batch),
one persistent HTTP connection. A sink's put(envelopes) gives one Outcome per envelope, with
where the server put each record (its answer's ``place``: a table, or a tournament's quarantine
and why).

Server errors: a request the server answers with 5xx (or does not answer) is sent again a
bounded number of times (``tries``). A batch that keeps failing is sent again record by record,
so one record the server cannot take fails alone; such a record is an ERROR outcome, set aside
like a refused one (the next run offers it again) when the server shows it is up otherwise (it
took other records, or answers its health check). A server that answers nothing at all is
"unreachable"; one that answers 5xx to everything is said to fail, with its status, and nothing
is set aside or acknowledged then."""
from __future__ import annotations

import http.client
import json
import time
import urllib.parse
from dataclasses import dataclass
from typing import Optional

from protocol.envelope import BATCH_MAX
from protocol.sign import head_sig_hex

from .errors import ServerError, SyncError
from .text import clean

STORED, KNOWN, HELD, REFUSED, ERROR = "stored", "known", "held", "refused", "error"


@dataclass
class Outcome:
    status: str  # STORED, KNOWN, HELD (stored, waiting for a referee on the server), REFUSED or ERROR (5xx)
    code: int = 0
    message: str = ""
    place: Optional[dict] = None  # where the server put it (its answer's "place")

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

    def _post(self, path: str, obj, method: str = "POST") -> tuple[int, object]:
        """(status, parsed JSON) of the answer; a 5xx or no answer is tried again (``tries`` in
        all). ServerError only when no try got an answer at all."""
        body = None if obj is None else json.dumps(obj).encode()
        last, answered = None, None
        for attempt in range(self.tries):
            if attempt:
                time.sleep(self.pause * attempt)
            try:
                if self.conn is None:
                    self.conn = self._connect()
                headers = {"Content-Type": "application/json"} if body is not None else {}
                self.conn.request(method, self.base + path, body, headers)
                r = self.conn.getresponse()
                data = r.read()
                status = r.status
                if r.getheader("connection", "").lower() == "close":
                    self.close()
            except (OSError, http.client.HTTPException) as e:
                self.close()
                last = "%s: %s" % (type(e).__name__, e)
                continue
            try:
                parsed = json.loads(data.decode()) if data else None
            except (UnicodeDecodeError, ValueError, RecursionError):
                parsed = None
            if status >= 500:
                answered = (status, parsed)
                continue
            return status, parsed
        if answered is not None:
            return answered
        raise ServerError("%s unreachable (%s)" % (self.name, last))

    def healthy(self) -> bool:
        """The server answers its health check (GET /api/health) with 200."""
        try:
            status, _ = self._post("/api/health", None, "GET")
        except ServerError:
            return False
        return status == 200

    def report_head(self, device: str, head: int, key: bytes) -> Optional[str]:
        """Tell the server the box's journal head, signed with its key (its Boxes page shows what
        is not synced from it). None when it took it, else why not (the sync goes on anyway)."""
        at = int(time.time())
        sig = head_sig_hex(key, device, head, at)
        try:
            status, body = self._post("/api/boxes/%s/head" % urllib.parse.quote(device, safe=""), {"head": head, "at": at, "sig": sig})
        except ServerError as e:
            return str(e)
        if status == 200:
            return None
        return "HTTP %d: %s" % (status, clean(body.get("error", "") if isinstance(body, dict) else "", 200))

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
        failed = [o for o in out if o.status == ERROR]
        if failed and len(failed) == len(out) and not self.healthy():
            raise ServerError("%s fails: it answered HTTP %d to every record (%s) and its health check fails: nothing was "
                              "acknowledged; run again once it is fixed" % (self.name, failed[0].code, failed[0].message or "server error"))
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
            return None  # refused or failed as a whole: one by one, each with its own answer
        items = body.get("results") if isinstance(body, dict) else body
        if not isinstance(items, list) or len(items) != len(envs):
            return None
        if not all(isinstance(it, dict) for it in items):
            return None
        return [outcome(it.get("status_code"), it) for it in items]


def outcome(status, body) -> Outcome:
    """One record's answer from the server. 201 stored, 200 known; "held" (or 202, or a place in
    a quarantine): stored and set aside on the server for a referee (it counts once accepted or
    claimed there); 403 stops the run (an unregistered box or a wrong key: every record would
    fail alike); 5xx is an error of the server on this record (tried ``tries`` times); anything
    else is a refusal of this record, with the server's reason."""
    st = body.get("status") if isinstance(body, dict) else None
    place = body.get("place") if isinstance(body, dict) and isinstance(body.get("place"), dict) else None
    if not isinstance(status, int) or isinstance(status, bool):
        status = {"stored": 201, "known": 200, "held": 202, "quarantined": 202}.get(st, 400)
    msg = ""
    if isinstance(body, dict) and status not in (200, 201):
        msg = clean(body.get("error") or body.get("reason") or body.get("message") or st or "", 200)
    if status == 202 or st in ("held", "quarantined") or (status == 201 and place and place.get("status") == "quarantine"):
        if 200 <= status < 300:
            return Outcome(HELD, status, msg, place)
    if status == 201:
        return Outcome(STORED, status, place=place)
    if status == 200 and st in (None, "known", "stored"):
        return Outcome(KNOWN if st != "stored" else STORED, status, place=place)
    if status == 403:
        raise ServerError("the server refused a record of this box with 403 (%s): is the box registered on the "
                          "server with the key it was provisioned with?" % (msg or "unknown device or bad signature"))
    if status >= 500:
        return Outcome(ERROR, status, msg or "server error")
    return Outcome(REFUSED, status, msg or "HTTP %d" % status)
