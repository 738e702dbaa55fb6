"""Three-player tables on the box (issue 14), through the App with a scripted clock, worked by
hand from the seeds: seed 000 §一.3 若有三人，正常比赛，打15盘（5圈），标准分计4、2、1分; seed 004
§三.1 此时若有三人，则继续比赛. The config names the empty chair null (protocol/config.py).

DECISIONS (firmware/session.py): the three keep their chairs (the seed's 换位 is for four); the
dealer passes round the three; a round is 3 hands, so the prevalent wind goes E S W N E over
the 5 rounds; the seat winds go E S W round the three from the dealer (rules_min/settle.py)."""
from protocol import record
from tests.app.helpers import Table

KNIT = ("3m 4m 5m", "2m 5m 8m 1s 4s 8s 8s 3p 6p 9p 7s")   # [345m] claimed + 组合龙: 14 fans
MCR3 = {"rules": "mcr", "tournament": "T", "session": 2, "table": 9, "players": ["1", "2", "3", None], "first_dealer": 0}
GD3 = {"rules": "guangdong", "tournament": "T", "session": 2, "table": 9, "players": [None, "a", "b", "c"], "first_dealer": 1}


def hands(t):
    return [r for r in t.records() if r["kind"] == "hand"]


def test_mcr_three_play_15_hands_the_dealer_round_the_three(tmp_path):
    t = Table(tmp_path, MCR3)
    assert t.app.session.hands == 15
    # hand 1: 1 wins the knitted straight on 3's discard: 8 + 14 from 3, 8 from 2, nothing from
    # the empty chair; the empty chair's key is refused, the three confirm
    t.keys("A4")
    assert t.app.state == "win_who"
    t.keys("A13").tap(KNIT[0]).keys("#").tap(KNIT[1]).keys("123")
    h = hands(t)[0]
    assert h["seats"] == ["1", "2", "3", None] and h["deltas"] == [30, -8, -22, 0]
    assert record.validate(h) is None
    for _ in range(14):
        t.keys("D2#")                  # wall ends: no points in MCR
    hs = hands(t)
    assert [h["dealer"] for h in hs] == [0, 1, 2] * 5
    assert "".join(h["prevalent_wind"] for h in hs) == "EEESSSWWWNNNEEE"
    assert all(h["seats"] == ["1", "2", "3", None] for h in hs)
    end = t.records()[-1]
    assert end["kind"] == "session_end" and end["hands"] == 15 and end["reason"] == "hands"
    assert end["match_scores"] == {"1": 30, "2": -8, "3": -22}
    assert t.app.state == "ended"
    assert t.app.session.standard_scores() == [40, 20, 10, None]      # 4/2/1 (tenths)


def test_mcr_three_the_seat_winds_skip_the_empty_chair(tmp_path):
    t = Table(tmp_path, MCR3)
    t.keys("D2#")                      # hand 2: chair 1 deals
    s = t.app.session
    assert [s.seat_wind(c) for c in range(3)] == ["W", "E", "S"]
    text = t.screen_text()
    assert "西 1\t0" in text and "东 2\t0" in text and "南 3\t0" in text and "北" not in text   # chair 3: nobody


def test_guangdong_three_play_on_the_next_dealer_skips_the_empty_chair(tmp_path):
    t = Table(tmp_path, GD3)
    assert t.app.session.hands == 12
    for _ in range(3):
        t.keys("D2#")                  # wall ends: the dealer's right deals, the empty chair skipped
    assert [h["dealer"] for h in hands(t)] == [1, 2, 3]
    assert t.app.session.dealer == 1
    # a self-drawn win: each of the two others pays (seed 004: no payment from an empty chair)
    t.keys("A20").tap("1m 2m 3m 4m 5m 6m 7m 8m 9m 1s 1s 2s 3s 4s").keys("234")
    # 平和 x1: BASE 2 from each of the two present (four players: from each of three)
    h = hands(t)[-1]
    assert h["deltas"] == [0, 4, -2, -2] and h["seats"] == [None, "a", "b", "c"]
    assert record.validate(h) is None


def test_the_referee_corrects_a_three_player_hand_the_empty_chair_skipped(tmp_path):
    # D 4 and the PIN, 1 correct a hand: the box asks for the three seated players only and
    # the empty chair keeps 0 (firmware/flows/referee.py)
    t = Table(tmp_path, MCR3)
    t.keys("A13").tap(KNIT[0]).keys("#").tap(KNIT[1]).keys("123")
    assert hands(t)[0]["deltas"] == [30, -8, -22, 0]
    t.keys("D4 2580# 1 1#")
    assert t.app.state == "corr_delta"
    t.keys("24#").keys("A8#")
    assert t.app.state == "corr_delta"           # the third seat still to key, not the empty chair
    t.keys("A16#")
    rec = t.records()[-1]
    assert rec["kind"] == "correction" and rec["seats"] == ["1", "2", "3", None]
    assert rec["deltas"] == [24, -8, -16, 0] and rec["was"] == [30, -8, -22, 0]
    assert record.validate(rec) is None
    assert t.app.session.totals[:3] == [24, -8, -16] and t.app.state == "main"
