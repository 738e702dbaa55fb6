"""The organizer's and referees' forms. Field checks live here; the rules (draw numbers taken,
sums, registered players...) live in the actions the views call, so the API and the pages
refuse the same things."""
from __future__ import annotations

from host_tools.server import numeric

from django import forms
from django.core.validators import RegexValidator
from django.utils.translation import gettext_lazy as _

from host_tools.server.tournaments import formats
from host_tools.server.tournaments.formats import MAX_SESSION, MAX_TABLE

ident = RegexValidator(r"^[^\x00-\x20\x7f]{1,64}$", _("1-64 characters, no spaces or control characters"))
player_id = RegexValidator(r"^[^\x00-\x20\x7f/]{1,16}$", _("1-16 characters, no spaces, / or control characters"))
slug = RegexValidator(r"^[A-Za-z0-9_.-]{1,64}$", _("letters, digits, . _ - only"))


class TournamentForm(forms.Form):
    id = forms.CharField(label=_("Id (in URLs and on the boxes)"), max_length=64, validators=[slug])
    name = forms.CharField(label=_("Name"), max_length=200)
    format = forms.ChoiceField(label=_("Format"), choices=formats.choices())


class SettingsForm(forms.Form):
    """One field per setting of the tournament's format (its check is the format's, when the
    settings are saved); a setting that may be empty (None) may be left empty here."""

    LABELS = {"prelim_sessions": _("Preliminary sessions"), "finalists": _("Finalists"), "base": _("Starting score (base)"),
              "stage2_quota": _("Stage 2: players who advance"), "carry_ratio": _("Final: carry ratio (e.g. 1/2 or 0.3)"),
              "start_time": _("Event start (Unix time)"), "individual": _("Individual event (its preliminary ranking gives the draw)"),
              "minutes": _("Time limit of a session in minutes (empty: none)")}

    def __init__(self, fmt: str, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["name"] = forms.CharField(label=_("Name"), max_length=200)
        for s in formats.registry.get(fmt).settings:
            k = s.name
            if s.kind == "ratio":
                self.fields[k] = forms.CharField(label=self.LABELS[k], required=False, max_length=30)
            elif s.kind == "tournament":
                self.fields[k] = forms.CharField(label=self.LABELS[k], required=False, max_length=64, validators=[ident])
            else:
                self.fields[k] = forms.IntegerField(label=self.LABELS[k], required=not s.optional, min_value=0, max_value=2**40)

        # the event itself (tournaments.actions.DETAILS, checked there)
        self.fields["time_zone"] = forms.CharField(label=_("Time zone of the hall (e.g. Europe/Paris; empty: the server's)"), required=False,
                                                   max_length=64)
        self.fields["start_date"] = forms.DateField(label=_("First day (YYYY-MM-DD)"), required=False)
        self.fields["end_date"] = forms.DateField(label=_("Last day"), required=False)
        self.fields["city"] = forms.CharField(label=_("City"), required=False, max_length=100)
        self.fields["country"] = forms.CharField(label=_("Country (three letters, as the EMA lists it)"), required=False, max_length=3)
        self.fields["mers_weight"] = forms.CharField(label=_("MERS weight (EMA)"), required=False, max_length=10)

    DETAILS = ("time_zone", "start_date", "end_date", "city", "country", "mers_weight")

    def settings(self) -> dict:
        return {k: (v if v != "" else None) for k, v in self.cleaned_data.items() if k != "name" and k not in self.DETAILS}

    def details(self) -> dict:
        d = self.cleaned_data
        return {k: (d[k].isoformat() if k.endswith("_date") and d[k] else d[k] or "") for k in self.DETAILS}


class PlayerForm(forms.Form):
    id = forms.CharField(label=_("Player id"), max_length=16, validators=[player_id])
    name = forms.CharField(label=_("Name"), max_length=200)
    family_name = forms.CharField(label=_("Family name (as in the name: 李 of 李明)"), required=False, max_length=100)
    draw = forms.IntegerField(label=_("Draw number"), required=False, min_value=1, max_value=10**6)
    ema_id = forms.CharField(label=_("EMA number"), required=False, max_length=20)
    country = forms.CharField(label=_("Country"), required=False, max_length=60)
    substitute = forms.BooleanField(label=_("Substitute"), required=False)


class PlayerEditForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=200)
    family_name = forms.CharField(label=_("Family name (as in the name: 李 of 李明)"), required=False, max_length=100)
    draw = forms.IntegerField(label=_("Draw number"), required=False, min_value=1, max_value=10**6)
    ema_id = forms.CharField(label=_("EMA number"), required=False, max_length=20)
    country = forms.CharField(label=_("Country"), required=False, max_length=60)
    substitute = forms.BooleanField(label=_("Substitute"), required=False)
    checked_in = forms.BooleanField(label=_("Checked in"), required=False)
    withdrawn_from = forms.IntegerField(label=_("Withdrawn from session"), required=False, min_value=1, max_value=MAX_SESSION)


class CsvImportForm(forms.Form):
    file = forms.FileField(label=_("CSV file (columns: id,name,draw,ema_id,country,substitute,family_name)"))


class AbsenceForm(forms.Form):
    session = forms.IntegerField(label=_("Session"), min_value=1, max_value=MAX_SESSION)
    player = forms.ChoiceField(label=_("Player"))
    absent = forms.BooleanField(label=_("Absent"), required=False, initial=True)
    reason = forms.CharField(label=_("Reason"), required=False, max_length=200)

    def __init__(self, players, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["player"].choices = players


class AccountForm(forms.Form):
    username = forms.CharField(label=_("Account name"), max_length=150, validators=[RegexValidator(r"^[\w.@+-]+$")])
    password = forms.CharField(label=_("Password"), widget=forms.PasswordInput, min_length=8, max_length=1000)
    role = forms.ChoiceField(label=_("Role in this tournament"), choices=[("referee", _("referee")), ("organizer", _("organizer"))])


class RoleForm(forms.Form):
    username = forms.CharField(label=_("Existing account"), max_length=150)
    role = forms.ChoiceField(label=_("Role"), choices=[("referee", _("referee")), ("organizer", _("organizer")), ("", _("none"))], required=False)


class DeviceForm(forms.Form):
    id = forms.CharField(label=_("Box id"), max_length=64, validators=[ident])
    key = forms.CharField(label=_("Key (64 hex digits, from the sync tool's --provision)"), max_length=64,
                          validators=[RegexValidator(r"^[0-9a-fA-F]{64}$", _("64 hex digits"))])
    label = forms.CharField(label=_("Label"), required=False, max_length=200)
    table = forms.IntegerField(label=_("Table"), required=False, min_value=1, max_value=MAX_TABLE)


class BindForm(forms.Form):
    device = forms.CharField(widget=forms.HiddenInput, max_length=64)
    table = forms.IntegerField(label=_("Table"), required=False, min_value=1, max_value=MAX_TABLE)


class SeatingForm(forms.Form):
    session = forms.IntegerField(label=_("Session"), min_value=1, max_value=MAX_SESSION)
    method = forms.ChoiceField(label=_("Method"), choices=[("draw", _("by draw number")), ("rank", _("by rank (高碰高)")), ("swiss", _("Swiss (no repeats)")),
                                                        ("preset", _("pre-set schedule (sessions 1-3)")), ("snake", _("snake"))])


class SwapForm(forms.Form):
    a = forms.ChoiceField(label=_("Player"))
    b = forms.ChoiceField(label=_("swaps chairs with"))

    def __init__(self, players, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["a"].choices = players
        self.fields["b"].choices = players


class PenaltyForm(forms.Form):
    session = forms.IntegerField(label=_("Session"), min_value=1, max_value=MAX_SESSION)
    player = forms.ChoiceField(label=_("Player"))
    kind = forms.ChoiceField(label=_("Kind"), choices=[("points", _("points")), ("late", _("late arrival")), ("disqualification", _("disqualification"))])
    minutes = forms.RegexField(label=_("Minutes late"), regex=r"^[0-9]{1,6}(\.[0-9]{1,6})?$", required=False, max_length=14)
    points = forms.IntegerField(label=_("Points (negative: deducted)"), required=False, min_value=-100000, max_value=100000)
    game = forms.IntegerField(label=_("Late for game (Sichuan; empty: the first)"), required=False, min_value=1, max_value=1000)
    reason = forms.CharField(label=_("Reason"), max_length=1000)

    def __init__(self, players, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["player"].choices = players


class TablePenaltyForm(forms.Form):
    """A penalty from a table's page: one of its players (chair and name), this session."""

    player = forms.ChoiceField(label=_("Player"))
    kind = forms.ChoiceField(label=_("Kind"), choices=[("points", _("points")), ("late", _("late arrival")), ("disqualification", _("disqualification"))])
    minutes = forms.RegexField(label=_("Minutes late"), regex=r"^[0-9]{1,6}(\.[0-9]{1,6})?$", required=False, max_length=14)
    points = forms.IntegerField(label=_("Points (negative: deducted)"), required=False, min_value=-100000, max_value=100000)
    reason = forms.CharField(label=_("Reason"), max_length=1000)

    def __init__(self, players, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["player"].choices = players


class ExtendForm(forms.Form):
    minutes = forms.IntegerField(label=_("Minutes more (negative: take back)"), min_value=-120, max_value=240)
    every_table = forms.BooleanField(label=_("at every table of the session"), required=False)
    reason = forms.CharField(label=_("Reason"), max_length=1000)


class SessionExtendForm(forms.Form):
    session = forms.IntegerField(label=_("Session"), min_value=1, max_value=MAX_SESSION)
    table = forms.IntegerField(label=_("Table (empty: every table)"), required=False, min_value=1, max_value=MAX_TABLE)
    minutes = forms.IntegerField(label=_("Minutes more (negative: take back)"), min_value=-120, max_value=240)
    reason = forms.CharField(label=_("Reason"), max_length=1000)


class EndTableForm(forms.Form):
    confirm = forms.BooleanField(label=_("Yes, the table's session is over"))
    reason = forms.CharField(label=_("Reason"), max_length=1000)


class SwapBoxForm(forms.Form):
    device = forms.ChoiceField(label=_("Spare box"))

    def __init__(self, spares, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["device"].choices = [(d, "%s %s" % (d, label)) for d, label in spares]


class ReseatForm(forms.Form):
    """Who really sat in each chair of the seating, and the hands that were played so."""

    first_hand = forms.IntegerField(label=_("From hand"), min_value=1, max_value=10000)
    last_hand = forms.IntegerField(label=_("to hand"), min_value=1, max_value=10000)
    move_seating = forms.BooleanField(label=_("They stay where they sit (the seating follows; a box keeps its session's chairs until the session ends)"), required=False)
    reason = forms.CharField(label=_("Reason"), max_length=1000)

    def __init__(self, players, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.n = len(players)
        winds = "ESWN"
        for i in range(self.n):
            self.fields["chair%d" % i] = forms.ChoiceField(label=_("Chair %(n)d (%(w)s) was in fact") % {"n": i + 1, "w": winds[i]}, choices=players)
        self.order_fields(["chair%d" % i for i in range(self.n)] + ["first_hand", "last_hand", "move_seating", "reason"])

    def actual(self) -> list:
        return [self.cleaned_data["chair%d" % i] for i in range(self.n)]


class PlayoffForm(forms.Form):
    session = forms.IntegerField(label=_("Session"), min_value=1, max_value=MAX_SESSION)
    table = forms.IntegerField(label=_("Table (empty: runners-up play-off)"), required=False, min_value=1, max_value=MAX_TABLE)
    scores = forms.CharField(label=_("Scores: player=score, one per line"), widget=forms.Textarea(attrs={"rows": 4, "cols": 30}), max_length=4000)

    def clean_scores(self):
        out = {}
        for line in self.cleaned_data["scores"].splitlines():
            if not line.strip():
                continue
            p, sep, v = line.partition("=")
            v = v.strip()
            if not sep or not numeric.digits(v[1:] if v.startswith("-") else v, 10):
                raise forms.ValidationError(_("write player=score, one per line"))
            out[p.strip()] = int(v)
        if not out:
            raise forms.ValidationError(_("name at least one player"))
        return out


class CorrectionForm(forms.Form):
    """Points of each player of the hand, by name, and what each paid to nobody."""

    reason = forms.CharField(label=_("Reason"), max_length=1000)

    def __init__(self, players, names, current, *args, **kwargs):
        super().__init__(*args, **kwargs)
        self.players = players
        for p in players:
            self.fields["points_" + p] = forms.IntegerField(label="%s %s" % (p, names.get(p, "")), initial=current.get(p, 0),
                                                            min_value=-10**9, max_value=10**9)
            self.fields["ded_" + p] = forms.IntegerField(label=_("penalty paid by %(p)s") % {"p": p}, initial=0, min_value=0, max_value=100000, required=False)

    def points(self):
        return {p: self.cleaned_data["points_" + p] for p in self.players}

    def deductions(self):
        return {p: self.cleaned_data.get("ded_" + p) or 0 for p in self.players if self.cleaned_data.get("ded_" + p)}


class RulingForm(forms.Form):
    record = forms.IntegerField(widget=forms.HiddenInput, min_value=1)
    decision = forms.ChoiceField(choices=[("accept", "accept"), ("reject", "reject")], widget=forms.HiddenInput)
    reason = forms.CharField(label=_("Reason"), required=False, max_length=1000)


class ClaimForm(forms.Form):
    """One step: the records of a session keyed in at a box, for a session and table."""

    device = forms.CharField(widget=forms.HiddenInput, max_length=64)
    seq = forms.IntegerField(widget=forms.HiddenInput, min_value=1, max_value=2**32 - 1)
    session = forms.IntegerField(label=_("Session"), min_value=1, max_value=MAX_SESSION)
    table = forms.IntegerField(label=_("Table"), min_value=1, max_value=MAX_TABLE)
