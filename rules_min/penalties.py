# What a referee keys against a player within one hand: penalty kinds and the reasons that bar a
# player from winning (停和陪打), as data (each row with its bounds; rules_min/keyed.py reads
# them for the box's screens and the host tools, with names and seed clauses), and charge() and
# bar(), which apply one to a hand.
#
# Ladders count per player within the hand (the Hand object is per hand); a deduction is a
# transfer to nobody (payee None), a payment to another player is zero-sum. Cases the seeds leave
# to the referee become flags. Clauses: 000 = seed 000 (2016 TMT), 001, 003 (Sichuan), 004
# (Guangdong), as in docs/rules.md.
from rules_min.tiles import nth

# how a kind is charged (the low bits) and whether it also bars the player (BAR)
LADDER = 0   # first a warning, then lo, doubling after it, capped at hi when hi > 0
LATE = 1     # by `minutes`, the rule set's late-arrival table
KEYED = 2    # the referee keys `points` in lo..hi, paid to the `victim`
FIXED = 3    # lo points deducted
EACH = 4     # lo points to each other player
FLAG = 5     # a flag for the referee only (its kind in the group column)
CHOICE = 6   # the referee keys `points` in lo..hi, or `bar`, or both
BAR = 16

# One row per kind and rule set, "|"-separated, fields by spaces: kind, rule sets (m MCR,
# s Sichuan, g Guangdong), how (with BAR added), lo, hi, group (ladder or flag kind, - none).
# Packed strings, not tuples: on MicroPython a tuple row costs ~6x the heap, in every hand.
# The English names (KIND_EN, row for row) are also the transfers' reasons; seed clauses and
# Chinese names are in rules_min/keyed.py, row for row.
KINDS = (
    "empty_call m 0 5 0 empty_call|early_draw m 0 5 0 early_draw|slow_claim m 0 5 0 slow_claim|"
    # seed 004 §三.3(1): the conduct faults share one ladder; the seed stops at the 4th (8):
    # decided, 8 for every later one
    "early_draw g 0 2 8 conduct|call_words g 0 2 8 conduct|"
    "late msg 1 0 0 -|exposed_tiles m 2 5 60 -|exposed_tiles g 2 1 16 -|"
    # seed 001 §四.10 names no amount: 100 is a keying guard (decided), not a rule
    "information m 6 1 100 -|information g 19 16 16 -|false_win g 3 16 16 -|wall g 4 8 8 -|"
    "tier1 s 3 20 20 -|tier2 s 19 50 50 -|tier3 s 5 0 0 round_cancelled|tier4 s 21 0 0 disqualified"
)
KIND_EN = (
    "empty call|drawing early|slow pung|drawing early|non-standard call|late|exposing another's tiles|"
    "exposing another's tiles|illegal information|passing information|false win (诈和)|wrecking the wall|"
    "tier 1 violation|tier 2 violation|tier 3 violation|tier 4 violation"
)

# 停和陪打: reason, rule sets, points deducted with it. The player may not win for the rest of
# the hand and still pays as a loser. English names in BAR_EN, row for row (the rest: keyed.py).
BARS = (
    "wrong_call m 0|wrong_count mg 0|wrong_draw mg 0|false_declaration m 0|exposed_own m 0|"
    "information m 0|interfering s 50|delaying s 50"
)
BAR_EN = (
    "wrong chow, pung or kong|wrong tile count|wrong tile drawn into the hand|declared a win, not shown|"
    "own hand shown on a failed win|illegal information|interfering with play|delaying the discard"
)

_LETTER = {"mcr": "m", "sichuan": "s", "guangdong": "g"}


def find(table, key, rules):
    """(row number, [fields]) of key's row in table (KINDS or BARS) for rules, or (-1, None)."""
    r = _LETTER.get(rules, "?")
    n = len(key)
    i = 0
    start = 0
    while start <= len(table):
        end = table.find("|", start)
        if end < 0:
            end = len(table)
        # compared in place: no slice per row
        if table.find(" ", start) == start + n and table.startswith(key, start):
            f = table[start:end].split(" ")
            if f[1].find(r) >= 0:
                return i, f
        start = end + 1
        i += 1
    return -1, None


def ladder_points(step, times, cap=0):
    """Points for the times-th offence: 0 (a warning) for the first, then step, 2*step, ...,
    at most cap when cap > 0."""
    if times <= 1:
        return 0
    if cap and times > 8:
        return cap   # no need to build a big number to cap it
    p = step << (times - 2)
    return cap if cap and p > cap else p


def _err(i, msg):
    return ValueError("bad_penalty", "event %d: %s" % (i, msg), i)


def _int(ev, key):
    v = ev.get(key)
    if v is None:
        return None
    if not isinstance(v, int) or isinstance(v, bool):
        return -1
    return v


def bar(h, i, s, reason):
    """停和陪打 for reason (a BARS key) on seat s."""
    n, f = find(BARS, reason, h.rules) if isinstance(reason, str) else (-1, None)
    if f is None:
        raise _err(i, "no reason %s to bar a player in %s" % (reason, h.rules))
    if f[2] != "0":
        h.pay(s, None, int(f[2]), "barred: " + nth(BAR_EN, n))
    h.bar(i, s, reason)


def charge(h, i, s, kind, ev):
    r = h.rules
    n, f = find(KINDS, kind, r) if isinstance(kind, str) else (-1, None)
    if f is None:
        raise _err(i, "no penalty %s in %s" % (kind, r))
    how = int(f[2])
    lo = int(f[3])
    hi = int(f[4])
    why = nth(KIND_EN, n)
    if how & 15 == LADDER:
        key = (s, f[5])
        k = h.penalties.get(key, 0) + 1
        h.penalties[key] = k
        p = ladder_points(lo, k, hi)
        if p:
            h.pay(s, None, p, "penalty %s #%d" % (kind, k))
        else:
            h.flags.append({"event": i, "seat": s, "kind": "warning", "penalty": kind})
    elif how & 15 == LATE:
        _late(h, i, s, _int(ev, "minutes"))
    elif how & 15 == KEYED:
        v = h.seat(i, ev, "victim")
        if v == s:
            raise _err(i, "the victim is another player")
        h.pay(s, v, _points(i, ev, kind, lo, hi, True), why)
    elif how & 15 == FIXED:
        h.pay(s, None, lo, why)
    elif how & 15 == EACH:
        for o in range(4):
            if o != s:
                h.pay(s, o, lo, why)
    elif how & 15 == FLAG:
        h.flags.append({"event": i, "seat": s, "kind": f[5]})
    else:   # CHOICE
        barring = ev.get("bar", False)
        if not isinstance(barring, bool):
            raise _err(i, "bar must be true or false")
        p = _points(i, ev, kind, lo, hi, not barring)
        if p:
            h.pay(s, None, p, why)
        if barring:
            h.bar(i, s, kind)
    if how & BAR:
        h.bar(i, s, kind)


def _points(i, ev, kind, lo, hi, needed):
    p = _int(ev, "points")
    if p is None and not needed:
        return 0
    if p is None or p < lo or p > hi:
        raise _err(i, "%s: the referee keys points %d-%d" % (kind, lo, hi))
    return p


def _late(h, i, s, minutes):
    if minutes is None or minutes < 0:
        raise _err(i, "late needs minutes, a whole number")
    # the rule set's ladder (seed 000 §一.4.1, 003 第五条.1, 004 §三.1), loaded only when keyed
    from rules_min.tournament import late
    points, forfeit, out = late(h.rules, minutes)
    if out:
        h.flags.append({"event": i, "seat": s, "kind": "disqualified"})
    elif forfeit:
        h.flags.append({"event": i, "seat": s, "kind": "forfeit"})
    elif points:
        h.late(s, points, minutes)
