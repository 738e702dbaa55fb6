"""Version 1 records, the format boxes wrote before protocol/record.py (version 2) and still
write until the firmware switches to it: checked here with the rules the server had for them,
and read alongside version 2 (``hand_row`` turns a v1 hand's fans into v2's wins). Delete this
module (and its calls in ``contract`` and ``hand_row``) once no box writes version 1.

v1 differs from v2: a hand carries ``fans`` ({seat, total, names}) instead of ``wins``, and no
``transfers`` (Sichuan's tier 1/2 penalty events are its deductions); a correction has no
``seats``/``was``; a session_end no ``reason``.

Held to version 2's checks where v1 has the facts (issue 19): points within protocol/record.py's
``POINTS_MAX`` (a v1 delta of 10^9 was taken), and what must add up does (``invariants``): a
hand's deltas sum to minus its deductions, a correction's never above zero.
"""
from __future__ import annotations

from typing import Any, Optional

from host_tools.server.errors import BadRecord
from protocol.record import POINTS_MAX
from rules_min import keyed

from . import invariants

KIND_FIELDS = {
    "session": ("v", "kind", "tournament", "session", "table", "rules", "seats", "first_dealer", "time"),
    "hand": (
        "v", "kind", "tournament", "session", "table", "hand", "rules", "seats", "dealer", "prevalent_wind",
        "events", "deltas", "fans", "winners", "discarder", "time",
    ),
    "correction": ("v", "kind", "corrects", "deltas", "reason", "referee", "time"),
    "session_end": ("v", "kind", "tournament", "session", "table", "hands", "match_scores", "time"),
}
RULES = ("mcr", "sichuan", "guangdong")
MAX_ID = 64
SMALL = 10000  # sessions and tables, as protocol/config.py has them
POINTS = POINTS_MAX  # version 2's
TIME_MAX = 2**40
# Sichuan's tier 1 and 2 penalties deduct fixed points (seed 003 §二): the rules core's
SICHUAN_TIERS = {k: keyed.spec(k, "sichuan")[1] for k in ("tier1", "tier2")}


def check(b: dict) -> None:
    """Raises BadRecord naming the field."""
    kind = b.get("kind")
    if kind not in KIND_FIELDS:
        raise BadRecord("unknown record kind %r" % (kind,) if isinstance(kind, str) else "payload needs a kind")
    missing = [f for f in KIND_FIELDS[kind] if f not in b]
    if missing:
        raise BadRecord("%s record misses %s" % (kind, ", ".join(missing)))
    _check(b)
    invariants.balanced(b, deductions(b) if kind == "hand" else None)


def deductions(b: dict) -> list:
    out = [0, 0, 0, 0]
    if b.get("rules") == "sichuan":
        for ev in b.get("events") or ():
            k, s = ev.get("penalty"), ev.get("seat")
            if k in SICHUAN_TIERS and isinstance(s, int) and not isinstance(s, bool) and 0 <= s < 4:
                out[s] += SICHUAN_TIERS[k]
    return out


def wins(b: dict) -> list:
    """A v1 hand's fans as v2's wins (the fan names kept as they were)."""
    f = b.get("fans")
    out = []
    for i, w in enumerate(b["winners"]):
        total = f["total"] if f and f.get("seat") == w else 0
        out.append({"seat": w, "from": b["discarder"] if i == 0 else None, "total": total, "fans": list(f["names"]) if f and f.get("seat") == w else []})
    return out


# --------------------------------------------------------------------------- field checks

def _int(v: Any, what: str, lo: int, hi: int) -> int:
    if isinstance(v, bool) or not isinstance(v, int):
        raise BadRecord("%s must be an integer" % what)
    if not lo <= v <= hi:
        raise BadRecord("%s must be between %d and %d" % (what, lo, hi))
    return v


def _str(v: Any, what: str, max_len: int = MAX_ID, empty: bool = False) -> str:
    if not isinstance(v, str):
        raise BadRecord("%s must be a string" % what)
    if not v and not empty:
        raise BadRecord("%s must not be empty" % what)
    if len(v) > max_len:
        raise BadRecord("%s is longer than %d characters" % (what, max_len))
    if any(ord(c) < 32 or ord(c) == 127 or 0xD800 <= ord(c) <= 0xDFFF for c in v):
        raise BadRecord("%s holds control characters or lone surrogates" % what)
    return v


def ident(v: Any, what: str) -> str:
    """An id (device, tournament, player): 1-64 characters, no control characters."""
    return _str(v, what)


def _deltas(v: Any, what: str = "deltas") -> list[int]:
    if not isinstance(v, list) or len(v) != 4:
        raise BadRecord("%s must be a list of 4 integers" % what)
    return [_int(x, "%s[%d]" % (what, i), -POINTS, POINTS) for i, x in enumerate(v)]


def _seats(v: Any) -> list[Optional[str]]:
    if not isinstance(v, list) or len(v) != 4:
        raise BadRecord("seats must be a list of 4 player ids")
    out = [None if p is None else ident(p, "seats[%d]" % i) for i, p in enumerate(v)]
    named = [p for p in out if p is not None]
    if len(named) < 3:
        raise BadRecord("seats must name at least 3 players")
    if len(set(named)) != len(named):
        raise BadRecord("seats name a player twice")
    return out


def _seat(v: Any, what: str) -> int:
    return _int(v, what, 0, 3)


def _check_hand(b: dict) -> None:
    seats = _seats(b["seats"])
    _seat(b["dealer"], "dealer")
    if b["prevalent_wind"] not in ("E", "S", "W", "N"):
        raise BadRecord("prevalent_wind must be E, S, W or N")
    ev = b["events"]
    if not isinstance(ev, list) or len(ev) > 500 or not all(isinstance(e, dict) for e in ev):
        raise BadRecord("events must be a list of at most 500 objects")
    deltas = _deltas(b["deltas"])
    winners = b["winners"]
    if not isinstance(winners, list) or len(winners) > 3:
        raise BadRecord("winners must be a list of at most 3 seats")
    winners = [_seat(w, "winners[%d]" % i) for i, w in enumerate(winners)]
    if len(set(winners)) != len(winners):
        raise BadRecord("winners name a seat twice")
    d = b["discarder"]
    if d is not None:
        d = _seat(d, "discarder")
        if not winners:
            raise BadRecord("a discarder needs a winner")
        if d in winners and b["rules"] != "sichuan":  # 血战: a player who dealt in may win later
            raise BadRecord("the discarder cannot be a winner")
    if b["rules"] == "mcr" and len(winners) > 1:
        raise BadRecord("Chinese Official hands have one winner")
    fans = b["fans"]
    if fans is not None:
        if not isinstance(fans, dict) or set(fans) - {"seat", "total", "names"} or not {"seat", "total", "names"} <= set(fans):
            raise BadRecord("fans must be null or {seat, total, names}")
        s = _seat(fans["seat"], "fans.seat")
        _int(fans["total"], "fans.total", 0, 100000)
        if not isinstance(fans["names"], list) or len(fans["names"]) > 100:
            raise BadRecord("fans.names must be a list of strings")
        for i, n in enumerate(fans["names"]):
            _str(n, "fans.names[%d]" % i, 100)
        if s not in winners:
            raise BadRecord("fans.seat must be a winner")
    for i, p in enumerate(seats):
        if p is None and (deltas[i] or i in winners or i == d):
            raise BadRecord("the empty seat %d cannot score, win or deal in" % i)


def _check(b: dict) -> None:
    kind = b["kind"]
    if "tournament" in KIND_FIELDS[kind]:
        ident(b["tournament"], "tournament")
        _int(b["session"], "session", 1, SMALL)
        _int(b["table"], "table", 1, SMALL)
    _int(b["time"], "time", 0, TIME_MAX)
    if kind in ("session", "hand") and b["rules"] not in RULES:
        raise BadRecord("rules must be one of %s" % ", ".join(RULES))
    if kind == "session":
        _seats(b["seats"])
        _seat(b["first_dealer"], "first_dealer")
    elif kind == "hand":
        _int(b["hand"], "hand", 1, SMALL)
        _check_hand(b)
    elif kind == "correction":
        c = b["corrects"]
        if not isinstance(c, dict) or set(c) != {"device", "seq"}:
            raise BadRecord("corrects must be {device, seq}")
        ident(c["device"], "corrects.device")
        _int(c["seq"], "corrects.seq", 1, 2**32 - 1)
        _deltas(b["deltas"])
        _str(b["reason"], "reason", 1000, empty=True)
        _str(b["referee"], "referee", 200)
    elif kind == "session_end":
        _int(b["hands"], "hands", 0, 10000)
        ms = b["match_scores"]
        if not isinstance(ms, dict) or len(ms) > 4:
            raise BadRecord("match_scores must be an object of at most 4 players")
        for p, v in ms.items():
            ident(p, "match_scores key")
            _int(v, "match_scores[%s]" % p, -POINTS, POINTS)


