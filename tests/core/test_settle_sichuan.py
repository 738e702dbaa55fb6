# Sichuan 血战到底, one test per rule line of docs/rules.md; expected points worked out by hand:
# base 10, value 10 * 2^fans, fans capped at 3.
from settle_util import ok, refused, pairs, score

PING = "123m456m789m11s234s"     # 平胡 1 fan
SU = "123m456m789m11s222s"       # no fan (素胡)
DUI = "111m222m333m11s444s"      # 对对胡 2
QING = "123m456m789m11m234m"     # 清一色 3 + 平胡 1 -> capped 3
QIDUI = "1122m3344m5566s77s"     # 七对 3
LONG = "1111m3344m5566s77s"      # 龙七对 3


def _total(hand, **kw):
    req = {"id": 1, "hand": hand}
    req.update(kw)
    return score("sichuan", req)


def test_108_tiles_no_honours_no_flowers_no_chows():
    assert _total("123m456m789m11sEEE")["error"]["code"] == "bad_tiles"
    assert _total("a123m456m789m11s222s")["error"]["code"] == "bad_tiles"
    assert _total("[123m1]456m789m11s222s")["error"]["code"] == "bad_tiles"


def test_missing_suit_and_at_most_two_suits():
    assert _total(PING, missing_suit="s")["error"]["code"] == "bad_tiles"
    assert _total(PING, missing_suit="p")["ok"]
    r = _total("123m456s789p11s234s")   # three suits: no win
    assert r["ok"] is False and r["error"]["code"] == "not_win"


def test_fans_and_values():
    cases = [(PING, 1, 20), (SU, 0, 10), (DUI, 2, 40), (QING, 3, 80), (QIDUI, 3, 80), (LONG, 3, 80)]
    for hand, fans, value in cases:
        r = _total(hand)
        assert r["ok"] and r["total"] == fans and r["value"] == value, (hand, r)
    r = _total(LONG)
    assert [f["name"] for f in r["fans"]] == ["龙七对"]
    r = _total("1122m3344m5566m77m")
    assert [f["name"] for f in r["fans"]] == ["清七对"]


def test_bonus_fans_add_one_each_and_cap_at_three():
    assert _total(SU, self_drawn=True)["total"] == 1                          # 自摸
    assert _total(SU, self_drawn=True, kong=True)["total"] == 2               # 自摸 + 杠上开花
    assert _total(SU, kong=True)["total"] == 1                                # 抢杠胡
    assert _total(SU, self_drawn=True, last_tile=True)["total"] == 2          # 自摸 + 海底捞月
    assert _total(DUI, self_drawn=True, kong=True)["total"] == 3              # 2 + 1 + 1, capped
    assert _total(QING, self_drawn=True)["value"] == 80


def test_gen_is_an_option_off_by_default():
    hand = "1111m23m456s789s55s"    # four 1m in hand: one 根 when switched on
    assert _total(hand)["total"] == 0
    assert _total(hand, gen=True)["total"] == 1


def test_discard_win_discarder_pays_self_draw_everyone_still_in_pays():
    r = ok("sichuan", [{"win": 1, "from": 3, "hand": PING}])
    assert r["deltas"] == [0, 20, 0, -20]
    r = ok("sichuan", [{"win": 2, "hand": PING}])           # 平胡 + 自摸 = 2 fans = 40
    assert r["deltas"] == [-40, -40, 120, -40]


def test_several_winners_on_one_discard_each_paid_separately():
    r = ok("sichuan", [{"win": 1, "from": 0, "hand": DUI}, {"win": 3, "from": 0, "hand": QIDUI},
                       {"win": 2, "hand": SU}])
    # 0 pays 40 to 1 and 80 to 3; 2's self-draw (自摸 1 fan = 20) is paid by 0 alone, still in
    assert r["deltas"] == [-140, 40, 20, 80]
    assert r["next_dealer"] == 0   # the first win was a double win on 0's discard


def test_kongs_paid_at_once_only_by_players_still_in():
    r = ok("sichuan", [
        {"win": 3, "hand": PING},                              # 40 from each of 0, 1, 2
        {"kong": "concealed", "seat": 1},                      # 20 from 0 and 2 (3 has left)
        {"kong": "added", "seat": 0},                          # 10 from 1 and 2
        {"kong": "direct", "seat": 2, "from": 1},              # 20 from 1
    ])
    assert r["deltas"] == [-40, -30, -50, 120]
    assert all(t["from"] != 3 for t in r["transfers"])


def test_kong_by_a_player_who_left_is_refused():
    refused("sichuan", [{"win": 3, "hand": PING}, {"kong": "concealed", "seat": 3}], "out_of_hand", 1)
    refused("sichuan", [{"win": 3, "hand": PING}, {"win": 1, "from": 3, "hand": PING}], "bad_seat", 1)
    refused("sichuan", [{"win": 3, "hand": PING}, {"win": 3, "hand": PING}], "out_of_hand", 1)


def test_kong_then_discarded_winning_tile_passes_the_kong_income():
    # seed 003 第八条.4 杠上炮 呼叫转移: 2 konged (20 from 0) and with the discard right after the
    # replacement draw dealt in to 1: the table says so (kong_discard) and the income moves
    r = ok("sichuan", [{"kong": "direct", "seat": 2, "from": 0},
                       {"win": 1, "from": 2, "hand": PING, "kong_discard": True}])
    assert r["deltas"] == [-20, 40, -20, 0]
    assert (2, 1, 20) in pairs(r)


def test_a_later_deal_in_by_the_konger_moves_nothing():
    # seed 003 第八条.4: only the discard right after the kong. Without the table's word the
    # same events are a plain deal-in, whatever the event order says
    r = ok("sichuan", [{"kong": "direct", "seat": 2, "from": 0}, {"win": 1, "from": 2, "hand": PING}])
    assert r["deltas"] == [-20, 20, 0, 0]
    assert not any("呼叫转移" in t["reason"] for t in r["transfers"])


def test_kong_discard_needs_the_discarders_kong_since_the_last_win():
    refused("sichuan", [{"win": 1, "from": 2, "hand": PING, "kong_discard": True}], "bad_flags", 0)
    # another player's kong came after it: the discard was not right after 2's replacement draw
    refused("sichuan", [{"kong": "direct", "seat": 2, "from": 0}, {"kong": "concealed", "seat": 3},
                        {"win": 1, "from": 2, "hand": PING, "kong_discard": True}], "bad_flags", 2)
    # a win since the kong
    refused("sichuan", [{"kong": "concealed", "seat": 2}, {"win": 3, "hand": PING},
                        {"win": 1, "from": 2, "hand": PING, "kong_discard": True}], "bad_flags", 2)
    # a self-draw or a robbed kong is no 杠上炮
    refused("sichuan", [{"kong": "concealed", "seat": 2}, {"win": 2, "hand": PING, "kong_discard": True}],
            "bad_flags", 1)
    refused("sichuan", [{"kong": "added", "seat": 2},
                        {"win": 1, "from": 2, "kong": True, "kong_discard": True, "hand": PING}], "bad_flags", 1)
    # winners on one discard agree
    refused("sichuan", [{"kong": "concealed", "seat": 2}, {"win": 1, "from": 2, "hand": PING, "kong_discard": True},
                        {"win": 3, "from": 2, "hand": PING}], "bad_flags", 2)
    # a Sichuan rule only
    refused("mcr", [{"kong": "concealed", "seat": 2},
                    {"win": 1, "from": 2, "hand": "[345m3]258m1488s369p7s", "kong_discard": True}], "bad_flags", 1)
    refused("guangdong", [{"kong": "concealed", "seat": 2},
                          {"win": 1, "from": 2, "hand": "123m456m789m11s234s", "kong_discard": True}],
            "bad_flags", 1)


def test_passed_kong_income_split_remainder_to_first_winner_in_turn():
    r = ok("sichuan", [
        {"kong": "direct", "seat": 2, "from": 0},              # 20 to pass on
        {"win": 0, "from": 2, "hand": SU, "kong_discard": True},     # 10
        {"win": 1, "from": 2, "hand": DUI, "kong_discard": True},    # 40
        {"win": 3, "from": 2, "hand": PING, "kong_discard": True},   # 20
    ])
    # turn order from 2: 3, 0, 1 -> 3 gets 6 + the remainder 2, then 6 and 6
    assert (2, 3, 8) in pairs(r) and (2, 0, 6) in pairs(r) and (2, 1, 6) in pairs(r)
    assert r["deltas"] == [-4, 46, -70, 28]
    assert r["next_dealer"] == 2


def test_robbed_added_kong_is_not_paid():
    r = ok("sichuan", [{"kong": "added", "seat": 1},
                       {"win": 2, "from": 1, "kong": True, "hand": PING}])   # 平胡 + 抢杠胡 = 40
    assert r["deltas"] == [0, -40, 40, 0]
    assert len(r["transfers"]) == 1
    refused("sichuan", [{"kong": "concealed", "seat": 1},
                        {"win": 2, "from": 1, "kong": True, "hand": PING}], "bad_flags", 1)


def test_play_ends_when_three_have_won():
    evs = [{"win": 0, "hand": PING}, {"win": 1, "hand": PING}, {"win": 2, "hand": PING}]
    r = ok("sichuan", evs)
    assert r["next_dealer"] == 0   # the first winner deals next (decided; see README)
    refused("sichuan", evs + [{"kong": "concealed", "seat": 3}], "hand_over", 3)


def test_wall_end_refund_pig_and_best_value():
    r = ok("sichuan", [
        {"kong": "concealed", "seat": 1},                              # 20 from each of 0, 2, 3
        {"wall_end": True,
         "hands": {"0": "123m456m789m11s23s",        # ready: 1s or 4s, 平胡 -> best 20
                   "1": "[2222m]468m13s579s11s",     # not ready, two suits
                   "2": "123m456m789p1s2s3s4s",      # 花猪: three suits
                   "3": "123m456m789m11m23m"},       # ready: 清一色 + 平胡 -> best 80
         "missing_suit": {"0": "p", "1": "p", "2": "s", "3": "s"}},
    ])
    p = pairs(r)
    assert (1, 0, 20) in p and (1, 2, 20) in p and (1, 3, 20) in p     # 退税 of the kong
    assert (2, 0, 80) in p and (2, 3, 80) in p                         # 查花猪: capped value
    assert (1, 3, 80) in p                                             # 查大叫: 3's best value
    assert r["deltas"] == [100, -100, -160, 160]
    assert r["next_dealer"] == 0


def test_all_ready_or_none_ready_no_checks():
    ready = "123m456m789m11s23s"
    r = ok("sichuan", [{"wall_end": True, "hands": {str(s): ready for s in range(4)}}])
    assert r["transfers"] == []
    nr = "123m456m789m1s3s5s7s"
    r = ok("sichuan", [{"kong": "added", "seat": 0},
                       {"wall_end": True, "hands": {str(s): nr for s in range(4)}}])
    assert r["deltas"] == [0, 0, 0, 0]    # the kong is refunded, nobody pays 查叫


def test_winners_take_no_part_at_wall_end():
    r = ok("sichuan", [{"win": 3, "hand": PING},
                       {"wall_end": True, "hands": {"0": "123m456m789m11s23s", "1": "123m456m789m1s3s5s7s",
                                                     "2": "123m456m789m1s3s5s7s"}}])
    # 0 is ready (best 20); 1 and 2 pay it; 3 neither pays nor receives
    assert r["deltas"] == [-40 + 40, -40 - 20, -40 - 20, 120]
    refused("sichuan", [{"wall_end": True, "hands": {"0": "123m456m789m11s23s"}}], "bad_event", 0)


def test_penalty_tiers():
    r = ok("sichuan", [{"penalty": "tier1", "seat": 0}, {"penalty": "tier2", "seat": 1},
                       {"penalty": "tier3", "seat": 2}, {"penalty": "tier4", "seat": 3}])
    assert r["deltas"] == [-20, -50, 0, 0]
    kinds = [(f["seat"], f["kind"]) for f in r["flags"]]
    assert (2, "round_cancelled") in kinds and (3, "disqualified") in kinds
    refused("sichuan", [{"penalty": "tier2", "seat": 1}, {"win": 1, "hand": PING}], "barred", 1)
    refused("sichuan", [{"penalty": "empty_call", "seat": 1}], "bad_penalty", 0)


def test_any_prefix_settles():
    evs = [{"kong": "direct", "seat": 2, "from": 0}, {"win": 1, "from": 2, "hand": PING, "kong_discard": True},
           {"kong": "concealed", "seat": 3}, {"win": 0, "hand": SU}]
    for n in range(len(evs) + 1):
        ok("sichuan", evs[:n])


def test_barred_by_a_tier_two_violation():
    # seed 003 第六条.2 二级违规（干扰赛场、拖延出牌）：罚分50分，本局禁止胡牌: the bar event names the
    # violation; the player still pays (here 1's self-draw, 平胡 + 自摸 = 40 from each still in)
    for reason in ("interfering", "delaying"):
        r = ok("sichuan", [{"bar": 0, "reason": reason}])
        assert r["deltas"] == [-50, 0, 0, 0]
        assert r["flags"] == [{"event": 0, "seat": 0, "kind": "barred", "reason": reason}]
        refused("sichuan", [{"bar": 0, "reason": reason}, {"win": 0, "hand": PING}], "barred", 1)
        r = ok("sichuan", [{"bar": 0, "reason": reason}, {"win": 1, "hand": PING}])
        assert r["deltas"] == [-90, 120, -40, -40]
    # the seeds' other reasons are not Sichuan's, nor is exposing tiles (seed 003 第五条.3 treats
    # looking at others' tiles as cheating: tier 4)
    refused("sichuan", [{"bar": 0, "reason": "wrong_count"}], "bad_penalty", 0)
    refused("sichuan", [{"penalty": "exposed_tiles", "seat": 0, "victim": 1, "points": 5}], "bad_penalty", 0)
    refused("sichuan", [{"win": 1, "hand": PING}, {"bar": 1, "reason": "delaying"}], "out_of_hand", 1)
