"""Boxes: register one (its key from the sync tool's --provision), bind it to a table, see its
last sync and the records it holds that the server has not got; set the language and referee PIN
of the tournament's boxes (issue 18.6); a page per box accounts for every record it sent. Who may touch a box is ``boxes.ownership``'s, as on the API: this
tournament's organizers change this tournament's boxes only."""
from __future__ import annotations

from django.http import Http404
from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from host_tools.server.boxes import accounting, box_settings, ownership
from host_tools.server.boxes import actions as boxes
from host_tools.server.boxes.models import Binding, Device

from protocol.config import FACTORY_PIN

from .. import forms
from ..forms_box_settings import BoxSettingsForm
from .common import actor, attempt, needs, page


@needs("organizer")
@require_http_methods(["GET", "POST"])
def boxes_page(request, t):
    add = forms.DeviceForm(request.POST if request.POST.get("action") == "register" else None, prefix="box")
    current = box_settings.get(t.id)
    settings = BoxSettingsForm(request.POST if request.POST.get("action") == "settings" else None, prefix="set",
                               initial={"lang": current["lang"]})
    if request.method == "POST":
        a = request.POST.get("action")
        if a == "settings" and settings.is_valid():
            d = settings.cleaned_data
            _r, ok = attempt(request, settings, lambda: box_settings.update(actor(request), t.id, d["lang"], d["pin"] or None, d["factory_pin"]),
                             _("Box settings saved: the boxes take them with their next config."))
            if ok:
                return redirect(request.path)
        if a == "register" and add.is_valid():
            d = add.cleaned_data
            _r, ok = attempt(request, add, lambda: ownership.register_or_bind(request.user, d["id"], bytes.fromhex(d["key"]), d["label"], t.id,
                                                                              d["table"]), _("Box %(b)s registered.") % {"b": d["id"]})
            if ok:
                return redirect(request.path)
        elif a == "bind":
            bind = forms.BindForm(request.POST)
            if bind.is_valid():
                d = bind.cleaned_data
                # an empty table takes the box off its table: it stays this tournament's
                attempt(request, None, lambda: ownership.bind(request.user, d["device"], t.id, d["table"]), _("Binding saved."))
            return redirect(request.path)
    return page(request, "web/manage/boxes.html", t, "boxes", add=add, boxes=boxes.status(t.id), settings=settings,
                factory_pin=current["factory_pin"], factory_pin_value=FACTORY_PIN)


@needs("organizer")
@require_http_methods(["GET"])
def box_page(request, t, device):
    """Every record the box sent, accounted for (``boxes.accounting``): a box of this tournament,
    now or in its binding history."""
    if not (Device.objects.filter(id=device, tournament_id=t.id).exists() or Binding.objects.filter(device_id=device, tournament=t.id).exists()):
        raise Http404(_("No such box in this tournament"))
    acc = accounting.of_box(device)
    return page(request, "web/manage/box.html", t, "boxes", box=acc, history=boxes.history(device))
