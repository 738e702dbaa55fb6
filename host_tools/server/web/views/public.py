"""Pages anyone may read: tournaments, standings (for the projector: reloads every 30 s),
the live board, tables, players, awards, a published seating and its printable table sheets,
and the exports."""
from __future__ import annotations

from host_tools.server import numeric

import time

from django.http import Http404
from django.utils.translation import gettext as _
from django.utils.translation import gettext_lazy
from django.utils.translation import ngettext

from host_tools.server.api.results import awards_json
from host_tools.server.boxes import actions as boxes
from host_tools.server.tournaments import actions, formats, permissions
from host_tools.server.tournaments.models import Player, Seating, Tournament
from host_tools.tournament.model import TournamentError

from .. import table_status
from . import live
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
                updated=int(time.time()), live=live.tag(t.id))


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
    now = int(time.time())
    # the hall's deadline: a table that started late gets no extra time unless a referee gives it
    cards = [table_status.status(t, res, current, table, seated.get(table, []), box_by_table.get(table), now)
             for table in sorted(set(seated) | {tb for s, tb in res.tables if s == current})]
    return page(request, "web/board.html", t, "board", cards=cards, session=current, sessions=sessions, refresh=REFRESH, live=live.tag(t.id))


def player(request, tid, pid):
    t = tournament_or_404(tid)
    res = result(t)
    p = Player.objects.filter(tournament=t, pid=pid).first()
    row = next((r for r in res.rows if r["player"] == pid), None)
    if p is None and row is None:
        raise Http404(_("No such player"))
    hands = [(h.session, h.table, h.number, h.deltas[h.seats.index(pid)]) for h in res.hands_of(pid)]
    return page(request, "web/player.html", t, "standings", p=p, pid=pid, row=row, hands=hands)


# seed 000 奖项设置: each award's name in the page's language, how it is decided, its count
AWARDS = {
    "most_wins": (gettext_lazy("Best attack (最佳进攻)"), gettext_lazy("Most hands won in the preliminary sessions; a tie goes to the better preliminary rank."),
                  lambda n: ngettext("%(n)d win", "%(n)d wins", n) % {"n": n}),
    "fewest_deal_ins": (gettext_lazy("Best defence (最佳防守)"),
                        gettext_lazy("Fewest deal-ins (discarding another player's winning tile) among the players who played every preliminary "
                           "session; a tie goes to the better preliminary rank."),
                        lambda n: ngettext("%(n)d deal-in", "%(n)d deal-ins", n) % {"n": n}),
    "biggest_hand": (gettext_lazy("Biggest hand (单盘最大番)"), gettext_lazy("The most fans in one winning hand (flowers included); a tie goes to the hand reached first."),
                     lambda n: ngettext("%(n)d fan", "%(n)d fans", n) % {"n": n}),
    "most_self_draws": (gettext_lazy("Self-draw king (自摸王)"),
                        gettext_lazy("Most wins by self-draw; a tie goes to the most self-draws in one session, then the better preliminary rank."),
                        lambda n: ngettext("%(n)d self-draw", "%(n)d self-draws", n) % {"n": n}),
}


def awards(request, tid):
    t = tournament_or_404(tid)
    try:
        aw = awards_json(result(t))
        err = None
    except TournamentError as e:
        aw, err = {}, str(e)
    cards = []
    for key, a in aw.items():
        title, how, count = AWARDS[key]
        cards.append(dict(a, key=key, name=title, how=how, ranking=[dict(x, text=count(x["value"])) for x in a["ranking"]],
                          hand_text=count(a["hand"]["fans"]) if a.get("hand") else ""))
    pending = next((a["incomplete_sessions"] for a in aw.values()), [])
    return page(request, "web/awards.html", t, "awards", cards=cards, error=err, pending=pending)


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
