"""Login for scripts (a bearer token) and accounts."""
from __future__ import annotations

from django.contrib.auth import authenticate
from ninja import Router
from ninja.errors import HttpError

from host_tools.server.tournaments import actions

from .core import AUTH, TOKEN_TTL, issue_token, need, need_server_organizer, token_hash
from .schemas import AccountIn, AccountPatch, Error, LoginIn, TokenOut

router = Router(tags=["accounts"])


@router.post("/login", response={200: TokenOut, 401: Error, 429: Error}, summary="Log in: a bearer token for 12 hours (throttled per client address)")
def login(request, body: LoginIn):
    user = authenticate(request, username=body.username, password=body.password)
    if getattr(request, "axes_locked_out", False):
        raise HttpError(429, "too many failed logins: try again later")
    if user is None:
        raise HttpError(401, "wrong username or password")
    return {"token": issue_token(user), "username": user.get_username(), "superuser": user.is_superuser, "expires_in": TOKEN_TTL}


@router.post("/logout", response={200: dict}, summary="Revoke the bearer token")
def logout(request):
    from host_tools.server.tournaments.models import ApiToken

    h = request.headers.get("Authorization", "")
    if h.startswith("Bearer "):
        ApiToken.objects.filter(key_hash=token_hash(h[7:].strip())).delete()
    return {"status": "logged out"}


@router.get("/me", response={200: dict, 401: Error}, auth=AUTH, summary="The logged-in account")
def me(request):
    u = request.user
    return {"username": u.get_username(), "superuser": u.is_superuser,
            "roles": {r.tournament_id: r.role for r in u.tournament_roles.all()}}


@router.post("/accounts", response={201: dict, 400: Error, 403: Error, 409: Error}, auth=AUTH,
             summary="Create an account, optionally with a role in one tournament")
def create_account(request, body: AccountIn):
    if body.tournament:
        who = need(request, body.tournament, "organizer")
    else:
        who = need_server_organizer(request)
    actions.create_account(who, body.username, body.password, body.tournament, body.role)
    return 201, {"username": body.username, "tournament": body.tournament, "role": body.role}


@router.get("/accounts", response={200: list, 403: Error}, auth=AUTH, summary="Accounts and their roles (server organizers only)")
def list_accounts(request):
    need_server_organizer(request)
    from django.contrib.auth import get_user_model

    return [{"username": u.username, "active": u.is_active, "superuser": u.is_superuser,
             "roles": {r.tournament_id: r.role for r in u.tournament_roles.all()}}
            for u in get_user_model().objects.order_by("username").prefetch_related("tournament_roles")]


@router.patch("/accounts/{username}", response={200: dict, 400: Error, 403: Error, 404: Error, 409: Error}, auth=AUTH,
              summary="Change an account's password, active flag or server-organizer flag (server organizers only)")
def update_account(request, username: str, body: AccountPatch):
    who = need_server_organizer(request)
    return actions.update_account(who, username, body.password, body.active, body.superuser)
