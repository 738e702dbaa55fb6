# The checks of protocol/record.py's schema: record.validate() calls validate() here. Kept out
# of record.py so that the box, which only builds records, does not hold them in its heap.
from protocol import config
from protocol.record import VERSION, KINDS, POINTS_MAX, TIME_MAX, HAND_MAX

WINDS = ("E", "S", "W", "N")
SUITS = ("m", "s", "p")
TEXT_MAX = 120
EVENTS_MAX = 500

# true/false facts a win can carry (settle protocol, README "Settle protocol"; rules_min/keyed.py
# FLAGS lists which rule set takes which), and same_discard (the box: one more winner on the
# discard of the win before)
WIN_FLAGS = ("kong", "last_tile", "last_of_kind", "win_tile_mixed", "replacement_flower", "misnamed",
             "kong_discard", "same_discard")
KONG_KINDS = ("concealed", "added", "direct")
END_REASONS = ("hands", "time", "referee", "bust")   # bust: a survival table (docs/survival.md)

# the fields of each kind: required, then optional
FIELDS = {
    "session": ("v", "kind", "device", "time", "tournament", "session", "table", "rules", "seats",
                "first_dealer"),
    "hand": ("v", "kind", "tournament", "session", "table", "hand", "rules", "seats", "dealer",
             "prevalent_wind", "events", "deltas", "transfers", "flags", "wins", "winners", "discarder",
             "next_dealer", "time"),
    "correction": ("v", "kind", "corrects", "seats", "deltas", "was", "reason", "referee", "time"),
    "session_end": ("v", "kind", "tournament", "session", "table", "hands", "reason", "match_scores", "time"),
}
# a session record's optional fields are the config's (protocol/config.py FIELDS: one home);
# a hand's hand_start, multiplier, scores: survival (issue 14)
OPTIONAL = {"session": tuple(f[0] for f in config.FIELDS if not f[1]),
            "hand": ("time_out", "hand_start", "multiplier", "scores"), "correction": (), "session_end": ()}

# event key -> the other fields it may have, each with its kind (see _value)
EVENTS = (
    ("win", "seat", (("from", "seat?"), ("hand", "hand"), ("flowers", "0..8"), ("missing_suit", "suit"),
                     ("horses", "tiles")) + tuple((f, "bool") for f in WIN_FLAGS)),
    ("kong", "kong", (("seat", "seat"), ("from", "seat"))),
    ("declare", "seat", (("hand", "hand"), ("missing_suit", "suit"))),
    ("penalty", "id", (("seat", "seat"), ("minutes", "0..999"), ("points", "0..1000"), ("victim", "seat"),
                       ("bar", "bool"))),
    ("bar", "seat", (("reason", "id"),)),
    ("wall_end", "true", (("hands", "seat_hands"), ("missing_suit", "seat_suits"))),
    ("time_out", "true", ()),
)
# fields an event of that key must have besides the key
EVENT_NEEDS = {"win": ("from", "hand"), "kong": ("seat",), "declare": (), "penalty": ("seat",),
               "bar": ("reason",), "wall_end": (), "time_out": ()}



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
    """The empty chair of a three-player table (one null), or None."""
    _list(v, "seats", config.SEATS)
    if len(v) != config.SEATS:
        raise Bad("seats must name %d players" % config.SEATS)
    empty = None
    for i in range(len(v)):
        if v[i] is None and empty is None:
            empty = i
            continue
        _id(v[i], "seats[%d]" % i, config.PLAYER_MAX)
        if v[i] in v[i + 1:]:
            raise Bad("seats name %s twice" % v[i])
    return empty


def _nobody_at(rec, c):
    # a three-player table: the empty chair takes part in nothing
    if rec["deltas"][c] != 0:
        raise Bad("deltas: nobody sits at seat %d, its delta is 0" % c)
    for t in rec["transfers"]:
        if t[0] == c or t[1] == c:
            raise Bad("transfers: nobody sits at seat %d to pay or be paid" % c)
    for w in rec["wins"]:
        if w["seat"] == c or w["from"] == c:
            raise Bad("wins: nobody sits at seat %d" % c)
    if rec["dealer"] == c or rec["next_dealer"] == c:
        raise Bad("dealer: nobody sits at seat %d to deal" % c)
    for i in range(len(rec["events"])):
        ev = rec["events"][i]
        for k in ("win", "from", "seat", "declare"):
            if ev.get(k) == c and not isinstance(ev.get(k), bool):
                raise Bad("events[%d]: nobody sits at seat %d" % (i, c))


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


def _transfers(v, events):
    _list(v, "transfers", 1000)
    d = [0] * config.SEATS
    for i in range(len(v)):
        t = v[i]
        what = "transfers[%d]" % i
        if not isinstance(t, list) or len(t) != 4:
            raise Bad("%s must be [payer, payee, points, event]" % what)
        a = _seat(t[0], what + " payer", null=True)
        b = _seat(t[1], what + " payee", null=True)
        p = _int(t[2], what + " points", 1, POINTS_MAX)
        if isinstance(t[3], str):   # a reason in words: records written before the event index
            _text(t[3], what + " reason")
        else:
            _int(t[3], what + " event", 0, max(0, events - 1))
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
    empty = _seats(rec["seats"])
    _int(rec["hand"], "hand", 1, HAND_MAX)
    _seat(rec["dealer"], "dealer")
    if rec["prevalent_wind"] not in WINDS:
        raise Bad("prevalent_wind must be E, S, W or N")
    ev = _list(rec["events"], "events", EVENTS_MAX)
    for i in range(len(ev)):
        _event(ev[i], i)
    deltas = _deltas(rec["deltas"])
    if _transfers(rec["transfers"], len(ev)) != deltas:
        raise Bad("deltas are not the sum of the transfers")
    fl = _list(rec["flags"], "flags", 100)
    for i in range(len(fl)):
        f = fl[i]
        what = "flags[%d]" % i
        if not isinstance(f, dict):
            raise Bad("%s must be an object" % what)
        _fields(f, what, ("event", "seat", "kind"), ("penalty", "reason"))
        _int(f["event"], what + ".event", 0, EVENTS_MAX)
        _seat(f["seat"], what + ".seat")
        _id(f["kind"], what + ".kind", 40)
        if "penalty" in f:
            _id(f["penalty"], what + ".penalty", 24)
        if "reason" in f:   # a barred player's (停和陪打): a bar reason or a penalty kind
            _id(f["reason"], what + ".reason", 24)
    seen = _wins(rec["wins"], rec["rules"])
    if rec["winners"] != seen:
        raise Bad("winners must be the seats of wins, in order")
    d = rec["discarder"]
    if d != (rec["wins"][0]["from"] if seen else None):
        raise Bad("discarder must be who dealt in to the first win")
    _seat(rec["next_dealer"], "next_dealer", null=True)
    if "time_out" in rec and rec["time_out"] is not True:
        raise Bad("time_out must be true when present")
    if empty is not None:
        _nobody_at(rec, empty)
    if "hand_start" in rec:
        _int(rec["hand_start"], "hand_start", 0, TIME_MAX)
    if "multiplier" in rec:
        _int(rec["multiplier"], "multiplier", 1, 1000)
    if "scores" in rec:
        _deltas(rec["scores"], "scores")




def _check(rec):
    if not isinstance(rec, dict):
        raise Bad("a record must be an object")
    if rec.get("v") != VERSION or isinstance(rec.get("v"), bool):
        raise Bad("v must be %d" % VERSION)
    kind = rec.get("kind")
    if kind not in KINDS:
        raise Bad("kind must be one of " + ", ".join(KINDS))
    _fields(rec, kind + " record", FIELDS[kind], OPTIONAL[kind])
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
