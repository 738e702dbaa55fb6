"""The referee's pages: the quarantine (accept or reject each record), penalties by picking a
player, play-offs, correcting a hand by player name, entering a whole hand when a box failed."""
from __future__ import annotations

from host_tools.server import numeric

from django.http import Http404
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from host_tools.server.boxes import referee
from host_tools.server.tournaments import formats, permissions
from host_tools.server.tournaments import referee as tref
from host_tools.server.tournaments.models import Penalty, Player, Seating

from .. import forms
from .common import actor, attempt, needs, page, result


def _players(t):
    return [(p.pid, "%s %s" % (p.pid, p.name)) for p in Player.objects.filter(tournament=t)]


@needs("referee")
@require_http_methods(["GET", "POST"])
def home(request, t):
    who = actor(request)
    pen = forms.PenaltyForm(_players(t), request.POST if request.POST.get("action") == "penalty" else None, prefix="pen")
    po = forms.PlayoffForm(request.POST if request.POST.get("action") == "playoff" else None, prefix="po")
    if request.method == "POST":
        a = request.POST.get("action")
        if a == "rule":
            f = forms.RulingForm(request.POST)
            if f.is_valid():
                d = f.cleaned_data
                attempt(request, None, lambda: referee.rule(who, t.id, d["record"], d["decision"], d["reason"]), _("Ruling saved."))
            return redirect(request.path)
        if a == "penalty" and pen.is_valid():
            d = pen.cleaned_data
            _r, ok = attempt(request, pen, lambda: tref.add_penalty(who, t.id, d["session"], d["player"], d["kind"], d["reason"],
                                                                   d["minutes"] or None if d["kind"] == "late" else None,
                                                                   d["points"] if d["kind"] == "points" else None,
                                                                   d.get("game") if d["kind"] == "late" else None), _("Penalty recorded."))
            if ok:
                return redirect(request.path)
        if a == "revoke":
            pid = request.POST.get("penalty", "")
            if numeric.digits(pid, 12):
                attempt(request, None, lambda: tref.revoke_penalty(who, t.id, int(pid)), _("Penalty revoked."))
            return redirect(request.path)
        if a == "playoff" and po.is_valid():
            d = po.cleaned_data
            _r, ok = attempt(request, po, lambda: tref.add_playoff(who, t.id, d["session"], d["table"], d["scores"]), _("Play-off recorded."))
            if ok:
                return redirect(request.path)
    res = result(t)
    q = [x for x in res.quarantine if not x["rejected"]]
    penalties = Penalty.objects.filter(tournament=t).order_by("-id")[:200]
    tables = sorted(res.tables)
    return page(request, "web/referee/home.html", t, "referee", quarantine=q, pen=pen, po=po, penalties=penalties, tables=tables)


@needs("referee")
@require_http_methods(["GET", "POST"])
def correct(request, t, session, table, number):
    res = result(t)
    tb = res.tables.get((session, table))
    h = next((x for x in tb.hands if x.number == number), None) if tb else None
    if h is None:
        raise Http404(_("No counted hand here"))
    players = [p for p in h.seats if p is not None]
    form = forms.CorrectionForm(players, res.names(), h.player_deltas(), request.POST or None)
    if request.method == "POST" and form.is_valid():
        _r, ok = attempt(request, form, lambda: referee.correct(actor(request), t.id, session, table, number, form.points(),
                                                               form.cleaned_data["reason"], form.deductions()), _("Hand corrected."))
        if ok:
            return redirect("/t/%s/tables/%d/%d" % (t.id, session, table))
    return page(request, "web/referee/correct.html", t, "referee", form=form, h=h, session=session, table=table, names=res.names())


@needs("referee")
@require_http_methods(["GET", "POST"])
def enter(request, t, session, table):
    res = result(t)
    tb = res.tables.get((session, table))
    seat = Seating.objects.filter(tournament=t, session=session).first()
    if seat is not None and seat.published_at is None and not permissions.can(request.user, t.id, "organizer"):
        seat = None  # a draft is the organizers' alone: the referee keys the chairs in
    row = seat.tables.filter(table=table).first() if seat else None
    chairs = list(tb.hands[-1].seats) if tb and tb.hands else (list(row.players) + [None] * (4 - len(row.players)) if row else [None] * 4)
    nxt = max([x.number for x in tb.hands], default=0) + 1 if tb else 1
    initial = {"hand": nxt, "dealer": (nxt - 1) % 4, "prevalent_wind": "ESWN"[((nxt - 1) // 4) % 4], "outcome": "win", "flowers": 0}
    for i, p in enumerate(chairs[:4]):
        initial["seat%d" % i] = p or ""
    form = forms.HandEntryForm(_players(t), request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        _r, ok = attempt(request, form, lambda: referee.enter_hand(actor(request), t.id, session, table, d["hand"], d["seats"], d["dealer"],
                                                                  d["prevalent_wind"], d["events"], d["reason"]), _("Hand entered."))
        if ok:
            return redirect("/t/%s/tables/%d/%d" % (t.id, session, table))
    return page(request, "web/referee/enter.html", t, "referee", form=form, session=session, table=table, rules=formats.of(t).rules)
