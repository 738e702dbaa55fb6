"""Boxes: register one (its key from the sync tool's --provision), bind it to a table, see its
last sync and the records it holds that the server has not got."""
from __future__ import annotations

from django.shortcuts import redirect
from django.utils.translation import gettext as _
from django.views.decorators.http import require_http_methods

from host_tools.server.boxes import actions as boxes
from host_tools.server.boxes.models import Device

from .. import forms
from .common import actor, attempt, needs, page


@needs("organizer")
@require_http_methods(["GET", "POST"])
def boxes_page(request, t):
    add = forms.DeviceForm(request.POST if request.POST.get("action") == "register" else None, prefix="box")
    who = actor(request)
    if request.method == "POST":
        a = request.POST.get("action")
        if a == "register" and add.is_valid():
            d = add.cleaned_data

            def go():
                if not Device.objects.filter(id=d["id"]).exists():
                    boxes.register(who, d["id"], bytes.fromhex(d["key"]), d["label"])
                return boxes.bind(who, d["id"], t.id, d["table"])

            _r, ok = attempt(request, add, go, _("Box %(b)s registered.") % {"b": d["id"]})
            if ok:
                return redirect(request.path)
        elif a == "bind":
            bind = forms.BindForm(request.POST)
            if bind.is_valid():
                d = bind.cleaned_data
                attempt(request, None, lambda: boxes.bind(who, d["device"], t.id if d["table"] else None, d["table"]), _("Binding saved."))
            return redirect(request.path)
    return page(request, "web/manage/boxes.html", t, "boxes", add=add, boxes=boxes.status(t.id))
