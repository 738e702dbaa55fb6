"""The referee's survival forms: a table to confirm (the proposal's players, or a swap)."""
from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from host_tools.server.tournaments.formats import MAX_TABLE

WINDS = (_("East"), _("South"), _("West"), _("North"))


class SurvivalTableForm(forms.Form):
    """Seats E S W N picked among the waiting players, and the hall table. Whether the players
    may sit (waiting, four different) is the action's check, as for the API."""

    hall_table = forms.IntegerField(label=_("Hall table"), min_value=1, max_value=MAX_TABLE)

    def __init__(self, waiting, *args, **kwargs):
        super().__init__(*args, **kwargs)
        for i, wind in enumerate(WINDS):
            self.fields["seat%d" % i] = forms.ChoiceField(label=wind, choices=waiting)
        self.order_fields(["seat0", "seat1", "seat2", "seat3", "hall_table"])

    def table(self) -> dict:
        d = self.cleaned_data
        return {"seats": [d["seat%d" % i] for i in range(4)], "hall_table": d["hall_table"]}
