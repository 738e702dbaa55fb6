"""The registry of tournament formats (host_tools/tournament/formats): every format found by its
name, its declaration as the seeds and RULES.md give it, its settings' defaults and checks, and
its results from plain data (an Event built by hand, no database)."""
import ast
from pathlib import Path

import pytest

from host_tools.tournament import formats
from host_tools.tournament.formats import Event
from protocol import config

MIGRATION = Path(__file__).resolve().parents[2] / "host_tools/server/tournaments/migrations/0001_initial.py"


def test_every_format_is_found_by_its_name_and_nothing_else_is():
    names = [f.name for f in formats.all()]
    assert names == ["mcr_000", "mcr_swiss_001", "sichuan_003", "guangdong_004", "mcr_survival"]
    assert formats.names() == tuple(names)
    for f in formats.all():
        assert formats.get(f.name) is f and f.rules in config.RULES and f.title
    for bad in ("mcr", "MCR_000", "", None, 3):
        with pytest.raises(formats.UnknownFormat, match="format must be one of mcr_000, mcr_swiss_001"):
            formats.get(bad)


def test_the_stored_choices_are_the_registrys():
    # the database's choices were migrated once: a title changed here needs a migration there
    tree = ast.parse(MIGRATION.read_text(encoding="utf-8"))
    choices = next(ast.literal_eval(k.value) for n in ast.walk(tree) if isinstance(n, ast.Call)
                   for k in n.keywords if k.arg == "choices" and "mcr_000" in ast.unparse(k.value))
    assert choices == [(f.name, f.title) for f in formats.all()]


def test_declarations_follow_the_seeds():
    mcr, swiss, sichuan, gd, survival = formats.all()
    assert [f.rules for f in formats.all()] == ["mcr", "mcr", "sichuan", "guangdong", "mcr"]
    assert (mcr.hands, mcr.hands_at(3), mcr.minutes({})) == (16, 15, 120)  # seed 000 §三.1.4, §一.3
    assert (gd.hands, gd.hands_at(3), gd.minutes({})) == (12, 12, 50)  # seed 004 §四
    assert (sichuan.hands, sichuan.minutes({})) == (8, None)  # RULES.md: no time limit by default
    assert survival.minutes({}) is None and [f.name for f in formats.all() if f.live_tables] == ["mcr_survival"]
    assert [f.default_method(s) for f in (mcr, swiss, gd) for s in (1, 2, 3, 4)] == [
        "draw", "rank", "rank", "rank", "draw", "swiss", "swiss", "swiss", "preset", "preset", "preset", "rank"]
    assert [f.name for f in formats.all() if f.standard] == ["mcr_000", "mcr_swiss_001"]
    assert [f.name for f in formats.all() if f.ema_sheet] == ["mcr_000", "mcr_swiss_001"]
    assert [f.name for f in formats.all() if f.survival_source] == ["mcr_000"]
    assert [f.name for f in formats.all() if f.late_per_game] == ["sichuan_003"]
    assert [f.name for f in formats.all() if f.every_hand] == ["sichuan_003", "mcr_survival"]
    assert mcr.late(12).penalty == -20 and gd.late(12).forfeit and sichuan.late(15).stage


def test_settings_have_defaults_and_checks():
    expect = {"mcr_000": {"prelim_sessions": 8, "finalists": 16}, "mcr_swiss_001": {"base": 500},
              "sichuan_003": {"stage2_quota": None, "minutes": None}, "guangdong_004": {"prelim_sessions": 4, "carry_ratio": None},
              "mcr_survival": {"start_time": None, "individual": None, "finalists": 16}}
    for f in formats.all():
        assert f.check_settings(None) == f.check_settings({}) == f.defaults() == expect[f.name]
    gd = formats.get("guangdong_004")
    assert gd.check_settings({"carry_ratio": "1/3"})["carry_ratio"] == "1/3"
    assert gd.check_settings({"carry_ratio": ""})["carry_ratio"] is None
    refused = [
        ("guangdong_004", {"carry_ratio": "1e-9999999"}, 'carry_ratio: a ratio is written like "0.3" or "1/3"'),
        ("guangdong_004", {"carry_ratio": "3/2"}, "carry_ratio must be between 0 and 1"),
        ("guangdong_004", {"carry_ratio": "1/0"}, "carry_ratio: the denominator must not be 0"),
        ("guangdong_004", {"carry_ratio": 0.5}, 'carry_ratio must be a string such as "0.3" or "1/3"'),
        ("guangdong_004", {"prelim_sessions": 0}, "prelim_sessions must be 1..10000"),
        ("mcr_000", {"finalists": 3}, "prelim_sessions must be 1..10000 and finalists at least 4"),
        ("mcr_000", {"prelim_sessions": True}, "setting prelim_sessions must be a non-negative integer"),
        ("mcr_000", {"base": 500}, "format mcr_000 has no setting 'base' (settings: prelim_sessions, finalists)"),
        ("mcr_swiss_001", {"base": 10**6 + 1}, "base must be 0..1000000"),
        ("sichuan_003", {"minutes": 601}, "minutes (a session's time limit) must be 1..600, or empty for none"),
        ("mcr_survival", {"individual": "a b"}, "individual must be the id of the individual event (a tournament id)"),
        ("mcr_survival", {"finalists": 10001}, "finalists (players of the individual final, who do not enter) must be 0..10000"),
        ("mcr_000", [], "settings must be an object"),
    ]
    for name, given, message in refused:
        with pytest.raises(formats.SettingsInvalid) as e:
            formats.get(name).check_settings(given)
        assert str(e.value) == message, (name, given)


class Played:
    """A played table as the server's adapter gives it: the sums of its hands by player."""

    def __init__(self, scores, hands=()):
        self.scores, self.hands = scores, list(hands)
        self.n_hands = len(self.hands) or 1

    def players(self):
        return list(self.scores)

    def raw_scores(self):
        return dict(self.scores)


def players(ids, subs=()):
    return [{"id": p, "name": "Name " + p, "substitute": p in subs} for p in ids]


def test_results_from_plain_data():
    # seed 000, one session: the seated table plays, a late arrival (12 min: -20) and a registered
    # player without a result listed at 0 / 0; a substitute plays and is not ranked
    mcr = formats.get("mcr_000")
    event = Event(mcr.check_settings({}), players("ABCDE" + "S", subs="S"), {(1, 1): Played({"A": 30, "B": 0, "C": -10, "S": -30})},
                  {1: {1: ["A", "B", "C", "S"]}}, {}, [{"id": 1, "session": 1, "player": "A", "kind": "late", "minutes": "12", "points": None}])
    problems = []
    out = mcr.results(event, problems)
    assert problems == []
    assert [(r["rank"], r["player"], r["standard"], r["match"]) for r in out.rows] == [
        (1, "A", "4", "10"), (2, "B", "2", "0"), (3, "C", "1", "-10"), (4, "D", "0", "0"), (4, "E", "0", "0")]
    assert out.table_scores[(1, 1)]["S"].standard == 0 and out.extra == {"sessions": 1}
    # a table the rules cannot score is a problem, the rest is scored
    gd = formats.get("guangdong_004")
    event = Event(gd.check_settings({}), players("ABCDEFGH"), {(1, 1): Played({"A": 5, "B": 5, "C": -5, "D": -5}),
                                                               (1, 2): Played({"A": 1, "F": 0, "G": 0, "H": -1})},
                  {1: {1: list("ABCD"), 2: list("EFGH")}})
    problems = []
    out = gd.results(event, problems)
    assert problems[0].startswith("session 1: A counted at an earlier table"), problems
