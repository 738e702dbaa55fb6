"""The NinjaAPI instance, its error handling (every refusal a 4xx with ``{"error": ...}``) and
authentication (bearer token or browser session)."""
from __future__ import annotations

import datetime
import hashlib
import secrets

from django.contrib.auth import get_user_model
from django.utils import timezone
from ninja import NinjaAPI
from ninja.errors import AuthenticationError, HttpError, ValidationError
from ninja.security import APIKeyCookie, HttpBearer

from host_tools.server import errors
from host_tools.server.tournaments import permissions
from host_tools.server.tournaments.models import ApiToken

TOKEN_TTL = 12 * 3600


def token_hash(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def issue_token(user) -> str:
    token = secrets.token_urlsafe(32)
    ApiToken.objects.create(key_hash=token_hash(token), user=user, expires_at=timezone.now() + datetime.timedelta(seconds=TOKEN_TTL))
    return token


class BearerToken(HttpBearer):
    def authenticate(self, request, token):
        if not token or len(token) > 200:
            return None
        row = ApiToken.objects.filter(key_hash=token_hash(token), expires_at__gt=timezone.now(), user__is_active=True).select_related("user").first()
        if row is None:
            return None
        request.user = row.user
        return row.user


class Session(APIKeyCookie):
    """The browser's session cookie; unsafe methods need the CSRF token as well (ninja checks it)."""

    param_name = "sessionid"

    def _get_key(self, request):
        if self.param_name not in request.COOKIES:
            return None  # no session: no CSRF question either (the caller gets 401)
        return super()._get_key(request)

    def authenticate(self, request, key):
        u = getattr(request, "user", None)
        return u if u is not None and u.is_authenticated else None


AUTH = [BearerToken(), Session()]


def viewer(request):
    """Who reads a public route: the bearer token's account when one is sent, else the browser
    session's (anonymous when neither): public routes show organizers what others do not see."""
    header = request.headers.get("Authorization", "")
    if header.startswith("Bearer "):
        user = BearerToken().authenticate(request, header[7:].strip())
        if user is not None:
            return user
    return getattr(request, "user", None)

api = NinjaAPI(title="Mahjong tournament server", version="2", description=__doc__, urls_namespace="api", docs_url="/docs")


def _err(request, status: int, message: str):
    return api.create_response(request, {"error": message}, status=status)


@api.exception_handler(ValidationError)
def _validation(request, exc):
    parts = []
    for e in exc.errors[:5]:
        loc = ".".join(str(x) for x in e.get("loc", ()) if x not in ("body", "payload"))
        parts.append("%s: %s" % (loc or "body", e.get("msg", "invalid")))
    return _err(request, 400, "; ".join(parts) or "malformed request")


@api.exception_handler(AuthenticationError)
def _auth(request, exc):
    return _err(request, 401, "log in first: Authorization: Bearer TOKEN (POST /api/login), or a browser session")


@api.exception_handler(errors.Invalid)
def _invalid(request, exc):
    return _err(request, 400, str(exc))


@api.exception_handler(errors.BadRecord)
def _bad(request, exc):
    return _err(request, 400, str(exc))


@api.exception_handler(errors.NotFound)
def _notfound(request, exc):
    return _err(request, 404, str(exc))


@api.exception_handler(errors.Forbidden)
def _forbidden(request, exc):
    return _err(request, 403, str(exc))


@api.exception_handler(errors.Conflict)
def _conflict(request, exc):
    return _err(request, 409, str(exc))


@api.exception_handler(HttpError)
def _http(request, exc):
    return _err(request, exc.status_code, str(exc))


def need(request, tid: str, role: str) -> str:
    """The acting user's name when they hold ``role`` in tournament ``tid`` (organizers hold
    every role); else 403."""
    if not permissions.can(request.user, tid, role):
        raise HttpError(403, "this needs the %s role in tournament %s" % (role, tid))
    return permissions.actor(request.user)


def need_server_organizer(request) -> str:
    if not permissions.is_server_organizer(request.user):
        raise HttpError(403, "this needs a server organizer account")
    return permissions.actor(request.user)


def users():
    return get_user_model()
