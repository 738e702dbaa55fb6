"""Django settings of the tournament server, read from the environment that ``python -m
host_tools serve`` sets up (gunicorn's workers inherit it):

* ``MT_DB``: database URL (``dburl``), default ``sqlite:///tournament.db``.
* ``MT_SECRET_KEY_FILE``: where the session-signing key lives (created 0600 on first start, next
  to a SQLite database or in the working directory); ``MT_SECRET_KEY`` overrides it.
* ``MT_TLS=1``: the server sits behind a TLS reverse proxy (docs/deploy.md): cookies are Secure,
  ``X-Forwarded-Proto: https`` from the proxy is trusted, HSTS is sent.
* ``MT_ALLOWED_HOSTS``: comma-separated host names (default: any, for a LAN laptop by IP).
* ``MT_TRUSTED_PROXIES``: with ``MT_TLS=1``, the proxies' addresses whose X-Forwarded-For names
  the client (default ``127.0.0.1,::1``: the proxy on the same machine).
* ``MT_RATE_LIMITS=off``: no rate limits on anonymous routes (``edge.ratelimit``; the tests'
  and benchmarks' clients all come from one address).
* ``MT_DEBUG=1``: Django's debug pages (never on a served event).
* ``MT_TEST_FAST_HASHER=1``: new passwords hashed with MD5 (Django's advice for test suites:
  the tests' shared servers log in hundreds of times); never on a served event.
"""
from __future__ import annotations

import os
import secrets
from pathlib import Path

from host_tools.server import dburl
from host_tools.server.edge.body_cap import MAX_BODY

PACKAGE = Path(__file__).resolve().parent

DB_URL = os.environ.get("MT_DB", "sqlite:///tournament.db")
DATABASES = {"default": dburl.parse(DB_URL)}


def _secret_key() -> str:
    if os.environ.get("MT_SECRET_KEY"):
        return os.environ["MT_SECRET_KEY"]
    path = os.environ.get("MT_SECRET_KEY_FILE")
    if not path:
        name = DATABASES["default"]["NAME"] if DATABASES["default"]["ENGINE"].endswith("sqlite_backend") else "tournament"
        path = str(name) + ".secret"
    p = Path(path)
    if not p.exists():
        fd = os.open(p, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        with os.fdopen(fd, "w") as f:
            f.write(secrets.token_urlsafe(50))
    os.chmod(p, 0o600)
    return p.read_text().strip()


SECRET_KEY = _secret_key()
DEBUG = os.environ.get("MT_DEBUG") == "1"
ALLOWED_HOSTS = [h.strip() for h in os.environ.get("MT_ALLOWED_HOSTS", "*").split(",") if h.strip()]
TLS = os.environ.get("MT_TLS") == "1"

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "axes",
    "host_tools.server.tournaments",
    "host_tools.server.boxes",
    "host_tools.server.survival",
    "host_tools.server.web",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "host_tools.server.web.middleware.BadRequestMiddleware",
    "host_tools.server.web.unknown_tournament.UnknownTournamentMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "host_tools.server.edge.ratelimit.RateLimitMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    "csp.middleware.CSPMiddleware",
    "axes.middleware.AxesMiddleware",
]

AUTHENTICATION_BACKENDS = ["axes.backends.AxesStandaloneBackend", "django.contrib.auth.backends.ModelBackend"]

ROOT_URLCONF = "host_tools.server.urls"
WSGI_APPLICATION = "host_tools.server.wsgi.application"
DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

TEMPLATES = [{
    "BACKEND": "django.template.backends.django.DjangoTemplates",
    "DIRS": [],
    "APP_DIRS": True,
    "OPTIONS": {"context_processors": [
        "django.template.context_processors.request",
        "django.template.context_processors.i18n",
        "django.contrib.auth.context_processors.auth",
        "django.contrib.messages.context_processors.messages",
    ]},
}]

# i18n: English and Simplified Chinese; the language comes from the session / cookie (the
# switch in the page header) or the browser's Accept-Language.
LANGUAGE_CODE = "en"
LANGUAGES = [("en", "English"), ("zh-hans", "简体中文")]
LOCALE_PATHS = [PACKAGE / "locale"]
USE_I18N = True
USE_TZ = True
TIME_ZONE = os.environ.get("MT_TIME_ZONE", "UTC")

STATIC_URL = "/static/"

LOGIN_URL = "/login/"
LOGIN_REDIRECT_URL = "/"

# Cookies: SameSite=Lax on every one (session, CSRF, language; the messages cookie follows the
# session's), the session's HttpOnly; Secure behind TLS.
SESSION_COOKIE_HTTPONLY = True
SESSION_COOKIE_SAMESITE = "Lax"
SESSION_COOKIE_AGE = 12 * 3600
CSRF_COOKIE_SAMESITE = "Lax"
LANGUAGE_COOKIE_SAMESITE = "Lax"
SESSION_COOKIE_SECURE = TLS
CSRF_COOKIE_SECURE = TLS
LANGUAGE_COOKIE_SECURE = TLS
if TLS:
    SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    SECURE_HSTS_SECONDS = 31536000
    SECURE_SSL_REDIRECT = True
    CSRF_TRUSTED_ORIGINS = ["https://" + h for h in ALLOWED_HOSTS if h != "*"]
SECURE_CONTENT_TYPE_NOSNIFF = True
# Content-Security-Policy (django-csp): scripts and styles from this server's files only, no
# inline script, handler or style (web/static/pages.js does what the handlers did), nothing
# framed, forms posted here only. An injected <script> or onerror= would not run.
CONTENT_SECURITY_POLICY = {"DIRECTIVES": {
    "default-src": ["'self'"], "script-src": ["'self'"], "style-src": ["'self'"], "img-src": ["'self'", "data:"],
    "object-src": ["'none'"], "base-uri": ["'none'"], "frame-ancestors": ["'none'"], "form-action": ["'self'"],
}}
SECURE_REFERRER_POLICY = "same-origin"
X_FRAME_OPTIONS = "DENY"

# Request bodies: a batch of 200 records is ~200 KB; the CSV import of 10,000 players ~1 MB.
# edge.body_cap refuses a longer body before anything reads it; what is read stays in memory.
DATA_UPLOAD_MAX_MEMORY_SIZE = MAX_BODY
FILE_UPLOAD_MAX_MEMORY_SIZE = MAX_BODY
DATA_UPLOAD_MAX_NUMBER_FIELDS = 2000

# Login throttling (django-axes): 10 failures from one address lock that address out, for every
# account, for 15 minutes (the account-and-address pair is one of its counts). No account is
# locked for everyone: locking a name let anyone keep a named organizer out. The address is
# the client's, behind the documented proxy too (edge.client_ip). The check runs before the
# password hash, so a flood costs no hashing. Counts live in the database: every instance of
# the server (docs/deploy.md) sees the same.
AXES_FAILURE_LIMIT = int(os.environ.get("MT_LOGIN_FAILURES", "10"))
AXES_COOLOFF_TIME = 0.25  # hours
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"], "ip_address"]
AXES_RESET_ON_SUCCESS = True
AXES_CLIENT_IP_CALLABLE = "host_tools.server.edge.client_ip.client_ip"
RATE_LIMITS = os.environ.get("MT_RATE_LIMITS", "on") != "off"  # per address on anonymous routes: edge.ratelimit
TRUSTED_PROXIES = [a.strip() for a in os.environ.get("MT_TRUSTED_PROXIES", "127.0.0.1,::1").split(",") if a.strip()]
AXES_LOCKOUT_CALLABLE = "host_tools.server.web.views.auth.locked_out"
AXES_VERBOSE = False

if os.environ.get("MT_TEST_FAST_HASHER") == "1":
    PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher", "django.contrib.auth.hashers.PBKDF2PasswordHasher"]

CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}

LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "handlers": {"stderr": {"class": "logging.StreamHandler"}},
    "loggers": {
        "django": {"handlers": ["stderr"], "level": "WARNING"},
        "axes": {"handlers": ["stderr"], "level": "ERROR"},
        "host_tools.server": {"handlers": ["stderr"], "level": "INFO"},
    },
}
