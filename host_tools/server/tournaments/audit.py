"""The audit log: every change a person makes is written in the same transaction as the change,
with who, what, and the values before and after (device keys never)."""
from __future__ import annotations

from typing import Any, Optional

from .models import AuditEntry


def log(actor: str, action: str, tournament: Optional[str], target: str, before: Any = None, after: Any = None) -> None:
    AuditEntry.objects.create(actor=actor[:200], action=action, tournament=tournament, target=target[:200], before=before, after=after)


def rows(tournament: Optional[str] = None, limit: int = 500) -> list[dict]:
    """The latest entries, each with ``changes``: what changed, one line per value, in words."""
    q = AuditEntry.objects.all()
    if tournament is not None:
        q = q.filter(tournament=tournament)
    return [dict(r, at=r["at"].isoformat(timespec="seconds"), changes=changes(r["before"], r["after"])) for r in q.order_by("-id").values(
        "id", "at", "actor", "action", "tournament", "target", "before", "after")[:limit]]


MAX_TEXT = 200  # one value's text at most (a whole import's player list is not read in a log)


def text(v: Any) -> str:
    """A stored value as a person reads it: lists joined by commas, objects as name=value."""
    if v is None or v == "" or v == {} or v == []:
        return "-"
    if isinstance(v, bool):
        return "yes" if v else "no"
    if isinstance(v, dict):
        out = ", ".join("%s=%s" % (k, text(x)) for k, x in v.items())
    elif isinstance(v, (list, tuple)):
        out = ", ".join(text(x) for x in v) if v else "-"
    else:
        out = str(v)
    return out if len(out) <= MAX_TEXT else out[:MAX_TEXT - 1] + "…"


def changes(before: Any, after: Any) -> list[str]:
    """What an entry changed, one line per value: "name: before -> after" (unchanged values left
    out), "name: value" for what it set, "name was value" for what it names only before (the
    context of the change: the hand's seats of a correction)."""
    if not isinstance(before, dict) or not isinstance(after, dict):
        if before is None and isinstance(after, dict):
            before = {}
        elif after is None and isinstance(before, dict):
            after = {}
        else:
            return [] if before == after else ["%s -> %s" % (text(before), text(after))] if before is not None else [text(after)]
    out = []
    for k in list(before) + [k for k in after if k not in before]:
        b, a = before.get(k), after.get(k)
        if k in before and k in after:
            if a != b:
                out.append("%s: %s -> %s" % (k, text(b), text(a)))
        elif k in after:
            out.append("%s: %s" % (k, text(a)))
        else:
            out.append("%s was %s" % (k, text(b)))
    return out
