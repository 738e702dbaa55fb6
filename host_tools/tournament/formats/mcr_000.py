"""Chinese Official, 2016 TMT (seed 000): sessions of 16 hands scored 4/2/1/0 by match score,
"高碰高" seating, the top 16 after the preliminary sessions play the final sessions, the seed's
awards. Its survival event (勇者争先赛) is the format ``mcr_survival``.

``mcr_table`` / ``mcr_session`` (standard scores of a table, a session), ``mcr_standings``
(§三.1.5), ``mcr_final_standings``, ``mcr_late`` (§一.4.1), and ``FORMAT``. The numbers (points
per place, the short tables', the late ladder, hands and minutes) are ``rules_min.tournament``'s.

DECISIONS (the seed is silent):

* Standard scores are exact ``Fraction``s: ties share the tied places' points (7/3 for three
  tied first at a 4/2/1/0 table).
* Ranking counts exact 4, 2 and 1 results only; a 2- or 1-player table ignores the entered
  match scores (the seed sets them to 0); a player missing from a session scores 0/0.
* Finals: the top 16 are ranked over all ten sessions, the rest keep their preliminary order.
"""
from __future__ import annotations

from fractions import Fraction
from typing import Any, Iterable, Optional, Sequence

from rules_min import tournament as numbers

from ..model import LateRuling, SessionScore, Standing, TournamentError, as_table
from . import standings as common
from .base import MAX_NUMBER, Event, Format, Outcome, Setting, SettingsInvalid, late_ruling


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
    out = common.forfeited(t)
    n = len(t.scores)
    if n in numbers.MCR_POINTS:
        for p, (place, pts) in common.shared_places(t.scores, numbers.MCR_POINTS[n]).items():
            out[p] = SessionScore(p, t.table, pts, t.scores[p], place)
    elif n in numbers.MCR_NO_PLAY:
        pts = Fraction(numbers.MCR_NO_PLAY[n])
        for p in t.scores:
            out[p] = SessionScore(p, t.table, pts, 0, None, played=False)
    return out


def mcr_session(tables: Iterable[Any]) -> dict[str, SessionScore]:
    """All tables of one session -> player -> SessionScore (seed 000)."""
    return common.session(tables, mcr_table)


def _mcr_key(scores: Sequence[Optional[SessionScore]]) -> tuple:
    played = [s for s in scores if s]
    std = common.fraction_sum([s.standard for s in played])
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
    scored = common.sessions(sessions, mcr_session)
    return common.standings(scored, _mcr_key, draw_order, with_standard=True)


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
    prelim = common.sessions(preliminary, mcr_session)
    fin = common.sessions(finals, mcr_session)
    pre = mcr_standings(prelim, draw_order)
    if len(pre) > finalists and pre[finalists].rank <= finalists:
        tied = [s.player for s in pre if s.rank == pre[finalists].rank]
        raise TournamentError("players %s share preliminary rank %d across the finalist cut" % (tied, pre[finalists].rank))
    top = {s.player for s in pre[:finalists]}
    outsiders = set(common.players_of(fin)) - top
    if outsiders:
        raise TournamentError("players in the final who did not qualify: %s" % sorted(outsiders))
    both = [{p: s for p, s in session.items() if p in top} for session in prelim + fin]
    ranked = common.standings(both, _mcr_key, draw_order, with_standard=True)
    return ranked + list(pre[finalists:])


def mcr_late(minutes: Any) -> LateRuling:
    """Seed 000 §一.4.1: late up to 10 min -10, over 10 up to 15 min -20, over 15 min forfeit."""
    return late_ruling("mcr", minutes)


class Mcr000(Format):
    name = "mcr_000"
    rules = "mcr"
    title = "Chinese Official, 2016 TMT (seed 000)"
    settings = (Setting("prelim_sessions", 8), Setting("finalists", 16))
    seating = ("draw", "rank")
    allow_three = True
    standard = True
    ema_sheet = True
    awards = True
    survival_source = True

    def check_together(self, s: dict) -> None:
        if not 1 <= s["prelim_sessions"] <= MAX_NUMBER or s["finalists"] < 4:
            raise SettingsInvalid("prelim_sessions must be 1..%d and finalists at least 4" % MAX_NUMBER)

    def results(self, event: Event, problems: list) -> Outcome:
        """The preliminary sessions' standings until the final sessions have results; then the
        finalists over all sessions above the others (a final that cannot be ranked shows all
        sessions cumulatively, and the problems say why)."""
        sessions, n, dq, subs = common.session_results(event, self, problems)
        draw = event.draw()
        np_ = event.settings["prelim_sessions"]
        scored = common.safe_sessions(sessions, mcr_session, problems)
        standings = mcr_standings(scored, draw)
        prelim = mcr_standings(scored[:np_], draw) if n > np_ else standings
        if n > np_:
            try:
                standings = mcr_final_standings(scored[:np_], scored[np_:], event.settings["finalists"], draw)
            except common.SCORING_ERRORS as e:
                problems.append("final standings: %s (showing all sessions cumulatively)" % e)
        standings = common.finish(standings, event, n, dq, subs, self)
        return Outcome(standings, common.rows(standings, event.names(), dq), common.table_scores(scored), dq,
                       common.rerank(prelim, subs), {"sessions": n})


FORMAT = Mcr000()
