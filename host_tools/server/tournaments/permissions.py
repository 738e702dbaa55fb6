"""Who may do what. Superusers are the server's organizers (``serve --create-account``); any
other account acts through its roles per tournament: an organizer there manages the event
(players, boxes, seatings, accounts' roles), a referee rules on results (corrections, hands,
penalties, play-offs, quarantine). Reading results is public."""
from __future__ import annotations

from .models import Role

ORGANIZER, REFEREE = Role.ORGANIZER, Role.REFEREE


def role_in(user, tid: str):
    if not getattr(user, "is_authenticated", False) or not user.is_active:
        return None
    if user.is_superuser:
        return ORGANIZER
    r = Role.objects.filter(user=user, tournament_id=tid).values_list("role", flat=True).first()
    return r


def can(user, tid: str, need: str) -> bool:
    r = role_in(user, tid)
    if r is None:
        return False
    return r == ORGANIZER or r == need


def is_server_organizer(user) -> bool:
    return getattr(user, "is_authenticated", False) and user.is_active and user.is_superuser


def actor(user) -> str:
    return user.get_username() if getattr(user, "is_authenticated", False) else "anonymous"
