"""What the event-day browser test plays and an independent count of it: the hands as the
tables played them (who sat in which chair, who won, from whom, the tiles), the box scripts
that key them in, and the standings computed here from each hand's fans (PyMahjongGB, through
tests/oracle.py) with the Chinese Official payments written out (RULES.md, seed 000), not by
the server's standings code."""
from __future__ import annotations

from dataclasses import dataclass
from typing import Optional

import oracle

BASE = 8  # seed 000: every loser pays the winner 8, the discarder the hand's fans on top


@dataclass
class Hand:
    session: int
    table: int
    number: int
    chairs: list          # the players as they really sat in chairs 1-4 for this hand
    winner: int           # chair 1-4
    source: Optional[int]  # the discarder's chair 1-4, None: self-drawn
    tiles: str            # concealed hand, the winning tile last (no honours: seat winds do not matter)

    @property
    def fans(self) -> int:
        return oracle.oracle_score({"hand": self.tiles, "self_drawn": self.source is None})[1]

    def deltas(self) -> dict:
        """Player -> points of this hand (MCR: a self-draw is paid 8 + fans by each of the three;
        a discard win 8 + fans by the discarder and 8 by each of the other two)."""
        f = self.fans
        out = {p: 0 for p in self.chairs}
        w = self.chairs[self.winner - 1]
        for c, p in enumerate(self.chairs, 1):
            if c == self.winner:
                continue
            pay = BASE + f if self.source is None or c == self.source else BASE
            out[p] -= pay
            out[w] += pay
        return out


def chairs_for_hand(seating: list, number: int) -> list:
    """MCR's change of chairs (RULES.md, seed 000 换位) written out: after hand 4 (the East round)
    the players in chairs 1 and 2 change places, and those in chairs 3 and 4."""
    c = list(seating)
    if number > 4:
        c = [c[1], c[0], c[3], c[2]]
    assert number <= 8, "the test plays at most 8 hands a table"
    return c


def tap_line(tiles: str) -> str:
    """'123m456m789m111s22s' -> 'tap 1m 2m 3m ...' (the box's reader, one tile at a time)."""
    out, digits = [], ""
    for ch in tiles:
        if ch.isdigit():
            digits += ch
        else:
            out += [d + ch for d in digits]
            digits = ""
    return "tap " + " ".join(out)


def box_lines(h: Hand) -> list:
    """A hand keyed in at the box: A, the winner's chair, the discarder's (0: self-drawn), the
    tiles over the reader, then each player's confirmation."""
    return ["# hand %d" % h.number, "keys A%d%d" % (h.winner, h.source or 0), tap_line(h.tiles), "keys 1234"]


END_AT_BOX = ["# the referee ends the session at the box (factory PIN), confirmed", "keys D4 2580# 2", "keys #"]
KEY_IN = "keys D1 {table}#{session}#{players}#1#"  # no config yet: rules 1 (MCR), table, session, players, first dealer 1, start


def script(path, lines: list):
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path


def standings(hands: list) -> dict:
    """Player -> (standard, match): the match score is the sum of the player's hand points; the
    standard score 4/2/1/0 by place at each session's table, tied players sharing the tied
    places' points equally (seed 000)."""
    match: dict = {}
    tables: dict = {}
    for h in hands:
        t = tables.setdefault((h.session, h.table), {})
        for p, d in h.deltas().items():
            t[p] = t.get(p, 0) + d
            match[p] = match.get(p, 0) + d
    standard = {p: 0.0 for p in match}
    for scores in tables.values():
        order = sorted(scores, key=lambda p: -scores[p])
        points = [4, 2, 1, 0]
        i = 0
        while i < len(order):
            j = i
            while j + 1 < len(order) and scores[order[j + 1]] == scores[order[i]]:
                j += 1
            share = sum(points[i:j + 1]) / (j + 1 - i)
            for p in order[i:j + 1]:
                standard[p] += share
            i = j + 1
    return {p: (standard[p], match[p]) for p in match}
