"""What the formats that rank players over sessions share (seeds 000, 001, 004): places at a
table with tied places sharing, sessions of table results, a standings list by a format's key,
and the event's side of it: off-table penalties, each session's tables from its seating, and
the standings document's rows. Pure functions over plain data (``model``, ``base.Event``).

DECISIONS (for every such format; the formats' own are in their modules):

* A player's session match score is the sum of their hand deltas, plus the session's off-table
  penalties (``points``; ``late`` by the format's ladder). A late arrival beyond the limit or a
  disqualification forfeits the session (a disqualification that session and every later one);
  disqualified players are listed last without a rank. Substitutes play but are not ranked.
* Each session's tables come from its published seating (``attendance.session_tables``), so a
  table that did not play (two or one present) gives its present players the seeds' results.
* Registered players without any result yet are listed too (0 points, no sessions), after the
  players who did at least as well: their rank is one more than the number of players above 0 / 0.
"""
from __future__ import annotations

from fractions import Fraction
from functools import lru_cache
from typing import Any, Iterable, Mapping, Optional, Sequence

from rules_min import tournament as numbers

from .. import attendance
from ..exports import format_score
from ..model import Score, SessionScore, Standing, TableResult, TournamentError, as_table, rank_players
from .base import MAX_NUMBER

SCORING_ERRORS = (TournamentError, ValueError, ArithmeticError, KeyError)
show = lru_cache(maxsize=1 << 16)(format_score)  # the same few scores render thousands of times


# --------------------------------------------------------------------------- one table

def shared_places(scores: Mapping[str, Score], points: Sequence[int]) -> dict[str, tuple[int, Fraction]]:
    """Place players by score (higher first); tied players share the tied places' points equally
    (``rules_min.tournament.shared_places``, which the box uses too), as exact Fractions.

    Returns player -> (place, points): the place is the best place of the tie, the points
    are the mean of the points of the places the tie occupies (two tied first of 4/2/1/0: 3 each).
    """
    if len(points) != len(scores):
        raise TournamentError("%d players but %d places" % (len(scores), len(points)))
    players = list(scores)
    values = [scores[p] for p in players]
    return {players[i]: (place, _share(total, n)) for i, place, total, n in numbers.shared_places(values, points)}


_SHARES: dict = {}


def _share(total: int, n: int) -> Fraction:
    """Fraction(total, n), made once per value (a tournament shares the same few thousands of times)."""
    f = _SHARES.get((total, n))
    if f is None:
        if len(_SHARES) > 4096:
            _SHARES.clear()
        f = _SHARES[(total, n)] = Fraction(total, n)
    return f


def fraction_sum(values: Iterable[Score]) -> Fraction:
    """The exact sum of ints and Fractions as a Fraction, summing numerators per denominator
    (standard scores have a few small denominators: one Fraction addition per denominator
    instead of one per value)."""
    by_den: dict = {}
    for v in values:
        d = v.denominator
        by_den[d] = by_den.get(d, 0) + v.numerator
    if not by_den:
        return Fraction(0)
    if len(by_den) == 1:
        (d, n), = by_den.items()
        return Fraction(n, d)
    return sum((Fraction(n, d) for d, n in by_den.items()), Fraction(0))


def forfeited(table: TableResult, standard: Optional[Fraction] = Fraction(0)) -> dict[str, SessionScore]:
    return {p: SessionScore(p, table.table, standard, 0, None, forfeit=True, played=False) for p in table.forfeits}


# --------------------------------------------------------------------------- sessions

def session(tables: Iterable[Any], per_table) -> dict[str, SessionScore]:
    """All tables of one session -> player -> SessionScore, each table by ``per_table``."""
    out: dict[str, SessionScore] = {}
    for n, t in enumerate(tables, 1):
        t = as_table(t, n)
        for p, s in per_table(t).items():
            if p in out:
                raise TournamentError("player %s is seated twice in one session" % p)
            out[p] = s
    return out


def sessions(given: Iterable[Any], session_fn) -> list[dict[str, SessionScore]]:
    """Sessions given as tables (scored by ``session_fn``) or already scored."""
    return [s if _is_scored(s) else session_fn(s) for s in given]


def _is_scored(s: Any) -> bool:
    return isinstance(s, Mapping) and bool(s) and all(isinstance(v, SessionScore) for v in s.values())


def players_of(scored: Sequence[Mapping[str, SessionScore]]) -> list[str]:
    seen: dict[str, None] = {}
    for s in scored:
        for p in s:
            seen.setdefault(p)
    return list(seen)


def standings(scored, key_fn, draw_order, with_standard: bool) -> list[Standing]:
    """Players ranked by ``key_fn`` of their sessions (larger is better), shared ranks on equal keys."""
    players = players_of(scored)
    lines = {p: tuple(s.get(p) for s in scored) for p in players}
    keys = {p: key_fn(lines[p]) for p in players}
    out = []
    for rank, p in rank_players(keys, draw_order):
        std = fraction_sum([s.standard for s in lines[p] if s]) if with_standard else None
        match = sum([s.match for s in lines[p] if s], 0)
        out.append(Standing(rank, p, std, match, lines[p], keys[p]))
    return out


# --------------------------------------------------------------------------- the event's side

def session_penalties(event, fmt, problems: list):
    """-> (points: (session, player) -> int, forfeits: session -> set, dq: player -> first session)"""
    points: dict = {}
    forfeits: dict = {}
    dq: dict = {}
    for p in event.penalties:
        key = (p["session"], p["player"])
        try:
            if p["kind"] == "points":
                points[key] = points.get(key, 0) + p["points"]
            elif p["kind"] == "late":
                if fmt.late_per_game:
                    continue  # the format forfeits a game (Sichuan, seed 003 §五.1): its own results
                r = fmt.late(Fraction(p["minutes"]))  # stored minutes were checked as short decimals
                if r.forfeit:
                    forfeits.setdefault(p["session"], set()).add(p["player"])
                points[key] = points.get(key, 0) + r.penalty
            elif p["kind"] == "disqualification":
                dq[p["player"]] = min(dq.get(p["player"], p["session"]), p["session"])
        except SCORING_ERRORS as e:
            problems.append("penalty %d: %s" % (p["id"], e))
    return points, forfeits, dq


def session_results(event, fmt, problems: list):
    """-> (sessions: list, index session-1, of lists of TableResult; n; dq; substitutes).

    Each session's tables come from its published seating (``attendance.session_tables``), so a
    table that did not play (two or one present) gives its present players the seeds' results
    and they stay in the standings; absent players (marked absent, forfeits, disqualified) are
    the table's forfeits."""
    tables = event.tables
    points, forfeits, dq = session_penalties(event, fmt, problems)
    subs = event.substitutes()
    n = max([s for s, _ in tables] + [p["session"] for p in event.penalties if p["session"] <= MAX_NUMBER] + [0])
    out: list = [[] for _ in range(n)]
    by_session: dict = {}
    for (s, t) in sorted(tables):
        by_session.setdefault(s, []).append(t)
    for s in range(1, n + 1):
        gone = set(forfeits.get(s, ())) | {p for p, first in dq.items() if first <= s} | set(event.absences.get(s, ()))
        played: dict = {}
        seen: set = set()
        for t in by_session.get(s, ()):
            tb = tables[(s, t)]
            if not tb.n_hands:
                continue
            raw = tb.raw_scores()
            dup = [p for p in raw if p in seen]
            if dup:
                problems.append("session %d: %s counted at an earlier table; left out at table %d" % (s, ", ".join(sorted(dup)), t))
            played[t] = {p: v + points.get((s, p), 0) for p, v in raw.items() if p not in seen}
            seen.update(raw)
        seating = [{"table": t, "players": ps} for t, ps in sorted(event.seatings.get(s, {}).items())]
        try:
            results, probs = attendance.session_tables(seating, played, gone)
        except SCORING_ERRORS as e:  # a seating the rules cannot read: the tables as played
            problems.append("session %d: %s" % (s, e))
            results, probs = [], []
            for t, scores in played.items():
                try:
                    results.append(TableResult({p: v for p, v in scores.items() if p not in gone}, tuple(sorted(p for p in scores if p in gone)), t))
                except SCORING_ERRORS as e2:
                    problems.append("session %d table %d not scored: %s" % (s, t, e2))
        if seating:
            problems.extend("session %d: %s" % (s, p) for p in probs)
        out[s - 1] = results
    return out, n, dq, subs


def safe_sessions(given, fn, problems: list) -> list:
    """Each session scored by ``fn``; one the rules cannot score is empty, and said why."""
    out = []
    for i, s in enumerate(given):
        try:
            out.append(fn(s))
        except SCORING_ERRORS as e:
            problems.append("session %d not scored: %s" % (i + 1, e))
            out.append({})
    return out


# --------------------------------------------------------------------------- the standings list

def rerank(standings: list, drop: set) -> list:
    """Standings without ``drop`` (substitutes), ranks closed up."""
    out, prev, rank = [], None, 0
    kept = [s for s in standings if s.player not in drop]
    for i, s in enumerate(kept):
        k = s.key or (s.standard, s.match)
        if k != prev:
            rank = i + 1
        prev = k
        out.append(Standing(rank, s.player, s.standard, s.match, s.sessions, s.key) if s.rank != rank else s)
    return out


def with_everyone(standings: list, event, n: int, fmt) -> list:
    """Registered players without any result yet are listed too (0 points, no sessions),
    after the players who did at least as well and before those who did worse.
    DECISION: their rank is one more than the number of players above 0 / 0."""
    have = {s.player for s in standings}
    missing = [p["id"] for p in event.players if p["id"] not in have and not p["substitute"]]
    if not missing:
        return standings
    zero = (Fraction(0), 0)

    def pair(s):
        return (s.standard if s.standard is not None else Fraction(0), s.match)

    above = [s for s in standings if pair(s) >= zero]
    below = [s for s in standings if pair(s) < zero]
    rank = sum(1 for s in standings if pair(s) > zero) + 1
    std = Fraction(0) if (standings and standings[0].standard is not None) or fmt.standard else None
    extra = [Standing(rank, p, std, 0, (None,) * n, ()) for p in missing]
    return above + extra + below


def dq_last(standings: list, dq: dict) -> list:
    return [s for s in standings if s.player not in dq] + [s for s in standings if s.player in dq]


def finish(standings: list, event, n: int, dq: dict, subs: set, fmt) -> list:
    """A format's standings as listed: substitutes out (ranks closed up), everyone registered
    in, the disqualified last."""
    return dq_last(with_everyone(rerank(standings, subs), event, n, fmt), dq)


def table_scores(scored: Sequence[Mapping[str, SessionScore]]) -> dict:
    """(session, table) -> player -> SessionScore, from the sessions in order."""
    out: dict = {}
    for s, per in enumerate(scored, 1):
        for p, x in per.items():
            out.setdefault((s, x.table), {})[p] = x
    return out


def _exact(x) -> Optional[str]:
    return None if x is None else str(Fraction(x))


def _status(x) -> str:
    return "forfeit" if x.forfeit else ("" if x.played else "no play")


def rows(standings: list, names: dict, dq: dict) -> list:
    """The standings document's lines."""
    out = []
    for s in standings:
        out.append({
            "rank": None if s.player in dq else s.rank, "player": s.player, "name": names.get(s.player, ""),
            "standard": show(s.standard), "match": show(s.match), "standard_exact": _exact(s.standard),
            "status": "disqualified" if s.player in dq else "",
            "sessions": [None if x is None else {"table": x.table, "standard": show(x.standard), "match": show(x.match),
                                                  "place": x.place, "status": _status(x)} for x in s.sessions],
        })
    return out
