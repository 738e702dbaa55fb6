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
#                scores (optional, survival: each chair's survival score after the hand)
#   correction   corrects {device, seq}, seats, deltas (the new ones), was (the old), reason,
#                referee, time
#   session_end  tournament, session, table, hands (played), reason ("hands", "time",
#                "referee", "bust": a survival table ended by a player at 0), match_scores
#                {player: points} (survival: the survival scores at the end), time
# Every record has "v" (VERSION) and "kind".
#
# A hand's facts are data, never text in the language shown:
#   transfers  [[payer, payee, points, reason], ...] as settled (rules_min/settle.py): payer or
#              payee null is a deduction (a penalty paid to nobody); deltas are their sum, and
#              validate() checks that they are
#   wins       one per win, in order: {"seat", "from" (null: self-drawn), "total",
#              "fans": [[fan id, count], ...]}: ids of rules_min/mcr_table.py (MCR, 花牌 as id
#              80 with the flower count), rules_min/sichuan.py's fan numbers, or the row of
#              rules_min/guangdong.HAND_TABLE (count 1); total as the rule set counts it (MCR
#              points with flowers, Sichuan fans capped, Guangdong the multiplier)
#   flags      what settle flags for the referee: {"event", "seat", "kind"[, "penalty"]}
#
# Events are checked against EVENTS: one row per event kind, naming its fields. A new flag on
# a win (issue 13: a winning tile mixed in, 杠上开花 after a flower replacement) is one more name
# in WIN_FLAGS; a new event (the `bar` of issue 13) is one more row.
from protocol import config

VERSION = 2
PAYLOAD = 1           # the journal payload's first byte: this format (JSON after it)
KINDS = ("session", "hand", "correction", "session_end")
WINDS = ("E", "S", "W", "N")
SUITS = ("m", "s", "p")
POINTS_MAX = 1000000
TIME_MAX = 1 << 40
HAND_MAX = 1000
TEXT_MAX = 120
EVENTS_MAX = 500

# true/false facts a win can carry (settle protocol, README "Settle protocol")
WIN_FLAGS = ("kong", "last_tile", "last_of_kind", "kong_discard", "same_discard")
KONG_KINDS = ("concealed", "added", "direct")
END_REASONS = ("hands", "time", "referee", "bust")

# event key -> the other fields it may have, each with its kind (see _value)
EVENTS = (
    ("win", "seat", (("from", "seat?"), ("hand", "hand"), ("flowers", "0..8"), ("missing_suit", "suit"),
                     ("horses", "tiles")) + tuple((f, "bool") for f in WIN_FLAGS)),
    ("kong", "kong", (("seat", "seat"), ("from", "seat"))),
    ("declare", "seat", (("hand", "hand"), ("missing_suit", "suit"))),
    ("penalty", "id", (("seat", "seat"), ("minutes", "0..999"), ("points", "0..1000"))),
    ("wall_end", "true", (("hands", "seat_hands"), ("missing_suit", "seat_suits"))),
    ("time_out", "true", ()),
)
# fields an event of that key must have besides the key
EVENT_NEEDS = {"win": ("from", "hand"), "kong": ("seat",), "declare": (), "penalty": ("seat",),
               "wall_end": (), "time_out": ()}


# ---- building (the box) ----
def session(cfg, device, time):
    rec = {"v": VERSION, "kind": "session", "device": device, "time": time}
    for name, _req, _k, _lo, _hi in config.FIELDS:
        if name in cfg:
            rec["seats" if name == "players" else name] = cfg[name]
    return rec


def hand(cfg, number, seats, dealer, wind, events, deltas, transfers, flags, wins, next_dealer, time,
         time_out=False, hand_start=None, multiplier=None, scores=None):
    rec = {"v": VERSION, "kind": "hand", "tournament": cfg["tournament"], "session": cfg["session"],
           "table": cfg["table"], "hand": number, "rules": cfg["rules"], "seats": seats,
           "dealer": dealer, "prevalent_wind": wind, "events": events, "deltas": deltas,
           "transfers": transfers, "flags": flags, "wins": wins,
           "winners": [w["seat"] for w in wins], "discarder": wins[0]["from"] if wins else None,
           "next_dealer": next_dealer, "time": time}
    if time_out:
        rec["time_out"] = True
    if hand_start is not None:
        rec["hand_start"] = hand_start
    if multiplier is not None:
        rec["multiplier"] = multiplier
    if scores is not None:
        rec["scores"] = scores
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
    """The journal payload: the same bytes on every interpreter (sorted keys, no spaces)."""
    from rules_min.jsonout import dumps
    return bytes((PAYLOAD,)) + dumps(rec).encode()


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


# ---- checking (the server, the tests; the box's builders produce only what passes) ----
class Bad(Exception):
    pass


def _int(v, what, lo, hi):
    if not config.is_int(v):
        raise Bad("%s must be a whole number" % what)
    if v < lo or v > hi:
        raise Bad("%s must be %d to %d" % (what, lo, hi))
    return v


def _id(v, what, hi=config.ID_MAX):
    e = config.id_problem(v, 1, hi)
    if e:
        raise Bad("%s %s" % (what, e))
    return v


def _text(v, what, hi=TEXT_MAX):
    if not isinstance(v, str) or len(v) > hi:
        raise Bad("%s must be a text of at most %d characters" % (what, hi))
    for ch in v:
        if ord(ch) < 32 or ord(ch) == 127:
            raise Bad("%s holds a control character" % what)
    return v


def _seat(v, what, n=config.SEATS, null=False):
    if v is None and null:
        return None
    return _int(v, what, 0, n - 1)


def _list(v, what, hi):
    if not isinstance(v, list) or len(v) > hi:
        raise Bad("%s must be a list of at most %d" % (what, hi))
    return v


def _fields(rec, what, need, may=()):
    for k in need:
        if k not in rec:
            raise Bad("%s misses %s" % (what, k))
    for k in rec:
        if k not in need and k not in may:
            raise Bad("%s has an unknown field %s" % (what, str(k)[:24]))


def _seats(v):
    _list(v, "seats", config.SEATS)
    if len(v) != config.SEATS:
        raise Bad("seats must name %d players" % config.SEATS)
    for i in range(len(v)):
        _id(v[i], "seats[%d]" % i, config.PLAYER_MAX)
        if v[i] in v[i + 1:]:
            raise Bad("seats name %s twice" % v[i])
    return v


def _deltas(v, what="deltas"):
    _list(v, what, config.SEATS)
    if len(v) != config.SEATS:
        raise Bad("%s must be %d numbers" % (what, config.SEATS))
    for i in range(len(v)):
        _int(v[i], "%s[%d]" % (what, i), -POINTS_MAX, POINTS_MAX)
    return v


def _value(v, kind, what):
    if kind == "seat":
        _seat(v, what)
    elif kind == "seat?":
        _seat(v, what, null=True)
    elif kind == "bool":
        if not isinstance(v, bool):
            raise Bad("%s must be true or false" % what)
    elif kind == "true":
        if v is not True:
            raise Bad("%s must be true" % what)
    elif kind == "hand":
        _text(v, what, 80)
    elif kind == "suit":
        if v not in SUITS:
            raise Bad("%s must be m, s or p" % what)
    elif kind == "tiles":
        _list(v, what, 8)
        for t in v:
            _text(t, what, 2)
    elif kind == "id":
        _id(v, what, 24)
    elif kind == "kong":
        if v not in KONG_KINDS:
            raise Bad("%s must be concealed, added or direct" % what)
    elif kind == "seat_hands" or kind == "seat_suits":
        if not isinstance(v, dict) or len(v) > config.SEATS:
            raise Bad("%s must map seats to %s" % (what, "hands" if kind == "seat_hands" else "suits"))
        for k in v:
            if k not in ("0", "1", "2", "3"):
                raise Bad("%s: %s is no seat" % (what, str(k)[:8]))
            _value(v[k], "hand" if kind == "seat_hands" else "suit", what + "." + k)
    else:
        lo, _, hi = kind.partition("..")
        _int(v, what, int(lo), int(hi))


def _event(ev, i):
    what = "events[%d]" % i
    if not isinstance(ev, dict):
        raise Bad("%s must be an object" % what)
    for key, kind, others in EVENTS:
        if key in ev:
            _value(ev[key], kind, what + "." + key)
            may = [key]
            for name, k in others:
                may.append(name)
                if name in ev:
                    _value(ev[name], k, what + "." + name)
            _fields(ev, what, (key,) + EVENT_NEEDS[key], may)
            if key == "kong" and (ev["kong"] == "direct") != ("from" in ev):
                raise Bad("%s: a direct kong, and only that, names who gave the tile" % what)
            return
    raise Bad("%s is no known event" % what)


def _transfers(v):
    _list(v, "transfers", 1000)
    d = [0] * config.SEATS
    for i in range(len(v)):
        t = v[i]
        what = "transfers[%d]" % i
        if not isinstance(t, list) or len(t) != 4:
            raise Bad("%s must be [payer, payee, points, reason]" % what)
        a = _seat(t[0], what + " payer", null=True)
        b = _seat(t[1], what + " payee", null=True)
        p = _int(t[2], what + " points", 1, POINTS_MAX)
        _text(t[3], what + " reason")
        if a == b:
            raise Bad("%s pays nobody" % what)
        if a is not None:
            d[a] -= p
        if b is not None:
            d[b] += p
    return d


def _wins(v, rules):
    _list(v, "wins", 3)
    seen = []
    for i in range(len(v)):
        w = v[i]
        what = "wins[%d]" % i
        if not isinstance(w, dict):
            raise Bad("%s must be an object" % what)
        _fields(w, what, ("seat", "from", "total", "fans"))
        s = _seat(w["seat"], what + ".seat")
        src = _seat(w["from"], what + ".from", null=True)
        if src == s:
            raise Bad("%s: the winner cannot have dealt in" % what)
        if s in seen:
            raise Bad("%s: seat %d wins twice" % (what, s))
        seen.append(s)
        _int(w["total"], what + ".total", 0, 100000)
        _list(w["fans"], what + ".fans", 100)
        for f in w["fans"]:
            if not isinstance(f, list) or len(f) != 2:
                raise Bad("%s.fans must be [id, count] pairs" % what)
            _int(f[0], what + ".fans id", 0, 255)
            _int(f[1], what + ".fans count", 1, 8)
    if rules == "mcr" and len(v) > 1:
        raise Bad("Chinese Official hands have one winner")
    return seen


def _check_hand(rec):
    _seats(rec["seats"])
    _int(rec["hand"], "hand", 1, HAND_MAX)
    _seat(rec["dealer"], "dealer")
    if rec["prevalent_wind"] not in WINDS:
        raise Bad("prevalent_wind must be E, S, W or N")
    ev = _list(rec["events"], "events", EVENTS_MAX)
    for i in range(len(ev)):
        _event(ev[i], i)
    deltas = _deltas(rec["deltas"])
    if _transfers(rec["transfers"]) != deltas:
        raise Bad("deltas are not the sum of the transfers")
    fl = _list(rec["flags"], "flags", 100)
    for i in range(len(fl)):
        f = fl[i]
        what = "flags[%d]" % i
        if not isinstance(f, dict):
            raise Bad("%s must be an object" % what)
        _fields(f, what, ("event", "seat", "kind"), ("penalty",))
        _int(f["event"], what + ".event", 0, EVENTS_MAX)
        _seat(f["seat"], what + ".seat")
        _id(f["kind"], what + ".kind", 40)
        if "penalty" in f:
            _id(f["penalty"], what + ".penalty", 24)
    seen = _wins(rec["wins"], rec["rules"])
    if rec["winners"] != seen:
        raise Bad("winners must be the seats of wins, in order")
    d = rec["discarder"]
    if d != (rec["wins"][0]["from"] if seen else None):
        raise Bad("discarder must be who dealt in to the first win")
    _seat(rec["next_dealer"], "next_dealer", null=True)
    if "time_out" in rec and rec["time_out"] is not True:
        raise Bad("time_out must be true when present")
    if "hand_start" in rec:
        _int(rec["hand_start"], "hand_start", 0, TIME_MAX)
    if "multiplier" in rec:
        _int(rec["multiplier"], "multiplier", 1, 1000)
    if "scores" in rec:
        _deltas(rec["scores"], "scores")


_NEEDS = {
    "session": ("v", "kind", "device", "time", "tournament", "session", "table", "rules", "seats",
                "first_dealer"),
    "hand": ("v", "kind", "tournament", "session", "table", "hand", "rules", "seats", "dealer",
             "prevalent_wind", "events", "deltas", "transfers", "flags", "wins", "winners", "discarder",
             "next_dealer", "time"),
    "correction": ("v", "kind", "corrects", "seats", "deltas", "was", "reason", "referee", "time"),
    "session_end": ("v", "kind", "tournament", "session", "table", "hands", "reason", "match_scores", "time"),
}
# a session record's optional fields are the config's (protocol/config.py FIELDS: one home)
_MAY = {"session": tuple(f[0] for f in config.FIELDS if not f[1]),
        "hand": ("time_out", "hand_start", "multiplier", "scores"), "correction": (), "session_end": ()}


def _check(rec):
    if not isinstance(rec, dict):
        raise Bad("a record must be an object")
    if rec.get("v") != VERSION or isinstance(rec.get("v"), bool):
        raise Bad("v must be %d" % VERSION)
    kind = rec.get("kind")
    if kind not in KINDS:
        raise Bad("kind must be one of " + ", ".join(KINDS))
    _fields(rec, kind + " record", _NEEDS[kind], _MAY[kind])
    _int(rec["time"], "time", 0, TIME_MAX)
    if kind == "session":
        _id(rec["device"], "device")
        cfg = {}
        for k in rec:
            if k not in ("v", "kind", "device", "time"):
                cfg["players" if k == "seats" else k] = rec[k]
        e = config.check(cfg)
        if e:
            raise Bad(e[1].replace("players", "seats"))
        return
    if kind == "correction":
        c = rec["corrects"]
        if not isinstance(c, dict):
            raise Bad("corrects must be {device, seq}")
        _fields(c, "corrects", ("device", "seq"))
        _id(c["device"], "corrects.device")
        _int(c["seq"], "corrects.seq", 1, (1 << 32) - 1)
        _seats(rec["seats"])
        _deltas(rec["deltas"])
        _deltas(rec["was"], "was")
        _text(rec["reason"], "reason", 1000)
        _text(rec["referee"], "referee", 200)
        return
    # hand and session_end belong to a table of a session
    _id(rec["tournament"], "tournament")
    _int(rec["session"], "session", 1, config.NUMBER_MAX)
    _int(rec["table"], "table", 1, config.NUMBER_MAX)
    if kind == "hand":
        if rec["rules"] not in config.RULES:
            raise Bad("rules must be one of " + ", ".join(config.RULES))
        _check_hand(rec)
        return
    _int(rec["hands"], "hands", 0, HAND_MAX)
    if rec["reason"] not in END_REASONS:
        raise Bad("reason must be one of " + ", ".join(END_REASONS))
    ms = rec["match_scores"]
    if not isinstance(ms, dict) or len(ms) > config.SEATS:
        raise Bad("match_scores must map at most %d players to points" % config.SEATS)
    for p in ms:
        _id(p, "match_scores player", config.PLAYER_MAX)
        _int(ms[p], "match_scores[%s]" % p, -POINTS_MAX, POINTS_MAX)


def validate(rec):
    """None when rec is a record of this schema, else what is wrong (English, names the field)."""
    try:
        _check(rec)
    except Bad as e:
        return e.args[0]
    return None
