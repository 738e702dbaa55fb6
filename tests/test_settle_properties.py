"""Properties of the settle command (rules_min/settle_request.handle_line) over random VALID event
sequences for each rule set (tests/settlegen.py), and fuzzing with broken events and junk lines.

For every valid sequence and every prefix of it (any prefix of a hand's events settles):
  (a) the deltas sum to minus the deductions (transfers to nobody): zero-sum apart from them
  (b) Sichuan: a transfer new in prefix k+1 never has as payer a seat that won within the first
      k events (deductions aside): a player who has won pays nothing more (血战到底)
  (c) the same request settles to the identical reply line twice
  (d) it settles ok
  (e) the deltas are the sum over the transfers
  (f) the reply round-trips through json and has exactly the documented keys and types
Fuzz: broken events, fields and junk lines always get exactly one JSON reply line, never an
"internal" error, and a refused event is named by its index.
"""
import collections
import json
import random
import subprocess
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

import settlegen
from rules_min.settle_request import handle_line

REPO = Path(__file__).resolve().parents[1]
RULES = ("sichuan", "guangdong", "mcr")
REPLY_KEYS = {"id", "ok", "deltas", "transfers", "next_dealer", "flags"}
TRANSFER_KEYS = {"from", "to", "points", "reason"}
FLAG_KINDS = {"warning", "forfeit", "disqualified", "round_cancelled", "false_win", "false_declaration",
              "intentional_false_win", "barred"}
SETTINGS = settings(max_examples=600, deadline=None, derandomize=True,
                    suppress_health_check=[HealthCheck.too_slow])


def settle(req, rules, rid=1):
    line = json.dumps(dict(req, id=rid), ensure_ascii=False)
    return line, handle_line(line, rules)


def check_reply(text, rid, n_events):
    """(f) and (e) and (a) on one ok reply; returns the parsed reply."""
    assert "\n" not in text
    rep = json.loads(text)
    assert json.loads(json.dumps(rep, ensure_ascii=False)) == rep
    assert set(rep) == REPLY_KEYS, rep
    assert rep["id"] == rid and rep["ok"] is True
    d = rep["deltas"]
    assert isinstance(d, list) and len(d) == 4 and all(type(x) is int for x in d)
    assert rep["next_dealer"] is None or rep["next_dealer"] in range(4)
    sums = [0, 0, 0, 0]
    deducted = 0
    for t in rep["transfers"]:
        assert set(t) == TRANSFER_KEYS, t
        a, b, p = t["from"], t["to"], t["points"]
        assert type(p) is int and p > 0, t
        assert isinstance(t["reason"], str) and t["reason"]
        assert a in range(4), t          # a payment or a deduction always has a payer
        assert b is None or (b in range(4) and b != a), t
        sums[a] -= p
        if b is None:
            deducted += p
        else:
            sums[b] += p
    assert sums == d                      # (e)
    assert sum(d) == -deducted            # (a)
    for f in rep["flags"]:
        assert set(f) in ({"event", "seat", "kind"}, {"event", "seat", "kind", "penalty"},
                          {"event", "seat", "kind", "reason"}), f
        assert f["kind"] in FLAG_KINDS and f["seat"] in range(4) and 0 <= f["event"] < n_events, f
        assert ("penalty" in f) == (f["kind"] == "warning")
        assert ("reason" in f) == (f["kind"] == "barred")
    return rep


def check_sequence(req, info, rules):
    events = req["events"]
    prev = None
    won = set()        # seats that won within the events settled so far
    for k in range(len(events) + 1):
        sub = dict(req, events=events[:k])
        line, text = settle(sub, rules, rid=k)
        assert handle_line(line, rules) == text                           # (c)
        assert json.loads(text)["ok"] is True, (k, text, line)            # (d)
        rep = check_reply(text, k, k)
        cur = collections.Counter((t["from"], t["to"], t["points"], t["reason"]) for t in rep["transfers"])
        if rules == "sichuan" and prev is not None:
            # (b), a little stricter: the winner of event k-1 itself pays nothing new either
            for (a, b, p, why), n in (cur - prev).items():
                assert b is None or a not in won, (k, why, a, won, line)
            for s in won:      # so a seat that has won never loses points again, deductions aside
                pay = sum(t["points"] for t in rep["transfers"] if t["from"] == s and t["to"] is not None)
                assert pay <= prev_paid[s], (k, s, line)
        if k < len(events) and k in info["winners"]:
            won.add(info["winners"][k])
        prev = cur
        prev_paid = {s: sum(t["points"] for t in rep["transfers"] if t["from"] == s and t["to"] is not None)
                     for s in range(4)}
    # a hand that ended names the next dealer and takes no further event
    if info["ended"]:
        assert rep["next_dealer"] in range(4), line
        _, more = settle(dict(req, events=events + [{"time_out": True}]), rules)
        err = json.loads(more)["error"]
        assert err["code"] == "hand_over" and err["event"] == len(events), (line, more)
        check_dealer(req, info, rules, rep["next_dealer"])
    check_win_points(req, info, rules, rep)
    # the whole hand settles the same under another id
    _, again = settle(req, rules, rid="again")
    assert json.loads(again)["deltas"] == rep["deltas"]
    return rep


# hypothesis' own random (shrinks, but favours short sequences) or a seeded random.Random (long,
# busy sequences; a failure prints the request line)
RNGS = st.one_of(st.randoms(use_true_random=False), st.integers(0, 2 ** 64).map(random.Random))


def check_dealer(req, info, rules, nd):
    """docs/rules.md: MCR the deal passes on; Guangdong the winner deals, several winners the
    discarder, wall exhausted the dealer's right."""
    dealer, events = req["dealer"], req["events"]
    last = events[-1]
    if rules == "mcr" and ("win" in last or "wall_end" in last):
        assert nd == (dealer + 1) % 4
    if rules == "guangdong":
        wins = [e for e in events if "win" in e]
        if len(wins) == 1:
            assert nd == wins[0]["win"]
        elif wins:
            assert wins[0]["from"] is not None and nd == wins[0]["from"]
        elif "wall_end" in last:
            assert nd == (dealer + 1) % 4


def check_win_points(req, info, rules, rep):
    """The points of every win transfer against docs/rules.md: Sichuan 10 x 2^fans with fans capped at 3;
    MCR 8 from each loser plus the fans from the discarder (or from all three when self-drawn)."""
    for t in rep["transfers"]:
        why = t["reason"]
        if not why.startswith("win "):
            continue
        if rules == "sichuan":
            fans = int(why.split()[1])
            assert 0 <= fans <= 3 and t["points"] == 10 << fans, t
        elif rules == "mcr":
            fans = int(why.split()[1])
            (win,) = [e for e in req["events"] if "win" in e]
            src = win.get("from")
            assert t["to"] == win["win"]
            assert t["points"] == 8 + (fans if src is None or t["from"] == src else 0), t
        else:
            mult = int(why.split()[2].split(",")[0][1:])
            hits = int(why.split(", ")[1].split()[0]) if "horse hits" in why else 0
            factor = (1 + hits) if req.get("options", {}).get("horse_add") else 2 ** hits
            assert t["points"] == 2 * mult * factor * (3 if "承包" in why else 1), t


@pytest.mark.parametrize("rules", RULES)
@SETTINGS
@given(rng=RNGS)
def test_valid_sequences_settle_with_the_properties(rules, rng):
    req, info = settlegen.random_request(rng, rules)
    check_sequence(req, info, rules)


@pytest.mark.parametrize("rules", RULES)
def test_generator_reaches_the_interesting_cases(rules):
    """The properties are only as good as the sequences: make sure the busy cases do occur."""
    rng = random.Random(20260511)
    seen = collections.Counter()
    for _ in range(400):
        req, info = settlegen.random_request(rng, rules)
        rep = json.loads(settle(req, rules)[1])
        assert rep["ok"], (req, rep)
        for t in rep["transfers"]:
            seen[t["reason"]] += 1
        for f in rep["flags"]:
            seen["flag " + f["kind"]] += 1
        seen["winners %d" % len(info["winners"])] += 1
        ev = req["events"]
        for a, b in zip(ev, ev[1:]):
            if "win" in a and "win" in b and a.get("from") is not None and a.get("from") == b.get("from"):
                seen["same discard"] += 1
                if a.get("kong") and b.get("kong"):
                    seen["robbed by two"] += 1
        for e in ev:
            if "win" in e and e.get("kong"):
                seen["kong flag " + ("self-drawn" if e.get("from") is None else "robbing")] += 1
    text = " | ".join(seen)
    want = {
        "sichuan": ["呼叫转移", "退税", "查大叫", "查花猪", "下雨", "刮风", "winners 3", "same discard",
                    "robbed by two", "kong flag self-drawn", "kong flag robbing", "tier 2", "flag false_win",
                    "flag barred", "barred: "],
        "guangdong": ["承包", "放杠", "horse hits", "same discard", "robbed by two", "kong flag self-drawn",
                      "wrecking the wall", "#2", "flag warning", "winners 2", "false win",
                      "exposing another's tiles", "flag barred"],
        "mcr": ["错和", "诈和", "self-drawn", "kong flag robbing", "kong flag self-drawn", "late",
                "flag false_declaration", "flag forfeit", "#2", "exposing another's tiles", "illegal information",
                "flag barred"],
    }[rules]
    for w in want:
        assert w in text, (w, sorted(seen))


# ------------------------------------------------------------------ fuzz

def _one_reply(line, rules):
    text = handle_line(line, rules)
    assert isinstance(text, str) and "\n" not in text
    rep = json.loads(text)
    assert rep["ok"] in (True, False)
    if rep["ok"]:
        assert set(rep) == REPLY_KEYS
    else:
        assert set(rep) == {"id", "ok", "error"}, rep
        err = rep["error"]
        assert err["code"] != "internal", (line, rep)
        assert isinstance(err["message"], str) and err["message"]
    return rep


@pytest.mark.parametrize("rules", RULES)
@settings(max_examples=500, deadline=None, derandomize=True, suppress_health_check=[HealthCheck.too_slow])
@given(rng=st.randoms(use_true_random=False))
def test_junk_events_never_break_the_command(rules, rng):
    req = settlegen.junk_request(rng, rules)
    req["id"] = 5
    line = json.dumps(req, ensure_ascii=False)
    rep = _one_reply(line, rules)
    assert rep["id"] == 5
    if not rep["ok"]:
        ev = req.get("events")
        i = rep["error"].get("event")
        if i is not None:
            # the named event is one of the hand's, and the events before it settle ok
            assert isinstance(ev, list) and 0 <= i < len(ev)
            before = _one_reply(json.dumps(dict(req, events=ev[:i]), ensure_ascii=False), rules)
            assert before["ok"], (line, rep, before)
        else:
            assert set(rep["error"]) == {"code", "message"}
    else:
        check_reply(handle_line(line, rules), 5, len(req["events"]))


JSON_VALUES = st.recursive(
    st.none() | st.booleans() | st.integers(-10, 10) | st.integers() | st.floats(allow_nan=False)
    | st.text(max_size=8) | st.sampled_from(["win", "kong", "declare", "penalty", "1m", "E", "concealed"]),
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(
        st.sampled_from(list(settlegen.EVENT_KEYS) + ["id", "events", "dealer", "options"]), inner, max_size=5),
    max_leaves=12)


@pytest.mark.parametrize("rules", RULES)
@settings(max_examples=200, deadline=None, derandomize=True)
@given(events=st.lists(JSON_VALUES, max_size=6), dealer=JSON_VALUES, wind=JSON_VALUES)
def test_arbitrary_json_events_never_break_the_command(rules, events, dealer, wind):
    req = {"id": "x", "events": events, "dealer": dealer, "prevalent_wind": wind}
    rep = _one_reply(json.dumps(req), rules)
    assert rep["id"] == "x"


OPTIONS = st.dictionaries(st.sampled_from(["gen", "horse_add", "hand_table", "x"]), JSON_VALUES, max_size=3) | st.fixed_dictionaries(
    {"hand_table": st.lists(st.lists(JSON_VALUES | st.sampled_from(["鸡和", "清一色", "七对", "x"]), max_size=4)
                            | st.tuples(st.sampled_from(["鸡和", "清一色", "碰碰和", "x"]), st.text(max_size=3),
                                        st.integers(-2, 10) | JSON_VALUES).map(list), max_size=4)})


@pytest.mark.parametrize("rules", RULES)
@settings(max_examples=200, deadline=None, derandomize=True)
@given(seed=st.integers(0, 2 ** 32), options=OPTIONS)
def test_junk_options_never_break_the_command(rules, seed, options):
    """Options are configuration typed by hand (docs/rules.md: the Guangdong table is configuration)."""
    for _ in range(3):
        req, _ = settlegen.random_request(random.Random(seed), rules)
        if any("win" in e or "hand" in e for e in req["events"]):
            break
        seed += 1
    req.update(id=3, options=options)
    rep = _one_reply(json.dumps(req, ensure_ascii=False), rules)
    assert rep["id"] == 3


@pytest.mark.parametrize("rules", RULES)
@settings(max_examples=200, deadline=None, derandomize=True)
@given(line=st.text(max_size=300) | st.binary(max_size=200).map(lambda b: b.decode("latin-1")))
def test_junk_lines_get_one_reply(rules, line):
    _one_reply(line, rules)


def test_junk_lines_through_the_command():
    """The settle command itself: one reply line per input line, in order, ids kept."""
    rng = random.Random(9)
    lines = []
    for i in range(150):
        rules = "sichuan"
        r = rng.random()
        if r < 0.5:
            req = settlegen.junk_request(rng, rules)
        else:
            req, _ = settlegen.random_request(rng, rules)
        req["id"] = i
        s = json.dumps(req, ensure_ascii=False)
        if r > 0.9:
            s = s[:rng.randrange(len(s))]          # truncated
        lines.append(s)
    lines += ["", "[" * 3000, "{}", '{"id": 1, "events": %s}' % json.dumps([{"time_out": True}] * 201),
              '{"id": 2, "events": [], "x": "%s"}' % ("y" * 20000)]
    data = ("\n".join(lines) + "\n").encode("utf-8") + b"\xff\xfe not utf-8\n"
    p = subprocess.run([sys.executable, "-m", "host_tools", "settle", "--rules", "sichuan"], input=data,
                       capture_output=True, cwd=REPO, timeout=120)
    assert p.returncode == 0, p.stderr
    out = p.stdout.decode("utf-8").splitlines()
    assert len(out) == len(lines) + 1
    for line, text in zip(lines, out):
        rep = json.loads(text)
        assert rep.get("error", {}).get("code") != "internal", (line, text)
        try:
            req = json.loads(line)
        except Exception:   # not JSON (RecursionError for the deep nesting)
            continue
        if isinstance(req, dict) and len(line) <= 16384:
            assert rep["id"] == req.get("id")
