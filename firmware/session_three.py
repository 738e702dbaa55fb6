# A three-player table (protocol/config.py: one null chair in players). Seed 000 §一.3 若有三人，
# 正常比赛，打15盘（5圈），标准分计4、2、1分; seed 004 §三.1 此时若有三人，则继续比赛. Loaded only for
# such a table (firmware/scorebook.py open_session); the rules core settles its hands with the empty
# chair absent (rules_min/settle_three.py).
#
# DECISIONS: the three keep their chairs all session (the seed's 换位 moves four players among
# four chairs); the MCR dealer passes round the three, so a round (圈) is 3 hands and 5 rounds
# are the seed's 15 hands, the prevalent wind E S W N E; the seat winds go E S W round the three
# from the dealer (North is nobody's); Guangdong's dealer follows its rules, the empty chair
# skipped (settle's next dealer).
from firmware.session import Session, WINDS


class ThreeSession(Session):
    def __init__(self, cfg, start_ms=0):
        Session.__init__(self, cfg, start_ms)
        e = self.empty = self.players.index(None)
        self.options = {"absent": e}
        self.nobody = [c == e for c in range(4)]

    def player_at(self, chair):
        p = self.players[self.chairs[chair]]
        return "-" if p is None else p

    def seats(self):
        return [self.players[self.chairs[c]] for c in range(4)]   # null at the empty chair

    def seat_wind(self, chair):
        from rules_min.settle_three import wind_index
        return WINDS[wind_index(chair, self.dealer, self.empty)]

    def next_hand(self, next_dealer):
        if self.rules == "mcr":
            k = self.hand             # hands done so far
            if k % 3 == 0:
                self.prevalent = (k // 3) % 4
            fd = self.cfg.get("first_dealer", 0)
            turn = [c % 4 for c in range(fd, fd + 4) if c % 4 != self.empty]
            self.dealer = turn[k % 3]
        elif next_dealer is not None:
            self.dealer = next_dealer
        self.hand += 1
        if self.hand > self.hands:
            self.ended = "hands"

    def standard_scores(self):
        """4/2/1 among the three (seed 000 §一.3), ties sharing; None for the empty chair."""
        t = self.totals
        e = self.empty
        keep = t[e]
        t[e] = -(1 << 30)             # last: the three share 4, 2 and 1, the empty chair gets the 0
        try:
            out = Session.standard_scores(self)
        finally:
            t[e] = keep
        out[e] = None
        return out
