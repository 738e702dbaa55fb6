"""Tournament scoring: per-table session results -> standard scores, standings and advancement.

Pure functions over plain data (see ``model``); no I/O. One section per format:

* seed 000, Chinese Official 2016 TMT: ``mcr_table``, ``mcr_session``, ``mcr_standings``,
  ``mcr_final_standings``, ``mcr_late``. The survival event (勇者争先赛) is in ``survival``
  and re-exported here.
* seed 001, Chinese Official Swiss: ``swiss_table``, ``swiss_session``, ``swiss_standings``.
* seed 003, Sichuan stages: ``sichuan_lines``, ``sichuan_rank_table``, ``sichuan_top_per_table``,
  ``sichuan_stage2``, ``sichuan_final``.
* seed 004, Guangdong: ``gd_session``, ``gd_standings``, ``gd_final_standings``, ``gd_late``.

Decisions taken where the seeds are silent are marked DECISION in the docstrings; the
package README-style list is in ``host_tools/tournament/__init__.py``.
"""
from __future__ import annotations

from decimal import Decimal
from fractions import Fraction
from typing import Any, Iterable, Mapping, Optional, Sequence

from .model import (  # noqa: F401  (LateRuling re-exported)
    LateRuling,
    Score,
    SessionScore,
    Standing,
    TableResult,
    TournamentError,
    as_table,
    check_player,
    check_score,
    minutes as _minutes,
    rank_players,
)
from .sichuan import (  # noqa: F401  (re-exported: seed 003's stages are scored there)
    PlayoffRequired,
    SichuanGame,
    SichuanLine,
    SichuanPlace,
    SichuanStage,
    sichuan_final,
    sichuan_late,
    sichuan_lines,
    sichuan_rank_table,
    sichuan_stage2,
    sichuan_top_per_table,
)
from .survival import (  # noqa: F401  (re-exported: the survival event is part of seed 000's scoring)
    START_SCORE,
    SurvivalHand,
    SurvivalTableResult,
    play_survival_table,
    run_survival_event,
    survival_multiplier,
    survival_retable,
)

MCR_POINTS = {4: (4, 2, 1, 0), 3: (4, 2, 1)}
SWISS_BASE = 500


# --------------------------------------------------------------------------- shared places

def shared_places(scores: Mapping[str, Score], points: Sequence[int]) -> dict[str, tuple[int, Fraction]]:
    """Place players by score (higher first); tied players share the tied places' points equally.

    Returns player -> (place, points): the place is the best place of the tie, the points
    are the mean of the points of the places the tie occupies (two tied first of 4/2/1/0: 3 each).
    """
    if len(points) != len(scores):
        raise TournamentError("%d players but %d places" % (len(scores), len(points)))
    ordered = sorted(scores, key=lambda p: scores[p], reverse=True)
    out: dict[str, tuple[int, Fraction]] = {}
    i = 0
    while i < len(ordered):
        j = i
        while j < len(ordered) and scores[ordered[j]] == scores[ordered[i]]:
            j += 1
        share = _share(sum(points[i:j]), j - i)
        for p in ordered[i:j]:
            out[p] = (i + 1, share)
        i = j
    return out


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


def _forfeited(table: TableResult, standard: Optional[Fraction] = Fraction(0)) -> dict[str, SessionScore]:
    return {p: SessionScore(p, table.table, standard, 0, None, forfeit=True, played=False) for p in table.forfeits}


def _session(tables: Iterable[Any], per_table) -> dict[str, SessionScore]:
    out: dict[str, SessionScore] = {}
    for n, t in enumerate(tables, 1):
        t = as_table(t, n)
        for p, s in per_table(t).items():
            if p in out:
                raise TournamentError("player %s is seated twice in one session" % p)
            out[p] = s
    return out


def _sessions(sessions: Iterable[Any], session_fn) -> list[dict[str, SessionScore]]:
    out = []
    for s in sessions:
        out.append(s if _is_scored(s) else session_fn(s))
    return out


def _is_scored(s: Any) -> bool:
    return isinstance(s, Mapping) and bool(s) and all(isinstance(v, SessionScore) for v in s.values())


def _players(sessions: Sequence[Mapping[str, SessionScore]]) -> list[str]:
    seen: dict[str, None] = {}
    for s in sessions:
        for p in s:
            seen.setdefault(p)
    return list(seen)


# --------------------------------------------------------------------------- seed 000: MCR 2016 TMT

def mcr_table(table: Any) -> dict[str, SessionScore]:
    """Standard scores of one table (seed 000 §一.3).

    4 players: 4/2/1/0 by match score. 3 players (after a forfeit or at a short table): 4/2/1,
    15 hands. 2 players: no play, standard 3 each, match 0. 1 player: standard 4, match 0.
    Tied match scores share the tied places' points. A forfeiting player (late > 15 min)
    gets standard 0 and match 0.
    DECISION: at a 2- or 1-player table the given match scores are ignored (the seed sets
    them to 0: the session is not played), so a late penalty of a present player lapses too.
    """
    t = as_table(table)
    out = _forfeited(t)
    n = len(t.scores)
    if n in MCR_POINTS:
        for p, (place, pts) in shared_places(t.scores, MCR_POINTS[n]).items():
            out[p] = SessionScore(p, t.table, pts, t.scores[p], place)
    elif n == 2 or n == 1:
        pts = Fraction(3 if n == 2 else 4)
        for p in t.scores:
            out[p] = SessionScore(p, t.table, pts, 0, None, played=False)
    return out


def mcr_session(tables: Iterable[Any]) -> dict[str, SessionScore]:
    """All tables of one session -> player -> SessionScore (seed 000)."""
    return _session(tables, mcr_table)


def _mcr_key(scores: Sequence[Optional[SessionScore]]) -> tuple:
    played = [s for s in scores if s]
    std = fraction_sum([s.standard for s in played])
    match = sum([s.match for s in played], 0)
    count = {4: 0, 2: 0, 1: 0}  # results of exactly 4, 2 and 1 (a shared 3 or 1/2 is none)
    for s in played:
        v = s.standard
        if v.denominator == 1 and v.numerator in count:
            count[v.numerator] += 1
    return (std, match, count[4], count[2], count[1])


def mcr_standings(sessions: Iterable[Any], draw_order: Optional[Sequence[str]] = None) -> list[Standing]:
    """Standings of seed 000 (§三.1.5).

    sessions: per session, either an iterable of table results or the output of mcr_session.
    Order: total standard score, total match score, then the number of 4-point results, of
    2-point results, of 1-point results (the seed's "以此类推").
    DECISIONS: only exact 4, 2 and 1 count (a shared 3 or 1/2 is none of them); players equal
    on all five share the rank and are listed in draw_order (else id) order; a player missing
    from a session scores 0/0 there (like a forfeit).
    """
    scored = _sessions(sessions, mcr_session)
    return _standings(scored, _mcr_key, draw_order, with_standard=True)


def _standings(scored, key_fn, draw_order, with_standard: bool) -> list[Standing]:
    players = _players(scored)
    lines = {p: tuple(s.get(p) for s in scored) for p in players}
    keys = {p: key_fn(lines[p]) for p in players}
    out = []
    for rank, p in rank_players(keys, draw_order):
        std = fraction_sum([s.standard for s in lines[p] if s]) if with_standard else None
        match = sum([s.match for s in lines[p] if s], 0)
        out.append(Standing(rank, p, std, match, lines[p], keys[p]))
    return out


def mcr_final_standings(
    preliminary: Iterable[Any],
    finals: Iterable[Any],
    finalists: int = 16,
    draw_order: Optional[Sequence[str]] = None,
) -> list[Standing]:
    """Final standings of seed 000: top ``finalists`` after the preliminary sessions play the finals.

    DECISION: the seed says "累计" (cumulative) and gives no separate final ranking, so the
    finalists are ranked over all sessions (preliminary plus final, same criteria), and the
    other players keep their preliminary order below them (ranks finalists+1 onwards).
    A shared preliminary rank across the finalist cut is refused: the organizer must decide.
    """
    prelim = _sessions(preliminary, mcr_session)
    fin = _sessions(finals, mcr_session)
    pre = mcr_standings(prelim, draw_order)
    if len(pre) > finalists and pre[finalists].rank <= finalists:
        tied = [s.player for s in pre if s.rank == pre[finalists].rank]
        raise TournamentError("players %s share preliminary rank %d across the finalist cut" % (tied, pre[finalists].rank))
    top = {s.player for s in pre[:finalists]}
    outsiders = set(_players(fin)) - top
    if outsiders:
        raise TournamentError("players in the final who did not qualify: %s" % sorted(outsiders))
    both = [{p: s for p, s in session.items() if p in top} for session in prelim + fin]
    ranked = _standings(both, _mcr_key, draw_order, with_standard=True)
    return ranked + list(pre[finalists:])


def mcr_late(minutes: Any) -> LateRuling:
    """Seed 000 §一.4.1: late up to 10 min -10, over 10 up to 15 min -20, over 15 min forfeit."""
    m = _minutes(minutes)
    if m <= 0:
        return LateRuling(0, False)
    if m <= 10:
        return LateRuling(-10, False)
    if m <= 15:
        return LateRuling(-20, False)
    return LateRuling(0, True)


# --------------------------------------------------------------------------- seed 001: MCR Swiss

def swiss_points(n: int) -> tuple[int, ...]:
    """Seed 001 §二.3 with RULES.md: first gets N (players at the table), the others N - place.

    The points of a table sum to N + (N-1)(N-2)/2: 7 for N = 4 (4/2/1/0), 4 for N = 3 (3/1/0).
    """
    if n < 1:
        raise TournamentError("no players at the table")
    return (n,) + tuple(n - r for r in range(2, n + 1))


def swiss_table(table: Any, base: int = SWISS_BASE) -> dict[str, SessionScore]:
    """Standard and match scores of one Swiss table (seed 001).

    table scores are the changes from the base (hand scores plus penalties); the match score
    is base + change. DECISIONS: tied players share the tied places' points equally, as in
    seed 000 (the seed is silent); N counts the players who played (a forfeit leaves N = 3);
    a forfeiting player gets standard 0 and match 0 (no base), as in seed 000; a table of two
    that does not play has equal changes (0) and so shares 2 + 0: 1 each.
    """
    t = as_table(table)
    out = _forfeited(t)
    if t.scores:
        for p, (place, pts) in shared_places(t.scores, swiss_points(len(t.scores))).items():
            out[p] = SessionScore(p, t.table, pts, base + t.scores[p], place)
    return out


def swiss_session(tables: Iterable[Any], base: int = SWISS_BASE) -> dict[str, SessionScore]:
    return _session(tables, lambda t: swiss_table(t, base))


def swiss_standings(
    sessions: Iterable[Any], base: int = SWISS_BASE, draw_order: Optional[Sequence[str]] = None
) -> list[Standing]:
    """Standings of seed 001: total standard score, then total match score (base included).

    DECISION: the seed ranks by "最终积分" only; the match score is the tie-break (as in seed
    000), and players equal on both share the rank.
    """
    scored = _sessions(sessions, lambda s: swiss_session(s, base))

    def key(lines):
        return (fraction_sum([s.standard for s in lines if s]), sum([s.match for s in lines if s], 0))

    return _standings(scored, key, draw_order, with_standard=True)


# --------------------------------------------------------------------------- seed 004: Guangdong

def gd_session(tables: Iterable[Any]) -> dict[str, SessionScore]:
    """One Guangdong session (seed 004 §三.1). No standard score: the match score counts.

    A forfeiting player (late > 10 min) scores 0 (DECISION: the seed does not say; 0 as in
    seed 000). A table left with 3 players plays on. A table left with 2 players does not play:
    both get the average of the top-two match scores of every table that played this session
    (the 2T scores of T tables, summed, divided by 2T). A table left with 1 player: that player
    gets the average of the table winners' scores. DECISIONS: "every table" means the tables
    that played (3 or 4 players); the averages are exact Fractions; with no table played the
    averages do not exist and the session is refused.
    """
    tables = [as_table(t, n) for n, t in enumerate(tables, 1)]
    played = [t for t in tables if len(t.scores) >= 3]
    tops = [sorted(t.scores.values(), reverse=True) for t in played]

    def per_table(t: TableResult) -> dict[str, SessionScore]:
        out = _forfeited(t, None)
        if len(t.scores) >= 3:
            for p, (place, _) in shared_places(t.scores, [0] * len(t.scores)).items():
                out[p] = SessionScore(p, t.table, None, t.scores[p], place)
            return out
        if not t.scores:
            return out
        if not tops:
            raise TournamentError("table %s is short of players and no table played this session" % t.table)
        if len(t.scores) == 2:
            avg = Fraction(sum(s[0] + s[1] for s in tops), 2 * len(tops))
        else:
            avg = Fraction(sum(s[0] for s in tops), len(tops))
        avg = int(avg) if avg.denominator == 1 else avg
        for p in t.scores:
            out[p] = SessionScore(p, t.table, None, avg, None, played=False)
        return out

    out: dict[str, SessionScore] = {}
    for t in tables:
        for p, s in per_table(t).items():
            if p in out:
                raise TournamentError("player %s is seated twice in one session" % p)
            out[p] = s
    return out


def _gd_key(lines: Sequence[Optional[SessionScore]]) -> tuple:
    scores = [s.match if s else 0 for s in lines]
    return (sum(scores, 0), tuple(sorted(scores, reverse=True)))


def gd_standings(sessions: Iterable[Any], draw_order: Optional[Sequence[str]] = None) -> list[Standing]:
    """Preliminary standings of seed 004 §四: total, then best single session, second best, ...

    A session the player has no result in counts 0. Players equal on all share the rank.
    """
    scored = _sessions(sessions, gd_session)
    return _standings(scored, _gd_key, draw_order, with_standard=False)


class MissingCarryRatio(TournamentError):
    """The Guangdong final needs the organizer's carry ratio; it was not given."""


def carry_ratio_value(ratio: Any) -> Fraction:
    """The organizer's ratio as an exact Fraction: int, Fraction, Decimal, float (by its decimal
    spelling: 0.3 -> 3/10) or a string "0.3" / "3/10". Must be >= 0."""
    if ratio is None:
        raise MissingCarryRatio(
            "the Guangdong final carries preliminary totals by a ratio the organizer must enter "
            "(seed 004 §四 决赛.3); no ratio was given, so the final standings are not computed"
        )
    if isinstance(ratio, bool):
        raise TournamentError("carry ratio must be a number, not %r" % ratio)
    try:
        if isinstance(ratio, float):
            value = Fraction(Decimal(repr(ratio)))
        elif isinstance(ratio, str):
            value = Fraction(ratio.strip())
        else:
            value = Fraction(ratio)
    except (ValueError, TypeError, ArithmeticError):
        raise TournamentError("carry ratio %r is not a number" % (ratio,)) from None
    if value < 0:
        raise TournamentError("carry ratio must not be negative: %r" % (ratio,))
    return value


def gd_final_standings(
    preliminary: Iterable[Any],
    final_table: Any,
    carry_ratio: Any,
    draw_order: Optional[Sequence[str]] = None,
) -> list[Standing]:
    """Guangdong final (seed 004 §四 决赛): final score = preliminary total x ratio + final session.

    carry_ratio is required: None raises MissingCarryRatio. The final table must seat the top
    preliminary players (as many as the table seats). Ties: best single session, then second
    best, ... DECISION: the single sessions compared are the raw (not scaled) scores of the four
    preliminary sessions and of the final session. Non-finalists follow in preliminary order.
    The returned Standing.match is the final score; sessions holds the preliminary sessions
    followed by the final session.
    """
    ratio = carry_ratio_value(carry_ratio)
    prelim = _sessions(preliminary, gd_session)
    pre = gd_standings(prelim, draw_order)
    final = gd_session([final_table])
    k = len(final)
    if len(pre) > k and pre[k].rank <= k:
        tied = [s.player for s in pre if s.rank == pre[k].rank]
        raise TournamentError("players %s share preliminary rank %d across the finalist cut" % (tied, pre[k].rank))
    expected = {s.player for s in pre[:k]}
    if set(final) != expected:
        raise TournamentError("the final table must seat the top %d: %s, not %s" % (k, sorted(expected), sorted(final)))
    keys, lines, totals = {}, {}, {}
    for s in pre[:k]:
        f = final[s.player]
        total = s.match * ratio + f.match
        total = int(total) if Fraction(total).denominator == 1 else Fraction(total)
        raw = [x.match if x else 0 for x in s.sessions] + [f.match]
        keys[s.player] = (total, tuple(sorted(raw, reverse=True)))
        lines[s.player] = s.sessions + (f,)
        totals[s.player] = total
    out = [Standing(r, p, None, totals[p], lines[p], keys[p]) for r, p in rank_players(keys, draw_order)]
    return out + list(pre[k:])


def gd_late(minutes: Any) -> LateRuling:
    """Seed 004 §三.1: late up to 10 min -8; more than 10 min forfeits the session."""
    m = _minutes(minutes)
    if m <= 0:
        return LateRuling(0, False)
    if m <= 10:
        return LateRuling(-8, False)
    return LateRuling(0, True)
