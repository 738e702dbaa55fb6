"""The survival table on the box (勇者争先赛, seed 000 §三.2; docs/survival.md), through the App
with a scripted clock (tests/app/helpers.py), each case worked by hand from the seed:

* 每位选手起始50分 / what the server says each carries in: the config's scores.
* 每30分钟，单盘得失分翻倍 (x2 after 30 min, x4 after 60, ...), 若牌局正在进行中（庄家掷骰起至
  选手报和且和牌成立间），则从下一盘起翻倍: the multiplier is fixed at the hand's dice-roll key.
* Penalties are not multiplied (§一.3.1: 罚分 a part of the match score of its own).
* 打立出局（比赛分为0分）: the table ends at the first bust; no further hand.
* 若当盘被自摸或幸存者点炮，则前一盘比赛分高者列前；若当盘为出局者点炮，则未点炮者列前.
"""
from pathlib import Path

from firmware import states
from tests.app.helpers import Table

EPOCH = 1764400000
REPO = Path(__file__).resolve().parents[2]
KNIT = ("3m 4m 5m", "2m 5m 8m 1s 4s 8s 8s 3p 6p 9p 7s")   # [345m] claimed + 组合龙: 14 fans
SURV = {"rules": "mcr", "tournament": "T", "session": 4, "table": 3, "players": ["11", "12", "13", "14"],
        "first_dealer": 0, "mode": "survival", "scores": [50, 50, 50, 50], "event_start": EPOCH}


def knit(t, winner, src):
    t.keys("A%d%d" % (winner, src)).tap(KNIT[0]).keys("#").tap(KNIT[1]).keys("1234")


def hands(t):
    return [r for r in t.records() if r["kind"] == "hand"]


def test_the_dice_roll_fixes_the_hand_start_and_its_multiplier(tmp_path):
    t = Table(tmp_path, dict(SURV, event_start=EPOCH - 1790))   # the event started 29:50 ago
    assert t.app.state == "roll"
    assert t.app.screen()[0] == "第1盘 现1倍"                   # x1 now
    t.ms = 5000
    t.keys("#")                                                 # rolled at 29:55: x1
    assert t.app.state == "main"
    t.ms = 600000                                               # the win is keyed at 39:50
    knit(t, 1, 3)
    h = hands(t)[0]
    assert (h["hand_start"], h["multiplier"]) == (EPOCH + 5, 1)
    assert h["deltas"] == [38, -8, -22, -8]                     # unmultiplied, as settled
    assert h["scores"] == [88, 42, 28, 42]
    assert t.app.state == "roll"                                # the next hand waits for its roll
    t.ms = 610000
    t.keys("#")                                                 # rolled at 40:00: x2
    knit(t, 1, 3)
    h = hands(t)[1]
    assert (h["hand_start"], h["multiplier"]) == (EPOCH + 610, 2)
    assert h["scores"] == [88 + 76, 42 - 16, 28 - 44, 42 - 16]


def test_multipliers_60_90_120_minutes():
    from firmware.survival import Survival
    sv = Survival(dict(SURV))
    got = []
    for minutes in (0, 29, 30, 59, 60, 90, 119, 120, 150):
        sv.roll(EPOCH + 60 * minutes)
        got.append(sv.mult)
    assert got == [1, 1, 2, 2, 4, 6, 6, 8, 10]


def test_penalties_are_not_multiplied_and_a_bust_ends_the_table(tmp_path):
    t = Table(tmp_path, dict(SURV, scores=[50, 50, 50, 35], event_start=EPOCH - 3600))   # x4
    t.keys("#")
    # 14's 错和 (ready): 10 to each = 30, not 120 -> 5; the hand goes on (当盘比赛继续) to a wall end
    t.keys("D14").tap("1m 2m 3m 4m 5m 6m 7s 8s 9s 1p 1p E E 9p").keys("1234")
    t.keys("D2#")
    h = hands(t)[0]
    assert h["multiplier"] == 4 and h["deltas"] == [10, 10, 10, -30] and h["scores"] == [60, 60, 60, 5]
    assert t.app.state == "roll"
    t.keys("#")
    knit(t, 1, 4)                      # 11 wins on 14's discard: 4 x (8 + 14) = 88 from 14
    h = hands(t)[1]
    assert h["scores"] == [60 + 4 * 38, 60 - 32, 60 - 32, 5 - 88]
    end = t.records()[-1]
    assert end["kind"] == "session_end" and end["reason"] == "bust"
    assert end["match_scores"] == {"11": 48, "12": 2, "13": 2, "14": -52}   # the hands' deltas summed
    assert t.app.state == "sv_end"
    n = len(t.records())
    t.keys("A1").keys("#").keys("B")   # no further hand
    assert t.app.state == "sv_end" and len(t.records()) == n
    assert t.app.push_config(dict(SURV, session=5)) is None   # the box takes the next table


def test_several_out_on_a_discard_the_one_who_did_not_deal_in_first(tmp_path):
    # 13 wins on 11's discard: 11 pays 22, 12 and 14 pay 8. 11 (10 before) and 12 (5 before)
    # are both out: 若当盘为出局者点炮，则未点炮者列前 -> 12 third, 11 fourth
    t = Table(tmp_path, dict(SURV, scores=[10, 5, 60, 60]))
    t.keys("#")
    knit(t, 3, 1)
    assert hands(t)[0]["scores"] == [-12, -3, 98, 52]
    assert t.app.state == "sv_end"
    order = [(t.app.session.players[p], place, out) for p, place, out in t.app.session.survival.order()]
    assert order == [("13", 1, False), ("14", 2, False), ("12", 3, True), ("11", 4, True)]
    title, lines, hint = t.app.screen()
    assert title.startswith("本桌结束") and lines[2] == "1  13\t98"   # after the saved message


def test_several_out_on_a_survivor_s_discard_the_higher_score_before_first(tmp_path):
    # 11 wins on 14's discard: 12 and 13 pay 8 each and both go out: 13 had 8 before, 12 had 6:
    # 前一盘比赛分高者列前 -> 13 third, 12 fourth
    t = Table(tmp_path, dict(SURV, scores=[50, 6, 8, 60]))
    t.keys("#")
    knit(t, 1, 4)
    assert hands(t)[0]["scores"] == [88, -2, 0, 38]
    order = [(t.app.session.players[p], place, out) for p, place, out in t.app.session.survival.order()]
    assert order == [("11", 1, False), ("14", 2, False), ("13", 3, True), ("12", 4, True)]


def test_a_reboot_keeps_the_scores_and_the_end(tmp_path):
    t = Table(tmp_path, dict(SURV, scores=[50, 50, 50, 30], event_start=EPOCH - 1800))   # x2
    t.keys("#")
    knit(t, 1, 3)
    assert hands(t)[0]["scores"] == [126, 34, 6, 14]
    t.boot()
    assert t.app.state == "roll" and t.app.session.survival.scores == [126, 34, 6, 14]
    t.keys("#")
    knit(t, 1, 4)                      # 14 pays 2 x 22 = 44: out
    t.boot()
    assert t.app.state == "sv_end"
    assert [r["kind"] for r in t.records()].count("session_end") == 1


def test_survival_states_are_listed():
    assert states.flow_of("roll") == "survival" and states.flow_of("sv_end") == "survival"


def test_the_scenario_through_the_device_loop(tmp_path):
    # simulator/scenarios/survival_bust.txt, worked by hand in its comments (tests/test_simulator.py
    # plays it on MicroPython too: the same journal)
    from firmware.app import decode
    from firmware.journal import Journal
    from simulator.runner import Sim
    sim = Sim(lambda: Journal(str(tmp_path / "j")))
    sim.run(str(REPO / "simulator" / "scenarios" / "survival_bust.txt"))
    recs = [decode(bytes(p)) for _, p in sim.journal.records(1)]
    assert [r["kind"] for r in recs] == ["session", "hand", "hand", "hand", "session_end"]
    got = [(r["multiplier"], r["deltas"], r["scores"]) for r in recs[1:4]]
    assert got == [(1, [38, -8, -22, -8], [88, 42, 28, 40]),
                   (2, [0, 0, 0, -20], [88, 42, 28, 20]),
                   (2, [38, -8, -8, -22], [164, 26, 12, -24])]
    assert [r["hand_start"] - EPOCH for r in recs[1:4]] == [4, 132, 135]   # 28:24, 30:32, 30:35 into the event
    assert recs[4]["reason"] == "bust" and recs[4]["match_scores"] == {"11": 76, "12": -16, "13": -30, "14": -50}
    assert sim.app.state == "sv_end"
