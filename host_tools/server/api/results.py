"""Public reading: standings (the device contract's ``GET /api/tournaments/ID/standings``),
sessions, tables, a player's hands, awards, exports, corrections, penalties, play-offs."""
from __future__ import annotations

from django.http import HttpResponse
from ninja import Router
from ninja.errors import HttpError

from host_tools.server.results import cache, exports, progress
from host_tools.server.tournaments import formats
from host_tools.tournament.model import TournamentError

from .schemas import Error

router = Router(tags=["results"])


def _result(tid: str):
    try:
        return cache.result(tid)
    except cache.NoTournament:
        raise HttpError(404, "no tournament %r" % tid) from None


@router.get("/tournaments/{tid}/standings", response={200: dict, 404: Error},
            summary="Standings from the counted records, corrections, penalties and play-offs (quarantined records are not counted)")
def standings(request, tid: str):
    try:
        body, source = cache.standings_json(tid)
    except cache.NoTournament:
        raise HttpError(404, "no tournament %r" % tid) from None
    r = HttpResponse(body, content_type="application/json; charset=utf-8")
    r["X-Results"] = source  # memory | shared | computed: the benchmark counts how often a cold request computes
    return r


def table_json(res, s: int, t: int) -> dict:
    tb = res.tables.get((s, t))
    if tb is None:
        raise HttpError(404, "no results for session %d table %d" % (s, t))
    names = res.names()
    per = res.table_scores.get((s, t), {})
    raw = tb.raw_scores()
    players = []
    for p in tb.players():
        x = per.get(p)
        players.append({"player": p, "name": names.get(p, ""), "hands_total": raw.get(p, 0),
                        "match": exports.format_score(x.match) if x else "", "standard": exports.format_score(x.standard) if x else "",
                        "standard_exact": None if x is None or x.standard is None else str(x.standard), "place": x.place if x else None})
    hands = [{"hand": h.number, "seats": list(h.seats), "deltas": h.deltas, "original_deltas": list(h.original), "corrected": h.correction is not None,
              "correction": h.correction, "points": h.player_deltas(), "winners": [h.seats[w] for w in h.winners if w < 4],
              "discarder": h.seats[h.discarder] if h.discarder is not None and 0 <= h.discarder < 4 else None, "fans": h.fans,
              "device": h.device, "seq": h.seq, "entered_by_referee": h.manual, "time": h.time,
              "reseated": h.box_seats is not None} for h in tb.hands]
    q = [x for x in res.quarantine if x["session"] == s and x["table"] == t]
    from host_tools.server.results.compute import table_problems
    return {"session": s, "table": t, "players": players, "hands": hands, "quarantine": q, "problems": table_problems(tb),
            "started": tb.start.time if tb.start else None, "ended": tb.end.time if tb.end else None}


@router.get("/tournaments/{tid}/tables/{session}/{table}", response={200: dict, 404: Error}, summary="One table's hands and results")
def get_table(request, tid: str, session: int, table: int):
    return table_json(_result(tid), session, table)


@router.get("/tournaments/{tid}/sessions", response={200: list, 404: Error}, summary="Sessions and their tables as uploaded")
def sessions(request, tid: str):
    res = _result(tid)
    out: dict = {}
    for (s, t), tb in sorted(res.tables.items()):
        out.setdefault(s, []).append({"table": t, "players": tb.players(), "hands": tb.n_hands, "started": tb.start.time if tb.start else None,
                                      "ended": tb.end.time if tb.end else None, "quarantined": tb.quarantined})
    return [{"session": s, "tables": ts} for s, ts in out.items()]


@router.get("/tournaments/{tid}/players/{pid}/hands", response={200: dict, 404: Error}, summary="A player's counted hands")
def player_hands(request, tid: str, pid: str):
    res = _result(tid)
    out = []
    for h in res.hands_of(pid):
        seat = h.seats.index(pid)
        out.append({"session": h.session, "table": h.table, "hand": h.number, "seat": seat, "delta": h.deltas[seat], "seats": list(h.seats)})
    row = next((r for r in res.rows if r["player"] == pid), None)
    if row is None and not out and pid not in res.names():
        raise HttpError(404, "no player %r in this tournament" % pid)
    return {"player": pid, "name": res.names().get(pid, ""), "standing": row, "hands": out}


def awards_json(res) -> dict:
    from host_tools.tournament import awards as awards_mod

    if not formats.get(res.tournament["format"]).awards:
        raise TournamentError("awards are defined for the Chinese Official formats (seed 000)")
    sessions = res.tournament["settings"].get("prelim_sessions", res.extra.get("sessions", 0)) or 0
    prelim = [s for s in (res.prelim or res.standings) if s.player not in res.disqualified]
    got = awards_mod.mcr_awards(prelim, exports.hand_records(res), sessions)
    names = res.names()
    pending = progress.incomplete_sessions(res, sessions)  # provisional until the sessions they cover are complete
    out = {}
    for key, a in got.items():
        out[key] = {"title": a.title, "winner": a.winner, "winner_name": names.get(a.winner, "") if a.winner else "",
                    "ranking": [{"player": x.player, "name": names.get(x.player, ""), "value": x.value} for x in a.ranking[:10]],
                    "provisional": bool(pending), "incomplete_sessions": pending}
        if a.hand is not None:
            out[key]["hand"] = {"session": a.hand.session, "table": a.hand.table, "hand": a.hand.hand, "fans": a.hand.fans}
    return out


@router.get("/tournaments/{tid}/awards", response={200: dict, 404: Error, 409: Error}, summary="Seed 000 awards over the preliminary sessions")
def awards(request, tid: str):
    res = _result(tid)
    try:
        return {"awards": awards_json(res)}
    except TournamentError as e:
        raise HttpError(409, str(e)) from None


def csv_response(text: str, name: str) -> HttpResponse:
    r = HttpResponse(text, content_type="text/csv; charset=utf-8")
    r["Content-Disposition"] = 'attachment; filename="%s"' % name
    return r


@router.get("/tournaments/{tid}/export/standings.csv", summary="Standings as CSV")
def export_standings(request, tid: str):
    res = _result(tid)
    return csv_response(exports.standings_csv(res), "%s-standings.csv" % tid)


@router.get("/tournaments/{tid}/export/hands.csv", summary="Counted hands as CSV")
def export_hands(request, tid: str):
    return csv_response(exports.hands_csv(_result(tid)), "%s-hands.csv" % tid)


@router.get("/tournaments/{tid}/export/ema.csv", summary="EMA results sheet (MCR)", response={200: None, 404: Error, 409: Error})
def export_ema(request, tid: str):
    res = _result(tid)
    try:
        return csv_response(exports.ema_csv(res), "%s-ema.csv" % tid)
    except TournamentError as e:
        raise HttpError(409, str(e)) from None


@router.get("/health", summary="Liveness and database")
def health(request):
    from django.db import connection

    out = {"status": "ok", "database": connection.vendor}
    if connection.vendor == "sqlite":  # durability as the server's own connections run
        with connection.cursor() as c:
            out["journal_mode"] = c.execute("PRAGMA journal_mode").fetchone()[0]
            out["synchronous"] = c.execute("PRAGMA synchronous").fetchone()[0]
    return out
