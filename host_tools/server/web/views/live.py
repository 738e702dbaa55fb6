"""Pages that follow the tournament as it happens (the live board, standings and projector, a
table's page, the referee's page): a pushed hand or a box's referee call shows within ~1 s.

A poll with a validator, held by the server until the version moves (``web.live_wait``, which
says why, by measurement: bench/push_latency.py, docs/box_online.md); answered at once, it is a
cached read answered 304 while nothing changed. Each live page names its version in
``<meta name="live">``; ``/live.js`` (a file of its own: the pages' Content-Security-Policy allows
no inline script) asks ``/t/<id>/live?wait=1`` with If-None-Match, at most once a second, and
reloads the page when the version moved.

The version (the ETag): the tournament's ``results_version`` (bumped in the transaction of every
change that feeds the results, pushed records included) and the time of the latest referee call
of its boxes."""
from __future__ import annotations

import re
import threading
import time

from django.db import close_old_connections
from django.db.models import Max
from django.http import Http404, HttpResponse, HttpResponseNotModified

from host_tools.server.boxes.models import Device
from host_tools.server.tournaments.models import Tournament

POLL_MS = 1000

# the poll asks the server to hold it until the version moves (``web.live_wait``); an answer
# that comes sooner unchanged (a server that does not hold it) is followed by the rest of
# POLL_MS, and a page reloads at most once every POLL_MS (a burst of pushed hands is a reload a
# second, each a page the server renders)
JS = """(function () {
  var m = document.querySelector('meta[name="live"]');
  if (!m || !window.fetch) return;
  var url = m.getAttribute("content"), tag = m.getAttribute("data-etag"), loaded = Date.now();
  function poll() {
    var t0 = Date.now();
    fetch(url + "?wait=1", {cache: "no-store", headers: {"If-None-Match": tag}}).then(function (r) {
      var e = r.headers.get("ETag");
      if (r.status === 200 && e && e !== tag) {
        setTimeout(function () { location.reload(); }, Math.max(0, %d - (Date.now() - loaded)));
        return;
      }
      setTimeout(poll, Math.max(0, %d - (Date.now() - t0)));
    }).catch(function () { setTimeout(poll, 3 * %d); });
  }
  poll();
})();
""" % (POLL_MS, POLL_MS, POLL_MS)


def tag(tid: str):
    """The live version of tournament tid, or None when there is none."""
    v = Tournament.objects.filter(id=tid).values_list("results_version", flat=True).first()
    if v is None:
        return None
    called = Device.objects.filter(tournament_id=tid).aggregate(m=Max("referee_called_at"))["m"]
    return '"%d-%d"' % (v, int(called.timestamp() * 1000) if called else 0)


def version(request, tid):
    t = tag(tid)
    if t is None:
        raise Http404("no such tournament")
    if request.headers.get("If-None-Match") == t:
        r = HttpResponseNotModified()
    else:
        r = HttpResponse(t, content_type="text/plain")
    r["ETag"] = t
    r["Cache-Control"] = "no-cache"
    return r


def script(request):
    r = HttpResponse(JS, content_type="application/javascript")
    r["Cache-Control"] = "max-age=3600"
    return r


# The poll outside Django's request path: 300 viewers ask every second, and the middleware
# (sessions, locale, CSRF, auth, axes) cost more than the answer. The WSGI application
# (host_tools/server/wsgi.py) answers GET /t/<id>/live here; each worker reads a tournament's
# tag at most every CACHE_S (a moved version shows at most that much later).
CACHE_S = 0.2
_PATH = re.compile(r"^/t/([^/]{1,64})/live$")
_cache: dict = {}
_lock = threading.Lock()


def cached_tag(tid: str):
    now = time.monotonic()
    with _lock:
        hit = _cache.get(tid)
    if hit is not None and now - hit[0] < CACHE_S:
        return hit[1]
    t = tag(tid)
    if t is None:  # not cached: a tournament made a moment later is live at once
        return None
    with _lock:
        if len(_cache) > 1000:
            _cache.clear()
        _cache[tid] = (now, t)
    return t


def _tid(raw: str):
    """The tournament id of a WSGI path segment (bytes as latin-1), or None when it is not UTF-8
    or holds a control character (PostgreSQL refuses NUL in text)."""
    try:
        tid = raw.encode("latin-1").decode("utf-8")
    except UnicodeError:
        return None
    if any(ord(c) < 0x20 or ord(c) == 0x7F for c in tid):
        return None
    return tid


def shim(app):
    """The WSGI app with GET /t/<id>/live answered before Django's middleware."""
    def application(environ, start_response):
        m = _PATH.match(environ.get("PATH_INFO", ""))
        tid = _tid(m.group(1)) if m is not None and environ.get("REQUEST_METHOD") == "GET" else None
        if tid is None:  # anything else, or an id no tournament can have: Django answers it
            return app(environ, start_response)
        close_old_connections()
        try:
            t = cached_tag(tid)
        finally:
            close_old_connections()
        if t is None:  # no such tournament: Django's 404 page
            return app(environ, start_response)
        head = [("ETag", t), ("Cache-Control", "no-cache"), ("X-Content-Type-Options", "nosniff")]
        if environ.get("HTTP_IF_NONE_MATCH") == t:
            start_response("304 Not Modified", head)
            return [b""]
        body = t.encode()
        start_response("200 OK", head + [("Content-Type", "text/plain"), ("Content-Length", str(len(body)))])
        return [body]
    return application
