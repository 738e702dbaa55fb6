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


# ---- issue 13: what the referee keys (docs/rules.md), each test citing its seed clause ----

def test_impossible_flag_pairs_are_refused_in_settle_too():
    # 海底捞月 with 抢杠和 (decided, docs/rules.md): refused like any impossible flag
    refused("mcr", [{"kong": "added", "seat": 2},
                    {"win": 0, "from": 2, "kong": True, "last_tile": True, "hand": KNIT}], "bad_flags", 1)
    r = ok("mcr", [{"kong": "added", "seat": 2}, {"win": 0, "from": 2, "kong": True, "hand": KNIT}])
    assert r["deltas"] == [46, -8, -30, -8]           # 抢杠和 8: 22 fans


def test_mixed_and_flower_flags_change_the_payments():
    # seed 000 §一.2.8: 和绝张 (4) void when the winning tile was mixed in: 18 -> 14 fans
    r = ok("mcr", [{"win": 0, "from": 2, "hand": KNIT, "last_of_kind": True}])
    assert r["deltas"] == [42, -8, -26, -8]
    r = ok("mcr", [{"win": 0, "from": 2, "hand": KNIT, "last_of_kind": True, "win_tile_mixed": True}])
    assert r["deltas"] == [38, -8, -22, -8]
    # seed 000 §二.14: no 杠上开花 after a flower replacement: 124 -> 117 fans, each pays 8 + 117
    evs = [{"kong": "concealed", "seat": 1},
           {"win": 1, "kong": True, "hand": "[7777s]123s123s123s99s", "replacement_flower": True}]
    assert ok("mcr", evs)["deltas"] == [-125, 375, -125, -125]
    refused("mcr", [{"win": 0, "from": 2, "hand": KNIT, "replacement_flower": True}], "bad_flags", 0)
    refused("sichuan", [{"win": 0, "from": 2, "hand": "123m456m789m11s234s", "win_tile_mixed": True}], "bad_flags", 0)


def test_bar_event_for_each_reason_of_the_seeds():
    # seed 000 §一.4.2 / 001 §四.2 错吃错碰错杠, 000 §一.4.7 / 001 §四.9 相公, 000 §一.4.4 抓错牌入手,
    # 000 §一.4.5 错报和, 001 §四.7(2) own hand shown on a failed win, 001 §四.10 information:
    # 停和陪打: no win for the rest of the hand, still paying as a loser
    for reason in ("wrong_call", "wrong_count", "wrong_draw", "false_declaration", "exposed_own", "information"):
        r = ok("mcr", [{"bar": 3, "reason": reason}])
        assert r["deltas"] == [0, 0, 0, 0]
        assert r["flags"] == [{"event": 0, "seat": 3, "kind": "barred", "reason": reason}]
        refused("mcr", [{"bar": 3, "reason": reason}, {"win": 3, "hand": WINDS}], "barred", 1)
        refused("mcr", [{"bar": 3, "reason": reason}, {"declare": 3}], "barred", 1)
        # still pays: seat 0 wins 14 fans on 3's discard
        assert ok("mcr", [{"bar": 3, "reason": reason}, {"win": 0, "from": 3, "hand": KNIT}])["deltas"] == \
            [38, -8, -8, -22]
    refused("mcr", [{"bar": 3, "reason": "delaying"}], "bad_penalty", 0)   # a Sichuan reason
    refused("mcr", [{"bar": 3}], "bad_penalty", 0)
    refused("mcr", [{"bar": 4, "reason": "wrong_call"}], "bad_seat", 0)


def test_exposing_another_players_tiles_costs_5_to_60_to_the_victim():
    # seed 000 §一.4.6, seed 001 §四.7(3): 判罚责任者5-60分给被干扰者; the referee keys the amount
    r = ok("mcr", [{"penalty": "exposed_tiles", "seat": 1, "victim": 2, "points": 5},
                   {"penalty": "exposed_tiles", "seat": 1, "victim": 3, "points": 60}])
    assert r["deltas"] == [0, -65, 5, 60]
    for bad in ({"points": 4}, {"points": 61}, {"points": None}, {"points": "10"}, {"victim": 1},
                {"victim": None}):
        ev = {"penalty": "exposed_tiles", "seat": 1, "victim": 2, "points": 10}
        ev.update(bad)
        code = "bad_seat" if "victim" in bad and bad["victim"] is None else "bad_penalty"
        refused("mcr", [ev], code, 0)


def test_illegal_information_points_or_barring_as_the_referee_keys_it():
    # seed 001 §四.10: 可予以罚分或本盘停和的处罚, 只作陪打
    assert ok("mcr", [{"penalty": "information", "seat": 2, "points": 10}])["deltas"] == [0, 0, -10, 0]
    r = ok("mcr", [{"penalty": "information", "seat": 2, "bar": True}])
    assert r["deltas"] == [0, 0, 0, 0] and r["flags"][0]["kind"] == "barred"
    refused("mcr", [{"penalty": "information", "seat": 2, "bar": True}, {"win": 2, "hand": WINDS}], "barred", 1)
    r = ok("mcr", [{"penalty": "information", "seat": 2, "points": 20, "bar": True}])
    assert r["deltas"] == [0, 0, -20, 0] and r["flags"][0]["kind"] == "barred"
    refused("mcr", [{"penalty": "information", "seat": 2}], "bad_penalty", 0)              # neither
    refused("mcr", [{"penalty": "information", "seat": 2, "points": 0}], "bad_penalty", 0)
    refused("mcr", [{"penalty": "information", "seat": 2, "points": 101}], "bad_penalty", 0)  # keying guard
    refused("mcr", [{"penalty": "information", "seat": 2, "bar": "yes"}], "bad_penalty", 0)


def test_a_wrongly_named_discard_makes_the_caller_pay_for_the_three():
    # seed 001 §四.8: 报牌错误，导致其他家误和牌，由报错牌者付三家应付的分: 0 wins 14 fans on 2's
    # wrongly named discard; the three would pay 22 + 8 + 8 = 38, all of it from 2
    r = ok("mcr", [{"win": 0, "from": 2, "hand": KNIT, "misnamed": True}])
    assert r["deltas"] == [38, 0, -38, 0] and r["next_dealer"] == 1
    refused("mcr", [{"win": 0, "hand": WINDS, "misnamed": True}], "bad_flags", 0)


def test_time_out_counts_nothing_of_the_unfinished_hand_worked_by_hand():
    # seed 000 §三.1.4: 此时未结束的牌局无效，当盘不计成绩 (decided: 错和/诈和 payments too).
    # Before the time-out, by hand:
    #   late 12 min, seat 1:             1 -20               (seed 000 §一.4.1: 10-15 min = 20)
    #   错和 by seat 0 (ready, 9p):       0 -30, 1 2 3 +10 each
    #   empty call x2, seat 2:           warning, then 2 -5
    #   seat 3 exposes 1's tiles, 10:    3 -10, 1 +10
    #   -> [-30, -20 + 10 + 10, 10 - 5, 10 - 10] = [-30, 0, 5, 0]
    evs = [{"penalty": "late", "seat": 1, "minutes": 12},
           {"declare": 0, "hand": "123m456m789s11pEE9p"},
           {"penalty": "empty_call", "seat": 2}, {"penalty": "empty_call", "seat": 2},
           {"penalty": "exposed_tiles", "seat": 3, "victim": 1, "points": 10}]
    assert ok("mcr", evs)["deltas"] == [-30, 0, 5, 0]
    # at the time-out only the late arrival stays: it is the session's, not the hand's
    r = ok("mcr", evs + [{"time_out": True}], dealer=2)
    assert r["deltas"] == [0, -20, 0, 0]
    assert [(t["from"], t["to"], t["points"]) for t in r["transfers"]] == [(1, None, 20)]
    assert r["next_dealer"] == 2                      # the hand does not count: the deal stays
    assert [f["kind"] for f in r["flags"]] == ["warning"]   # the referee still sees what happened
