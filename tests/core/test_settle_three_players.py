# A three-player table (seed 000 §一.3: 若有三人，正常比赛; seed 004 §三.1: 此时若有三人，则继续比赛):
# options {"absent": chair}. Worked by hand from the payment rules in docs/rules.md with the empty
# chair paying and getting nothing.
from settle_util import ok, refused, pairs

KNIT = "[345m3]258m1488s369p7s"          # 组合龙 + 平和 = 14 fans (test_settle_mcr.py)
WINDS = "[EEE1][SSSS1]55pWWWNNN"          # 98 fans self-drawn
NO_N = {"absent": 3}


def test_mcr_discard_win_the_empty_chair_pays_no_base():
    # four players: [38, -8, -22, -8]; three: the winner gets 8 + 14 from the discarder and 8
    # from the other player present
    r = ok("mcr", [{"win": 0, "from": 2, "hand": KNIT}], options=NO_N)
    assert r["deltas"] == [30, -8, -22, 0]
    assert all(3 not in (t["from"], t["to"]) for t in r["transfers"])


def test_mcr_self_draw_two_pay():
    r = ok("mcr", [{"win": 1, "hand": WINDS}], options=NO_N)
    assert r["deltas"] == [-106, 212, -106, 0]


def test_the_empty_chair_cannot_win_deal_in_kong_or_be_penalised():
    refused("mcr", [{"win": 3, "hand": WINDS}], "absent_seat", 0, options=NO_N)
    refused("mcr", [{"win": 0, "from": 3, "hand": KNIT}], "absent_seat", 0, options=NO_N)
    refused("mcr", [{"kong": "concealed", "seat": 3}], "absent_seat", 0, options=NO_N)
    refused("mcr", [{"penalty": "wrong_draw", "seat": 3}], "absent_seat", 0, options=NO_N)


def test_the_caller_of_a_wrong_tile_name_pays_what_the_two_others_would():
    # seed 001 §四.8: 由报错牌者付三家应付的分. 0 wins 14 fans on 2's wrongly named discard: at
    # the three-player table the others would pay 8 + 14 (2) and 8 (1) = 30, all of it from 2;
    # nothing for the empty chair's share (four players: 38, test_settle_mcr.py)
    r = ok("mcr", [{"win": 0, "from": 2, "hand": KNIT, "misnamed": True}], options=NO_N)
    assert r["deltas"] == [30, 0, -30, 0]
    r = ok("mcr", [{"win": 3, "from": 1, "hand": KNIT, "misnamed": True}], options={"absent": 2})
    assert r["deltas"] == [0, -30, 0, 30]


def test_false_win_pays_the_two_others():
    # 错和 (ready, seed 000 §一.4.5): 10 to each other player: two at a three-player table
    r = ok("mcr", [{"declare": 1, "hand": "123m456m789s11pEE9p"}], options=NO_N)
    assert r["deltas"] == [10, -20, 10, 0]


def test_seat_winds_skip_the_empty_chair():
    # dealer 1, chair 3 empty: chair 1 East, chair 2 South, chair 0 West (not North). A pung of
    # West is 门风刻 (2) only for the player at chair 0.
    hand = "[WWW1]111m999m789s11p"
    west = ok("mcr", [{"win": 0, "from": 1, "hand": hand}], dealer=1, options=NO_N)
    four = ok("mcr", [{"win": 0, "from": 1, "hand": hand}], dealer=1)   # chair 0 is North there
    assert west["deltas"][1] == four["deltas"][1] - 2 + 1   # 门风刻 2 in place of 幺九刻 1
    assert west["deltas"][3] == 0


def test_the_next_dealer_skips_the_empty_chair():
    r = ok("guangdong", [{"wall_end": True}], dealer=2, options=NO_N)
    assert r["next_dealer"] == 0


def test_guangdong_direct_kong_the_discarder_pays_for_two():
    # 放杠: the discarder pays all shares, two at a three-player table
    four = ok("guangdong", [{"kong": "direct", "seat": 0, "from": 1}])
    three = ok("guangdong", [{"kong": "direct", "seat": 0, "from": 1}], options=NO_N)
    assert pairs(three) == [(1, 0, pairs(four)[0][2] * 2 // 3)]


def test_a_bad_absent_option_is_refused():
    for bad in ("3", True, 4, -2, 0, None):     # 0 is the dealer
        r = __import__("settle_util").settle("mcr", [{"wall_end": True}], options={"absent": bad})
        assert r["ok"] is False and r["error"]["code"] == "bad_request", (bad, r)
