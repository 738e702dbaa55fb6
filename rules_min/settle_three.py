# A hand at a three-player table (seed 000 §一.3 若有三人，正常比赛; seed 004 §三.1 此时若有三人，则继续
# 比赛): rules_min/settle.py's Hand with options {"absent": chair}, the empty chair. It takes part
# in nothing: an event naming it is refused, a payment to or from it is no payment (so "each
# player pays" is the two others), what one player pays "for all" (放杠, 承包) is two shares, the
# next dealer skips it, and the seat winds go E, S, W round the three from the dealer
# (DECISION: North is nobody's seat wind). A separate module so that a four-player table's heap
# holds none of it. Seed 001 §四.8's caller of a wrong tile name (付三家应付的分) pays what the two
# others would have paid (settle_mcr.py: the empty chair's share is not owed).
from rules_min.settle import Hand, _err


def wind_index(s, dealer, absent):
    """Seat s's wind, 0 E .. 2 W: by turn from the dealer, the empty chair skipped."""
    k = (s - dealer) % 4
    return k - 1 if (absent - dealer) % 4 < k else k


class ThreeHand(Hand):
    SHARES = 2

    def __init__(self, rules, dealer=0, prevalent="E", options=None):
        Hand.__init__(self, rules, dealer, prevalent, options)
        self.absent = a = self.options["absent"]
        self.out[a] = True            # nobody there to win, deal in or kong

    def pay(self, a, b, points, reason):
        if a == self.absent or b == self.absent:
            points = 0                # the empty chair neither pays nor gets (settled() drops it)
        return Hand.pay(self, a, b, points, reason)

    def seat(self, i, ev, key, optional=False):
        v = Hand.seat(self, i, ev, key, optional)
        if v is not None and v == self.absent:
            raise _err(i, "absent_seat", "nobody sits at seat %d" % v)
        return v

    def place(self, s):
        # the seat winds go round the three (the rule sets' seat wind and Guangdong's horses)
        return wind_index(s, self.dealer, self.absent)

    def _skip(self):
        if self.next_dealer == self.absent:
            self.next_dealer = (self.absent + 1) % 4

    def event(self, i, ev):
        Hand.event(self, i, ev)
        self._skip()

    def finish(self):
        Hand.finish(self)
        self._skip()
