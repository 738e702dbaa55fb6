"""The WSGI application gunicorn serves (``serve`` sets the environment first)."""
import os

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "host_tools.server.settings")

from django.core.wsgi import get_wsgi_application  # noqa: E402

application = get_wsgi_application()
