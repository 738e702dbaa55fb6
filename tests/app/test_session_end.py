"""Issue 18.6: ending a session asks first, and a penalty keyed in the unfinished hand never
leaves the totals unseen. What happened before: D 4 PIN 2 ended the session at once and dropped
the hand in progress with everything keyed in it (no record of the penalty anywhere); time-out
voided it (the rule set's decided time-out) with a screen that named no points."""
from tests.app.helpers import GD, MCR, WIN, Table


def kinds(t):
    return [r["kind"] for r in t.records()]


def test_ending_the_session_asks_first(tmp_path):
    t = Table(tmp_path, dict(MCR, lang="en"))
    t.keys("A10").tap(WIN).keys("1234")                  # hand 1 recorded
    n = len(t.records())
    t.keys("D4 2580# 2")
    assert t.app.state == "end_ok"
    title, lines, hint = t.app.screen()
    assert title == "End the session?" and lines == ["1 hands played"] and hint == "# OK  * back"
    assert len(t.records()) == n and not t.app.session.ended        # nothing written yet
    t.keys("*")
    assert t.app.state == "ref" and not t.app.session.ended
    t.keys("*")
    assert t.app.state == "main"
    t.keys("D4 2580# 2 #")
    assert t.app.state == "ended"
    recs = t.records()
    assert kinds(t)[n:] == ["session_end"] and recs[-1]["reason"] == "referee"


def test_a_penalty_in_the_unfinished_hand_is_recorded_and_said(tmp_path):
    t = Table(tmp_path, dict(MCR, lang="en"))
    t.keys("A10").tap(WIN).keys("1234")                  # hand 1
    totals = list(t.app.session.totals)
    t.keys("C16" "0" "10#")                              # hand 2: 10 points off chair 1
    assert t.app.running() == [-10, 0, 0, 0]
    n = len(t.records())
    t.keys("D4 2580# 2")
    title, lines, hint = t.app.screen()
    # MCR's time-out rule (rules_min/settle_mcr.py time_out): the hand counts nothing; the box says
    # which points go, before the referee confirms
    assert lines == ["Hand 2: as at time-up", "Voided: 1 -10"]
    t.keys("#")
    assert t.app.state == "ended"
    new = t.records()[n:]
    assert [r["kind"] for r in new] == ["hand", "session_end"]
    hand, end = new
    assert hand["hand"] == 2 and hand.get("time_out") is True
    assert {"penalty": "information", "seat": 0, "points": 10} in hand["events"]   # on record
    assert hand["deltas"] == [0, 0, 0, 0]
    assert end["reason"] == "referee" and end["hands"] == 1
    assert t.app.session.totals == totals


def test_guangdong_keeps_what_its_time_out_keeps(tmp_path):
    # a rule set whose time-out keeps settled kongs: the kong stays in the totals, the penalty goes
    t = Table(tmp_path, dict(GD, lang="en"))
    t.keys("B10#")                                       # chair 1's concealed kong
    assert t.app.state == "main"
    kong = t.app.running()
    assert any(kong)
    t.keys("C14" "2" "5#")                               # 5 points from chair 1 to chair 2
    t.keys("D4 2580# 2")
    lines = t.app.screen()[1]
    assert lines == ["Hand 1: as at time-up", "Voided: 1 -5 2 +5"]
    t.keys("#")
    hand = [r for r in t.records() if r["kind"] == "hand"][-1]
    assert hand["deltas"] == kong and hand["time_out"] is True
    assert t.records()[-1]["reason"] == "referee"
    assert [t.app.session.totals[i] for i in range(4)] == kong


def test_time_up_names_the_points_that_go(tmp_path):
    t = Table(tmp_path, dict(MCR, minutes=30, lang="en"))
    t.keys("C16" "0" "10#")
    t.ms = 30 * 60000
    t.app.tick()
    assert t.app.state == "timeout"
    assert " ".join(t.app.screen()[1]) == "This hand counts nothing Voided: 1 -10"   # rows as wrapped
    t.keys("#")
    hand, end = t.records()[-2:]
    assert hand["time_out"] is True and hand["deltas"] == [0, 0, 0, 0] and end["reason"] == "time"


def test_time_up_on_an_empty_hand_is_as_before(tmp_path):
    t = Table(tmp_path, dict(MCR, minutes=30, lang="en"))
    t.ms = 30 * 60000
    t.app.tick()
    assert " ".join(t.app.screen()[1]) == "This hand counts nothing"
    assert t.app.book.tentative is None                  # nothing previewed: nothing was keyed
