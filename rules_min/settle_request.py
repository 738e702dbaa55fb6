# The settle protocol: one hand's events per JSON line in, the settlement per line out.
#   {"id": 1, "dealer": 0, "prevalent_wind": "E", "events": [...], "options": {...}}
#   -> {"id": 1, "ok": true, "deltas": [..4..], "transfers": [{"from", "to", "points", "reason"}],
#       "next_dealer": n or null, "flags": [...]}
# A rule-breaking event makes the reply ok: false with the event's index in the error.
from rules_min import jsonout as J
from rules_min.settle import Hand

MAX_LINE = 16384
MAX_EVENTS = 200


def _seat_json(s):
    return "null" if s is None else str(s)


def _table_error(t):
    # options.hand_table (Guangdong, docs/rules.md: the table is configuration): null, or rows of
    # [name, English name, multiplier >= 1] whose names the scorer knows how to test
    if t is None:
        return None
    if not isinstance(t, list):
        return "hand_table is a list of [name, English name, multiplier] rows"
    for row in t:
        if not isinstance(row, list) or len(row) != 3 or not isinstance(row[0], str) \
                or not isinstance(row[1], str) or not isinstance(row[2], int) or isinstance(row[2], bool) \
                or row[2] < 1:
            return "hand_table is a list of [name, English name, multiplier] rows"
    from rules_min.guangdong import table_error
    return table_error(t)


def settle(req, rules):
    dealer = req.get("dealer", 0)
    if not isinstance(dealer, int) or isinstance(dealer, bool) or dealer < 0 or dealer > 3:
        raise ValueError("bad_request", "dealer must be a seat 0-3", None)
    pw = req.get("prevalent_wind", "E")
    if not isinstance(pw, str) or len(pw) != 1 or "ESWN".find(pw) < 0:
        raise ValueError("bad_request", "prevalent_wind must be one of E, S, W, N", None)
    options = req.get("options", {})
    if not isinstance(options, dict):
        raise ValueError("bad_request", "options must be an object", None)
    a = options.get("absent", -1)   # a three-player table's empty chair (settle.py)
    if not isinstance(a, int) or isinstance(a, bool) or a < -1 or a > 3 or a == dealer:
        raise ValueError("bad_request", "absent must be a seat 0-3 other than the dealer", None)
    if rules == "guangdong":
        msg = _table_error(options.get("hand_table"))
        if msg:
            raise ValueError("bad_request", msg, None)
    events = req.get("events")
    if not isinstance(events, list):
        raise ValueError("bad_request", "events must be a list", None)
    if len(events) > MAX_EVENTS:
        raise ValueError("bad_request", "more than %d events" % MAX_EVENTS, None)
    if a >= 0:
        from rules_min.settle_three import ThreeHand as H
    else:
        H = Hand
    h = H(rules, dealer, pw, options)
    for i in range(len(events)):
        h.event(i, events[i])
    h.finish()
    return h


def reply(h):
    # parts joined once: building the text with += copies it for every transfer
    d = h.deltas()
    tr = []
    for a, b, p, why in h.settled():
        tr.append('{"from": %s, "to": %s, "points": %d, "reason": %s}' % (
            _seat_json(a), _seat_json(b), p, J.q(why)))
    fl = []
    for f in h.flags:
        extra = ""
        for k in ("penalty", "reason"):
            if k in f:
                extra += ', "%s": %s' % (k, J.q(f[k]))
        fl.append('{"event": %d, "seat": %d, "kind": %s%s}' % (f["event"], f["seat"], J.q(f["kind"]), extra))
    return '"deltas": [%d, %d, %d, %d], "transfers": [%s], "next_dealer": %s, "flags": [%s]' % (
        d[0], d[1], d[2], d[3], ", ".join(tr), _seat_json(h.next_dealer), ", ".join(fl))


def handle_line(line, rules="mcr"):
    """One hand per line -> one reply line. Never raises."""
    return J.run(line, MAX_LINE, lambda req: reply(settle(req, rules)))
