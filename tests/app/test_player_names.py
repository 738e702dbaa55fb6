"""Issue 18.6: the box names the players as they registered (the config's "names", by chair)
on every screen that shows a player, where it showed their numbers (101 102 103 104); the
records keep the ids. A name the box's font cannot draw is shown as the player's number, not as
empty boxes (the font: firmware/ui/glyphs_12.py / glyphs_16.py, a subset)."""
import json

from firmware.app import App
from firmware.journal import Journal
from firmware.ui import framebuf_py, render
from protocol import config
from tests.app.helpers import MCR, WIN, Table

NAMES = ["Ann", "Bo Li", "Cy", "Dee"]


class Display:
    """What App.fit reads of a board's screen: its renderer (firmware/board/base.py's .r)."""

    def __init__(self, w=128, h=64):
        if render.framebuf is None:
            render.use_framebuf(framebuf_py)
        self.r = render.Renderer(w, h)


def text(app):
    title, lines, hint = app.screen()
    return " | ".join([title] + [" ".join(x) if isinstance(x, tuple) else x for x in lines] + [hint])


def test_every_screen_that_shows_a_player_shows_the_name(tmp_path):
    t = Table(tmp_path, dict(MCR, names=NAMES, lang="en"))
    main = text(t.app)
    assert all(n in main for n in NAMES) and "101" not in main
    t.keys("A1")                                         # who dealt in: the seats by name
    assert "Ann" in t.screen_text() and "101" not in t.screen_text()
    t.keys("0").tap(WIN)                                 # the result: who pays whom, by name
    assert "Ann" in t.screen_text()
    t.keys("1234")
    t.keys("C1")                                         # a penalty: whose
    assert "Ann" in t.screen_text()
    t.keys("**")
    t.keys("D4 2580# 2 #")                               # the end: places by name
    from firmware.ui.layout import View
    t.app.view = View(rows=10, width=300)                # the 320x240 screen: one page
    ended = " ".join(t.app.screen()[1])
    assert all(n in ended for n in NAMES) and "101" not in ended
    # the records keep the ids, never the names (the hands and the session's end)
    for r in t.records():
        if r["kind"] != "session":
            assert not any(n in json.dumps(r) for n in NAMES), r
    hand = [r for r in t.records() if r["kind"] == "hand"][0]
    assert hand["seats"] == ["101", "102", "103", "104"]
    assert t.records()[-1]["match_scores"].keys() == {"101", "102", "103", "104"}


def test_the_names_come_back_after_a_power_cut(tmp_path):
    t = Table(tmp_path, dict(MCR, names=NAMES, lang="en"))
    t.keys("A10").tap(WIN).keys("1234")
    t.boot("en")
    assert t.app.state == "main" and all(n in text(t.app) for n in NAMES)


def test_a_name_the_font_cannot_draw_shows_the_number(tmp_path):
    app = App(Journal(str(tmp_path / "j")), lambda: 0, device_id="b")
    app.fit(Display())
    names = ["Zoë", "明", "李明", "Dee"]                  # ë and 李 are not in the box's font; 明 is
    assert app.push_config(dict(MCR, names=names, lang="en")) is None
    main = text(app)
    assert "101" in main and "Zoë" not in main
    assert "明" in main and "102" not in main
    assert "103" in main and "李明" not in main
    assert "Dee" in main and "104" not in main


def test_a_box_resumed_before_its_screen_was_known_checks_the_names_then(tmp_path):
    app = App(Journal(str(tmp_path / "j")), lambda: 0, device_id="b")
    assert app.push_config(dict(MCR, names=["Zoë", None, "Cy", "Dee"], lang="en")) is None
    app2 = App(Journal(str(tmp_path / "j")), lambda: 0, device_id="b")   # reboot: replay, then fit
    assert "Zoë" in text(app2)
    app2.fit(Display())
    main = text(app2)
    assert "Zoë" not in main and "101" in main and "102" in main and "Cy" in main


def test_the_config_check_of_names():
    ok = dict(MCR, names=NAMES)
    assert config.check(ok) is None
    assert config.check(dict(MCR, names=[None, "Bo", None, None])) is None
    for bad in (NAMES[:3], "Ann", [1, 2, 3, 4], ["A" * (config.NAME_MAX + 1)] + NAMES[1:], [" Ann"] + NAMES[1:],
                ["A\nB"] + NAMES[1:], [""] + NAMES[1:]):
        err = config.check(dict(MCR, names=bad))
        assert err is not None and err[0] == "names", bad
    three = dict(MCR, players=["101", "102", "103", None])
    assert config.check(dict(three, names=["A", "B", "C", None])) is None
    assert config.check(dict(three, names=["A", "B", "C", "D"]))[0] == "names"   # nobody sits there
