"""Survival event of seed 000 (勇者争先赛, §三.2): one table's hands -> scores, busts and order;
re-tabling. The event (proposals, confirmations, placings as they are decided, and a whole
event replayed from scripted tables, ``run_survival_event``) is in ``survival_live``; the
format (its results from stored data) is ``formats.mcr_survival``; the numbers and tie rules themselves are in ``rules_min.survival`` (the box
uses the same module), with the seed's text and the decisions taken there.

Here times are minutes since the event started (``Fraction``s, floats by their decimal
spelling); ``survival_live`` works in absolute epoch seconds and hands this module its own
multiplier function.

Rules modelled (seed 000 §三.2 and RULES.md "Tournament scoring"):

* Everyone starts at 50 (START_SCORE); a player whose match score reaches 0 or below is out.
  When a player at a table is out, the table ends and its survivors wait to be re-tabled,
  carrying their scores.
* Hand scores are multiplied x2 from 30 minutes after the event started, x4 from 60, x6 from
  90, x8 from 120, and so on (+2 every 30 minutes). A hand uses the multiplier in force when
  its dealer rolled the dice (``SurvivalHand.start``).
* Re-tabling: players of the table that finished first are tabled first; players who finished
  at the same time are tabled lowest-and-highest first (snake): ordered by score, the queue
  takes the highest, the lowest, the second highest, the second lowest, ... Tables of four
  form in queue order; at each table players sit E S W N by score, highest first.
* The event ends when a player at the last table is out; the four players of that table are
  placed by score with the seed's tie rules (``rules_min.survival.table_order``).

DECISIONS (the seed is silent):

* Penalties (``SurvivalHand.penalties``) are not multiplied; ``deltas`` (the win's payments)
  are (see ``rules_min.survival`` for the seed's text).
* A hand keyed after the hand that put a player out does not count and is not an error: the
  table's result stands as of the bust and the extra hand is listed in ``refused`` for the
  referee (code ``after_bust``). Malformed hands (a player not at the table, a discarder
  without a winner) raise ``TournamentError``.
* First round: snake seating by preliminary rank in tables of four; when the field is not a
  multiple of four the lowest ranked (n mod 4) players wait and are tabled first.
* Score ties in re-tabling and seating are broken by preliminary rank (better first).
* Tables are only formed with four players. If fewer than four remain and no table is
  playing (two or more were out at once at the table before), the event ends and the
  remaining players are placed by score (ties: preliminary rank).
* Places below the last table (the seed awards only four): later elimination ranks higher;
  at the same minute, the table's own order, then the higher previous score, then the
  better preliminary rank.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from types import MappingProxyType
from typing import Any, Callable, Mapping, Optional, Sequence

from rules_min import survival as rules

from .model import Score, TournamentError, check_player, check_score

START_SCORE = rules.START_SCORE


def _time(t: Any, what: str = "time") -> Fraction:
    if isinstance(t, bool) or t is None:
        raise TournamentError("%s must be a number of minutes" % what)
    if isinstance(t, float):
        return Fraction(Decimal(repr(t)))
    try:
        return Fraction(t)
    except (TypeError, ValueError):
        raise TournamentError("%s must be a number of minutes, not %r" % (what, t)) from None


def survival_multiplier(minute: Any) -> int:
    """Multiplier of a hand whose dice were rolled ``minute`` minutes after the event started:
    1 before 30, then 2 x floor(minute / 30): 2, 4, 6, 8, 10, ... (``rules_min.survival``)."""
    m = _time(minute, "minute")
    if m < 0:
        raise TournamentError("a hand cannot start before the event")
    return rules.multiplier(int(m * 60 // 1))  # floor(60m) // 1800 == floor(m / 30)


def _empty() -> Mapping[str, int]:
    return MappingProxyType({})


@dataclass(frozen=True)
class SurvivalHand:
    """One hand at a survival table.

    start: when the dealer rolled the dice (sets the multiplier): minutes since the event
        started here, epoch seconds in ``survival_live``.
    deltas: the win's payments per player before the multiplier (missing = 0): 底分 + 基本分,
        ``rules_min.survival.split`` takes them out of a hand's settled deltas.
    winner / discarder: who won and who dealt in (discarder None with a winner = self-drawn;
        no winner = drawn hand). Used by the tie rule for simultaneous eliminations.
    penalties: added unmultiplied (错和/诈和 payments, escalating penalties, ...).
    end: when the hand ended (defaults to start); the end of the eliminating hand is when the
        table finished (re-tabling order).
    hand: the hand's number at the table (the record's ``hand``), for messages; None = position.
    multiplier: the multiplier the box showed (the record's ``multiplier``), cross-checked:
        a difference is listed in ``problems`` and the multiplier of ``start`` counts.
    """

    start: Any
    deltas: Mapping[str, int] = field(default_factory=_empty)
    winner: Optional[str] = None
    discarder: Optional[str] = None
    penalties: Mapping[str, int] = field(default_factory=_empty)
    end: Any = None
    hand: Optional[int] = None
    multiplier: Optional[int] = None


@dataclass(frozen=True)
class HandLog:
    hand: int
    start: Any
    multiplier: int
    before: Mapping[str, Score]
    after: Mapping[str, Score]
    out: tuple[str, ...]


@dataclass(frozen=True)
class SurvivalPlace:
    place: int
    player: str
    score: Score
    out: bool


@dataclass(frozen=True)
class Refused:
    """A hand record that does not count. code: "after_bust" (keyed after the table ended),
    or the live event's codes ("not_at_table", "bad_hand", "duplicate"); hand: its number."""

    hand: int
    code: str
    message: str


@dataclass(frozen=True)
class SurvivalTableResult:
    """seats: E S W N at the start. scores: after the last hand. finished: someone is out.
    eliminated / survivors: best first by the seed's tie rules. order: survivors then the
    eliminated with places (shared when the rules cannot separate) — for the last table these
    are the event's places 1-4. refused: hands that do not count (see ``Refused``); problems:
    what the referee should look at (a recorded multiplier that differs, hands out of order)."""

    seats: tuple[str, ...]
    start_scores: Mapping[str, Score]
    hands: tuple[HandLog, ...]
    scores: Mapping[str, Score]
    finished: bool
    finished_at: Any
    eliminated: tuple[str, ...]
    survivors: tuple[str, ...]
    order: tuple[SurvivalPlace, ...]
    refused: tuple[Refused, ...] = ()
    problems: tuple[str, ...] = ()


def _as_hand(h: Any) -> SurvivalHand:
    if isinstance(h, SurvivalHand):
        return h
    if isinstance(h, Mapping):
        try:
            return SurvivalHand(**h)
        except TypeError as e:
            raise TournamentError("a hand has unknown fields: %s" % e) from None
    raise TournamentError("a hand must be a SurvivalHand or a mapping")


class SurvivalTable:
    """One survival table, fed a hand at a time (the live event keeps one per running table).

    scores: what each player brings, in seat order E S W N. multiplier_at(start) gives a hand's
    multiplier from its start; time(t, what) converts and checks a time. ``add`` applies a hand
    or raises TournamentError (malformed: nothing changes); after the bust it records the hand
    as refused instead. ``result()`` is the table as it stands.
    """

    def __init__(self, scores: Mapping[str, Any], multiplier_at: Callable[[Any], int] = survival_multiplier,
                 time: Callable[[Any, str], Any] = _time):
        self.seats = tuple(check_player(p) for p in scores)
        if not 2 <= len(self.seats) <= 4 or len(set(self.seats)) != len(self.seats):
            raise TournamentError("a survival table seats 2 to 4 different players, not %r" % (self.seats,))
        cur = {p: check_score(scores[p], "score of %s" % p) for p in self.seats}
        for p, s in cur.items():
            if rules.is_out(s):
                raise TournamentError("player %s is already out (score %s)" % (p, s))
        self._multiplier_at = multiplier_at
        self._time = time
        self.cur = cur
        self.history = [dict(cur)]
        self.logs: list[HandLog] = []
        self.refused: list[Refused] = []
        self.problems: list[str] = []
        self.last: Optional[SurvivalHand] = None
        self.finished_at = None
        self.out: list[str] = []

    @property
    def finished(self) -> bool:
        return bool(self.out)

    def add(self, raw: Any) -> Optional[HandLog]:
        h = _as_hand(raw)
        n = h.hand if h.hand is not None else len(self.logs) + len(self.refused) + 1
        if self.out:
            done = self.logs[-1].hand
            self.refused.append(Refused(n, "after_bust", "hand %s was keyed after the table ended (a player was out after hand %s): "
                                        "it does not count" % (n, done)))
            return None
        start = self._time(h.start, "start of hand %s" % n)
        end = start if h.end is None else self._time(h.end, "end of hand %s" % n)
        if end < start:
            raise TournamentError("hand %s ends before it starts" % n)
        for who in (h.winner, h.discarder):
            if who is not None and who not in self.cur:
                raise TournamentError("hand %s: %s is not at this table" % (n, who))
        if h.discarder is not None and (h.winner is None or h.discarder == h.winner):
            raise TournamentError("hand %s: a discarder needs a different winner" % n)
        for part in (h.deltas, h.penalties):
            for p, v in part.items():
                if p not in self.cur:
                    raise TournamentError("hand %s: %s is not at this table" % (n, p))
                check_score(v, "hand %s points of %s" % (n, p))
        try:
            m = self._multiplier_at(start)
        except ValueError as e:
            raise TournamentError("hand %s: %s" % (n, e)) from None
        if self.logs and start < self.logs[-1].start:
            self.problems.append("hand %s starts before hand %s" % (n, self.logs[-1].hand))
        if h.multiplier is not None and h.multiplier != m:
            self.problems.append("hand %s: the box showed x%s, its start gives x%d (x%d counts)" % (n, h.multiplier, m, m))
        before = dict(self.cur)
        ch = rules.change([h.deltas.get(p, 0) for p in self.seats], [h.penalties.get(p, 0) for p in self.seats], m)
        for p, c in zip(self.seats, ch):
            self.cur[p] += c
        self.out = [p for p in self.seats if rules.is_out(self.cur[p])]
        self.history.append(dict(self.cur))
        log = HandLog(n, start, m, MappingProxyType(before), MappingProxyType(dict(self.cur)), tuple(self.out))
        self.logs.append(log)
        self.last = h
        if self.out:
            self.finished_at = end
        return log

    def result(self) -> SurvivalTableResult:
        hist = [[row[p] for p in self.seats] for row in self.history]
        h = self.last
        idx = {p: i for i, p in enumerate(self.seats)}
        w = idx[h.winner] if h is not None and h.winner is not None else None
        d = idx[h.discarder] if h is not None and h.discarder is not None else None
        order = tuple(SurvivalPlace(place, self.seats[s], self.cur[self.seats[s]], o) for s, place, o in rules.table_order(hist, w, d))
        return SurvivalTableResult(
            self.seats,
            MappingProxyType(dict(self.history[0])),
            tuple(self.logs),
            MappingProxyType(dict(self.cur)),
            bool(self.out),
            self.finished_at,
            tuple(x.player for x in order if x.out),
            tuple(x.player for x in order if not x.out),
            order,
            tuple(self.refused),
            tuple(self.problems),
        )


def play_survival_table(scores: Mapping[str, Any], hands: Sequence[Any],
                        multiplier_at: Callable[[Any], int] = survival_multiplier) -> SurvivalTableResult:
    """Apply a table's hands in order to the scores players brought (mapping order = seats E S W N).

    Hands after the first hand that puts a player at 0 or below do not count: they are listed in
    ``refused`` (the table is not dropped). A table whose hands put nobody out is returned with
    finished False. Malformed hands raise TournamentError.
    """
    table = SurvivalTable(scores, multiplier_at)
    for h in hands:
        table.add(h)
    return table.result()


@dataclass(frozen=True)
class Waiting:
    """A player waiting to be re-tabled: score carried, and when the player's table finished."""

    player: str
    score: Score
    since: Any


def _rank_index(prelim: Optional[Any]) -> Callable[[str], tuple]:
    if prelim is None:
        return lambda p: (0, p)
    if isinstance(prelim, Mapping):
        return lambda p: (0, prelim[p]) if p in prelim else (1, p)
    pos = {p: i for i, p in enumerate(prelim)}
    return lambda p: (0, pos[p]) if p in pos else (1, p)


def survival_retable(
    waiting: Sequence[Waiting], prelim: Optional[Any] = None, table_size: int = 4
) -> tuple[list[tuple[str, ...]], list[Waiting]]:
    """Form new tables from the waiting players. Returns (tables as seats E S W N, still waiting).

    prelim: the preliminary ranking (sequence best first, or player -> rank) for score ties.
    Queue: earlier ``since`` first; players with the same ``since`` lowest-and-highest first
    (highest, lowest, second highest, second lowest, ...). Full tables only.
    """
    rk = _rank_index(prelim)
    groups: dict[Fraction, list[Waiting]] = {}
    for w in waiting:
        groups.setdefault(_time(w.since, "since"), []).append(w)
    queue: list[Waiting] = []
    for since in sorted(groups):
        g = sorted(groups[since], key=lambda w: (-w.score, rk(w.player)))
        lo, hi = 0, len(g) - 1
        while lo <= hi:
            queue.append(g[lo])
            if lo != hi:
                queue.append(g[hi])
            lo, hi = lo + 1, hi - 1
    tables = []
    while len(queue) >= table_size:
        chunk, queue = queue[:table_size], queue[table_size:]
        chunk.sort(key=lambda w: (-w.score, rk(w.player)))
        tables.append(tuple(w.player for w in chunk))
    return tables, queue
