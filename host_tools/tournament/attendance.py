"""Who was at which table: a session's table results from the seating, what the tables played and
who was absent, so that short tables and the players of tables that did not play are scored by
the seeds instead of dropping out of the standings.

* Seed 000 §一.3 若同桌不足四人: 三人正常比赛，打15盘，标准分计4、2、1分；两人当局不比赛，每人标准分计3分
  （比赛分0分）；一人标准分计4分（比赛分0分）. ``formats.mcr_000.mcr_table`` scores these; what it needs is
  a TableResult naming the present players (scores) and the absent (forfeits) of every seated
  table, whether or not the table keyed a hand.
* Seed 004 §三.1: three play on; two present get the average of every table's top two, one
  present the average of every table's first (``formats.guangdong_004.gd_session``).

``session_tables`` builds those TableResults. DECISIONS:

* A player is absent when the caller says so (a no-show, or a late arrival past the limit:
  the format's ``late``); their results at the table, if any, do not count.
* A table with no result (no hand keyed) and at most two players present did not play (the
  seeds: 两人当局不比赛): its present players get match 0 there, which the seeds' short-table
  rules then replace. With three or four present and no hand it has not played yet (or not
  synced): no result for them, listed in the problems; its absent players still forfeit.
* A seated player without a result at a table that did play, and not marked absent, is counted
  absent and listed in the problems (the referee should say what happened).
* A result at a table the seating does not have, or for a player seated elsewhere, counts where
  it was played and is listed in the problems.
"""
from __future__ import annotations

from typing import Any, Iterable, Mapping

from .model import TableResult, TournamentError, check_player, check_score


def _seated(seating: Iterable[Any]) -> list[tuple[int, tuple[str, ...]]]:
    out = []
    for i, t in enumerate(seating, 1):
        number = getattr(t, "number", None)
        players = getattr(t, "players", None)
        if players is None and isinstance(t, Mapping):
            number, players = t.get("table", t.get("number")), t.get("players")
        if players is None:
            number, players = i, t
        out.append((i if number is None else number, tuple(check_player(p) for p in players if p is not None)))
    return out


def session_tables(
    seating: Iterable[Any],
    played: Mapping[int, Mapping[str, Any]],
    absent: Iterable[str] = (),
) -> tuple[list[TableResult], list[str]]:
    """(table results, problems) for one session.

    seating: the tables as seated (``seating.Table``s, {"table": n, "players": [...]}, or player
    lists numbered from 1). played: table number -> player -> match score, for every table that
    keyed at least one hand (sum of hand deltas plus penalties). absent: players who did not
    play this session (no-show or forfeit).
    """
    gone = {check_player(p) for p in absent}
    problems: list[str] = []
    tables = _seated(seating)
    numbers = [n for n, _ in tables]
    if len(set(numbers)) != len(numbers):
        raise TournamentError("the seating has a table number twice")
    where: dict[str, int] = {}
    for n, ps in tables:
        for p in ps:
            if p in where:
                raise TournamentError("%s is seated at tables %d and %d" % (p, where[p], n))
            where[p] = n
    played_at: dict[str, int] = {}
    for n, scores in played.items():
        for p in scores:
            if check_player(p) in played_at:
                raise TournamentError("%s has results at tables %d and %d" % (p, played_at[p], n))
            played_at[p] = n
    out = []
    seats_at = dict(tables)
    for n in numbers + sorted(set(played) - seats_at.keys()):
        seats = seats_at.get(n)
        if seats is None:
            seats = ()
            problems.append("table %d played but is not in the seating" % n)
        res = played.get(n)
        scores: dict[str, Any] = {}
        forfeits: list[str] = []
        if res is None:
            forfeits = [p for p in seats if p in gone]
            present = [p for p in seats if p not in gone and p not in played_at]  # else counted where they played
            if len(present) <= 2:
                scores = {p: 0 for p in present}  # too few to play: the seeds' short-table results
            elif present:
                problems.append("table %d: %d players present and no hand yet: no result for %s"
                                % (n, len(present), ", ".join(present)))
        else:
            for p, v in res.items():
                if p in gone:
                    forfeits.append(p)
                    continue
                scores[p] = check_score(v, "match score of %s" % p)
                if where.get(p, n) != n:
                    problems.append("%s is seated at table %d but played at table %d" % (p, where[p], n))
                elif p not in where:
                    problems.append("%s played at table %d without a seat in the seating" % (p, n))
            for p in seats:
                if p in res or p in played_at:
                    continue
                forfeits.append(p)
                if p not in gone:
                    problems.append("%s has no result at table %d and is not marked absent: counted absent" % (p, n))
        out.append(TableResult(scores, tuple(forfeits), n))
    return out, problems


def late_events(record: Mapping[str, Any]) -> dict[str, int]:
    """Late arrivals keyed at the table: player -> minutes, from a hand record's penalty events
    ({"penalty": "late", "seat": s, "minutes": m}, seats as in the record). The longest counts
    when one player is keyed late twice."""
    seats = record.get("seats") or []
    out: dict[str, int] = {}
    for ev in record.get("events") or []:
        if not isinstance(ev, Mapping) or ev.get("penalty") != "late":
            continue
        s, m = ev.get("seat"), ev.get("minutes")
        if isinstance(s, bool) or not isinstance(s, int) or not 0 <= s < len(seats) or seats[s] is None:
            continue
        if isinstance(m, bool) or not isinstance(m, int) or m < 0:
            continue
        out[seats[s]] = max(out.get(seats[s], 0), m)
    return out
