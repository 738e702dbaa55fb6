"""Survival event of seed 000 (勇者争先赛, §三.2): hand sequences -> eliminations and places.

Rules modelled (seed 000 §三.2 and RULES.md "Tournament scoring"):

* Everyone starts at 50 (START_SCORE); a player whose match score reaches 0 or below is out.
  When a player at a table is out, the table ends and its survivors wait to be re-tabled,
  carrying their scores.
* Hand scores are multiplied x2 from 30 minutes after the event started, x4 from 60, x6 from
  90, x8 from 120, and so on (+2 every 30 minutes). A hand uses the multiplier in force when
  its dealer rolled the dice: when a threshold passes while a hand is in progress the new
  multiplier applies from the next hand. DECISION: a hand starting exactly on a threshold
  (30:00) uses the new multiplier.
* Re-tabling: players of the table that finished first are tabled first; players who finished
  at the same time are tabled lowest-and-highest first (snake): ordered by score, the queue
  takes the highest, the lowest, the second highest, the second lowest, ... Tables of four
  form in queue order; at each table players sit E S W N by score, highest first.
* The event ends when a player at the last table is out; the four players of that table are
  placed by score. Survivors tied on score: 追平胜, the one who was behind before the last hand
  (and so caught up) ranks first; still tied, look one hand further back, and so on. Several
  players out on the same hand: on a self-draw or a survivor's deal-in the one with the higher
  score before that hand ranks first; if one of the eliminated dealt in, the others rank
  ahead of the discarder.

DECISIONS (the seed is silent):

* Penalties (``SurvivalHand.penalties``) are not multiplied; ``deltas`` are.
* Look-back for ties stops at the start of the table (scores carried in): earlier hands were
  played at other tables and cannot be compared hand by hand. Still tied: shared place.
* Simultaneous eliminations: equal previous scores look further back (higher first); several
  non-discarders out with a discarder are ordered among themselves by previous score.
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

import heapq
from dataclasses import dataclass, field
from decimal import Decimal
from fractions import Fraction
from types import MappingProxyType
from typing import Any, Callable, Mapping, Optional, Sequence

from .model import Score, TournamentError, check_player, check_score
from .seating import snake_seating

START_SCORE = 50


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
    1 before 30, then 2 x floor(minute / 30): 2, 4, 6, 8, 10, ..."""
    m = _time(minute, "minute")
    if m < 0:
        raise TournamentError("a hand cannot start before the event")
    k = int(m // 30)
    return 1 if k == 0 else 2 * k


def _empty() -> Mapping[str, int]:
    return MappingProxyType({})


@dataclass(frozen=True)
class SurvivalHand:
    """One hand at a survival table.

    start: minutes since the event started when the dealer rolled the dice (sets the multiplier).
    deltas: base hand score per player before the multiplier (missing = 0): the MCR payments.
    winner / discarder: who won and who dealt in (discarder None with a winner = self-drawn;
        no winner = drawn hand). Used by the tie rule for simultaneous eliminations.
    penalties: added unmultiplied (DECISION).
    end: minutes since the event started when the hand ended (defaults to start); the end of
        the eliminating hand is when the table finished (re-tabling order).
    """

    start: Any
    deltas: Mapping[str, int] = field(default_factory=_empty)
    winner: Optional[str] = None
    discarder: Optional[str] = None
    penalties: Mapping[str, int] = field(default_factory=_empty)
    end: Any = None


@dataclass(frozen=True)
class HandLog:
    hand: int
    start: Fraction
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
class SurvivalTableResult:
    """seats: E S W N at the start. scores: after the last hand. finished: someone is out.
    eliminated / survivors: best first by the seed's tie rules. order: survivors then the
    eliminated with places (shared when the rules cannot separate) — for the last table these
    are the event's places 1-4."""

    seats: tuple[str, ...]
    start_scores: Mapping[str, Score]
    hands: tuple[HandLog, ...]
    scores: Mapping[str, Score]
    finished: bool
    finished_at: Optional[Fraction]
    eliminated: tuple[str, ...]
    survivors: tuple[str, ...]
    order: tuple[SurvivalPlace, ...]


def _as_hand(h: Any) -> SurvivalHand:
    if isinstance(h, SurvivalHand):
        return h
    if isinstance(h, Mapping):
        return SurvivalHand(**h)
    raise TournamentError("a hand must be a SurvivalHand or a mapping")


def play_survival_table(scores: Mapping[str, Any], hands: Sequence[Any]) -> SurvivalTableResult:
    """Apply a table's hands in order to the scores players brought (mapping order = seats E S W N).

    Stops being valid after the first hand that puts a player at 0 or below: more hands after
    it are refused. A table whose hands put nobody out is returned with finished False.
    """
    seats = tuple(check_player(p) for p in scores)
    if not 2 <= len(seats) <= 4:
        raise TournamentError("a survival table seats 2 to 4 players, not %d" % len(seats))
    cur = {p: check_score(scores[p], "score of %s" % p) for p in seats}
    for p, s in cur.items():
        if s <= 0:
            raise TournamentError("player %s is already out (score %s)" % (p, s))
    history = [dict(cur)]
    logs: list[HandLog] = []
    last_start = None
    last_hand: Optional[SurvivalHand] = None
    finished_at = None
    out: list[str] = []
    for i, raw in enumerate(hands, 1):
        h = _as_hand(raw)
        if out:
            raise TournamentError("hand %d comes after the table ended (player out after hand %d)" % (i, i - 1))
        start = _time(h.start, "start of hand %d" % i)
        if last_start is not None and start < last_start:
            raise TournamentError("hand %d starts before hand %d" % (i, i - 1))
        end = start if h.end is None else _time(h.end, "end of hand %d" % i)
        if end < start:
            raise TournamentError("hand %d ends before it starts" % i)
        for who in (h.winner, h.discarder):
            if who is not None and who not in cur:
                raise TournamentError("hand %d: %s is not at this table" % (i, who))
        if h.discarder is not None and (h.winner is None or h.discarder == h.winner):
            raise TournamentError("hand %d: a discarder needs a different winner" % i)
        for part in (h.deltas, h.penalties):
            for p in part:
                if p not in cur:
                    raise TournamentError("hand %d: %s is not at this table" % (i, p))
        m = survival_multiplier(start)
        before = dict(cur)
        for p in seats:
            cur[p] += m * check_score(h.deltas.get(p, 0)) + check_score(h.penalties.get(p, 0))
        out = [p for p in seats if cur[p] <= 0]
        history.append(dict(cur))
        logs.append(HandLog(i, start, m, MappingProxyType(before), MappingProxyType(dict(cur)), tuple(out)))
        last_start, last_hand = start, h
        if out:
            finished_at = end

    n = len(logs)
    back = {p: tuple(history[j][p] for j in range(n - 1, -1, -1)) for p in seats}  # before last hand, ..., start
    alive = [p for p in seats if cur[p] > 0]
    # 追平胜: equal scores -> lower earlier score (caught up) first
    skey = {p: (-cur[p], back[p]) for p in alive}
    discarder_out = last_hand is not None and last_hand.winner is not None and last_hand.discarder in out
    ekey = {p: (1 if discarder_out and p == last_hand.discarder else 0, tuple(-s for s in back[p])) for p in out}
    survivors = sorted(alive, key=lambda p: (skey[p], p))
    eliminated = sorted(out, key=lambda p: (ekey[p], p))
    order: list[SurvivalPlace] = []
    for group, key in ((survivors, skey), (eliminated, ekey)):
        for j, p in enumerate(group):
            shared = j and key[group[j - 1]] == key[p]
            place = order[-1].place if shared else len(order) + 1
            order.append(SurvivalPlace(place, p, cur[p], p in out))
    return SurvivalTableResult(
        seats,
        MappingProxyType(dict(history[0])),
        tuple(logs),
        MappingProxyType(dict(cur)),
        bool(out),
        finished_at,
        tuple(eliminated),
        tuple(survivors),
        tuple(order),
    )


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


@dataclass(frozen=True)
class SurvivalTableStart:
    """What the event driver hands to ``play_table``: table number, seats E S W N, the scores the
    players carry, the minute the table starts, and whether it is the last table."""

    number: int
    seats: tuple[str, ...]
    scores: Mapping[str, Score]
    start: Fraction
    last: bool


@dataclass(frozen=True)
class SurvivalEventResult:
    tables: tuple[tuple[SurvivalTableStart, SurvivalTableResult], ...]
    ranking: tuple[SurvivalPlace, ...]


def run_survival_event(
    ranked: Sequence[str],
    play_table: Callable[[SurvivalTableStart], Sequence[Any]],
    start: Any = 0,
) -> SurvivalEventResult:
    """Drive a whole survival event: ``ranked`` is the preliminary ranking (best first) of the
    entrants; ``play_table(table_start)`` returns the hands that table played (until a player was
    out). Tables finishing at the same minute are re-tabled together. Returns every table and
    the full ranking (places 1-4 from the last table per the seed; below, see the module doc).
    """
    ranked = [check_player(p) for p in ranked]
    if len(set(ranked)) != len(ranked):
        raise TournamentError("a player is entered twice")
    if len(ranked) < 4:
        raise TournamentError("the survival event needs at least 4 players")
    t0 = _time(start, "start")
    rk = _rank_index(ranked)
    scores: dict[str, Score] = {p: START_SCORE for p in ranked}
    first, byes = snake_seating(ranked)
    waiting = [Waiting(p, START_SCORE, t0) for p in byes]
    running: list = []
    played: list = []
    out_records: list = []
    counter = [0]

    def launch(seats: Sequence[str], t: Fraction, last: bool) -> None:
        counter[0] += 1
        info = SurvivalTableStart(counter[0], tuple(seats), MappingProxyType({p: scores[p] for p in seats}), t, last)
        hands = [_as_hand(h) for h in play_table(info)]
        if hands and _time(hands[0].start) < t:
            raise TournamentError("table %d: first hand starts before the table was formed" % info.number)
        res = play_survival_table(info.scores, hands)
        if not res.finished:
            raise TournamentError("table %d: the hands put nobody out" % info.number)
        played.append((info, res))
        heapq.heappush(running, (res.finished_at, info.number, info, res))

    for i, tb in enumerate(first):
        launch(tb.players, t0, last=len(first) == 1 and not byes)

    top: list[SurvivalPlace] = []
    while running:
        t = running[0][0]
        batch = []
        while running and running[0][0] == t:
            batch.append(heapq.heappop(running))
        final = None
        for _, _, info, res in batch:
            for idx, p in enumerate(res.eliminated):
                before = res.hands[-1].before[p]
                out_records.append(((-t, idx, -before, rk(p)), p, res.scores[p]))
            for p in res.survivors:
                scores[p] = res.scores[p]
                waiting.append(Waiting(p, res.scores[p], t))
            if info.last:
                final = res
        if final is not None:
            top = list(final.order)
            break
        tables, waiting = survival_retable(waiting, ranked)
        for k, seats in enumerate(tables):
            launch(seats, t, last=len(tables) == 1 and not running and not waiting)
    else:
        rest = sorted(waiting, key=lambda w: (-w.score, rk(w.player)))
        top = [SurvivalPlace(i + 1, w.player, w.score, False) for i, w in enumerate(rest)]
    in_top = {x.player for x in top}
    below = sorted((r for r in out_records if r[1] not in in_top), key=lambda r: r[0])
    ranking = top + [SurvivalPlace(len(top) + i + 1, p, s, True) for i, (_, p, s) in enumerate(below)]
    return SurvivalEventResult(tuple(played), tuple(ranking))
