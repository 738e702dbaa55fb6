"""Devices, records, hands, corrections and rulings.

A ``Record`` is what a box signed, byte for byte: never updated or deleted. Each hand record
gets one ``Hand`` row with the fields the results need as plain columns (players and deltas by
seat), so standings never decode payloads; a referee's hand entered by hand is a ``Hand``
without a record. A ``Correction`` replaces a hand's deltas (the latest referee correction wins
over every device correction). A ``Ruling`` is a referee's decision on a quarantined record.
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
    reported_head = models.BigIntegerField(null=True, blank=True)  # journal head the sync tool saw last
    reported_at = models.DateTimeField(null=True, blank=True)
    referee_called_at = models.DateTimeField(null=True, blank=True)  # the box's referee key (``referee_call``)

    class Meta:
        ordering = ["id"]

    def __str__(self):
        return self.id


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
