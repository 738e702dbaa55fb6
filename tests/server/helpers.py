"""Test helpers: an HTTP client, records signed exactly as the contract says (written here from
the contract, independently of host_tools.server.records), and synthetic tournaments."""
from __future__ import annotations

import base64
import hashlib
import hmac
import http.client
import json
import random
import socket
from typing import Any, Optional
from urllib.parse import urlsplit


def free_port() -> int:
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    p = s.getsockname()[1]
    s.close()
    return p


class Headers(dict):
    """Response headers by name whatever its case (gunicorn sends Content-Type, uvicorn content-type)."""

    def __init__(self, pairs):
        super().__init__((k.lower(), v) for k, v in pairs)

    def __getitem__(self, k):
        return super().__getitem__(k.lower())

    def __contains__(self, k):
        return super().__contains__(k.lower())

    def get(self, k, default=None):
        return super().get(k.lower(), default)


class Client:
    """A keep-alive HTTP/1.1 client for one server; json_ methods decode JSON replies."""

    def __init__(self, base: str, token: Optional[str] = None, source: Optional[str] = None, headers: Optional[dict] = None):
        u = urlsplit(base)
        self.headers = dict(headers or {})  # sent with every request (e.g. a TLS proxy's X-Forwarded-Proto)
        self.source = source  # a loopback address of its own (127.0.0.N): another client machine
        self.host, self.port = u.hostname, u.port
        self.base = base
        self.token = token
        self.conn: Optional[http.client.HTTPConnection] = None
        self.last_set_cookies: list = []

    def request(self, method: str, path: str, body: Any = None, headers: Optional[dict] = None, raw: Optional[bytes] = None):
        h = dict(self.headers, **(headers or {}))
        data = raw
        if body is not None:
            data = json.dumps(body).encode()
            h.setdefault("Content-Type", "application/json")
        if self.token and "Authorization" not in h:
            h["Authorization"] = "Bearer " + self.token
        for attempt in range(2):
            if self.conn is None:
                self.conn = http.client.HTTPConnection(self.host, self.port, timeout=60, source_address=(self.source, 0) if self.source else None)
            try:
                self.conn.request(method, path, body=data, headers=h)
                r = self.conn.getresponse()
                payload = r.read()
                self.last_set_cookies = r.msg.get_all("Set-Cookie") or []  # the dict below keeps one of several
                if r.getheader("Connection", "").lower() == "close":
                    self.conn.close()
                    self.conn = None
                return r.status, Headers(r.getheaders()), payload
            except (ConnectionError, http.client.RemoteDisconnected, http.client.CannotSendRequest, BrokenPipeError):
                self.conn.close()
                self.conn = None
                if attempt or (data is not None and len(data) > 1024 * 1024):
                    raise

    def json(self, method: str, path: str, body: Any = None, **kw) -> tuple[int, Any]:
        status, headers, payload = self.request(method, path, body, **kw)
        ctype = headers.get("Content-Type", "")
        return status, json.loads(payload) if ctype.startswith("application/json") else payload.decode()

    def get(self, path: str) -> tuple[int, Any]:
        return self.json("GET", path)

    def post(self, path: str, body: Any = None) -> tuple[int, Any]:
        return self.json("POST", path, body)

    def close(self):
        if self.conn:
            self.conn.close()
            self.conn = None


# --------------------------------------------------------------------------- the contract
# Records as protocol/record.py (version 2) defines them, built here by hand from that contract.

def payload_bytes(body: dict) -> bytes:
    return b"\x01" + json.dumps(body, separators=(",", ":"), ensure_ascii=False, sort_keys=True).encode("utf-8")


def signature(key: bytes, device: str, seq: int, payload: bytes) -> str:
    return hmac.new(key, device.encode() + b"\x00" + seq.to_bytes(4, "big") + payload, hashlib.sha256).hexdigest()


def envelope(key: bytes, device: str, seq: int, body: dict) -> dict:
    if body.get("kind") == "session" and body.get("device") is None:
        body = dict(body, device=device)
    p = payload_bytes(body)
    return {"device": device, "seq": seq, "payload": base64.b64encode(p).decode(), "sig": signature(key, device, seq, p)}


def session_rec(t: str, session: int, table: int, seats: list, rules: str = "mcr", time: int = 1_700_000_000) -> dict:
    """``device`` is filled in by ``envelope`` (the box writes its own id)."""
    return {"v": 2, "kind": "session", "device": None, "tournament": t, "session": session, "table": table, "rules": rules,
            "seats": seats, "first_dealer": 0, "time": time}


def transfers_for(deltas: list) -> list:
    """Payments from the seats that lost to those that won; what does not balance is paid to,
    or by, nobody (a penalty; a credit from nobody, which the server refuses: boxes.invariants)."""
    neg = [[i, -d] for i, d in enumerate(deltas) if d < 0]
    pos = [[i, d] for i, d in enumerate(deltas) if d > 0]
    out = []
    while neg and pos:
        a, b = neg[0], pos[0]
        p = min(a[1], b[1])
        out.append([a[0], b[0], p, "test"])
        a[1] -= p
        b[1] -= p
        if not a[1]:
            neg.pop(0)
        if not b[1]:
            pos.pop(0)
    out += [[i, None, p, "penalty"] for i, p in neg] + [[None, i, p, "bonus"] for i, p in pos]
    return out


def hand_rec(t: str, session: int, table: int, hand: int, seats: list, deltas: list, winner: Optional[int] = None, discarder: Optional[int] = None,
             fans: int = 8, rules: str = "mcr", time: int = 1_700_000_000, events: Optional[list] = None, winners: Optional[list] = None,
             transfers: Optional[list] = None) -> dict:
    ws = winners if winners is not None else ([] if winner is None else [winner])
    wins = [{"seat": w, "from": discarder if i == 0 else None, "total": fans, "fans": [[1, 1]]} for i, w in enumerate(ws)]
    return {
        "v": 2, "kind": "hand", "tournament": t, "session": session, "table": table, "hand": hand, "rules": rules, "seats": seats,
        "dealer": (hand - 1) % 4, "prevalent_wind": "ESWN"[((hand - 1) // 4) % 4], "events": events or [], "deltas": deltas,
        "transfers": transfers if transfers is not None else transfers_for(deltas), "flags": [], "wins": wins,
        "winners": ws, "discarder": discarder if ws else None, "next_dealer": hand % 4, "time": time,
    }


def correction_rec(device: str, seq: int, deltas: list, reason: str = "miskeyed", referee: str = "ref", time: int = 1_700_000_500,
                   seats: Optional[list] = None, was: Optional[list] = None) -> dict:
    return {"v": 2, "kind": "correction", "corrects": {"device": device, "seq": seq}, "seats": seats or ["p1", "p2", "p3", "p4"],
            "deltas": deltas, "was": was or [0, 0, 0, 0], "reason": reason, "referee": referee, "time": time}


def end_rec(t: str, session: int, table: int, hands: int, scores: dict, time: int = 1_700_007_000) -> dict:
    return {"v": 2, "kind": "session_end", "tournament": t, "session": session, "table": table, "hands": hands, "reason": "hands",
            "match_scores": scores, "time": time}


def mcr_deltas(rng: random.Random, winner: Optional[int], discarder: Optional[int], fans: int) -> list:
    """MCR payments: every loser pays 8; the discarder (or all three on a self-draw) also pays the fans."""
    d = [0, 0, 0, 0]
    if winner is None:
        return d
    for s in range(4):
        if s == winner:
            continue
        pay = 8 + (fans if discarder is None or s == discarder else 0)
        d[s] -= pay
        d[winner] += pay
    return d


class Device:
    """A table device: key, id and its own seq counter."""

    def __init__(self, device_id: str, key: Optional[bytes] = None):
        self.id = device_id
        self.key = key or hashlib.sha256(device_id.encode()).digest()
        self.seq = 0

    def next(self, body: dict) -> dict:
        self.seq += 1
        return envelope(self.key, self.id, self.seq, body)


def synthetic_session(t: str, session: int, tables: list, devices: dict, rng: random.Random, hands: int = 16, t0: int = 1_700_000_000) -> tuple[list, dict]:
    """Records of one MCR session: per table a session record, ``hands`` hands, a session_end.
    tables: [(table_no, [4 player ids])]. Returns (envelopes, expected match scores per player)."""
    out, scores = [], {}
    for table_no, seats in tables:
        dev = devices.setdefault(table_no, Device("dev-%d" % table_no))
        out.append(dev.next(session_rec(t, session, table_no, list(seats), time=t0)))
        tot = dict.fromkeys(seats, 0)
        chairs = list(seats)
        for h in range(1, hands + 1):
            w = rng.choice([None, 0, 1, 2, 3, 0, 1, 2, 3])
            dis = None if w is None or rng.random() < 0.3 else rng.choice([s for s in range(4) if s != w])
            fans = rng.choice([8, 8, 9, 10, 12, 16, 24, 32, 64])
            d = mcr_deltas(rng, w, dis, fans)
            for p, x in zip(chairs, d):
                tot[p] += x
            out.append(dev.next(hand_rec(t, session, table_no, h, list(chairs), d, w, dis, fans, time=t0 + 60 * 7 * h)))
            if h % 4 == 0:  # the players change chairs after every round, as the box does (seed 000 换位)
                c = chairs
                chairs = [c[3], c[2], c[0], c[1]] if h // 4 % 4 == 2 else [c[1], c[0], c[3], c[2]]
        out.append(dev.next(end_rec(t, session, table_no, hands, tot, time=t0 + 60 * 7 * hands + 30)))
        scores.update(tot)
    return out, scores
