# Guangdong 推倒胡, one test per rule line of docs/rules.md; base 2, expected points by hand.
from settle_util import ok, refused, pairs, score

PINGHE = "123m456m789m11s234s"    # 平和 x1
CHICKEN = "123m456m789m11s222s"   # 鸡和 x1, self-draw only
PENG = "111m222m333m11s444s"      # 碰碰和 x2


def _row(hand, **kw):
    req = {"id": 1, "hand": hand}
    req.update(kw)
    r = score("guangdong", req)
    assert r["ok"], r
    return r["fans"][0]["name"], r["total"], r["value"]


def test_hand_table_highest_row_applies():
    assert _row(PINGHE) == ("平和", 1, 2)
    assert _row(CHICKEN, self_drawn=True) == ("鸡和", 1, 2)
    assert _row("123m456m789m11mEEE") == ("混一色", 1, 2)
    assert _row(PENG) == ("碰碰和", 2, 4)
    assert _row("1122m3344m5566s77s") == ("七对", 2, 4)
    assert _row("123m456m789m11m234m") == ("清一色", 4, 8)     # also 平和: the higher row counts
    assert _row("111m999m111sEEE99p") == ("幺九", 6, 12)
    assert _row("EEESSSWWWNNNCC") == ("字一色", 8, 16)
    assert _row("19m19s19pESWNCFPP") == ("十三幺", 8, 16)


def test_chicken_hand_only_by_self_draw():
    refused("guangdong", [{"win": 1, "from": 2, "hand": CHICKEN}], "chicken_discard", 0)
    r = ok("guangdong", [{"win": 1, "hand": CHICKEN}])
    assert r["deltas"] == [-2, 6, -2, -2]


def test_self_draw_everyone_pays_discard_discarder_pays_once():
    assert ok("guangdong", [{"win": 0, "hand": PENG}])["deltas"] == [12, -4, -4, -4]
    assert ok("guangdong", [{"win": 0, "from": 3, "hand": PENG}])["deltas"] == [4, 0, 0, -4]


def test_horses_hit_by_seat_relative_to_dealer_and_double():
    # dealer 0, winner 1 is the dealer's right: 2 / 6 / S hit; dragons never hit
    r = ok("guangdong", [{"win": 1, "hand": PINGHE, "horses": ["2m", "S"]}])
    assert r["deltas"] == [-8, 24, -8, -8]                 # 2 * 2^2 from each
    r = ok("guangdong", [{"win": 1, "hand": PINGHE, "horses": ["1m", "C"]}])
    assert r["deltas"] == [-2, 6, -2, -2]                  # no hit
    r = ok("guangdong", [{"win": 0, "from": 2, "hand": PINGHE, "horses": ["3p"]}], dealer=1)
    assert r["deltas"] == [2, 0, -2, 0]                    # winner 0 is dealer 1's left: 4/8/N, 3p misses
    r = ok("guangdong", [{"win": 0, "from": 2, "hand": PINGHE, "horses": ["4p", "N"]}], dealer=1)
    assert r["deltas"] == [8, 0, -8, 0]                    # 2 hits -> x4
    r = ok("guangdong", [{"win": 1, "hand": PINGHE, "horses": ["2m", "S"]}], options={"horse_add": True})
    assert r["deltas"] == [-6, 18, -6, -6]                 # the adding option: x(1 + 2)


def test_horses_do_not_touch_kong_payments():
    r = ok("guangdong", [{"kong": "concealed", "seat": 1}, {"win": 1, "hand": PINGHE, "horses": ["2m"]}])
    assert (0, 1, 4) in pairs(r) and (0, 1, 4) in pairs(r)   # kong 4 each, win 2 * 2 each
    assert r["deltas"] == [-8, 24, -8, -8]


def test_kongs_settled_at_once():
    r = ok("guangdong", [{"kong": "added", "seat": 1}])
    assert r["deltas"] == [-2, 6, -2, -2]
    r = ok("guangdong", [{"kong": "concealed", "seat": 2}])
    assert r["deltas"] == [-4, -4, 12, -4]
    r = ok("guangdong", [{"kong": "direct", "seat": 3, "from": 0}])   # 放杠 pays all three shares
    assert r["deltas"] == [-6, 0, 0, 6]


def test_robbed_added_kong_robbed_player_pays_everything():
    r = ok("guangdong", [{"kong": "added", "seat": 1}, {"win": 2, "from": 1, "kong": True, "hand": PINGHE}])
    assert r["deltas"] == [0, -6, 6, 0]


def test_replacement_tile_win_after_direct_kong_discarder_pays_everything():
    r = ok("guangdong", [{"kong": "direct", "seat": 3, "from": 0},
                         {"win": 3, "kong": True, "hand": "[5555p3]111m222m333m11s"}])
    assert r["deltas"] == [-6 - 12, 0, 0, 18]      # 碰碰和 4, all three shares from 0


def test_next_dealer():
    assert ok("guangdong", [{"win": 2, "hand": PINGHE}])["next_dealer"] == 2
    r = ok("guangdong", [{"win": 1, "from": 3, "hand": PINGHE}, {"win": 2, "from": 3, "hand": PENG}])
    assert r["next_dealer"] == 3 and r["deltas"] == [0, 2, 4, -6]
    assert ok("guangdong", [{"wall_end": True}], dealer=3)["next_dealer"] == 0
    refused("guangdong", [{"win": 2, "hand": PINGHE}, {"win": 1, "hand": PINGHE}], "hand_over", 1)
    refused("guangdong", [{"win": 2, "from": 3, "hand": PINGHE}, {"win": 1, "from": 0, "hand": PINGHE}],
            "second_winner", 1)


def test_time_out_keeps_settled_kongs_and_refuses_more():
    r = ok("guangdong", [{"kong": "concealed", "seat": 2}, {"time_out": True}])
    assert r["deltas"] == [-4, -4, 12, -4]
    refused("guangdong", [{"time_out": True}, {"kong": "concealed", "seat": 2}], "hand_over", 1)


def test_penalties():
    r = ok("guangdong", [{"penalty": "late", "seat": 0, "minutes": 5}])
    assert r["deltas"] == [-8, 0, 0, 0]
    r = ok("guangdong", [{"penalty": "late", "seat": 0, "minutes": 11}])
    assert r["flags"][0]["kind"] == "forfeit" and r["deltas"] == [0, 0, 0, 0]
    r = ok("guangdong", [{"penalty": "early_draw", "seat": 1}] * 4)
    assert r["deltas"] == [0, -(2 + 4 + 8), 0, 0]          # warning, 2, 4, 8
    assert r["flags"][0]["kind"] == "warning"
    assert ok("guangdong", [{"penalty": "false_win", "seat": 2}])["deltas"] == [0, 0, -16, 0]
    r = ok("guangdong", [{"penalty": "information", "seat": 2}])
    assert r["deltas"] == [0, 0, -16, 0]
    refused("guangdong", [{"penalty": "information", "seat": 2}, {"win": 2, "hand": PINGHE}], "barred", 1)
    assert ok("guangdong", [{"penalty": "wall", "seat": 3}])["deltas"] == [8, 8, 8, -24]
    refused("guangdong", [{"penalty": "tier1", "seat": 3}], "bad_penalty", 0)


def test_declared_non_win_is_a_false_win():
    r = ok("guangdong", [{"declare": 1, "hand": "123m456m789m11s235s"}])
    assert r["deltas"] == [0, -16, 0, 0]


# ---- issue 13: seed 004 §三 at the table ----

def test_conduct_faults_share_one_ladder_per_player_worked_by_hand():
    # seed 004 §三.3(1): drawing before the previous player discarded and non-standard words for
    # 碰/杠/和 share one ladder per player and hand: warning, 2, 4, 8; the seed stops at the 4th,
    # decided: 8 for every later one. By hand, seat 1:
    #   early_draw  #1 warning      call_words #2  2      early_draw #3  4
    #   call_words  #4  8           early_draw #5  8      call_words #6  8     -> 30
    # seat 2's first fault is its own warning; the next hand starts again.
    evs = [{"penalty": "early_draw", "seat": 1}, {"penalty": "call_words", "seat": 1},
           {"penalty": "early_draw", "seat": 1}, {"penalty": "call_words", "seat": 2},
           {"penalty": "call_words", "seat": 1}, {"penalty": "early_draw", "seat": 1},
           {"penalty": "call_words", "seat": 1}]
    r = ok("guangdong", evs)
    assert r["deltas"] == [0, -30, 0, 0]
    assert [t["points"] for t in r["transfers"]] == [2, 4, 8, 8, 8]
    assert [(f["seat"], f["penalty"]) for f in r["flags"]] == [(1, "early_draw"), (2, "call_words")]
    assert ok("guangdong", evs[:1])["deltas"] == [0, 0, 0, 0]
    # seed 004 §三 has no empty call and no slow pung: refused, not charged on MCR's ladder
    refused("guangdong", [{"penalty": "empty_call", "seat": 1}], "bad_penalty", 0)
    refused("guangdong", [{"penalty": "slow_claim", "seat": 1}], "bad_penalty", 0)


def test_exposing_another_players_tiles_costs_1_to_16_to_the_victim():
    # seed 004 §三.2(3): 由裁判员视情节轻重判罚责任人1-16分给该选手
    r = ok("guangdong", [{"penalty": "exposed_tiles", "seat": 0, "victim": 3, "points": 1},
                         {"penalty": "exposed_tiles", "seat": 0, "victim": 1, "points": 16}])
    assert r["deltas"] == [-17, 16, 0, 1]
    refused("guangdong", [{"penalty": "exposed_tiles", "seat": 0, "victim": 3, "points": 0}], "bad_penalty", 0)
    refused("guangdong", [{"penalty": "exposed_tiles", "seat": 0, "victim": 3, "points": 17}], "bad_penalty", 0)
    refused("guangdong", [{"penalty": "exposed_tiles", "seat": 0, "victim": 3}], "bad_penalty", 0)


def test_barred_for_a_wrong_draw_or_tile_count_no_win_no_pung_no_kong():
    # seed 004 §三.3(2) 抓错牌且已入手牌，当盘停和陪打。停和陪打者不允许碰牌或杠牌; §三.5 相公
    for reason in ("wrong_draw", "wrong_count"):
        r = ok("guangdong", [{"bar": 2, "reason": reason}])
        assert r["flags"] == [{"event": 0, "seat": 2, "kind": "barred", "reason": reason}]
        refused("guangdong", [{"bar": 2, "reason": reason}, {"win": 2, "hand": PINGHE}], "barred", 1)
        refused("guangdong", [{"bar": 2, "reason": reason}, {"kong": "concealed", "seat": 2}], "barred", 1)
        # still pays as a loser, and others kong as before
        r = ok("guangdong", [{"bar": 2, "reason": reason}, {"kong": "concealed", "seat": 1},
                             {"win": 0, "hand": PENG}])
        assert r["deltas"] == [12 - 4, 12 - 4, -4 - 4, -4 - 4]
    refused("guangdong", [{"bar": 2, "reason": "wrong_call"}], "bad_penalty", 0)   # not in seed 004


def test_hand_table_row_the_engine_does_not_know_is_refused():
    # docs/rules.md: the hand table is configuration, and a row the scorer cannot test is an
    # error, not a row that silently never applies (a self-drawn full flush would pay 2, not 8)
    table = [["鸡和", "Chicken Hand", 1], ["清一 色", "Full Flush", 4]]
    r = refused_request("guangdong", [{"win": 0, "hand": "123m456m789m11m234m"}], {"hand_table": table})
    assert "清一 色" in r["error"]["message"]
    good = [["鸡和", "Chicken Hand", 1], ["清一色", "Full Flush", 4]]
    assert ok("guangdong", [{"win": 0, "hand": "123m456m789m11m234m"}], options={"hand_table": good})["deltas"] \
        == [24, -8, -8, -8]


def test_time_out_keeps_only_the_settled_kongs_worked_by_hand():
    # seed 004 §四.2(2): 此时未结束的牌局只记录已经发生的杠牌. By hand, before the time-out:
    #   concealed kong, seat 2: 4 from each       -> [-4, -4, 12, -4]
    #   false win, seat 0: 16                     -> 0 -16
    #   seat 3 wrecks the wall: 8 to each          -> 3 -24, others +8
    #   late 5 min, seat 1: 8                     -> 1 -8
    #   = [-4 - 16 + 8, -4 + 8 - 8, 12 + 8, -4 - 24] = [-12, -4, 20, -28]
    evs = [{"kong": "concealed", "seat": 2}, {"penalty": "false_win", "seat": 0},
           {"penalty": "wall", "seat": 3}, {"penalty": "late", "seat": 1, "minutes": 5}]
    assert ok("guangdong", evs)["deltas"] == [-12, -4, 20, -28]
    # the kong and the late arrival stay
    assert ok("guangdong", evs + [{"time_out": True}])["deltas"] == [-4, -12, 12, -4]


def refused_request(rules, events, options):
    from settle_util import settle
    r = settle(rules, events, options=options)
    assert r["ok"] is False and r["error"]["code"] == "bad_request", r
    return r
