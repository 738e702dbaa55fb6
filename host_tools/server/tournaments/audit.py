"""The audit log: every change a person makes is written in the same transaction as the change,
with who, what, and the values before and after (device keys never)."""
from __future__ import annotations

from typing import Any, Optional

from .models import AuditEntry


def log(actor: str, action: str, tournament: Optional[str], target: str, before: Any = None, after: Any = None) -> None:
    AuditEntry.objects.create(actor=actor[:200], action=action, tournament=tournament, target=target[:200], before=before, after=after)


def rows(tournament: Optional[str] = None, limit: int = 500) -> list[dict]:
    q = AuditEntry.objects.all()
    if tournament is not None:
        q = q.filter(tournament=tournament)
    return [dict(r, at=r["at"].isoformat(timespec="seconds")) for r in q.order_by("-id").values(
        "id", "at", "actor", "action", "tournament", "target", "before", "after")[:limit]]
