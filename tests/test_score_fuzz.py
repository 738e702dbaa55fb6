"""Fuzz the score command, on CPython and on the MicroPython unix port: mangled hands, broken
JSON, wrong types, binary junk. Every input line must get exactly one JSON reply, in order, and
the process must keep serving."""
import json
import os
import random
import subprocess
import sys
from pathlib import Path

import handgen

REPO = Path(__file__).resolve().parents[1]
ALPHABET = "123456789mspESWNCFPabcdefgh[],0 x\\\"{}:"


def _mangle(rng, hand):
    h = list(hand)
    for _ in range(rng.randint(1, 4)):
        op = rng.random()
        i = rng.randrange(len(h) + 1)
        if op < 0.35 and h:
            del h[min(i, len(h) - 1)]
        elif op < 0.7:
            h.insert(i, rng.choice(ALPHABET))
        elif h:
            h[min(i, len(h) - 1)] = rng.choice(ALPHABET)
    return "".join(h)


def _lines(seed, n):
    rng = random.Random(seed)
    out = []
    for i in range(n):
        req = handgen.random_win(rng)
        req["id"] = i
        kind = rng.random()
        if kind < 0.45:
            req["hand"] = _mangle(rng, req["hand"])
            out.append(json.dumps(req, ensure_ascii=False))
        elif kind < 0.55:
            key = rng.choice(["hand", "self_drawn", "seat_wind", "flowers", "winner", "discarder", "kong"])
            req[key] = rng.choice([None, 3.5, -1, 99, "", [], {}, True, "E", "x" * 50])
            out.append(json.dumps(req))
        elif kind < 0.65:
            s = json.dumps(req)
            cut = rng.randrange(len(s))
            out.append(s[:cut])                        # truncated JSON
        elif kind < 0.7:
            out.append("".join(chr(rng.randrange(1, 0x3000)) for _ in range(rng.randrange(40))).replace("\n", " "))
        elif kind < 0.73:
            out.append("[" * 500 + "]" * 500)           # deep nesting
        elif kind < 0.75:
            out.append('{"id": %d, "hand": "%s"}' % (i, "123m" * 1000))   # oversized
        else:
            out.append(json.dumps(req, ensure_ascii=False))
    return out


def _check(lines, stdout):
    replies = stdout.splitlines()
    assert len(replies) == len(lines)
    ok = 0
    for line, rep in zip(lines, replies):
        r = json.loads(rep)
        assert r["ok"] in (True, False)
        if r["ok"]:
            ok += 1
            assert r["total"] >= 8 or r["meets_minimum"] is False
        else:
            assert r["error"]["code"] != "internal", (line, r)
            assert r["error"]["message"]
        if len(line) > 2048:   # refused unread, to spare the device's heap
            assert r["id"] is None and r["error"]["code"] == "bad_request"
            continue
        try:
            req = json.loads(line)
        except ValueError:
            continue
        if isinstance(req, dict):
            assert r["id"] == req.get("id")
    return ok


def test_cpython_score_command_survives_fuzz():
    lines = _lines(1, 3000)
    data = ("\n".join(lines) + "\n").encode("utf-8") + b"\xff\xfe broken utf8\n\n"
    p = subprocess.run([sys.executable, "-m", "host_tools", "score", "--rules", "mcr"], input=data,
                       capture_output=True, cwd=REPO, timeout=300)
    assert p.returncode == 0, p.stderr
    out = p.stdout.decode("utf-8")
    ok = _check(lines, "\n".join(out.splitlines()[:len(lines)]))
    assert len(out.splitlines()) == len(lines) + 2   # the junk bytes and the blank line too
    assert 200 < ok < len(lines)   # both kinds of reply were exercised


def test_micropython_score_command_survives_fuzz():
    lines = _lines(2, 600)
    env = dict(os.environ)
    p = subprocess.run(["make", "-s", "mp-score", "HEAP=96K"], input=("\n".join(lines) + "\n").encode("utf-8"),
                       capture_output=True, cwd=REPO, timeout=600, env=env)
    assert p.returncode == 0, p.stderr
    ok = _check(lines, p.stdout.decode("utf-8"))
    assert ok > 50


def test_same_answers_on_both_interpreters():
    rng = random.Random(3)
    lines = []
    for i in range(300):
        req = handgen.random_win(rng)
        req["id"] = i
        lines.append(json.dumps(req))
    data = ("\n".join(lines) + "\n").encode()
    cp = subprocess.run([sys.executable, "-m", "host_tools", "score"], input=data, capture_output=True,
                        cwd=REPO, timeout=120)
    mp = subprocess.run(["make", "-s", "mp-score", "HEAP=96K"], input=data, capture_output=True, cwd=REPO,
                        timeout=600)
    assert [json.loads(x) for x in cp.stdout.splitlines()] == [json.loads(x) for x in mp.stdout.splitlines()]
