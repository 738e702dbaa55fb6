"""Chinese Official, Swiss system (seed 001): every session's match score starts from the base
500; standard score N for first (N players at the table) and N - place for the others; the next
session is seated Swiss (close in rank, no repeat opponents: ``seating.swiss_seating``); all
sessions count, no eliminations.

``swiss_points``, ``swiss_table``, ``swiss_session``, ``swiss_standings`` and ``FORMAT``. The
numbers (the base, points per place, late ladder, hands, minutes) are ``rules_min.tournament``'s.

DECISIONS (the seed is silent): ties share points as in seed 000; N counts the players who
played; forfeits score 0 standard and 0 match (no base); table scores are entered as changes
from the 500 base; ranking by standard score then match score.
"""
from __future__ import annotations

from typing import Any, Iterable, Optional, Sequence

from rules_min import tournament as numbers

from ..model import SessionScore, Standing, TournamentError, as_table
from . import standings as common
from .base import Event, Format, Outcome, Setting, SettingsInvalid

SWISS_BASE = numbers.SWISS_BASE


def swiss_points(n: int) -> tuple[int, ...]:
    """Seed 001 §二.3 with RULES.md: first gets N (players at the table), the others N - place.

    The points of a table sum to N + (N-1)(N-2)/2: 7 for N = 4 (4/2/1/0), 4 for N = 3 (3/1/0).
    """
    if n < 1:
        raise TournamentError("no players at the table")
    return numbers.swiss_points(n)


def swiss_table(table: Any, base: int = SWISS_BASE) -> dict[str, SessionScore]:
    """Standard and match scores of one Swiss table (seed 001).

    table scores are the changes from the base (hand scores plus penalties); the match score
    is base + change. DECISIONS: tied players share the tied places' points equally, as in
    seed 000 (the seed is silent); N counts the players who played (a forfeit leaves N = 3);
    a forfeiting player gets standard 0 and match 0 (no base), as in seed 000; a table of two
    that does not play has equal changes (0) and so shares 2 + 0: 1 each.
    """
    t = as_table(table)
    out = common.forfeited(t)
    if t.scores:
        for p, (place, pts) in common.shared_places(t.scores, swiss_points(len(t.scores))).items():
            out[p] = SessionScore(p, t.table, pts, base + t.scores[p], place)
    return out


def swiss_session(tables: Iterable[Any], base: int = SWISS_BASE) -> dict[str, SessionScore]:
    return common.session(tables, lambda t: swiss_table(t, base))


def swiss_standings(
    sessions: Iterable[Any], base: int = SWISS_BASE, draw_order: Optional[Sequence[str]] = None
) -> list[Standing]:
    """Standings of seed 001: total standard score, then total match score (base included).

    DECISION: the seed ranks by "最终积分" only; the match score is the tie-break (as in seed
    000), and players equal on both share the rank.
    """
    scored = common.sessions(sessions, lambda s: swiss_session(s, base))

    def key(lines):
        return (common.fraction_sum([s.standard for s in lines if s]), sum([s.match for s in lines if s], 0))

    return common.standings(scored, key, draw_order, with_standard=True)


class McrSwiss001(Format):
    name = "mcr_swiss_001"
    rules = "mcr"
    title = "Chinese Official, Swiss (seed 001)"
    settings = (Setting("base", SWISS_BASE),)
    seating = ("draw", "swiss")
    allow_three = True
    standard = True
    ema_sheet = True
    awards = True

    def check_together(self, s: dict) -> None:
        if not 0 <= s["base"] <= 10**6:
            raise SettingsInvalid("base must be 0..1000000")

    def match_base(self, settings) -> int:
        return settings["base"]

    def results(self, event: Event, problems: list) -> Outcome:
        sessions, n, dq, subs = common.session_results(event, self, problems)
        base = event.settings["base"]
        scored = common.safe_sessions(sessions, lambda s: swiss_session(s, base), problems)
        standings = common.finish(swiss_standings(scored, base, event.draw()), event, n, dq, subs, self)
        return Outcome(standings, common.rows(standings, event.names(), dq), common.table_scores(scored), dq, None, {"sessions": n})


FORMAT = McrSwiss001()
