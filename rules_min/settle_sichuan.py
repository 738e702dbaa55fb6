# Sichuan 血战到底 in a hand that rules_min/settle.py settles (seed 003, docs/rules.md "Sichuan"):
# kongs are paid as they are made (刮风下雨); each winner leaves the hand and the others play on
# until three have won; a kong's income goes to the winner of the discard that followed it
# (呼叫转移); at the wall's end the players not ready pay (查大叫, 查花猪) and give back their kong
# income (退税). The parts are those settle_mcr.py lists.
from rules_min import sichuan
from rules_min.settle import HAND, _err, fan_ids
from rules_min.win import Win

WINS = HAND
BARRED_MAY_KONG = True

_SUITS = "msp"
_ft = bytearray(sichuan.NUM_FANS)   # the fans of the win being settled


def missing_suit(i, v):
    """The declared missing suit (定缺) as 0-2, None when not given."""
    if v is None:
        return None
    if not isinstance(v, str) or len(v) != 1 or _SUITS.find(v) < 0:
        raise _err(i, "bad_event", "missing_suit must be m, s or p")
    return _SUITS.find(v)


def kong(h, k):
    s, kind, src = k[0], k[1], k[2]
    base = sichuan.BASE
    if kind == "direct":
        k[3].append(h.pay(src, s, 2 * base, "direct kong (刮风)"))
    else:
        each = 2 * base if kind == "concealed" else base
        why = "concealed kong (下雨)" if kind == "concealed" else "added kong (刮风)"
        for x in h.others_in(s):
            k[3].append(h.pay(x, s, each, why))


def win(h, i, ev, w, src, p, robbed, prev):
    if p.flowers:
        raise _err(i, "bad_tiles", "Sichuan is played without flowers")
    missing = missing_suit(i, ev.get("missing_suit"))
    msg = sichuan.check_tiles(p.melds, p.counts, missing)
    if msg:
        raise _err(i, "bad_tiles", msg)
    total = sichuan.score(p, _ft, bool(h.options.get("gen")))
    if total < 0:
        raise _err(i, "not_win", "not a winning hand")
    h.wins.append([w, src, fan_ids(_ft, sichuan.NUM_FANS), total])
    v = sichuan.value(total)
    why = "win %d fans" % total
    if src is None:
        for x in h.others_in(w):
            h.pay(x, w, v, why + " self-drawn")
    else:
        h.pay(src, w, v, why)


def won(h, src, ws, kong):
    if kong is not None and not kong[4]:
        # 呼叫转移: the discard after a kong's replacement was won, so the kong's income goes to
        # its winners, in turn from the discarder, the odd points to the first
        income = 0
        for t in kong[3]:
            income += h.transfers[t][2]
        if income:
            kong[4] = True
            order = [(src + j) % 4 for j in (1, 2, 3) if (src + j) % 4 in ws]
            share = income // len(order)
            rest = income - share * len(order)
            for n, s in enumerate(order):
                p = share + (rest if n == 0 else 0)
                if p:
                    h.pay(src, s, p, "kong income passed to the winner (呼叫转移)")
    if h.first_group is None:
        h.first_group = (ws[0] if len(ws) == 1 else src)
    if len(h.winners) >= 3:
        h.ended = True
        h.next_dealer = h.first_group


def declare(h, i, ev, s):
    # a hand declared and not revealed moves nothing; a revealed one that is no win bars the
    # player for the rest of the hand
    if "hand" not in ev:
        return
    melds, counts, tile, _ = h.hand_tiles(i, ev)
    if sichuan.score(Win(melds, counts, tile), _ft) >= 0 \
            and not sichuan.check_tiles(melds, counts, missing_suit(i, ev.get("missing_suit"))):
        raise _err(i, "is_a_win", "the declared hand is a win: key it in as a win")
    h.barred[s] = True
    h.flags.append({"event": i, "seat": s, "kind": "false_win"})


def wall_end(h, i, ev):
    hands = ev.get("hands") or {}
    missing = ev.get("missing_suit") or {}
    if not isinstance(hands, dict) or not isinstance(missing, dict):
        raise _err(i, "bad_event", "hands and missing_suit map seats to strings")
    still = [s for s in range(4) if not h.out[s]]
    ready = {}
    pig = []
    for s in still:
        key = str(s)
        if key not in hands:
            raise _err(i, "bad_event", "wall_end needs the hand of seat %d, still in" % s)
        melds, counts, _, _ = h.hand_tiles(i, {"hand": hands[key]}, 13)
        ms = missing_suit(i, missing.get(key))
        if sichuan.suits_of(melds, counts) == 7:
            pig.append(s)   # 花猪: still three suits
            continue
        if sichuan.check_tiles(melds, counts, ms) is None:
            v = sichuan.best_value(melds, counts, ms)
            if v:
                ready[s] = v
    not_ready = [s for s in still if s not in ready]
    # 退税: players not ready give back this hand's kong income
    for k in h.kongs:
        if k[0] in not_ready and not k[4]:
            for t in k[3]:
                a, b, p, _ = h.transfers[t]
                h.pay(b, a, p, "refund of kong income (退税)")
    if ready and not_ready:
        cap = sichuan.value(sichuan.CAP)
        ready_seats = [s for s in still if s in ready]   # seat order: MicroPython dicts have none
        for s in pig:
            for r in ready_seats:
                h.pay(s, r, cap, "查花猪")
        for s in not_ready:
            if s in pig:
                continue
            for r in ready_seats:
                h.pay(s, r, ready[r], "查大叫")
    h.next_dealer = h.first_group if h.first_group is not None else h.dealer


def time_out(h):
    # what was settled stays (seed 003 is silent)
    if h.first_group is not None:
        h.next_dealer = h.first_group
    else:
        h.next_dealer = h.dealer
