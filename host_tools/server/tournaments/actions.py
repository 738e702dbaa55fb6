"""Changes to tournaments, players, attendance, roles and seatings: each validated, written in
one transaction with its audit entry, and bumping the results version where results depend on
it. The JSON API and the organizer's pages both call these (one place for each rule)."""
from __future__ import annotations

from typing import Optional

from django.contrib.auth import get_user_model
from django.db import transaction
from django.db.models import F
from django.utils import timezone

from host_tools.server.errors import Conflict, Invalid, NotFound
from host_tools.tournament import seating as seating_mod
from host_tools.tournament.model import TournamentError

from . import audit, formats
from .models import Absence, Player, Role, Seating, SeatingTable, Tournament

METHODS = ("draw", "rank", "swiss", "preset", "snake", "manual")


def bump(tid: str) -> None:
    Tournament.objects.filter(id=tid).update(results_version=F("results_version") + 1)


def get(tid: str) -> Tournament:
    try:
        return Tournament.objects.get(id=tid)
    except Tournament.DoesNotExist:
        raise NotFound("no tournament %r" % tid) from None


DETAILS = ("time_zone", "start_date", "end_date", "city", "country", "mers_weight")  # the event itself (Tournament's fields)


def details_dict(t: Tournament) -> dict:
    out = {k: getattr(t, k) for k in DETAILS}
    for k in ("start_date", "end_date"):
        out[k] = None if out[k] is None else out[k].isoformat()
    return out


def as_dict(t: Tournament) -> dict:
    return {"id": t.id, "name": t.name, "format": t.format, "settings": t.settings, "created_at": t.created_at.isoformat(timespec="seconds"),
            "details": details_dict(t)}


def _check_details(details: dict) -> dict:
    """The event's details as stored: a time zone the server knows (IANA, e.g. Europe/Paris),
    ISO dates (the last not before the first), a three-letter country code, a MERS weight as a
    short decimal."""
    import datetime
    import zoneinfo

    from host_tools.server import numeric

    out = {}
    for k, v in details.items():
        if k not in DETAILS:
            raise Invalid("unknown detail %r (details: %s)" % (k, ", ".join(DETAILS)))
        v = "" if v is None else v
        if not isinstance(v, str) or len(v) > 100 or any(ord(c) < 32 for c in v):
            raise Invalid("%s must be text" % k)
        v = v.strip()
        if k == "time_zone" and v:
            try:
                zoneinfo.ZoneInfo(v)
            except (zoneinfo.ZoneInfoNotFoundError, ValueError):
                raise Invalid("time_zone %r is not a time zone name (e.g. Europe/Paris, Asia/Shanghai)" % v[:64]) from None
        elif k in ("start_date", "end_date"):
            try:
                v = datetime.date.fromisoformat(v) if v else None
            except ValueError:
                raise Invalid("%s must be a date YYYY-MM-DD" % k) from None
        elif k == "country" and v and not (len(v) == 3 and v.isascii() and v.isalpha()):
            raise Invalid("country must be a three-letter code (as the EMA lists it: FRA, CHN, ...)")
        elif k == "country":
            v = v.upper()
        elif k == "mers_weight" and v:
            try:
                numeric.decimal(v, "mers_weight", 0, 10)  # checked; kept as typed
            except numeric.BadNumber as e:
                raise Invalid(str(e)) from None
        elif k == "city" and len(v) > 100:
            raise Invalid("city: at most 100 characters")
        out[k] = v
    return out


# --------------------------------------------------------------------------- tournaments

def create_tournament(actor: str, tid: str, name: str, fmt: str, settings: Optional[dict]) -> Tournament:
    try:
        s = formats.check_settings(fmt, settings)
    except formats.Invalid as e:
        raise Invalid(str(e)) from None
    with transaction.atomic():
        if Tournament.objects.filter(id=tid).exists():
            raise Conflict("tournament %r exists" % tid)
        t = Tournament.objects.create(id=tid, name=name, format=fmt, settings=s)
        audit.log(actor, "tournament.create", tid, "tournament " + tid, None, as_dict(t))
    return t


def update_tournament(actor: str, tid: str, name: Optional[str], settings: Optional[dict], details: Optional[dict] = None) -> Tournament:
    with transaction.atomic():
        t = get(tid)
        before = as_dict(t)
        if settings is not None:
            try:
                t.settings = formats.check_settings(t.format, dict(t.settings, **settings))
            except formats.Invalid as e:
                raise Invalid(str(e)) from None
        if name is not None:
            t.name = name
        if details is not None:
            for k, v in _check_details(details).items():
                setattr(t, k, v)
            if t.start_date and t.end_date and t.end_date < t.start_date:
                raise Invalid("the last day comes before the first")
        t.results_version += 1
        t.save()
        audit.log(actor, "tournament.update", tid, "tournament " + tid, before, as_dict(t))
    return t


# --------------------------------------------------------------------------- players

def player_dict(p: Player) -> dict:
    return {"id": p.pid, "name": p.name, "draw": p.draw, "ema_id": p.ema_id, "country": p.country, "substitute": p.substitute,
            "checked_in": p.checked_in, "withdrawn_from": p.withdrawn_from, "family_name": p.family_name}


def import_players(actor: str, tid: str, players: list[dict]) -> dict:
    """Insert or update players by id (each a dict with id, name and optional draw, ema_id,
    country, substitute)."""
    ids = [p["id"] for p in players]
    if len(set(ids)) != len(ids):
        raise Invalid("a player id is listed twice")
    draws = [p.get("draw") for p in players if p.get("draw") is not None]
    if len(set(draws)) != len(draws):
        raise Invalid("a draw number is listed twice")
    with transaction.atomic():
        get(tid)
        existing = {p.pid: p for p in Player.objects.filter(tournament_id=tid)}
        taken = {p.draw: p.pid for p in existing.values() if p.draw is not None}
        incoming = {p["id"] for p in players}
        for p in players:
            d = p.get("draw")
            if d is not None and taken.get(d, p["id"]) != p["id"] and taken[d] not in incoming:
                raise Conflict("draw number %d is taken by player %s" % (d, taken[d]))
        added = updated = 0
        # clear draws first so that swapping two players' draws in one import works
        Player.objects.filter(tournament_id=tid, pid__in=[i for i in ids if i in existing]).update(draw=None)
        for p in players:
            fields = {"name": p["name"], "draw": p.get("draw"), "ema_id": p.get("ema_id") or "", "country": p.get("country") or "",
                      "family_name": p.get("family_name") or ""}
            if "substitute" in p and p["substitute"] is not None:
                fields["substitute"] = bool(p["substitute"])
            old = existing.get(p["id"])
            if old is None:
                Player.objects.create(tournament_id=tid, pid=p["id"], **fields)
                added += 1
            else:
                Player.objects.filter(id=old.id).update(**fields)
                updated += 1
        bump(tid)
        audit.log(actor, "players.import", tid, "players of " + tid, None, {"added": added, "updated": updated, "players": players[:200]})
    return {"added": added, "updated": updated}


def update_player(actor: str, tid: str, pid: str, **changes) -> Player:
    allowed = {"name", "draw", "ema_id", "country", "substitute", "checked_in", "withdrawn_from", "family_name"}
    bad = set(changes) - allowed
    if bad:
        raise Invalid("unknown player fields: %s" % ", ".join(sorted(bad)))
    with transaction.atomic():
        try:
            p = Player.objects.select_for_update().get(tournament_id=tid, pid=pid)
        except Player.DoesNotExist:
            raise NotFound("no player %r in %s" % (pid, tid)) from None
        before = player_dict(p)
        if changes.get("draw") is not None and Player.objects.filter(tournament_id=tid, draw=changes["draw"]).exclude(id=p.id).exists():
            raise Conflict("draw number %d is taken" % changes["draw"])
        w = changes.get("withdrawn_from")
        if w is not None and not formats.MAX_SESSION >= w >= 1:
            raise Invalid("withdrawn_from must be a session 1..10000")
        for k, v in changes.items():
            setattr(p, k, v)
        p.save()
        bump(tid)
        audit.log(actor, "player.update", tid, "player " + pid, before, player_dict(p))
    return p


def check_in(actor: str, tid: str, present: list) -> int:
    """Check-in in one step: the players ``present`` are checked in, every other player is not.
    Returns how many are checked in."""
    get(tid)
    if len(set(present)) != len(present):
        raise Invalid("a player is named twice")
    with transaction.atomic():
        known = dict(Player.objects.select_for_update().filter(tournament_id=tid).values_list("pid", "checked_in"))
        unknown = sorted(set(present) - set(known))
        if unknown:
            raise NotFound("not registered in %s: %s" % (tid, ", ".join(unknown[:20])))
        now_in = set(present)
        came = sorted(p for p in now_in if not known[p])
        left = sorted(p for p, was in known.items() if was and p not in now_in)
        Player.objects.filter(tournament_id=tid, pid__in=came).update(checked_in=True)
        Player.objects.filter(tournament_id=tid, pid__in=left).update(checked_in=False)
        bump(tid)
        audit.log(actor, "players.check_in", tid, "players of " + tid, {"checked in": sum(known.values())},
                  {"checked in": len(now_in), "arrived": came, "not here": left})
    return len(now_in)


def set_absent(actor: str, tid: str, session: int, pid: str, absent: bool, reason: str = "") -> None:
    if not 1 <= session <= formats.MAX_SESSION:
        raise Invalid("session must be 1..10000")
    with transaction.atomic():
        try:
            p = Player.objects.get(tournament_id=tid, pid=pid)
        except Player.DoesNotExist:
            raise NotFound("no player %r" % pid) from None
        if absent:
            Absence.objects.get_or_create(tournament_id=tid, session=session, player=p, defaults={"reason": reason})
        else:
            Absence.objects.filter(tournament_id=tid, session=session, player=p).delete()
        bump(tid)  # a seated player marked absent forfeits; a table left with two or one scores by the seeds
        audit.log(actor, "player.absent" if absent else "player.present", tid, "player %s session %d" % (pid, session), None, {"reason": reason})


# --------------------------------------------------------------------------- roles

def set_role(actor: str, tid: str, username: str, role: Optional[str]) -> None:
    User = get_user_model()
    with transaction.atomic():
        get(tid)
        try:
            u = User.objects.get(username=username)
        except User.DoesNotExist:
            raise NotFound("no account %r" % username) from None
        before = Role.objects.filter(user=u, tournament_id=tid).values_list("role", flat=True).first()
        if role is None:
            Role.objects.filter(user=u, tournament_id=tid).delete()
        else:
            if role not in (Role.ORGANIZER, Role.REFEREE):
                raise Invalid("role must be organizer or referee")
            Role.objects.update_or_create(user=u, tournament_id=tid, defaults={"role": role})
        audit.log(actor, "role.set", tid, "account " + username, {"role": before}, {"role": role})


def create_account(actor: str, username: str, password: str, tid: Optional[str] = None, role: Optional[str] = None, superuser: bool = False):
    """A new account (password hashed here, outside any write transaction), optionally with a
    role in one tournament."""
    from django.contrib.auth.hashers import make_password
    from django.contrib.auth.password_validation import ValidationError, validate_password

    User = get_user_model()
    try:
        validate_password(password)
    except ValidationError as e:
        raise Invalid(" ".join(e.messages)) from None
    if len(password) < 8:
        raise Invalid("passwords need at least 8 characters")
    hashed = make_password(password)
    with transaction.atomic():
        if User.objects.filter(username=username).exists():
            raise Conflict("account %r exists" % username)
        u = User.objects.create(username=username, password=hashed, is_superuser=superuser, is_staff=superuser)
        if tid is not None and role is not None:
            get(tid)
            Role.objects.create(user=u, tournament_id=tid, role=role)
        audit.log(actor, "account.create", tid, "account " + username, None, {"username": username, "role": role or ("organizer" if superuser else None)})
    return u


def update_account(actor: str, username: str, password: Optional[str] = None, active: Optional[bool] = None,
                   superuser: Optional[bool] = None) -> dict:
    """Change an account's password, active flag or server-organizer flag; deactivating or a new
    password ends its API tokens and sessions. The last active server organizer stays one."""
    from django.contrib.auth.hashers import make_password
    from django.contrib.sessions.models import Session

    from .models import ApiToken

    User = get_user_model()
    hashed = None
    if password is not None:
        if len(password) < 8:
            raise Invalid("passwords need at least 8 characters")
        hashed = make_password(password)  # outside the transaction: hashing is slow on purpose
    with transaction.atomic():
        try:
            u = User.objects.select_for_update().get(username=username)
        except User.DoesNotExist:
            raise NotFound("no account %r" % username) from None
        before = {"active": u.is_active, "superuser": u.is_superuser}
        if active is not None:
            u.is_active = active
        if superuser is not None:
            u.is_superuser = u.is_staff = superuser
        if before["superuser"] and before["active"] and not (u.is_superuser and u.is_active):
            if not User.objects.filter(is_superuser=True, is_active=True).exclude(id=u.id).exists():
                raise Conflict("the last active server organizer cannot be demoted or deactivated")
        if hashed is not None:
            u.password = hashed
        u.save()
        if hashed is not None or not u.is_active:
            ApiToken.objects.filter(user=u).delete()
            for s in Session.objects.all().iterator():
                if str(s.get_decoded().get("_auth_user_id")) == str(u.id):
                    s.delete()
        after = {"active": u.is_active, "superuser": u.is_superuser, **({"password": "(changed)"} if hashed else {})}
        audit.log(actor, "account.update", None, "account " + username, before, after)
    return {"username": username, "active": u.is_active, "superuser": u.is_superuser}


# --------------------------------------------------------------------------- seating

def field_for(t: Tournament, session: int, ranked: list[str]) -> tuple[list[str], list[str]]:
    """(players by draw, players by rank) who play ``session``: not withdrawn, not absent;
    substitutes (in draw order) fill the last places when the count is not a multiple of four.
    DECISION: a substitute is preferred to a three-player table where the format allows those."""
    players = list(Player.objects.filter(tournament=t).order_by(F("draw").asc(nulls_last=True), "pid"))
    absent = set(Absence.objects.filter(tournament=t, session=session).values_list("player__pid", flat=True))
    playing = [p for p in players if p.active_in(session) and p.pid not in absent and not p.substitute]
    subs = [p for p in players if p.substitute and p.active_in(session) and p.pid not in absent]
    need = (-len(playing)) % 4
    if need:
        playing += subs[:need]
    by_draw = [p.pid for p in playing]
    pool = set(by_draw)
    by_rank = [p for p in ranked if p in pool] + [p for p in by_draw if p not in set(ranked)]
    return by_draw, by_rank


def generate(t: Tournament, session: int, method: str, ranked: list[str], history: list, tables: Optional[list] = None):
    """Tables (seating.Table) for ``session`` by ``method``; raises Invalid/Conflict."""
    if method not in METHODS:
        raise Invalid("method must be one of %s" % ", ".join(METHODS))
    by_draw, by_rank = field_for(t, session, ranked)
    allow_three = formats.of(t).allow_three
    info: dict = {}
    try:
        if method == "draw":
            out = seating_mod.draw_seating(by_draw, allow_three)
        elif method == "rank":
            out = seating_mod.rank_seating(by_rank, allow_three)
        elif method == "swiss":
            sw = seating_mod.swiss_seating(by_rank, seating_mod.opponents(history), allow_three=allow_three)
            out = list(sw.tables)
            info = {"repeats": sw.repeats, "repeated_pairs": [list(p) for p in sw.repeated_pairs], "minimal": sw.minimal}
        elif method == "preset":
            if not 1 <= session <= 3:
                raise Invalid("the pre-set schedule covers sessions 1-3")
            out = seating_mod.preset_schedule(by_draw, 3)[session - 1]
        elif method == "snake":
            out, waiting = seating_mod.snake_seating(by_rank)
            info = {"waiting": waiting}
        else:
            out = manual_tables(t, tables)
    except TournamentError as e:
        raise Conflict(str(e)) from None
    return list(out), info


def manual_tables(t: Tournament, given) -> list:
    if not isinstance(given, list) or not given or len(given) > formats.MAX_TABLE:
        raise Invalid("manual seating needs tables: a list of player lists (E S W N)")
    known = set(Player.objects.filter(tournament=t).values_list("pid", flat=True))
    seen: set = set()
    out = []
    numbers: set = set()
    for i, ps in enumerate(given, 1):
        if isinstance(ps, dict):  # {"table": n, "players": [...]}: tables numbered as in the hall
            i, ps = ps.get("table"), ps.get("players")
            if isinstance(i, bool) or not isinstance(i, int) or not 1 <= i <= formats.MAX_TABLE or i in numbers:
                raise Invalid("table numbers are 1..10000, each once")
        numbers.add(i)
        if not isinstance(ps, list) or not 3 <= len(ps) <= 4:
            raise Invalid("table %d must list 3 or 4 players" % i)
        for p in ps:
            if not isinstance(p, str) or p not in known:
                raise Invalid("table %d: %r is not a registered player" % (i, p))
        if seen & set(ps) or len(set(ps)) != len(ps):
            raise Invalid("a player is seated twice")
        seen |= set(ps)
        out.append(seating_mod.Table(i, tuple(ps)))
    return out


def save_seating(actor: str, t: Tournament, session: int, tables: list, method: str, info: dict) -> Seating:
    if not 1 <= session <= formats.MAX_SESSION:
        raise Invalid("session must be 1..10000")
    with transaction.atomic():
        s, _ = Seating.objects.get_or_create(tournament=t, session=session, defaults={"method": method})
        before = [{"table": x.table, "players": x.players} for x in s.tables.all()]
        was_published = s.published_at is not None
        s.method, s.info, s.published_at = method, info, None
        s.save()
        s.tables.all().delete()
        SeatingTable.objects.bulk_create([SeatingTable(seating=s, table=x.number, players=list(x.players)) for x in tables])
        if was_published:
            bump(t.id)
        audit.log(actor, "seating.save", t.id, "seating session %d" % session, before or None,
                  {"method": method, "tables": [{"table": x.number, "players": list(x.players)} for x in tables]})
    return s


def swap(actor: str, t: Tournament, session: int, a: str, b: str) -> None:
    """Swap two players' chairs in a session's seating (draft or published)."""
    with transaction.atomic():
        s = Seating.objects.filter(tournament=t, session=session).first()
        if s is None:
            raise NotFound("no seating for session %d" % session)
        tabs = list(s.tables.all())
        where = {}
        for x in tabs:
            for i, p in enumerate(x.players):
                where[p] = (x, i)
        if a not in where or b not in where:
            raise Invalid("both players must be seated in session %d" % session)
        (ta, ia), (tb, ib) = where[a], where[b]
        if ta.id == tb.id:
            ta.players[ia], ta.players[ib] = b, a
            ta.save()
        else:
            ta.players[ia] = b
            tb.players[ib] = a
            ta.save()
            tb.save()
        if s.published_at is not None:
            bump(t.id)
        audit.log(actor, "seating.swap", t.id, "seating session %d" % session, {a: ta.table, b: tb.table}, {a: tb.table, b: ta.table})


def publish(actor: str, t: Tournament, session: int, published: bool = True) -> Seating:
    with transaction.atomic():
        s = Seating.objects.filter(tournament=t, session=session).first()
        if s is None:
            raise NotFound("no seating for session %d" % session)
        s.published_at = timezone.now() if published else None
        s.save()
        bump(t.id)
        audit.log(actor, "seating.publish" if published else "seating.unpublish", t.id, "seating session %d" % session)
    return s


def seating_tables(t: Tournament, session: int) -> tuple[Optional[Seating], list]:
    s = Seating.objects.filter(tournament=t, session=session).first()
    if s is None:
        return None, []
    return s, [seating_mod.Table(x.table, tuple(x.players)) for x in s.tables.all()]
