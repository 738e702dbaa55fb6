# Power cuts in a multi-hand session through the app and the device loop on the emulated Pico:
# the opening hands of the shipped MCR session (simulator/scenarios/mcr_session.txt: its config and
# its first HANDS hands) played by key presses and tag taps on the board's main.py (frozen UF2),
# once, uncut, with every flash erase and program kept. The emulator is deterministic, so a power
# cut at the k-th flash mutation leaves exactly the uncut run's flash before that call; the box is
# powered on again from that flash (the cut itself is tested in tests/pico/test_powercut.py:
# p.cut_at stops the chip there). After each cut:
#   * the journal opens clean and is a prefix of the uncut run's records;
#   * nothing acknowledged on screen is lost: it holds at least the records the desktop
#     simulator had committed when the player last saw a screen before the cut, and at most those
#     of the input that was being processed;
#   * the box resumes where the table was: its screen after the reboot is the one the same App
#     shows on the desktop when it boots on that journal.
# And in the uncut run, at every screen the player sees, the flash holds exactly the desktop's
# records of that moment. By default every flash mutation of the first HANDS hands is cut at;
# PICO_FULL=1 takes PICO_FULL_HANDS (default 16: the whole session).
import os
import tempfile

import pytest

from pico import fsimage
from pico.harness import Pico, apply_flash_ops

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
UF2 = os.path.join(REPO, "build", "pico-uf2", "firmware.uf2")
FS = os.path.join(REPO, "build", "pico", "fs")
SCENARIO = os.path.join(REPO, "simulator", "scenarios", "mcr_session.txt")
HANDS = int(os.environ.get("PICO_FULL_HANDS", "16")) if os.environ.get("PICO_FULL") else 2
REBOOT_MS = 1500  # the frozen box is on its first screen by then


def session_lines(hands):
    """The scenario's lines up to the end of hand `hands`."""
    out = []
    with open(SCENARIO) as f:
        for ln in f:
            if ln.startswith("# hand ") and int(ln.split()[2]) > hands:
                break
            out.append(ln)
    return out


def journal_records(files):
    """The records of the journal in a littlefs file tree {path: bytes}."""
    from firmware.journal import Journal
    with tempfile.TemporaryDirectory(dir=os.path.join(REPO, "build")) as d:
        for n, data in files.items():
            if n.startswith("journal/"):
                with open(os.path.join(d, n[8:]), "wb") as f:
                    f.write(data)
        j = Journal(d)
        try:
            assert j.corrupt is None, j.corrupt
            return [bytes(p) for _, p in j.records(1)]
        finally:
            j.close()


def resumed_glass(records):
    """What the App shows on the desktop when it boots on a journal of these records, drawn as
    on the board: a moment after the boot, and a moment after the App resumed the session (its
    clock starts there: the title's minutes left read 119 of 120 once any time has passed)."""
    from firmware.app import App
    from firmware.journal import Journal
    from firmware.ui.render import Renderer
    from simulator import framebuf_compat as framebuf
    with tempfile.TemporaryDirectory(dir=os.path.join(REPO, "build")) as d:
        j = Journal(d)
        for r in records:
            j.append(r)
        j.close()
        ticks = [REBOOT_MS // 2]

        def clock():
            ticks[0] += 1
            return ticks[0]
        app = App(Journal(d), clock, device_id="box-000000")
        buf = bytearray(1024)
        Renderer(128, 64).draw(framebuf.FrameBuffer(buf, 128, 64, framebuf.MONO_VLSB), app.screen(), 0)
        app.j.close()
        return bytes(buf)


def desktop(lines):
    """The desktop simulator's records (in order) and the number committed at each shot."""
    from simulator import parts
    from simulator.runner import Sim
    with tempfile.TemporaryDirectory(dir=os.path.join(REPO, "build")) as d:
        at_shot = []
        box = []
        sim = Sim(cfg=parts.for_board("pico"), folder=d,
                  on_screen=lambda n, what, s: at_shot.append(sum(1 for _ in box[0].journal.records(1))))
        box.append(sim)
        for ln in lines:
            sim.line(ln)
        recs = [bytes(p) for _, p in sim.journal.records(1)]
        sim.journal.close()
        return recs, at_shot


# the W25Q16JV's typical erase/program times; PICO_FULL=1 also its maximum ones (sector erase
# 400 ms, page program 3 ms): the box waits longer for each write, inputs queue behind them
TIMINGS = ["typical", "max"] if os.environ.get("PICO_FULL") else ["typical"]


@pytest.fixture(scope="module", params=TIMINGS)
def uncut(node_ready, request):
    """The session played once on the chip: the flash after boot, every flash op, the ops done at
    each shot, the records at the end; and the desktop's records and counts at each shot."""
    from pico.player import ChipPlayer
    from simulator.runner import Script
    if not os.path.exists(UF2):
        pytest.fail("no frozen UF2 at %s: `make pico-uf2` builds it (make pico-test does)" % UF2)
    lines = session_lines(HANDS)
    with open(os.path.join(FS, "main.py"), "rb") as f:
        files = {"main.py": f.read()}
    timing = True if request.param == "typical" else "max"
    with Pico(uf2=UF2, elf=UF2[:-4] + ".elf", flash_timing=timing) as p:
        pl = ChipPlayer(p, files)
        sc = Script(pl.keymap, pl.ncols)
        evs = sc.start() + [ev for ln in lines for ev in sc.line(ln)]
        assert evs[0][1] == "boot"
        pl.play(evs[:1])
        p.log_flash_ops()
        base = p.flash()
        ops_at_shot = []
        for ev in evs[1:]:
            pl.play([ev])
            if ev[1] == "shot":
                ops_at_shot.append(p.stats()["flash_ops"])
        ops = p.flash_ops()
        final = journal_records(fsimage.read(p.flash()))
    recs, desk_at_shot = desktop(lines)
    return {"base": base, "ops": ops, "ops_at_shot": ops_at_shot, "final": final,
            "desk": recs, "desk_at_shot": desk_at_shot, "timing": timing}


def test_uncut_session_is_the_desktops_at_every_screen(uncut):
    u = uncut
    assert u["final"] == u["desk"]
    # the session record and one per hand (the whole session also has a correction and its end)
    from firmware.app import decode
    kinds = [decode(r)["kind"] for r in u["final"]]
    assert kinds[0] == "session" and kinds.count("hand") == HANDS, kinds
    assert len(u["ops_at_shot"]) == len(u["desk_at_shot"])
    assert u["ops_at_shot"][-1] == len(u["ops"]) > 0
    for i, (n_ops, n_desk) in enumerate(zip(u["ops_at_shot"], u["desk_at_shot"])):
        got = journal_records(fsimage.read(apply_flash_ops(u["base"], u["ops"][:n_ops])))
        assert got == u["desk"][:n_desk], "shot %d: the flash does not hold what the screen says" % (i + 1)


def bounds(u, k):
    """(fewest, most) records a cut at op k may leave: those of the last screen the player saw
    before op k, those of the screen after the input op k belongs to."""
    lo = hi = 0
    for n_ops, n_desk in zip(u["ops_at_shot"], u["desk_at_shot"]):
        if n_ops <= k:
            lo = n_desk
        else:
            hi = n_desk
            break
    return lo, max(lo, hi)


# ~55 s a hand on a busy 2-core machine (106 s for the default 2): PICO_FULL's 16 get their own limit
@pytest.mark.timeout(None if HANDS <= 2 else 150 * HANDS)
def test_power_cut_at_every_flash_mutation(uncut):
    u = uncut
    ops = u["ops"]
    seen = set()
    with Pico(uf2=UF2, elf=UF2[:-4] + ".elf", flash_timing=u["timing"]) as p:
        for k in range(len(ops)):
            flash = apply_flash_ops(u["base"], ops[:k])
            p.boot(flash=flash)
            assert p.run(REBOOT_MS), (k, p.cut, p.reset)
            got = journal_records(fsimage.read(p.flash()))
            lo, hi = bounds(u, k)
            assert lo <= len(got) <= hi, (k, len(got), lo, hi)
            assert got == u["final"][:len(got)], k
            assert p.glass() == resumed_glass(got), (k, len(got))
            seen.add(len(got))
    # the cuts fell before and between the records: every count from none to all but the last
    assert seen >= set(range(len(u["final"]))), seen
    print("power cuts: %d flash mutations of %d hands, records after the reboot: %s"
          % (len(ops), HANDS, sorted(seen)))
