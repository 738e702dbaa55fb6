"""The settle command on the MicroPython unix port gives the same replies as on CPython.

The MicroPython side runs the device build: `make mpy` (build/mpy/rules_min/*.mpy) plus
firmware/settle_stdio.py compiled here with mpy-cross, run from build/mpy (so the repo's
rules_min/*.py cannot shadow the .mpy files) with MICROPYPATH pointing at both.

Heap: MP_HEAP below, not the 96K of `make mp-score`: at 96K a hand that reveals a declared hand
(shanten is then imported) and some busy Sichuan hands run out of memory; see
`.venv/bin/python -m bench.mp_settle_run` for the smallest heaps. Override with SETTLE_MP_HEAP=96K.
"""
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import pytest

import settlegen

REPO = Path(__file__).resolve().parents[1]
BIN = Path(sys.executable).parent
MICROPYTHON = BIN / "micropython"
MPY_CROSS = BIN / "mpy-cross"
MPY_DIR = REPO / "build" / "mpy"
MP_HEAP = os.environ.get("SETTLE_MP_HEAP", "128K")
RULES = ("sichuan", "guangdong", "mcr")
SEEDS = {"sichuan": 101, "guangdong": 202, "mcr": 303}



@pytest.fixture(scope="module")
def stdio_dir(tmp_path_factory):
    p = subprocess.run(["make", "-s", "mpy"], cwd=REPO, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0, p.stdout + p.stderr
    d = tmp_path_factory.mktemp("settle_mpy")
    p = subprocess.run([str(MPY_CROSS), "-o", str(d / "settle_stdio.mpy"), str(REPO / "firmware" / "settle_stdio.py")],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stdout + p.stderr
    return d


def _mp_settle(stdio_dir, rules, data):
    env = dict(os.environ, MICROPYPATH="%s:%s" % (MPY_DIR, stdio_dir))
    p = subprocess.run([str(MICROPYTHON), "-X", "heapsize=" + MP_HEAP, "-m", "settle_stdio", "--rules", rules],
                       input=data, capture_output=True, cwd=MPY_DIR, env=env, timeout=300)
    assert p.returncode == 0, p.stderr
    return p.stdout.decode("utf-8").splitlines()


def _cp_settle(rules, data):
    p = subprocess.run([sys.executable, "-m", "host_tools", "settle", "--rules", rules], input=data,
                       capture_output=True, cwd=REPO, timeout=300)
    assert p.returncode == 0, p.stderr
    return p.stdout.decode("utf-8").splitlines()


def _corpus(path, lines):
    path.write_text("\n".join(lines) + "\n", encoding="utf-8")
    return path.read_bytes()


@pytest.mark.parametrize("rules", RULES)
def test_same_replies_for_random_valid_hands(rules, stdio_dir, tmp_path):
    rng = random.Random(SEEDS[rules])
    lines = []
    for i in range(200):
        req, _ = settlegen.random_request(rng, rules)
        req["id"] = i
        lines.append(json.dumps(req, ensure_ascii=False))
    data = _corpus(tmp_path / ("corpus_%s.jsonl" % rules), lines)
    cp = [json.loads(x) for x in _cp_settle(rules, data)]
    mp = [json.loads(x) for x in _mp_settle(stdio_dir, rules, data)]
    assert len(cp) == len(mp) == len(lines)
    assert all(r["ok"] for r in cp), [r for r in cp if not r["ok"]][:3]
    for line, a, b in zip(lines, cp, mp):
        assert a == b, (line, a, b)
    # the corpus is busy enough to mean something
    reasons = " ".join(t["reason"] for r in cp for t in r["transfers"])
    for w in {"sichuan": ("呼叫转移", "退税", "查大叫", "查花猪"), "guangdong": ("放杠", "horse hits", "wrecking the wall"),
              "mcr": ("错和", "诈和", "self-drawn")}[rules]:
        assert w in reasons


@pytest.mark.parametrize("rules", RULES)
def test_same_answers_for_broken_hands(rules, stdio_dir, tmp_path):
    """Broken events: the same ok / error code / event index on both, never "internal" (no out of
    memory either), one reply per line. Messages may word Python reprs differently."""
    rng = random.Random(SEEDS[rules] + 1)
    lines = []
    for i in range(150):
        req = settlegen.junk_request(rng, rules)
        req["id"] = i
        lines.append(json.dumps(req, ensure_ascii=False))
    lines += ["", "not json", "[]", "{}", '{"id": 1, "events": 5}', "[" * 200]
    data = _corpus(tmp_path / ("junk_%s.jsonl" % rules), lines)
    cp = [json.loads(x) for x in _cp_settle(rules, data)]
    mp = [json.loads(x) for x in _mp_settle(stdio_dir, rules, data)]
    assert len(cp) == len(mp) == len(lines)

    def key(r):
        if r["ok"]:
            return r
        e = r["error"]
        return (r["id"], e["code"], e.get("event"))

    for line, a, b in zip(lines, cp, mp):
        assert b.get("error", {}).get("code") != "internal", (line, b)
        assert key(a) == key(b), (line, a, b)


def test_busy_hands_bench_script_agrees_with_cpython():
    """bench/mp_settle.py (from source) settles its three busy hands as CPython does."""
    sys.path.insert(0, str(REPO))
    from bench.mp_settle import BUSY
    from rules_min.settle_request import handle_line

    p = subprocess.run(["make", "-s", "mpy"], cwd=REPO, capture_output=True, text=True, timeout=300)
    assert p.returncode == 0
    env = dict(os.environ, MICROPYPATH=str(MPY_DIR))
    p = subprocess.run([str(MICROPYTHON), "-X", "heapsize=256K", str(REPO / "bench" / "mp_settle.py"), "--n=3", "--reply"],
                       capture_output=True, text=True, cwd=MPY_DIR, env=env, timeout=120)
    assert p.returncode == 0, p.stdout + p.stderr
    got = {}
    for ln in p.stdout.splitlines():
        if ln.startswith("R "):
            _, rules, rep = ln.split(" ", 2)
            got[rules] = json.loads(rep)
        elif ln.startswith("T "):
            f = ln.split()
            assert int(f[2]) == 3 and 0 < int(f[4]) < 1000000 and int(f[6]) > 0
    assert set(got) == set(BUSY)
    for rules, line in BUSY.items():
        assert got[rules] == json.loads(handle_line(line, rules))
        assert got[rules]["ok"]


# what a table of each rule set must not load (settle.rule_set imports the table's own only)
_OTHERS = {"mcr": ("sichuan", "settle_sichuan", "guangdong", "settle_guangdong"),
           "sichuan": ("mcr", "mcr_table", "mcr_pay", "settle_mcr", "guangdong", "settle_guangdong"),
           "guangdong": ("mcr", "mcr_table", "mcr_pay", "settle_mcr", "sichuan", "settle_sichuan")}
_WINS = {"mcr": '{"win": 0, "from": 2, "hand": "[345m3]258m1488s369p7s"}',
         "sichuan": '{"win": 0, "from": 2, "hand": "123m456m789m11s234s"}',
         "guangdong": '{"win": 0, "hand": "123m456m789m11s234s", "horses": ["1m"]}'}


@pytest.mark.parametrize("rules", RULES)
def test_a_hand_loads_its_own_rule_set_only(rules, stdio_dir):
    """On the device's interpreter, from the .mpy files: a hand and one of its wins import the
    table's rule set (settle_<rules> and its scorer) and none of the others' modules."""
    script = ("import sys, json\nfrom rules_min.settle import Hand\nh = Hand(%r)\nh.event(0, json.loads(%r))\n"
              "print(h.deltas())\nprint(' '.join(sorted(m[10:] for m in sys.modules if m.startswith('rules_min.'))))"
              % (rules, _WINS[rules]))
    env = dict(os.environ, MICROPYPATH=str(MPY_DIR))
    p = subprocess.run([str(MICROPYTHON), "-X", "heapsize=" + MP_HEAP, "-c", script], capture_output=True,
                       text=True, cwd=MPY_DIR, env=env, timeout=60)
    assert p.returncode == 0, p.stdout + p.stderr
    deltas, mods = p.stdout.splitlines()
    assert deltas != "[0, 0, 0, 0]", p.stdout
    mods = mods.split()
    assert "settle_" + rules in mods and rules in mods, mods
    assert not [m for m in _OTHERS[rules] if m in mods], mods
