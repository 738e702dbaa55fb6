"""What every tournament format declares, and the plain data its results read and give back.

A format is one ``Format`` object (``FORMAT`` in its module): its name (stored with each
tournament), the rule set its tables play, a title, its settings (each with its default and
its check), how sessions are seated, a session's hands and minutes (``rules_min.tournament``,
the numbers the box uses too), the late-arrival ruling, what it offers (standard scores, the
EMA sheet, the seed 000 awards, tables confirmed live) and ``results``: its standings from an
``Event`` (plain data) as an ``Outcome`` (plain data). The server reads formats only through
the registry (``formats.get``) and these attributes, never by comparing names.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Callable, Mapping, Optional, Sequence

from protocol.config import NUMBER_MAX as MAX_NUMBER  # sessions and tables: 1..MAX_NUMBER
from rules_min import tournament as numbers

from ..model import LateRuling, TournamentError, minutes as exact_minutes

SETTING_MAX = 2**40  # a count setting (a whole number the organizer types)


class SettingsInvalid(TournamentError):
    """Settings an organizer gave that the format refuses; the message names the setting."""


class UnknownFormat(SettingsInvalid):
    """A format name the registry does not know."""


# --------------------------------------------------------------------------- settings

def _count(s: "Setting", v: Any) -> Any:
    if isinstance(v, bool) or not isinstance(v, int) or not 0 <= v < SETTING_MAX:
        raise SettingsInvalid("setting %s must be a non-negative integer" % s.name)
    return v


def _tournament_id(s: "Setting", v: Any) -> Any:
    if not isinstance(v, str) or not 1 <= len(v) <= 64 or any(ord(c) <= 32 or ord(c) == 127 for c in v):
        raise SettingsInvalid("%s must be the id of the individual event (a tournament id)" % s.name)
    return v


@dataclass(frozen=True)
class Setting:
    """One setting of a format: its default, whether it may be empty (None), and its check.

    kind says what the organizer types (the settings form): "count" a whole number, "ratio"
    a short decimal or fraction as text ("0.3", "1/3"), "tournament" a tournament's id.
    check(setting, value) -> the value stored, or raises SettingsInvalid naming the setting."""

    name: str
    default: Any = None
    optional: bool = False
    kind: str = "count"
    check: Callable[["Setting", Any], Any] = _count

    def clean(self, value: Any) -> Any:
        if value is None and self.optional:
            return None
        return self.check(self, value)


TOURNAMENT_ID = dict(kind="tournament", check=_tournament_id)


# --------------------------------------------------------------------------- plain data

@dataclass
class Event:
    """What a format's results read, as plain data (``host_tools.server.results.compute`` builds
    it from the database; a test can build it by hand).

    settings: the tournament's settings, as ``check_settings`` returned them.
    players: the registered players in draw order, dicts with "id", "name", "substitute".
    tables: (session, table) -> a played table: ``players()``, ``raw_scores()`` (player -> the
        sum of its hand deltas there), ``n_hands``, and ``hands`` (the counted hands, by hand
        number: ``number``, ``seats``, ``deltas``, ``deductions``, ``winners``, ...).
    seatings: published seatings, session -> table -> players; absences: session -> players.
    penalties: off-table penalties, dicts with "id", "session", "player", "kind" ("late",
        "points" or "disqualification"), "minutes" (text), "points", "game".
    playoffs: play-off results, dicts with "session", "table" (None: the runners-up's), "scores".
    survival: the survival event's draw, confirmed tables and their hands' survival fields.
    """

    settings: Mapping[str, Any]
    players: Sequence[Mapping[str, Any]] = ()
    tables: Mapping[tuple, Any] = field(default_factory=dict)
    seatings: Mapping[int, Mapping[int, Sequence[str]]] = field(default_factory=dict)
    absences: Mapping[int, Any] = field(default_factory=dict)
    penalties: Sequence[Mapping[str, Any]] = ()
    playoffs: Sequence[Mapping[str, Any]] = ()
    survival: Any = None

    def names(self) -> dict:
        return {p["id"]: p["name"] for p in self.players}

    def draw(self) -> list:
        return [p["id"] for p in self.players]

    def substitutes(self) -> set:
        return {p["id"] for p in self.players if p["substitute"]}


@dataclass
class Outcome:
    """A format's results: ``standings`` (``model.Standing``, disqualified last), ``rows`` (the
    standings document's lines), ``table_scores`` ((session, table) -> player -> SessionScore),
    ``disqualified`` (player -> first session), ``prelim`` (the preliminary standings, where the
    format has a final), ``extra`` (the format's own part of the document), ``live`` (a live
    event's state: the survival event)."""

    standings: list = field(default_factory=list)
    rows: list = field(default_factory=list)
    table_scores: dict = field(default_factory=dict)
    disqualified: dict = field(default_factory=dict)
    prelim: Optional[list] = None
    extra: dict = field(default_factory=dict)
    live: Any = None


# --------------------------------------------------------------------------- the format

def late_ruling(rules: str, minutes: Any) -> LateRuling:
    """A late arrival by the rule set's ladder (``rules_min.tournament.late``), minutes exact."""
    points, forfeit, stage = numbers.late(rules, exact_minutes(minutes))
    return LateRuling(-points, forfeit, stage)


class Format:
    """A tournament format. Subclasses set the attributes and implement ``results``.

    name: the registry's key, stored with each tournament. rules: the rule set its tables play
    ("mcr", "sichuan", "guangdong"). title: for people. settings: its ``Setting``s.
    seating: (the first sessions' method, the later sessions'), ``first_sessions`` of them
    seated the first way. allow_three: three-player tables may be seated.
    standard: standings carry standard scores. ema_sheet: the EMA results sheet applies.
    awards: the seed 000 awards apply. survival_source: its preliminary ranking can give a
    survival event's draw. every_hand: its results read single hands, not their sums.
    live_tables: tables are formed and confirmed while the event runs (no seating per
    session, penalties keyed at the table only). late_per_game: a late arrival is for one
    game of the session (Sichuan), not the session. standings_view: which standings table
    the pages show ("sessions", "stages", "survival").
    """

    name = ""
    rules = ""
    title = ""
    settings: tuple = ()
    seating = ("draw", "rank")
    first_sessions = 1
    allow_three = False
    standard = False
    ema_sheet = False
    awards = False
    survival_source = False
    every_hand = False
    live_tables = False
    late_per_game = False
    standings_view = "sessions"

    def __repr__(self) -> str:
        return "<format %s>" % self.name

    # ---- a session
    @property
    def hands(self) -> int:
        """Hands (Sichuan: games) a session plays."""
        return numbers.SESSION_HANDS[self.rules]

    def hands_at(self, players: int) -> int:
        """Hands a session plays at a table of ``players`` (three: seed 000's 15)."""
        return numbers.SESSION_HANDS_THREE.get(self.rules, self.hands) if players == 3 else self.hands

    def minutes(self, settings: Optional[Mapping[str, Any]] = None) -> Optional[int]:
        """A session's time limit in minutes; None: none."""
        return numbers.SESSION_MINUTES[self.rules]

    def late(self, minutes: Any) -> LateRuling:
        return late_ruling(self.rules, minutes)

    def default_method(self, session: int) -> str:
        """How ``session`` is seated unless the organizer picks another method."""
        first, later = self.seating
        return first if session <= self.first_sessions else later

    def match_base(self, settings: Mapping[str, Any]) -> int:
        """The match score every played session starts from (seed 001's 500), 0 for most."""
        return 0

    # ---- settings
    def defaults(self) -> dict:
        return {s.name: s.default for s in self.settings}

    def check_settings(self, settings: Any) -> dict:
        """The settings to store: the defaults with the given ones checked; SettingsInvalid."""
        if settings is None:
            settings = {}
        if not isinstance(settings, dict):
            raise SettingsInvalid("settings must be an object")
        out = self.defaults()
        by_name = {s.name: s for s in self.settings}
        for k, v in settings.items():
            if k not in by_name:
                raise SettingsInvalid("format %s has no setting %r (settings: %s)" % (self.name, k, ", ".join(out) or "none"))
            out[k] = by_name[k].clean(v)
        self.check_together(out)
        return out

    def check_together(self, settings: dict) -> None:
        """Checks across settings (or of bounds a setting's kind does not know)."""

    # ---- results
    def results(self, event: Event, problems: list) -> Outcome:
        """Standings of the event. Never fails because of the data: what the rules cannot
        score goes to ``problems`` and the rest is scored."""
        raise NotImplementedError
