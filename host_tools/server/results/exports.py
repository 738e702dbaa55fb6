"""CSV exports built from a ``Result``: standings, hands, and the EMA results sheet.

Every cell a person typed (names, ids) that a spreadsheet would run as a formula (starting with
= + - @, or a tab / carriage return) gets a leading apostrophe; numbers are left alone. Whether a
cell is a number is decided by a pattern (``numeric.is_number``), never by parsing it.

EMA results sheet (MCR only). The EMA (mahjong-europe.org) takes a tournament's results as a
workbook filled in by the organizer and sent by the national board member; we follow its
layout as the EMA's own importer reads it: ``Jesterboxboy/ema_scraper``,
``calculators/get_results.py`` (``results_to_db``) reads one row per player with, by column,
2 place, 3 first name, 4 last name, 5 EMA number, 6 table points, 7 score (mahjong points,
whole), 8 EMA member flag, 9 country (three-letter code), and on the first data row the
tournament's title (0), number of players (1), country (11), city (12), MERS weight (13),
rules (15, "MCR"), dates (16) and days (17); the EMA's published results page
(``3-tournament-results.csv`` in the same repository) shows Place, Name, Country, Table points,
Score. The tournament's country, city, MERS weight, dates and days come from its settings (the
event's details; the importer parses dates such as "12-13 May 2018": ``ema_dates``); a player's
last name is the family name registered for them (a Chinese name is family name first), else
the last word of the name.
DECISIONS: table points are the total standard scores (4/2/1/0; shared ties as decimals);
score is the total match score, for seed 001 without the 500 base of each session played;
the EMA member flag is 1 when the player has an EMA number; disqualified players are left out.
"""
from __future__ import annotations

import csv
import io
from dataclasses import replace
from typing import Any

from host_tools.server import numeric
from host_tools.server.tournaments import formats
from host_tools.tournament import exports as texports
from host_tools.tournament.awards import HandRecord
from host_tools.tournament.exports import format_score
from host_tools.tournament.model import TournamentError

from . import progress

EMA_HEADER = ("Tournament", "Players", "Place", "First name", "Last name", "EMA number", "Table points", "Score",
              "EMA member", "Country", "", "Tournament country", "City", "MERS", "", "Rules", "Dates", "Days")


def cell(v: Any) -> Any:
    if isinstance(v, str) and v[:1] in ("=", "+", "@", "-", "\t", "\r") and not numeric.is_number(v):
        return "'" + v
    return "" if v is None else v


def _csv(header, rows) -> str:
    buf = io.StringIO()
    w = csv.writer(buf)
    w.writerow(header)
    for r in rows:
        w.writerow(r)
    return buf.getvalue()


def standings_csv(res) -> str:
    if formats.get(res.tournament["format"]).standings_view != "sessions":  # stages, survival: their rows as they are
        cols = [c for c in (res.rows[0].keys() if res.rows else ("rank", "player", "name")) if c != "sessions"]
        return _csv(cols, [[cell(r.get(c)) for c in cols] for r in res.rows])
    names = {cell(p): cell(n) for p, n in res.names().items()}
    st = [replace(s, player=cell(s.player)) for s in res.standings]
    # a player seated at a table with no result yet is not absent: "pending" until the table ends
    unplayed = {}
    for session, tables in res.snapshot.seatings.items():
        for table, players in tables.items():
            if not progress.table_done(res, session, table, players):
                for p in players:
                    unplayed[(session, cell(p))] = (table, "pending")
    return texports.standings_csv(st, names, unplayed)


def hand_records(res) -> list:
    """HandRecords of the counted hands: ``at`` is the record's own time, epoch seconds on the
    hall's one clock (单盘最大番 最先达到 compares absolute times: a table that started late does
    not win ties it reached later)."""
    out = []
    for (s, t), tb in sorted(res.read_hands().items()):
        for h in tb.hands:
            w = h.seats[h.winners[0]] if h.winners and h.winners[0] < 4 else None
            d = h.seats[h.discarder] if h.discarder is not None and w and 0 <= h.discarder < 4 else None
            out.append(HandRecord(s, t, h.number, w, d, h.fans, h.time, h.player_deltas()))
    return out


def hands_csv(res) -> str:
    hs = [replace(h, winner=cell(h.winner) if h.winner else None, discarder=cell(h.discarder) if h.discarder else None,
                  scores={cell(p): v for p, v in h.scores.items()}) for h in hand_records(res)]
    return texports.hands_csv(hs)


def split_name(name: str, family: str = "") -> tuple[str, str]:
    """(first, last). The family name registered for the player is the last name, the rest of
    the name the first ("李明", family 李 -> 明, 李; "Li Ming", family Li -> Ming, Li). Without one,
    DECISION: "Last, First" when there is a comma, else the last word is the last name ("Anna
    Martin" -> Anna, Martin); one word is the last name."""
    family = family.strip()
    if family:
        rest = name.strip()
        if rest.startswith(family):
            rest = rest[len(family):]
        elif rest.endswith(family):
            rest = rest[:-len(family)]
        return rest.strip(" ,"), family
    if "," in name:
        last, first = name.split(",", 1)
        return first.strip(), last.strip()
    parts = name.split()
    if len(parts) <= 1:
        return "", name.strip()
    return " ".join(parts[:-1]), parts[-1]


def ema_csv(res) -> str:
    fmt = formats.get(res.tournament["format"])
    if not fmt.ema_sheet:
        raise TournamentError("the EMA results sheet is for Chinese Official (MCR) tournaments")
    info = {p["id"]: p for p in res.snapshot.players}
    st = [s for s in res.standings if s.player not in res.disqualified]
    base = fmt.match_base(res.tournament["settings"])
    rows = []
    t = res.tournament
    start, end = t.get("start_date"), t.get("end_date") or t.get("start_date")
    for i, s in enumerate(st):
        p = info.get(s.player, {"name": s.player, "ema_id": "", "country": ""})
        first, last = split_name(p["name"], p.get("family_name") or "")
        played = sum(1 for x in s.sessions if x is not None and x.played)
        score = s.match - base * played
        row = [cell(res.tournament["name"]) if i == 0 else "", len(st) if i == 0 else "", s.rank, cell(first), cell(last),
               cell(p["ema_id"]), format_score(s.standard), format_score(score), 1 if p["ema_id"] else 0, cell(p["country"])]
        if i == 0:
            row += ["", cell(t.get("country") or ""), cell(t.get("city") or ""), t.get("mers_weight") or "", "", "MCR",
                    ema_dates(start, end) if start else "", (end - start).days + 1 if start else ""]
        rows.append(row)
    return _csv(EMA_HEADER, rows)


MONTHS = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def ema_dates(start, end) -> str:
    """The event's dates as EMA sheets write them: "12 May 2018", "12-13 May 2018",
    "31 May - 2 Jun 2019", "31 Dec 2019 - 1 Jan 2020"."""
    def d(x, year=True):
        return "%d %s%s" % (x.day, MONTHS[x.month - 1], " %d" % x.year if year else "")

    if end is None or end == start:
        return d(start)
    if (start.year, start.month) == (end.year, end.month):
        return "%d-%s" % (start.day, d(end))
    if start.year == end.year:
        return "%s - %s" % (d(start, False), d(end))
    return "%s - %s" % (d(start), d(end))
