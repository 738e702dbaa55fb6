"""An unknown tournament id answers 404 on every route, API and pages, before any view, form or
body validation runs: a route whose URL names ``tid`` needs that tournament to exist (one
primary-key lookup). Views then never meet a missing tournament halfway (the quarantine and
rulings routes answered 500 with a traceback)."""
from __future__ import annotations

from django.http import Http404, JsonResponse
from django.urls import Resolver404, resolve
from django.utils.translation import gettext as _

from host_tools.server.tournaments.models import Tournament


class UnknownTournamentMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        try:
            match = resolve(request.path_info)
        except Resolver404:
            return self.get_response(request)
        tid = match.kwargs.get("tid")
        if tid is not None and not Tournament.objects.filter(id=tid).exists():
            if request.path_info.startswith("/api/"):
                return JsonResponse({"error": "no tournament %r" % tid}, status=404)
            raise Http404(_("No such tournament"))
        return self.get_response(request)
