"""The WSGI application gunicorn serves (``serve`` sets the environment first)."""
import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "host_tools.server.settings")

from django.core.wsgi import get_wsgi_application  # noqa: E402

from host_tools.server.web.views.live import shim  # noqa: E402

application = shim(get_wsgi_application())  # the live pages' poll answered before the middleware
