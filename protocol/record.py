# Journal records: the one schema the box writes, the sync tool carries and the server stores.
# Pure Python for MicroPython and CPython. The box builds every record with the functions here;
# the server checks every payload with validate(), the same code.
#
#   rec = record.hand(cfg, 3, seats, dealer=2, wind="E", events=[...], deltas=[...],
#                     transfers=[...], flags=[], wins=[...], next_dealer=3, time=1764400123)
#   data = record.encode(rec)          # the journal payload: PAYLOAD byte, then compact JSON
#   rec = record.decode(data)          # None for a payload of another format
#   err = record.validate(rec)         # None, or a message in English naming the field
#
# Kinds and their fields (every field listed is required unless marked optional):
#   session      device, time, tournament, session, table, rules, seats, first_dealer, hands,
#                minutes, lang: the session config (protocol/config.py checks it) with
#                "players" named "seats"
#   hand         tournament, session, table, hand, rules, seats (player ids by chair), dealer
#                (chair), prevalent_wind, events (the settle protocol's input, as keyed),
#                deltas (per chair), transfers, flags, wins, winners, discarder, next_dealer,
#                time; time_out (optional, true: the hand ran out of session time);
#                hand_start (optional: epoch seconds of the dealer's dice roll, the survival
#                multiplier's clock), multiplier (optional, survival: what the box applied),
#                scores (optional, survival: each chair's survival score after the hand:
#                firmware/survival.py adds the three to the record hand() builds).
#                A three-player table names its empty chair null in seats (protocol/config.py):
#                it has delta 0, no transfer and no event, and never deals.
#   correction   corrects {device, seq}, seats, deltas (the new ones), was (the old), reason,
#                referee, time
#   session_end  tournament, session, table, hands (played), reason ("hands", "time",
#                "referee", "bust": a survival table ended by a player at 0), match_scores
#                {player: points} (the hands' deltas summed, in every mode), time
# Every record has "v" (VERSION) and "kind".
#
# A hand's facts are data, never text in the language shown:
#   transfers  [[payer, payee, points, event], ...] as settled (rules_min/settle.py), each with
#              the index of the event that settled it (the box writes that: compact, no words,
#              so a busy Sichuan hand fits one journal record; a short reason text in its place
#              is accepted too, as the first v2 records had it): payer or payee null is a
#              deduction (a penalty paid to nobody); deltas are their sum, and validate()
#              checks that they are
#   wins       one per win, in order: {"seat", "from" (null: self-drawn), "total",
#              "fans": [[fan id, count], ...]}: ids of rules_min/mcr_table.py (MCR, 花牌 as id
#              80 with the flower count), rules_min/sichuan.py's fan numbers, or the row of
#              rules_min/guangdong.HAND_TABLE (count 1); total as the rule set counts it (MCR
#              points with flowers, Sichuan fans capped, Guangdong the multiplier)
#   flags      what settle flags for the referee: {"event", "seat", "kind"[, "penalty" | "reason"]}
#              ("penalty": the kind a warning is for; "reason": why a player is barred)
#
# The field lists and checks are in protocol/record_check.py (validate() below loads it; the box
# never does). Events are checked against its EVENTS: one row per event kind, naming its fields
# (the settle protocol's events, README "Settle protocol": win with its flags, kong, declare,
# penalty with minutes / points / victim / bar, bar with its reason, wall_end, time_out). A new
# flag on a win is one more name in its WIN_FLAGS; a new event is one more row.
VERSION = 2
PAYLOAD = 1           # the journal payload's first byte: this format (JSON after it)
KINDS = ("session", "hand", "correction", "session_end")
POINTS_MAX = 1000000  # a delta or a transfer, either way
TIME_MAX = 1 << 40    # unix seconds
HAND_MAX = 1000       # hand numbers

# ---- building (the box) ----
_PRIVATE = ("pin_mac",)   # protocol/config.py PRIVATE (a test checks they agree): stays on the box


def session(cfg, device, time):
    """cfg: a config protocol/config.py passed; its players are the record's seats. Its PRIVATE
    fields (the referee PIN's MAC) are the box's settings, not the session's: left out."""
    rec = {"v": VERSION, "kind": "session", "device": device, "time": time}
    for k in cfg:
        if k not in _PRIVATE:
            rec["seats" if k == "players" else k] = cfg[k]
    return rec


def hand(cfg, number, seats, dealer, wind, events, deltas, transfers, flags, wins, next_dealer, time,
         time_out=False):
    rec = {"v": VERSION, "kind": "hand", "tournament": cfg["tournament"], "session": cfg["session"],
           "table": cfg["table"], "hand": number, "rules": cfg["rules"], "seats": seats,
           "dealer": dealer, "prevalent_wind": wind, "events": events, "deltas": deltas,
           "transfers": transfers, "flags": flags, "wins": wins,
           "winners": [w["seat"] for w in wins], "discarder": wins[0]["from"] if wins else None,
           "next_dealer": next_dealer, "time": time}
    if time_out:
        rec["time_out"] = True
    return rec


def win(seat, src, total, fans):
    """One entry of a hand's wins: fans [[id, count], ...]."""
    return {"seat": seat, "from": src, "total": total, "fans": fans}


def correction(device, seq, seats, deltas, was, reason, referee, time):
    return {"v": VERSION, "kind": "correction", "corrects": {"device": device, "seq": seq}, "seats": seats,
            "deltas": deltas, "was": was, "reason": reason, "referee": referee, "time": time}


def session_end(cfg, hands, reason, scores, time):
    return {"v": VERSION, "kind": "session_end", "tournament": cfg["tournament"], "session": cfg["session"],
            "table": cfg["table"], "hands": hands, "reason": reason, "match_scores": scores, "time": time}


def encode(rec):
    """The journal payload: PAYLOAD, then compact JSON with sorted keys (rules_min.jsonout's
    dumps, byte for byte), the same on every interpreter. Written in two passes, the length
    first, into one buffer of that size: no string of the whole record is built on the way, so
    committing a hand needs little more heap than the record itself."""
    n = _put(rec, None, 1)
    buf = bytearray(n)
    buf[0] = PAYLOAD
    _put(rec, buf, 1)
    return buf


def _raw(b, buf, i):
    if buf is not None:
        buf[i:i + len(b)] = b
    return i + len(b)


def _str(v, buf, i):
    esc = False
    for ch in v:
        if ch == '"' or ch == "\\" or ord(ch) < 32:
            esc = True
            break
    if esc:
        from rules_min.jsonout import q
        return _raw(q(v).encode(), buf, i)
    i = _raw(b'"', buf, i)
    i = _raw(v.encode(), buf, i)
    return _raw(b'"', buf, i)


def _put(v, buf, i):
    # v as JSON into buf from i (buf None: only count); returns where it ends
    if v is None:
        return _raw(b"null", buf, i)
    if v is True:
        return _raw(b"true", buf, i)
    if v is False:
        return _raw(b"false", buf, i)
    if isinstance(v, int):
        return _raw(str(v).encode(), buf, i)
    if isinstance(v, str):
        return _str(v, buf, i)
    if isinstance(v, dict):
        i = _raw(b"{", buf, i)
        first = True
        for k in sorted(v):
            if not first:
                i = _raw(b",", buf, i)
            first = False
            i = _str(k, buf, i)
            i = _raw(b":", buf, i)
            i = _put(v[k], buf, i)
        return _raw(b"}", buf, i)
    if isinstance(v, (list, tuple)):
        i = _raw(b"[", buf, i)
        for k in range(len(v)):
            if k:
                i = _raw(b",", buf, i)
            i = _put(v[k], buf, i)
        return _raw(b"]", buf, i)
    raise ValueError("no %s in records" % type(v).__name__)


def decode(data):
    """A payload back to its record; None when it is not this format."""
    if not data or data[0] != PAYLOAD:
        return None
    import json
    try:
        rec = json.loads(bytes(data[1:]).decode())
    except (ValueError, UnicodeError):
        return None
    return rec if isinstance(rec, dict) else None


# ---- checking ----
def validate(rec):
    """None when rec is a record of this schema, else what is wrong (English, names the field).
    The checks are in protocol/record_check.py, loaded only here: the box builds records and
    never needs them in its heap."""
    from protocol import record_check
    return record_check.validate(rec)
