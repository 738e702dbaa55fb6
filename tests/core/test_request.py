# The score protocol: one reply per line, in the documented shape, for good and bad input.
import json

from rules_min.request import handle_line
from rules_min.mcr_pay import payments


def _r(obj):
    line = obj if isinstance(obj, str) else json.dumps(obj)
    return json.loads(handle_line(line, "mcr"))


def test_issue_example_reply():
    rep = _r({"id": 7, "hand": "[345m3]258m1488s369p7s", "self_drawn": False, "last_of_kind": False,
              "last_tile": False, "kong": False, "seat_wind": "E", "prevalent_wind": "E", "flowers": 0,
              "winner": 0, "discarder": 2})
    assert rep["id"] == 7 and rep["ok"] is True
    assert rep["fans"] == [
        {"name": "组合龙", "en": "Knitted Straight", "points": 12, "count": 1},
        {"name": "平和", "en": "All Chows", "points": 2, "count": 1},
    ]
    assert rep["total"] == 14 and rep["meets_minimum"] is True
    assert rep["payments"] == [38, -8, -22, -8]


def test_flowers_add_to_total_but_not_to_minimum():
    # 7 fans of hand + 3 flowers: total 10 yet below the minimum of 8 hand fans
    rep = _r({"id": 1, "hand": "123m456m234s678p5p5p", "flowers": 3})
    assert rep["ok"] and rep["total"] == rep["fans"][-1]["count"] + sum(
        f["points"] * f["count"] for f in rep["fans"][:-1])
    assert rep["fans"][-1]["name"] == "花牌" and rep["fans"][-1]["count"] == 3
    assert rep["meets_minimum"] is False


def test_self_drawn_payments():
    rep = _r({"id": 2, "hand": "[EEE1][SSSS1]55pWWWNNN", "self_drawn": True, "winner": 3})
    total = rep["total"]
    assert rep["payments"] == [-(8 + total), -(8 + total), -(8 + total), 3 * (8 + total)]


def test_payments_sum_to_zero_for_every_seat_pair():
    for w in range(4):
        for d in (None, 0, 1, 2, 3):
            if d == w:
                continue
            p = payments(20, w, d)
            assert sum(p) == 0 and p[w] > 0
            if d is not None:
                assert p[d] == -28 and p[w] == 28 + 16


def test_not_a_win_reports_shanten():
    rep = _r({"id": "a", "hand": "123456789m123s1p2p"})
    assert rep["ok"] is False and rep["error"]["code"] == "not_win" and rep["shanten"] == 0
    rep = _r({"id": "b", "hand": "147m258s369pEESWC"})  # knitted, but no set and pair
    assert rep["error"]["code"] == "not_win" and rep["shanten"] >= 0


def test_every_bad_line_gets_one_error_reply():
    cases = [
        ("", "bad_json"), ("not json", "bad_json"), ("[1, 2]", "bad_request"), ("null", "bad_request"),
        ('{"id": 1}', "bad_request"), ('{"id": 1, "hand": 5}', "bad_request"),
        ('{"id": 1, "hand": "123m456s789p11pEEE", "seat_wind": "X"}', "bad_request"),
        ('{"id": 1, "hand": "123m456s789p11pEEE", "flowers": 9}', "bad_request"),
        ('{"id": 1, "hand": "123m456s789p11pEEE", "self_drawn": "yes"}', "bad_request"),
        ('{"id": 1, "hand": "123m456s789p11pEEE", "winner": 0}', "bad_request"),
        ('{"id": 1, "hand": "123m456s789p11pEEE", "winner": 0, "discarder": 0}', "bad_request"),
        ('{"id": 1, "hand": "123m456s789p11pEEE", "winner": 5, "discarder": 0}', "bad_request"),
        ('{"id": 1, "hand": "123m456s789p11pEEE", "self_drawn": true, "winner": 1, "discarder": 0}',
         "bad_request"),
        ('{"id": 1, "hand": "11111m2m456s789pEE"}', "fifth_tile"),
        ('{"id": 1, "hand": "' + "1" * 3000 + '"}', "bad_request"),
    ]
    for line, code in cases:
        rep = json.loads(handle_line(line, "mcr"))
        assert rep["ok"] is False and rep["error"]["code"] == code, (line[:60], rep)
        assert rep["error"]["message"]


def test_impossible_flags_are_refused():
    # robbing a kong of 9p while holding another 9p
    rep = _r({"id": 1, "hand": "123m456s78p99pEEE9p", "kong": True})
    assert rep["error"]["code"] == "bad_flags"
    # out on a replacement tile without a kong
    rep = _r({"id": 1, "hand": "123m456s78p99pEEE9p", "kong": True, "self_drawn": True})
    assert rep["error"]["code"] == "bad_flags"


def test_id_is_echoed_whatever_its_type():
    for rid in (0, "x\"y", None, [1, 2], {"a": 1}, True):
        rep = json.loads(handle_line(json.dumps({"id": rid, "hand": "bad"}), "mcr"))
        assert rep["id"] == rid


def test_unknown_rule_set_is_refused():
    rep = json.loads(handle_line('{"id": 1, "hand": "123m456s789p11pEEE"}', "riichi"))
    assert rep["error"]["code"] == "unsupported_rules"


# ---- win flags of issue 13 (docs/rules.md "Win flags"), each with its seed clause ----

def _fans(rep):
    assert rep["ok"], rep
    return dict((f["name"], f["points"] * f["count"]) for f in rep["fans"])


def test_last_tile_claim_with_robbing_the_kong_is_refused():
    # docs/rules.md (decided; seed 000 §一.2.6: a kong draws its replacement from the wall): a
    # robbed kong tile is never the last tile, so 海底捞月 + 抢杠和 on one tile is impossible
    base = {"id": 1, "hand": "[345m3]258m1488s369p7s"}
    assert _r(dict(base, kong=True))["ok"]
    assert _r(dict(base, last_tile=True))["ok"]
    rep = _r(dict(base, kong=True, last_tile=True))
    assert rep["error"]["code"] == "bad_flags" and "海底捞月" in rep["error"]["message"]
    # 妙手回春 with 杠上开花 is a real case (seed 000 §二.6: 杠上开花可加计妙手回春)
    rep = _r({"id": 2, "hand": "[7777s]123s123s123s99s", "self_drawn": True, "kong": True, "last_tile": True})
    assert "妙手回春" in _fans(rep) and "杠上开花" in _fans(rep)


def test_winning_tile_mixed_into_the_hand_voids_the_wait_and_last_tile_fans():
    # seed 000 §一.2.8: 若插入手牌，则不计边张、坎张、单调、和绝张、九莲宝灯
    for hand, fan in (("[789s1][EEE1]12m456p99p3m", "边张"), ("[789s1][EEE1]13m456p99p2m", "嵌张"),
                      ("[789s1][EEE1]123m456p9p9p", "单钓将")):
        plain = _r({"id": 1, "hand": hand})
        mixed = _r({"id": 1, "hand": hand, "win_tile_mixed": True})
        assert _fans(plain)[fan] == 1 and fan not in _fans(mixed), hand
        assert mixed["total"] == plain["total"] - 1   # 花龙 8 + 圈风刻 2 + 门风刻 2 stay
    plain = _r({"id": 1, "hand": "[345m3]258m1488s369p7s", "last_of_kind": True})
    mixed = _r({"id": 1, "hand": "[345m3]258m1488s369p7s", "last_of_kind": True, "win_tile_mixed": True})
    assert _fans(plain)["和绝张"] == 4 and "和绝张" not in _fans(mixed) and mixed["total"] == 14


def test_winning_tile_mixed_into_nine_gates_scores_the_hand_without_it():
    # seed 000 §一.2.8 voids 九莲宝灯; what is left is scored as any hand, with what 九莲宝灯
    # excluded (seed 000 §二.1, 2016: 清一色, 门前清 / 不求人, 无字, one 幺九刻) back in.
    # 1112345678999m + 5m on a discard: 111 234 55 678 999 = 清一色 24, 门前清 2, 双暗刻 2,
    # 幺九刻 x2 2 = 30 (无字 stays excluded by 清一色)
    plain = _r({"id": 1, "hand": "1112345678999m5m"})
    assert _fans(plain) == {"九莲宝灯": 88, "双暗刻": 2, "幺九刻": 1}
    mixed = _r({"id": 1, "hand": "1112345678999m5m", "win_tile_mixed": True})
    assert _fans(mixed) == {"清一色": 24, "门前清": 2, "双暗刻": 2, "幺九刻": 2} and mixed["total"] == 30
    # self-drawn 9m: 11 123 456 789 999 = 清一色 24, 清龙 16, 不求人 4, 四归一 2, 幺九刻 1 = 47
    mixed = _r({"id": 1, "hand": "1112345678999m9m", "self_drawn": True, "win_tile_mixed": True})
    assert _fans(mixed) == {"清一色": 24, "清龙": 16, "不求人": 4, "四归一": 2, "幺九刻": 1}


def test_out_on_a_kong_replacement_that_was_a_flower_is_no_out_on_replacement():
    # seed 000 §二.14: 开杠补花后和牌，不计杠上开花. 杠上开花 (8) goes, 自摸 (1), which it
    # excluded, comes back: 124 - 8 + 1
    hand = {"id": 1, "hand": "[7777s]123s123s123s99s", "self_drawn": True, "kong": True}
    plain = _r(hand)
    flower = _r(dict(hand, replacement_flower=True))
    assert "杠上开花" in _fans(plain) and "自摸" not in _fans(plain)
    assert "杠上开花" not in _fans(flower) and _fans(flower)["自摸"] == 1
    assert flower["total"] == plain["total"] - 8 + 1
    # only with a win on a kong's replacement
    for bad in ({"kong": False}, {"self_drawn": False, "kong": True}):
        req = dict(hand, replacement_flower=True)
        req.update(bad)
        assert _r(req)["error"]["code"] == "bad_flags", bad


def test_misnamed_discard_makes_the_caller_pay_for_all_three():
    # seed 001 §四.8: 报牌错误，导致其他家误和牌，由报错牌者付三家应付的分. The three would pay
    # 8 + 14, 8, 8 = 38: the caller (the discarder, seat 2) pays all of it
    req = {"id": 1, "hand": "[345m3]258m1488s369p7s", "winner": 0, "discarder": 2}
    assert _r(req)["payments"] == [38, -8, -22, -8]
    assert _r(dict(req, misnamed=True))["payments"] == [38, 0, -38, 0]
    assert _r(dict(req, misnamed=True, self_drawn=True, discarder=None))["error"]["code"] == "bad_flags"


def test_sichuan_refuses_the_impossible_pair_too():
    r = json.loads(handle_line(json.dumps({"id": 1, "hand": "123m456m789m11s234s", "kong": True, "last_tile": True}),
                               "sichuan"))
    assert r["error"]["code"] == "bad_flags"
