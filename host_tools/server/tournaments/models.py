"""What the organizer and referees keep: tournaments, players, attendance, roles, seatings,
off-table penalties, play-offs, and the audit log of every change a person made."""
from __future__ import annotations

from django.conf import settings
from django.db import models
from django.utils.translation import gettext_lazy as _

from . import formats
from .formats import MAX_SESSION

ID_MAX = 64


class Tournament(models.Model):
    id = models.CharField(_("id"), max_length=ID_MAX, primary_key=True)
    name = models.CharField(_("name"), max_length=200)
    format = models.CharField(_("format"), max_length=20, choices=formats.choices())
    settings = models.JSONField(_("settings"), default=dict)
    # bumped by every change that feeds the results (uploads, rulings, penalties...): the
    # standings cache is keyed by it (results.cache)
    results_version = models.BigIntegerField(default=0)
    created_at = models.DateTimeField(auto_now_add=True)
    # the event itself (``actions.DETAILS``): the hall's time zone, the pages' times are in it
    # (empty: the server's, MT_TIME_ZONE); dates, city, country and MERS weight for the EMA sheet
    time_zone = models.CharField(_("time zone of the hall"), max_length=64, blank=True, default="")
    start_date = models.DateField(_("first day"), null=True, blank=True)
    end_date = models.DateField(_("last day"), null=True, blank=True)
    city = models.CharField(_("city"), max_length=100, blank=True, default="")
    country = models.CharField(_("country"), max_length=3, blank=True, default="")  # as the EMA lists it: three letters
    mers_weight = models.CharField(_("MERS weight"), max_length=10, blank=True, default="")  # exact decimal as text

    class Meta:
        ordering = ["id"]

    def __str__(self):
        return "%s (%s)" % (self.name, self.id)


class Player(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="players")
    pid = models.CharField(_("player id"), max_length=ID_MAX)
    name = models.CharField(_("name"), max_length=200)
    draw = models.PositiveIntegerField(_("draw number"), null=True, blank=True)
    ema_id = models.CharField(_("EMA id"), max_length=20, blank=True, default="")
    country = models.CharField(_("country"), max_length=60, blank=True, default="")
    # the family name as registered: the EMA sheet's last name (a Chinese name is family name
    # first, 李明: family_name 李); empty: the name's last word
    family_name = models.CharField(_("family name"), max_length=100, blank=True, default="")
    # a substitute fills a seat left by an absent player; substitutes are not ranked
    substitute = models.BooleanField(_("substitute"), default=False)
    checked_in = models.BooleanField(_("checked in"), default=False)
    # withdrawn from this session on (not seated any more; earlier results stay)
    withdrawn_from = models.PositiveIntegerField(_("withdrawn from session"), null=True, blank=True)

    class Meta:
        unique_together = [("tournament", "pid"), ("tournament", "draw")]
        ordering = [models.F("draw").asc(nulls_last=True), "pid"]  # the same order on both databases

    def __str__(self):
        return "%s %s" % (self.pid, self.name)

    def active_in(self, session: int) -> bool:
        return self.withdrawn_from is None or session < self.withdrawn_from


class Absence(models.Model):
    """A player who does not play session N (known before it is seated)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="absences")
    session = models.PositiveIntegerField()
    player = models.ForeignKey(Player, on_delete=models.CASCADE)
    reason = models.CharField(max_length=200, blank=True, default="")

    class Meta:
        unique_together = [("tournament", "session", "player")]


class Role(models.Model):
    """An account's role in one tournament (organizers of the whole server are superusers)."""

    ORGANIZER, REFEREE = "organizer", "referee"
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="tournament_roles")
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="roles")
    role = models.CharField(max_length=10, choices=[(ORGANIZER, _("organizer")), (REFEREE, _("referee"))])

    class Meta:
        unique_together = [("user", "tournament")]


class Seating(models.Model):
    """The seating of one session: draft until published; the boxes' configs come from the
    published one, and uploads are checked against it."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="seatings")
    session = models.PositiveIntegerField()
    method = models.CharField(max_length=20)
    published_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)
    info = models.JSONField(default=dict)  # Swiss repeats, snake waiting list...

    class Meta:
        unique_together = [("tournament", "session")]
        ordering = ["session"]


class SeatingTable(models.Model):
    seating = models.ForeignKey(Seating, on_delete=models.CASCADE, related_name="tables")
    table = models.PositiveIntegerField()
    players = models.JSONField()  # player ids in chair order E S W N (3 at a short table)

    class Meta:
        unique_together = [("seating", "table")]
        ordering = ["table"]


class Penalty(models.Model):
    LATE, POINTS, DQ = "late", "points", "disqualification"
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="penalties")
    session = models.PositiveIntegerField()
    player = models.CharField(max_length=ID_MAX)
    kind = models.CharField(max_length=20, choices=[(LATE, _("late arrival")), (POINTS, _("points")), (DQ, _("disqualification"))])
    minutes = models.CharField(max_length=30, null=True, blank=True)  # exact decimal as text
    points = models.IntegerField(null=True, blank=True)
    # Sichuan (seed 003 §五.1): the game (局, hand number at the table) a late arrival was late
    # for; None = the stage's first
    game = models.PositiveIntegerField(null=True, blank=True)
    reason = models.CharField(max_length=1000)
    referee = models.CharField(max_length=150)
    revoked = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]


class SessionStart(models.Model):
    """When the head referee starts a session for the whole hall (比赛开始, set ahead or when it
    starts): its time limit counts from it at every table (``timing.deadline``: a table that
    started late does not play longer; the boxes get it as ``ends_at``)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="session_starts")
    session = models.PositiveIntegerField()
    at = models.BigIntegerField()  # epoch seconds
    referee = models.CharField(max_length=150)

    class Meta:
        unique_together = [("tournament", "session")]


class TimeExtension(models.Model):
    """Minutes a referee adds to a session's time limit, at one table or (table None) at every
    table; a table's deadline is the hall's plus the sum of both kinds (``clock.table_ends_at``),
    and its box learns it with its config (``ends_at``)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="time_extensions")
    session = models.PositiveIntegerField()
    table = models.PositiveIntegerField(null=True, blank=True)  # None: every table of the session
    minutes = models.IntegerField()  # negative takes back minutes given by mistake
    reason = models.CharField(max_length=1000)
    referee = models.CharField(max_length=150)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]


class TableEnd(models.Model):
    """A referee ended a table's session (time called, a table without a box, a box that never
    sent its session_end): the board shows it finished and the session counts as complete."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="table_ends")
    session = models.PositiveIntegerField()
    table = models.PositiveIntegerField()
    hands = models.PositiveIntegerField()  # the counted hands when it was ended
    reason = models.CharField(max_length=1000)
    referee = models.CharField(max_length=150)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        unique_together = [("tournament", "session", "table")]


class Reseat(models.Model):
    """Players found in the wrong chairs: in hands ``first_hand``..``last_hand`` of the table the
    player recorded as X was in fact ``players[X]`` (a permutation of the table's players). The
    records stay as the box signed them; the results read the hands re-attributed."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="reseats")
    session = models.PositiveIntegerField()
    table = models.PositiveIntegerField()
    first_hand = models.PositiveIntegerField()
    last_hand = models.PositiveIntegerField()
    players = models.JSONField()  # recorded player id -> the player who sat there
    reason = models.CharField(max_length=1000)
    referee = models.CharField(max_length=150)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]


class Playoff(models.Model):
    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="playoffs")
    session = models.PositiveIntegerField()
    table = models.PositiveIntegerField(null=True, blank=True)  # None: the runners-up play-off
    scores = models.JSONField()
    referee = models.CharField(max_length=150)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]


class AuditEntry(models.Model):
    at = models.DateTimeField(auto_now_add=True, db_index=True)
    actor = models.CharField(max_length=200)
    action = models.CharField(max_length=40)
    tournament = models.CharField(max_length=ID_MAX, null=True, blank=True, db_index=True)
    target = models.CharField(max_length=200)
    before = models.JSONField(null=True)
    after = models.JSONField(null=True)

    class Meta:
        ordering = ["-id"]
        verbose_name_plural = "audit entries"


def session_ok(n: int) -> bool:
    return 1 <= n <= MAX_SESSION


class ResultsCache(models.Model):
    """The standings document of a tournament at one results version, shared by every server
    process (``results.cache``)."""

    tournament = models.OneToOneField(Tournament, on_delete=models.CASCADE, primary_key=True)
    version = models.BigIntegerField()
    body = models.BinaryField()


class ApiToken(models.Model):
    """A bearer token for scripts (``POST /api/login``); only its SHA-256 is kept."""

    key_hash = models.CharField(max_length=64, primary_key=True)
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens")
    created_at = models.DateTimeField(auto_now_add=True)
    expires_at = models.DateTimeField()
