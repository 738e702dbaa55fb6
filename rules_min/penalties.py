# Penalties within one hand (RULES.md): escalation ladders counted per player and per kind, reset
# with the next hand (the Hand object is per hand). A deduction is a transfer to nobody (payee
# None); a payment to the others is zero-sum. Cases the seeds leave to the referee become flags.

# Kinds that escalate: first a warning, then the ladder's first step, doubling after it.
_LADDER = {
    "mcr": (("empty_call", "early_draw", "slow_claim"), 5),         # seed 000 §一.4.3-4, seed 001 §四.3-5
    "guangdong": (("empty_call", "early_draw", "slow_claim"), 2),   # seed 004 §三.3: warning, 2, 4, 8
}


def ladder_points(step, times):
    """Points for the times-th offence: 0 (a warning) for the first, then step, 2*step, ..."""
    return 0 if times <= 1 else step << (times - 2)


def _err(i, msg):
    return ValueError("bad_penalty", "event %d: %s" % (i, msg), i)


def charge(h, i, s, kind, minutes):
    r = h.rules
    lad = _LADDER.get(r)
    if lad and kind in lad[0]:
        n = h.penalties.get((s, kind), 0) + 1
        h.penalties[(s, kind)] = n
        p = ladder_points(lad[1], n)
        if p:
            h.pay(s, None, p, "penalty %s #%d" % (kind, n))
        else:
            h.flags.append({"event": i, "seat": s, "kind": "warning", "penalty": kind})
        return
    if kind == "late":
        if minutes is None:
            raise _err(i, "late needs minutes")
        if r == "mcr":            # seed 000 §一.4.1: <=10 min 10, <=15 min 20, later forfeits
            if minutes > 15:
                h.flags.append({"event": i, "seat": s, "kind": "forfeit"})
            elif minutes > 0:
                h.pay(s, None, 10 if minutes <= 10 else 20, "late %d min" % minutes)
        elif r == "guangdong":    # seed 004 §三.1: <=10 min 8, later forfeits the session
            if minutes > 10:
                h.flags.append({"event": i, "seat": s, "kind": "forfeit"})
            elif minutes > 0:
                h.pay(s, None, 8, "late %d min" % minutes)
        else:                     # seed 003 §五.1: 10 min forfeits the game, 15 the event
            if minutes >= 15:
                h.flags.append({"event": i, "seat": s, "kind": "disqualified"})
            elif minutes >= 10:
                h.flags.append({"event": i, "seat": s, "kind": "forfeit"})
        return
    if r == "guangdong":
        if kind == "false_win":       # 诈和 扣16分
            h.pay(s, None, 16, "false win (诈和)")
        elif kind == "information":   # passing information: 16 and no win this hand
            h.pay(s, None, 16, "passing information")
            h.barred[s] = True
        elif kind == "wall":          # wrecking the wall: 8 to each other player
            for x in range(4):
                if x != s:
                    h.pay(s, x, 8, "wrecked the wall")
        else:
            raise _err(i, "no penalty %s in Guangdong" % kind)
        return
    if r == "sichuan":                # seed 003 §六: the four tiers
        if kind == "tier1":
            h.pay(s, None, 20, "tier 1 violation")
        elif kind == "tier2":
            h.pay(s, None, 50, "tier 2 violation")
            h.barred[s] = True
        elif kind == "tier3":
            h.flags.append({"event": i, "seat": s, "kind": "round_cancelled"})
        elif kind == "tier4":
            h.flags.append({"event": i, "seat": s, "kind": "disqualified"})
            h.barred[s] = True
        else:
            raise _err(i, "no penalty %s in Sichuan" % kind)
        return
    raise _err(i, "no penalty %s in Chinese Official" % kind)
