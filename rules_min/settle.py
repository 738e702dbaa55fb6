# Settles one hand from the events the table keys in, for the three rule sets (docs/rules.md).
#
#   h = Hand("sichuan", dealer=0, prevalent="E", options={})
#   for i, ev in enumerate(events): h.event(i, ev)     # raises ValueError(code, message, index)
#   h.finish()                                          # closes a pending multi-win discard
#   h.deltas(), h.transfers, h.next_dealer, h.flags
#
# A transfer is [payer, payee, points, reason]; payer or payee None is a deduction (a penalty
# paid to nobody). h.wins keeps each win as scored, [seat, discarder, fans, total] with fans
# [[fan id, count], ...], so a caller never scores a hand a second time to show or record it.
# Any prefix of a hand's events settles, so the device can show running totals.
# A three-player table's hands: rules_min/settle_three.py (ThreeHand, options {"absent": chair}).
#
# Hand keeps what the rule sets share: the events, the seats, the kongs, the discard a win
# was on. What differs (a win's scoring and payments, a kong's payments, a declared hand, the
# end of the hand) is in one module a rule set, each with the functions and constants that
# rules_min/settle_mcr.py lists: settle_mcr.py, settle_sichuan.py, settle_guangdong.py. A Hand
# imports its own rule set's only: on the device a Sichuan table never loads the ~30 KB of
# Chinese Official tables.
from rules_min.notation import parse
from rules_min.penalties import charge, bar
from rules_min.win import Win
from rules_min.win_flags import check as check_win_flags

_WINDS = "ESWN"

# Who may win a hand (a rule set's WINS): one player (MCR); more players on the discard that
# was won first (Guangdong, 一炮多响); up to three, one after another, each leaving the hand
# (Sichuan, 血战到底).
ONE = 0
DISCARD = 1
HAND = 2

# The win being settled, refilled for each (rules_min/win.py: making one costs the Pico ~0.27 ms);
# the rule sets' win() read it and keep nothing of it.
_P = Win(None, None, 0)


def _err(i, code, msg):
    return ValueError(code, "event %d: %s" % (i, msg), i)


def fan_ids(counts, n):
    """A fan table (one count per fan id, n ids) as [[fan id, count], ...]: h.wins's fans."""
    out = []
    for f in range(n):
        if counts[f]:
            out.append([f, counts[f]])
    return out


_loaded = {}   # rules -> its module: an import statement costs the Pico ~0.1 ms a Hand


def rule_set(rules):
    """The module of a rule set's part of settling, imported on first use."""
    m = _loaded.get(rules) if isinstance(rules, str) else None
    if m is None:
        if rules == "mcr":
            from rules_min import settle_mcr as m
        elif rules == "sichuan":
            from rules_min import settle_sichuan as m
        elif rules == "guangdong":
            from rules_min import settle_guangdong as m
        else:
            raise ValueError("unsupported_rules", "rule set %s is not available" % rules, None)
        _loaded[rules] = m
    return m


class Hand:
    SHARES = 3                   # what one player pays "for all" (放杠, 承包): three others' shares
    absent = None                # the empty chair of a three-player table (settle_three.py)

    def __init__(self, rules, dealer=0, prevalent="E", options=None):
        self.rs = rule_set(rules)     # the rule set's module (settle_mcr.py ...)
        self.rules = rules
        self.dealer = dealer
        self.prevalent = 27 + _WINDS.find(prevalent)
        self.options = options or {}
        self.transfers = []
        self.flags = []
        self.out = [False] * 4       # Sichuan: has won and left the hand
        self.barred = [False] * 4    # may not win this hand any more
        self.winners = []            # seats in the order they won
        self.wins = []               # [seat, discarder, [[fan id, count], ...], total] per win
        self.first_group = None      # Sichuan: seats of the first win's discard, and its discarder
        self.penalties = {}          # (seat, kind) -> times charged this hand
        self.kongs = []              # [seat, kind, from, [transfer indices], passed_on]
        self.late_tx = []            # transfers for late arrival: they belong to the session
        self.last = None             # the last kong since the last win, or None
        self.group = None            # open discard: [discarder, [winners], 杠上炮 kong-or-None, robbed kong-or-None]
        self.ended = False
        self.next_dealer = None

    # ---- helpers ----
    def settled(self):
        """The transfers that move points (a cancelled kong's drop out)."""
        return [t for t in self.transfers if t[2]]

    def deltas(self):
        d = [0, 0, 0, 0]
        for a, b, p, _ in self.transfers:
            if a is not None:
                d[a] -= p
            if b is not None:
                d[b] += p
        return d

    def pay(self, a, b, points, reason):
        self.transfers.append([a, b, points, reason])
        return len(self.transfers) - 1

    def seat(self, i, ev, key, optional=False):
        v = ev.get(key)
        if v is None and optional:
            return None
        if not isinstance(v, int) or isinstance(v, bool) or v < 0 or v > 3:
            raise _err(i, "bad_seat", "%s must be a seat 0-3" % key)
        return v

    def place(self, s):
        """Seat s counted from the dealer, 0-3: its seat wind (settle_three.py: round three)."""
        return (s - self.dealer) % 4

    def others_in(self, s):
        return [x for x in range(4) if x != s and not self.out[x]]

    def bar(self, i, s, reason):
        """停和陪打: seat s may not win for the rest of the hand (it still pays as a loser)."""
        self.barred[s] = True
        self.flags.append({"event": i, "seat": s, "kind": "barred", "reason": reason})

    def late(self, s, points, minutes):
        self.late_tx.append(self.pay(s, None, points, "late %d min" % minutes))

    def void(self, keep_kongs):
        # a hand cut off by the time limit: its transfers count nothing, except late arrival
        # (the session's) and, where the rule set says so, the kongs already settled
        keep = self.late_tx[:]
        if keep_kongs:
            for k in self.kongs:
                keep += k[3]
        for n in range(len(self.transfers)):
            if n not in keep:
                self.transfers[n][2] = 0

    # ---- events ----
    def event(self, i, ev):
        if not isinstance(ev, dict):
            raise _err(i, "bad_event", "an event is a JSON object")
        if self.ended:
            raise _err(i, "hand_over", "the hand is already over")
        if "win" in ev:
            return self.win(i, ev)
        self.finish()
        if self.ended:
            raise _err(i, "hand_over", "the hand is already over")
        if "kong" in ev:
            self.kong(i, ev)
        elif "declare" in ev:
            self.declare(i, ev)
        elif "penalty" in ev:
            self.penalty(i, ev)
        elif "bar" in ev:
            s = self.seat(i, ev, "bar")
            if self.out[s]:
                raise _err(i, "out_of_hand", "seat %d has already won" % s)
            bar(self, i, s, ev.get("reason"))
        elif ev.get("wall_end"):
            self.wall_end(i, ev)
        elif ev.get("time_out"):
            self.time_out()
        else:
            raise _err(i, "bad_event", "unknown event")

    def kong(self, i, ev):
        kind = ev.get("kong")
        if kind not in ("concealed", "added", "direct"):
            raise _err(i, "bad_event", "kong must be concealed, added or direct")
        s = self.seat(i, ev, "seat")
        if self.out[s]:
            raise _err(i, "out_of_hand", "seat %d has already won" % s)
        if self.barred[s] and not self.rs.BARRED_MAY_KONG:
            raise _err(i, "barred", "seat %d is barred this hand: no pung or kong" % s)
        src = None
        if kind == "direct":
            src = self.seat(i, ev, "from")
            if src == s or self.out[src]:
                raise _err(i, "bad_seat", "a direct kong comes from another player still in the hand")
        k = [s, kind, src, [], False]
        self.rs.kong(self, k)
        self.kongs.append(k)
        self.last = k

    def hand_tiles(self, i, ev, size=14):
        """notation.parse of the event's "hand": (melds, counts, winning tile, flower letters)."""
        h = ev.get("hand")
        if not isinstance(h, str):
            raise _err(i, "bad_event", "hand must be a string")
        try:
            return parse(h, size)
        except ValueError as e:
            raise _err(i, e.args[0], e.args[1])

    def _flag(self, i, ev, key):
        v = ev.get(key, False)
        if not isinstance(v, bool):
            raise _err(i, "bad_event", key + " must be true or false")
        return v

    def win(self, i, ev):
        rs = self.rs
        w = self.seat(i, ev, "win")
        src = self.seat(i, ev, "from", True)
        if self.out[w]:
            raise _err(i, "out_of_hand", "seat %d has already won" % w)
        if self.barred[w]:
            raise _err(i, "barred", "seat %d may not win this hand" % w)
        if src is not None and (src == w or self.out[src]):
            raise _err(i, "bad_seat", "the discarder must be another player still in the hand")
        g = self.group
        if g is not None and (src is None or src != g[0]):
            self.finish()
            g = None
            if self.ended:
                raise _err(i, "hand_over" if rs.WINS == HAND else "second_winner",
                           "the hand is already over")
        if self.winners and g is None and rs.WINS != HAND:
            raise _err(i, "second_winner", "only one winner per hand" if rs.WINS == ONE
                       else "a second win needs the same discard")
        if g is not None and rs.WINS == ONE:
            raise _err(i, "second_winner", "one winner per hand: the first in turn from the discarder")
        if w in self.winners:   # Guangdong: the same seat twice on one discard
            raise _err(i, "out_of_hand", "seat %d has already won" % w)
        if len(self.winners) >= 3:
            raise _err(i, "hand_over", "three players have already won")
        kong = self._flag(i, ev, "kong")
        last_tile = self._flag(i, ev, "last_tile")
        last_kind = self._flag(i, ev, "last_of_kind")
        mixed = self._flag(i, ev, "win_tile_mixed")
        flower = self._flag(i, ev, "replacement_flower")
        kd = self._flag(i, ev, "kong_discard")
        misnamed = self._flag(i, ev, "misnamed")
        msg = check_win_flags(self.rules, src is None, kong, last_tile, mixed, flower, kd, misnamed)
        if msg:
            raise _err(i, "bad_flags", msg)
        if g is not None and (g[2] is not None) != kd:
            raise _err(i, "bad_flags", "every win on one discard says the same about 杠上炮 (kong_discard)")
        melds, counts, win, letters = self.hand_tiles(i, ev)
        fl = ev.get("flowers", 0)
        if not isinstance(fl, int) or isinstance(fl, bool) or fl < 0 or fl > 8:
            raise _err(i, "bad_event", "flowers must be 0-8")
        fl = fl or letters
        self_drawn = src is None
        # on a discard already won (一炮多响) the kong flag means robbing the kong the first winner robbed
        prev = self.last if g is None else (g[3] if kong else g[2])
        robbed = None
        if kong:
            if self_drawn:
                if not (prev and prev[0] == w):
                    raise _err(i, "bad_flags", "out on a replacement tile needs a kong by the winner just before")
            else:
                if not (prev and prev[0] == src and prev[1] == "added"):
                    raise _err(i, "bad_flags", "robbing a kong needs an added kong by the discarder just before")
                robbed = prev
        if kd and g is None and not (prev and prev[0] == src):
            raise _err(i, "bad_flags", "杠上炮 needs a kong by the discarder, with no win since")
        p = _P.reset(melds, counts, win)
        p.self_drawn = self_drawn
        p.last_of_kind = last_kind
        p.last_tile = last_tile
        p.kong = kong
        p.flower = flower
        p.mixed = mixed
        p.seat_wind = 27 + self.place(w)
        p.prevalent_wind = self.prevalent
        p.flowers = fl
        value = rs.win(self, i, ev, w, src, p, robbed, prev)
        self.winners.append(w)
        if rs.WINS == HAND:
            self.out[w] = True
        if robbed is not None:
            self._cancel_kong(robbed)   # MCR's kongs pay nothing: there it cancels nothing
        if self_drawn:
            self.last = None
            rs.won(self, None, [w], None)
        else:
            if g is None:
                # 杠上炮 is the table's word (kong_discard): the discard came right after the
                # discarder's kong replacement; a later deal-in by the same player moves nothing
                g = self.group = [src, [], prev if kd else None, robbed]
            g[1].append(w)
        return value

    def _cancel_kong(self, k):
        # a robbed added kong is not paid: its transfers drop to nothing (and out of the reply)
        for t in k[3]:
            self.transfers[t][2] = 0
        k[4] = True

    def finish(self):
        """Close an open discard: its winners are all in (Sichuan's 呼叫转移, the end of the hand
        where a discard's wins end it)."""
        g = self.group
        if g is None:
            return
        self.group = None
        self.rs.won(self, g[0], g[1], g[2])
        self.last = None

    def declare(self, i, ev):
        s = self.seat(i, ev, "declare")
        if self.out[s]:
            raise _err(i, "out_of_hand", "seat %d has already won" % s)
        self.rs.declare(self, i, ev, s)

    def penalty(self, i, ev):
        s = self.seat(i, ev, "seat")
        kind = ev.get("penalty")
        if not isinstance(kind, str):
            raise _err(i, "bad_event", "penalty must name a kind")
        charge(self, i, s, kind, ev)

    def wall_end(self, i, ev):
        self.ended = True
        self.rs.wall_end(self, i, ev)

    def time_out(self):
        # the time limit cut the hand off: the rule set says what still counts (void() keeps
        # late arrival always)
        self.ended = True
        self.rs.time_out(self)
