"""The numbers the box and the tournament system share (rules_min/tournament.py and the rules
core's tables), each taken from both sides of the link and pinned equal: what the box does with
a session's config, a late arrival keyed at the table, its standard scores and Sichuan's tier
penalties, against what the server's formats (host_tools.tournament.formats, the server's
settings check and its v1 record contract) make of the same facts. A number given a second home
on either side fails here."""
import json
import math
import random
from fractions import Fraction

import pytest

from firmware.session import Session
from firmware.session_three import ThreeSession
from host_tools.server.boxes import contract_v1
from host_tools.server.tournaments import formats as server_formats
from host_tools.tournament import formats
from host_tools.tournament.formats.mcr_000 import mcr_table
from host_tools.tournament.formats.mcr_swiss_001 import swiss_table
from protocol import config
from rules_min import mcr_pay, request
from rules_min import tournament as numbers
from rules_min.settle import Hand
from tests.handgen import random_win

PLAYERS = ["1", "2", "3", "4"]


def cfg(rules, players=PLAYERS, **kw):
    c = {"tournament": "T", "session": 1, "table": 1, "rules": rules, "players": list(players), "first_dealer": 0}
    c.update(kw)
    assert config.check(c) is None, config.check(c)
    return config.with_defaults(c)


def box_limit_minutes(session):
    left = session.time_left_ms(0)
    return None if left is None else left // 60000


@pytest.mark.parametrize("fmt", [f for f in formats.all() if not f.live_tables], ids=lambda f: f.name)
def test_a_session_keyed_in_at_the_box_is_as_long_as_the_server_says(fmt):
    box = cfg(fmt.rules)  # keyed in at the box: no hands, no minutes given
    assert box["hands"] == fmt.hands
    assert box.get("minutes") == fmt.minutes({})
    assert box_limit_minutes(Session(box)) == fmt.minutes({})
    if fmt.rules in config.THREE_RULES:
        assert cfg(fmt.rules, PLAYERS[:3] + [None])["hands"] == fmt.hands_at(3)


def test_sichuan_has_no_time_limit_unless_the_organizer_sets_one():
    # RULES.md: by default a Sichuan table has none (seed 003 sets none); an organizer may set one
    sichuan = formats.get("sichuan_003")
    assert numbers.SESSION_MINUTES["sichuan"] is None
    settings = server_formats.check_settings("sichuan_003", {})
    assert sichuan.minutes(settings) is None and box_limit_minutes(Session(cfg("sichuan"))) is None
    settings = server_formats.check_settings("sichuan_003", {"minutes": 90})
    assert sichuan.minutes(settings) == 90
    assert box_limit_minutes(Session(cfg("sichuan", minutes=sichuan.minutes(settings)))) == 90
    with pytest.raises(server_formats.Invalid):
        server_formats.check_settings("sichuan_003", {"minutes": 0})


def test_the_survival_event_has_no_time_limit_on_either_side():
    assert formats.get("mcr_survival").minutes({}) is None
    from firmware.survival import SurvivalSession
    box = cfg("mcr", mode="survival", scores=[50, 50, 50, 50], event_start=0)
    assert SurvivalSession(box).time_left_ms(0) >= 100 * 86400000  # days: it plays until a bust


def _tenths(x):
    return math.floor(10 * Fraction(x))


def test_standard_scores_at_the_box_are_the_servers():
    # every pattern of ties among four (totals -2..2), and three-player tables
    for n in range(625):
        totals = [n % 5 - 2, n // 5 % 5 - 2, n // 25 % 5 - 2, n // 125 - 2]
        s = Session(cfg("mcr"))
        s.totals = list(totals)
        host = mcr_table({PLAYERS[i]: totals[i] for i in range(4)})
        assert s.standard_scores() == [_tenths(host[p].standard) for p in PLAYERS], totals
        three = ThreeSession(cfg("mcr", PLAYERS[:3] + [None]))
        three.totals = totals[:3] + [0]
        host = mcr_table({PLAYERS[i]: totals[i] for i in range(3)})
        assert three.standard_scores() == [_tenths(host[p].standard) for p in PLAYERS[:3]] + [None], totals[:3]


def test_swiss_base_is_the_servers_default():
    settings = server_formats.check_settings("mcr_swiss_001", {})
    assert settings["base"] == numbers.SWISS_BASE
    assert swiss_table({"a": 0, "b": 0, "c": 0, "d": 0})["a"].match == settings["base"]


@pytest.mark.parametrize("rules,name", [("mcr", "mcr_000"), ("mcr", "mcr_swiss_001"), ("guangdong", "guangdong_004"),
                                        ("sichuan", "sichuan_003")])
def test_a_late_arrival_costs_the_same_at_the_table_and_off_it(rules, name):
    fmt = formats.get(name)
    assert fmt.rules == rules
    for m in range(0, 31):
        h = Hand(rules)
        h.event(0, {"penalty": "late", "seat": 1, "minutes": m})
        kinds = {f["kind"] for f in h.flags}
        off_table = fmt.late(m)
        assert -h.deltas()[1] == -off_table.penalty, m
        assert bool(kinds & {"forfeit", "disqualified"}) == off_table.forfeit, m
        assert ("disqualified" in kinds) == off_table.stage, m


def test_sichuan_tier_penalties_are_the_boxs_on_the_server():
    for kind in ("tier1", "tier2"):
        h = Hand("sichuan")
        h.event(0, {"penalty": kind, "seat": 2})
        v1 = contract_v1.deductions({"rules": "sichuan", "events": [{"penalty": kind, "seat": 2}]})
        assert -h.deltas()[2] == v1[2] > 0, kind


def test_the_box_and_the_score_tool_agree_on_eight_fans():
    # RULES.md: 8 fans to win. The box's settle refuses less; the score tool (host and box) says
    # meets_minimum. Random wins, self-drawn by the dealer, no flags, prevalent East.
    assert mcr_pay.MIN_FANS == 8
    rng = random.Random(17)
    seen = {True: 0, False: 0}
    for _ in range(400):
        hand = random_win(rng)["hand"]
        reply = json.loads(request.handle_line(json.dumps({"hand": hand, "self_drawn": True, "winner": 0})))
        if "meets_minimum" not in reply:
            continue
        h = Hand("mcr")
        try:
            h.event(0, {"win": 0, "hand": hand})
            won = True
        except ValueError as e:
            if e.args[0] != "not_win":
                continue
            won = False
        assert won == reply["meets_minimum"], (hand, reply)
        seen[won] += 1
    assert seen[True] > 20 and seen[False] > 20, seen
