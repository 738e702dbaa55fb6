# The survival numbers the box and the server share (rules_min/survival.py), worked by hand from
# seed 000 §三.2 (勇者争先赛) and §一.3-4. Runs under pytest and under MicroPython:
#   micropython -X heapsize=256K tests/mp_run.py tests/tournament/test_survival_rules.py
from rules_min import survival as S
from rules_min.settle import Hand

T0 = 1700000000  # the event's start, epoch seconds
KNIT = "[345m3]258m1488s369p7s"  # 组合龙 + 平和 = 14 fans
READY_WRONG_TILE = "123m456m789s11pEE9p"  # waits 1p or E, declares 9p: 错和


def raises(fn, *args):
    try:
        fn(*args)
    except ValueError:
        return True
    return False


def test_start_score_and_bust_at_zero():
    # §三.2.2 每位选手起始50分，打立出局（比赛分为0分）: 0 itself is out
    assert S.START_SCORE == 50
    assert S.is_out(0) and S.is_out(-3) and not S.is_out(1)
    assert S.busted([1, 0, -3, 50]) == [1, 2]
    assert S.busted([5, None, 7, 1]) == []


def test_multiplier_every_30_minutes():
    # §三.2.4: 30分钟后2倍, 60分钟后4倍, 90分钟后6倍, 120分钟后8倍，以此类推 (seconds since the start)
    got = [S.multiplier(s) for s in (0, 1799, 1800, 3599, 3600, 5399, 5400, 7200, 9000, 10800)]
    assert got == [1, 1, 2, 2, 4, 4, 6, 8, 10, 12]
    assert raises(S.multiplier, -1)


def test_multiplier_from_the_hands_own_dice_roll():
    # §三.2.4: 若牌局正在进行中（庄家掷骰起至选手报和且和牌成立间），则从下一盘起翻倍
    # hand 7 rolled at 29:50 and was keyed at 31:40: in progress at 30:00, so still x1
    assert S.hand_multiplier(T0, T0 + 29 * 60 + 50) == 1
    # the next hand rolled at 31:55: x2
    assert S.hand_multiplier(T0, T0 + 31 * 60 + 55) == 2
    # a hand keyed at 29:58 and the next one rolled at 30:05: that next hand is x2 (the old
    # server took the previous hand's commit time, 29:58, as its start and gave x1)
    assert S.hand_multiplier(T0, T0 + 30 * 60 + 5) == 2
    # DECISION: a roll exactly on the threshold takes the new multiplier
    assert S.hand_multiplier(T0, T0 + 3600) == 4
    assert S.next_step_s(T0, T0) == T0 + 1800
    assert S.next_step_s(T0, T0 + 1800) == T0 + 3600
    assert S.next_step_s(T0, T0 - 5) == T0


def test_penalties_are_not_multiplied():
    # §一.3.1 比赛分由底分、基本分、罚分组成; §三.2.4 doubles 单盘得失分 (the play's base and fans);
    # §一.4.5 错和: 罚付各家10分, 当盘比赛继续. Seat 1 declares a ready hand on the wrong tile (错和,
    # 10 to each), then seat 0 wins 14 fans on seat 2's discard, at x6 (90 minutes in).
    h = Hand("mcr", 0, "E")
    h.event(0, {"declare": 1, "hand": READY_WRONG_TILE})
    h.event(1, {"win": 0, "from": 2, "hand": KNIT})
    h.finish()
    deltas = h.deltas()
    assert deltas == [38 + 10, -8 - 30, -22 + 10, -8 + 10]
    play, pen = S.split(deltas, 14, 0, 2)
    # the win: 8 from each loser, the 14 fans from the discarder
    assert play == [38, -8, -22, -8] and pen == [10, -30, 10, 10]
    m = S.hand_multiplier(T0, T0 + 95 * 60)
    assert m == 6
    ch = S.change(play, pen, m)
    assert ch == [6 * 38 + 10, 6 * -8 - 30, 6 * -22 + 10, 6 * -8 + 10]
    # seat 1 brought 100: the 错和 costs 30, not 180 -> 22, still in
    after = S.apply([60, 100, 150, 90], ch)
    assert after == [298, 22, 28, 52] and S.busted(after) == []
    # a drawn hand: no win, everything is penalty
    assert S.split([-10, 0, 0, 0], 0, None) == ([0, 0, 0, 0], [-10, 0, 0, 0])


def test_self_drawn_win_multiplied():
    # 8 fans self-drawn: each of the three pays 8 + 8; at x2 (40 minutes) 32 each
    play, pen = S.split([48, -16, -16, -16], 8, 0, None)
    assert pen == [0, 0, 0, 0]
    assert S.change(play, pen, S.hand_multiplier(T0, T0 + 40 * 60)) == [96, -32, -32, -32]


def test_order_catch_up_wins_ties():
    # §三.2.5 追平胜: 前一盘落后，当盘追平者列前；若前一盘仍是平分，则继续向前同理追溯.
    # seats 0 and 1 end level on 40 and were level (58) before the last hand; one hand further
    # back seat 0 had 66 and seat 1 74: seat 0 was behind and caught up, so seat 0 ranks first
    hist = [[50, 50, 50, 50], [74, 42, 42, 42], [66, 74, 34, 26], [58, 58, 66, 18], [40, 40, 120, 0]]
    assert S.table_order(hist, 2, None) == [(2, 1, False), (0, 2, False), (1, 3, False), (3, 4, True)]


def test_order_level_all_along_shares_the_place():
    hist = [[50, 50, 50, 20], [40, 40, 90, -20]]
    assert S.table_order(hist, 2, 3) == [(2, 1, False), (0, 2, False), (1, 2, False), (3, 4, True)]


def test_order_several_out_on_a_self_draw():
    # §三.2.5 若当盘被自摸...则前一盘比赛分高者列前: seat 2 had 25 before the hand, seat 1 had 20
    hist = [[60, 20, 25, 100], [28, -12, -7, 196]]
    assert S.table_order(hist, 3, None) == [(3, 1, False), (0, 2, False), (2, 3, True), (1, 4, True)]


def test_order_several_out_survivor_dealt_in():
    # 幸存者点炮 (seat 0 dealt in and survives): the higher previous score first: seat 1 (20) > seat 2 (10)
    hist = [[100, 20, 10, 100], [36, -12, -22, 228]]
    assert S.table_order(hist, 3, 0) == [(3, 1, False), (0, 2, False), (1, 3, True), (2, 4, True)]


def test_order_busted_discarder_ranks_below():
    # 若当盘为出局者点炮，则未点炮者列前: seat 1 had more before the hand (20 > 10) but dealt in
    hist = [[60, 20, 10, 100], [28, -44, -22, 228]]
    assert S.table_order(hist, 3, 1) == [(3, 1, False), (0, 2, False), (2, 3, True), (1, 4, True)]


def test_order_out_on_penalties_alone():
    # DECISION: out without a win (penalties only) -> the higher previous score first
    hist = [[50, 50, 50, 50], [50, 8, 12, 50], [50, -2, -8, 50]]
    assert S.table_order(hist, None, None) == [(0, 1, False), (3, 1, False), (2, 3, True), (1, 4, True)]
