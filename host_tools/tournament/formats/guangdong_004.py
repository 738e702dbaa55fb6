"""Guangdong 推倒胡 (seed 004): 4 preliminary sessions of 12 hands in 50 minutes, the match score
counts (no standard score); sessions 1-3 on a pre-set schedule in which no two players meet
twice, session 4 by rank; ranked by total, ties by the best single session, then the second
best...; the top four play a final that carries the preliminary totals by a ratio the
organizer enters (no ratio, no final standings).

``gd_session``, ``gd_standings`` (§四), ``gd_final_standings`` (§四 决赛), ``carry_ratio_value``,
``gd_late`` (§三.1) and ``FORMAT``. The numbers (late ladder, hands, minutes) are
``rules_min.tournament``'s.

DECISIONS (the seed is silent): a forfeit scores 0; the 2-player average is the mean of the 2T
top-two scores of the T tables that played, the 1-player average the mean of their winners'
scores; the final compares raw single sessions (4 preliminary + final) for ties.
"""
from __future__ import annotations

import re
from decimal import Decimal
from fractions import Fraction
from typing import Any, Iterable, Optional, Sequence

from ..model import LateRuling, SessionScore, Standing, TableResult, TournamentError, as_table, rank_players
from . import standings as common
from .base import MAX_NUMBER, Event, Format, Outcome, Setting, SettingsInvalid, late_ruling


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
        out = common.forfeited(t, None)
        if len(t.scores) >= 3:
            for p, (place, _) in common.shared_places(t.scores, [0] * len(t.scores)).items():
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
    scored = common.sessions(sessions, gd_session)
    return common.standings(scored, _gd_key, draw_order, with_standard=False)


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
    prelim = common.sessions(preliminary, gd_session)
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
    return late_ruling("guangdong", minutes)


# The organizer types the ratio: checked as text before anything parses it (Fraction("1e-9999999")
# would build a ten-million-digit integer), at most 12 digits each side of the point or slash.
_RATIO = re.compile(r"[0-9]{1,12}(\.[0-9]{1,12})?(/[0-9]{1,12})?")


def ratio_text(text: Any) -> Fraction:
    """A carry ratio typed as "0.3", "1/3", "1" -> Fraction (the denominator must not be 0)."""
    t = text.strip() if isinstance(text, str) else ""
    if not _RATIO.fullmatch(t):
        raise SettingsInvalid('a ratio is written like "0.3" or "1/3"')
    num, _, den = t.partition("/")
    if den and int(den) == 0:
        raise SettingsInvalid("the denominator must not be 0")
    return Fraction(num) / (int(den) if den else 1)


def _carry_ratio(s: Setting, v: Any) -> Optional[str]:
    if v == "":
        return None
    if isinstance(v, bool) or not isinstance(v, (str, int)):
        raise SettingsInvalid('%s must be a string such as "0.3" or "1/3"' % s.name)
    try:
        r = ratio_text(str(v))
    except SettingsInvalid as e:
        raise SettingsInvalid("%s: %s" % (s.name, e)) from None
    if not 0 <= r <= 1:
        raise SettingsInvalid("%s must be between 0 and 1" % s.name)
    return str(v)


class Guangdong004(Format):
    name = "guangdong_004"
    rules = "guangdong"
    title = "Guangdong 推倒胡 (seed 004)"
    settings = (Setting("prelim_sessions", 4), Setting("carry_ratio", None, optional=True, kind="ratio", check=_carry_ratio))
    seating = ("preset", "rank")
    first_sessions = 3  # §四 预赛: sessions 1-3 on the pre-set schedule

    def check_together(self, s: dict) -> None:
        if not 1 <= s["prelim_sessions"] <= MAX_NUMBER:
            raise SettingsInvalid("prelim_sessions must be 1..%d" % MAX_NUMBER)

    def results(self, event: Event, problems: list) -> Outcome:
        """The preliminary standings until the final session (one table) has results; then the
        final standings, once the organizer has entered the carry ratio."""
        sessions, n, dq, subs = common.session_results(event, self, problems)
        draw = event.draw()
        np_ = event.settings["prelim_sessions"]
        scored = common.safe_sessions(sessions, gd_session, problems)
        prelim = gd_standings(scored[:np_], draw)
        standings = prelim
        extra: dict = {"sessions": n, "final": None}
        if n > np_:
            final_tables = sessions[np_]
            if len(final_tables) != 1:
                problems.append("the final (session %d) must be one table, found %d" % (np_ + 1, len(final_tables)))
            else:
                try:
                    standings = gd_final_standings(scored[:np_], final_tables[0], event.settings["carry_ratio"], draw)
                    extra["final"] = {"carry_ratio": event.settings["carry_ratio"]}
                except common.SCORING_ERRORS as e:
                    problems.append("final: %s" % e)
        standings = common.finish(standings, event, n, dq, subs, self)
        return Outcome(standings, common.rows(standings, event.names(), dq), common.table_scores(scored), dq,
                       common.rerank(prelim, subs), extra)


FORMAT = Guangdong004()
