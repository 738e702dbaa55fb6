# Chinese Official (MCR) in a hand that rules_min/settle.py settles: a win is scored (8 fans at
# least) and paid at once; kongs pay nothing (they are fans of the win); a declared hand that is
# no win is 错和 or 诈和; the first win ends the hand.
#
# Each rule set's module (this one, settle_sichuan.py, settle_guangdong.py) has the same parts,
# which settle.Hand calls with itself as h:
#   WINS                 who may win a hand: settle.ONE, DISCARD or HAND
#   BARRED_MAY_KONG      whether a player barred from winning may still kong
#   kong(h, k)           the payments of the kong k just declared ([seat, kind, from, [], False]):
#                        their transfer indices go into k[3]
#   win(h, i, ev, w, src, p, robbed, prev)
#                        seat w wins (on src's discard, None self-drawn) with p (rules_min/win.py's
#                        Win): check, score, h.wins and payments; raises settle's ValueError to
#                        refuse. robbed: the kong robbed, prev: the kong just before. Returns
#                        what Hand.event returns for the win (MCR: the fan total)
#   won(h, src, ws, kong)
#                        after the wins of one discard by src (ws, in turn), or a self-draw (src
#                        None, ws [w]): the end of the hand and its next dealer; kong: the
#                        discarder's kong when the discard was 杠上炮
#   declare(h, i, ev, s) seat s declared a win (the "hand" revealed, or not)
#   wall_end(h, i, ev)   the wall ran out (h.ended is set)
#   time_out(h)          the time limit cut the hand off (h.ended is set)
from rules_min import mcr, mcr_pay
from rules_min.mcr_table import NUM_FANS, FLOWER_TILES
from rules_min.settle import ONE, _err, fan_ids
from rules_min.win import Win

WINS = ONE
BARRED_MAY_KONG = True

_ft = bytearray(NUM_FANS)   # the fans of the win being settled


def kong(h, k):
    pass


def win(h, i, ev, w, src, p, robbed, prev):
    msg = mcr.check_flags(p)
    if msg:
        raise _err(i, "bad_flags", msg)
    total = mcr.score(p, _ft)
    if total < mcr_pay.MIN_FANS:
        raise _err(i, "not_win", "not a win of 8 fans: key it in as a declared win")
    fl = p.flowers
    fans = fan_ids(_ft, NUM_FANS)
    if fl:
        fans.append([FLOWER_TILES, fl])
    h.wins.append([w, src, fans, total + fl])
    pay = mcr_pay.payments(total + fl, w, src)
    why = "win %d fans" % (total + fl) + (" self-drawn" if src is None else "")
    if ev.get("misnamed", False):
        # seed 001 §四.8: the discarder named the tile wrongly and so led to this win: the
        # caller pays what the others (三家: all three, or the two at a three-player table)
        # would have paid
        owed = 0
        for s in range(4):
            if pay[s] < 0 and s != h.absent:
                owed -= pay[s]
        h.pay(src, w, owed, why + ", the caller of a wrong tile name pays for three")  # the seed's words (三家)
        return total
    for s in range(4):
        if pay[s] < 0:
            h.pay(s, w, -pay[s], why)
    return total


def won(h, src, ws, kong):
    h.ended = True
    h.next_dealer = (h.dealer + 1) % 4


def declare(h, i, ev, s):
    if h.barred[s]:
        raise _err(i, "barred", "seat %d may not win this hand" % s)
    if "hand" not in ev:
        # declared but not revealed: 错报和, no further win this hand
        h.barred[s] = True
        h.flags.append({"event": i, "seat": s, "kind": "false_declaration"})
        return
    melds, counts, tile, _ = h.hand_tiles(i, ev)
    p = Win(melds, counts, tile, seat_wind=27 + h.place(s), prevalent_wind=h.prevalent)
    if mcr.score(p, _ft) >= mcr_pay.MIN_FANS:
        raise _err(i, "is_a_win", "the declared hand is a win: key it in as a win")
    # shanten is imported here, not with the module: most sessions never declare a hand, and
    # held all session it costs the box 11K (every scenario then needs a bigger heap). The
    # box loads it with the heap collected as a declared hand starts (firmware/flows/declare.py),
    # while its tables still find contiguous blocks.
    from rules_min.shanten import shanten
    counts[tile] -= 1
    n = shanten(counts, len(melds) // 3)
    # seed 000 §一.4.5, seed 001 §四.6: ready = 错和 10 each; not ready = 诈和 20 each;
    # two or more from ready = 有意诈和, a case for the referee
    h.barred[s] = True
    each = 10 if n == 0 else 20
    why = "错和" if n == 0 else "诈和"
    for x in range(4):
        if x != s:
            h.pay(s, x, each, why)
    if n >= 2:
        h.flags.append({"event": i, "seat": s, "kind": "intentional_false_win"})


def wall_end(h, i, ev):
    h.next_dealer = (h.dealer + 1) % 4


def time_out(h):
    # seed 000 §三.1.4: the unfinished hand counts nothing, its 错和/诈和 payments and penalties
    # included (late arrival stays)
    h.void(False)
    h.next_dealer = h.dealer
