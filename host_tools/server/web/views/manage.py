"""The organizer's pages: a new tournament and its settings, players (add, edit, CSV import,
check-in, absences, substitutes, withdrawals), accounts and roles, the audit log."""
from __future__ import annotations

from django.contrib.auth import get_user_model
from django.db.models import Max
from django.http import HttpResponseForbidden
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from host_tools.server import errors
from host_tools.server.api.tournaments import players_from_csv
from host_tools.server.tournaments import actions, audit, permissions
from host_tools.server.tournaments.models import Absence, Player, Role, Seating

from .. import forms
from .common import actor, attempt, needs, page


@require_http_methods(["GET", "POST"])
def new_tournament(request):
    if not permissions.is_server_organizer(request.user):
        return redirect("/login/?next=/manage/new") if not request.user.is_authenticated else HttpResponseForbidden(_("Only server organizers create tournaments."))
    form = forms.TournamentForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        d = form.cleaned_data
        t, ok = attempt(request, form, lambda: actions.create_tournament(actor(request), d["id"], d["name"], d["format"], None), _("Tournament created."))
        if ok:
            return redirect("/t/%s/manage/" % t.id)
    return page(request, "web/manage/new.html", None, form=form)


@needs("organizer")
@require_http_methods(["GET", "POST"])
def settings(request, t):
    initial = dict(t.settings, name=t.name, **actions.details_dict(t))
    form = forms.SettingsForm(t.format, request.POST or None, initial=initial)
    if request.method == "POST" and form.is_valid():
        _t, ok = attempt(request, form, lambda: actions.update_tournament(actor(request), t.id, form.cleaned_data["name"], form.settings(),
                                                                         form.details()), _("Settings saved."))
        if ok:
            return redirect(request.path)
    return page(request, "web/manage/settings.html", t, "settings", form=form)


def _player_choices(t, include_subs=True):
    return [(p.pid, "%s %s" % (p.pid, p.name)) for p in Player.objects.filter(tournament=t) if include_subs or not p.substitute]


@needs("organizer")
@require_http_methods(["GET", "POST"])
def players(request, t):
    add = forms.PlayerForm(request.POST if request.POST.get("action") == "add" else None, prefix="add")
    upload = forms.CsvImportForm(request.POST if request.POST.get("action") == "import" else None, request.FILES or None, prefix="csv")
    absence = forms.AbsenceForm(_player_choices(t), request.POST if request.POST.get("action") == "absence" else None, prefix="abs")
    who = actor(request)
    if request.method == "POST":
        a = request.POST.get("action")
        if a == "add" and add.is_valid():
            d = add.cleaned_data
            _r, ok = attempt(request, add, lambda: actions.import_players(who, t.id, [d]), _("Player %(p)s saved.") % {"p": d["id"]})
            if ok:
                return redirect(request.path)
        elif a == "import" and upload.is_valid():
            f = upload.cleaned_data["file"]
            if f.size > 2 * 1024 * 1024:
                upload.add_error(None, _("the file is larger than 2 MB"))
            else:
                try:
                    items = players_from_csv(f.read().decode("utf-8-sig"))
                except UnicodeDecodeError:
                    items = None
                    upload.add_error(None, _("the file is not UTF-8 text"))
                except errors.Invalid as e:
                    items = None
                    upload.add_error(None, str(e))
                if items is not None:
                    r, ok = attempt(request, upload, lambda: actions.import_players(who, t.id, items), _("Import done."))
                    if ok:
                        return redirect(request.path)
        elif a == "checkin":
            pid = request.POST.get("player", "")
            attempt(request, None, lambda: actions.update_player(who, t.id, pid, checked_in=request.POST.get("value") == "1"), _("Check-in saved."))
            return redirect(request.path)
        elif a == "checkin-all":
            present = request.POST.getlist("present")
            attempt(request, None, lambda: actions.check_in(who, t.id, present), _("Check-in saved: %(n)d present.") % {"n": len(present)})
            return redirect(request.path)
        elif a == "absence" and absence.is_valid():
            d = absence.cleaned_data
            _r, ok = attempt(request, absence, lambda: actions.set_absent(who, t.id, d["session"], d["player"], d["absent"], d["reason"]), _("Absence saved."))
            if ok:
                return redirect(request.path)
    ps = list(Player.objects.filter(tournament=t))
    absences = list(Absence.objects.filter(tournament=t).select_related("player").order_by("session"))
    # the check-in form ticks who is checked in; before anyone is, everyone expected at the next
    # session (not absent from it, not withdrawn): the organizer unticks who is missing
    nxt = (Seating.objects.filter(tournament=t, published_at__isnull=False).aggregate(m=Max("session"))["m"] or 0) + 1
    away = {a.player.pid for a in absences if a.session == nxt}
    anyone = any(p.checked_in for p in ps)
    for p in ps:
        p.tick = p.checked_in if anyone else (p.active_in(nxt) and p.pid not in away)
    return page(request, "web/manage/players.html", t, "players", players=ps, add=add, upload=upload, absence=absence, absences=absences,
                checked=sum(1 for p in ps if p.checked_in), next_session=nxt)


@needs("organizer")
@require_http_methods(["GET", "POST"])
def player_edit(request, t, pid):
    p = Player.objects.filter(tournament=t, pid=pid).first()
    if p is None:
        return redirect("/t/%s/manage/players" % t.id)
    form = forms.PlayerEditForm(request.POST or None, initial=actions.player_dict(p))
    if request.method == "POST" and form.is_valid():
        d = dict(form.cleaned_data)
        _r, ok = attempt(request, form, lambda: actions.update_player(actor(request), t.id, pid, **d), _("Player saved."))
        if ok:
            return redirect("/t/%s/manage/players" % t.id)
    return page(request, "web/manage/player.html", t, "players", form=form, p=p)


@needs("organizer")
@require_http_methods(["GET", "POST"])
def accounts(request, t):
    new = forms.AccountForm(request.POST if request.POST.get("action") == "create" else None, prefix="new")
    role = forms.RoleForm(request.POST if request.POST.get("action") == "role" else None, prefix="role")
    who = actor(request)
    if request.method == "POST":
        if request.POST.get("action") == "create" and new.is_valid():
            d = new.cleaned_data
            _r, ok = attempt(request, new, lambda: actions.create_account(who, d["username"], d["password"], t.id, d["role"]), _("Account created."))
            if ok:
                return redirect(request.path)
        elif request.POST.get("action") == "role" and role.is_valid():
            d = role.cleaned_data
            _r, ok = attempt(request, role, lambda: actions.set_role(who, t.id, d["username"], d["role"] or None), _("Role saved."))
            if ok:
                return redirect(request.path)
    roles = Role.objects.filter(tournament=t).select_related("user").order_by("user__username")
    organizers = get_user_model().objects.filter(is_superuser=True, is_active=True).order_by("username")
    return page(request, "web/manage/accounts.html", t, "accounts", new=new, role=role, roles=roles, organizers=organizers)


@needs("organizer")
def audit_log(request, t):
    return page(request, "web/manage/audit.html", t, "audit", rows=audit.rows(t.id, 1000))
