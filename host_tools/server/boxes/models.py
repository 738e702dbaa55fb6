"""Devices, records, hands, corrections and rulings; the boxes' settings per tournament.

A ``Record`` is what a box signed, byte for byte: never updated or deleted. Each hand record
gets one ``Hand`` row with the fields the results need as plain columns (players and deltas by
seat), so standings never decode payloads; a referee's hand entered by hand is a ``Hand``
without a record. A ``Correction`` replaces a hand's deltas (the latest referee correction wins
over every device correction). A ``Ruling`` is a referee's decision on a quarantined record.

Where a box belongs: ``Device.tournament`` and ``table`` are its binding now, ``Binding`` its
history (one row per tournament and table, from when until when). A record is placed at the
door (``placement``, when it is stored) against that history: one its box was not bound to
where it says when it was made gets a ``Held`` row (its reason, and the tournament whose
quarantine it waits in); a session keyed in at the box, naming no tournament of this server,
waits there until a referee ``Claim``s it for a session and table.
"""
from __future__ import annotations

from django.db import models

ID_MAX = 64


class Device(models.Model):
    id = models.CharField(max_length=ID_MAX, primary_key=True)
    key = models.BinaryField(editable=False)  # write-only: never shown, never logged
    label = models.CharField(max_length=200, blank=True, default="")
    active = models.BooleanField(default=True)
    created_at = models.DateTimeField(auto_now_add=True)
    # where the box plays: the config the sync tool fetches comes from this binding
    tournament = models.ForeignKey("tournaments.Tournament", null=True, blank=True, on_delete=models.SET_NULL, related_name="devices")
    table = models.PositiveIntegerField(null=True, blank=True)
    # the box's journal head, from the last report signed with its key (``POST /api/boxes/ID/head``),
    # and that report's time: the Boxes page's "not synced" count (display only)
    reported_head = models.BigIntegerField(null=True, blank=True)
    reported_at = models.DateTimeField(null=True, blank=True)
    referee_called_at = models.DateTimeField(null=True, blank=True)  # the box's referee key (``referee_call``)

    class Meta:
        ordering = ["id"]

    def __str__(self):
        return self.id


class CallNonce(models.Model):
    """A referee call the server took (``referee_call.take``), by the box's nonce: the same call
    sent again (captured on the hall's network and replayed) is refused. A box makes a new nonce
    for each call and each retry (firmware/net/push.py), so it never meets this refusal."""
    device = models.ForeignKey(Device, on_delete=models.CASCADE, db_constraint=False, related_name="call_nonces")
    nonce = models.CharField(max_length=32)  # 16 bytes as lowercase hex (protocol/push.py NONCE_LEN)
    at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["device", "nonce"], name="call_nonce_once")]


class Record(models.Model):
    device = models.ForeignKey(Device, on_delete=models.PROTECT, db_constraint=False, related_name="records")
    seq = models.BigIntegerField()
    payload = models.BinaryField()
    sig = models.CharField(max_length=64)
    kind = models.CharField(max_length=20)
    tournament = models.CharField(max_length=ID_MAX, null=True)
    session = models.BigIntegerField(null=True)
    table = models.BigIntegerField(null=True)
    hand = models.BigIntegerField(null=True)
    body = models.JSONField()  # the decoded payload (the payload itself stays as signed)
    # a session record's seats, tab-joined (ids hold no control characters): read by the results
    # without decoding bodies
    seats = models.CharField(max_length=300, null=True)
    time = models.BigIntegerField(null=True)  # the record's own time (box clock, Unix seconds)
    received_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        constraints = [models.UniqueConstraint(fields=["device", "seq"], name="record_device_seq")]
        indexes = [models.Index(fields=["tournament", "kind"], name="record_by_tournament")]


class Hand(models.Model):
    tournament = models.CharField(max_length=ID_MAX)
    session = models.BigIntegerField()
    table = models.BigIntegerField()
    number = models.BigIntegerField()
    rules = models.CharField(max_length=12)
    record = models.OneToOneField(Record, null=True, blank=True, on_delete=models.PROTECT, related_name="hand_row")
    device = models.CharField(max_length=ID_MAX, null=True, blank=True)  # the record's box (None: entered by a referee)
    p0 = models.CharField(max_length=ID_MAX, null=True)
    p1 = models.CharField(max_length=ID_MAX, null=True)
    p2 = models.CharField(max_length=ID_MAX, null=True)
    p3 = models.CharField(max_length=ID_MAX, null=True)
    d0 = models.IntegerField()
    d1 = models.IntegerField()
    d2 = models.IntegerField()
    d3 = models.IntegerField()
    dealer = models.SmallIntegerField(default=0)
    winners = models.CharField(max_length=8, default="")  # seats, e.g. "0" or "013"
    discarder = models.SmallIntegerField(null=True)
    fans = models.IntegerField(default=0)
    fan_names = models.JSONField(default=list)
    time = models.BigIntegerField(default=0)
    deductions = models.CharField(max_length=80, default="")  # "a,b,c,d" penalties paid to nobody (Sichuan tiers...)
    # a hand entered by a referee when the box failed: who, and what was keyed
    entered_by = models.CharField(max_length=150, null=True, blank=True)
    entry = models.JSONField(null=True, blank=True)
    entered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        # one index serves a table's hands and the results' aggregate of every hand (one row per
        # box, session, table and chairs, summed in index order: ``results.snapshot``); it covers
        # the columns the aggregate reads, so SQLite never visits the rows
        indexes = [models.Index(fields=["tournament", "session", "table", "device", "p0", "p1", "p2", "p3", "d0", "d1", "d2", "d3", "number",
                                        "time"], name="hand_by_table_seats")]

    @property
    def seats(self) -> list:
        return [self.p0, self.p1, self.p2, self.p3]

    @property
    def deltas(self) -> list:
        return [self.d0, self.d1, self.d2, self.d3]


class Correction(models.Model):
    DEVICE, REFEREE = "device", "referee"
    hand = models.ForeignKey(Hand, null=True, blank=True, on_delete=models.PROTECT, related_name="corrections")
    # a device correction names its target by (device, seq); it may arrive before its target
    target_device = models.CharField(max_length=ID_MAX, null=True)
    target_seq = models.BigIntegerField(null=True)
    tournament = models.CharField(max_length=ID_MAX, null=True, db_index=True)
    source = models.CharField(max_length=10, choices=[(DEVICE, "device"), (REFEREE, "referee")])
    record = models.OneToOneField(Record, null=True, blank=True, on_delete=models.PROTECT, related_name="correction_row")
    deltas = models.JSONField()  # by seat, as the hand's seats
    reason = models.CharField(max_length=1000, blank=True, default="")
    referee = models.CharField(max_length=200)
    created_at = models.DateTimeField(auto_now_add=True)
    # a referee's correction by the hand's tiles (``rescore``): the hand re-settled by rules_min,
    # its figures as ``hand_row`` builds them (dealer, winners, discarder, fans, fan_names,
    # deductions) and what was keyed (events, prevalent_wind, flags); None: points only
    rescored = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["target_device", "target_seq"], name="correction_target")]


class Ruling(models.Model):
    """A referee's decision on a quarantined record: accept (it counts) or reject (it never does)."""

    ACCEPT, REJECT = "accept", "reject"
    record = models.ForeignKey(Record, on_delete=models.PROTECT, related_name="rulings")
    tournament = models.CharField(max_length=ID_MAX, db_index=True)
    decision = models.CharField(max_length=10, choices=[(ACCEPT, "accept"), (REJECT, "reject")])
    reason = models.CharField(max_length=1000, blank=True, default="")
    referee = models.CharField(max_length=150)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]


class Binding(models.Model):
    """One stretch of a box's binding history: in ``tournament`` (at ``table``, or at none) from
    ``since`` until ``until`` (None: now). A box that belongs to no tournament has no open row.
    Rows are only ever added and closed, never changed otherwise: the records placed against
    them stay placed. The tournament is kept as its id (the history outlives a tournament)."""

    device = models.ForeignKey(Device, on_delete=models.CASCADE, related_name="bindings")
    tournament = models.CharField(max_length=ID_MAX)
    table = models.PositiveIntegerField(null=True, blank=True)
    since = models.DateTimeField()
    until = models.DateTimeField(null=True, blank=True)
    by = models.CharField(max_length=150)

    class Meta:
        ordering = ["id"]
        indexes = [models.Index(fields=["device", "since"], name="binding_by_device")]


class Claim(models.Model):
    """A referee's claim of a session keyed in at a box (the records named a tournament this
    server does not have): its records now count at ``session`` and ``table`` of
    ``tournament``, the players keyed at the box mapped to registered ones (``players``)."""

    tournament = models.CharField(max_length=ID_MAX, db_index=True)
    device = models.CharField(max_length=ID_MAX)
    session = models.BigIntegerField()
    table = models.BigIntegerField()
    named = models.JSONField()  # what the box recorded: {"tournament", "session", "table"}
    players = models.JSONField(default=dict)  # keyed at the box -> registered (only those that differ)
    referee = models.CharField(max_length=150)
    reason = models.CharField(max_length=1000, blank=True, default="")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["id"]


class Held(models.Model):
    """A record the door did not place at the table it names (``placement``): why, and the
    tournament whose quarantine it waits in (the one it names; for a record naming no tournament
    of this server, the one its box was bound to when it arrived, or None). ``unknown_tournament``:
    it names no tournament here; a referee ``claim``s it (or rejects it). Written with the record, never
    changed but for the claim."""

    record = models.OneToOneField(Record, on_delete=models.PROTECT, primary_key=True, related_name="held")
    tournament = models.CharField(max_length=ID_MAX, null=True, db_index=True)
    unknown_tournament = models.BooleanField(default=False)
    reason = models.CharField(max_length=400)
    claim = models.ForeignKey(Claim, null=True, blank=True, on_delete=models.PROTECT, related_name="records")


class BoxSettings(models.Model):
    """What the organizer sets for the tournament's boxes (issue 18.6): their language and the
    referee PIN, sent with every session config (``box_settings``). No row: Chinese and the
    factory PIN."""

    tournament = models.OneToOneField("tournaments.Tournament", primary_key=True, on_delete=models.CASCADE, related_name="box_settings")
    lang = models.CharField(max_length=2, default="cn")
    pin = models.CharField(max_length=8, blank=True, default="")  # empty: the factory PIN; organizers only

    def __str__(self):
        return "box settings of %s" % self.tournament_id
