"""The headless simulator plays the shipped scenarios on the box through firmware/main.py's device
loop (keys through the key matrix and the keypad scanner, tiles as tags with real tile-tag bytes
through the reader interface); the points are worked out by hand in the scenario comments and
here. Also: the scripted clock, the events other players replay, the CLI, MicroPython parity."""
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from firmware.app import App, decode
from firmware.journal import Journal
from firmware.ui import texts


def tag_message(code):
    # what the app shows for a tag the device loop could not read as a tile (in Chinese)
    return texts.t(texts.TAG_MESSAGES[code], "cn")
from firmware.tags.tile_tag import encode
from simulator import runner
from simulator.runner import Sim

REPO = Path(__file__).resolve().parents[1]
SCEN = REPO / "simulator" / "scenarios"
SCENARIOS = sorted(p.name for p in SCEN.glob("*.txt"))
CONFIG = 'config {"rules": "mcr", "tournament": "T", "session": 1, "table": 1, "players": ["1", "2", "3", "4"], "first_dealer": 0}'


def run(script, tmp_path):
    screens = []
    sim = Sim(lambda: Journal(str(tmp_path / "journal")), on_screen=lambda n, w, s: screens.append((w, s)))
    sim.run(str(SCEN / script))
    return sim, screens


def play(tmp_path, lines, name="j"):
    screens = []
    sim = Sim(lambda: Journal(str(tmp_path / name)), on_screen=lambda n, w, s: screens.append((w, s)))
    for ln in lines:
        sim.line(ln)
    return sim, screens


def spy_keys(sim):
    """The keys the app gets (what the keypad scanner let through)."""
    got = []
    press = sim.app.press

    def spy(k):
        got.append(k)
        press(k)
    sim.app.press = spy
    return got


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
    # seats: kongs: 1 gets 60, 2 gets 20 from 1; 0 wins 20 on 2's discard, which the box asked
    # and the table answered 杠上炮 (kong_discard), so 2's kong income passes to 0 (呼叫转移, seed
    # 003 第八条.4); 3 self-draws 80 from 1 and 2; at the wall end 1 is ready (20) and 2 pays it;
    # 2 is not ready but has no kong income left to refund (退税). Without the answer the totals
    # would be [0, 0, -140, 140] (the income stays with 2 and goes back to 1 at the wall end).
    assert totals(sim) == [20, -20, -140, 140]
    recs = records(sim)
    assert [r["kind"] for r in recs] == ["session", "hand"]
    assert recs[1]["winners"] == [0, 3]
    win = recs[1]["events"][2]
    assert win["win"] == 0 and win["kong_discard"] is True
    assert recs[1]["transfers"].count([2, 0, 20, 2]) == 2    # the win and the kong's income


def test_guangdong_horses_and_refused_chicken(tmp_path):
    sim, screens = run("guangdong_horses.txt", tmp_path)
    no_error_screens(screens)
    assert any("鸡和只能自摸" in " ".join(s[1]) for _, s in screens)   # chicken hand: self-draw only
    assert totals(sim) == [22, -4, -8, -10]
    assert sim.app.session.dealer == 2   # the winner of hand 2 deals


def test_penalties_escalate_and_false_declaration(tmp_path):
    sim, screens = run("penalties_declare.txt", tmp_path)
    no_error_screens(screens)
    # empty call x3 on 41: 0 + 5 + 10; 42 late 12 min: 20, then 错和: 10 to each other player;
    # then the time limit ends the hand (D3#): seed 000 §三.1.4, the unfinished hand counts
    # nothing, 错和 and penalties included; the late arrival is the session's and stays
    assert totals(sim) == [0, -20, 0, 0]
    assert sim.app.session.standard_scores() == [23, 0, 23, 23]   # three share 4 + 2 + 1
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
    # the same script with the power cut's time spent waiting ends with the same journal bytes
    lines = (SCEN / "mcr_session.txt").read_text().splitlines(True)
    sc = runner.Script()
    sc.start()
    for i, ln in enumerate(lines):
        if ln.strip() == "powercut":
            t0 = sc.t
            sc.line(ln)
            lines[i] = "wait %g\n" % ((sc.t - t0) / 1000)
            break
        sc.line(ln)
    else:
        raise AssertionError("no powercut in the scenario")
    plain = tmp_path / "plain.txt"
    plain.write_text("".join(lines))
    sim2 = Sim(lambda: Journal(str(tmp_path / "b")))
    sim2.run(str(plain))
    a = [bytes(p) for _, p in sim.journal.records(1)]
    b = [bytes(p) for _, p in sim2.journal.records(1)]
    assert a == b and len(a) == 19


def test_bad_input_changes_nothing_stored(tmp_path):
    script = tmp_path / "bad.txt"
    script.write_text("\n".join([
        CONFIG,
        "keys 9#*ABCD*",                       # keys out of place
        "keys *", "keys A1 3#",
        "badtag",                              # a tag of no set
        "tapuid 04a1b2c3d4e5f6 5m", "tapuid 04a1b2c3d4e5f6 5m",   # the same tag read twice
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
    assert any(tag_message("corrupt") in m for m in msgs)
    assert any("这张牌刚拍过" in m for m in msgs)      # that tag was read already
    assert any("第五张5m" in m for m in msgs)          # a fifth 5m
    assert any("不是一组吃碰杠" in m for m in msgs)    # not a meld
    assert [bytes(p) for _, p in sim.journal.records(1)] == before   # only the session record
    no_error_screens(screens)


def test_tag_bytes_go_through_the_tag_decoder(tmp_path):
    # only the device loop reads a tag's bytes: a damaged record, a blank tag, a tile of another
    # set and a record of a newer format are refused with the box's messages; a good record
    # with an unusual uid is the tile it says
    good = encode(1, 4, 2)
    damaged = bytearray(good)
    damaged[3] ^= 0x01                        # 5m -> 6m with the old checksum
    newer = bytearray(good)
    newer[0] = 0xA2
    from firmware.tags.tile_tag import crc8
    newer[7] = crc8(newer, 0, 7)
    sim, screens = play(tmp_path, [
        CONFIG, "keys A1 0",                  # a self-drawn win: the hand's tiles
        "rawtag 04c0ffee000001 " + bytes(damaged).hex(),
        "rawtag 04c0ffee000002 " + "00" * 16,
        "rawtag 04c0ffee000003 " + encode(7, 4, 2).hex(),
        "rawtag 04c0ffee000004 " + bytes(newer).hex(),
        "rawtag 04c0ffee000005 " + good.hex(),
    ])
    assert sim.app.state == "tiles"
    msgs = [s[1][0] for _, s in screens[-5:-1]]
    assert msgs == ["! " + tag_message(k) for k in ("corrupt", "blank", "foreign_set", "version")]
    assert sim.app.d["entry"].current == [4]     # only the good tag: 5m
    assert [r["kind"] for r in records(sim)] == ["session"]


def test_a_held_key_is_one_press_and_ghosts_are_ignored(tmp_path):
    sim, screens = play(tmp_path, [CONFIG])
    got = spy_keys(sim)
    sim.line("down C")                        # held for ten seconds: one press, no repeats
    sim.line("wait 10")
    sim.line("up C")
    assert got == ["C"]
    sim.line("keys *")
    # 1 and 2 held, then 4: three corners of a rectangle, the scanner cannot tell 4 from 5
    sim.line("down 1 2")
    sim.line("keys 4")
    sim.line("up 1 2")
    sim.line("keys 3")
    assert got == ["C", "*", "1", "2", "3"]
    assert sim.hw.keys.kp.ghost_scans > 0


def test_two_tags_at_once_are_both_read_then_one(tmp_path):
    # as the reader driver's anticollision takes them: 2m first (UID 04 53 01 ..: at the first
    # bit where the two UIDs differ, the reader picks the tag with a 1), then 1m
    sim, screens = play(tmp_path, [CONFIG, "keys A1 0", "place 1m 2m"])
    assert sim.app.d["entry"].current == [1, 0]
    sim.line("lift")
    sim.line("tap 3m")
    assert sim.app.d["entry"].current == [1, 0, 2]


def test_tag_checker_from_the_keypad(tmp_path):
    # *0# on the idle screen is the device loop's tags mode, which the app never sees
    sim, screens = play(tmp_path, ["keys *0#", "tap P", "badtag", "keys *"])
    titles = [s[0] for _, s in screens]
    assert titles[2] == "Tag check" and screens[3][1][1][0] == "P copy 1"
    assert screens[4][1][1][0] == "corrupt"
    assert sim.app.state == "idle" and not sim.dev.tags.active


def test_the_scripted_clock_epoch_and_device_id(tmp_path):
    sim, _ = play(tmp_path, [CONFIG, "wait 2.5", "keys D3#"])
    recs = records(sim)
    boot = runner.BOOT_MS
    first = boot + runner.HOST_MS                       # the config's slot
    assert recs[0]["time"] == runner.EPOCH + first // 1000
    assert recs[0]["device"] == "box-000000"            # "box-" + the chip id's last 3 bytes
    # D3# is a time-out, which ends the session: its records in the # key's slot
    t = first + runner.HOST_MS + 2500 + 2 * runner.KEY_MS
    assert [r["kind"] for r in recs[1:]] == ["hand", "session_end"] and recs[1].get("time_out")
    assert recs[1]["time"] == recs[2]["time"] == runner.EPOCH + t // 1000 == runner.EPOCH + 6
    # events: what another player (the Pico harness) replays
    evs = list(runner.events([CONFIG, "keys 5", "tap 5m", "powercut"]))
    assert evs[:2] == [(0, "boot"), (boot, "clock", runner.EPOCH + boot // 1000)]
    assert evs[2][:2] == (first, "config")
    k = first + runner.HOST_MS
    assert evs[4:7] == [(k, "down", "5", 1, 1), (k + runner.KEY_DOWN_MS, "up", "5", 1, 1),
                        (k + runner.KEY_MS, "shot", "key 5")]
    k += runner.KEY_MS
    uid = bytes((0x04, 0x53, 4, 0, 0x11, 0x22, 0x33))
    assert evs[7:10] == [(k, "place", uid, encode(1, 4, 0)), (k + runner.TAG_ON_MS, "lift", uid),
                         (k + runner.TAG_MS, "shot", "tap 5m")]
    k += runner.TAG_MS
    on = (k + 999) // 1000 * 1000
    assert evs[10:] == [(k, "powercut"), (on, "boot"), (on + boot, "shot", "boot")]
    assert all(e[0] % runner.SLOT_MS == 0 for e in evs if e[1] in ("down", "place", "config", "clock"))


def test_events_as_json_lines(tmp_path):
    p = subprocess.run([sys.executable, "-m", "simulator", "--script", str(SCEN / "mcr_one_hand.txt"), "--events"],
                       cwd=REPO, capture_output=True, text=True, timeout=60)
    assert p.returncode == 0, p.stderr
    evs = [json.loads(ln) for ln in p.stdout.splitlines()]
    mine = list(runner.events(open(SCEN / "mcr_one_hand.txt")))
    assert len(evs) == len(mine) and [e["t"] for e in evs] == [e[0] for e in mine]
    tap = next(e for e in evs if e["ev"] == "place")
    assert tap == {"t": tap["t"], "ev": "place", "uid": "04530200112233", "data": encode(1, 2, 0).hex()}
    assert {e["ev"] for e in evs} == {"boot", "clock", "config", "down", "up", "place", "lift", "shot"}


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
    for name in SCENARIOS:
        out = tmp_path / ("mp-" + name)
        p = subprocess.run(["make", "-s", "mp-sim", "SCRIPT=simulator/scenarios/" + name,
                            "OUT=" + str(out)], cwd=REPO, capture_output=True, text=True, timeout=600)
        assert p.returncode == 0, p.stderr
        sim = Sim(lambda: Journal(str(tmp_path / ("cp-" + name))))
        sim.run(str(SCEN / name))
        names = sorted(os.listdir(out / "journal"))
        assert names and names == sorted(os.listdir(tmp_path / ("cp-" + name)))
        for n in names:
            assert (out / "journal" / n).read_bytes() == (tmp_path / ("cp-" + name) / n).read_bytes(), (name, n)
        mp_screens = (out / "screens.txt").read_text()
        assert "MemoryError" not in mp_screens, name  # the app reset itself: the heap is too small
        assert mp_screens.count("\n--- ") + 1 == sim.steps


def cli(*args):
    return subprocess.run([sys.executable, "-m", "simulator", *args], cwd=REPO, capture_output=True, text=True,
                          timeout=120)


def test_cli_writes_a_png_and_text_per_screen_and_the_journal(tmp_path):
    out = tmp_path / "out"
    p = cli("--board", "sim", "--script", str(SCEN / "mcr_one_hand.txt"), "--out", str(out))
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


def test_cli_boards(tmp_path):
    p = cli("--board", "nonsense", "--script", str(SCEN / "mcr_one_hand.txt"), "--out", str(tmp_path / "n"))
    assert p.returncode == 2 and "no board 'nonsense'" in p.stderr and not (tmp_path / "n").exists()
    p = cli("--board", "../board_configs/sim", "--script", str(SCEN / "mcr_one_hand.txt"), "--out", str(tmp_path / "x"))
    assert p.returncode == 2
    out = tmp_path / "e"
    p = cli("--board", "esp32s3", "--script", str(SCEN / "mcr_one_hand.txt"), "--out", str(out))
    assert p.returncode == 0, p.stderr
    from simulator import png
    w, h, rows = png.read_rgb(str(sorted((out / "screens").glob("*.png"))[-1]))
    assert (w, h) == (640, 480)     # the ESP32-S3's 320x240 ST7789 at 2x, in colour
    assert len(set(px for r in rows for px in zip(r[0::3], r[1::3], r[2::3]))) > 4
    # the same journal as on the reference board: the screen changes, the table does not
    q = cli("--board", "pico", "--script", str(SCEN / "mcr_one_hand.txt"), "--out", str(tmp_path / "p"), "--no-png")
    assert q.returncode == 0, q.stderr
    for n in os.listdir(out / "journal"):
        assert (out / "journal" / n).read_bytes() == (tmp_path / "p" / "journal" / n).read_bytes()


def test_the_device_timers_run_out_before_the_next_input(tmp_path):
    # a one-minute session (its clock starts at the config's slot, s): the lines below end at
    # s + 59.75 s, then s + 60.25 s: the time is up 250 ms before that, so the box has left the
    # hand's screen by then although the player jumped over the quiet minute (it steps at the
    # input's time first)
    one = CONFIG[:-1] + ', "minutes": 1}'
    sim, screens = play(tmp_path, [one, "keys C", "keys *", "wait 59"])
    assert sim.app.state == "main"
    sim.line("wait 0.5")
    assert sim.app.state != "main"
