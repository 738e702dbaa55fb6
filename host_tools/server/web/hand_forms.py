"""The form a referee keys a whole hand with, to enter it (a table without a box, a box that
died) or to correct a counted hand by its tiles. It asks for exactly what the tournament's rule
set's settle protocol takes (README "Settle protocol"; rules_min/keyed.py for the win flags,
penalty kinds and bar reasons of each rule set): an MCR event shows no Sichuan or Guangdong
fields. People see chairs 1-4 with their winds and names; the events it builds use the
protocol's seats 0-3.

The hand: its frame (``HandForm``: hand number and players by chair when entering, dealer,
prevalent wind, how it ended, why it is keyed) and its events in table order, one row each
(``event_rows``: win, kong, declared win, penalty, bar). Field checks are here; whether the hand
settles is rules_min's (``boxes.rescore.settle_keyed``).
"""
from __future__ import annotations

from django import forms
from django.utils.translation import get_language, gettext_lazy as _

from rules_min import keyed

WINDS = "ESWN"
ROWS = 3  # event rows shown; ?rows=N asks for more
MAX_ROWS = 24
END_WIN, END_WALL, END_TIME = "win", "wall", "time_out"
ALL_FLAGS = tuple(row.split(" ")[0] for row in keyed.FLAGS.split("|"))  # every rule set's win flags
CHOICE = 6  # rules_min/penalties.py: a kind whose referee keys points, a bar, or both


def chair_label(chair: int, player, names: dict, dealer=None) -> str:
    """'1 · E · Anna Martin' (the wind this hand, when the dealer is known)."""
    wind = (" · " + WINDS[(chair - dealer) % 4]) if dealer is not None else ""
    who = "" if player is None else " · %s" % (names.get(player) or player)
    return "%d%s%s" % (chair + 1, wind, who)


def chair_choices(seats: list, names: dict, dealer=None, blank=None) -> list:
    out = [("", blank)] if blank is not None else []
    return out + [(str(i), chair_label(i, p, names, dealer)) for i, p in enumerate(seats) if p is not None]


def _lang() -> str:
    return "zh" if (get_language() or "en").startswith("zh") else "en"


class HandForm(forms.Form):
    """The hand's frame. ``entering``: a new hand (its number and who sat where are keyed); else
    the hand exists and keeps its players."""

    hand = forms.IntegerField(label=_("Hand number"), min_value=1, max_value=10000)
    dealer = forms.TypedChoiceField(label=_("Dealer (chair)"), coerce=int)
    prevalent_wind = forms.ChoiceField(label=_("Prevalent wind"), choices=[(w, w) for w in WINDS])
    end = forms.ChoiceField(label=_("How the hand ended"))
    reason = forms.CharField(label=_("Why it is keyed by hand"), max_length=1000)

    def __init__(self, rules: str, seats: list, names: dict, players: list, entering: bool, *args, dealer=None, **kwargs):
        super().__init__(*args, **kwargs)
        self.rules, self.entering = rules, entering
        self.fields["dealer"].choices = chair_choices(seats, names)
        ends = [(END_WIN, _("with its win") if rules != "sichuan" else _("with its last win (three players out)")),
                (END_WALL, _("wall exhausted")), (END_TIME, _("time called (the unfinished hand)"))]
        self.fields["end"].choices = ends
        if entering:  # a table without a box keys every hand: no reason to type each time
            self.fields["reason"].required = False
            self.fields["reason"].label = _("Note (optional)")
            choices = [("", "-")] + players
            for i in range(4):
                self.fields["seat%d" % i] = forms.ChoiceField(label=_("Chair %(n)d") % {"n": i + 1}, choices=choices, required=i == 0 or i < 3)
            self.order_fields(["hand", "seat0", "seat1", "seat2", "seat3"])
        else:
            del self.fields["hand"]
            self.seats = seats
        if rules == "sichuan":  # 查叫 at the end of the wall: the hands of the players still in
            for i, p in enumerate(seats):
                if p is None:
                    continue
                self.fields["still%d" % i] = forms.CharField(label=_("Wall exhausted: chair %(n)d's 13 tiles (if still in)") % {"n": i + 1},
                                                             required=False, max_length=80)
                self.fields["still_suit%d" % i] = forms.ChoiceField(label=_("its missing suit"), required=False,
                                                                    choices=[("", "-"), ("m", "m"), ("s", "s"), ("p", "p")])

    def clean(self):
        c = super().clean()
        if self.entering:
            seats = [c.get("seat%d" % i) or None for i in range(4)]
            named = [p for p in seats if p]
            if len(named) < 3 or len(set(named)) != len(named):
                raise forms.ValidationError(_("seat 3 or 4 different players"))
            c["seats"] = seats
        else:
            c["seats"] = self.seats
        if c.get("dealer") is not None and c["seats"][c["dealer"]] is None:
            raise forms.ValidationError(_("the dealer sits in an empty chair"))
        return c

    def end_events(self) -> list:
        c = self.cleaned_data
        if c["end"] == END_TIME:
            return [{"time_out": True}]
        if c["end"] != END_WALL:
            return []
        ev = {"wall_end": True}
        if self.rules == "sichuan":
            hands = {str(i): c["still%d" % i].strip() for i in range(4) if c.get("still%d" % i, "").strip()}
            suits = {str(i): c["still_suit%d" % i] for i in range(4) if c.get("still_suit%d" % i)}
            if hands:
                ev["hands"] = hands
            if suits:
                ev["missing_suit"] = suits
        return [ev]


class EventForm(forms.Form):
    """One event of the hand, in table order. ``kind`` says which fields it reads."""

    kind = forms.ChoiceField(label=_("Event"), required=False)
    chair = forms.ChoiceField(label=_("Chair"), required=False)
    source = forms.ChoiceField(label=_("From / victim"), required=False)
    hand = forms.CharField(label=_("Tiles (notation, last tile wins)"), required=False, max_length=200)
    flags = forms.MultipleChoiceField(label=_("Flags"), required=False, widget=forms.CheckboxSelectMultiple)
    kong = forms.ChoiceField(label=_("Kong"), required=False)
    penalty = forms.ChoiceField(label=_("Penalty"), required=False)
    points = forms.IntegerField(label=_("Points"), required=False, min_value=0, max_value=100000)
    minutes = forms.IntegerField(label=_("Minutes late"), required=False, min_value=0, max_value=100000)
    bar = forms.ChoiceField(label=_("Barred (停和陪打)"), required=False)

    def __init__(self, *args, rules: str, chairs: list, sources: list, **kwargs):
        super().__init__(*args, **kwargs)
        self.rules = rules
        lang = _lang()
        self.fields["kind"].choices = [("", "-"), ("win", _("win")), ("kong", _("kong")), ("declare", _("declared win that failed")),
                                       ("penalty", _("penalty")), ("bar", _("bar from winning"))]
        self.fields["chair"].choices = chairs
        self.fields["source"].choices = sources
        self.fields["flags"].choices = [(f, keyed.name("flags", f, rules, lang)) for f in keyed.flags(rules, "e")]
        self.fields["kong"].choices = [("", "-"), ("concealed", _("concealed")), ("added", _("added to a pung")), ("direct", _("on a discard"))]
        self.fields["penalty"].choices = [("", "-")] + [(k, keyed.name("kinds", k, rules, lang)) for k in keyed.kinds(rules)]
        self.fields["bar"].choices = [("", "-")] + [(k, keyed.name("bars", k, rules, lang)) for k in keyed.bar_reasons(rules)]
        if any(keyed.spec(k, rules)[0] & 15 == CHOICE for k in keyed.kinds(rules)):
            self.fields["also_bar"] = forms.BooleanField(label=_("and barred (information)"), required=False)
        if rules == "mcr":
            self.fields["flowers"] = forms.IntegerField(label=_("Flowers"), required=False, min_value=0, max_value=8)
        if rules == "sichuan":
            self.fields["missing_suit"] = forms.ChoiceField(label=_("Missing suit (定缺)"), required=False,
                                                            choices=[("", "-"), ("m", "m"), ("s", "s"), ("p", "p")])
        if rules == "guangdong":
            self.fields["horses"] = forms.CharField(label=_("Horses (买马, e.g. 3m W)"), required=False, max_length=40)

    # how a row is laid out: who and what, the win's flags, the other events' details
    LINES = (("kind", "chair", "source", "hand", "flowers", "missing_suit", "horses"), ("flags",),
             ("kong", "penalty", "points", "minutes", "also_bar", "bar"))

    def lines(self) -> list:
        return [[self[n] for n in line if n in self.fields] for line in self.LINES]

    def event(self):
        """The settle protocol's event of this row, or None for an empty row."""
        c = self.cleaned_data
        kind = c.get("kind")
        if not kind:
            return None
        if c.get("chair") in (None, ""):
            raise forms.ValidationError(_("say whose event it is (the chair)"))
        seat = int(c["chair"])
        src = int(c["source"]) if c.get("source") not in (None, "") else None
        tiles = (c.get("hand") or "").strip()
        if kind == "win":
            if not tiles:
                raise forms.ValidationError(_("key in the winning hand"))
            ev = {"win": seat, "from": src, "hand": tiles}
            for f in c.get("flags") or ():
                ev[f] = True
            if c.get("flowers"):
                ev["flowers"] = c["flowers"]
            if c.get("missing_suit"):
                ev["missing_suit"] = c["missing_suit"]
            if c.get("horses"):
                ev["horses"] = c["horses"].split()
            return ev
        if kind == "kong":
            if not c.get("kong"):
                raise forms.ValidationError(_("say which kong"))
            ev = {"kong": c["kong"], "seat": seat}
            if c["kong"] == "direct":
                if src is None:
                    raise forms.ValidationError(_("a kong on a discard names who discarded it"))
                ev["from"] = src
            return ev
        if kind == "declare":
            ev = {"declare": seat}
            if tiles:
                ev["hand"] = tiles
            if c.get("missing_suit"):
                ev["missing_suit"] = c["missing_suit"]
            return ev
        if kind == "penalty":
            if not c.get("penalty"):
                raise forms.ValidationError(_("say which penalty"))
            ev = {"penalty": c["penalty"], "seat": seat}
            if c.get("points") is not None:
                ev["points"] = c["points"]
            if c.get("minutes") is not None:
                ev["minutes"] = c["minutes"]
            if src is not None:
                ev["victim"] = src
            if c.get("also_bar"):
                ev["bar"] = True
            return ev
        if not c.get("bar"):
            raise forms.ValidationError(_("say why the player is barred"))
        return {"bar": seat, "reason": c["bar"]}


def event_rows(rules: str, seats: list, names: dict, dealer, data=None, initial=None, rows: int = ROWS):
    """The event rows as a formset (prefix ``ev``)."""
    n = max(rows, len(initial or ()))
    Formset = forms.formset_factory(EventForm, extra=min(MAX_ROWS, n) - len(initial or ()), max_num=MAX_ROWS, absolute_max=MAX_ROWS)
    chairs = chair_choices(seats, names, dealer, blank="-")
    sources = chair_choices(seats, names, dealer, blank=_("- (self-drawn / none)"))
    return Formset(data, initial=initial, prefix="ev", form_kwargs={"rules": rules, "chairs": chairs, "sources": sources})


def events_from(hand: HandForm, rows) -> list:
    """The hand's events (settle protocol), or raises ValidationError on the form that is wrong."""
    events = []
    for f in rows.forms:
        ev = f.event()
        if ev is not None:
            events.append(ev)
    events += hand.end_events()
    if not events:
        raise forms.ValidationError(_("key in at least the win or how the hand ended"))
    return events


def initial_rows(events: list) -> tuple[list, str, dict]:
    """Rows, end and Sichuan's still-in hands from a hand's events (the form that corrects it)."""
    rows, end, still = [], END_WIN, {}
    for ev in events or ():
        if not isinstance(ev, dict):
            continue
        if "win" in ev:
            rows.append({"kind": "win", "chair": str(ev["win"]), "source": "" if ev.get("from") is None else str(ev["from"]),
                         "hand": ev.get("hand", ""), "flags": [k for k in ALL_FLAGS if ev.get(k) is True],
                         "flowers": ev.get("flowers") or None, "missing_suit": ev.get("missing_suit", ""),
                         "horses": " ".join(ev.get("horses") or ())})
        elif "kong" in ev:
            rows.append({"kind": "kong", "chair": str(ev.get("seat", "")), "kong": ev["kong"],
                         "source": "" if ev.get("from") is None else str(ev["from"])})
        elif "declare" in ev:
            rows.append({"kind": "declare", "chair": str(ev["declare"]), "hand": ev.get("hand", ""), "missing_suit": ev.get("missing_suit", "")})
        elif "penalty" in ev:
            rows.append({"kind": "penalty", "chair": str(ev.get("seat", "")), "penalty": ev["penalty"], "points": ev.get("points"),
                         "minutes": ev.get("minutes"), "source": "" if ev.get("victim") is None else str(ev["victim"]),
                         "also_bar": ev.get("bar") is True})
        elif "bar" in ev:
            rows.append({"kind": "bar", "chair": str(ev["bar"]), "bar": ev.get("reason", "")})
        elif ev.get("wall_end"):
            end = END_WALL
            for s, tiles in (ev.get("hands") or {}).items():
                still["still%s" % s] = tiles
            for s, suit in (ev.get("missing_suit") or {}).items():
                still["still_suit%s" % s] = suit
        elif ev.get("time_out"):
            end = END_TIME
    return rows, end, still
