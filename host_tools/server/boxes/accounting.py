"""Nothing a box recorded goes missing (issue 18): every record the server received from a box,
accounted for in exactly one place.

* counted: it counts where it says (or where a referee claimed it for);
* quarantined: it waits for a referee, with the reasons, in the tournament it names (or, naming
  no tournament here, in the one its box was bound to when it arrived);
* ruled: a referee accepted it (it counts) or rejected it (it never does);
* duplicate: a copy of a hand that counts once (same hand number, players, points, winners,
  payer, fans: a dead box's journal recovered after a spare or a referee recorded the hand;
  ``results.versions``); a copy that differs waits in the quarantine with both versions, and a
  copy a referee ruled against (they counted another version) is ruled;
* waiting: a correction whose hand has not arrived.

Beside them the journal head the box last reported and what has not arrived (the head beyond
the last record received, and gaps). The verdicts are the results' own (``results.cache``), so
this page and the standings never disagree.
"""
from __future__ import annotations

from host_tools.server.errors import NotFound
from host_tools.server.results import cache
from host_tools.server.tournaments.models import Tournament

from .models import Claim, Correction, Device, Held, Record


def _results(tids: set) -> dict:
    have = set(Tournament.objects.filter(id__in=tids).values_list("id", flat=True))
    return {t: cache.result(t) for t in sorted(have)}


def of_box(device: str) -> dict:
    d = Device.objects.filter(id=device).first()
    if d is None:
        raise NotFound("no device %r" % device)
    recs = list(Record.objects.filter(device_id=device).order_by("seq").values_list("id", "seq", "kind", "tournament", "session", "table", "hand"))
    held = {rid: (t, unknown, why, claim) for rid, t, unknown, why, claim in
            Held.objects.filter(record__device_id=device).values_list("record_id", "tournament", "unknown_tournament", "reason", "claim_id")}
    claims = {c.id: c for c in Claim.objects.filter(id__in={h[3] for h in held.values() if h[3]})}
    fixes = {rid: (hid, t) for rid, hid, t in Correction.objects.filter(record__device_id=device).values_list("record_id", "hand_id", "tournament")}
    where: dict = {}  # record id -> the tournament whose results account for it
    for rid, seq, kind, named, s, t, n in recs:
        h = held.get(rid)
        if kind == "correction":
            hid, tid = fixes.get(rid, (None, None))
            where[rid] = tid if hid is not None else None
        elif h is not None and h[1]:
            where[rid] = claims[h[3]].tournament if h[3] else (h[0] or d.tournament_id)
        else:
            where[rid] = named
    results = _results({t for t in where.values() if t})
    waiting = {t: {x["record"]: x for x in res.quarantine} for t, res in results.items()}
    out, totals = [], {"counted": 0, "quarantined": 0, "ruled": 0, "duplicate": 0, "waiting": 0}
    for rid, seq, kind, named, s, t, n in recs:
        h = held.get(rid)
        tid = where[rid]
        res = results.get(tid)
        claimed = bool(h and h[3])
        row = {"record": rid, "seq": seq, "kind": kind, "tournament": tid, "session": s, "table": t, "hand": n, "reason": "", "ruling": None,
               "claimed": claimed}
        if claimed:
            c = claims[h[3]]
            row["session"], row["table"] = c.session, c.table
        if kind == "correction" and tid is None:
            row["status"], row["reason"] = "waiting", "the hand it corrects has not arrived"
        elif res is None:
            row["status"] = "quarantined"
            row["reason"] = h[2] if h else "it names tournament %s, which this server does not have" % named
            row["tournament"] = tid
        else:
            q = waiting[tid].get(rid)
            dup, aside = res.verdict.duplicates.get(rid), res.verdict.set_aside.get(rid)
            if dup is not None:
                row["status"], row["reason"] = "duplicate", dup
            elif aside is not None:
                row["status"], row["ruling"], row["reason"] = "ruled", "other version", aside
            elif q is None:
                row["status"] = "counted"
            elif q["rejected"] or q["accepted"]:
                row["status"], row["ruling"] = "ruled", "reject" if q["rejected"] else "accept"
                row["reason"] = "; ".join(q["problems"])
            else:
                row["status"], row["reason"] = "quarantined", "; ".join(q["problems"])
        totals[row["status"]] += 1
        out.append(row)
    top = recs[-1][1] if recs else 0
    missing = (top - len(recs)) + max(0, (d.reported_head or 0) - top)
    return {"device": device, "head": d.reported_head, "received": len(recs), "counted": totals["counted"], "quarantined": totals["quarantined"],
            "ruled": totals["ruled"], "duplicates": totals["duplicate"], "waiting": totals["waiting"], "not_received": missing, "records": out}
