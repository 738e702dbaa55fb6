# The rules core's entry: one Win in, the fans in a table the caller owns out (mcr.score,
# sichuan.score, guangdong.score), and settle's rule-set modules behind one set of parts.
# Plain test functions with bare asserts: runs under pytest and under MicroPython (tests/mp_run.py).
from rules_min import mcr, sichuan, guangdong
from rules_min import mcr_table as T
from rules_min.notation import parse
from rules_min.settle import rule_set, ONE, DISCARD, HAND
from rules_min.win import Win
from settle_util import ok

KNIT = "[345m3]258m1488s369p7s"          # 组合龙 + 平和 = 14 fans on a discard
WINDS = "[EEE1][SSSS1]55pWWWNNN"          # 大四喜 ... 98 fans self-drawn (tests/core/test_settle_mcr.py)
NOT_A_WIN = "123m456m789s11pEE9p"


def _win(text, **flags):
    melds, counts, tile, _ = parse(text)
    return Win(melds, counts, tile, **flags)


def _points(ft):
    n = 0
    for f in range(T.NUM_FANS):
        n += T.POINTS[f] * ft[f]
    return n


def test_the_fans_go_to_the_callers_table_and_stay_there():
    a = bytearray(T.NUM_FANS)
    b = bytearray(T.NUM_FANS)
    assert mcr.score(_win(KNIT), a) == 14
    kept = bytes(a)
    assert mcr.score(_win(WINDS, self_drawn=True), b) == 98
    assert bytes(a) == kept and _points(a) == 14 and a[T.KNITTED_STRAIGHT] == 1
    assert _points(b) == 98 and b[T.BIG_FOUR_WINDS] == 1 and b[T.KNITTED_STRAIGHT] == 0


def test_no_win_leaves_the_table_empty():
    ft = bytearray(T.NUM_FANS)
    assert mcr.score(_win(WINDS, self_drawn=True), ft) == 98
    assert mcr.score(_win(NOT_A_WIN), ft) == -1
    assert bytes(ft) == bytes(T.NUM_FANS)
    f = bytearray(sichuan.NUM_FANS)
    assert sichuan.score(_win("11223344556677m", self_drawn=True), f) == 3
    assert sichuan.score(_win("123m456m789s11p234p"), f) == -1     # three suits
    assert bytes(f) == bytes(sichuan.NUM_FANS)


def test_the_scorers_give_the_counts_back():
    # the scorers take tiles out of the caller's counts while they work (九莲宝灯, knitted
    # straights, seven pairs) and must put them back
    for text in ("1112345678999m5m", "147m258s369p234m55s", KNIT, "11223344556677m", NOT_A_WIN):
        p = _win(text)
        before = bytes(p.counts)
        mcr.score(p, bytearray(T.NUM_FANS))
        sichuan.score(p, bytearray(sichuan.NUM_FANS), True)
        guangdong.score(p)
        assert bytes(p.counts) == before, text


def test_a_kong_replacement_that_was_a_flower_is_no_kong_win():
    # seed 000 §二.14, now the scorer's rule (the score and settle protocols used to apply it)
    ft = bytearray(T.NUM_FANS)
    assert mcr.score(_win(WINDS, self_drawn=True), ft) == 98
    plain = bytes(ft)
    assert mcr.score(_win(WINDS, self_drawn=True, kong=True), ft) == 105    # 杠上开花 8 in place of 自摸 1
    assert ft[T.OUT_WITH_REPLACEMENT] == 1
    assert mcr.score(_win(WINDS, self_drawn=True, kong=True, flower=True), ft) == 98
    assert bytes(ft) == plain
    assert mcr.check_flags(_win(KNIT, self_drawn=True, kong=True)) == "out on a replacement tile needs a kong in the hand"


def test_a_win_refilled_by_reset_scores_as_a_new_one():
    # the score protocol and settle keep one Win and reset it for each hand: no flag of the
    # hand before may stay
    ft = bytearray(T.NUM_FANS)
    p = _win(WINDS, self_drawn=True, last_of_kind=True, last_tile=True, kong=True, flower=True, mixed=True,
             seat_wind=28, prevalent_wind=29, flowers=3)
    assert mcr.score(p, ft) != 98
    melds, counts, tile, _ = parse(KNIT)
    assert p.reset(melds, counts, tile) is p and mcr.score(p, ft) == 14 and p.flowers == 0
    melds, counts, tile, _ = parse(WINDS)
    p.reset(melds, counts, tile).self_drawn = True
    assert mcr.score(p, ft) == 98


def test_one_win_object_for_each_rule_set():
    p = _win("11223344556677m", self_drawn=True)
    f = bytearray(sichuan.NUM_FANS)
    assert sichuan.score(p, f) == 3     # 清七对 3 + 自摸 1, capped at 3
    assert f[sichuan.QING_QI_DUI] == 1 and f[sichuan.ZI_MO] == 1 and f[sichuan.QI_DUI] == 0
    assert guangdong.HAND_TABLE[guangdong.score(p)][0] == "清一色"
    assert mcr.score(p, bytearray(T.NUM_FANS)) > 8


def test_every_rule_set_has_the_parts_settle_calls():
    for rules, wins in (("mcr", ONE), ("sichuan", HAND), ("guangdong", DISCARD)):
        m = rule_set(rules)
        assert m.WINS == wins and m.BARRED_MAY_KONG in (True, False), rules
        for part in ("kong", "win", "won", "declare", "wall_end", "time_out"):
            assert callable(getattr(m, part)), (rules, part)
    try:
        rule_set("riichi")
        assert False, "an unknown rule set"
    except ValueError as e:
        assert e.args[0] == "unsupported_rules"


def test_horses_count_by_the_seat_wind_round_three_players():
    # dealer 1, chair 3 empty: chair 0 is West (3, 7, W hit), not North as at four players
    ev = [{"win": 0, "hand": "123m456m789m11s234s", "horses": ["3m", "W"]}]
    three = ok("guangdong", ev, dealer=1, options={"absent": 3})
    four = ok("guangdong", ev, dealer=1)
    assert "2 horse hits" in three["transfers"][0]["reason"]
    assert "horse" not in four["transfers"][0]["reason"]
