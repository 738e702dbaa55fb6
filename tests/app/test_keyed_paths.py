"""The box side of issue 13 through the App: the penalty menu and the win flags are the rules
core's (rules_min/keyed.py), each new penalty, bar and flag has a key path whose event settles as
the rules say, and the hand's record passes the validator the server runs."""
import pytest

from protocol import record
from rules_min import keyed
from firmware.flows import penalty
from tests.app.helpers import GD, MCR, SC, SC_WIN, WIN, Table

RULES = {"mcr": MCR, "sichuan": SC, "guangdong": GD}
KONG_WIN = "2s 3s 4s 5s 5s 5s 6s 6s 6s 7s 7s"        # after a concealed kong of 1s: 清一色


def cells(t):
    # the screen's rows as single cells (pairs split), both halves of every page
    out = []
    for _ in range(4):
        title, rows, hint = t.app.screen()
        for r in rows:
            out += [c for c in r.split("\x1e") if c]
        if "\t" not in title or title.endswith("\t1/1"):
            break
        t.keys("#")
        if t.app.screen()[0].split("\t")[-1].startswith("1/"):
            break
    return out


def finish_mcr(t, winner="1"):
    # a self-drawn win by chair `winner` ends the hand, so its record is written
    t.keys("A%s0" % winner).tap(WIN).keys("1234")
    rec = t.records()[-1]
    assert rec["kind"] == "hand" and record.validate(rec) is None, record.validate(rec)
    return rec


# ---- the lists come from the rules core ----
@pytest.mark.parametrize("rules", sorted(RULES))
@pytest.mark.parametrize("lang", ["cn", "en"])
def test_the_penalty_menu_is_the_rule_sets_with_a_word_for_each(tmp_path, rules, lang):
    t = Table(tmp_path, dict(RULES[rules], lang=lang))
    t.keys("C1")
    kinds = keyed.kinds(rules)
    got = cells(t)
    assert len(got) == len(kinds) + 1
    for i, kind in enumerate(kinds):
        assert got[i] == "%d %s" % (i + 1, penalty.kind_name(t.app, kind))
    assert got[-1] == "%d %s" % (len(kinds) + 1, penalty.kind_name(t.app, penalty.BAR))
    t.keys("*" * 3 + "C1%d" % (len(kinds) + 1))
    assert t.app.state == "pen_reason"
    reasons = keyed.bar_reasons(rules)
    assert cells(t) == ["%d %s" % (i + 1, penalty.reason_name(t.app, r)) for i, r in enumerate(reasons)]


def test_every_kind_and_reason_of_the_core_has_a_box_word():
    for rules in RULES:
        for kind in keyed.kinds(rules):
            assert penalty._word(penalty._WORDS, kind) >= 0, (rules, kind)
        for reason in keyed.bar_reasons(rules):
            assert penalty._word(penalty._REASONS, reason) >= 0, (rules, reason)


def test_the_guangdong_menu_has_the_conduct_faults_not_mcrs(tmp_path):
    t = Table(tmp_path, GD)
    t.keys("C1")
    got = " ".join(cells(t))
    assert "报牌不规范" in got and "抢摸" in got and "空吃碰杠" not in got and "碰慢" not in got
    assert "传递信息" in got and "毁牌墙" in got


@pytest.mark.parametrize("rules", sorted(RULES))
def test_the_flags_screen_lists_the_flags_the_rule_set_takes(tmp_path, rules):
    t = Table(tmp_path, RULES[rules])
    t.keys("A13").tap(WIN if rules == "mcr" else SC_WIN)
    assert t.app.state == "confirm"
    t.keys("D")
    from firmware.flows import win_fix
    fields = [row[0] for row in win_fix.flag_rows(t.app)]
    want = [f for f in keyed.flags(rules) if f not in ("replacement_flower", "kong_discard")]
    assert sorted(f for f in fields if f != "flowers") == sorted(want)
    assert ("flowers" in fields) == (rules == "mcr")


# ---- penalties ----
def test_exposed_tiles_paid_to_the_victim_within_the_bounds(tmp_path):
    t = Table(tmp_path, MCR)
    t.keys("C35")                                        # chair 3 showed ...
    assert t.app.state == "pen_victim"
    t.keys("3")                                          # ... not their own tiles
    assert t.app.state == "pen_victim"
    t.keys("4")                                          # chair 4's
    t.keys("4")                                          # 4 is under the least (5): no preview yet
    t.keys("#")
    assert t.app.state == "pen_value" and t.app.events == []
    t.keys("*61")                                        # 61 is over 60: the 1 is not taken
    assert t.app.num == "6"
    t.keys("*30#")
    assert t.app.events == [{"penalty": "exposed_tiles", "seat": 2, "victim": 3, "points": 30}]
    assert t.app.running() == [0, 0, -30, 30]
    finish_mcr(t)


def test_guangdong_exposed_tiles_are_1_to_16(tmp_path):
    t = Table(tmp_path, GD)
    t.keys("C14" "2" "17")                               # 17: the 7 is not taken
    assert t.app.num == "1"
    t.keys("6#")
    assert t.app.events[-1] == {"penalty": "exposed_tiles", "seat": 0, "victim": 1, "points": 16}
    assert t.app.running() == [-16, 16, 0, 0]


def test_information_points_or_a_bar(tmp_path):
    t = Table(tmp_path, MCR)
    t.keys("C16" "0" "10#")                              # points only
    assert t.app.events[-1] == {"penalty": "information", "seat": 0, "points": 10}
    assert t.app.running() == [-10, 0, 0, 0] and not t.app.hand.barred[0]
    t.keys("C26" "1" "#")                                # barred, no points
    assert t.app.events[-1] == {"penalty": "information", "seat": 1, "bar": True}
    assert t.app.hand.barred[1]
    t.keys("C36" "1" "5#")                               # both
    assert t.app.events[-1] == {"penalty": "information", "seat": 2, "bar": True, "points": 5}
    t.keys("A20").tap(WIN)                               # a barred player cannot win
    assert t.app.state == "refused" and "此人本盘不能再和" in t.screen_text()
    t.keys("**" + "*" * 14)
    rec = finish_mcr(t, "4")
    assert [f["reason"] for f in rec["flags"] if f["kind"] == "barred"] == ["information", "information"]


@pytest.mark.parametrize("rules,reason,points", [("mcr", "wrong_call", 0), ("guangdong", "wrong_draw", 0),
                                                ("sichuan", "delaying", 50)])
def test_a_bar_with_its_reason(tmp_path, rules, reason, points):
    t = Table(tmp_path, RULES[rules])
    n = len(keyed.kinds(rules)) + 1
    r = keyed.bar_reasons(rules).index(reason) + 1
    t.keys("C2%d%d" % (n, r))
    assert t.app.state == "pen_ok" and penalty.reason_name(t.app, reason) in t.screen_text()
    t.keys("#")
    assert t.app.events == [{"bar": 1, "reason": reason}]
    assert t.app.hand.barred == [False, True, False, False]
    assert t.app.running()[1] == -points
    t.keys("A2")
    t.keys("0").tap(WIN if rules == "mcr" else SC_WIN)
    assert t.app.state == "refused"


def test_the_guangdong_conduct_faults_share_one_ladder(tmp_path):
    # seed 004 §三.3(1): drawing early and non-standard calls together: warning, 2, 4, 8, 8
    t = Table(tmp_path, GD)
    steps = []
    for k in "12121":
        t.keys("C1%s#" % k)
        steps.append(t.app.running()[0])
    assert steps == [0, -2, -6, -14, -22]
    assert t.app.hand.flags[0]["kind"] == "warning"
    t.keys("C21#")                                       # another player's ladder starts again
    assert t.app.running()[1] == 0


# ---- win flags ----
def test_a_misnamed_discard_makes_the_discarder_pay_all_three(tmp_path):
    t = Table(tmp_path, MCR)
    t.keys("A13").tap(WIN)
    plain = t.app.d["pay"]
    t.keys("D")
    from firmware.flows import win_fix
    rows = [row[0] for row in win_fix.flag_rows(t.app)]
    t.keys("%dD" % (rows.index("misnamed") + 1))
    pay = t.app.d["pay"]
    assert t.app.d["event"]["misnamed"] is True and "报错牌名" in t.screen_text()
    assert pay[2] == plain[2] + plain[1] + plain[3] and pay[1] == pay[3] == 0 and pay[0] == plain[0]
    t.keys("1234")
    rec = t.records()[-1]
    assert rec["events"][0]["misnamed"] is True and record.validate(rec) is None


def test_the_winning_tile_mixed_in_voids_its_wait(tmp_path):
    t = Table(tmp_path, MCR)
    t.keys("A13").tap(WIN)
    plain = t.app.d["result"]
    t.keys("D5D")
    mixed = t.app.d["result"]
    assert t.app.d["event"]["win_tile_mixed"] is True
    gone = set(f for f, n in plain[2]) - set(f for f, n in mixed[2])
    # 边张, 嵌张 or 单钓 (seed 000 §一.2.8): the hand's wait fan goes, nothing else
    from firmware.ui import fan_names as names
    assert len(gone) == 1 and names.fan("mcr", gone.pop(), "cn")[0] in ("边张", "嵌张", "单钓将")
    assert mixed[3] == plain[3] - 1
    t.keys("1234")
    assert record.validate(t.records()[-1]) is None


@pytest.mark.parametrize("answer,has_kong_fan", [("0", True), ("1", False)])
def test_kong_replacement_claimed_asks_about_a_flower(tmp_path, answer, has_kong_fan):
    t = Table(tmp_path, MCR)
    t.keys("B10#")                                       # chair 1's concealed kong
    t.keys("A10").tap("1s 1s 1s 1s").keys("#0").tap(KONG_WIN)
    assert t.app.state == "confirm"
    t.keys("D3")                                         # 杠上开花 claimed
    assert t.app.state == "kong_flower"
    t.keys(answer + "D")
    ev = t.app.d["event"]
    assert ev["kong"] is True and ev.get("replacement_flower", False) == (answer == "1")
    from firmware.ui import fan_names as names
    fans = [names.fan("mcr", f, "cn")[0] for f, n in t.app.d["result"][2]]
    assert ("杠上开花" in fans) == has_kong_fan
    t.keys("1234")
    rec = t.records()[-1]
    assert record.validate(rec) is None and rec["events"][1].get("replacement_flower", False) == (answer == "1")


def test_the_flower_question_goes_with_the_kong_flag(tmp_path):
    t = Table(tmp_path, MCR)
    t.keys("B10#A10").tap("1s 1s 1s 1s").keys("#0").tap(KONG_WIN)
    t.keys("D3")
    assert t.app.state == "kong_flower"
    t.keys("1")                                          # kong on, its replacement a flower
    assert t.app.state == "flags" and t.app.d["flags"]["replacement_flower"] is True
    t.keys("3")                                          # kong off again: the flower goes too
    t.keys("D")
    assert "replacement_flower" not in t.app.d["event"] and "kong" not in t.app.d["event"]


def test_no_flower_question_on_a_discard_or_in_other_rule_sets(tmp_path):
    t = Table(tmp_path, MCR)
    t.keys("A13").tap(WIN).keys("D3")                    # 抢杠和: no replacement tile
    assert t.app.state == "flags"
    t2 = Table(tmp_path, SC, name="s")
    t2.keys("A10").tap(SC_WIN).keys("D")
    from firmware.flows import win_fix
    rows = [row[0] for row in win_fix.flag_rows(t2.app)]
    t2.keys("%d" % (rows.index("kong") + 1))
    assert t2.app.state == "flags"


# ---- Sichuan 杠上炮 ----
def test_kong_discard_moves_the_kong_income_and_is_recorded(tmp_path):
    t = Table(tmp_path, SC)
    t.keys("B30#")                                       # chair 3 konged: 20 from each
    t.keys("A13")
    assert t.app.state == "kong_discard"
    t.keys("1").tap(SC_WIN).keys("1234")
    ev = t.app.events[-1]
    assert ev["kong_discard"] is True
    run = t.app.running()
    t2 = Table(tmp_path, SC, name="no")
    t2.keys("B30#A13" "0").tap(SC_WIN).keys("1234")
    assert "kong_discard" not in t2.app.events[-1]
    # 呼叫转移: the 60 the kong took moves from chair 3 to the winner
    assert run[0] - t2.app.running()[0] == 60 and t2.app.running()[2] - run[2] == 60
