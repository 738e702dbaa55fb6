"""What a survival event stores: its draw (the entrants in preliminary order, frozen when drawn)
and the tables as the referee confirmed them. Everything else (scores, busts, placings, the next
proposals) is replayed from these and the counted hand records by the format's results
(``host_tools.tournament.formats.mcr_survival``)."""
from __future__ import annotations

from django.db import models

from host_tools.server.tournaments.models import ID_MAX, Tournament


class SurvivalDraw(models.Model):
    """The entrants in preliminary order (选手编号与个人赛一致; the snake and every tie below a
    score follow this order). Drawn from the individual event named in the settings, or from
    the registered players in draw order; final once the first tables are confirmed."""

    tournament = models.OneToOneField(Tournament, on_delete=models.CASCADE, primary_key=True, related_name="survival_draw")
    source = models.CharField(max_length=ID_MAX, blank=True, default="")  # the individual event ("": registered players)
    ranked = models.JSONField()
    drawn_by = models.CharField(max_length=150)
    drawn_at = models.DateTimeField(auto_now_add=True)


class SurvivalTable(models.Model):
    """A table as the referee confirmed it. ``number`` counts the event's tables in confirmation
    order and is the box's session number; ``hall_table`` is where it plays, the table the box
    is bound to (its records' table number)."""

    tournament = models.ForeignKey(Tournament, on_delete=models.CASCADE, related_name="survival_tables")
    number = models.PositiveIntegerField()
    hall_table = models.PositiveIntegerField()
    seats = models.JSONField()  # player ids E S W N
    confirmed_at = models.BigIntegerField()  # epoch seconds, the server's clock
    confirmed_by = models.CharField(max_length=150)
    as_proposed = models.BooleanField(default=True)  # False: the referee swapped players

    class Meta:
        unique_together = [("tournament", "number")]
        ordering = ["number"]
