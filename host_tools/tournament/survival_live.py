"""The survival event (勇者争先赛, seed 000 §三.2) while it runs: who is in, which tables play,
what the next tables should be, and the placings as they are decided.

One engine, ``SurvivalEvent``, used three ways:

* live: the server keeps one (or rebuilds it with ``replay``) and calls ``propose()`` when a
  table ends, ``confirm(seats)`` when the referee accepts or swaps, ``add_hand(table, hand)`` as
  hand records arrive, and ``standings()`` for the projector;
* ``replay(ranked, start, tables)``: the same from stored data (tables as the referee confirmed
  them, with their hand records), never raising on what a table recorded (problems are listed);
* ``run_survival_event``: a whole event from scripted tables (tests, audits).

Times are absolute (epoch seconds from the records and the server's clock) unless a caller
hands in its own ``multiplier_at`` / ``time`` (``run_survival_event`` keeps minutes).

The seed's principles (§三.2):

* 1) 选手编号与个人赛一致: the players keep their ids from the individual event;
  ``survival_entrants`` takes the players not in the individual final, in preliminary order.
* 3) 首盘座次根据个人赛预赛成绩蛇形排位: the first tables are the snake of the preliminary
  ranking (``seating.snake_seating``). 每当有选手出局，同桌其余选手等待裁判员重新配桌. 配桌遵循两个原则：
  先结束的先配桌；同时结束的比赛分最低和最高者优先配桌（蛇形排位）. 每桌选手按照比赛分由高到低依次就座东南西北位:
  ``survival.survival_retable``.
* 5) 当最后一桌有选手打立出局时，比赛结束。该桌四位选手按比赛分由高到低依次为冠亚季殿军, with 追平胜
  and the simultaneous-bust rule (``rules_min.survival.table_order``).

DECISIONS (beyond those of ``survival`` and ``rules_min.survival``):

* The last table is the one confirmed when its players are all the players still in.
* The referee may confirm any waiting players in any seat order (a swap); players not waiting
  (out, or at a table that has not ended) are refused. Only tables of four (the seed seats
  四位选手 at the last table); when fewer than four are left and no table plays, the event ends
  and they are placed by score (ties: preliminary rank).
* Places of players out are final when they are decided: everyone still in ranks above them,
  and of two players out, the later one ranks above (same second: the table's own order, then
  the higher score before the hand, then preliminary rank). A table whose bust reaches the
  server late changes the places of players who went out after it (they move up).
* A hand record that does not count is ``Refused`` (the table goes on or stands as it is):
  ``after_bust`` keyed after the table ended, ``not_at_table`` naming someone else,
  ``duplicate`` a hand number already counted, ``no_start`` without a hand start,
  ``bad_hand`` otherwise malformed. It is listed for the referee.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from types import MappingProxyType
from typing import Any, Callable, Mapping, Optional, Sequence

from rules_min import survival as rules

from .model import Score, TournamentError, check_player
from .seating import snake_seating
from .survival import (
    START_SCORE,
    Refused,
    SurvivalHand,
    SurvivalPlace,
    SurvivalTable,
    SurvivalTableResult,
    Waiting,
    _as_hand,
    _rank_index,
    _time,
    survival_multiplier,
    survival_retable,
)


def survival_entrants(preliminary: Sequence[Any], finalists: int = 16, entered: Optional[Sequence[str]] = None) -> list[str]:
    """The survival event's players in preliminary order (seed 000 §三.2.1: 未进入个人决赛的选手可参与;
    选手编号与个人赛一致).

    preliminary: the individual event's preliminary standings best first (``mcr_standings`` over
    the preliminary sessions: Standings, or ids). finalists: how many play the individual final
    (§三.1.2: 前十六). entered: the players who take part (the seed says 可参与: may), None = all
    the others. A shared rank across the finalist cut is refused, as for the final itself.
    """
    ranks = [(getattr(s, "rank", None), check_player(getattr(s, "player", s))) for s in preliminary]
    ids = [p for _, p in ranks]
    if len(set(ids)) != len(ids):
        raise TournamentError("a player is listed twice in the preliminary standings")
    if len(ranks) > finalists and ranks[finalists][0] is not None and ranks[finalists][0] <= finalists:
        tied = [p for r, p in ranks if r == ranks[finalists][0]]
        raise TournamentError("players %s share preliminary rank %d across the finalist cut" % (tied, ranks[finalists][0]))
    rest = ids[finalists:]
    if entered is None:
        return rest
    chosen = {check_player(p) for p in entered}
    finals = set(ids[:finalists]) & chosen
    if finals:
        raise TournamentError("players %s play the individual final, not the survival event" % sorted(finals))
    unknown = chosen - set(ids)
    if unknown:
        raise TournamentError("players %s have no preliminary result" % sorted(unknown))
    return [p for p in rest if p in chosen]


@dataclass(frozen=True)
class Proposal:
    """A table the system proposes: seats E S W N (score high to low), the scores they carry,
    whether it is the last table."""

    seats: tuple[str, ...]
    scores: Mapping[str, Score]
    final: bool


@dataclass
class LiveTable:
    number: int
    seats: tuple[str, ...]
    at: Any  # when it was confirmed
    final: bool
    table: SurvivalTable
    hand_numbers: set = field(default_factory=set)

    @property
    def finished(self) -> bool:
        return self.table.finished

    def result(self) -> SurvivalTableResult:
        return self.table.result()


@dataclass(frozen=True)
class Placing:
    """One line of the live standings. status: "playing" (at table ``table``), "waiting", "out"
    or "placed" (a survivor of the last table, or of the event's end with fewer than four).
    place: decided places only (None while the player is still in)."""

    place: Optional[int]
    player: str
    score: Score
    status: str
    table: Optional[int] = None


def _seconds(t: Any, what: str = "time") -> int:
    if isinstance(t, bool) or not isinstance(t, int):
        raise TournamentError("%s must be whole epoch seconds, not %r" % (what, t))
    return t


class SurvivalEvent:
    """The event's state. ranked: the entrants in preliminary order (``survival_entrants``).
    start: when the event started (比赛开始, epoch seconds by default): the multipliers count
    from it. multiplier_at / time: override the clock (``run_survival_event`` uses minutes)."""

    def __init__(self, ranked: Sequence[str], start: Any, multiplier_at: Optional[Callable[[Any], int]] = None,
                 time: Callable[[Any, str], Any] = _seconds, start_score: Score = START_SCORE):
        ranked = [check_player(p) for p in ranked]
        if len(set(ranked)) != len(ranked):
            raise TournamentError("a player is entered twice")
        if len(ranked) < 4:
            raise TournamentError("the survival event needs at least 4 players")
        self.ranked = ranked
        self._time = time
        self.start = time(start, "the event's start")
        # a box whose clock is a little behind may roll before the start: x1, flagged in add_hand
        self._multiplier_at = multiplier_at or (lambda t: rules.multiplier(max(0, t - self.start)))
        self._rk = _rank_index(ranked)
        self.score: dict[str, Score] = {p: start_score for p in ranked}
        self.waiting: dict[str, Any] = {p: self.start for p in ranked}  # player -> since
        self.at_table: dict[str, int] = {}
        self.tables: dict[int, LiveTable] = {}
        self.outs: list[tuple] = []  # (sort key, player, score, table)
        self.top: Optional[list[SurvivalPlace]] = None  # the event's first places, once it ended
        self.problems: list[str] = []

    # ---- state ----
    @property
    def ended(self) -> bool:
        return self.top is not None

    def alive(self) -> list[str]:
        gone = {p for _, p, _, _ in self.outs}
        return [p for p in self.ranked if p not in gone]

    def running(self) -> list[LiveTable]:
        return [t for t in self.tables.values() if not t.finished]

    # ---- proposals and confirmations ----
    def propose(self) -> list[Proposal]:
        """The next tables by the seed's principles, from the players waiting now (full tables
        only; the rest keep waiting). The first call gives the snake of the preliminary ranking."""
        if self.ended:
            return []
        if not self.tables:
            first, _ = snake_seating(self.ranked)
            return [self._proposal(t.players, final=len(first) == 1 and len(self.ranked) == 4) for t in first]
        queue = [Waiting(p, self.score[p], since) for p, since in self.waiting.items()]
        tables, rest = survival_retable(queue, self.ranked)
        final = len(tables) == 1 and not rest and not self.running()
        return [self._proposal(seats, final) for seats in tables]

    def _proposal(self, seats: Sequence[str], final: bool) -> Proposal:
        return Proposal(tuple(seats), MappingProxyType({p: self.score[p] for p in seats}), final)

    def confirm(self, seats: Sequence[str], at: Any = None, number: Optional[int] = None) -> LiveTable:
        """Open a table with these players in seat order E S W N (the proposal, or the referee's
        swap). at: when (defaults to the event's start for the first tables). Refuses players who
        are not waiting, tables not of four, a number already used."""
        if self.ended:
            raise TournamentError("the event has ended")
        seats = tuple(check_player(p) for p in seats)
        if len(seats) != 4 or len(set(seats)) != 4:
            raise TournamentError("a survival table seats four different players, not %r" % (seats,))
        for p in seats:
            if p not in self.score:
                raise TournamentError("%s is not in the survival event" % p)
            if p not in self.waiting:
                where = "is out" if p not in self.alive() else "plays at table %d" % self.at_table[p]
                raise TournamentError("%s %s: only waiting players can be seated" % (p, where))
        number = max(self.tables, default=0) + 1 if number is None else number
        if isinstance(number, bool) or not isinstance(number, int) or number < 1 or number in self.tables:
            raise TournamentError("table number %r is taken or not a positive number" % (number,))
        at = self.start if at is None else self._time(at, "confirmation time")
        final = set(self.alive()) == set(seats)
        table = SurvivalTable({p: self.score[p] for p in seats}, self._multiplier_at, self._time)
        lt = LiveTable(number, seats, at, final, table)
        self.tables[number] = lt
        for p in seats:
            del self.waiting[p]
            self.at_table[p] = number
        return lt

    # ---- hands ----
    def add_hand(self, number: int, hand: Any) -> Optional[Refused]:
        """Apply one hand to table ``number`` (a SurvivalHand in absolute times, or a mapping of
        its fields). Returns None when it counted, else the Refused entry (also kept in the
        table's result). When the hand puts a player out, the table ends: its survivors wait,
        the busted take their places, and the last table ends the event."""
        lt = self.tables.get(number)
        if lt is None:
            raise TournamentError("no survival table %r" % (number,))
        try:
            h = _as_hand(hand)
        except TournamentError as e:
            return self._refuse(lt, None, "bad_hand", str(e))
        n = h.hand
        if n is not None and n in lt.hand_numbers:
            return self._refuse(lt, n, "duplicate", "hand %s of table %d is already counted" % (n, number))
        if lt.finished:
            lt.table.add(h)  # recorded as refused: after_bust
            return lt.table.refused[-1]
        if h.start is None:
            return self._refuse(lt, n, "no_start", "hand %s has no hand start: its multiplier is unknown" % n)
        players = set(h.deltas) | set(h.penalties) | {h.winner, h.discarder}
        players.discard(None)
        if not players <= set(lt.seats):
            return self._refuse(lt, n, "not_at_table", "hand %s names %s, not at table %d" % (n, sorted(players - set(lt.seats)), number))
        try:
            log = lt.table.add(h)
        except TournamentError as e:
            return self._refuse(lt, n, "bad_hand", str(e))
        if log.start < self.start:
            lt.table.problems.append("hand %s starts before the event (x1 counts): check the box's clock" % log.hand)
        lt.hand_numbers.add(log.hand)
        for p in lt.seats:
            self.score[p] = lt.table.cur[p]
        if lt.finished:
            self._table_ended(lt)
        return None

    def _refuse(self, lt: LiveTable, n: Optional[int], code: str, message: str) -> Refused:
        r = Refused(n if n is not None else len(lt.table.logs) + len(lt.table.refused) + 1, code, message)
        lt.table.refused.append(r)
        return r

    def _table_ended(self, lt: LiveTable) -> None:
        res = lt.result()
        t = res.finished_at
        last = res.hands[-1]
        for idx, p in enumerate(res.eliminated):
            self.outs.append(((-t, idx, -last.before[p], self._rk(p)), p, res.scores[p], lt.number))
            del self.at_table[p]
        for p in res.survivors:
            del self.at_table[p]
            self.waiting[p] = t
        if lt.final:
            self.top = list(res.order)
            self.waiting.clear()
        elif not self.running() and len(self.waiting) < 4:
            # fewer than four left and nobody playing: the event ends, placed by score
            rest = sorted(self.waiting, key=lambda p: (-self.score[p], self._rk(p)))
            self.top = [SurvivalPlace(i + 1, p, self.score[p], False) for i, p in enumerate(rest)]
            self.waiting.clear()

    # ---- standings ----
    def ranking(self) -> tuple[SurvivalPlace, ...]:
        """The decided places: once the event ended, all of them (1-4 from the last table);
        before, only the players out, at the places they have already earned."""
        top = list(self.top or [])
        in_top = {x.player for x in top}
        outs = sorted((o for o in self.outs if o[1] not in in_top), key=lambda o: o[0])
        first = len(top) + 1 if self.ended else len(self.alive()) + 1
        return tuple(top) + tuple(SurvivalPlace(first + i, p, s, True) for i, (_, p, s, _) in enumerate(outs))

    def standings(self) -> list[Placing]:
        """For the projector: the players still in by score (playing or waiting), then the
        decided places."""
        lines = []
        if not self.ended:
            alive = sorted(self.alive(), key=lambda p: (-self.score[p], self._rk(p)))
            for p in alive:
                if p in self.at_table:
                    lines.append(Placing(None, p, self.score[p], "playing", self.at_table[p]))
                else:
                    lines.append(Placing(None, p, self.score[p], "waiting"))
        table_of = {o[1]: o[3] for o in self.outs}
        for x in self.ranking():
            lines.append(Placing(x.place, x.player, x.score, "out" if x.out else "placed", table_of.get(x.player)))
        return lines


# --------------------------------------------------------------------------- stored data

@dataclass(frozen=True)
class StoredTable:
    """A table as the server stored it: its number, seats E S W N as confirmed, when, and its
    hands (SurvivalHands or mappings of their fields, e.g. from ``hand_from_record``)."""

    number: int
    seats: tuple[str, ...]
    at: Any
    hands: Sequence[Any] = ()


def replay(ranked: Sequence[str], start: Any, tables: Sequence[Any], **kw: Any) -> SurvivalEvent:
    """Rebuild the event from stored tables, in the order of their numbers (the order they were
    confirmed). A table that cannot be confirmed (a player not waiting: a correction changed a
    bust, or the seats were keyed wrong) is skipped and listed in ``problems``; so are its hands."""
    ev = SurvivalEvent(ranked, start, **kw)
    stored = []
    for t in tables:
        try:
            stored.append(t if isinstance(t, StoredTable) else StoredTable(**t))
        except TypeError as e:
            raise TournamentError("a stored survival table needs number, seats, at, hands: %s" % e) from None
    for st in sorted(stored, key=lambda t: t.number):
        try:
            ev.confirm(st.seats, st.at, st.number)
        except TournamentError as e:
            ev.problems.append("table %s not counted: %s" % (st.number, e))
            continue
        for h in sorted(st.hands, key=_hand_number):
            r = ev.add_hand(st.number, h)
            if r is not None:
                ev.problems.append("table %d: %s" % (st.number, r.message))
        ev.problems.extend("table %d: %s" % (st.number, p) for p in ev.tables[st.number].table.problems)
    return ev


def _hand_number(h: Any) -> tuple:
    n = h.hand if isinstance(h, SurvivalHand) else h.get("hand") if isinstance(h, Mapping) else None
    return (0, n) if isinstance(n, int) and not isinstance(n, bool) else (1, 0)


def hand_from_record(rec: Mapping[str, Any], corrected_deltas: Optional[Sequence[int]] = None) -> SurvivalHand:
    """A survival hand from a hand record (protocol/record.py v2: seats, deltas per chair as
    settled, unmultiplied; wins [{"seat", "from", "total", ...}] with the MCR total flowers
    included; hand; time = when it was keyed. Proposed for survival (docs/survival.md):
    hand_start = the dealer's dice roll, multiplier = what the box applied. Version 1 records
    (winners, discarder, fans.total) are read too.

    The record's deltas are split into the win's payments (multiplied) and penalties (not):
    ``rules_min.survival.split``. corrected_deltas (a correction's new deltas): the penalties
    stay as recorded and the correction changes the win's part (DECISION).
    """
    try:
        seats = list(rec["seats"])
        deltas = list(rec["deltas"])
        wins = rec.get("wins")
        if wins is not None:
            w, d, total = (wins[0]["seat"], wins[0]["from"], wins[0]["total"]) if wins else (None, None, 0)
        else:
            winners = list(rec.get("winners") or [])
            w = winners[0] if winners else None
            d = rec.get("discarder") if w is not None else None
            total = (rec.get("fans") or {}).get("total", 0) if w is not None else 0
        play, pen = rules.split(deltas, total, w, d)
        if corrected_deltas is not None:
            play = [c - q for c, q in zip(corrected_deltas, pen)]
        winner = seats[w] if w is not None else None
        discarder = seats[d] if d is not None else None
    except (KeyError, TypeError, IndexError, ValueError) as e:
        raise TournamentError("not a hand record: %s" % e) from None
    by = lambda vals: {p: v for p, v in zip(seats, vals) if p is not None and v}  # noqa: E731
    return SurvivalHand(
        start=rec.get("hand_start"), deltas=by(play), winner=winner, discarder=discarder, penalties=by(pen),
        end=rec.get("time"), hand=rec.get("hand"), multiplier=rec.get("multiplier"),
    )


def table_config(ev: SurvivalEvent, number: int, tournament: str, hall_table: Optional[int] = None) -> dict:
    """The session config a box needs to play table ``number`` (protocol/config.py's survival
    fields). Each table of the event is a session of the box: ``session`` is the table's number
    in the event (confirmation order), ``table`` the hall table the box stands at (default: the
    same number), so every record names the event table it belongs to."""
    lt = ev.tables.get(number)
    if lt is None:
        raise TournamentError("no survival table %r" % (number,))
    return {
        "tournament": tournament, "session": number, "table": number if hall_table is None else hall_table, "rules": "mcr",
        "players": list(lt.seats), "first_dealer": 0, "mode": "survival", "scores": [lt.table.history[0][p] for p in lt.seats],
        "event_start": ev.start, "final": lt.final,
    }


# --------------------------------------------------------------------------- scripted

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
    """Drive a whole survival event from scripted tables (for tests and audits): ``ranked`` is the
    preliminary ranking (best first) of the entrants; ``play_table(table_start)`` returns the
    hands that table played (until a player was out). Every proposal is confirmed as proposed
    when the tables before it end (in time order; tables finishing at the same minute re-table
    together). Times are minutes since ``start``. Returns every table and the full ranking
    (places 1-4 from the last table per the seed; below, see ``survival``'s module doc)."""
    t0 = _time(start, "start")
    ev = SurvivalEvent(ranked, t0, multiplier_at=lambda t: survival_multiplier(t - t0), time=_time)
    played = []

    def launch(now):
        for prop in ev.propose():
            lt = ev.confirm(prop.seats, now)
            info = SurvivalTableStart(lt.number, lt.seats, prop.scores, now, lt.final)
            hands = [_as_hand(h) for h in play_table(info)]
            if hands and _time(hands[0].start) < now:
                raise TournamentError("table %d: first hand starts before the table was formed" % lt.number)
            probe = SurvivalTable(dict(prop.scores), ev._multiplier_at, _time)
            for h in hands:
                probe.add(h)
            if not probe.finished:
                raise TournamentError("table %d: the hands put nobody out" % lt.number)
            played.append((info, lt, hands, probe.finished_at))

    launch(t0)
    fed = set()
    while not ev.ended:
        pending = [x for x in played if x[1].number not in fed]
        if not pending:
            break
        t = min(x[3] for x in pending)
        for info, lt, hands, _ in sorted((x for x in pending if x[3] == t), key=lambda x: x[1].number):
            for h in hands:
                ev.add_hand(lt.number, h)
            fed.add(lt.number)
        launch(t)
    tables = tuple((info, lt.result()) for info, lt, _, _ in played)
    return SurvivalEventResult(tables, ev.ranking())
