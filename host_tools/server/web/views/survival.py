"""The survival event's pages: the projector (players still in by score and where they play, the
places as they are decided, 冠亚季殿军 at the end, the multiplier now) and the referee's page (the
draw, the proposed next tables to confirm or swap, the tables playing)."""
from __future__ import annotations

import time

from django.contrib import messages
from django.http import Http404
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from host_tools.server.survival import actions
from host_tools.server.tournaments import permissions
from rules_min import survival as rules

from ..forms_survival import SurvivalTableForm
from .common import actor, attempt, needs, page, result, tournament_or_404
from .public import REFRESH


def _clock(doc: dict, now: int) -> dict:
    start = doc.get("start_time")
    if start is None or doc.get("ended") or now < start:
        return {}
    nxt = rules.next_step_s(start, now)
    return {"multiplier": rules.multiplier(now - start), "next_multiplier": rules.multiplier(nxt - start),
            "next_at": nxt, "elapsed": (now - start) // 60}


def _survival(t):
    if not actions.is_survival(t):
        raise Http404(_("This is not a survival event"))
    res = result(t)
    return res, res.extra.get("survival") or {}


def projector(request, tid):
    t = tournament_or_404(tid)
    res, doc = _survival(t)
    names = res.names()
    tables = {x["number"]: x for x in doc.get("tables", [])}
    playing: dict = {}
    for r in res.rows:
        if r["status"] == "playing":
            playing.setdefault(r["table"], []).append(r)
    running = [{"number": n, "hall_table": tables[n]["hall_table"] if n in tables else None, "final": tables.get(n, {}).get("final"),
                "lines": [dict(r, seat=tables[n]["seats"].index(r["player"]) if n in tables else None) for r in lines]}
               for n, lines in sorted(playing.items())]
    for tb in running:
        tb["lines"].sort(key=lambda r: r["seat"] if r["seat"] is not None else 9)
        for r in tb["lines"]:
            r["wind"] = "ESWN"[r["seat"]] if r["seat"] is not None else ""
    local = (_("Champion"), _("Runner-up"), _("Third place"), _("Fourth place"))
    podium = [dict(x, local=local[x["place"] - 1] if 1 <= x["place"] <= 4 else "") for x in doc.get("podium", [])]
    return page(request, "web/survival/projector.html", t, "survival", doc=doc, podium=podium, running=running, names=names,
                waiting=[r for r in res.rows if r["status"] == "waiting"], decided=[r for r in res.rows if r["rank"] is not None],
                clock=_clock(doc, int(time.time())), refresh=REFRESH, projector=request.GET.get("projector") == "1",
                updated=int(time.time()))


@needs("referee")
@require_http_methods(["GET", "POST"])
def referee(request, t):
    res, doc = _survival(t)
    who = actor(request)
    waiting = [(r["player"], "%s %s · %s" % (r["player"], r["name"], r["score"])) for r in res.rows if r["status"] == "waiting"]
    if request.method == "POST":
        a = request.POST.get("action")
        if a == "draw" and permissions.can(request.user, t.id, "organizer"):
            attempt(request, None, lambda: actions.draw(who, t.id), _("Drawn from the preliminary ranking."))
            return redirect(request.path)
        if a == "confirm_all":
            props = actions.proposals(t.id) if doc.get("drawn") else []
            attempt(request, None, lambda: actions.confirm(who, t.id, [{"seats": p["seats"], "hall_table": p["hall_table"]} for p in props]),
                    _("Tables confirmed: the boxes can fetch their configs."))
            return redirect(request.path)
        if a == "confirm":
            f = SurvivalTableForm(waiting, request.POST, prefix=request.POST.get("prefix", "p0"))
            if f.is_valid():
                attempt(request, None, lambda: actions.confirm(who, t.id, [f.table()]), _("Table confirmed: the box can fetch its config."))
            else:
                messages.error(request, "; ".join(" ".join(e) for e in f.errors.values()))
            return redirect(request.path)
    props = []
    if doc.get("drawn") and not doc.get("ended"):
        for i, p in enumerate(actions.proposals(t.id)):
            init = {"seat%d" % k: s for k, s in enumerate(p["seats"])}
            init["hall_table"] = p["hall_table"]
            props.append(dict(p, form=SurvivalTableForm(waiting, prefix="p%d" % i, initial=init), prefix="p%d" % i))
    swap = SurvivalTableForm(waiting, prefix="x", initial={"hall_table": 1}) if len(waiting) >= 4 else None
    return page(request, "web/survival/referee.html", t, "seat-tables", doc=doc, props=props, swap=swap, waiting=waiting,
                can_draw=permissions.can(request.user, t.id, "organizer") and not doc.get("tables"),
                problems=res.problems, clock=_clock(doc, int(time.time())))
