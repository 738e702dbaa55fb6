"""The referee's page: the quarantine (accept or reject each record), penalties by picking a
player, play-offs, more time for a session, and every seated table (its page, ``tables``, is
where hands are entered and corrected)."""
from __future__ import annotations

from host_tools.server import errors, numeric

from django.contrib import messages
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from host_tools.server.boxes import claims, referee
from host_tools.server.tournaments import clock, formats
from host_tools.server.tournaments import referee as tref
from host_tools.server.tournaments.models import Penalty, Player, SeatingTable

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
    ext = forms.SessionExtendForm(request.POST if request.POST.get("action") == "extend" else None, prefix="ext")
    if request.method == "POST":
        a = request.POST.get("action")
        if a == "rule":
            f = forms.RulingForm(request.POST)
            if f.is_valid():
                d = f.cleaned_data
                attempt(request, None, lambda: referee.rule(who, t.id, d["record"], d["decision"], d["reason"]), _("Ruling saved."))
            return redirect(request.path)
        if a == "claim":
            f = forms.ClaimForm(request.POST)
            if f.is_valid():
                d = f.cleaned_data
                try:
                    c = claims.claim(who, t.id, d["device"], d["seq"], d["session"], d["table"])
                except (errors.Invalid, errors.Conflict, errors.NotFound) as e:
                    messages.error(request, str(e))
                else:
                    messages.success(request, _("%(n)d records claimed for session %(s)d table %(t)d.")
                                     % {"n": len(c.record_ids), "s": c.session, "t": c.table})
            return redirect(request.path)
        if a == "penalty" and pen.is_valid():
            d = pen.cleaned_data
            _r, ok = attempt(request, pen, lambda: tref.add_penalty(who, t.id, d["session"], d["player"], d["kind"], d["reason"],
                                                                   d["minutes"] or None if d["kind"] == "late" else None,
                                                                   d["points"] if d["kind"] == "points" else None,
                                                                   d.get("game") if d["kind"] == "late" else None), _("Penalty recorded."))
            if ok:
                return redirect(request.path)
        if a == "answer_call":  # a referee went to the table a box called from
            from host_tools.server.boxes import referee_call
            tb = request.POST.get("table", "")
            if numeric.digits(tb, 6):
                referee_call.clear(t.id, int(tb))
            return redirect(request.path)
        if a == "revoke":
            pid = request.POST.get("penalty", "")
            if numeric.digits(pid, 12):
                attempt(request, None, lambda: tref.revoke_penalty(who, t.id, int(pid)), _("Penalty revoked."))
            return redirect(request.path)
        if a == "extend" and ext.is_valid():
            d = ext.cleaned_data
            _r, ok = attempt(request, ext, lambda: clock.extend(who, t.id, d["session"], d["table"], d["minutes"], d["reason"]), _("Time extended."))
            if ok:
                return redirect(request.path)
        if a == "playoff" and po.is_valid():
            d = po.cleaned_data
            _r, ok = attempt(request, po, lambda: tref.add_playoff(who, t.id, d["session"], d["table"], d["scores"]), _("Play-off recorded."))
            if ok:
                return redirect(request.path)
    res = result(t)
    q = [x for x in res.quarantine if not x["rejected"]]
    penalties = Penalty.objects.filter(tournament=t).order_by("-id")[:200]
    seated = SeatingTable.objects.filter(seating__tournament=t, seating__published_at__isnull=False).values_list("seating__session", "table")
    by_session: dict = {}
    for s, tb in sorted(set(seated) | set(res.tables)):
        by_session.setdefault(s, []).append(tb)
    ended = set(res.snapshot.table_ends) | {k for k, tb in res.tables.items() if tb.end is not None}
    sessions = [(s, [(tb, (s, tb) in ended) for tb in tbs]) for s, tbs in sorted(by_session.items(), reverse=True)]
    if not ext.is_bound and sessions:
        ext.initial["session"] = sessions[0][0]
    from host_tools.server.boxes import referee_call

    from . import live
    return page(request, "web/referee/home.html", t, "referee", quarantine=q, pen=pen, po=po, ext=ext, penalties=penalties, sessions=sessions,
                has_limit=formats.of(t).minutes(t.settings) is not None, referee_calls=referee_call.calls(t.id), can_answer_call=True,
                live=live.tag(t.id))
