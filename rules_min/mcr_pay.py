# Chinese Official payments for one win (docs/rules.md, seed 000 §一.3): every loser pays the base 8;
# the discarder, or on a self-draw each of the three, also pays the fan total (flowers included).
BASE = 8
# a win needs 8 fans (RULES.md, seed 000 §一), flowers not counted toward them
MIN_FANS = 8


def payments(total, winner, discarder=None, out=None):
    """Points each seat 0-3 gains (+) or pays (-). discarder None = self-drawn."""
    if out is None:
        out = [0, 0, 0, 0]
    for s in range(4):
        if s == winner:
            continue
        p = BASE + (total if discarder is None or s == discarder else 0)
        out[s] = -p
    out[winner] = 0
    out[winner] = -(out[0] + out[1] + out[2] + out[3])
    return out
