"""Seating of session N: generate it by the format's method (or another), swap chairs, publish
(the projector page, the table sheets and the boxes' configs follow from the published one)."""
from __future__ import annotations

from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from host_tools.server.api.tournaments import history, ranked_players
from host_tools.server.tournaments import actions, formats
from host_tools.server.tournaments.models import Player, Seating

from .. import forms
from .common import actor, attempt, needs, page


@needs("organizer")
def overview(request, t):
    last = Seating.objects.filter(tournament=t).order_by("-session").first()
    return redirect("/t/%s/manage/seating/%d" % (t.id, last.session if last else 1))


@needs("organizer")
@require_http_methods(["GET", "POST"])
def session_page(request, t, session):
    who = actor(request)
    s, tables = actions.seating_tables(t, session)
    seated = [(p, p) for x in tables for p in x.players]
    names = dict(Player.objects.filter(tournament=t).values_list("pid", "name"))
    seated = [(p, "%s %s" % (p, names.get(p, ""))) for p, _x in seated]
    gen = forms.SeatingForm(request.POST if request.POST.get("action") == "generate" else None, prefix="gen",
                            initial={"session": session, "method": formats.of(t).default_method(session)})
    swap = forms.SwapForm(seated, request.POST if request.POST.get("action") == "swap" else None, prefix="swap")
    if request.method == "POST":
        a = request.POST.get("action")
        if a == "generate" and gen.is_valid():
            n, m = gen.cleaned_data["session"], gen.cleaned_data["method"]

            def go():
                tabs, info = actions.generate(t, n, m, ranked_players(t.id), history(t, n))
                return actions.save_seating(who, t, n, tabs, m, info)

            _r, ok = attempt(request, gen, go, _("Seating of session %(n)d saved as a draft.") % {"n": n})
            if ok:
                return redirect("/t/%s/manage/seating/%d" % (t.id, n))
        elif a == "swap" and swap.is_valid():
            attempt(request, swap, lambda: actions.swap(who, t, session, swap.cleaned_data["a"], swap.cleaned_data["b"]), _("Swapped."))
            return redirect(request.path)
        elif a == "publish":
            attempt(request, None, lambda: actions.publish(who, t, session, request.POST.get("value") != "0"), _("Seating published.")
                    if request.POST.get("value") != "0" else _("Seating withdrawn."))
            return redirect(request.path)
    rows = [{"table": x.number, "players": [(w, p, names.get(p, "")) for w, p in zip("ESWN", x.players)]} for x in tables]
    sessions = list(Seating.objects.filter(tournament=t).values_list("session", "published_at"))
    return page(request, "web/manage/seating.html", t, "seating", s=s, rows=rows, session=session, gen=gen, swap=swap, sessions=sessions)
