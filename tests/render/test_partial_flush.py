"""The box's OLED path draws only the parts of a screen whose text changed (firmware/ui/partial.py)
and sends only the pages whose bytes changed (firmware/drivers/ssd1306.py). After every screen
of a sequence, the panel's RAM as the emulated SSD1306 rebuilt it from the I2C bytes must equal
a full draw of that screen into a blank frame: a part that changed but was not drawn again, or a
changed page that was not sent, leaves an old byte on the panel and fails here. Drawn by hline
runs (blit=False): the framebuf stand-in of these tests has no blit; tests/render holds blit and
runs to the same pixels."""
import os
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(os.path.dirname(HERE), "drivers"))
import emu_path  # noqa: F401,E402  (tests/ and the framebuf stand-in on sys.path)
from emulators.ssd1306_emu import SSD1306Emu  # noqa: E402

from firmware.board.base import FramebufScreen  # noqa: E402
from firmware.drivers.ssd1306 import SSD1306_I2C  # noqa: E402
from firmware.ui.render import Renderer  # noqa: E402

REPO = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, HERE)
from render_samples import SCREENS  # noqa: E402

MCR = {"rules": "mcr", "tournament": "T", "session": 1, "table": 1,
       "players": ["11", "12", "13", "14"], "first_dealer": 0}


def full_frame(model, scroll, dy):
    """The screen drawn whole into a blank frame, as the panel must show it."""
    emu = SSD1306Emu()
    oled = SSD1306_I2C(emu, 128, 64)
    Renderer(128, 64, blit=False).draw(oled, model, scroll, -dy)
    return bytes(oled.buffer)


def play(seq):
    """Show each (model, scroll, dy) on one screen; [(panel RAM, expected frame, parts drawn,
    pages sent)] after each."""
    emu = SSD1306Emu()
    scr = FramebufScreen(SSD1306_I2C(emu, 128, 64), Renderer(128, 64, blit=False))
    out = []
    for model, scroll, dy in seq:
        scr.dy = dy
        t = emu.transactions
        scr.show(model, scroll)
        out.append((bytes(emu.ram), full_frame(model, scroll, dy), scr.partial.parts, (emu.transactions - t) // 2))
    return out


def edits():
    """Screens that differ from the one before in one part each, then in several, with scrolls and
    the screensaver's shift in between."""
    fans = SCREENS[0][1]
    pay = SCREENS[2][1]
    seq = [(fans, 0, 0)]
    lines = list(fans[1])
    for k, s in enumerate(["清一色\t88", "", "Full Flush\t24", "一色三同顺 一色三同顺 一色三同顺 太长\t24"]):
        lines = lines[:]
        lines[k % 3] = s
        seq.append(((fans[0], lines, fans[2]), 0, 0))
    seq += [((fans[0], lines, "#确认"), 0, 0), (("和牌 玩家3", lines, "#确认"), 0, 0),
            (("和牌 玩家3", lines, "#确认"), 3, 0), (("和牌 玩家3", lines, "#确认"), 0, 0),
            (("和牌 玩家3", lines[:3], "#确认"), 0, 0),  # the scroll bar goes: drawn whole
            (("和牌 玩家3", lines[:2], "#确认"), 0, 0),  # a line goes
            (("和牌 玩家3", lines[:2] + ["\x1e".join(["东 1", "南 2"])], "#确认"), 0, 0),  # two columns
            (pay, 0, 0), (pay, 0, 2), ((pay[0], pay[1][:3], pay[2]), 0, 2), (pay, 0, 0),
            (("", [], ""), 0, 0), (pay, 0, 0)]
    for name, model, scroll in SCREENS:
        seq.append((model, scroll, 0))
    return seq


def test_partial_draws_and_flushes_leave_the_panel_as_a_full_draw():
    out = play(edits())
    for i, (ram, want, parts, pages) in enumerate(out):
        assert ram == want, "screen %d: the panel differs from a full draw" % i
    # the partial path ran (else this test would only check full draws): one part, few pages
    assert sum(1 for o in out if o[2] == 1) >= 5
    assert min(o[3] for o in out[1:]) <= 3


def test_a_skipped_part_is_caught():
    # the check above can fail: a part left undrawn leaves the old text on the panel
    emu = SSD1306Emu()
    scr = FramebufScreen(SSD1306_I2C(emu, 128, 64), Renderer(128, 64, blit=False))
    fans = SCREENS[0][1]
    scr.show(fans, 0)
    changed = (fans[0], ["清一色\t88"] + list(fans[1][1:]), fans[2])
    scr.partial._lines[0] = changed[1][0]  # as if line 0 had been drawn already
    scr.show(changed, 0)
    assert bytes(emu.ram) != full_frame(changed, 0, 0)


def test_every_screen_of_a_session_reaches_the_panel_whole():
    # the app's own screens, in the order a 16-hand session shows them on the desktop box
    from simulator import parts
    from simulator.runner import Sim
    seq = []
    script = os.path.join(REPO, "simulator", "scenarios", "mcr_session.txt")
    with tempfile.TemporaryDirectory() as d:
        ref = []
        sim = Sim(cfg=parts.for_board("pico"), folder=d,
                  on_screen=lambda n, what, s: seq.append((ref[0].dev.model, ref[0].dev.scroll, 0)))
        ref.append(sim)
        with open(script) as f:
            for ln in f:
                sim.line(ln)
        sim.journal.close()
    assert len(seq) > 200
    seq = [s for s in seq if s[0] is not None]
    out = play(seq)
    bad = [i for i, o in enumerate(out) if o[0] != o[1]]
    assert not bad, "screens %s differ from a full draw" % bad[:10]
    assert sum(1 for o in out if o[2] < 5) > len(out) // 3  # most updates redraw a part or two
