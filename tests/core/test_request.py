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
