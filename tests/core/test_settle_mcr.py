# Chinese Official inside a whole hand: payments, failed declarations, escalation, the dealer.
from settle_util import ok, refused, pairs, score

KNIT = "[345m3]258m1488s369p7s"          # 组合龙 + 平和 = 14 fans
WINDS = "[EEE1][SSSS1]55pWWWNNN"          # 98 fans self-drawn (rulebook example)


def test_payments_discard_and_self_draw():
    r = ok("mcr", [{"win": 0, "from": 2, "hand": KNIT}])
    assert r["deltas"] == [38, -8, -22, -8]
    r = ok("mcr", [{"win": 3, "hand": WINDS}])
    assert r["deltas"] == [-106, -106, -106, 318]


def test_flowers_add_to_the_fan_total():
    r = ok("mcr", [{"win": 0, "from": 2, "hand": KNIT, "flowers": 2}])
    assert r["deltas"] == [40, -8, -24, -8]


def test_seat_wind_follows_the_dealer():
    hand = "[EEE1]111m999m789s11p"
    base = score("mcr", {"id": 1, "hand": hand, "seat_wind": "W", "prevalent_wind": "S"})["total"]
    r0 = ok("mcr", [{"win": 2, "from": 1, "hand": hand}], dealer=0, prevalent="S")   # seat 2 is West
    r2 = ok("mcr", [{"win": 2, "from": 1, "hand": hand}], dealer=2, prevalent="S")   # seat 2 is East
    assert r0["deltas"][1] == -(8 + base)
    assert r2["deltas"][1] == -(8 + base + 1)     # 门风刻 2 instead of 幺九刻 1


def test_one_winner_per_hand():
    refused("mcr", [{"win": 0, "from": 2, "hand": KNIT}, {"win": 1, "from": 2, "hand": KNIT}], "second_winner", 1)
    refused("mcr", [{"win": 0, "from": 2, "hand": KNIT}, {"win": 1, "hand": KNIT}], "second_winner", 1)


def test_win_under_eight_is_not_a_win_event():
    refused("mcr", [{"win": 0, "from": 1, "hand": "123m456m234s678p5p5p"}], "not_win", 0)


def test_failed_declarations():
    # ready (waits 1p or E) but declares 9p: 错和, 10 to each, no more wins
    r = ok("mcr", [{"declare": 1, "hand": "123m456m789s11pEE9p"}])
    assert r["deltas"] == [10, -30, 10, 10]
    refused("mcr", [{"declare": 1, "hand": "123m456m789s11pEE9p"}, {"win": 1, "hand": WINDS}], "barred", 1)
    # one tile from ready: 诈和, 20 to each
    r = ok("mcr", [{"declare": 2, "hand": "123m456m789s1p3pEW9p"}])
    assert r["deltas"] == [20, 20, -60, 20] and r["flags"] == []
    # two or more from ready: 有意诈和, charged as 诈和 and flagged for the referee
    r = ok("mcr", [{"declare": 3, "hand": "1m5m9m2s6s1p5p9pEESWN7s"}])
    assert r["deltas"] == [20, 20, 20, -60]
    assert r["flags"][0]["kind"] == "intentional_false_win" and r["flags"][0]["seat"] == 3
    # declared before revealing: 错报和, no payment, no more wins
    r = ok("mcr", [{"declare": 0}])
    assert r["deltas"] == [0, 0, 0, 0] and r["flags"][0]["kind"] == "false_declaration"
    refused("mcr", [{"declare": 0}, {"win": 0, "hand": WINDS}], "barred", 1)
    # a declared hand that is a real win must be keyed in as a win
    refused("mcr", [{"declare": 0, "hand": KNIT}], "is_a_win", 0)


def test_escalation_per_player_and_kind_within_a_hand():
    evs = [{"penalty": "empty_call", "seat": 0}] * 4 + [{"penalty": "empty_call", "seat": 1},
                                                      {"penalty": "early_draw", "seat": 0},
                                                      {"penalty": "slow_claim", "seat": 0},
                                                      {"penalty": "slow_claim", "seat": 0}]
    r = ok("mcr", evs)
    assert r["deltas"] == [-(5 + 10 + 20) - 5, 0, 0, 0]
    assert all(t["to"] is None for t in r["transfers"])
    # the next hand starts again with a warning
    assert ok("mcr", [{"penalty": "empty_call", "seat": 0}])["deltas"] == [0, 0, 0, 0]


def test_late_arrival_table():
    assert ok("mcr", [{"penalty": "late", "seat": 1, "minutes": 10}])["deltas"] == [0, -10, 0, 0]
    assert ok("mcr", [{"penalty": "late", "seat": 1, "minutes": 15}])["deltas"] == [0, -20, 0, 0]
    r = ok("mcr", [{"penalty": "late", "seat": 1, "minutes": 16}])
    assert r["flags"][0]["kind"] == "forfeit"
    refused("mcr", [{"penalty": "late", "seat": 1}], "bad_penalty", 0)
    refused("mcr", [{"penalty": "wall", "seat": 1}], "bad_penalty", 0)


def test_dealer_passes_every_hand():
    assert ok("mcr", [{"win": 2, "hand": WINDS}], dealer=3)["next_dealer"] == 0
    assert ok("mcr", [{"wall_end": True}], dealer=1)["next_dealer"] == 2
    assert ok("mcr", [{"time_out": True}], dealer=1)["next_dealer"] == 1   # the hand does not count
    assert ok("mcr", [{"penalty": "early_draw", "seat": 0}])["next_dealer"] is None   # still going


def test_bad_events_name_their_index():
    refused("mcr", [{"penalty": "early_draw", "seat": 0}, {"kong": "added", "seat": 7}], "bad_seat", 1)
    refused("mcr", [{"nonsense": 1}], "bad_event", 0)
    refused("mcr", [{"win": 0, "from": 0, "hand": KNIT}], "bad_seat", 0)
    refused("mcr", [{"win": 0, "from": 1, "hand": "11111m"}], "tile_count", 0)
