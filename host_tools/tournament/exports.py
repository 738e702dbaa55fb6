"""CSV exports: standings, hands, and an EMA (European Mahjong Association) results file.

Every function returns the CSV text (``\\r\\n`` line ends, as the csv module writes); writing it to
a file or an HTTP response is the caller's business. Scores are rendered by ``format_score``.
"""
from __future__ import annotations

import csv
import io
from dataclasses import dataclass
from decimal import Decimal
from fractions import Fraction
from typing import Any, Iterable, Mapping, Optional, Sequence

from .awards import HandRecord
from .model import Standing, TournamentError


def format_score(x: Any) -> str:
    """Exact where possible: 4 -> "4", 7/2 -> "3.5", 7/4 -> "1.75"; fractions without a finite
    decimal expansion are rounded to 2 decimals (7/3 -> "2.33"). None -> ""."""
    if x is None:
        return ""
    f = Fraction(x)
    if f.denominator == 1:
        return str(f.numerator)
    d = f.denominator
    for p in (2, 5):
        while d % p == 0:
            d //= p
    if d == 1:
        return format(Decimal(f.numerator) / Decimal(f.denominator), "f")
    return str((Decimal(f.numerator) / Decimal(f.denominator)).quantize(Decimal("0.01")))


def _csv(header: Sequence[str], rows: Iterable[Sequence[Any]]) -> str:
    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(header)
    for r in rows:
        w.writerow(r)
    return buf.getvalue()


def standings_csv(standings: Sequence[Standing], names: Optional[Mapping[str, str]] = None,
                  unplayed: Optional[Mapping[tuple, str]] = None) -> str:
    """Columns: rank, player, name, standard (empty for Guangdong), match, then per session i:
    s{i}_table, s{i}_standard, s{i}_match, s{i}_status ("" played, "forfeit", "no play", "absent",
    or for a session without a result what ``unplayed`` says of (session, player): e.g. "pending"
    for a player seated at a table that has not played yet; the table then in s{i}_table)."""
    n = max((len(s.sessions) for s in standings), default=0)
    header = ["rank", "player", "name", "standard", "match"]
    for i in range(1, n + 1):
        header += ["s%d_table" % i, "s%d_standard" % i, "s%d_match" % i, "s%d_status" % i]
    rows = []
    for s in standings:
        row = [s.rank, s.player, (names or {}).get(s.player, ""), format_score(s.standard), format_score(s.match)]
        for i in range(n):
            x = s.sessions[i] if i < len(s.sessions) else None
            if x is None:
                table, status = (unplayed or {}).get((i + 1, s.player), ("", "absent"))
                row += [table, "", "", status]
            else:
                status = "forfeit" if x.forfeit else ("" if x.played else "no play")
                row += ["" if x.table is None else x.table, format_score(x.standard), format_score(x.match), status]
        rows.append(row)
    return _csv(header, rows)


def hands_csv(hands: Iterable[Any]) -> str:
    """Columns: session, table, hand, winner, discarder, self_drawn (1/0), fans, at, scores
    (player:score pairs joined by ";", in the order given)."""
    rows = []
    for h in hands:
        h = h if isinstance(h, HandRecord) else HandRecord(**h)
        scores = ";".join("%s:%s" % (p, format_score(v)) for p, v in h.scores.items())
        rows.append([h.session, h.table, h.hand, h.winner or "", h.discarder or "", int(h.self_drawn), h.fans if h.winner else "", "" if h.at is None else h.at, scores])
    return _csv(["session", "table", "hand", "winner", "discarder", "self_drawn", "fans", "at", "scores"], rows)


@dataclass(frozen=True)
class EmaPlayer:
    """ema_id: the player's EMA number ("" for a player without one); country: as the EMA lists it
    (we pass through what the organizer enters, e.g. an ISO code or the country name)."""

    last_name: str
    first_name: str
    country: str
    ema_id: str = ""


EMA_HEADER = ("Rank", "EMA number", "Last name", "First name", "Country", "Table points", "Match points")


def ema_results_csv(standings: Sequence[Standing], players: Mapping[str, Any]) -> str:
    """Results of an MCR tournament for an EMA (MERS) ranking submission.

    Header: Rank, EMA number, Last name, First name, Country, Table points, Match points.
    One row per player in standings order. Table points are the total standard scores (the 4/2/1/0
    points, with the shared fractions of ties rendered by format_score); match points are the
    total match scores.

    HONEST NOTE: this layout is assembled from memory of the EMA's published tournament results
    (place, EMA number, name, country, table points and mahjong/match points per player), not
    from a specification: the EMA accepts results through its national board members, commonly
    as a spreadsheet whose exact column names and order we could not check. Before submitting,
    compare with the current template of the EMA/MERS secretary and rename or reorder columns;
    the data needed is all here. For seed 001 (base 500) the match points include the base, and
    table points equal the 4/2/1/0 points only at four-player tables.
    """
    missing = [s.player for s in standings if s.player not in players]
    if missing:
        raise TournamentError("no EMA details for players %s" % missing)
    rows = []
    for s in standings:
        if s.standard is None:
            raise TournamentError("the EMA file needs table points: standings without standard scores are not MCR")
        info = players[s.player]
        info = info if isinstance(info, EmaPlayer) else EmaPlayer(**info)
        rows.append([s.rank, info.ema_id, info.last_name, info.first_name, info.country, format_score(s.standard), format_score(s.match)])
    return _csv(EMA_HEADER, rows)
