"""Issue 18.6: a registered name the box's fonts cannot draw (most Chinese names, accented Latin)
comes drawn by the server in the config (name_bitmaps: host_tools/server/boxes/name_bitmaps.py),
and the box draws that bitmap where the name goes (firmware/ui/name_bitmaps.py) instead of the
player's number. Checked on the pixels the renderer leaves, at both screen sizes, by blit and
by runs of pixels; after a power cut; and against the box's own glyphs."""
import json

import pytest

from firmware.app import App
from firmware.journal import Journal
from firmware.ui import framebuf_py, glyphs_12, name_bitmaps, render
from host_tools.server.boxes import name_bitmaps as server_names
from protocol import config
from tests.app.helpers import MCR, WIN, Table
from tests.render.test_render import HlineOnly   # a target without blit: the runs of pixels

NAMES = ["王芳", "Zoë", "Ann", "欧阳娜"]     # 王芳 Zoë 欧阳娜: beyond the box's fonts (checked below)
if render.framebuf is None:   # CPython: the pure-Python framebuf, same pixels
    render.use_framebuf(framebuf_py)


def drawn(names=NAMES):
    art = server_names.bitmaps_of(names)
    assert art is not None, "the server cannot draw names: Pillow and xfonts-wqy are needed"
    return dict(MCR, names=names, name_bitmaps=art, lang="en")


class Display:
    """What App.fit reads of a board's screen: its renderer (firmware/board/base.py's .r)."""

    def __init__(self, w=128, h=64, color=False):
        self.r = render.Renderer(w, h, color=color)


def frame(r, model, runs=False):
    fmt = framebuf_py.RGB565 if r.colors[1] != 1 else framebuf_py.MONO_VLSB
    buf = bytearray(r.width * r.height * (2 if fmt == framebuf_py.RGB565 else 1) // (1 if fmt == framebuf_py.RGB565 else 8))
    fb = framebuf_py.FrameBuffer(buf, r.width, r.height, fmt)
    r.draw(HlineOnly(fb) if runs else fb, model, 0)
    return buf, fb


def bits(text):
    """The bitmap of a config text as rows of 0/1 (decoded here, not by the box's module)."""
    w, h, base, rows = config.bitmap(text)
    stride = (w + 7) >> 3
    return base, [[(rows[y * stride + (x >> 3)] >> (7 - (x & 7))) & 1 for x in range(w)] for y in range(h)]


def name_at(r, model, ch):
    """Where the renderer puts the name ch stands for: x, the top of its line."""
    title, lines, hint = model
    for k, line in enumerate(lines):
        if ch in line:
            prefix = line[:line.index(ch)]
            x = r.mx
            if "\x1e" in prefix:   # the right-hand column (render.py _line: two halves and a gap)
                assert len(lines) <= r.rows   # no scroll bar narrows the line
                limit = r.width - r.mx
                x = limit - ((limit - r.mx - r.col_gap) >> 1)
                prefix = prefix[prefix.index("\x1e") + 1:]
            assert "\t" not in prefix   # the cell's left-aligned text
            return x + r.text_width(prefix), r.top + k * r.pitch
    raise AssertionError("%r not on the screen %r" % (ch, model))


def test_the_test_names_are_beyond_the_boxs_font():
    font = render.load_font(12)
    for n in (NAMES[0], NAMES[1], NAMES[3]):
        assert not all(font.has(ch) for ch in n), n


@pytest.mark.parametrize("size", [(128, 64, False), (320, 240, True)])
def test_the_drawn_names_are_on_the_screen_where_the_names_go(tmp_path, size):
    w, h, color = size
    cfg = drawn()
    app = App(Journal(str(tmp_path / "j")), lambda: 0, device_id="b")
    d = Display(w, h, color)
    app.fit(d)
    assert app.push_config(cfg) is None
    r = d.r
    model = app.screen()
    shown = json.dumps(model, ensure_ascii=False)
    for pid in ("101", "102", "104"):
        assert pid not in shown          # not the numbers any more
    assert "Ann" in shown and "103" not in shown   # a name the font draws stays text
    for runs in (False, True):
        buf, fb = frame(r, model, runs)
        fg, bg = (1, 0) if not color else (r.colors[render.FG], r.colors[render.BG])
        for chair in (0, 1, 3):
            x0, y0 = name_at(r, model, chr(name_bitmaps.PUA + chair))
            base, rows = bits(cfg["name_bitmaps"][chair])
            y0 += r.font.ascent - base   # on the font's baseline: 0 rows down at 12 px, 4 at 16
            got = [[1 if fb.pixel(x0 + x, y0 + y) == fg else 0 for x in range(len(rows[0]))] for y in range(len(rows))]
            assert got == rows, (size, runs, chair)
            assert sum(map(sum, rows)) > 20                       # ink, not an empty box


def test_blit_and_runs_draw_the_same_pixels(tmp_path):
    app = App(Journal(str(tmp_path / "j")), lambda: 0, device_id="b")
    d = Display()
    app.fit(d)
    assert app.push_config(drawn()) is None
    app.press("A")   # who won: the four seats by name
    model = app.screen()
    assert frame(d.r, model)[0] == frame(d.r, model, runs=True)[0]


def test_a_name_too_wide_for_its_room_is_cut_with_an_ellipsis(tmp_path):
    long = "欧阳娜娜娜娜娜娜娜娜"    # cut by the server at 96 px, then by the line's room
    app = App(Journal(str(tmp_path / "j")), lambda: 0, device_id="b")
    d = Display()
    app.fit(d)
    cfg = drawn([long, "Zoë", "Ann", "王芳"])
    assert config.bitmap(cfg["name_bitmaps"][0])[0] == config.NAME_PX_MAX
    assert app.push_config(cfg) is None
    r = d.r
    r.cut = 0
    model = app.screen()
    buf, fb = frame(r, model)
    assert r.cut >= 1
    x0, y0 = name_at(r, model, chr(name_bitmaps.PUA))
    assert x0 + config.NAME_PX_MAX > r.width // 2 and model[1][0].startswith("E \ue000\t")
    # where the left cell's text must stop (render.py _line, _cell, _text): no pixel of the name
    # from there to its score, only the ellipsis's dots on their row
    limit = r.width - r.mx
    half = (limit - r.mx - r.col_gap) >> 1
    rx = r.mx + half - r.text_width(model[1][0].split("\t")[1].split("\x1e")[0])
    stop = rx - (r.font.size >> 1) - r.ell_w
    dots = y0 + r.font.ascent - r.dot
    ink = [(x, y) for x in range(stop, rx) for y in range(y0, y0 + r.font.height) if fb.pixel(x, y) and y != dots]
    assert ink == []
    assert any(fb.pixel(x, dots) for x in range(stop, rx))   # the ellipsis
    assert sum(fb.pixel(x, y) for x in range(x0, stop) for y in range(y0, y0 + 12)) > 40   # the name, cut
    assert frame(r, model, runs=True)[0] == buf


def test_the_server_draws_what_the_box_draws_for_the_characters_it_has():
    # two renderings made apart: the box's glyph tables (tools/glyphs.py's own PCF reader) and the
    # server's Pillow/FreeType: same pixels, same baseline, for text the box's font holds
    font = render.load_font(12)
    for text in ("东南", "Ab jg/", "中发白 Joy"):
        assert all(font.has(ch) for ch in text), text
        base, rows = bits(server_names.bitmaps_of([text + "é"])[0])   # é: so the server draws it
        want = [[] for _ in range(glyphs_12.HEIGHT)]
        for ch in text:
            g = render._index(font, ord(ch))
            gw = glyphs_12.WIDTHS[g]
            off = (glyphs_12.OFFSETS[2 * g] << 8) | glyphs_12.OFFSETS[2 * g + 1]
            st = (gw + 7) >> 3
            for y in range(glyphs_12.HEIGHT):
                want[y] += [(glyphs_12.BITMAPS[off + y * st + (x >> 3)] >> (7 - (x & 7))) & 1 for x in range(gw)]
        assert base == glyphs_12.ASCENT
        n = len(want[0])
        assert [row[:n] for row in rows] == want, text


def test_the_drawn_names_come_back_after_a_power_cut(tmp_path):
    cfg = drawn()
    t = Table(tmp_path, cfg)
    t.app.fit(Display())
    t.keys("A10").tap(WIN).keys("1234")
    t.boot("en")
    assert "\ue000" not in json.dumps(t.app.screen())   # no screen known yet: the text itself
    t.app.fit(Display())
    main = json.dumps(t.app.screen(), ensure_ascii=False)
    assert "\ue000" in main and "\ue001" in main and "\ue003" in main and "101" not in main
    # the session's record carries them (the records of the hands keep the ids)
    sess = [r for r in t.records() if r["kind"] == "session"][0]
    assert sess["name_bitmaps"] == cfg["name_bitmaps"]


def test_a_bitmap_the_font_cannot_hold_or_a_malformed_one_leaves_the_number(tmp_path):
    app = App(Journal(str(tmp_path / "j")), lambda: 0, device_id="b")
    app.fit(Display())
    cfg = drawn()
    # 16 rows: valid on the wire, too tall for the 12 px line: the player is shown by number
    from binascii import b2a_base64
    tall = b2a_base64(bytes((8, 16, 14)) + bytes(16)).decode().strip()
    bad = dict(cfg, name_bitmaps=[tall] + cfg["name_bitmaps"][1:])
    assert app.push_config(bad) is None
    main = json.dumps(app.screen(), ensure_ascii=False)
    assert "101" in main and "102" not in main
    # a malformed one: the config is refused, no session starts, nothing is journalled
    app2 = App(Journal(str(tmp_path / "j2")), lambda: 0, device_id="b")
    app2.fit(Display())
    short = cfg["name_bitmaps"][0][:-4]
    err = app2.push_config(dict(cfg, name_bitmaps=[short] + cfg["name_bitmaps"][1:]))
    assert err and "name_bitmaps" in err and app2.session is None


def test_a_later_session_without_them_lets_the_last_ones_go(tmp_path):
    t = Table(tmp_path, drawn())
    t.app.fit(Display())
    assert any(k is not None for k in name_bitmaps._kept)
    t.keys("D4 2580# 2 #")   # the referee ends the session
    assert t.app.push_config(dict(MCR, session=2, names=["Ann", "Bo", "Cy", "Dee"], lang="en")) is None
    assert all(k is None for k in name_bitmaps._kept)
    assert "Bo" in json.dumps(t.app.screen())


def test_a_tall_accent_moves_the_name_down_rather_than_losing_its_ink():
    from PIL import Image, ImageDraw
    font = server_names._font()
    for text, base in (("Åsa", 12), ("Zoë", 10), ("王芳", 10)):
        got_base, rows = bits(server_names.bitmaps_of([text])[0])
        assert got_base == base, text
        # every pixel of the name, against Pillow drawing it on a canvas with room all round
        big = Image.new("1", (60, 40), 0)
        ImageDraw.Draw(big).text((0, 10), text, font=font, fill=1)
        assert sum(map(sum, rows)) == sum(1 for y in range(40) for x in range(60) if big.getpixel((x, y))), text
    # on the 12 px line it sits in the cell's 12 rows; on the 16 px one 2 rows lower than text
    app_font12, app_font16 = render.load_font(12), render.load_font(16)
    assert name_bitmaps._dy(app_font12, (20, 12, 12)) == 0 and name_bitmaps._dy(app_font16, (20, 12, 12)) == 2
    assert name_bitmaps._dy(app_font16, (20, 12, 10)) == 4


def test_once_drawn_the_configs_text_goes_and_the_names_stay(tmp_path):
    app = App(Journal(str(tmp_path / "j")), lambda: 0, device_id="b")
    app.fit(Display())
    assert app.push_config(drawn()) is None
    assert "name_bitmaps" not in app.session.cfg and app.session.drawn   # ~0.7 KB of base64 let go
    before = json.dumps(app.screen())
    app.fit(Display())                     # the screen laid out again: the names it drew stand
    assert json.dumps(app.screen()) == before and "\\ue000" in before
    assert name_bitmaps._kept[0] is not None
