# Power cuts through the app and the device loop on the emulated Pico: the shipped 16-hand MCR
# session (simulator/scenarios/mcr_session.txt) played by key presses and tag taps on the board's
# main.py (frozen UF2), the power cut at a flash erase or program call (the flash stays as it was
# at that instant), the box powered on again from that flash. After each cut:
#   * the journal on flash is a prefix of the uncut run's records, with every record of the
#     inputs finished before the one that was being processed, and nothing beyond what that input
#     writes (the records of one key can be two: a session's last hand and its end);
#   * the box resumes where the table was: its first screen after the reboot is the screen the
#     same App shows on the desktop resumed from the same journal (hand number, dealer, scores).
# The session is played hand by hand: each hand starts from the flash the previous hand left
# (the box switched off between hands, then its clock set again by the host), so a cut in hand h
# replays only hand h. A sample of cut points runs by default (the first write of each kind a
# hand makes, in a few hands); PICO_FULL_SWEEP=1 cuts at every flash mutation of every hand.
import os
import shutil
import tempfile

import pytest

from pico import fsimage
from pico.harness import Pico
from pico.player import ChipPlayer, PlayError

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
UF2 = os.path.join(REPO, "build", "pico-uf2", "firmware.uf2")
FS = os.path.join(REPO, "build", "pico", "fs")
SCENARIO = os.path.join(REPO, "simulator", "scenarios", "mcr_session.txt")
FULL = bool(os.environ.get("PICO_FULL_SWEEP"))
SAMPLE_HANDS = (1, 9, 10, 16)  # the first, the one with the power cut line, the correction, the last


def segments():
    """[lines before hand 1, lines of hand 1, ..., of hand 16]."""
    out = [[]]
    with open(SCENARIO) as f:
        for ln in f:
            if ln.startswith("# hand "):
                out.append([])
            out[-1].append(ln)
    return out


def records(journal_files):
    from firmware.journal import Journal
    with tempfile.TemporaryDirectory(dir=os.path.join(REPO, "build")) as d:
        for n, data in journal_files.items():
            with open(os.path.join(d, n), "wb") as f:
                f.write(data)
        j = Journal(d)
        try:
            assert j.corrupt is None, j.corrupt
            return [bytes(p) for _, p in j.records(1)]
        finally:
            j.close()


def resumed_glass(journal_files):
    """What the App shows on the desktop when it boots on this journal, drawn as on the board
    (a moment after the boot: the session's clock has started)."""
    from firmware.app import App
    from firmware.journal import Journal
    from firmware.render import Renderer
    from simulator import framebuf_compat as framebuf
    with tempfile.TemporaryDirectory(dir=os.path.join(REPO, "build")) as d:
        for n, data in journal_files.items():
            with open(os.path.join(d, n), "wb") as f:
                f.write(data)
        ticks = [1000]

        def clock():
            ticks[0] += 500
            return ticks[0]
        app = App(Journal(d), clock, device_id="box-000000")
        buf = bytearray(1024)
        Renderer(128, 64).draw(framebuf.FrameBuffer(buf, 128, 64, framebuf.MONO_VLSB), app.screen(), 0)
        app.j.close()
        return bytes(buf)


class Hand:
    """One segment of the session on the chip, from the flash the one before left."""

    def __init__(self, p, lines, flash=None, files=None):
        from simulator.runner import Script
        self.p = p
        self.pl = ChipPlayer(p, files=files, flash=flash)
        sc = Script(self.pl.keymap, self.pl.ncols)
        self.start = sc.start()  # power on, the host sets the clock
        self.events = [ev for ln in lines for ev in sc.line(ln)]

    def boot(self):
        self.pl.play(self.start)
        return self.p.stats()["flash_ops"]

    def play(self, on_event=None):
        for ev in self.events:
            self.pl.play([ev])
            if on_event is not None:
                on_event(ev)
        self.pl.run_to(self.events[-1][0] + 1000)


def journal_now(p):
    files = fsimage.read(p.flash())
    return {k[8:]: v for k, v in files.items() if k.startswith("journal/")}


@pytest.fixture(scope="module")
def reference(node_ready):
    """The uncut session, hand by hand: for each hand the flash it starts from, its flash ops
    (relative to the boot), and (ops done, records on flash) at each input that wrote."""
    if not os.path.exists(UF2):
        pytest.fail("no frozen UF2 at %s: `make pico-uf2` builds it (make pico-test does)" % UF2)
    with open(os.path.join(FS, "main.py"), "rb") as f:
        files = {"main.py": f.read()}
    out = []
    flash = None
    with Pico(uf2=UF2, elf=UF2[:-4] + ".elf", flash_timing=False) as p:
        for i, lines in enumerate(segments()):
            h = Hand(p, lines, flash=flash, files=files if flash is None else None)
            base = h.boot()
            points = [(0, len(records(journal_now(p))))]
            seen = [base]

            def on_event(ev):
                ops = p.stats()["flash_ops"]
                if ops != seen[0]:
                    seen[0] = ops
                    points.append((ops - base, len(records(journal_now(p)))))
            h.play(on_event)
            ops = p.stats()["flash_ops"] - base
            out.append({"flash": flash, "ops": ops, "points": points, "base": base})
            flash = p.flash()
        final = records(journal_now(p))
    return out, final


def bounds(points, k):
    """(fewest, most) records on flash after a cut at op k: all of the inputs done before the
    op's input, at most what that input writes."""
    lo = hi = points[0][1]
    for ops, n in points:
        if ops <= k:
            lo = n
        else:
            hi = n
            break
    else:
        hi = lo
    return lo, max(lo, hi)


def cut_points(ref, hand):
    ops = ref[hand]["ops"]
    if FULL:
        return list(range(ops))
    if hand not in SAMPLE_HANDS or not ops:
        return []
    return sorted({0, ops // 2, ops - 1})


def test_the_uncut_session_matches_the_desktop(reference):
    """The hand-by-hand session on the chip keeps every record of the desktop's session (the
    times differ: the box is switched off between hands and its clock set again)."""
    import json
    from simulator.runner import Sim
    ref, final = reference
    with tempfile.TemporaryDirectory(dir=os.path.join(REPO, "build")) as d:
        sim = Sim(folder=d)
        sim.run(SCENARIO)
        desk = [bytes(p) for _, p in sim.journal.records(1)]
        sim.journal.close()

    def untimed(recs):
        out = []
        for r in recs:
            o = json.loads(r[1:].decode())
            o.pop("time", None)
            out.append(o)
        return out
    assert len(final) == len(desk) == 19
    assert untimed(final) == untimed(desk)
    assert sum(h["ops"] for h in ref) > 16  # every hand wrote


@pytest.mark.parametrize("hand", range(17))
def test_power_cut_in_hand(reference, hand):
    ref, final = reference
    cuts = cut_points(ref, hand)
    if not cuts:
        return  # this hand is in the full sweep only (PICO_FULL_SWEEP=1)
    seg = segments()[hand]
    h0 = ref[hand]
    with open(os.path.join(FS, "main.py"), "rb") as f:
        files = {"main.py": f.read()}
    before = len(records_of_flash(h0["flash"])) if h0["flash"] is not None else 0
    with Pico(uf2=UF2, elf=UF2[:-4] + ".elf", flash_timing=False) as p:
        for k in cuts:
            h = Hand(p, seg, flash=h0["flash"], files=files if h0["flash"] is None else None)
            base = h.boot()
            assert base == h0["base"]
            p.cut_at(base + k)
            with pytest.raises(PlayError, match="stopped"):
                h.play()
            assert p.cut is not None and p.cut["index"] == base + k
            p.cut_at(-1)
            p.boot(keep=True)
            p.run(1500)
            journal = journal_now(p)
            got = records(journal)
            lo, hi = bounds(h0["points"], k)
            assert lo <= len(got) <= hi, (hand, k, len(got), lo, hi)
            assert got == final[:len(got)], (hand, k)
            assert len(got) >= before
            assert p.glass() == resumed_glass(journal), (hand, k, len(got))


def records_of_flash(flash):
    files = fsimage.read(flash)
    return records({k[8:]: v for k, v in files.items() if k.startswith("journal/")})
