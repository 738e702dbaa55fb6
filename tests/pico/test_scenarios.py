# Every shipped scenario (simulator/scenarios/*.txt) played on the emulated Pico through the
# board's own main.py (pico/sim.py: key presses on the modelled matrix, tags on the modelled
# MFRC522, the host's requests over the USB CDC) writes the desktop simulator's journal, byte for
# byte, read back from the chip's littlefs; and shows the desktop's screens, but for the ones where
# the chip's own computing time shows (the session clock's minutes: the desktop computes in no
# time, so "120min" there can be "119min" on the chip a few ms after the session began).
#
# Each scenario runs on one build by default, chosen to keep the suite short (the emulator runs
# slower than real time here). CPU seconds of one run (pico/sim.py --compare, the report's
# figures): mcr_one_hand ~18, penalties_declare ~30, guangdong_horses ~40, sichuan_kongs_chajiao
# ~80 (940 s of table time, mostly idle), mcr_session ~230 (16 hands, 1320 inputs) on either build.
# So three short ones run by default, on the stock UF2 (.mpy files on littlefs) or the frozen UF2
# (main.py alone), and PICO_FULL=1 (make pico-test-full) plays every scenario on both builds.
# tests/pico/test_powercut_session.py plays the 16-hand session's opening hands on the frozen
# build by default, compared with the desktop at every screen.
# A scenario added to simulator/scenarios/ and not named here runs on the frozen build.
import glob
import os

import pytest

REPO = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SCENARIOS = sorted(glob.glob(os.path.join(REPO, "simulator", "scenarios", "*.txt")))
FULL = bool(os.environ.get("PICO_FULL"))
DEFAULT = {  # the build each runs on by default (None: only with PICO_FULL=1)
    "mcr_one_hand": "stock",
    "penalties_declare": "frozen",
    "guangdong_horses": "stock",
    "sichuan_kongs_chajiao": None,
    "mcr_session": None,
    "survival_bust": None,   # ~90 s on the chip; the unix port and the desktop play it in make test
    "mcr_names": None,      # ~220 s on the chip (bench/pico_heap.py plays it: journal as the desktop's)
    "mcr_drawn_names": None,   # mcr_names with names the server drew: as long (bench/pico_heap.py plays it)
}


def runs():
    out = []
    for path in SCENARIOS:
        name = os.path.basename(path)[:-4]
        for build in ("stock", "frozen"):
            if FULL or DEFAULT.get(name, "frozen") == build:
                out.append(pytest.param(path, build, id="%s-%s" % (name, build)))
    return out


def test_every_shipped_scenario_runs_here():
    assert len(SCENARIOS) >= 5
    assert {os.path.basename(p)[:-4] for p in SCENARIOS} >= set(DEFAULT)


# PICO_FULL plays the whole 16-hand session too (~1 min a hand on a busy machine)
@pytest.mark.timeout(3600 if FULL else None)
@pytest.mark.parametrize("script,build", runs())
def test_scenario_journal_is_the_desktops(node_ready, script, build):
    from pico.sim import journal_diff, only_minutes_differ, play_chip, play_desktop
    uf2 = os.path.join(REPO, "build", "pico-uf2", "firmware.uf2")
    if build == "frozen" and not os.path.exists(uf2):
        pytest.fail("no frozen UF2 at %s: `make pico-uf2` builds it (make pico-test does)" % uf2)
    shots = []
    pl, chip, _ = play_chip(script, frozen=build == "frozen", on_shot=lambda n, what, g: shots.append((what, g)))
    frames = []
    desk = play_desktop(script, frames)
    assert desk and sum(len(d) for d in desk.values()) > 0
    assert journal_diff(desk, chip) == [], "journal files differ from the desktop simulator's"
    assert chip == desk
    assert len(shots) == len(frames)
    differ = [(i + 1, what) for i, ((what, g), f) in enumerate(zip(shots, frames)) if g != f]
    # the minutes of the session clock may show the chip's computing time, nothing else
    assert len(differ) <= max(2, len(shots) // 50), differ
    for i, what in differ:
        assert only_minutes_differ(shots[i - 1][1], frames[i - 1]), (i, what)
