"""Table flow: key presses, tile taps and seconds per common hand at the box.

    .venv/bin/python bench/table_flow.py [--json build/bench/table_flow.json]   (part of `make bench`)

Each hand below is a scenario fragment (the line syntax of simulator/scenarios/) played on a
fresh session through the firmware application. The hand must end as written (its record's
deltas are checked), so a count is always that of a key path that works. Counted:
  keys     key presses of the hand, the seats' confirmations not included (nor the digits of a
           number the hand needs, such as minutes late: they are in the seconds)
  confirm  the seats' confirmation keys (one per seat that must agree)
  taps     tag reads: the tiles of the hand, flowers and horses included
  scripted seconds on the simulator's scripted clock (simulator/runner.py: a key 250 ms, a tap
           500 ms), the hand played through firmware/main.py's device loop
  table    seconds for a person at the table who knows the path and reads the screen as they go:
           KEY_S per key press (confirmations too) plus TAP_S per tap (assumptions, the same for
           every path: they make "before" and "after" comparable)
Goals (issue 11): a discard win or self-draw with no melds <= 4 keys besides the tiles; each
claimed meld <= 2 keys besides its tiles; a kong or a penalty <= 4 keys; undo one key. Issue 13's
paths: a penalty naming who was wronged, or barring the player (停和陪打), <= 5; a win flag 3
keys more (D, the flag, D), 杠上开花 one more (was the replacement a flower?).
"""
import argparse
import json
import os
import sys
import tempfile

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, ROOT)

KEY_S = 0.6
TAP_S = 1.0
# A hand swept over the reader (issue 21): the tiles one after another, each 150-200 ms in the
# field, one every SWEEP_PITCH_S; the box reads them all (bench/pico_glass.py measures it on the
# emulated chip: every tile read once, the last one ~2.2 s after the first entered). The sweep
# takes as long as the hand's motion: 13 pitches and the last tile's dwell.
SWEEP_PITCH_S = 0.17
SWEEP_DWELL_S = 0.2

MCR = '{"rules": "mcr", "tournament": "T", "session": 1, "table": 1, "players": ["11", "12", "13", "14"], "first_dealer": 0}'
SC = '{"rules": "sichuan", "tournament": "T", "session": 1, "table": 1, "players": ["21", "22", "23", "24"], "first_dealer": 0}'
GD = '{"rules": "guangdong", "tournament": "T", "session": 1, "table": 1, "players": ["31", "32", "33", "34"], "first_dealer": 0}'

# name, config, lines (kind, text), goal for keys, what the box must hold after the lines:
# (records added to the journal, events of the hand still open).
HANDS = [
    ("MCR discard win, no melds", MCR, [
        ("keys", "A13"),
        ("tap", "1s 3s 4s 4s 5s 5s 5s 6s 6s 6s 7s 7s 7s 2s"),
        ("confirm", "1234"),
    ], 4, (1, 0)),
    ("MCR self-draw, no melds", MCR, [
        ("keys", "A10"),
        ("tap", "1s 3s 4s 4s 5s 5s 5s 6s 6s 6s 7s 7s 7s 2s"),
        ("confirm", "1234"),
    ], 4, (1, 0)),
    ("MCR discard win, two claimed melds", MCR, [
        ("keys", "A32"),
        ("tap", "1m 2m 3m"),
        ("keys", "#"),
        ("tap", "E E E"),
        ("keys", "#"),
        ("tap", "4m 5m 6m 7m 8m 9m 5p 5p"),
        ("confirm", "1234"),
    ], 4 + 2 * 2, (1, 0)),
    ("MCR self-draw with two flowers", MCR, [
        ("keys", "A10"),
        ("tap", "a b"),
        ("tap", "1s 3s 4s 4s 5s 5s 5s 6s 6s 6s 7s 7s 7s 2s"),
        ("confirm", "1234"),
    ], 4, (1, 0)),
    ("Sichuan discard win", SC, [
        ("keys", "A13"),
        ("tap", "1m 2m 3m 4m 5m 6m 7m 8m 9m 1s 1s 2s 3s 4s"),
        ("confirm", "1234"),
    ], 4, (0, 1)),
    ("Sichuan win on the discard after a kong", SC, [
        ("setup", "B30#"),
        ("keys", "A131"),
        ("tap", "1m 2m 3m 4m 5m 6m 7m 8m 9m 1s 1s 2s 3s 4s"),
        ("confirm", "1234"),
    ], 4, (0, 2)),
    ("Sichuan concealed kong", SC, [
        ("keys", "B20#"),
    ], 4, (0, 1)),
    ("Sichuan direct kong", SC, [
        ("keys", "B32#"),
    ], 4, (0, 1)),
    ("Guangdong self-draw, two horses", GD, [
        ("keys", "A10"),
        ("tap", "1m 2m 3m 4m 5m 6m 7m 8m 9m 1s 1s 2s 3s 4s"),
        ("tap", "1m E"),
        ("confirm", "1234"),
    ], 4, (1, 0)),
    ("Guangdong discard win", GD, [
        ("keys", "A13"),
        ("tap", "1m 2m 3m 4m 5m 6m 7m 8m 9m 1s 1s 2s 3s 4s"),
        ("confirm", "1234"),
        ("keys", "#"),
    ], 4, (1, 0)),
    ("MCR penalty (empty call)", MCR, [
        ("keys", "C11#"),
    ], 4, (0, 1)),
    ("MCR late arrival, 12 minutes", MCR, [
        ("keys", "C24"),
        ("digits", "12"),
        ("keys", "#"),
    ], 4, (0, 1)),
    # issue 13: a penalty that names who was wronged, or bars the player, takes one key more
    ("MCR exposed tiles, 30 to the victim", MCR, [
        ("keys", "C354"),
        ("digits", "30"),
        ("keys", "#"),
    ], 5, (0, 1)),
    ("MCR illegal information, barred", MCR, [
        ("keys", "C161#"),
    ], 5, (0, 1)),
    ("MCR barred (wrong call)", MCR, [
        ("keys", "C271#"),
    ], 5, (0, 1)),
    ("Guangdong non-standard call (ladder)", GD, [
        ("keys", "C12#"),
    ], 4, (0, 1)),
    # a flag is D, its key, D on the result (3 keys beyond the win's 4)
    ("MCR win on a misnamed discard", MCR, [
        ("keys", "A13"),
        ("tap", "1s 3s 4s 4s 5s 5s 5s 6s 6s 6s 7s 7s 7s 2s"),
        ("keys", "D6D"),
        ("confirm", "1234"),
    ], 4 + 3, (1, 0)),
    # 杠上开花 claimed: one more key says whether the replacement was a flower
    ("MCR win on a kong drawing a flower", MCR, [
        ("setup", "B10#"),
        ("keys", "A10"),
        ("tap", "1s 1s 1s 1s"),
        ("keys", "#0"),
        ("tap", "2s 3s 4s 5s 5s 5s 6s 6s 6s 7s 7s"),
        ("keys", "D31D"),
        ("confirm", "1234"),
    ], 4 + 2 + 4, (1, 0)),
    ("undo the last event", MCR, [
        ("keys", "C11#"),
        ("undo", "*"),
    ], 1, (0, 0)),
    # the first hand again, its 14 tiles swept over the reader in one motion instead of tapped
    ("MCR discard win, tiles swept", MCR, [
        ("keys", "A13"),
        ("sweep", "1s 3s 4s 4s 5s 5s 5s 6s 6s 6s 7s 7s 7s 2s"),
        ("confirm", "1234"),
    ], 4, (1, 0)),
]


def play(config, lines):
    from firmware.journal import Journal
    from simulator.runner import Sim
    with tempfile.TemporaryDirectory() as d:
        sim = Sim(lambda: Journal(os.path.join(d, "j")))
        sim.line("config " + config)
        n0 = sim.journal.last_seq
        t0 = None
        n = {"keys": 0, "confirm": 0, "taps": 0, "undo": 0, "digits": 0, "swept": 0}
        for kind, text in lines:
            if t0 is None and kind != "setup":
                t0 = getattr(sim, "now", 0)
            if kind == "tap":
                sim.line("tap " + text)
                n["taps"] += len(text.split())
            elif kind == "sweep":
                sim.line("tap " + text)  # the same reads, one motion
                n["swept"] = len(text.split())
            else:
                sim.line("keys " + text)
                if kind != "setup":   # a step before the hand: not counted
                    n[kind] += len(text.replace(" ", ""))
        committed = sim.journal.last_seq - n0
        n["scripted_ms"] = getattr(sim, "now", 0) - (t0 or 0)
        open_events = len(sim.app.events)
        msg = sim.app.msg
        state = sim.app.state
    return n, committed, open_events, state, msg


def measure():
    rows = []
    for name, cfg, lines, goal, want in HANDS:
        n, committed, open_events, state, msg = play(cfg, lines)
        ok = (committed, open_events) == want
        keys = n["undo"] if n["undo"] else n["keys"]
        presses = n["keys"] + n["confirm"] + n["undo"] + n["digits"]
        sweep_s = (n["swept"] - 1) * SWEEP_PITCH_S + SWEEP_DWELL_S if n["swept"] else 0.0
        rows.append({
            "hand": name, "keys": keys, "confirm": n["confirm"], "taps": n["taps"] + n["swept"], "digits": n["digits"],
            "swept": n["swept"],
            "seconds": round(presses * KEY_S + n["taps"] * TAP_S + sweep_s, 1), "scripted_s": n["scripted_ms"] / 1000,
            "goal_keys": goal,
            "met": keys <= goal, "played": ok, "committed": committed, "open_events": open_events, "state": state,
            "message": msg,
        })
    return rows


def report(rows):
    out = ["table flow: keys besides the tiles and the seats' confirmations; scripted seconds on the",
           "simulator's clock; table seconds at KEY_S %.1f s a key, TAP_S %.1f s a tap, a swept hand %.2f s a tile"
           " (the motion: %.2f s pitch)" % (KEY_S, TAP_S, SWEEP_PITCH_S, SWEEP_PITCH_S),
           "%-40s %5s %5s %5s %8s %6s  %s" % ("hand", "keys", "conf", "taps", "scripted", "table", "goal")]
    for r in rows:
        out.append("%-40s %5d %5d %5d %8.2f %6.1f  <= %d %s" % (
            r["hand"], r["keys"], r["confirm"], r["taps"], r["scripted_s"], r["seconds"], r["goal_keys"],
            "met" if r["met"] else "NOT MET"))
    return "\n".join(out)


def main(argv=None):
    ap = argparse.ArgumentParser(prog="bench/table_flow.py")
    ap.add_argument("--json", help="also write the figures here")
    args = ap.parse_args(argv)
    rows = measure()
    print(report(rows))
    bad = [r for r in rows if not r["played"]]
    for r in bad:
        print("  hand %r did not play as written: %d records, %d open events, on %s (%s)" % (
            r["hand"], r["committed"], r["open_events"], r["state"], r["message"]))
    if args.json:
        os.makedirs(os.path.dirname(os.path.abspath(args.json)), exist_ok=True)
        with open(args.json, "w") as f:
            json.dump(rows, f, indent=1, ensure_ascii=False)
    return 1 if bad else 0


if __name__ == "__main__":
    sys.exit(main())
