# Settles one hand from the events the table keys in, for the three rule sets (docs/rules.md).
#
#   h = Hand("sichuan", dealer=0, prevalent="E", options={})
#   for i, ev in enumerate(events): h.event(i, ev)     # raises ValueError(code, message, index)
#   h.finish()                                          # closes a pending multi-win discard
#   h.deltas(), h.transfers, h.next_dealer, h.flags
#
# A transfer is [payer, payee, points, reason]; payer or payee None is a deduction (a penalty
# paid to nobody). h.wins keeps each win as scored, [seat, discarder, fans, total] with fans
# [[fan id, count], ...], so a caller never scores a hand a second time to show or record it. Any prefix of a hand's events settles, so the device can show running totals.
# A three-player table's hands: rules_min/settle_three.py (ThreeHand, options {"absent": chair}).
# Each rule set's scorer is imported where it is used: on the device a Sichuan table never
# loads the ~30 KB of Chinese Official tables.
sichuan = None
guangdong = None
from rules_min.notation import parse
from rules_min.penalties import charge, bar
from rules_min.win_flags import check as check_win_flags

_WINDS = "ESWN"
_SUITS = "msp"


def _err(i, code, msg):
    return ValueError(code, "event %d: %s" % (i, msg), i)


def _ids(counts, n):
    out = []
    for f in range(n):
        if counts[f]:
            out.append([f, counts[f]])
    return out


def _load(rules):
    global sichuan, guangdong
    if rules == "sichuan" and sichuan is None:
        from rules_min import sichuan as m
        sichuan = m
    elif rules == "guangdong" and guangdong is None:
        from rules_min import guangdong as m
        guangdong = m


class Hand:
    SHARES = 3                   # what one player pays "for all" (放杠, 承包): three others' shares
    absent = None                # the empty chair of a three-player table (settle_three.py)

    def __init__(self, rules, dealer=0, prevalent="E", options=None):
        if rules not in ("mcr", "sichuan", "guangdong"):
            raise ValueError("unsupported_rules", "rule set %s is not available" % rules, None)
        self.rules = rules
        _load(rules)
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
        if self.barred[s] and self.rules == "guangdong":
            # seed 004 §三.3(2): a barred player may not pung or kong
            raise _err(i, "barred", "seat %d is barred this hand: no pung or kong" % s)
        src = None
        if kind == "direct":
            src = self.seat(i, ev, "from")
            if src == s or self.out[src]:
                raise _err(i, "bad_seat", "a direct kong comes from another player still in the hand")
        k = [s, kind, src, [], False]
        if self.rules == "sichuan":
            base = sichuan.BASE
            if kind == "direct":
                k[3].append(self.pay(src, s, 2 * base, "direct kong (刮风)"))
            else:
                each = 2 * base if kind == "concealed" else base
                why = "concealed kong (下雨)" if kind == "concealed" else "added kong (刮风)"
                for x in self.others_in(s):
                    k[3].append(self.pay(x, s, each, why))
        elif self.rules == "guangdong":
            base = guangdong.BASE
            if kind == "direct":   # 放杠: the discarder pays all three shares
                k[3].append(self.pay(src, s, self.SHARES * base, "direct kong, discarder pays for three (放杠)"))
            else:
                each = 2 * base if kind == "concealed" else base
                for x in range(4):
                    if x != s:
                        k[3].append(self.pay(x, s, each, kind + " kong"))
        self.kongs.append(k)
        self.last = k

    def _hand(self, i, ev, size=14):
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
                raise _err(i, "hand_over" if self.rules == "sichuan" else "second_winner",
                           "the hand is already over")
        if self.winners and g is None and self.rules != "sichuan":
            raise _err(i, "second_winner", "only one winner per hand" if self.rules == "mcr"
                       else "a second win needs the same discard")
        if g is not None and self.rules == "mcr":
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
        melds, counts, win, letters = self._hand(i, ev)
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
        if self.rules == "mcr":
            value = self._win_mcr(i, w, src, melds, counts, win, kong, last_tile, last_kind, fl,
                                  mixed, flower, misnamed)
        elif self.rules == "sichuan":
            self._win_sichuan(i, ev, w, src, melds, counts, win, kong, last_tile, fl, robbed)
        else:
            self._win_guangdong(i, ev, w, src, melds, counts, win, kong, fl, robbed, prev)
        self.winners.append(w)
        if self.rules == "sichuan":
            self.out[w] = True
        if robbed is not None and self.rules != "mcr":
            self._cancel_kong(robbed)
        if self_drawn:
            self.last = None
            self._end_after_win(w, None, [w])
        else:
            if g is None:
                # 杠上炮 is the table's word (kong_discard): the discard came right after the
                # discarder's kong replacement; a later deal-in by the same player moves nothing
                g = self.group = [src, [], prev if kd else None, robbed]
            g[1].append(w)
        return value if self.rules == "mcr" else None

    def _win_mcr(self, i, w, src, melds, counts, win, kong, last_tile, last_kind, fl, mixed, flower, misnamed):
        from rules_min import mcr, mcr_pay
        msg = mcr.check_flags(melds, counts, win, src is None, last_kind, kong)
        if msg:
            raise _err(i, "bad_flags", msg)
        seat_wind = 27 + (w - self.dealer) % 4
        # seed 000 §二.14: out on a kong's replacement that was a flower is no 杠上开花
        ft, total = mcr.score(melds, counts, win, src is None, last_kind, last_tile, kong and not flower,
                              seat_wind, self.prevalent, mixed)
        if ft is None or total < mcr_pay.MIN_FANS:
            raise _err(i, "not_win", "not a win of 8 fans: key it in as a declared win")
        from rules_min import mcr_table
        fans = _ids(ft, mcr_table.NUM_FANS)
        if fl:
            fans.append([mcr_table.FLOWER_TILES, fl])
        self.wins.append([w, src, fans, total + fl])
        p = mcr_pay.payments(total + fl, w, src)
        why = "win %d fans" % (total + fl) + (" self-drawn" if src is None else "")
        if misnamed:
            # seed 001 §四.8: the discarder named the tile wrongly and so led to this win: the
            # caller pays what the others (三家: all three, or the two at a three-player table)
            # would have paid
            owed = 0
            for s in range(4):
                if p[s] < 0 and s != self.absent:
                    owed -= p[s]
            self.pay(src, w, owed, why + ", the caller of a wrong tile name pays for three")  # the seed's words (三家)
            return total
        for s in range(4):
            if p[s] < 0:
                self.pay(s, w, -p[s], why)
        return total

    def _missing(self, i, v):
        if v is None:
            return None
        if not isinstance(v, str) or len(v) != 1 or _SUITS.find(v) < 0:
            raise _err(i, "bad_event", "missing_suit must be m, s or p")
        return _SUITS.find(v)

    def _win_sichuan(self, i, ev, w, src, melds, counts, win, kong, last_tile, fl, robbed):
        if fl:
            raise _err(i, "bad_tiles", "Sichuan is played without flowers")
        missing = self._missing(i, ev.get("missing_suit"))
        msg = sichuan.check_tiles(melds, counts, missing)
        if msg:
            raise _err(i, "bad_tiles", msg)
        f, total = sichuan.score(melds, counts, win, src is None, kong, last_tile,
                                 bool(self.options.get("gen")))
        if f is None:
            raise _err(i, "not_win", "not a winning hand")
        self.wins.append([w, src, _ids(f, sichuan.NUM_FANS), total])
        v = sichuan.value(total)
        why = "win %d fans" % total
        if src is None:
            for x in self.others_in(w):
                self.pay(x, w, v, why + " self-drawn")
        else:
            self.pay(src, w, v, why)

    def _win_guangdong(self, i, ev, w, src, melds, counts, win, kong, fl, robbed, prev):
        msg = guangdong.check_tiles(melds, fl)
        if msg:
            raise _err(i, "bad_tiles", msg)
        table = self.options.get("hand_table") or guangdong.HAND_TABLE
        row = guangdong.score(melds, counts, win, table)
        if row < 0:
            raise _err(i, "not_win", "not a winning hand")
        if table[row][0] == guangdong.CHICKEN and src is not None:
            raise _err(i, "chicken_discard", "a chicken hand wins only by self-draw")
        horses = ev.get("horses", [])
        tiles = []
        if not isinstance(horses, list) or len(horses) > 2:
            raise _err(i, "bad_event", "horses is a list of at most two tiles")
        from rules_min.tiles import parse_tile
        for h in horses:
            t = parse_tile(h) if isinstance(h, str) else None
            if t is None:
                raise _err(i, "bad_event", "unknown horse tile %r" % (h,))
            tiles.append(t)
        hits = guangdong.horse_hits(tiles, w, self.dealer)
        self.wins.append([w, src, [[row, 1]], table[row][2]])
        v = guangdong.BASE * table[row][2] * guangdong.horse_factor(hits, bool(self.options.get("horse_add")))
        why = "win %s x%d" % (table[row][0], table[row][2]) + (", %d horse hits" % hits if hits else "")
        # 承包: a robbed added kong, or 杠上开花 after a 放杠, makes one player pay all shares
        liable = None
        if robbed is not None:
            liable = src
        elif kong and src is None and prev[1] == "direct":
            liable = prev[2]
        if liable is not None:
            self.pay(liable, w, self.SHARES * v, why + ", pays for all (承包)")
        elif src is None:
            for x in range(4):
                if x != w:
                    self.pay(x, w, v, why + " self-drawn")
        else:
            self.pay(src, w, v, why)

    def _cancel_kong(self, k):
        # a robbed added kong is not paid: its transfers drop to nothing (and out of the reply)
        for t in k[3]:
            self.transfers[t][2] = 0
        k[4] = True

    def finish(self):
        """Close an open discard: 呼叫转移 and the end of the hand for one-winner rule sets."""
        g = self.group
        if g is None:
            return
        self.group = None
        src, ws, k = g[0], g[1], g[2]
        if k is not None and self.rules == "sichuan" and not k[4]:
            income = 0
            for t in k[3]:
                income += self.transfers[t][2]
            if income:
                k[4] = True
                order = [(src + j) % 4 for j in (1, 2, 3) if (src + j) % 4 in ws]
                share = income // len(order)
                rest = income - share * len(order)
                for n, s in enumerate(order):
                    p = share + (rest if n == 0 else 0)
                    if p:
                        self.pay(src, s, p, "kong income passed to the winner (呼叫转移)")
        self._end_after_win(ws[0], src, ws)
        self.last = None

    def _end_after_win(self, first, src, ws):
        if self.rules == "mcr":
            self.ended = True
            self.next_dealer = (self.dealer + 1) % 4
        elif self.rules == "guangdong":
            self.ended = True
            self.next_dealer = ws[0] if len(ws) == 1 else src
        else:
            if self.first_group is None:
                self.first_group = (ws[0] if len(ws) == 1 else src)
            if len(self.winners) >= 3:
                self.ended = True
                self.next_dealer = self.first_group

    def declare(self, i, ev):
        s = self.seat(i, ev, "declare")
        if self.out[s]:
            raise _err(i, "out_of_hand", "seat %d has already won" % s)
        if self.barred[s] and self.rules == "mcr":
            raise _err(i, "barred", "seat %d may not win this hand" % s)
        if "hand" not in ev:
            # declared but not revealed: 错报和, no further win this hand (MCR); nothing elsewhere
            if self.rules == "mcr":
                self.barred[s] = True
                self.flags.append({"event": i, "seat": s, "kind": "false_declaration"})
            return
        melds, counts, win, letters = self._hand(i, ev)
        if self.rules == "mcr":
            seat_wind = 27 + (s - self.dealer) % 4
            from rules_min import mcr, mcr_pay
            ft, total = mcr.score(melds, counts, win, False, False, False, False, seat_wind, self.prevalent)
        elif self.rules == "sichuan":
            ft, total = sichuan.score(melds, counts, win)
            if ft is not None and sichuan.check_tiles(melds, counts, self._missing(i, ev.get("missing_suit"))):
                ft = None
        else:
            table = self.options.get("hand_table") or guangdong.HAND_TABLE
            row = guangdong.score(melds, counts, win, table)
            if row >= 0 and table[row][0] == guangdong.CHICKEN:
                row = -1   # a chicken hand cannot be declared on a discard
            ft, total = (None, 0) if row < 0 else (row, 8)
        if ft is not None and (self.rules != "mcr" or total >= mcr_pay.MIN_FANS):
            raise _err(i, "is_a_win", "the declared hand is a win: key it in as a win")
        # shanten is imported here, not with the module: most sessions never declare a hand, and
        # held all session it costs the box 11K (every scenario then needs a bigger heap). The
        # box loads it with the heap collected as a declared hand starts (firmware/flows/declare.py),
        # while its tables still find contiguous blocks.
        from rules_min.shanten import shanten
        counts[win] -= 1
        n = shanten(counts, len(melds) // 3)
        if self.rules == "mcr":
            # seed 000 §一.4.5, seed 001 §四.6: ready = 错和 10 each; not ready = 诈和 20 each;
            # two or more from ready = 有意诈和, a case for the referee
            self.barred[s] = True
            each = 10 if n == 0 else 20
            why = "错和" if n == 0 else "诈和"
            for x in range(4):
                if x != s:
                    self.pay(s, x, each, why)
            if n >= 2:
                self.flags.append({"event": i, "seat": s, "kind": "intentional_false_win"})
        elif self.rules == "guangdong":
            charge(self, i, s, "false_win", ev)
        else:
            self.barred[s] = True
            self.flags.append({"event": i, "seat": s, "kind": "false_win"})

    def penalty(self, i, ev):
        s = self.seat(i, ev, "seat")
        kind = ev.get("penalty")
        if not isinstance(kind, str):
            raise _err(i, "bad_event", "penalty must name a kind")
        charge(self, i, s, kind, ev)

    def wall_end(self, i, ev):
        self.ended = True
        if self.rules == "mcr":
            self.next_dealer = (self.dealer + 1) % 4
            return
        if self.rules == "guangdong":
            self.next_dealer = (self.dealer + 1) % 4
            return
        hands = ev.get("hands") or {}
        missing = ev.get("missing_suit") or {}
        if not isinstance(hands, dict) or not isinstance(missing, dict):
            raise _err(i, "bad_event", "hands and missing_suit map seats to strings")
        still = [s for s in range(4) if not self.out[s]]
        ready = {}
        pig = []
        for s in still:
            key = str(s)
            if key not in hands:
                raise _err(i, "bad_event", "wall_end needs the hand of seat %d, still in" % s)
            ev_s = {"hand": hands[key]}
            melds, counts, _, _ = self._hand(i, ev_s, 13)
            ms = self._missing(i, missing.get(key))
            if sichuan.suits_of(melds, counts) == 7:
                pig.append(s)   # 花猪: still three suits
                continue
            if sichuan.check_tiles(melds, counts, ms) is None:
                v = sichuan.best_value(melds, counts, ms)
                if v:
                    ready[s] = v
        not_ready = [s for s in still if s not in ready]
        # 退税: players not ready give back this hand's kong income
        for k in self.kongs:
            if k[0] in not_ready and not k[4]:
                for t in k[3]:
                    a, b, p, _ = self.transfers[t]
                    self.pay(b, a, p, "refund of kong income (退税)")
        if ready and not_ready:
            cap = sichuan.value(sichuan.CAP)
            ready_seats = [s for s in still if s in ready]   # seat order: MicroPython dicts have none
            for s in pig:
                for r in ready_seats:
                    self.pay(s, r, cap, "查花猪")
            for s in not_ready:
                if s in pig:
                    continue
                for r in ready_seats:
                    self.pay(s, r, ready[r], "查大叫")
        self.next_dealer = self.first_group if self.first_group is not None else self.dealer

    def time_out(self):
        # MCR (seed 000 §三.1.4): the unfinished hand counts nothing, its 错和/诈和 payments and
        # penalties included; Guangdong (seed 004 §四.2(2)) keeps only the kongs already settled;
        # Sichuan keeps what was settled (the seed is silent). Late arrival always stays.
        self.ended = True
        if self.rules != "sichuan":
            self.void(self.rules == "guangdong")
        if self.rules == "sichuan" and self.first_group is not None:
            self.next_dealer = self.first_group
        else:
            self.next_dealer = self.dealer
