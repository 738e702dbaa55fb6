"""Plain data shared by the tournament modules: table results in, session scores and standings out.

Conventions used by every module of the package:

* A player is a string id (the draw number or a registration id). Ties that no rule of a
  format can separate are listed in ``draw_order`` order when one is given, otherwise by
  player id, so the output never depends on the order of the input.
* Scores are exact: ``int`` or ``fractions.Fraction``, never ``float``. Standard scores are
  always ``Fraction`` (shared places give halves, thirds and quarters: three players tied
  first at a 4/2/1/0 table get 7/3 each). ``exports.format_score`` renders them.
* Ranks are competition ranks: players equal on every criterion of the format share the
  rank (1, 2, 2, 4); the list order is still a total order (see above).
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace
from decimal import Decimal
from fractions import Fraction
from numbers import Rational
from types import MappingProxyType
from typing import Any, Mapping, Optional, Sequence, Union

Score = Union[int, Fraction]
WINDS = ("E", "S", "W", "N")


class TournamentError(ValueError):
    """Input that the rules of the format cannot score (bad data or a missing organizer decision)."""


def check_score(value: Any, what: str = "score") -> Score:
    """Accept int or Fraction (any numbers.Rational except bool); refuse floats, which would lose exactness."""
    t = type(value)
    if t is int or t is Fraction:  # the usual cases, without the slower ABC check
        return value
    if isinstance(value, bool) or not isinstance(value, Rational):
        raise TournamentError("%s must be an int or a Fraction, not %r" % (what, value))
    return value if isinstance(value, int) else Fraction(value)


def minutes(m: Any) -> Fraction:
    """A number of minutes as an exact Fraction (floats by their decimal spelling: 10.5 -> 21/2)."""
    if isinstance(m, bool):
        raise TournamentError("minutes must be a number")
    if isinstance(m, float):
        return Fraction(Decimal(repr(m)))
    if isinstance(m, (int, Fraction, Decimal)):
        return Fraction(m)
    raise TournamentError("minutes must be a number, not %r" % (m,))


@dataclass(frozen=True)
class LateRuling:
    """penalty: added to the session match score; forfeit: the player forfeits the session (in
    Sichuan: the game, 本局); stage: the player loses the stage (Sichuan 取消当场参赛资格)."""

    penalty: int
    forfeit: bool
    stage: bool = False


def check_player(player: Any) -> str:
    if type(player) is str and player:
        return player
    if not isinstance(player, str) or not player:
        raise TournamentError("player ids must be non-empty strings, not %r" % (player,))
    return player


@dataclass(frozen=True)
class TableResult:
    """One table of one session, as the referee signs it.

    scores: player -> session match score (比赛分: sum of hand scores plus penalties) of every
        player who played. For the Swiss format (seed 001) this is the change from the 500 base.
    forfeits: players seated at this table who forfeited the session (late beyond the limit).
    table: table number, for display only.
    """

    scores: Mapping[str, Score]
    forfeits: Sequence[str] = ()
    table: Optional[int] = None

    def __post_init__(self) -> None:
        scores = {check_player(p): check_score(s, "match score of %s" % p) for p, s in dict(self.scores).items()}
        forfeits = tuple(check_player(p) for p in self.forfeits)
        if len(set(forfeits)) != len(forfeits):
            raise TournamentError("a player forfeits twice at table %s" % self.table)
        both = set(scores) & set(forfeits)
        if both:
            raise TournamentError("players both scored and forfeited at table %s: %s" % (self.table, sorted(both)))
        if len(scores) + len(forfeits) > 4:
            raise TournamentError("more than 4 players at table %s" % self.table)
        object.__setattr__(self, "scores", MappingProxyType(scores))
        object.__setattr__(self, "forfeits", forfeits)

    @property
    def players(self) -> tuple[str, ...]:
        return tuple(self.scores) + tuple(self.forfeits)


def as_table(obj: Any, number: Optional[int] = None) -> TableResult:
    """A TableResult from a TableResult, a dict {"scores": {...}, "forfeits": [...], "table": n},
    or a plain dict player -> match score (no forfeits). A table without a number takes ``number``
    (its position in the session)."""
    if isinstance(obj, TableResult):
        return obj if obj.table is not None or number is None else replace(obj, table=number)
    if isinstance(obj, Mapping):
        if "scores" in obj and isinstance(obj["scores"], Mapping):
            return TableResult(obj["scores"], tuple(obj.get("forfeits", ())), obj.get("table", number))
        return TableResult(obj, (), number)
    raise TournamentError("a table result must be a TableResult or a mapping, not %r" % type(obj).__name__)


@dataclass(frozen=True)
class SessionScore:
    """A player's result in one session.

    standard: standard score (标准分), Fraction; None for formats without one (Guangdong).
    match: match score (比赛分) that counts for the standings.
    place: place at the table by match score (tied players share the best place); None when
        the player did not play (forfeit, or a table too short to play).
    forfeit: the player forfeited the session.
    played: the player's table played (False for forfeits and for the 1-2 player tables).
    """

    player: str
    table: Optional[int]
    standard: Optional[Fraction]
    match: Score
    place: Optional[int]
    forfeit: bool = False
    played: bool = True


@dataclass(frozen=True)
class Standing:
    """One line of a standings list.

    rank: competition rank (shared when every criterion of the format is equal).
    standard: total standard score, None for formats without one.
    match: total match score (Guangdong final: carried preliminary score plus final session).
    sessions: per session, the SessionScore, or None when the player has no result that session.
    key: the comparison key of the format (larger is better), kept for display and audits.
    """

    rank: int
    player: str
    standard: Optional[Fraction]
    match: Score
    sessions: tuple[Optional[SessionScore], ...]
    key: tuple = field(compare=False, default=())


def order_index(players: Sequence[str], draw_order: Optional[Sequence[str]]) -> dict[str, tuple]:
    """Sort key for players that no rule separates: position in draw_order, else the player id."""
    if draw_order is None:
        return {p: (0, p) for p in players}
    pos = {p: i for i, p in enumerate(draw_order)}
    return {p: ((0, pos[p]) if p in pos else (1, p)) for p in players}


def competition_ranks(keys: Sequence[tuple]) -> list[int]:
    """keys sorted best first (larger is better) -> competition ranks 1, 2, 2, 4."""
    ranks = []
    for i, k in enumerate(keys):
        ranks.append(ranks[-1] if i and keys[i - 1] == k else i + 1)
    return ranks


def rank_players(keyed: Mapping[str, tuple], draw_order: Optional[Sequence[str]] = None) -> list[tuple[int, str]]:
    """player -> key (larger is better) -> [(rank, player)], best first, shared ranks on equal keys."""
    idx = order_index(list(keyed), draw_order)
    players = sorted(keyed, key=lambda p: idx[p])
    players.sort(key=lambda p: keyed[p], reverse=True)  # stable: equal keys stay in draw/id order
    ranks = competition_ranks([keyed[p] for p in players])
    return list(zip(ranks, players))
