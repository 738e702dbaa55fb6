"""The application ``serve`` runs in uvicorn's workers (``edge.worker``): the body cap, then
Django's WSGI application in a pool of ``threads`` threads (a2wsgi). The event loop receives
every request whole, however slowly its client sends it, before a thread takes it: a thread is
only ever busy with Django's own work, and keeps its database connection from one request to
the next (Django's own ASGI handler gave each request a new thread, so a new connection:
PostgreSQL uploads ran at a third of the rate, bench/server_bench.py)."""
import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "host_tools.server.settings")

from a2wsgi import WSGIMiddleware  # noqa: E402
from django.core.wsgi import get_wsgi_application  # noqa: E402

from host_tools.server.edge.body_cap import BodyCap  # noqa: E402
from host_tools.server.web.live_wait import LiveWait  # noqa: E402
from host_tools.server.web.views.live import shim  # noqa: E402


def application(threads: int = 32):
    # the live pages' poll is answered before Django's middleware (web/views/live.py: ~14 ms a
    # poll through it, 300 viewers a second would take the workers)
    # and held in the event loop, no thread, while nothing moved (web/live_wait.py)
    return BodyCap(LiveWait(WSGIMiddleware(shim(get_wsgi_application()), workers=threads)))
