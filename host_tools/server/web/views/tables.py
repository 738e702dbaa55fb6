"""A seated table's page, from the moment its seating is published (no seated table answers
404): its players by chair, its box or none, hands so far, time left; and what a referee does
there: enter a hand, correct any hand by its tiles (or its points only), a penalty, more time,
re-seat players found in the wrong chairs, swap the box, end the table. Reached from the live
board, the referee page and the seating."""
from __future__ import annotations

from django.core.exceptions import ValidationError
from django.http import Http404
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from host_tools.server.api.results import table_json
from host_tools.server.boxes import actions as boxes
from host_tools.server.boxes import referee, referee_call, rescore, swap
from host_tools.server.boxes.models import Correction, Hand
from host_tools.server.tournaments import clock, formats, permissions
from host_tools.server.tournaments import referee as tref
from host_tools.server.tournaments import tables as ttables
from host_tools.server.tournaments.models import Player
from host_tools.tournament.seating import mcr_round_chairs

from .. import forms, hand_forms, table_status
from . import live
from .common import actor, attempt, needs, page, result, tournament_or_404


def _seated(request, t, session: int, table: int):
    """The table's chairs in the seating (a draft only for its organizers), or None."""
    return ttables.seated(t, session, table, drafts=permissions.can(request.user, t.id, "organizer"))


def _players(t):
    return [(p.pid, "%s %s" % (p.pid, p.name)) for p in Player.objects.filter(tournament=t)]


def _named(seats, names) -> list:
    return [(i + 1, p, names.get(p, "")) for i, p in enumerate(seats) if p is not None]


def _table_players(chairs, names):
    return [(p, "%d · %s" % (i + 1, names.get(p) or p)) for i, p in enumerate(chairs) if p is not None]


class _Actions:
    """The forms of the table page's referee actions (each posts ``action``)."""

    def __init__(self, request, t, session, table, chairs, names):
        post = request.POST if request.method == "POST" else None
        a = post.get("action") if post else None
        self.pen = forms.TablePenaltyForm(_table_players(chairs, names), post if a == "penalty" else None, prefix="pen")
        self.time = forms.ExtendForm(post if a == "extend" else None, prefix="time")
        self.end = forms.EndTableForm(post if a == "end" else None, prefix="end")
        self.box = forms.SwapBoxForm(swap.spares(t.id), post if a == "swap" else None, prefix="box")
        self.action = a


@require_http_methods(["GET", "POST"])
def table(request, tid, session, number):
    t = tournament_or_404(tid)
    res = result(t)
    chairs = _seated(request, t, session, number)
    if chairs is None and (session, number) not in res.tables:
        raise Http404(_("Table %(t)d is not seated in session %(s)d") % {"t": number, "s": session})
    role = permissions.role_in(request.user, t.id)
    names = res.names()
    forms_ = _Actions(request, t, session, number, chairs or [], names) if role else None
    if request.method == "POST":
        if role is None:
            return redirect("/login/?next=" + request.path)
        done = _act(request, t, session, number, forms_)
        if done:
            return redirect(request.path)
    box = next((b for b in boxes.status(t.id) if b["table"] == number), None)
    st = table_status.status(t, res, session, number, chairs or [], box, flag_no_box=False)
    tj = table_json(res, session, number) if (session, number) in res.tables else {"hands": [], "players": [], "quarantine": [], "problems": []}
    for h in tj["hands"]:
        h["by_name"] = [(i + 1, p, names.get(p, ""), h["points"].get(p)) for i, p in enumerate(h["seats"]) if p is not None]
        h["winner_names"] = [names.get(p) or p for p in h["winners"]]
        h["discarder_name"] = names.get(h["discarder"]) or h["discarder"] if h["discarder"] else ""
    totals = {p["player"]: p for p in tj["players"]}
    for c in st["chairs"]:
        c["total"] = totals.get(c["player"])
    fmt = formats.of(t)
    quick = _quick_entry(t, res, session, number, chairs) if role and chairs is not None and not st["ended"] else None
    return page(request, "web/table.html", t, "board", tj=tj, st=st, session=session, number=number, can_correct=role is not None,
                forms=forms_, rules=fmt.rules, next_hand=_next_number(res, session, number), has_limit=fmt.minutes(t.settings) is not None,
                seated=chairs is not None, quick=quick, referee_calls=referee_call.calls(t.id, number), live=live.tag(t.id))


QUICK_FRAME = ("hand", "seat0", "seat1", "seat2", "seat3", "dealer", "prevalent_wind", "end", "reason")


def _quick_entry(t, res, session, table, chairs) -> dict:
    """The next hand's win, keyed on the table's page: the hand form with its frame filled in
    (hidden: number, chairs, dealer, wind) and one row, a win. It posts to the hand form's page,
    which shows the whole form again if anything is wrong."""
    form, rows = _next_hand_forms(t, res, session, table, chairs, rows=1)
    row = rows.forms[0]
    row.fields["chair"].label = _("Winner (chair)")
    row.fields["source"].label = _("On the discard of")
    shown = [row[n] for n in ("chair", "source", "hand", "flowers", "missing_suit", "horses") if n in row.fields]
    return {"hand": form["hand"].value(), "frame": [form[n] for n in QUICK_FRAME if n in form.fields], "rows": rows, "kind": row["kind"],
            "shown": shown, "flags": row["flags"]}


def _act(request, t, session, table, f) -> bool:
    who = actor(request)
    a = f.action
    if a == "penalty" and f.pen.is_valid():
        d = f.pen.cleaned_data
        _r, ok = attempt(request, f.pen, lambda: tref.add_penalty(who, t.id, session, d["player"], d["kind"], d["reason"],
                                                               d["minutes"] or None if d["kind"] == "late" else None,
                                                               d["points"] if d["kind"] == "points" else None), _("Penalty recorded."))
        return ok
    if a == "extend" and f.time.is_valid():
        d = f.time.cleaned_data
        _r, ok = attempt(request, f.time, lambda: clock.extend(who, t.id, session, None if d["every_table"] else table, d["minutes"], d["reason"]),
                         _("Time extended."))
        return ok
    if a == "end" and f.end.is_valid():
        _r, ok = attempt(request, f.end, lambda: ttables.end_table(who, t.id, session, table, f.end.cleaned_data["reason"]), _("Table ended."))
        return ok
    if a == "reopen":
        reason = request.POST.get("reason", "").strip() or _("reopened")
        _r, ok = attempt(request, None, lambda: ttables.reopen_table(who, t.id, session, table, reason), _("Table reopened."))
        return ok
    if a == "swap" and f.box.is_valid():
        _r, ok = attempt(request, f.box, lambda: swap.swap_box(who, t.id, table, f.box.cleaned_data["device"]), _("Box swapped."))
        return ok
    return False


# --------------------------------------------------------------------------- a hand keyed by hand

def _next_number(res, session, table) -> int:
    tb = res.tables.get((session, table))
    return max([h.number for h in tb.hands], default=0) + 1 if tb else 1


def _next_hand(t, res, session, table, chairs) -> dict:
    """Hand number, players by chair, dealer and prevalent wind of the table's next hand: MCR's
    chairs change every round (seed 000 换位), its dealer passes every hand; elsewhere the
    players keep their chairs and the dealer is the last hand's next one."""
    tb = res.tables.get((session, table))
    hands = tb.hands if tb else []
    n = _next_number(res, session, table)
    start = list(chairs) if chairs else (list(hands[0].seats) if hands else [None] * 4)
    start += [None] * (4 - len(start))
    rules = formats.of(t).rules
    if rules == "mcr" and None not in start and n <= 16:
        seats = list(mcr_round_chairs(start)[(n - 1) // 4])
        return {"hand": n, "seats": seats, "dealer": (n - 1) % 4, "prevalent_wind": "ESWN"[(n - 1) // 4]}
    seats = list(hands[-1].seats) if hands else start
    dealer = 0
    if hands:
        last = Hand.objects.filter(id=hands[-1].id).select_related("record").first()
        nd = (last.entry or {}).get("next_dealer") if last.entry else (last.record.body.get("next_dealer") if last.record_id else None)
        dealer = nd if isinstance(nd, int) and 0 <= nd < 4 else hands[-1].dealer
    return {"hand": n, "seats": seats, "dealer": dealer, "prevalent_wind": "E"}


def _rows_count(request) -> int:
    v = request.GET.get("rows", "")
    return min(hand_forms.MAX_ROWS, int(v)) if v.isdigit() and 0 < len(v) < 3 else hand_forms.ROWS


@needs("referee")
@require_http_methods(["GET", "POST"])
def enter(request, t, session, table):
    res = result(t)
    chairs = _seated(request, t, session, table)
    if chairs is None and (session, table) not in res.tables:
        raise Http404(_("Table %(t)d is not seated in session %(s)d") % {"t": table, "s": session})
    data = request.POST if request.method == "POST" else None
    form, rows = _next_hand_forms(t, res, session, table, chairs, data, _rows_count(request))

    def act(d, events):
        why = d["reason"].strip() or "keyed from the table's page"
        return referee.enter_hand(actor(request), t.id, session, table, d["hand"], d["seats"], d["dealer"], d["prevalent_wind"], events, why)

    done = _save(request, t, session, table, form, rows, act, lambda d: _("Hand %(n)d entered.") % {"n": d["hand"]})
    if done is not None:
        return done
    return page(request, "web/referee/enter.html", t, "referee", form=form, rows=rows, session=session, table=table, rules=formats.of(t).rules,
                entering=True, more=min(hand_forms.MAX_ROWS, rows.total_form_count() + 4))


def _next_hand_forms(t, res, session, table, chairs, data=None, rows=hand_forms.ROWS):
    """The form of the table's next hand, its frame filled in (number, chairs, dealer, wind),
    and its event rows, the first a win."""
    rules = formats.of(t).rules
    names = res.names()
    nxt = _next_hand(t, res, session, table, chairs)
    initial = {"hand": nxt["hand"], "dealer": nxt["dealer"], "prevalent_wind": nxt["prevalent_wind"], "end": hand_forms.END_WIN}
    for i, p in enumerate(nxt["seats"]):
        initial["seat%d" % i] = p or ""
    form = hand_forms.HandForm(rules, nxt["seats"], names, _players(t), True, data, initial=initial)
    return form, hand_forms.event_rows(rules, nxt["seats"], names, nxt["dealer"], data, initial=[{"kind": "win"}], rows=rows)


def _save(request, t, session, table, form, rows, act, message):
    """A keyed hand settled and stored by ``act(cleaned data, events)``: the table's page after
    it, or None (the form says what is wrong, nothing changed)."""
    if not (form.is_bound and form.is_valid() and rows.is_valid()):
        return None
    d = form.cleaned_data
    try:
        events = hand_forms.events_from(form, rows)
    except ValidationError as e:
        form.add_error(None, e)
        return None
    _r, ok = attempt(request, form, lambda: act(d, events), message(d))
    return redirect("/t/%s/tables/%d/%d" % (t.id, session, table)) if ok else None


def _counted(res, session, table, number):
    tb = res.tables.get((session, table))
    h = next((x for x in tb.hands if x.number == number), None) if tb else None
    if h is None:
        raise Http404(_("No counted hand here"))
    return h


@needs("referee")
@require_http_methods(["GET", "POST"])
def correct(request, t, session, table, number):
    """Correct a counted hand by its tiles: keyed again (pre-filled with what was keyed), settled
    again by rules_min."""
    res = result(t)
    h = _counted(res, session, table, number)
    row = Hand.objects.select_related("record").get(id=h.id)
    last = Correction.objects.filter(hand=row, rescored__isnull=False).order_by("-id").first()
    keyed = rescore.events_of(row, last) or {"dealer": h.dealer, "prevalent_wind": "E", "events": []}
    rules = formats.of(t).rules
    names = res.names()
    seats = list(h.seats)  # the players who sat there (a re-seat applied); chairs as recorded
    ev_rows, end, still = hand_forms.initial_rows(keyed["events"])
    initial = dict(still, dealer=keyed["dealer"], prevalent_wind=keyed["prevalent_wind"], end=end)
    data = request.POST if request.method == "POST" else None
    form = hand_forms.HandForm(rules, seats, names, [], False, data, initial=initial)
    rows = hand_forms.event_rows(rules, seats, names, keyed["dealer"], data, initial=ev_rows or [{"kind": "win"}],
                                 rows=max(_rows_count(request), len(ev_rows) + 1))
    done = _save(request, t, session, table, form, rows,
                 lambda d, events: rescore.rescore(actor(request), t.id, session, table, number, d["dealer"], d["prevalent_wind"], events,
                                                   d["reason"]), lambda d: _("Hand corrected."))
    if done is not None:
        return done
    return page(request, "web/referee/enter.html", t, "referee", form=form, rows=rows, session=session, table=table, rules=rules,
                entering=False, h=h, chairs_named=_named(seats, names), more=min(hand_forms.MAX_ROWS, rows.total_form_count() + 4))


@needs("referee")
@require_http_methods(["GET", "POST"])
def correct_points(request, t, session, table, number):
    """Correct a hand's points only, by player (what a referee rules without the tiles)."""
    res = result(t)
    h = _counted(res, session, table, number)
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
def reseat(request, t, session, table):
    """Players found in the wrong chairs: who really sat in each chair, and the hands it applies to."""
    res = result(t)
    chairs = ttables.seated(t, session, table)
    if chairs is None:
        raise Http404(_("Table %(t)d is not seated in session %(s)d") % {"t": table, "s": session})
    names = res.names()
    last = _next_number(res, session, table) - 1
    choices = [(p, "%s %s" % (p, names.get(p, ""))) for p in chairs]
    # a box keeps the chairs of the session it is playing (firmware/scorebook.py retime refuses a
    # config with other players): at a table with a box the players go back to their chairs
    from host_tools.server.boxes.models import Device
    has_box = Device.objects.filter(tournament=t, table=table, active=True).exists()
    initial = {"first_hand": 1, "last_hand": max(1, last), "move_seating": not has_box}
    initial.update({"chair%d" % i: p for i, p in enumerate(chairs)})
    form = forms.ReseatForm(choices, request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        _r, ok = attempt(request, form, lambda: ttables.reseat(actor(request), t.id, session, table, form.actual(), d["first_hand"], d["last_hand"],
                                                              d["reason"], d["move_seating"]), _("Table re-seated."))
        if ok:
            return redirect("/t/%s/tables/%d/%d" % (t.id, session, table))
    return page(request, "web/referee/reseat.html", t, "referee", form=form, session=session, table=table, chairs_named=_named(chairs, names),
                last=last)
