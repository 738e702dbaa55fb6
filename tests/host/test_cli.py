"""`mahjong-table score` / `settle` for people: what they print, in both languages, that every
option is there and in --help, that errors point at the character, and that a subcommand
imports only what it needs. People number chairs 1-4 (options and text); the JSON keeps the
protocols' seats 0-3."""
import json
import os
import random
import re
import subprocess
import sys
from pathlib import Path

import pytest

from host_tools import cli, report
from rules_min import keyed
from rules_min.request import handle_line as score_line
from rules_min.settle_request import handle_line as settle_line

REPO = Path(__file__).resolve().parents[2]
KNIT = "[345m3]258m1488s369p7s"


def run(*args, stdin=None):
    env = dict(os.environ, COLUMNS="100")
    p = subprocess.run([sys.executable, "-m", "host_tools"] + list(args), cwd=REPO, capture_output=True, text=True,
                       input=stdin, env=env, timeout=60)
    return p.returncode, p.stdout, p.stderr


def test_the_issue_example_prints_fans_points_total_verdict_and_payments():
    rc, out, err = run("score", KNIT, "--discard-from", "3", "--seat-wind", "E", "--round-wind", "E")
    assert rc == 0, err
    assert re.search(r"Knitted Straight +12 fans", out) and re.search(r"All Chows +2 fans", out)
    assert re.search(r"Total +14 fans: reaches the 8 fans to win", out) and "on chair 3's discard" in out
    assert "chair 1 (winner) +38   chair 2 -8   chair 3 (discarder) -22   chair 4 -8" in out
    rc, out, err = run("score", KNIT, "--discard-from", "3", "--lang", "zh")
    assert rc == 0, err
    assert re.search(r"组合龙 +12番", out) and re.search(r"合计 +14番：够8番起和", out)
    assert "1号位（和牌） +38" in out and "3号位（放铳） -22" in out
    rc, out, err = run("score", KNIT, "--discard-from", "1", "--winner", "4")
    assert rc == 0 and "chair 4 (winner) +38" in out and "chair 1 (discarder) -22" in out, err


def test_json_is_the_protocols_reply_for_the_same_request():
    rc, out, _ = run("score", KNIT, "--discard-from", "3", "--json")  # chair 3 is the protocol's seat 2
    req = {"id": 1, "hand": KNIT, "seat_wind": "E", "prevalent_wind": "E", "flowers": 0, "winner": 0, "discarder": 2}
    assert rc == 0 and out.strip() == score_line(json.dumps(req), "mcr")


def test_without_a_hand_the_stdin_protocol_is_unchanged():
    line = json.dumps({"id": 7, "hand": KNIT, "winner": 0, "discarder": 2})
    rc, out, _ = run("score", stdin=line + "\nnot json\n")
    assert rc == 0
    assert out.splitlines() == [score_line(line, "mcr"), score_line("not json", "mcr")]
    rc, out, _ = run("settle", "--rules", "sichuan", stdin='{"id": 3, "events": []}\n')
    assert json.loads(out)["id"] == 3


def test_errors_point_at_the_character():
    rc, out, err = run("score", "123x456m")
    assert rc == 1 and "unknown character 'x' at position 3" in err
    hand_line, caret_line = err.splitlines()[1:3]
    assert hand_line.strip() == "123x456m" and caret_line.index("^") == hand_line.index("x")
    rc, out, err = run("score", "[EEE1]中123m456s78p99p")   # a wide character: the caret still lines up
    lines = err.splitlines()
    assert rc == 1 and "position 6" in lines[0]
    assert report.width(lines[1][:lines[1].index("中")]) == lines[2].index("^")


def test_not_a_win_says_how_far_from_ready():
    rc, out, _ = run("score", "123456789m123s1p2p")
    assert rc == 1 and "shanten 0" in out and "错和" in out
    rc, out, _ = run("score", "123m456m234s678p5p5pab", "--discard-from", "2")
    assert rc == 1 and "7 fans (5 without flowers)" in out and "not a win: no payments" in out


def test_every_win_flag_of_the_table_is_an_option_and_does_what_it_says():
    parser = cli.build_parser()
    score = parser._subparsers._group_actions[0].choices["score"]
    options = {o for a in score._actions for o in a.option_strings}
    for rules in ("mcr", "sichuan", "guangdong"):
        for key in keyed.flags(rules, "s"):
            assert "--" + key.replace("_", "-") in options, key
    edge = "[789s1][EEE1]12m456p99p3m"   # 边张 1 of 13
    assert re.search(r"Total +13 fans", run("score", edge, "--discard-from", "2")[1])
    assert re.search(r"Total +12 fans", run("score", edge, "--discard-from", "2", "--win-tile-mixed")[1])
    kong = "[7777s]123s123s123s99s"
    out = run("score", kong, "--self-drawn", "--kong", "--replacement-flower")[1]
    assert "Out with Replacement Tile" not in out and "Self-Drawn" in out and "117 fans" in out
    out = run("score", KNIT, "--discard-from", "3", "--misnamed")[1]
    assert "chair 1 (winner) +38   chair 2 0   chair 3 (discarder) -38   chair 4 0" in out
    out = run("score", KNIT, "--discard-from", "3", "--last-of-kind")[1]
    assert "Last Tile" in out and "18 fans" in out
    rc, _, err = run("score", KNIT, "--discard-from", "3", "--kong", "--last-tile")
    assert rc == 1 and "bad_flags" in err and "海底捞月" in err
    rc, _, err = run("score", "123m456m789m11s234s", "--rules", "sichuan", "--win-tile-mixed")
    assert rc == 2 and "--win-tile-mixed is not a flag of sichuan" in err


def test_sichuan_and_guangdong_print_their_values_and_payments_by_chair():
    rc, out, _ = run("score", "123m456m789m11s234s", "--rules", "sichuan", "--discard-from", "4", "--missing-suit", "p")
    assert rc == 0 and "Value" in out and "chair 1 (winner) +20" in out and "chair 4 (discarder) -20" in out
    rc, out, _ = run("score", "123m456m789m11s234s", "--rules", "sichuan", "--self-drawn", "--kong", "--lang", "zh")
    assert rc == 0 and "杠上开花" in out and "1号位（和牌） +240" in out           # 3 fans = 80 from each
    rc, out, _ = run("score", "123m456m789m11s234s", "--rules", "guangdong", "--self-drawn", "--horses", "1m", "E")
    assert rc == 0 and "chair 1 (winner) +24" in out                               # x1 = 2, two hits x4
    rc, out, _ = run("score", "123m456m789m11s234s", "--rules", "guangdong", "--self-drawn", "--horses", "1m", "E", "--dealer", "2")
    assert rc == 0 and "chair 1 (winner) +6" in out   # dealer chair 2: chair 1 is its left (4/8/N), 1m and E miss
    rc, out, _ = run("score", "123m456m789m11s222s", "--rules", "guangdong", "--discard-from", "2")
    assert rc == 1   # a chicken hand wins only by self-draw


def test_help_of_every_subcommand_lists_every_option():
    full = cli.build_parser()._subparsers._group_actions[0].choices
    assert set(full) == {name for name, _, _ in cli.COMMANDS}
    rc, top, _ = run("--help")
    assert rc == 0 and all(name in top for name in full)
    for name, p in full.items():
        rc, out, err = run(name, "--help")
        assert rc == 0, (name, err)
        for a in p._actions:
            for o in a.option_strings:
                assert o in out, (name, o)
            if not a.option_strings and a.dest != "help":
                shown = a.metavar or ("{%s}" % ",".join(a.choices) if a.choices else a.dest)
                assert shown in out, (name, a.dest)


def _imports(*args):
    env = dict(os.environ, COLUMNS="100")
    p = subprocess.run([sys.executable, "-X", "importtime", "-m", "host_tools"] + list(args), cwd=REPO,
                       capture_output=True, text=True, env=env, timeout=60)
    return {line.split("|")[-1].strip() for line in p.stderr.splitlines() if line.startswith("import time:")}


HEAVY = ("host_tools.sync", "host_tools.tags", "host_tools.server", "serial", "http.client", "sqlite3",
         "shutil", "unicodedata", "typing", "micropython")


def test_a_subcommand_imports_only_what_it_needs(tmp_path):
    mods = _imports("score", KNIT, "--discard-from", "3")
    assert "rules_min.request" in mods and "rules_min.mcr" in mods
    assert not [m for m in mods if m in HEAVY or m.startswith("host_tools.server")], sorted(mods)
    assert "rules_min.settle" not in mods and "rules_min.shanten" not in mods
    f = tmp_path / "ev.json"
    f.write_text('[{"kong": "concealed", "seat": 1}]')
    mods = _imports("settle", str(f), "--rules", "sichuan")
    assert "rules_min.settle" in mods and "rules_min.sichuan" in mods
    assert "rules_min.mcr" not in mods and not [m for m in mods if m in HEAVY], sorted(mods)
    mods = _imports("--help")
    assert not [m for m in mods if m.startswith("rules_min") or m in HEAVY], sorted(mods)


def test_settle_file_for_people_in_both_languages(tmp_path):
    f = tmp_path / "hand.json"
    f.write_text(json.dumps([{"kong": "direct", "seat": 2, "from": 0},
                             {"win": 1, "from": 2, "hand": "123m456m789m11s234s", "kong_discard": True},
                             {"bar": 3, "reason": "delaying"}]))
    rc, out, err = run("settle", str(f), "--rules", "sichuan")
    assert rc == 0, err
    assert re.search(r"chair 3 -> chair 2 +20  kong income passed to the winner", out)
    assert "Per chair: chair 1 -20   chair 2 +40   chair 3 -20   chair 4 -50" in out
    assert "chair 4: barred from winning this hand: delaying the discard (event 2)" in out
    rc, out, _ = run("settle", str(f), "--rules", "sichuan", "--lang", "zh")
    assert "杠钱转移给和牌者（呼叫转移）" in out and "4号位：本盘停和陪打：拖延出牌" in out
    mcr = tmp_path / "mcr.json"
    mcr.write_text(json.dumps([{"win": 1, "from": 0, "hand": KNIT}]))  # the file's seats are the protocol's 0-3
    rc, out, _ = run("settle", str(mcr), "--dealer", "3")
    assert rc == 0 and "dealer chair 3" in out and "chair 4 deals next" in out and "chair 1 -> chair 2" in out, out
    rc, out, _ = run("settle", str(mcr), "--dealer", "3", "--json")
    assert json.loads(out)["next_dealer"] == 3  # dealer chair 3 is seat 2; MCR's dealer passes to seat 3
    rc, out, _ = run("settle", str(f), "--rules", "sichuan", "--json")
    assert json.loads(out)["deltas"] == [-20, 40, -20, -50]
    f.write_text(json.dumps({"dealer": 1, "events": [{"win": 0, "from": 1, "hand": "12x3m"}]}))
    rc, out, err = run("settle", str(f))
    assert rc == 1 and "event 0" in err and err.splitlines()[2].index("^") == err.splitlines()[1].index("x")
    f.write_text("not json")
    rc, _, err = run("settle", str(f))
    assert rc == 2 and "not JSON" in err


def test_every_reason_and_flag_the_engine_writes_has_its_chinese():
    sys.path.insert(0, str(REPO / "tests"))
    import settlegen
    left = set()
    for rules in ("mcr", "sichuan", "guangdong"):
        rng = random.Random(1300 + len(rules))
        for _ in range(150):
            req, _ = settlegen.random_request(rng, rules)
            rep = json.loads(settle_line(json.dumps(dict(req, id=1)), rules))
            for t in rep["transfers"]:
                zh = report.reason(t["reason"], "zh", rules)
                if re.search(r"[A-Za-z]{3,}", zh.replace("x", " ")):
                    left.add((rules, t["reason"]))
            for fl in rep["flags"]:
                zh = report.flag_text(fl, "zh", rules)
                if re.search(r"[A-Za-z]{3,}", zh):
                    left.add((rules, "flag " + fl["kind"]))
    assert not left, sorted(left)


@pytest.mark.parametrize("args", [("score", "--discard-from", "9", KNIT), ("score", KNIT, "--discard-from", "0"),
                                  ("score", KNIT, "--discard-from", "1"), ("score", KNIT, "--self-drawn", "--discard-from", "2"),
                                  ("score", "--json"), ("settle", "--lang", "zh")])
def test_bad_option_combinations_are_usage_errors(args):
    rc, _, err = run(*args)
    assert rc == 2 and "usage:" in err
