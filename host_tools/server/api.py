"""JSON API: request validation and the endpoint handlers. Storage is in ``store``, scoring in
``standings``; this module checks inputs (every refusal is a 4xx with a message, never a 500)
and maps domain errors to HTTP statuses.

Roles: organizer (tournaments, players, devices, accounts, seatings, plus everything a referee
may do), referee (corrections, penalties, play-offs). Reading results is public. Records are
authenticated by their device signature, not by an account.
"""
from __future__ import annotations

import csv
import io
import json
from dataclasses import replace
from fractions import Fraction
from typing import Any, Optional

from host_tools.server import auth, records, standings, store
from host_tools.server.app import ApiError, Request, json_response, text_response
from host_tools.server.records import BadRecord
from host_tools.tournament import exports, seating
from host_tools.tournament.model import TournamentError

BATCH_MAX = 200


# --------------------------------------------------------------------------- input helpers

def _obj(v: Any, what: str = "body") -> dict:
    if not isinstance(v, dict):
        raise ApiError(400, "%s must be a JSON object" % what)
    return v


def _only(obj: dict, allowed: tuple, what: str = "body") -> None:
    extra = sorted(set(obj) - set(allowed))
    if extra:
        raise ApiError(400, "%s has unknown fields: %s" % (what, ", ".join(map(repr, extra))))


def s_field(obj: dict, key: str, required: bool = True, max_len: int = 200, empty: bool = False, default: str = "") -> str:
    if key not in obj or obj[key] is None:
        if required:
            raise ApiError(400, "missing field %s" % key)
        return default
    v = obj[key]
    if not isinstance(v, str):
        raise ApiError(400, "%s must be a string" % key)
    if not v.strip() and not empty:
        raise ApiError(400, "%s must not be empty" % key)
    if len(v) > max_len:
        raise ApiError(400, "%s is longer than %d characters" % (key, max_len))
    if any(ord(c) < 32 and c not in "\t\n\r" or ord(c) == 127 for c in v):
        raise ApiError(400, "%s holds control characters" % key)
    return v


def id_field(obj: dict, key: str, required: bool = True) -> Optional[str]:
    if not required and obj.get(key) is None:
        return None
    try:
        return records.ident(obj.get(key), key)
    except BadRecord as e:
        raise ApiError(400, str(e)) from None


def i_field(obj: dict, key: str, required: bool = True, lo: int = -(10**9), hi: int = 10**9, default: Optional[int] = None) -> Optional[int]:
    if key not in obj or obj[key] is None:
        if required:
            raise ApiError(400, "missing field %s" % key)
        return default
    v = obj[key]
    if isinstance(v, bool) or not isinstance(v, int):
        raise ApiError(400, "%s must be an integer" % key)
    if not lo <= v <= hi:
        raise ApiError(400, "%s must be between %d and %d" % (key, lo, hi))
    return v


def _path_id(req: Request, key: str) -> str:
    try:
        return records.ident(req.params[key], key)
    except BadRecord as e:
        raise ApiError(400, str(e)) from None


def _session_no(v: int) -> int:
    if not 1 <= v <= 10000:
        raise ApiError(400, "session must be between 1 and 10000")
    return v


# --------------------------------------------------------------------------- auth

def account(req: Request, role: str) -> auth.Account:
    """The logged-in account (bearer token) with ``role`` (organizer passes every role)."""
    token = req.bearer()
    if not token:
        raise ApiError(401, "log in first: Authorization: Bearer TOKEN (POST /api/login)")
    with req.app.db.tx() as tx:
        acc = auth.account_for(tx, token)
    if acc is None:
        raise ApiError(401, "the token is unknown or expired")
    if not acc.can(role):
        raise ApiError(403, "this needs the %s role" % role)
    return acc


def login(req: Request):
    body = _obj(req.json())
    _only(body, ("username", "password"))
    u = s_field(body, "username", max_len=100)
    p = s_field(body, "password", max_len=1000)
    with req.app.db.tx(write=True) as tx:
        got = auth.login(tx, u, p)
    if got is None:
        raise ApiError(401, "wrong username or password")
    token, acc = got
    return json_response({"token": token, "username": acc.username, "role": acc.role, "expires_in": auth.TOKEN_TTL})


def logout(req: Request):
    token = req.bearer()
    if token:
        with req.app.db.tx(write=True) as tx:
            auth.logout(tx, token)
    return json_response({"status": "logged out"})


def whoami(req: Request):
    acc = account(req, "referee")
    return json_response({"username": acc.username, "role": acc.role})


def list_accounts(req: Request):
    account(req, "organizer")
    with req.app.db.tx() as tx:
        rows = tx.all("SELECT username, role, active, created_at FROM accounts ORDER BY username")
    return json_response([dict(r, active=bool(r["active"])) for r in rows])


def create_account(req: Request):
    acc = account(req, "organizer")
    body = _obj(req.json())
    _only(body, ("username", "password", "role"))
    username = id_field(body, "username")
    password = s_field(body, "password", max_len=1000)
    role = s_field(body, "role")
    if role not in auth.ROLES:
        raise ApiError(400, "role must be organizer or referee")
    if len(password) < auth.MIN_PASSWORD:
        raise ApiError(400, "passwords need at least %d characters" % auth.MIN_PASSWORD)
    with req.app.db.tx(write=True) as tx:
        if tx.one("SELECT id FROM accounts WHERE username = ?", (username,)):
            raise ApiError(409, "account %r exists" % username)
        auth.create_account(tx, username, password, role)
        store.audit(tx, acc.username, "account.create", None, "account " + username, None, {"username": username, "role": role})
    return json_response({"username": username, "role": role, "active": True}, 201)


def update_account(req: Request):
    acc = account(req, "organizer")
    username = _path_id(req, "username")
    body = _obj(req.json())
    _only(body, ("password", "role", "active"))
    with req.app.db.tx(write=True) as tx:
        row = tx.one("SELECT id, username, role, active FROM accounts WHERE username = ?", (username,))
        if row is None:
            raise ApiError(404, "no account %r" % username)
        before = {"role": row["role"], "active": bool(row["active"])}
        after = dict(before)
        if "role" in body:
            role = s_field(body, "role")
            if role not in auth.ROLES:
                raise ApiError(400, "role must be organizer or referee")
            after["role"] = role
        if "active" in body:
            if not isinstance(body["active"], bool):
                raise ApiError(400, "active must be true or false")
            after["active"] = body["active"]
        if (after["role"] != "organizer" or not after["active"]) and row["role"] == "organizer" and row["active"]:
            others = tx.scalar("SELECT COUNT(*) FROM accounts WHERE role = 'organizer' AND active = 1 AND id <> ?", (row["id"],))
            if not others:
                raise ApiError(409, "the last active organizer cannot be demoted or deactivated")
        tx.execute("UPDATE accounts SET role = ?, active = ? WHERE id = ?", (after["role"], 1 if after["active"] else 0, row["id"]))
        if "password" in body:
            pw = s_field(body, "password", max_len=1000)
            if len(pw) < auth.MIN_PASSWORD:
                raise ApiError(400, "passwords need at least %d characters" % auth.MIN_PASSWORD)
            tx.execute("UPDATE accounts SET password_hash = ? WHERE id = ?", (auth.hash_password(pw), row["id"]))
            after["password"] = "(changed)"
        if "password" in body or not after["active"]:
            auth.revoke_tokens(tx, row["id"])
        store.audit(tx, acc.username, "account.update", None, "account " + username, before, after)
    after.pop("password", None)
    return json_response(dict(after, username=username))


# --------------------------------------------------------------------------- records

def _store_one(db, obj: Any) -> tuple[int, dict]:
    """One upload -> (status, body). Order: envelope (400), device and signature (403), payload
    (400), then idempotence: identical -> 200 known, same (device, seq) other payload -> 409.
    Hot path: one lookup query, then one INSERT .. ON CONFLICT DO NOTHING (a correction record
    also writes its corrections and audit rows, in one transaction)."""
    try:
        env = records.parse_envelope(obj)
    except BadRecord as e:
        return 400, {"error": str(e)}
    with db.autocommit() as tx:
        key, existing = store.key_and_record(tx, env.device, env.seq)
    if key is None or not records.signature_ok(key, env):
        return 403, {"error": "unknown device or bad signature"}
    try:
        rec = records.to_record(env)
    except BadRecord as e:
        return 400, {"error": str(e)}
    if existing is None:
        if rec.kind == "correction":
            with db.tx(write=True) as tx:
                stored = store.insert_record(tx, rec)
        else:
            with db.autocommit(write=True) as tx:
                stored = store.insert_record(tx, rec)
        if stored:
            return 201, {"status": "stored", "device": env.device, "seq": env.seq}
        with db.autocommit() as tx:  # a concurrent upload of the same (device, seq) won the race
            existing = bytes(store.find_record(tx, env.device, env.seq)["payload"])
    if existing == env.payload:
        return 200, {"status": "known", "device": env.device, "seq": env.seq}
    return 409, {"error": "record %s/%d is stored with a different payload; the stored one is kept" % (env.device, env.seq)}


def post_record(req: Request):
    status, body = _store_one(req.app.db, req.json())
    return json_response(body, status)


def post_batch(req: Request):
    items = req.json()
    if isinstance(items, dict) and set(items) == {"records"}:
        items = items["records"]
    if not isinstance(items, list):
        raise ApiError(400, "a batch is a JSON list of records (or {\"records\": [...]})")
    if len(items) > BATCH_MAX:
        raise ApiError(400, "at most %d records per batch" % BATCH_MAX)
    results = []
    for i, obj in enumerate(items):
        status, body = _store_one(req.app.db, obj)
        results.append(dict(body, index=i, status_code=status))
    counts: dict[str, int] = {}
    for r in results:
        counts[str(r["status_code"])] = counts.get(str(r["status_code"]), 0) + 1
    return json_response({"results": results, "counts": counts})


# --------------------------------------------------------------------------- tournaments

def _tournament_or_404(tx, tid: str) -> dict:
    try:
        return store.get_tournament(tx, tid)
    except store.NotFound as e:
        raise ApiError(404, str(e)) from None


def list_tournaments(req: Request):
    with req.app.db.tx() as tx:
        return json_response(store.list_tournaments(tx))


def create_tournament(req: Request):
    acc = account(req, "organizer")
    body = _obj(req.json())
    _only(body, ("id", "name", "format", "settings"))
    tid = id_field(body, "id")
    name = s_field(body, "name")
    fmt = s_field(body, "format")
    try:
        with req.app.db.tx(write=True) as tx:
            t = store.create_tournament(tx, acc.username, tid, name, fmt, body.get("settings"))
    except store.Invalid as e:
        raise ApiError(400, str(e)) from None
    except store.Conflict as e:
        raise ApiError(409, str(e)) from None
    return json_response(t, 201)


def get_tournament(req: Request):
    tid = _path_id(req, "tid")
    with req.app.db.tx() as tx:
        return json_response(_tournament_or_404(tx, tid))


def update_tournament(req: Request):
    acc = account(req, "organizer")
    tid = _path_id(req, "tid")
    body = _obj(req.json())
    _only(body, ("name", "settings"))
    name = s_field(body, "name", required=False, default=None) if "name" in body else None
    try:
        with req.app.db.tx(write=True) as tx:
            _tournament_or_404(tx, tid)
            t = store.update_tournament(tx, acc.username, tid, name, body.get("settings"))
    except store.Invalid as e:
        raise ApiError(400, str(e)) from None
    return json_response(t)


def delete_tournament(req: Request):
    acc = account(req, "organizer")
    tid = _path_id(req, "tid")
    with req.app.db.tx(write=True) as tx:
        _tournament_or_404(tx, tid)
        store.delete_tournament(tx, acc.username, tid)
    return json_response({"status": "deleted", "id": tid})


# --------------------------------------------------------------------------- players

PLAYER_FIELDS = ("id", "name", "draw", "ema_id", "country")


def _player(obj: Any, i: int) -> dict:
    obj = _obj(obj, "player %d" % i)
    _only(obj, PLAYER_FIELDS, "player %d" % i)
    try:
        return {
            "id": id_field(obj, "id"),
            "name": s_field(obj, "name"),
            "draw": i_field(obj, "draw", required=False, lo=1, hi=10**6),
            "ema_id": s_field(obj, "ema_id", required=False, max_len=20, empty=True),
            "country": s_field(obj, "country", required=False, max_len=60, empty=True),
        }
    except ApiError as e:
        raise ApiError(400, "player %d: %s" % (i, e.message)) from None


def _players_from_csv(text: str) -> list:
    rows = list(csv.DictReader(io.StringIO(text)))
    out = []
    for r in rows:
        obj: dict = {}
        for k, v in r.items():
            if k is None:
                raise ApiError(400, "a CSV row has more cells than the header")
            k = k.strip()
            if k not in PLAYER_FIELDS:
                raise ApiError(400, "unknown CSV column %r (columns: %s)" % (k, ", ".join(PLAYER_FIELDS)))
            v = (v or "").strip()
            if k == "draw":
                if v == "":
                    continue
                if not v.isdigit() or len(v) > 7:
                    raise ApiError(400, "draw must be a positive integer, not %r" % v[:20])
                obj[k] = int(v)
            else:
                obj[k] = v
        out.append(obj)
    return out


def import_players(req: Request):
    acc = account(req, "organizer")
    tid = _path_id(req, "tid")
    if req.header("Content-Type").split(";")[0].strip() == "text/csv":
        try:
            items = _players_from_csv(req.body.decode("utf-8-sig"))
        except (UnicodeDecodeError, csv.Error):
            raise ApiError(400, "the CSV is not valid UTF-8 CSV") from None
    else:
        body = req.json()
        items = body["players"] if isinstance(body, dict) and "players" in body else body
        if not isinstance(items, list):
            raise ApiError(400, "send a list of players, {\"players\": [...]}, or text/csv")
    if len(items) > 10000:
        raise ApiError(400, "at most 10000 players per import")
    players = [_player(p, i) for i, p in enumerate(items)]
    ids = [p["id"] for p in players]
    if len(set(ids)) != len(ids):
        raise ApiError(400, "a player id is listed twice")
    draws = [p["draw"] for p in players if p["draw"] is not None]
    if len(set(draws)) != len(draws):
        raise ApiError(400, "a draw number is listed twice")
    try:
        with req.app.db.tx(write=True) as tx:
            _tournament_or_404(tx, tid)
            counts = store.import_players(tx, acc.username, tid, players)
    except store.Conflict as e:
        raise ApiError(409, str(e)) from None
    return json_response(counts)


def list_players(req: Request):
    tid = _path_id(req, "tid")
    with req.app.db.tx() as tx:
        _tournament_or_404(tx, tid)
        return json_response(store.list_players(tx, tid))


# --------------------------------------------------------------------------- devices

def register_device(req: Request):
    acc = account(req, "organizer")
    body = _obj(req.json())
    _only(body, ("id", "key", "label"))
    device = id_field(body, "id")
    key_hex = s_field(body, "key", max_len=64)
    if len(key_hex) != 64 or any(c not in "0123456789abcdefABCDEF" for c in key_hex):
        raise ApiError(400, "key must be 32 bytes as 64 hex digits")
    label = s_field(body, "label", required=False, empty=True)
    try:
        with req.app.db.tx(write=True) as tx:
            d = store.register_device(tx, acc.username, device, bytes.fromhex(key_hex), label)
    except store.Conflict as e:
        raise ApiError(409, str(e)) from None
    return json_response(d, 201)


def list_devices(req: Request):
    account(req, "organizer")
    with req.app.db.tx() as tx:
        return json_response(store.list_devices(tx))


# --------------------------------------------------------------------------- results

def _result(req: Request) -> standings.Result:
    tid = _path_id(req, "tid")
    with req.app.db.tx() as tx:
        _tournament_or_404(tx, tid)
    return standings.cached(req.app.db, tid)


def get_standings(req: Request):
    return json_response(_result(req).as_json())


def list_sessions(req: Request):
    res = _result(req)
    out: dict = {}
    for (s, t), tb in sorted(res.tables.items()):
        out.setdefault(s, []).append({"table": t, "players": [p["player"] for p in tb["players"]], "hands": len(tb["hands"]),
                                      "started": tb["started"], "ended": tb["ended"], "problems": len(tb["problems"])})
    return json_response([{"session": s, "tables": ts} for s, ts in out.items()])


def unresolved_corrections(req: Request):
    account(req, "referee")
    with req.app.db.tx() as tx:
        rows = store.dangling_corrections(tx)
    for r in rows:
        r["deltas"] = json.loads(r["deltas"])
    return json_response(rows)


def get_table(req: Request):
    res = _result(req)
    key = (req.params["session"], req.params["table"])
    t = res.tables.get(key)
    if t is None:
        raise ApiError(404, "no results for session %d table %d" % key)
    return json_response(t)


def player_hands(req: Request):
    res = _result(req)
    pid = _path_id(req, "pid")
    out = []
    for key in sorted(res.tables):
        for h in res.tables[key]["hands"]:
            if pid in h["seats"]:
                seat = h["seats"].index(pid)
                out.append(dict(h, seat=seat, delta=h["deltas"][seat]))
    row = next((r for r in res.rows if r["player"] == pid), None)
    if row is None and not out and pid not in res.names():
        raise ApiError(404, "no player %r in this tournament" % pid)
    return json_response({"player": pid, "name": res.names().get(pid, ""), "standing": row, "hands": out})


def get_awards(req: Request):
    res = _result(req)
    try:
        return json_response({"awards": standings.awards(res)})
    except TournamentError as e:
        raise ApiError(409, str(e)) from None


def _csv(text: str, name: str):
    return text_response(text, content_type="text/csv; charset=utf-8", headers=[("Content-Disposition", 'attachment; filename="%s"' % name)])


def export_standings(req: Request):
    res = _result(req)
    st = res.standings
    if res.tournament["format"] == "sichuan_003" or res.tournament["format"] == "mcr_survival":
        out = io.StringIO()
        w = csv.writer(out)
        cols = list(res.rows[0].keys()) if res.rows else ["rank", "player", "name"]
        w.writerow(cols)
        for r in res.rows:
            w.writerow([_cell(r.get(c)) for c in cols])
        return _csv(out.getvalue(), "%s-standings.csv" % res.tournament["id"])
    names = {_cell(p): _cell(n) for p, n in res.names().items()}
    st = [replace(s, player=_cell(s.player)) for s in st]
    return _csv(exports.standings_csv(st, names), "%s-standings.csv" % res.tournament["id"])


def _cell(v: Any) -> Any:
    """Spreadsheets run cells starting with = + - @ as formulas: such text (not numbers) gets a
    leading apostrophe in the CSV exports."""
    if isinstance(v, str) and v[:1] in ("=", "+", "@", "-") and not _numeric(v):
        return "'" + v
    return "" if v is None else v


def _numeric(v: str) -> bool:
    try:
        Fraction(v)
        return True
    except (ValueError, ZeroDivisionError):
        return False


def export_hands(req: Request):
    res = _result(req)
    hs = [replace(h, winner=_cell(h.winner) if h.winner else None, discarder=_cell(h.discarder) if h.discarder else None,
                  scores={_cell(p): v for p, v in h.scores.items()}) for h in standings.hand_records(res)]
    return _csv(exports.hands_csv(hs), "%s-hands.csv" % res.tournament["id"])


def split_name(name: str) -> tuple[str, str]:
    """EMA wants last and first names. DECISION: "Last, First" when there is a comma, else the
    last word is the last name ("Anna Martin" -> Martin, Anna); one word is the last name."""
    if "," in name:
        last, first = name.split(",", 1)
        return last.strip(), first.strip()
    parts = name.split()
    if len(parts) <= 1:
        return name.strip(), ""
    return parts[-1], " ".join(parts[:-1])


def export_ema(req: Request):
    res = _result(req)
    if res.tournament["format"] not in ("mcr_000", "mcr_swiss_001"):
        raise ApiError(409, "the EMA results file is for Chinese Official (MCR) tournaments")
    info = {}
    for p in res.snapshot.players:
        last, first = split_name(p["name"])
        info[p["id"]] = exports.EmaPlayer(_cell(last), _cell(first), _cell(p["country"]), _cell(p["ema_id"]))
    st = [s for s in res.standings if s.player not in res.disqualified]
    for s in st:
        info.setdefault(s.player, exports.EmaPlayer(_cell(s.player), "", "", ""))
    try:
        text = exports.ema_results_csv(st, info)
    except TournamentError as e:
        raise ApiError(409, str(e)) from None
    return _csv(text, "%s-ema.csv" % res.tournament["id"])


# --------------------------------------------------------------------------- referee actions

def add_correction(req: Request):
    acc = account(req, "referee")
    tid = _path_id(req, "tid")
    body = _obj(req.json())
    _only(body, ("device", "seq", "deltas", "reason"))
    device = id_field(body, "device")
    seq = i_field(body, "seq", lo=1, hi=2**32 - 1)
    deltas = body.get("deltas")
    if not isinstance(deltas, list) or len(deltas) != 4 or any(isinstance(d, bool) or not isinstance(d, int) or abs(d) > 10**9 for d in deltas):
        raise ApiError(400, "deltas must be a list of 4 integers")
    reason = s_field(body, "reason", max_len=1000)
    try:
        with req.app.db.tx(write=True) as tx:
            _tournament_or_404(tx, tid)
            c = store.add_correction(tx, acc.username, tid, device, seq, deltas, reason)
    except store.NotFound as e:
        raise ApiError(404, str(e)) from None
    except store.Invalid as e:
        raise ApiError(400, str(e)) from None
    return json_response(c, 201)


def list_corrections(req: Request):
    tid = _path_id(req, "tid")
    with req.app.db.tx() as tx:
        _tournament_or_404(tx, tid)
        rows = store.tournament_corrections(tx, tid)
    for r in rows:
        r["deltas"] = json.loads(r["deltas"])
    return json_response(rows)


def add_penalty(req: Request):
    acc = account(req, "referee")
    tid = _path_id(req, "tid")
    body = _obj(req.json())
    _only(body, ("session", "player", "kind", "minutes", "points", "reason"))
    p = {
        "session": i_field(body, "session", lo=1, hi=10000),
        "player": id_field(body, "player"),
        "kind": s_field(body, "kind"),
        "reason": s_field(body, "reason", max_len=1000),
    }
    kind = p["kind"]
    if kind == "late":
        m = body.get("minutes")
        if isinstance(m, bool) or not isinstance(m, (int, float, str)):
            raise ApiError(400, "late needs minutes (a number)")
        try:
            f = Fraction(str(m))
        except (ValueError, ZeroDivisionError):
            raise ApiError(400, "minutes must be a number") from None
        if f < 0 or f > 100000:
            raise ApiError(400, "minutes must be between 0 and 100000")
        p["minutes"] = str(f)
        if "points" in body:
            raise ApiError(400, "late takes minutes, not points")
    elif kind == "points":
        p["points"] = i_field(body, "points", lo=-100000, hi=100000)
        if "minutes" in body:
            raise ApiError(400, "points take no minutes")
    elif kind == "disqualification":
        if "minutes" in body or "points" in body:
            raise ApiError(400, "a disqualification takes neither minutes nor points")
    else:
        raise ApiError(400, "kind must be late, points or disqualification")
    with req.app.db.tx(write=True) as tx:
        t = _tournament_or_404(tx, tid)
        if t["format"] == "mcr_survival":
            raise ApiError(400, "the survival event takes its penalties at the table (penalty events of the hands)")
        if kind == "late" and t["format"] == "sichuan_003":
            raise ApiError(400, "late arrival in Sichuan is handled at the table: enter points or a disqualification")
        out = store.add_penalty(tx, acc.username, tid, p)
    return json_response(out, 201)


def list_penalties(req: Request):
    tid = _path_id(req, "tid")
    with req.app.db.tx() as tx:
        _tournament_or_404(tx, tid)
        return json_response(store.list_penalties(tx, tid))


def revoke_penalty(req: Request):
    acc = account(req, "referee")
    tid = _path_id(req, "tid")
    try:
        with req.app.db.tx(write=True) as tx:
            out = store.revoke_penalty(tx, acc.username, tid, req.params["pid"])
    except store.NotFound as e:
        raise ApiError(404, str(e)) from None
    except store.Conflict as e:
        raise ApiError(409, str(e)) from None
    return json_response(out)


def add_playoff(req: Request):
    acc = account(req, "referee")
    tid = _path_id(req, "tid")
    body = _obj(req.json())
    _only(body, ("session", "table", "scores"))
    session = i_field(body, "session", lo=1, hi=10000)
    table = i_field(body, "table", required=False, lo=1, hi=10**6)
    scores = body.get("scores")
    if not isinstance(scores, dict) or not 1 <= len(scores) <= 64:
        raise ApiError(400, "scores must be an object player -> play-off score")
    for k, v in scores.items():
        try:
            records.ident(k, "player")
        except BadRecord as e:
            raise ApiError(400, str(e)) from None
        if isinstance(v, bool) or not isinstance(v, int) or abs(v) > 10**9:
            raise ApiError(400, "play-off scores must be integers")
    with req.app.db.tx(write=True) as tx:
        _tournament_or_404(tx, tid)
        out = store.add_playoff(tx, acc.username, tid, session, table, scores)
    return json_response(out, 201)


def list_playoffs(req: Request):
    tid = _path_id(req, "tid")
    with req.app.db.tx() as tx:
        _tournament_or_404(tx, tid)
        return json_response(store.list_playoffs(tx, tid))


def get_audit(req: Request):
    account(req, "organizer")
    tid = req.arg("tournament") or None
    with req.app.db.tx() as tx:
        return json_response(store.audit_rows(tx, tid))


# --------------------------------------------------------------------------- seatings

METHODS = ("draw", "rank", "swiss", "preset", "snake", "manual")


def _field_players(res: standings.Result) -> tuple[list[str], list[str]]:
    """(players by draw number, players by current rank), disqualified players left out."""
    reg = [p["id"] for p in res.snapshot.players if p["id"] not in res.disqualified]
    by_draw = reg or [s.player for s in res.standings if s.player not in res.disqualified]
    pool = set(by_draw)
    ranked = [s.player for s in res.standings if s.player in pool]
    ranked += [p for p in by_draw if p not in set(ranked)]
    return by_draw, ranked


def _seating_json(session: int, tables, names: dict, method: str, extra: Optional[dict] = None) -> dict:
    return {
        "session": session, "method": method,
        "tables": [{"table": t.number, "players": list(t.players), "seats": [list(s) for s in t.seats()]} for t in tables],
        "text": seating.render_seating(tables, "Session %d" % session, names),
        **(extra or {}),
    }


def make_seating(req: Request):
    acc = account(req, "organizer")
    res = _result(req)
    tid = res.tournament["id"]
    session = _session_no(req.params["session"])
    body = _obj(req.json())
    _only(body, ("method", "tables", "save"))
    method = s_field(body, "method")
    if method not in METHODS:
        raise ApiError(400, "method must be one of %s" % ", ".join(METHODS))
    save = body.get("save", True)
    if not isinstance(save, bool):
        raise ApiError(400, "save must be true or false")
    allow_three = res.tournament["format"] in ("mcr_000", "mcr_swiss_001")
    by_draw, ranked = _field_players(res)
    extra: dict = {}
    try:
        if method == "draw":
            tables = seating.draw_seating(by_draw, allow_three)
        elif method == "rank":
            tables = seating.rank_seating(ranked, allow_three)
        elif method == "swiss":
            with req.app.db.tx() as tx:
                past = store.all_seatings(tx, tid)
            history = [[t["players"] for t in ts] for s, ts in past.items() if s < session]
            history += [[tb.players() for (s, _), tb in res.snapshot.tables.items() if s < session]]
            sw = seating.swiss_seating(ranked, seating.opponents(history), allow_three=allow_three)
            tables = list(sw.tables)
            extra = {"repeats": sw.repeats, "repeated_pairs": [list(p) for p in sw.repeated_pairs], "minimal": sw.minimal}
        elif method == "preset":
            if not 1 <= session <= 3:
                raise ApiError(400, "the pre-set schedule covers sessions 1-3")
            tables = seating.preset_schedule(by_draw, 3)[session - 1]
        elif method == "snake":
            tables, waiting = seating.snake_seating(ranked)
            extra = {"waiting": waiting}
        else:
            given = body.get("tables")
            if not isinstance(given, list) or not given or len(given) > 5000:
                raise ApiError(400, "manual seating needs tables: a list of player lists (E S W N)")
            tables = []
            seen: set = set()
            for i, ps in enumerate(given, 1):
                if not isinstance(ps, list) or not 3 <= len(ps) <= 4:
                    raise ApiError(400, "table %d must list 3 or 4 players" % i)
                ids = [records.ident(p, "player") if isinstance(p, str) else _bad("player ids are strings") for p in ps]
                if seen & set(ids) or len(set(ids)) != len(ids):
                    raise ApiError(400, "a player is seated twice")
                seen |= set(ids)
                tables.append(seating.Table(i, tuple(ids)))
    except TournamentError as e:
        raise ApiError(409, str(e)) from None
    except BadRecord as e:
        raise ApiError(400, str(e)) from None
    if save:
        with req.app.db.tx(write=True) as tx:
            store.save_seating(tx, acc.username, tid, session, [(t.number, list(t.players)) for t in tables], method)
    return json_response(_seating_json(session, tables, res.names(), method, dict(extra, saved=save)), 201 if save else 200)


def _bad(msg: str):
    raise ApiError(400, msg)


def get_seating(req: Request):
    tid = _path_id(req, "tid")
    session = _session_no(req.params["session"])
    with req.app.db.tx() as tx:
        _tournament_or_404(tx, tid)
        rows = store.get_seating(tx, tid, session)
        names = {p["id"]: p["name"] for p in store.list_players(tx, tid)}
    if not rows:
        raise ApiError(404, "no seating for session %d" % session)
    tables = [seating.Table(r["table"], tuple(r["players"])) for r in rows]
    if req.arg("format") == "text":
        return text_response(seating.render_seating(tables, "Session %d" % session, names))
    return json_response(_seating_json(session, tables, names, rows[0]["method"]))


# --------------------------------------------------------------------------- misc

def openapi_doc(req: Request):
    from host_tools.server import openapi

    return json_response(openapi.document(req.app.router))


def health(req: Request):
    with req.app.db.tx() as tx:
        v = tx.scalar("SELECT MAX(version) FROM schema_version")
    return json_response({"status": "ok", "database": req.app.db.dialect, "schema_version": v})


# --------------------------------------------------------------------------- schemas and routes

S = {"type": "string"}
I = {"type": "integer"}
ENVELOPE = {"type": "object", "required": ["device", "seq", "payload", "sig"], "additionalProperties": False, "properties": {
    "device": S, "seq": {"type": "integer", "minimum": 1, "maximum": 4294967295},
    "payload": {"type": "string", "format": "byte", "description": "0x01 + minified UTF-8 JSON of a session, hand, correction or session_end record"},
    "sig": {"type": "string", "pattern": "^[0-9a-fA-F]{64}$", "description": "hex HMAC-SHA256(key, device + NUL + seq (4 bytes BE) + payload)"}}}
TOURNAMENT = {"type": "object", "required": ["id", "name", "format"], "properties": {
    "id": S, "name": S, "format": {"type": "string", "enum": list(store.FORMATS)}, "settings": {"type": "object"}}}
PLAYER = {"type": "object", "required": ["id", "name"], "properties": {"id": S, "name": S, "draw": I, "ema_id": S, "country": S}}


def register(r) -> None:
    r.add("GET", "/openapi.json", openapi_doc, "This OpenAPI 3 document")
    r.add("GET", "/api/health", health, "Liveness and schema version")
    r.add("POST", "/api/login", login, "Log in: returns a bearer token", body={"type": "object", "required": ["username", "password"], "properties": {"username": S, "password": S}})
    r.add("POST", "/api/logout", logout, "Revoke the bearer token")
    r.add("GET", "/api/me", whoami, "The logged-in account", role="referee")
    r.add("GET", "/api/accounts", list_accounts, "List accounts", role="organizer")
    r.add("POST", "/api/accounts", create_account, "Create an organizer or referee account", role="organizer",
          body={"type": "object", "required": ["username", "password", "role"], "properties": {"username": S, "password": S, "role": {"type": "string", "enum": list(auth.ROLES)}}})
    r.add("PATCH", "/api/accounts/{username}", update_account, "Change an account's password, role or active flag", role="organizer",
          body={"type": "object", "properties": {"password": S, "role": S, "active": {"type": "boolean"}}})
    r.add("POST", "/api/records", post_record, "Upload one signed device record", role="device", body=ENVELOPE,
          responses={"201": "stored", "200": "identical record already stored ({status: known})", "409": "same device and seq with another payload", "403": "unknown device or bad signature", "400": "malformed"})
    r.add("POST", "/api/records:batch", post_batch, "Upload up to 200 signed records; per-item statuses", role="device",
          body={"type": "array", "maxItems": BATCH_MAX, "items": ENVELOPE})
    r.add("POST", "/api/devices", register_device, "Register a table device and its 32-byte key (write-only)", role="organizer",
          body={"type": "object", "required": ["id", "key"], "properties": {"id": S, "key": {"type": "string", "pattern": "^[0-9a-fA-F]{64}$"}, "label": S}})
    r.add("GET", "/api/devices", list_devices, "List devices (keys are never returned)", role="organizer")
    r.add("GET", "/api/tournaments", list_tournaments, "List tournaments")
    r.add("POST", "/api/tournaments", create_tournament, "Create a tournament", role="organizer", body=TOURNAMENT)
    r.add("GET", "/api/tournaments/{tid}", get_tournament, "A tournament")
    r.add("PATCH", "/api/tournaments/{tid}", update_tournament, "Rename a tournament or change its settings", role="organizer",
          body={"type": "object", "properties": {"name": S, "settings": {"type": "object"}}})
    r.add("DELETE", "/api/tournaments/{tid}", delete_tournament, "Delete a tournament (records, corrections, penalties stay)", role="organizer")
    r.add("GET", "/api/tournaments/{tid}/players", list_players, "Players of a tournament")
    r.add("POST", "/api/tournaments/{tid}/players", import_players, "Import players (JSON list or text/csv with id,name,draw,ema_id,country)", role="organizer",
          body={"type": "array", "items": PLAYER})
    r.add("GET", "/api/tournaments/{tid}/standings", get_standings, "Standings, recomputed from records, corrections, penalties and play-offs")
    r.add("GET", "/api/tournaments/{tid}/sessions", list_sessions, "Sessions and their tables as uploaded (hands, start, end, problems)")
    r.add("GET", "/api/corrections/unresolved", unresolved_corrections, "Device corrections whose target record has not arrived", role="referee")
    r.add("GET", "/api/tournaments/{tid}/tables/{session:int}/{table:int}", get_table, "One table's hands and results")
    r.add("GET", "/api/tournaments/{tid}/players/{pid}/hands", player_hands, "A player's hands")
    r.add("GET", "/api/tournaments/{tid}/awards", get_awards, "Seed 000 awards over the preliminary sessions")
    r.add("GET", "/api/tournaments/{tid}/corrections", list_corrections, "Corrections (device and referee)")
    r.add("POST", "/api/tournaments/{tid}/corrections", add_correction, "Correct a hand's deltas (a new entry; the record stays)", role="referee",
          body={"type": "object", "required": ["device", "seq", "deltas", "reason"], "properties": {"device": S, "seq": I, "deltas": {"type": "array", "items": I, "minItems": 4, "maxItems": 4}, "reason": S}})
    r.add("GET", "/api/tournaments/{tid}/penalties", list_penalties, "Off-table penalties")
    r.add("POST", "/api/tournaments/{tid}/penalties", add_penalty, "Add an off-table penalty (late, points, disqualification)", role="referee",
          body={"type": "object", "required": ["session", "player", "kind", "reason"], "properties": {"session": I, "player": S, "kind": {"type": "string", "enum": ["late", "points", "disqualification"]}, "minutes": {"type": "number"}, "points": I, "reason": S}})
    r.add("DELETE", "/api/tournaments/{tid}/penalties/{pid:int}", revoke_penalty, "Revoke a penalty (kept, marked revoked)", role="referee")
    r.add("GET", "/api/tournaments/{tid}/playoffs", list_playoffs, "Recorded play-off results")
    r.add("POST", "/api/tournaments/{tid}/playoffs", add_playoff, "Record a play-off result (Sichuan ties; table omitted: runners-up play-off)", role="referee",
          body={"type": "object", "required": ["session", "scores"], "properties": {"session": I, "table": I, "scores": {"type": "object", "additionalProperties": I}}})
    r.add("POST", "/api/tournaments/{tid}/seatings/{session:int}", make_seating, "Seat a session: draw, rank, swiss, preset, snake or manual", role="organizer",
          body={"type": "object", "required": ["method"], "properties": {"method": {"type": "string", "enum": list(METHODS)}, "tables": {"type": "array", "items": {"type": "array", "items": S}}, "save": {"type": "boolean"}}})
    r.add("GET", "/api/tournaments/{tid}/seatings/{session:int}", get_seating, "A stored seating (?format=text: printable)")
    r.add("GET", "/api/tournaments/{tid}/export/standings.csv", export_standings, "Standings as CSV", content="text/csv")
    r.add("GET", "/api/tournaments/{tid}/export/hands.csv", export_hands, "Hands as CSV", content="text/csv")
    r.add("GET", "/api/tournaments/{tid}/export/ema.csv", export_ema, "EMA results file (MCR)", content="text/csv")
    r.add("GET", "/api/audit", get_audit, "The audit log (?tournament=ID)", role="organizer")
