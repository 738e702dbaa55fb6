"""Individual awards of seed 000 (奖项设置), over the preliminary sessions only (前八局).

* most_wins (最佳进攻): most hands won; tie: better preliminary rank.
* fewest_deal_ins (最佳防守): fewest deal-ins (点炮); tie: better preliminary rank.
* biggest_hand (单盘最大番): the largest fan total of a single winning hand; tie: the hand
  reached first (earliest ``at`` within the earliest session).
* most_self_draws (自摸王): most self-drawn wins; tie: most self-draws in one session.

DECISIONS (the seed is silent):

* "Better preliminary rank" is the position in the preliminary standings list (which already
  orders fully tied players by draw number, see model).
* A hand's fan value is the fan total the device records (``total`` of the score reply,
  flowers included).
* Fewest deal-ins counts only players who played every preliminary session (a forfeit or a
  table too short to play removes a player): otherwise missing sessions would win it.
* biggest_hand needs ``at`` for the hands tied on fans in the same session; without it the award
  is refused. ``at`` is an absolute time on the hall's one clock (the epoch seconds of the hand
  record's ``time``, when the win was keyed), never minutes since the table's own start: a table
  that started late would otherwise win ties it reached later (``timing``). Same session and
  same time: better preliminary rank. most_self_draws still tied after the one-session count:
  better preliminary rank.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from types import MappingProxyType
from typing import Any, Iterable, Mapping, Optional, Sequence

from .model import Standing, TournamentError


@dataclass(frozen=True)
class HandRecord:
    """One hand as journalled: session (1-based), table, hand number at the table (1-based),
    winner (None = drawn hand), discarder (None with a winner = self-drawn), fans (fan total of
    the win), at (when the win was keyed, absolute: epoch seconds of the record, optional),
    scores (player -> hand score, optional, for the hands CSV)."""

    session: int
    table: int
    hand: int
    winner: Optional[str] = None
    discarder: Optional[str] = None
    fans: int = 0
    at: Any = None
    scores: Mapping[str, int] = field(default_factory=lambda: MappingProxyType({}))

    @property
    def self_drawn(self) -> bool:
        return self.winner is not None and self.discarder is None


@dataclass(frozen=True)
class AwardLine:
    player: str
    value: Any
    tiebreak: Any = None


@dataclass(frozen=True)
class Award:
    """key: "most_wins" | "fewest_deal_ins" | "biggest_hand" | "most_self_draws"; title: the
    seed's name; winner: the player (None when nobody is eligible); ranking: the full order."""

    key: str
    title: str
    winner: Optional[str]
    ranking: tuple[AwardLine, ...]
    hand: Optional[HandRecord] = None


def _prep(standings: Sequence[Standing], hands: Iterable[Any], sessions: int):
    pos = {s.player: i for i, s in enumerate(standings)}
    hs = []
    for h in hands:
        h = h if isinstance(h, HandRecord) else HandRecord(**h)
        if h.session > sessions:
            continue
        for who in (h.winner, h.discarder):
            if who is not None and who not in pos:
                raise TournamentError("hand %d.%d.%d names %s, who is not in the standings" % (h.session, h.table, h.hand, who))
        if h.discarder is not None and h.winner is None:
            raise TournamentError("hand %d.%d.%d has a discarder but no winner" % (h.session, h.table, h.hand))
        hs.append(h)
    return pos, hs


def most_wins(standings: Sequence[Standing], hands: Iterable[Any], sessions: int = 8) -> Award:
    pos, hs = _prep(standings, hands, sessions)
    count = {p: 0 for p in pos}
    for h in hs:
        if h.winner is not None:
            count[h.winner] += 1
    order = sorted(pos, key=lambda p: (-count[p], pos[p]))
    return Award("most_wins", "最佳进攻", order[0] if order else None, tuple(AwardLine(p, count[p], pos[p] + 1) for p in order))


def fewest_deal_ins(standings: Sequence[Standing], hands: Iterable[Any], sessions: int = 8) -> Award:
    pos, hs = _prep(standings, hands, sessions)
    count = {p: 0 for p in pos}
    for h in hs:
        if h.winner is not None and h.discarder is not None:
            count[h.discarder] += 1

    def full(s: Standing) -> bool:
        return all(x is not None and x.played for x in s.sessions[:sessions])

    eligible = [s.player for s in standings if full(s)]
    order = sorted(eligible, key=lambda p: (count[p], pos[p]))
    return Award("fewest_deal_ins", "最佳防守", order[0] if order else None, tuple(AwardLine(p, count[p], pos[p] + 1) for p in order))


def biggest_hand(standings: Sequence[Standing], hands: Iterable[Any], sessions: int = 8) -> Award:
    pos, hs = _prep(standings, hands, sessions)
    wins = [h for h in hs if h.winner is not None]
    if not wins:
        return Award("biggest_hand", "单盘最大番", None, ())
    top = max(h.fans for h in wins)
    best = [h for h in wins if h.fans == top]
    first_session = min(h.session for h in best)
    contenders = [h for h in best if h.session == first_session]
    if len(contenders) > 1 and any(h.at is None for h in contenders):
        raise TournamentError(
            "hands of %d fans in session %d need their time (at) to decide who reached it first" % (top, first_session)
        )

    def at_key(h: HandRecord):
        return (1, 0) if h.at is None else (0, h.at)  # unknown times after known ones

    ordered = sorted(wins, key=lambda h: (-h.fans, h.session, at_key(h), pos[h.winner]))
    lines = tuple(AwardLine(h.winner, h.fans, (h.session, h.table, h.hand, h.at)) for h in ordered)
    return Award("biggest_hand", "单盘最大番", ordered[0].winner, lines, ordered[0])


def most_self_draws(standings: Sequence[Standing], hands: Iterable[Any], sessions: int = 8) -> Award:
    pos, hs = _prep(standings, hands, sessions)
    total = {p: 0 for p in pos}
    per: dict[tuple[str, int], int] = {}
    for h in hs:
        if h.self_drawn:
            total[h.winner] += 1
            per[(h.winner, h.session)] = per.get((h.winner, h.session), 0) + 1
    best = {p: max([v for (q, _), v in per.items() if q == p], default=0) for p in pos}
    order = sorted(pos, key=lambda p: (-total[p], -best[p], pos[p]))
    return Award("most_self_draws", "自摸王", order[0] if order else None, tuple(AwardLine(p, total[p], best[p]) for p in order))


def mcr_awards(standings: Sequence[Standing], hands: Iterable[Any], sessions: int = 8) -> dict[str, Award]:
    """All four awards. standings: the preliminary standings (mcr_standings over the preliminary
    sessions); hands: HandRecords (or dicts) of any sessions, only sessions 1..``sessions`` count."""
    hs = list(hands)
    return {a.key: a for a in (f(standings, hs, sessions) for f in (most_wins, fewest_deal_ins, biggest_hand, most_self_draws))}
