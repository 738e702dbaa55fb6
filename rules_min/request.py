# The score protocol: one JSON request line in, one JSON reply line out. Shared by the host's
# `python -m host_tools score` and the device (firmware/score_stdio.py), so it stays MicroPython
# code. Replies are written by hand rather than json.dumps: the key order is then the same on
# both interpreters and no dict is built per reply.
import json

from rules_min import mcr
from rules_min import mcr_table as T
from rules_min.notation import parse
from rules_min.mcr_pay import payments

MAX_LINE = 2048  # a request is ~250 bytes; longer lines are refused before parsing
_WINDS = "ESWN"
_FLAGS = ("self_drawn", "last_of_kind", "last_tile", "kong")


def _q(s):
    # JSON string literal; escapes only what JSON requires
    for ch in s:
        if ch == '"' or ch == "\\" or ord(ch) < 32:
            break
    else:
        return '"' + s + '"'
    out = '"'
    for ch in s:
        if ch == '"' or ch == "\\":
            out += "\\" + ch
        elif ord(ch) < 32:
            out += "\\u%04x" % ord(ch)
        else:
            out += ch
    return out + '"'


def _id(rid):
    if rid is None:
        return "null"
    if isinstance(rid, str):
        return _q(rid)
    if isinstance(rid, bool):
        return "true" if rid else "false"
    if isinstance(rid, int):
        return str(rid)
    try:
        return json.dumps(rid)
    except Exception:
        return "null"


def error(rid, code, message, shanten=None):
    s = '{"id": ' + _id(rid) + ', "ok": false, "error": {"code": ' + _q(code) + ', "message": ' + _q(message) + "}"
    if shanten is not None:
        s += ', "shanten": %d' % shanten
    return s + "}"


def _wind(req, key):
    w = req.get(key, "E")
    if not isinstance(w, str) or len(w) != 1 or _WINDS.find(w) < 0:
        raise ValueError("bad_request", key + " must be one of E, S, W, N")
    return 27 + _WINDS.find(w)


def _seat(req, key):
    v = req.get(key)
    if v is None:
        return None
    if not isinstance(v, int) or isinstance(v, bool) or v < 0 or v > 3:
        raise ValueError("bad_request", key + " must be a seat 0-3 or null")
    return v


def _mcr(req):
    hand = req.get("hand")
    if not isinstance(hand, str):
        raise ValueError("bad_request", "hand must be a string in the notation of RULES.md")
    flags = []
    for k in _FLAGS:
        v = req.get(k, False)
        if not isinstance(v, bool):
            raise ValueError("bad_request", k + " must be true or false")
        flags.append(v)
    self_drawn, last_of_kind, last_tile, kong = flags
    seat = _wind(req, "seat_wind")
    prev = _wind(req, "prevalent_wind")
    fl = req.get("flowers", 0)
    if not isinstance(fl, int) or isinstance(fl, bool) or fl < 0 or fl > 8:
        raise ValueError("bad_request", "flowers must be a number 0-8")
    winner = _seat(req, "winner")
    discarder = _seat(req, "discarder")
    if discarder is not None and winner is None:
        raise ValueError("bad_request", "discarder given without winner")
    if winner is not None:
        if self_drawn and discarder is not None:
            raise ValueError("bad_request", "a self-drawn win has no discarder")
        if not self_drawn and discarder is None:
            raise ValueError("bad_request", "a win on a discard needs the discarder")
        if discarder == winner:
            raise ValueError("bad_request", "the winner cannot be the discarder")

    melds, counts, win, letters = parse(hand)
    if letters:
        if fl and fl != letters:
            raise ValueError("bad_request", "flowers %d disagrees with %d flower letters" % (fl, letters))
        fl = letters
    msg = mcr.check_flags(melds, counts, win, self_drawn, last_of_kind, kong)
    if msg:
        raise ValueError("bad_flags", msg)
    ft, total = mcr.score(melds, counts, win, self_drawn, last_of_kind, last_tile, kong, seat, prev)
    if ft is None:
        from rules_min.shanten import shanten
        counts[win] -= 1
        n = shanten(counts, len(melds) // 3)
        return None, n
    out = '"fans": ['
    first = True
    for f in T.ORDER:
        n = ft[f]
        if n:
            out += ("" if first else ", ") + '{"name": ' + _q(T.name(f)) + ', "en": ' + _q(T.name(f, True))
            out += ', "points": %d, "count": %d}' % (T.POINTS[f], n)
            first = False
    if fl:
        out += ("" if first else ", ") + '{"name": ' + _q(T.name(T.FLOWER_TILES)) + ', "en": '
        out += _q(T.name(T.FLOWER_TILES, True)) + ', "points": 1, "count": %d}' % fl
    out += '], "total": %d, "meets_minimum": %s' % (total + fl, "true" if total >= 8 else "false")
    if winner is not None and total >= 8:
        p = payments(total + fl, winner, discarder)
        out += ', "payments": [%d, %d, %d, %d]' % (p[0], p[1], p[2], p[3])
    return out, None


def handle_line(line, rules="mcr"):
    """One request line -> one reply line (no newline). Never raises."""
    rid = None
    try:
        if len(line) > MAX_LINE:
            return error(None, "bad_request", "line longer than %d characters" % MAX_LINE)
        try:
            req = json.loads(line)
        except Exception:
            return error(None, "bad_json", "the line is not JSON")
        if not isinstance(req, dict):
            return error(None, "bad_request", "a request is a JSON object")
        rid = req.get("id")
        if rules != "mcr":
            return error(rid, "unsupported_rules", "rule set %s is not available" % rules)
        try:
            body, shanten = _mcr(req)
        except ValueError as e:
            a = e.args
            if len(a) == 2:
                return error(rid, a[0], a[1])
            return error(rid, "bad_request", str(e))
        if body is None:
            return error(rid, "not_win", "not a winning hand", shanten)
        return '{"id": ' + _id(rid) + ', "ok": true, ' + body + "}"
    except MemoryError:
        return error(rid, "internal", "out of memory")
    except Exception as e:  # a bug must not kill the command: the reply names it
        return error(rid, "internal", "%s: %s" % (type(e).__name__, e))
