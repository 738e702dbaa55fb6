"""Server-rendered HTML pages: no JavaScript. Every value goes through ``html.escape`` (``e``).

Public: / (tournaments), /t/{id}/standings (for the projector: it reloads itself every 30 s
with a meta refresh), /t/{id}/tables/{session}/{table}, /t/{id}/players/{pid}, /t/{id}/awards,
/t/{id}/seating/{session}. Referees: /referee (login form), /referee/t/{id} (corrections,
penalties, play-offs). The referee forms post to the same validation as the JSON API (the
handler is called with the session's token), guarded by a SameSite=Strict HttpOnly cookie and a
CSRF field derived from the token.
"""
from __future__ import annotations

import datetime
import html
import json
from typing import Any, Optional
from urllib.parse import quote

from host_tools.server import api, auth, standings, store
from host_tools.server.app import ApiError, Request, Response, redirect

COOKIE = "mt_session"
REFRESH_SECONDS = 30


def e(v: Any) -> str:
    return html.escape("" if v is None else str(v), quote=True)


def u(v: Any) -> str:
    return quote(str(v), safe="")


CSS = """
body{font-family:"Noto Sans CJK SC","Noto Sans",DejaVu Sans,sans-serif;margin:1.2em;color:#111;background:#fafaf7}
h1{font-size:1.8em;margin:.2em 0}h2{font-size:1.3em}
table{border-collapse:collapse;margin:.5em 0}th,td{padding:.25em .6em;border-bottom:1px solid #ccc;text-align:left}
th{background:#2d4a3e;color:#fff}td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}
tr:nth-child(even) td{background:#f0efe8}.problems{color:#8a1c1c}.muted{color:#666;font-size:.9em}
nav a{margin-right:1em}form.inline{display:inline}input,select{margin:.15em}label{display:inline-block;min-width:7em}
.big td,.big th{font-size:1.25em}.dq td{color:#888;text-decoration:line-through}
"""


def page(title: str, body: str, refresh: Optional[int] = None, status: int = 200, headers: Optional[list] = None) -> Response:
    meta = '<meta http-equiv="refresh" content="%d">' % refresh if refresh else ""
    doc = (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8">%s<title>%s</title>'
        '<meta name="viewport" content="width=device-width,initial-scale=1"><style>%s</style></head><body>%s</body></html>'
        % (meta, e(title), CSS, body)
    )
    return Response(status, doc.encode(), "text/html; charset=utf-8", headers or [])


def error_page(status: int, message: str) -> Response:
    return page("Error %d" % status, "<h1>Error %d</h1><p>%s</p><p><a href=\"/\">Tournaments</a></p>" % (status, e(message)), status=status)


def _nav(tid: str) -> str:
    t = u(tid)
    return '<nav><a href="/">Tournaments</a><a href="/t/%s/standings">Standings</a><a href="/t/%s/awards">Awards</a></nav>' % (t, t)


def _result(req: Request) -> standings.Result:
    tid = req.params["tid"]
    with req.app.db.tx() as tx:
        try:
            store.get_tournament(tx, tid)
        except store.NotFound:
            raise ApiError(404, "no tournament %s" % tid) from None
    return standings.cached(req.app.db, tid)


def _problems(problems: list) -> str:
    if not problems:
        return ""
    return '<div class="problems"><h2>For the referee</h2><ul>%s</ul></div>' % "".join("<li>%s</li>" % e(p) for p in problems)


def _player_link(tid: str, pid: str, name: str = "") -> str:
    label = e(pid) + (" " + e(name) if name else "")
    return '<a href="/t/%s/players/%s">%s</a>' % (u(tid), u(pid), label)


# --------------------------------------------------------------------------- public pages

def index(req: Request):
    with req.app.db.tx() as tx:
        ts = store.list_tournaments(tx)
    items = "".join('<li><a href="/t/%s/standings">%s</a> <span class="muted">%s</span></li>' % (u(t["id"]), e(t["name"]), e(t["format"])) for t in ts)
    return page("Tournaments", "<h1>Tournaments</h1><ul>%s</ul><p class=\"muted\"><a href=\"/referee\">Referee login</a></p>" % (items or "<li>none yet</li>"))


def standings_page(req: Request):
    res = _result(req)
    t = res.tournament
    tid = t["id"]
    fmt = t["format"]
    rows = []
    if fmt in ("mcr_000", "mcr_swiss_001", "guangdong_004"):
        std = fmt != "guangdong_004"
        head = "<tr><th class=n>Rank</th><th>Player</th>%s<th class=n>Match</th><th class=n>Sessions</th></tr>" % ("<th class=n>Standard</th>" if std else "")
        for r in res.rows:
            played = sum(1 for x in r["sessions"] if x is not None)
            rows.append('<tr%s><td class=n>%s</td><td>%s</td>%s<td class=n>%s</td><td class=n>%d</td></tr>' % (
                ' class="dq"' if r["status"] else "", e(r["rank"] if r["rank"] is not None else "DQ"), _player_link(tid, r["player"], r["name"]),
                "<td class=n>%s</td>" % e(r["standard"]) if std else "", e(r["match"]), played))
    elif fmt == "sichuan_003":
        head = "<tr><th class=n>Rank</th><th>Player</th><th class=n>Stage</th><th class=n>Place</th><th class=n>Score</th><th class=n>Net</th></tr>"
        for r in res.rows:
            rows.append("<tr><td class=n>%s</td><td>%s</td><td class=n>%s</td><td class=n>%s</td><td class=n>%s</td><td class=n>%s</td></tr>" % (
                e(r["rank"] if r["rank"] is not None else "DQ"), _player_link(tid, r["player"], r["name"]), e(r["stage"]), e(r["place"]), e(r["score"]), e(r["net"])))
    else:
        head = "<tr><th class=n>Rank</th><th>Player</th><th class=n>Score</th><th>Status</th></tr>"
        for r in res.rows:
            rows.append("<tr><td class=n>%s</td><td>%s</td><td class=n>%s</td><td>%s</td></tr>" % (
                e(r["rank"]), _player_link(tid, r["player"], r["name"]), e(r["score"]), "out" if r["out"] else ""))
    now = datetime.datetime.now().strftime("%H:%M:%S")
    tables = sorted(res.tables)
    tlinks = " ".join('<a href="/t/%s/tables/%d/%d">%d/%d</a>' % (u(tid), s, n, s, n) for s, n in tables[-200:])
    body = (
        "%s<h1>%s</h1><p class=\"muted\">%s &middot; %s &middot; updated %s, refreshes every %d s</p>"
        '<table class="big" id="standings">%s%s</table>%s<h2>Tables</h2><p class="muted">%s</p>'
        % (_nav(tid), e(t["name"]), e(fmt), "%d players" % len(res.rows), e(now), REFRESH_SECONDS, head, "".join(rows), _problems(res.problems), tlinks)
    )
    return page("%s: standings" % t["name"], body, refresh=REFRESH_SECONDS)


def table_page(req: Request):
    res = _result(req)
    tid = res.tournament["id"]
    s, n = req.params["session"], req.params["table"]
    tb = res.tables.get((s, n))
    if tb is None:
        raise ApiError(404, "no results for session %d table %d" % (s, n))
    players = "".join("<tr><td>%s</td><td class=n>%s</td><td class=n>%s</td><td class=n>%s</td><td>%s</td></tr>" % (
        _player_link(tid, p["player"], p["name"]), e(p["hands_total"]), e(p["match"]), e(p["standard"]), e(p["status"])) for p in tb["players"])
    hands = []
    for h in tb["hands"]:
        fans = h["fans"]
        hands.append("<tr><td class=n>%s</td><td>%s</td><td>%s</td><td>%s</td><td class=n>%s</td><td>%s</td><td>%s</td></tr>" % (
            e(h["hand"]), e(", ".join(h["winners"]) or "draw"), e(h["discarder"] or ""), e(" ".join(str(x) for x in h["deltas"])),
            e(fans["total"] if fans else ""), e(" ".join(fans["names"]) if fans else ""),
            "corrected (%s)" % e(h["correction"]["reason"]) if h["corrected"] else ""))
    body = (
        "%s<h1>Session %d, table %d</h1><table><tr><th>Player</th><th class=n>Hands</th><th class=n>Match</th><th class=n>Standard</th><th></th></tr>%s</table>"
        "<h2>Hands</h2><table><tr><th class=n>#</th><th>Winner</th><th>Discarder</th><th>Deltas (seats 0-3)</th><th class=n>Fans</th><th>Fan names</th><th></th></tr>%s</table>%s"
        % (_nav(tid), s, n, players, "".join(hands), _problems(tb["problems"]))
    )
    return page("Session %d table %d" % (s, n), body)


def player_page(req: Request):
    res = _result(req)
    tid = res.tournament["id"]
    pid = req.params["pid"]
    row = next((r for r in res.rows if r["player"] == pid), None)
    hands = []
    for key in sorted(res.tables):
        for h in res.tables[key]["hands"]:
            if pid in h["seats"]:
                seat = h["seats"].index(pid)
                won = pid in h["winners"]
                hands.append("<tr><td class=n>%d</td><td class=n>%d</td><td class=n>%d</td><td class=n>%s</td><td>%s</td><td class=n>%s</td></tr>" % (
                    h["session"], h["table"], h["hand"], e(h["deltas"][seat]),
                    "won" if won else ("dealt in" if h["discarder"] == pid else ""), e(h["fans"]["total"] if won and h["fans"] else "")))
    if row is None and not hands and pid not in res.names():
        raise ApiError(404, "no player %s" % pid)
    summary = ""
    if row is not None:
        summary = "<p>Rank %s%s</p>" % (e(row.get("rank")), " &middot; " + ", ".join("%s %s" % (e(k), e(row[k])) for k in ("standard", "match", "score") if row.get(k) not in (None, "")))
    body = "%s<h1>%s %s</h1>%s<table><tr><th class=n>Session</th><th class=n>Table</th><th class=n>Hand</th><th class=n>Points</th><th></th><th class=n>Fans</th></tr>%s</table>" % (
        _nav(tid), e(pid), e(res.names().get(pid, "")), summary, "".join(hands))
    return page("Player %s" % pid, body)


def awards_page(req: Request):
    res = _result(req)
    tid = res.tournament["id"]
    try:
        aw = standings.awards(res)
    except Exception as ex:  # TournamentError: not an MCR format, or a tie needing times
        return page("Awards", "%s<h1>Awards</h1><p>%s</p>" % (_nav(tid), e(ex)))
    parts = []
    for a in aw.values():
        lines = "".join("<tr><td>%s</td><td class=n>%s</td></tr>" % (_player_link(tid, l["player"], l["name"]), e(l["value"])) for l in a["ranking"][:5])
        parts.append("<h2>%s</h2><p>Winner: <b>%s</b></p><table>%s</table>" % (e(a["title"]), e(("%s %s" % (a["winner"], a["winner_name"])) if a["winner"] else "none yet"), lines))
    return page("Awards", "%s<h1>Awards</h1>%s" % (_nav(tid), "".join(parts)))


def seating_page(req: Request):
    tid = req.params["tid"]
    s = req.params["session"]
    with req.app.db.tx() as tx:
        try:
            t = store.get_tournament(tx, tid)
        except store.NotFound:
            raise ApiError(404, "no tournament %s" % tid) from None
        rows = store.get_seating(tx, tid, s)
        names = {p["id"]: p["name"] for p in store.list_players(tx, tid)}
    if not rows:
        raise ApiError(404, "no seating for session %d" % s)
    trs = []
    for r in rows:
        for wind, p in zip("ESWN", r["players"]):
            trs.append("<tr><td class=n>%d</td><td>%s</td><td>%s</td><td>%s</td></tr>" % (r["table"], wind, e(p), e(names.get(p, ""))))
    body = "%s<h1>%s: seating, session %d</h1><table class=\"big\"><tr><th class=n>Table</th><th>Wind</th><th>Player</th><th>Name</th></tr>%s</table>" % (_nav(tid), e(t["name"]), s, "".join(trs))
    return page("Seating session %d" % s, body)


# --------------------------------------------------------------------------- referee pages

def _session_account(req: Request) -> tuple[Optional[str], Optional[auth.Account]]:
    token = req.cookie(COOKIE)
    if not token:
        return None, None
    with req.app.db.tx() as tx:
        return token, auth.account_for(tx, token)


def referee_home(req: Request):
    token, acc = _session_account(req)
    msg = req.arg("msg")
    if acc is None:
        body = (
            "<h1>Referee login</h1>%s<form method=\"post\" action=\"/referee/login\">"
            "<p><label for=u>Username</label><input id=u name=username autocomplete=username required></p>"
            "<p><label for=p>Password</label><input id=p name=password type=password autocomplete=current-password required></p>"
            "<p><button type=submit>Log in</button></p></form>" % ("<p class=problems>%s</p>" % e(msg) if msg else "")
        )
        return page("Referee login", body)
    with req.app.db.tx() as tx:
        ts = store.list_tournaments(tx)
    items = "".join('<li><a href="/referee/t/%s">%s</a></li>' % (u(t["id"]), e(t["name"])) for t in ts)
    body = "<h1>Referee</h1><p>Logged in as %s (%s).</p>%s<ul>%s</ul>%s" % (
        e(acc.username), e(acc.role), "<p>%s</p>" % e(msg) if msg else "", items, _logout_form(token))
    return page("Referee", body)


def _logout_form(token: str) -> str:
    return '<form method="post" action="/referee/logout"><input type="hidden" name="csrf" value="%s"><button type="submit">Log out</button></form>' % e(auth.csrf_for(token))


def referee_login(req: Request):
    f = req.form()
    username, password = f.get("username", ""), f.get("password", "")
    if not username or len(username) > 100 or len(password) > 1000:
        return redirect("/referee?msg=" + u("wrong username or password"))
    with req.app.db.tx(write=True) as tx:
        got = auth.login(tx, username, password)
    if got is None:
        return redirect("/referee?msg=" + u("wrong username or password"))
    token, _ = got
    cookie = "%s=%s; HttpOnly; SameSite=Strict; Path=/; Max-Age=%d" % (COOKIE, token, auth.TOKEN_TTL)
    return redirect("/referee", [("Set-Cookie", cookie)])


def referee_logout(req: Request):
    token, acc = _session_account(req)
    f = req.form()
    if token and acc and f.get("csrf") == auth.csrf_for(token):
        with req.app.db.tx(write=True) as tx:
            auth.logout(tx, token)
    return redirect("/referee", [("Set-Cookie", "%s=; HttpOnly; SameSite=Strict; Path=/; Max-Age=0" % COOKIE)])


def referee_tournament(req: Request):
    token, acc = _session_account(req)
    if acc is None:
        return redirect("/referee?msg=" + u("log in first"))
    res = _result(req)
    tid = res.tournament["id"]
    csrf = e(auth.csrf_for(token))
    msg = req.arg("msg")
    with req.app.db.tx() as tx:
        pens = store.list_penalties(tx, tid)
        cors = store.tournament_corrections(tx, tid)
    pen_rows = "".join("<tr><td class=n>%d</td><td class=n>%d</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td></tr>" % (
        p["id"], p["session"], e(p["player"]), e(p["kind"]), e(p["minutes"] or p["points"] or ""), e(p["reason"]), e(p["referee"]),
        "revoked" if p["revoked"] else '<form class=inline method=post action="/referee/t/%s/penalties/%d/revoke"><input type=hidden name=csrf value="%s"><button>Revoke</button></form>' % (u(tid), p["id"], csrf)) for p in pens)
    cor_rows = "".join("<tr><td>%s/%s</td><td>%s</td><td>%s</td><td>%s</td><td>%s</td></tr>" % (
        e(c["target_device"]), e(c["target_seq"]), e(" ".join(str(x) for x in json.loads(c["deltas"]))), e(c["reason"]), e(c["referee"]), e(c["source"])) for c in cors)
    body = (
        "%s<h1>Referee: %s</h1><p>Logged in as %s. %s</p>%s"
        "<h2>Correct a hand</h2><form method=post action=\"/referee/t/%s/corrections\"><input type=hidden name=csrf value=\"%s\">"
        "<label>Device</label><input name=device required> <label>Seq</label><input name=seq type=number min=1 required><br>"
        "<label>Deltas 0-3</label><input name=d0 type=number required><input name=d1 type=number required><input name=d2 type=number required><input name=d3 type=number required><br>"
        "<label>Reason</label><input name=reason size=50 required> <button type=submit>Save correction</button></form>"
        "<h2>Penalty</h2><form method=post action=\"/referee/t/%s/penalties\"><input type=hidden name=csrf value=\"%s\">"
        "<label>Session</label><input name=session type=number min=1 required> <label>Player</label><input name=player required><br>"
        "<label>Kind</label><select name=kind><option>points</option><option>late</option><option>disqualification</option></select> "
        "<label>Points / minutes</label><input name=amount><br><label>Reason</label><input name=reason size=50 required> <button type=submit>Add penalty</button></form>"
        "<h2>Play-off</h2><form method=post action=\"/referee/t/%s/playoffs\"><input type=hidden name=csrf value=\"%s\">"
        "<label>Session</label><input name=session type=number min=1 required> <label>Table</label><input name=table type=number min=1> "
        "<label>Scores</label><input name=scores placeholder=\"p1=10, p2=-10\" size=40 required> <button type=submit>Record</button></form>"
        "<h2>Penalties</h2><table><tr><th>#</th><th>Session</th><th>Player</th><th>Kind</th><th>Amount</th><th>Reason</th><th>By</th><th></th></tr>%s</table>"
        "<h2>Corrections</h2><table><tr><th>Record</th><th>Deltas</th><th>Reason</th><th>By</th><th>Source</th></tr>%s</table>%s"
        % (_nav(tid), e(res.tournament["name"]), e(acc.username), "<b>%s</b>" % e(msg) if msg else "", _logout_form(token),
           u(tid), csrf, u(tid), csrf, u(tid), csrf, pen_rows, cor_rows, _problems(res.problems))
    )
    return page("Referee %s" % tid, body)


def _form_action(req: Request, build, handler, what: str):
    token, acc = _session_account(req)
    tid = req.params["tid"]
    back = "/referee/t/%s" % u(tid)
    if acc is None:
        return redirect("/referee?msg=" + u("log in first"))
    f = req.form()
    if f.get("csrf") != auth.csrf_for(token):
        raise ApiError(403, "the form is stale or forged (CSRF check failed)")
    try:
        body = build(f)
    except (ValueError, KeyError) as ex:
        return redirect(back + "?msg=" + u("%s refused: %s" % (what, ex)))
    sub = Request(req.app, "POST", "/api/", {"Authorization": "Bearer " + token}, b"")
    sub._json = body
    sub.params = dict(req.params)
    try:
        handler(sub)
    except ApiError as ex:
        return redirect(back + "?msg=" + u("%s refused: %s" % (what, ex.message)))
    return redirect(back + "?msg=" + u("%s saved" % what))


def _int(v: str, what: str) -> int:
    try:
        return int(v.strip())
    except ValueError:
        raise ValueError("%s must be an integer" % what) from None


def post_correction(req: Request):
    def build(f):
        return {"device": f.get("device", ""), "seq": _int(f.get("seq", ""), "seq"),
                "deltas": [_int(f.get("d%d" % i, ""), "delta %d" % i) for i in range(4)], "reason": f.get("reason", "")}
    return _form_action(req, build, api.add_correction, "correction")


def post_penalty(req: Request):
    def build(f):
        out = {"session": _int(f.get("session", ""), "session"), "player": f.get("player", ""), "kind": f.get("kind", ""), "reason": f.get("reason", "")}
        amount = f.get("amount", "").strip()
        if out["kind"] == "late":
            out["minutes"] = amount
        elif out["kind"] == "points":
            out["points"] = _int(amount, "points")
        return out
    return _form_action(req, build, api.add_penalty, "penalty")


def post_playoff(req: Request):
    def build(f):
        scores = {}
        for part in f.get("scores", "").split(","):
            if part.strip():
                k, _, v = part.partition("=")
                scores[k.strip()] = _int(v, "score of %s" % k.strip())
        out: dict = {"session": _int(f.get("session", ""), "session"), "scores": scores}
        if f.get("table", "").strip():
            out["table"] = _int(f["table"], "table")
        return out
    return _form_action(req, build, api.add_playoff, "play-off")


def post_revoke(req: Request):
    return _form_action(req, lambda f: {}, api.revoke_penalty, "revocation")


def register(r) -> None:
    r.add("GET", "/", index, "Tournaments (HTML)", content="text/html", page=True)
    r.add("GET", "/t/{tid}/standings", standings_page, "Standings page for the projector; reloads every 30 s (HTML)", content="text/html", page=True)
    r.add("GET", "/t/{tid}/tables/{session:int}/{table:int}", table_page, "A table's hands (HTML)", content="text/html", page=True)
    r.add("GET", "/t/{tid}/players/{pid}", player_page, "A player's hands (HTML)", content="text/html", page=True)
    r.add("GET", "/t/{tid}/awards", awards_page, "Awards (HTML)", content="text/html", page=True)
    r.add("GET", "/t/{tid}/seating/{session:int}", seating_page, "Seating of a session (HTML)", content="text/html", page=True)
    r.add("GET", "/referee", referee_home, "Referee login form / home (HTML)", content="text/html", page=True)
    r.add("POST", "/referee/login", referee_login, "Referee login (form; sets the session cookie)", content="text/html", page=True,
          body={"type": "object", "properties": {"username": {"type": "string"}, "password": {"type": "string"}}, "x-form": True})
    r.add("POST", "/referee/logout", referee_logout, "Log out (form)", content="text/html", page=True, role="referee")
    r.add("GET", "/referee/t/{tid}", referee_tournament, "Referee forms for a tournament (HTML)", content="text/html", page=True, role="referee")
    r.add("POST", "/referee/t/{tid}/corrections", post_correction, "Correction (form)", content="text/html", page=True, role="referee")
    r.add("POST", "/referee/t/{tid}/penalties", post_penalty, "Penalty (form)", content="text/html", page=True, role="referee")
    r.add("POST", "/referee/t/{tid}/playoffs", post_playoff, "Play-off (form)", content="text/html", page=True, role="referee")
    r.add("POST", "/referee/t/{tid}/penalties/{pid:int}/revoke", post_revoke, "Revoke a penalty (form)", content="text/html", page=True, role="referee")
