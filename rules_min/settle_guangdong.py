# Guangdong 推倒胡 in a hand that rules_min/settle.py settles (seed 004, docs/rules.md
# "Guangdong"): kongs are paid as they are made; a win is the highest row of the hand table
# times the horses that hit; more players may win the same discard (一炮多响), and that ends the
# hand. The parts are those settle_mcr.py lists.
from rules_min import guangdong
from rules_min.penalties import charge
from rules_min.settle import DISCARD, _err
from rules_min.win import Win

WINS = DISCARD
BARRED_MAY_KONG = False   # seed 004 §三.3(2): a barred player may not pung or kong


def _table(h):
    return h.options.get("hand_table") or guangdong.HAND_TABLE


def kong(h, k):
    s, kind, src = k[0], k[1], k[2]
    base = guangdong.BASE
    if kind == "direct":   # 放杠: the discarder pays all three shares
        k[3].append(h.pay(src, s, h.SHARES * base, "direct kong, discarder pays for three (放杠)"))
    else:
        each = 2 * base if kind == "concealed" else base
        for x in range(4):
            if x != s:
                k[3].append(h.pay(x, s, each, kind + " kong"))


def win(h, i, ev, w, src, p, robbed, prev):
    msg = guangdong.check_tiles(p.melds, p.flowers)
    if msg:
        raise _err(i, "bad_tiles", msg)
    table = _table(h)
    row = guangdong.score(p, table)
    if row < 0:
        raise _err(i, "not_win", "not a winning hand")
    if table[row][0] == guangdong.CHICKEN and src is not None:
        raise _err(i, "chicken_discard", "a chicken hand wins only by self-draw")
    horses = ev.get("horses", [])
    tiles = []
    if not isinstance(horses, list) or len(horses) > 2:
        raise _err(i, "bad_event", "horses is a list of at most two tiles")
    from rules_min.tiles import parse_tile
    for x in horses:
        t = parse_tile(x) if isinstance(x, str) else None
        if t is None:
            raise _err(i, "bad_event", "unknown horse tile %r" % (x,))
        tiles.append(t)
    hits = guangdong.horse_hits(tiles, h.place(w))
    h.wins.append([w, src, [[row, 1]], table[row][2]])
    v = guangdong.BASE * table[row][2] * guangdong.horse_factor(hits, bool(h.options.get("horse_add")))
    why = "win %s x%d" % (table[row][0], table[row][2]) + (", %d horse hits" % hits if hits else "")
    # 承包: a robbed added kong, or 杠上开花 after a 放杠, makes one player pay all shares
    liable = None
    if robbed is not None:
        liable = src
    elif p.kong and src is None and prev[1] == "direct":
        liable = prev[2]
    if liable is not None:
        h.pay(liable, w, h.SHARES * v, why + ", pays for all (承包)")
    elif src is None:
        for x in range(4):
            if x != w:
                h.pay(x, w, v, why + " self-drawn")
    else:
        h.pay(src, w, v, why)


def won(h, src, ws, kong):
    h.ended = True
    h.next_dealer = ws[0] if len(ws) == 1 else src   # several winners: the discarder deals


def declare(h, i, ev, s):
    # a hand declared and not revealed moves nothing; a revealed one that is no win is the
    # false_win penalty (rules_min/penalties.py)
    if "hand" not in ev:
        return
    melds, counts, tile, _ = h.hand_tiles(i, ev)
    table = _table(h)
    row = guangdong.score(Win(melds, counts, tile), table)
    if row >= 0 and table[row][0] != guangdong.CHICKEN:   # a chicken hand cannot be declared on a discard
        raise _err(i, "is_a_win", "the declared hand is a win: key it in as a win")
    charge(h, i, s, "false_win", ev)


def wall_end(h, i, ev):
    h.next_dealer = (h.dealer + 1) % 4


def time_out(h):
    # seed 004 §四.2(2): only the kongs already settled count (late arrival stays)
    h.void(True)
    h.next_dealer = h.dealer
