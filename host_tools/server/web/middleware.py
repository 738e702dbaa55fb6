"""Malformed requests are 400, before any view sees them: a JSON body that is not UTF-8, or that
escapes a lone surrogate or NUL (neither can be stored as text: PostgreSQL refuses them, and
Python cannot encode a lone surrogate), anywhere in the body; a NUL in the path, the query or a
form field (PostgreSQL refuses it even as a query parameter)."""
from __future__ import annotations

import re

from django.http import HttpResponseBadRequest, JsonResponse

_PAIR_LOW = re.compile(rb"\\u[dD][89abAB][0-9a-fA-F]{2}\\u[dD][c-fC-F][0-9a-fA-F]{2}")


def bad_json_body(body: bytes) -> str | None:
    try:
        body.decode("utf-8")
    except UnicodeDecodeError:
        return "the body is not UTF-8"
    if b"\\u" not in body:
        return None
    stripped = _PAIR_LOW.sub(b"", body)  # well-formed pairs are fine
    if re.search(rb"\\u[dD][89a-fA-F][0-9a-fA-F]{2}|\\u0000", stripped):
        return "the body holds a lone surrogate or NUL escape"
    return None


class BadRequestMiddleware:
    def __init__(self, get_response):
        self.get_response = get_response

    def __call__(self, request):
        if "\x00" in request.path or "%00" in request.META.get("QUERY_STRING", ""):
            return JsonResponse({"error": "NUL in the URL"}, status=400)
        if request.method == "POST" and request.content_type == "application/x-www-form-urlencoded":
            try:
                post = request.POST
            except Exception:
                return JsonResponse({"error": "the form cannot be read"}, status=400)
            if any("\x00" in k or any("\x00" in v for v in vs) for k, vs in post.lists()):
                return HttpResponseBadRequest("NUL in a form field")
        if request.method in ("POST", "PUT", "PATCH", "DELETE") and "json" in request.content_type:
            try:
                body = request.body
            except Exception:  # too large, unreadable
                return JsonResponse({"error": "the request body cannot be read"}, status=400)
            why = bad_json_body(body)
            if why:
                return JsonResponse({"error": why}, status=400)
        return self.get_response(request)


