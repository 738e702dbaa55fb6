"""The ASGI application ``serve`` runs under uvicorn (``edge.worker``): Django behind the
request-body cap (``serve`` sets the environment first)."""
import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "host_tools.server.settings")

from django.core.asgi import get_asgi_application  # noqa: E402

from host_tools.server.edge.body_cap import BodyCap  # noqa: E402

application = BodyCap(get_asgi_application())
