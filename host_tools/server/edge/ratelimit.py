"""Rate limits on anonymous requests, per client address (``client_ip``: the proxy's client behind
``--tls``): a token bucket per address and kind of request, refilled at ``rate`` a second up to
``burst``; an empty bucket answers 429 with Retry-After, before any view or database work.
Organizers and referees (a valid bearer token or a logged-in session) are not limited.

Kinds: ``login`` (the login form and POST /api/login: axes also locks an address after ten
failures), ``box`` (signed uploads and box configs: a sync laptop uploads many boxes' journals
from one address), ``read`` (pages, standings, exports: a projector reloads every 30 s), ``other``
(an anonymous request to any other route: it is refused anyway, so it may not cost much).

The buckets live in each worker process's memory: with W workers an address may get up to W
times the figures below (a request goes to any worker). That bounds what one address costs a
server, which is the point; the login throttle that must hold across instances is axes', in the
database. ``MT_RATE_LIMITS=off`` turns them off (the tests' and benchmarks' clients all come
from 127.0.0.1, standing in for a hall of boxes)."""
from __future__ import annotations

import math
import threading
import time

from django.conf import settings
from django.http import HttpResponse, JsonResponse

from host_tools.server.edge.client_ip import client_ip

# kind: (tokens a second, burst)
LIMITS = {"login": (0.5, 10), "box": (50.0, 400), "read": (10.0, 120), "other": (1.0, 20)}
MAX_KEYS = 100_000  # addresses remembered; full buckets are forgotten first


def kind_of(request) -> str | None:
    """None: not limited (the pages' two static files, which browsers cache for an hour)."""
    path = request.path_info
    if path.startswith("/static/"):
        return None
    if path in ("/login/", "/api/login") and request.method == "POST":
        return "login"
    if path.startswith(("/api/records", "/api/boxes/")):
        return "box"
    if request.method in ("GET", "HEAD"):
        return "read"
    return "other"


class Buckets:
    def __init__(self, limits: dict = LIMITS):
        self.limits = limits
        self.state: dict = {}
        self.lock = threading.Lock()

    def take(self, key: tuple, now: float | None = None) -> float:
        """0 when the request may go; else the seconds until it could."""
        rate, burst = self.limits[key[1]]
        now = time.monotonic() if now is None else now
        with self.lock:
            tokens, last = self.state.get(key, (burst, now))
            tokens = min(burst, tokens + (now - last) * rate)
            if tokens < 1:
                self.state[key] = (tokens, now)
                return (1 - tokens) / rate
            self.state[key] = (tokens - 1, now)
            if len(self.state) > MAX_KEYS:
                self.forget(now)
            return 0.0

    def forget(self, now: float) -> None:
        for k, (tokens, last) in list(self.state.items()):
            rate, burst = self.limits[k[1]]
            if tokens + (now - last) * rate >= burst:
                del self.state[k]


def known_user(request) -> bool:
    if getattr(request, "user", None) is not None and request.user.is_authenticated:
        return True
    if request.headers.get("Authorization", "").startswith("Bearer "):
        from host_tools.server.api.core import viewer

        user = viewer(request)
        return user is not None and user.is_authenticated
    return False


class RateLimitMiddleware:
    """After AuthenticationMiddleware (it needs to know who is logged in)."""

    def __init__(self, get_response):
        self.get_response = get_response
        self.buckets = Buckets()
        self.on = getattr(settings, "RATE_LIMITS", True)

    def __call__(self, request):
        kind = kind_of(request) if self.on else None
        if kind is not None and not known_user(request):
            wait = self.buckets.take((client_ip(request), kind))
            if wait:
                retry = str(max(1, math.ceil(wait)))
                if request.path_info.startswith("/api/"):
                    r = JsonResponse({"error": "too many requests from this address: try again in %s s" % retry}, status=429)
                else:
                    r = HttpResponse("Too many requests: try again in %s seconds." % retry, status=429, content_type="text/plain; charset=utf-8")
                r["Retry-After"] = retry
                return r
        return self.get_response(request)
