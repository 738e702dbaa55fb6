"""Sichuan (seed 003) standings: session n is stage n, game n of a table is its hand n; see
``compute`` for the shared rules."""
from __future__ import annotations

from fractions import Fraction
from typing import Any

from host_tools.tournament import scoring
from host_tools.tournament.exports import format_score
from host_tools.tournament.model import Standing
from host_tools.tournament.sichuan import SichuanGame

from .compute import SCORING_ERRORS, session_penalties


def _late(snap, problems) -> dict:
    """(stage, player) -> (minutes, game) of the late arrivals (the longest when keyed twice)."""
    out: dict = {}
    for p in snap.penalties:
        if p["kind"] != "late":
            continue
        key = (p["session"], p["player"])
        m = Fraction(p["minutes"])  # stored minutes were checked as short decimals
        if key not in out or m > out[key][0]:
            out[key] = (m, p.get("game") or 1)
    return out


def _games(tb) -> list:
    """The table's games (局: hand numbers 1..n) as player -> SichuanGame: the play part, the
    penalties paid to nobody, the win."""
    games: list = [{} for _ in range(max((h.number for h in tb.hands), default=0))]
    for h in tb.hands:
        g = games[h.number - 1]
        for i, p in enumerate(h.seats):
            if p is not None:
                g[p] = SichuanGame(h.deltas[i] + h.deductions[i], -h.deductions[i], i in h.winners)
    return games


def sichuan(snap, tables, problems) -> tuple:
    """Seed 003 §五.1 lateness: a late arrival (an off-table ``late`` penalty with its minutes and
    the game it was for, default the stage's first) forfeits that game from 10 minutes and the
    stage from 15 (``sichuan_lines``): the player is placed last at the table and never advances."""
    points, _forfeits, dq = session_penalties(snap, "sichuan_003", problems)
    late = _late(snap, problems)
    names = snap.names()
    subs = {p["id"] for p in snap.players if p["substitute"]}
    seated = {(s, p): t for s, ts in snap.seatings.items() for t, ps in ts.items() for p in ps}
    keys = set(tables)
    late_at: dict = {}
    for (s, p), v in late.items():
        t = next((t for (s2, t), tb in tables.items() if s2 == s and p in tb.players()), seated.get((s, p)))
        if t is None:
            problems.append("stage %d: %s was late but plays at no table" % (s, p))
            continue
        keys.add((s, t))
        late_at.setdefault((s, t), {})[p] = v
    stages: dict = {}
    for (s, t) in sorted(keys):
        tb = tables.get((s, t))
        try:
            lines = scoring.sichuan_lines(_games(tb) if tb else [], late=late_at.get((s, t)))
            if tb is not None:  # seated by the box's session record but no hand yet: 0
                have = {l.player for l in lines}
                lines += [scoring.SichuanLine(p, 0) for p in tb.players() if p not in have]
            lines = [scoring.SichuanLine(l.player, l.score + points.get((s, l.player), 0), l.net, l.wins, l.disqualified, l.forfeits)
                     for l in lines if not (l.player in dq and dq[l.player] <= s)]
        except SCORING_ERRORS as e:
            problems.append("stage %d table %d: %s" % (s, t, e))
            continue
        stages.setdefault(s, []).append((t, lines))
    playoffs: dict = {}
    for po in snap.playoffs:  # the latest entry for a (session, table) wins
        playoffs[(po["session"], po["table"])] = po["scores"]
    reached: dict = {}
    stage_json = []
    for s in sorted(stages):
        tabs = stages[s]
        numbers = [t for t, _ in tabs]
        pos_po = {i + 1: playoffs[(s, t)] for i, t in enumerate(numbers) if (s, t) in playoffs}
        info: dict[str, Any] = {"stage": s, "tables": [], "advancing": []}
        places = {}
        try:
            if s == 4:
                extra = playoffs.get((s, numbers[0])) or playoffs.get((s, None))
                if len(tabs) != 1:
                    raise scoring.TournamentError("the final (stage 4) is one table, found %d" % len(tabs))
                ranked = [scoring.sichuan_final(tabs[0][1], extra)]
                adv: tuple = ()
            elif s == 2:
                quota = snap.tournament["settings"]["stage2_quota"]
                if quota is None:
                    raise scoring.TournamentError("stage 2 needs the stage2_quota setting (how many advance)")
                st = scoring.sichuan_stage2([l for _, l in tabs], quota, pos_po, playoffs.get((s, None)))
                ranked, adv = list(st.tables), st.advancing
            else:
                st = scoring.sichuan_top_per_table([l for _, l in tabs], 2, pos_po)
                ranked, adv = list(st.tables), st.advancing
        except SCORING_ERRORS as e:
            problems.append("stage %d: %s" % (s, e))
            try:
                ranked = [scoring.sichuan_rank_table(l, cuts=()) for _, l in tabs]
            except SCORING_ERRORS as e2:
                problems.append("stage %d not ranked: %s" % (s, e2))
                continue
            adv = ()
        for (t, _), places_t in zip(tabs, ranked):
            info["tables"].append({"table": t, "places": [
                {"place": x.place, "player": x.player, "name": names.get(x.player, ""), "score": format_score(x.score),
                 "net": format_score(x.net), "wins": x.wins, "playoff": format_score(x.playoff)} for x in places_t]})
            for x in places_t:
                places[x.player] = x
        info["advancing"] = list(adv)
        stage_json.append(info)
        for p, x in places.items():
            reached[p] = (s, x.place, x.score, x.net)
    order = sorted((p for p in reached if p not in subs), key=lambda p: (-reached[p][0], reached[p][1], -reached[p][2], -reached[p][3], p))
    order = [p for p in order if p not in dq] + [p for p in order if p in dq]
    rows, prev, rank = [], None, 0
    for i, p in enumerate(order):
        key = reached[p]
        if key != prev:
            rank = i + 1
        prev = key
        rows.append({"rank": None if p in dq else rank, "player": p, "name": names.get(p, ""), "stage": key[0], "place": key[1],
                     "score": format_score(key[2]), "net": format_score(key[3]), "status": "disqualified" if p in dq else ""})
    standings = [Standing(r["rank"] or 0, r["player"], None, reached[r["player"]][2], ()) for r in rows]
    return standings, rows, {}, dq, None, {"stages": stage_json}
