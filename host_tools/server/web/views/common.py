"""What every page needs: the tournament, its format, the viewer's role in it, and role checks."""
from __future__ import annotations

from functools import wraps

from django.contrib import messages
from django.http import Http404, HttpResponseForbidden
from django.shortcuts import redirect, render
from django.utils import timezone
from django.utils.translation import gettext as _

from host_tools.server import errors
from host_tools.server.results import cache
from host_tools.server.tournaments import formats, permissions
from host_tools.server.tournaments.models import Tournament


def tournament_or_404(tid: str) -> Tournament:
    try:
        return Tournament.objects.get(id=tid)
    except Tournament.DoesNotExist:
        raise Http404(_("No such tournament")) from None


def hall_zone(t: Tournament | None):
    """The hall's time zone: the tournament's, else the server's (MT_TIME_ZONE)."""
    import zoneinfo

    from django.conf import settings

    try:
        return zoneinfo.ZoneInfo((t.time_zone if t is not None else "") or settings.TIME_ZONE)
    except (zoneinfo.ZoneInfoNotFoundError, ValueError):
        return zoneinfo.ZoneInfo("UTC")


def page(request, template: str, t: Tournament | None = None, section: str = "", **ctx):
    timezone.activate(hall_zone(t))  # the pages' times are the hall's (templatetags/hall.py)
    role = permissions.role_in(request.user, t.id) if t is not None else None
    fmt = formats.of(t) if t is not None else None  # what the templates ask of the format
    return render(request, template, dict(ctx, tournament=t, fmt=fmt, role=role, section=section))


def result(t: Tournament):
    return cache.result(t.id)


def needs(role: str):
    """View decorator: the viewer must hold ``role`` in the tournament of the URL."""
    def deco(view):
        @wraps(view)
        def wrapped(request, tid, *args, **kwargs):
            t = tournament_or_404(tid)
            if not request.user.is_authenticated:
                return redirect("/login/?next=" + request.path)
            if not permissions.can(request.user, t.id, role):
                return HttpResponseForbidden(_("This page needs the %(role)s role in this tournament.") % {"role": _(role)})
            return view(request, t, *args, **kwargs)
        return wrapped
    return deco


def attempt(request, form, fn, ok_message: str):
    """Run a domain action; its refusal becomes a form error (and nothing changes)."""
    try:
        out = fn()
    except (errors.Invalid, errors.Conflict, errors.NotFound, errors.Forbidden) as e:
        if form is not None:
            form.add_error(None, str(e))
        else:
            messages.error(request, str(e))
        return None, False
    messages.success(request, ok_message)
    return out, True


def actor(request) -> str:
    return permissions.actor(request.user)
