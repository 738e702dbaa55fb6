"""Pages anyone may read: tournaments, standings (for the projector: reloads every 30 s),
the live board, tables, players, awards, a published seating and its printable table sheets,
and the exports."""
from __future__ import annotations

from host_tools.server import numeric

import time

from django.http import Http404
from django.utils.translation import gettext as _

from host_tools.server.api.results import awards_json, table_json
from host_tools.server.boxes import actions as boxes
from host_tools.server.tournaments import actions, formats, permissions
from host_tools.server.tournaments.models import Player, Seating, Tournament
from host_tools.tournament.model import TournamentError

from .common import page, result, tournament_or_404

REFRESH = 30


def index(request):
    ts = list(Tournament.objects.all())
    return page(request, "web/index.html", None, tournaments=ts, can_create=permissions.is_server_organizer(request.user))


def home(request, tid):
    t = tournament_or_404(tid)
    seatings = list(Seating.objects.filter(tournament=t).order_by("session"))
    return page(request, "web/home.html", t, "home", seatings=seatings, format_title=formats.of(t).title)


def standings(request, tid):
    t = tournament_or_404(tid)
    res = result(t)
    return page(request, "web/standings.html", t, "standings", res=res, rows=res.rows, std=formats.of(t).standard, refresh=REFRESH,
                waiting=sum(1 for q in res.quarantine if not q["accepted"] and not q["rejected"]), projector=request.GET.get("projector") == "1",
                updated=time.strftime("%H:%M:%S"))


def board(request, tid):
    """Each table of the current session: hands played, last sync, time left, its problems."""
    t = tournament_or_404(tid)
    res = result(t)
    sessions = sorted({s for s, _ in res.tables} | set(Seating.objects.filter(tournament=t, published_at__isnull=False).values_list("session", flat=True)))
    current = int(request.GET["session"]) if numeric.digits(request.GET.get("session", ""), 5) else (sessions[-1] if sessions else 1)
    seat = Seating.objects.filter(tournament=t, session=current).first()
    if seat is not None and seat.published_at is None and not permissions.can(request.user, t.id, "organizer"):
        seat = None  # a draft is the organizers' alone
    seated = {x.table: x.players for x in seat.tables.all()} if seat else {}
    box_by_table = {b["table"]: b for b in boxes.status(t.id) if b["table"] is not None}
    fmt = formats.of(t)
    minutes = fmt.minutes(t.settings)
    names = res.names()
    cards = []
    now = int(time.time())
    from host_tools.server.tournaments import clock
    deadline = clock.ends_at(t, current)  # the hall's: a table that started late gets no extra time
    for table in sorted(set(seated) | {tb for s, tb in res.tables if s == current}):
        tb = res.tables.get((current, table))
        hands = tb.n_hands if tb else 0
        started = tb.start.time if tb and tb.start else (tb.first_time() if tb else None)
        if deadline is not None:
            left = None if tb and tb.end else max(0, deadline - now) // 60
        else:
            left = None if started is None or (tb and tb.end) or minutes is None else max(0, minutes * 60 - (now - started)) // 60
        probs = []
        if tb is not None:
            from host_tools.server.results.compute import table_problems
            probs = table_problems(tb)
            if tb.quarantined:
                probs.insert(0, _("%(n)d record(s) in quarantine") % {"n": tb.quarantined})
        box = box_by_table.get(table)
        if box is None:
            probs.append(_("no box bound to this table"))
        elif box["unsynced"]:
            probs.append(_("%(n)d record(s) not synced") % {"n": box["unsynced"]})
        cards.append({"table": table, "players": [(p, names.get(p, "")) for p in seated.get(table, tb.players() if tb else [])],
                      "hands": hands, "of": fmt.hands, "ended": bool(tb and tb.end), "left": left,
                      "box": box, "problems": probs})
    return page(request, "web/board.html", t, "board", cards=cards, session=current, sessions=sessions, refresh=REFRESH)


def table(request, tid, session, number):
    t = tournament_or_404(tid)
    res = result(t)
    if (session, number) not in res.tables:
        raise Http404(_("No results for this table yet"))
    tj = table_json(res, session, number)
    names = res.names()
    for h in tj["hands"]:
        h["by_name"] = [(p, names.get(p, ""), h["points"].get(p)) for p in h["seats"] if p is not None]
        h["winner_names"] = [names.get(p) or p for p in h["winners"]]
        h["discarder_name"] = names.get(h["discarder"]) or h["discarder"] if h["discarder"] else ""
    role = permissions.role_in(request.user, t.id)
    return page(request, "web/table.html", t, "standings", tj=tj, can_correct=role is not None)


def player(request, tid, pid):
    t = tournament_or_404(tid)
    res = result(t)
    p = Player.objects.filter(tournament=t, pid=pid).first()
    row = next((r for r in res.rows if r["player"] == pid), None)
    if p is None and row is None:
        raise Http404(_("No such player"))
    hands = [(h.session, h.table, h.number, h.deltas[h.seats.index(pid)]) for h in res.hands_of(pid)]
    return page(request, "web/player.html", t, "standings", p=p, pid=pid, row=row, hands=hands)


def awards(request, tid):
    t = tournament_or_404(tid)
    try:
        aw = awards_json(result(t))
        err = None
    except TournamentError as e:
        aw, err = {}, str(e)
    return page(request, "web/awards.html", t, "awards", awards=aw, error=err)


def _seating_or_404(request, t, session):
    s, tables = actions.seating_tables(t, session)
    if s is None or (s.published_at is None and not permissions.can(request.user, t.id, "organizer")):
        raise Http404(_("No published seating for this session"))
    names = dict(Player.objects.filter(tournament=t).values_list("pid", "name"))
    winds = ("E", "S", "W", "N")
    rows = [{"table": x.number, "players": [(winds[i], p, names.get(p, "")) for i, p in enumerate(x.players)]} for x in tables]
    return s, rows


def seating(request, tid, session):
    t = tournament_or_404(tid)
    s, rows = _seating_or_404(request, t, session)
    return page(request, "web/seating.html", t, "seating", s=s, rows=rows, session=session, projector=True, bodyclass="projector")


def sheets(request, tid, session):
    t = tournament_or_404(tid)
    s, rows = _seating_or_404(request, t, session)
    fmt = formats.of(t)
    return page(request, "web/sheets.html", t, "seating", s=s, rows=rows, session=session, hands=fmt.hands,
                minutes=fmt.minutes(t.settings), projector=True)


def exports(request, tid):
    t = tournament_or_404(tid)
    return page(request, "web/exports.html", t, "exports", ema=formats.of(t).ema_sheet)
