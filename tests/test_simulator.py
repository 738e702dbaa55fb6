"""The headless simulator runs the shipped scenarios through the firmware application; the
points are worked out by hand in the scenario comments and here."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from firmware.app import App, decode
from firmware.journal import Journal
from simulator.runner import Sim

REPO = Path(__file__).resolve().parents[1]
SCEN = REPO / "simulator" / "scenarios"


def run(script, tmp_path):
    screens = []
    sim = Sim(lambda: Journal(str(tmp_path / "journal")), on_screen=lambda n, w, s: screens.append((w, s)))
    sim.run(str(SCEN / script))
    return sim, screens


def records(sim):
    return [decode(bytes(p)) for _, p in sim.journal.records(1)]


def totals(sim):
    s = sim.app.session
    return [s.totals[s.players.index(p)] for p in s.players]


def no_error_screens(screens):
    for what, (title, lines, hint) in screens:
        for line in lines:
            assert "出错" not in line and "Error" not in line and "Traceback" not in line, (what, lines)


def test_sichuan_kongs_win_on_kong_discard_self_draw_and_chajiao(tmp_path):
    sim, screens = run("sichuan_kongs_chajiao.txt", tmp_path)
    no_error_screens(screens)
    # kongs: 2 gets 60, 3 gets 20 from 1; 0 wins 20 on 2's discard plus the 20 kong income;
    # 3 self-draws 80 from 1 and 2; at the wall end 1 is ready (20) and 2 pays it
    assert totals(sim) == [20, -20, -140, 140]
    recs = records(sim)
    assert [r["kind"] for r in recs] == ["session", "hand"]
    assert recs[1]["winners"] == [0, 3]


def test_guangdong_horses_and_refused_chicken(tmp_path):
    sim, screens = run("guangdong_horses.txt", tmp_path)
    no_error_screens(screens)
    assert any("鸡和只能自摸" in " ".join(s[1]) for _, s in screens)   # chicken hand: self-draw only
    assert totals(sim) == [22, -4, -8, -10]
    assert sim.app.session.dealer == 2   # the winner of hand 2 deals


def test_penalties_escalate_and_false_declaration(tmp_path):
    sim, screens = run("penalties_declare.txt", tmp_path)
    no_error_screens(screens)
    # empty call x3 on 41: 0 + 5 + 10; 42 late 12 min: 20, then 错和: 10 to each other player
    assert totals(sim) == [-5, -50, 10, 10]
    assert sim.app.session.standard_scores() == [10, 0, 30, 30]
    assert records(sim)[-1]["kind"] == "session_end"


def test_full_mcr_session_with_chair_changes_power_cut_and_correction(tmp_path):
    sim, screens = run("mcr_session.txt", tmp_path)
    no_error_screens(screens)
    recs = records(sim)
    kinds = [r["kind"] for r in recs]
    assert kinds.count("hand") == 16 and kinds.count("correction") == 1 and kinds[-1] == "session_end"
    hands = [r for r in recs if r["kind"] == "hand"]
    assert [h["hand"] for h in hands] == list(range(1, 17))
    # dealer passes each hand; chairs change after hands 4, 8, 12 (RULES.md table flow)
    assert [h["dealer"] for h in hands] == [0, 1, 2, 3] * 4
    assert hands[0]["seats"] == ["11", "12", "13", "14"]
    assert hands[4]["seats"] == ["12", "11", "14", "13"]
    assert hands[8]["seats"] == ["13", "14", "12", "11"]
    assert hands[12]["seats"] == ["14", "13", "11", "12"]
    assert [h["prevalent_wind"] for h in hands] == ["E"] * 4 + ["S"] * 4 + ["W"] * 4 + ["N"] * 4
    # totals: every hand's deltas, hand 3's replaced by the referee's correction
    corr = [r for r in recs if r["kind"] == "correction"][0]
    assert corr["deltas"] == [5, -5, 0, 0] and corr["was"] == hands[2]["deltas"]
    want = {p: 0 for p in ["11", "12", "13", "14"]}
    for r in recs:
        if r["kind"] == "hand":
            for c in range(4):
                want[r["seats"][c]] += r["deltas"][c]
    for c in range(4):
        want[corr["seats"][c]] += corr["deltas"][c] - corr["was"][c]
    assert recs[-1]["match_scores"] == want
    # 15 points of penalties left the table (5 + 10 for the empty calls of hand 5)
    assert sum(want.values()) == -15


def test_power_cut_resumes_where_it_stopped(tmp_path):
    (tmp_path / "a").mkdir()
    sim, _ = run("mcr_session.txt", tmp_path / "a")
    # the same script without its power cut ends with the same journal bytes
    text = (SCEN / "mcr_session.txt").read_text().replace("powercut\n", "")
    plain = tmp_path / "plain.txt"
    plain.write_text(text)
    sim2 = Sim(lambda: Journal(str(tmp_path / "b")))
    sim2.run(str(plain))
    a = [bytes(p) for _, p in sim.journal.records(1)]
    b = [bytes(p) for _, p in sim2.journal.records(1)]
    assert a == b


def test_bad_input_changes_nothing_stored(tmp_path):
    script = tmp_path / "bad.txt"
    script.write_text("\n".join([
        'config {"rules": "mcr", "tournament": "T", "session": 1, "table": 1, "players": ["1", "2", "3", "4"], "first_dealer": 0}',
        "keys 9#*ABCD*",                       # keys out of place
        "keys *", "keys A1 3#",
        "badtag",                              # a tag of no set
        "tapuid 04a1b2c3d4 5m", "tapuid 04a1b2c3d4 5m",   # the same tag read twice
        "tap 5m 5m 5m 5m",                     # a fifth 5m
        "keys #*",                             # four 5m: a kong? no (*)
        "tap 1m 2m",
        "keys #",                              # not a meld
    ]) + "\n")
    screens = []
    sim = Sim(lambda: Journal(str(tmp_path / "j")), on_screen=lambda n, w, s: screens.append((w, s)))
    before = None
    for line in script.read_text().splitlines():
        sim.line(line)
        if before is None:
            before = [bytes(p) for _, p in sim.journal.records(1)]
    msgs = [" ".join(s[1]) for _, s in screens]
    assert any("别的牌套的牌" in m for m in msgs)      # not a tile of this set
    assert any("这张牌刚拍过" in m for m in msgs)      # that tag was read already
    assert any("第五张5m" in m for m in msgs)          # a fifth 5m
    assert any("不是一组吃碰杠" in m for m in msgs)    # not a meld
    assert [bytes(p) for _, p in sim.journal.records(1)] == before   # only the session record
    no_error_screens(screens)


def test_an_exception_in_a_handler_returns_to_a_safe_screen(tmp_path):
    j = Journal(str(tmp_path / "j"))
    app = App(j, lambda: 0)
    app.push_config({"rules": "mcr", "tournament": "T", "session": 1, "table": 1, "players": ["1", "2", "3", "4"],
                     "first_dealer": 0})
    stored = [bytes(p) for _, p in j.records(1)]
    row = app._row("kong_who")
    app._h["kong_who"] = (row[0], row[1], lambda app, key: 1 / 0, row[3])
    app.press("B")
    app.press("1")
    title, lines, hint = app.screen()
    assert app.state == "main" and "ZeroDivisionError" in " ".join(lines)
    assert "Traceback" not in " ".join(lines)
    assert [bytes(p) for _, p in j.records(1)] == stored


def test_micropython_writes_the_same_journal(tmp_path):
    for name in ("mcr_session.txt", "sichuan_kongs_chajiao.txt", "guangdong_horses.txt", "penalties_declare.txt"):
        out = tmp_path / ("mp-" + name)
        p = subprocess.run(["make", "-s", "mp-sim", "SCRIPT=simulator/scenarios/" + name, "HEAP=192K",
                            "OUT=" + str(out)], cwd=REPO, capture_output=True, text=True, timeout=600)
        assert p.returncode == 0, p.stderr
        sim = Sim(lambda: Journal(str(tmp_path / ("cp-" + name))))
        sim.run(str(SCEN / name))
        names = sorted(os.listdir(out / "journal"))
        assert names and names == sorted(os.listdir(tmp_path / ("cp-" + name)))
        for n in names:
            assert (out / "journal" / n).read_bytes() == (tmp_path / ("cp-" + name) / n).read_bytes(), (name, n)


def test_cli_writes_a_png_and_text_per_screen_and_the_journal(tmp_path):
    out = tmp_path / "out"
    p = subprocess.run([sys.executable, "-m", "simulator", "--board", "sim", "--script",
                        str(SCEN / "mcr_one_hand.txt"), "--out", str(out)], cwd=REPO, capture_output=True,
                       text=True, timeout=120)
    assert p.returncode == 0, p.stderr
    pngs = sorted((out / "screens").glob("*.png"))
    txts = sorted((out / "screens").glob("*.txt"))
    assert len(pngs) == len(txts) > 20
    from simulator import png
    w, h, rows = png.read_rgb(str(pngs[-1]))
    assert (w, h) == (512, 256)     # 128x64 at 4x
    assert len(set(bytes(r) for r in rows)) > 10    # not a blank picture
    assert "组合龙" in (out / "screens.txt").read_text()
    assert sorted(os.listdir(out / "journal"))
