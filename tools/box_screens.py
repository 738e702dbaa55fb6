"""Every screen of the box, as the players see it: each state of firmware/states.py reached by
keys and taps, drawn by firmware/ui/render.py on the 128x64 mono screen and on the 320x240 colour
one, in Chinese and English.

    .venv/bin/python tools/box_screens.py [--out docs/screens/box] [--lang cn en]

Writes NAME_128x64_LANG.png and NAME_320x240_LANG.png per screen and README.md (the gallery,
linked from the project's README). tests/app/test_screens.py plays the same SCREENS and checks that
every state is among them, that no text is cut short on either screen, and that the committed
pictures are what this draws.
"""
import argparse
import os
import sys
import tempfile

REPO = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, REPO)

MCR = {"rules": "mcr", "tournament": "T", "session": 1, "table": 7, "players": ["101", "102", "103", "104"],
       "first_dealer": 0}
SC = dict(MCR, rules="sichuan", players=["21", "22", "23", "24"])
# a survival table (docs/survival.md): the event started 40 minutes before the box's clock (x2)
SURV = dict(MCR, players=["11", "12", "13", "14"], mode="survival", scores=[62, 50, 41, 8], event_start=1764400000 - 2400)
THREE = dict(MCR, players=["101", "102", "103", None])          # a three-player table
NAMED = dict(MCR, names=["Ann", "Bo Li", "Cy", "Dee"])    # the players' registered names (issue 18.6)
# names beyond the box's fonts, drawn by the server (host_tools/server/boxes/name_bitmaps.py)
DRAWN_NAMES = ["王芳", "Zoë", "Åsa", "欧娜"]
GD = dict(MCR, rules="guangdong", players=["31", "32", "33", "34"])
WIN = "1s 3s 4s 4s 5s 5s 5s 6s 6s 6s 7s 7s 7s 2s"          # MCR 清一色 ... (self-drawn by 1)
KNITTED = "2m 5m 8m 1s 4s 8s 8s 3p 6p 9p 7s"                 # with [345m] claimed: 组合龙
SC_WIN = "1m 2m 3m 4m 5m 6m 7m 8m 9m 1s 1s 2s 3s 4s"

# name, config (None: no session), steps, what the screen is for. A step is "keys ...",
# "tap ...", "config" (push the config) or "wait N" (seconds).
SCREENS = [
    ("idle", None, [], "no session yet: the box's id; D keys one in, or the host sends one"),
    ("cfg_rules", None, ["keys D"], "keying in a session: the rule set"),
    ("cfg_player", None, ["keys D1 7#1#101#"], "keying in a session: a player's number"),
    ("cfg_check", None, ["keys D1 7#1#101#102#103#104#1"], "keying in a session: all of it, before it starts"),
    ("main", MCR, ["config"], "the hand in progress: seat wind, player and score by chair"),
    ("main_events", SC, ["config", "keys B20#"], "a hand with an event: the totals move, * undoes it"),
    ("win_who", MCR, ["config", "keys A"], "A: who won"),
    ("win_from", MCR, ["config", "keys A1"], "who dealt in, 0 self-drawn"),
    ("tiles", MCR, ["config", "keys A13", "tap 3m 4m 5m", "keys #", "tap 2m 5m 8m 1s"],
     "tapping the hand: a claimed meld closed with #, then the concealed tiles"),
    ("tiles_kong", MCR, ["config", "keys A13", "tap 5p 5p 5p 5p", "keys #"], "four tiles and #: concealed or claimed kong"),
    ("tiles_flower", SC, ["config", "keys A13", "tap 1m a"], "a flower tapped where the rules have none"),
    ("confirm", MCR, ["config", "keys A13", "tap 3m 4m 5m", "keys #", "tap " + KNITTED],
     "the result: payments by player first, then each fan with its points and the total; seats confirm"),
    ("confirm_page2", MCR, ["config", "keys A13", "tap 3m 4m 5m", "keys #", "tap " + KNITTED, "keys #"],
     "# turns the page"),
    ("confirm_ok", MCR, ["config", "keys A10", "tap " + WIN, "keys 13"], "two seats have confirmed"),
    ("confirm_sichuan", SC, ["config", "keys B30#A13", "keys 1", "tap " + SC_WIN],
     "Sichuan: the void suit read from the tiles, 杠上炮 and the kong's income passing on"),
    ("kong_discard", SC, ["config", "keys B30#A13"], "Sichuan: was the discard right after the kong?"),
    ("confirm_horses", GD, ["config", "keys A10", "tap " + SC_WIN, "tap 1m E"], "Guangdong: horses tapped on the result"),
    ("another", GD, ["config", "keys A13", "tap " + SC_WIN, "keys 1234"], "Guangdong: another winner on that discard?"),
    ("refused", MCR, ["config", "keys A13", "tap 1m 2m 3m 5s 6s 7s 7p 8p 9p 2m 3m 4m 5p 5p"],
     "a hand under 8 fans: what is wrong and what to do"),
    ("refused_chicken", GD, ["config", "keys A32", "tap 1m 2m 3m 4m 5m 6m 7m 8m 9m 1s 1s 2s 2s 2s"],
     "a chicken hand on a discard"),
    ("flags", MCR, ["config", "keys A10", "tap " + WIN, "keys D2"], "D on the result: the win's flags"),
    ("flags_discard", MCR, ["config", "keys A13", "tap " + WIN, "keys D5"],
     "the flags of a win on a discard: the winning tile mixed in, a wrongly named discard"),
    ("kong_flower", MCR, ["config", "keys A10", "tap " + WIN, "keys D3"],
     "杠上开花 claimed: was the kong's replacement a flower? (then it is no 杠上开花)"),
    ("confirm_misnamed", MCR, ["config", "keys A13", "tap " + WIN, "keys D6D"],
     "a win on a wrongly named discard: the discarder pays what all three would have paid"),
    ("kong_who", SC, ["config", "keys B"], "B: who konged"),
    ("kong_how", SC, ["config", "keys B2"], "how: 0 concealed, 5 added, or who gave the tile"),
    ("kong_ok", SC, ["config", "keys B32"], "the kong's payments; # records it"),
    ("kong_ok_mcr", MCR, ["config", "keys B20"], "an MCR kong pays nothing now"),
    ("pen_who", MCR, ["config", "keys C"], "C: who is penalised"),
    ("pen_kind", GD, ["config", "keys C1"], "which penalty: the rule set's (Guangdong: the conduct faults share "
     "one ladder), the last bars the player (停和陪打)"),
    ("pen_kind_mcr", MCR, ["config", "keys C1"], "MCR's penalties"),
    ("pen_value", MCR, ["config", "keys C24 12"], "a late arrival: the minutes, and what they cost"),
    ("pen_victim", MCR, ["config", "keys C25"], "exposing another player's tiles: whose"),
    ("pen_value_points", MCR, ["config", "keys C253 30"], "the points the referee keys (MCR 5-60), paid to the victim"),
    ("pen_bar", MCR, ["config", "keys C36"], "illegal information: points, a bar, or both"),
    ("pen_reason", MCR, ["config", "keys C17"], "停和陪打: why (the rule set's reasons)"),
    ("pen_ok_bar", MCR, ["config", "keys C171"], "a barred player may not win this hand and still pays"),
    ("pen_ok", MCR, ["config", "keys C11#C11"], "a penalty's consequence (the second empty call costs 5)"),
    ("pen_ok_warning", MCR, ["config", "keys C11"], "the first empty call is a warning"),
    ("more", MCR, ["config", "keys D"], "D: declared win, wall end, time up, referee, language"),
    ("decl_who", MCR, ["config", "keys D1"], "who declared a win that fails"),
    ("decl_ok", MCR, ["config", "keys D12", "tap 1m 2m 3m 4m 5m 6m 7s 8s 9s 1p 1p E E 9p"],
     "the false win (ready: 10 to each); seats confirm"),
    ("wall_tiles", SC, ["config", "keys D2", "tap 1m 2m 3m"], "Sichuan wall end: the hands still in, 13 tiles each"),
    ("wall_ok", SC, ["config", "keys D2", "tap 1m 2m 3m 4m 5m 6m 7m 8m 9m 5s 5s 7s 8s",
                     "tap 1m 2m 3m 4m 5m 6m 7m 8m 9m 1s 3s 5s 8s", "tap 1m 1m 1m 2m 2m 2m 3m 3m 3m 4s 4s 4s 9s",
                     "tap 2m 2m 3m 3m 4m 4m 6m 6m 6m 1s 1s 2s 2s"],
     "the wall end's payments (查叫)"),
    ("undo", SC, ["config", "keys B20#*"], "* undid the last event; # puts it back"),
    ("error_tag", MCR, ["config", "keys A13", "tap 1m 1m 1m 1m 1m"], "a fifth copy of a tile is refused"),
    ("timeout", MCR, ["config", "wait 7300"], "the session's time is up"),
    ("timeout_penalty", MCR, ["config", "keys C16 0 10#", "wait 7300"],
     "time is up in a hand with a penalty: the points that the rule set's time-out voids, before # ends it"),
    ("pin", MCR, ["config", "keys D4"], "the referee's PIN"),
    ("ref", MCR, ["config", "keys D4 2580#"], "the referee's menu"),
    ("corr_hand", MCR, ["config", "keys A10", "tap " + WIN, "keys 1234", "keys D4 2580# 1"], "which hand to correct"),
    ("corr_delta", MCR, ["config", "keys A10", "tap " + WIN, "keys 1234", "keys D4 2580# 1 1# 5#"],
     "the hand's new points, seat by seat"),
    ("end_ok", MCR, ["config", "keys A10", "tap " + WIN, "keys 1234", "keys D4 2580# 2"],
     "ending the session asks first; # ends it"),
    ("end_ok_penalty", MCR, ["config", "keys A10", "tap " + WIN, "keys 1234", "keys C16 0 10#", "keys D4 2580# 2"],
     "ending it in a hand with a penalty: the hand is recorded cut off as at time-up, and the points that go are named"),
    ("ended", MCR, ["config", "keys A10", "tap " + WIN, "keys 1234", "keys D4 2580# 2 #"],
     "the session is over: places, points, standard scores under headings"),
    ("ended_page2", MCR, ["config", "keys A10", "tap " + WIN, "keys 1234", "keys D4 2580# 2 # #"], "its second page"),
    ("saved", MCR, ["config", "keys A10", "tap " + WIN, "keys 1234"], "after a hand: saved, the next hand"),
    ("main_names", NAMED, ["config"], "the players by their registered names (the config's names; the records keep the ids)"),
    ("confirm_names", NAMED, ["config", "keys A13", "tap " + WIN], "who pays whom, by name"),
    ("main_drawn_names", "DRAWN", ["config"], "names the box's fonts do not hold (Chinese, accented Latin): drawn by "
     "the server, sent with the config as bitmaps"),
    ("confirm_drawn_names", "DRAWN", ["config", "keys A13", "tap " + WIN], "who pays whom, by the drawn names"),
    ("ended_names", NAMED, ["config", "keys A10", "tap " + WIN, "keys 1234", "keys D4 2580# 2 #"], "places by name"),
    ("roll", SURV, ["config"], "a survival table between hands: the scores carried in, the multiplier now and when it "
     "goes up; # when the dealer starts the hand fixes its start and multiplier"),
    ("main_survival", SURV, ["config", "keys #"], "a survival hand in progress: its multiplier, the survival scores"),
    ("sv_end", SURV, ["config", "keys #A13", "tap 3m 4m 5m", "keys #", "tap " + KNITTED, "keys 1234"],
     "a survival table is over: 13 dealt in and 14 paid, both at 0 or below (x2): the one who did not deal in first; no further hand"),
    ("main_three", THREE, ["config", "keys D2#"], "a three-player table: the empty chair shows nothing, the seat "
     "winds go E S W round the three"),
]
SIZES = (("128x64", 128, 64, False, 2), ("320x240", 320, 240, True, 1))
README_HEAD = """# The box's screens

Every screen of the box, reviewed at both sizes: the SSD1306's 128x64 (12 px font, 3 rows, drawn
here at 2x) and the ST7789's 320x240 (16 px font, 10 rows), in Chinese and in English. Made by
`python tools/box_screens.py` (the steps that reach each screen are in its SCREENS table);
`tests/app/test_screens.py` checks that these pictures are what the firmware draws, that every
state of `firmware/states.py` is here and that no text is cut short.

How to read them: the title bar says where the table is (and `1/2` when a screen has pages:
`#` turns them); the bar at the bottom says which keys do what. Seats are the keys 1-4 (the
chairs, 1 being East at the start); a row `1 101  +38` is chair 1, player 101, +38 points.
Messages (`!`) come first on the screen. The language is the session config's `lang` (`cn`
or `en`), and `D 5` switches it on the box.
"""


class Player:
    """Drives an App as the table would: keys, taps (each tile's copies in turn), the clock."""

    def __init__(self, journal_dir, lang="cn"):
        from firmware.app import App
        from firmware.journal import Journal
        self.ms = 0
        self.copies = {}
        self.app = App(Journal(journal_dir), lambda: self.ms, device_id="box-7", lang=lang, epoch=1764400000)

    def step(self, step, cfg):
        from rules_min.tiles import parse_tile
        cmd, _, rest = step.partition(" ")
        app = self.app
        if cmd == "config":
            c = dict(cfg, lang=app.lang)
            err = app.push_config(c)
            assert err is None, err
        elif cmd == "keys":
            for k in rest.replace(" ", ""):
                app.press(k)
        elif cmd == "tap":
            for name in rest.split():
                t = 34 + "abcdefgh".find(name) if len(name) == 1 and name in "abcdefgh" else parse_tile(name)
                n = self.copies.get(t, 0)
                self.copies[t] = n + 1
                app.tap(bytes((4, t, n, 1)), t)
        elif cmd == "wait":
            self.ms += int(rest) * 1000
            app.tick()
        else:
            raise ValueError(step)


def drawn_config():
    """NAMED with DRAWN_NAMES and the server's bitmaps of them (Pillow and xfonts-wqy)."""
    from host_tools.server.boxes.name_bitmaps import bitmaps_of
    art = bitmaps_of(DRAWN_NAMES)
    if art is None:
        raise SystemExit("the server cannot draw names here: pip install pillow, apt-get install xfonts-wqy")
    return dict(MCR, names=DRAWN_NAMES, name_bitmaps=art)


def play(name, cfg, steps, lang):
    """The App after the steps of one SCREENS row."""
    d = tempfile.mkdtemp(prefix="screens-")
    p = Player(d, lang)
    if cfg == "DRAWN":
        cfg = drawn_config()
    # the 12 px screen's font decides which names the box draws itself (App.fit)
    p.app.fit(_Screen(renderers()[0][1]))
    for st in steps:
        p.step(st, cfg)
    return p.app


class _Screen:
    """What App.fit reads of a board's screen: its renderer."""

    def __init__(self, r):
        self.r = r


def renderers():
    from firmware.ui import framebuf_py, render
    from firmware.ui.layout import View
    from firmware.ui.render import Renderer
    if render.framebuf is None:   # CPython: the pure-Python framebuf, same pixels
        render.use_framebuf(framebuf_py)
    out = []
    for label, w, h, color, scale in SIZES:
        r = Renderer(w, h, color=color)
        out.append((label, r, View.of(r), scale))
    return out


def draw(r, model, scale):
    """Render a model; returns (png bytes, texts cut short)."""
    from firmware.ui import framebuf_py as framebuf
    from simulator import png
    w, h = r.width, r.height
    if r.colors[1] != 1:
        buf = bytearray(w * h * 2)
        fb = framebuf.FrameBuffer(buf, w, h, framebuf.RGB565)
        fmt = png.RGB565
    else:
        buf = bytearray(w * h // 8)
        fb = framebuf.FrameBuffer(buf, w, h, framebuf.MONO_VLSB)
        fmt = png.MONO_VLSB
    r.cut = 0
    r.draw(fb, model, 0)
    data = png.encode(png.scaled(png.rgb_rows(buf, w, h, fmt), scale), w * scale, h * scale)
    return data, r.cut


def shoot(lang):
    """[(name, state, {size: (model, png, cut)})] for every screen in lang."""
    out = []
    rs = renderers()
    for name, cfg, steps, _what in SCREENS:
        app = play(name, cfg, steps, lang)
        shots = {}
        for label, r, view, scale in rs:
            app.view = view
            model = app.screen()
            data, cut = draw(r, model, scale)
            shots[label] = (model, data, cut)
        out.append((name, app.state, shots))
    return out


def main(argv=None):
    ap = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    ap.add_argument("--out", default=os.path.join(REPO, "docs", "screens", "box"))
    ap.add_argument("--lang", nargs="+", default=["cn", "en"])
    a = ap.parse_args(argv)
    os.makedirs(a.out, exist_ok=True)
    what = {n: w for n, _c, _s, w in SCREENS}
    index = [README_HEAD, "| screen | state | what | 128x64 | 320x240 |", "|---|---|---|---|---|"]
    cut_total = 0
    for lang in a.lang:
        for name, state, shots in shoot(lang):
            cells = []
            for label, _w, _h, _c, _s in SIZES:
                model, data, cut = shots[label]
                cut_total += cut
                fn = "%s_%s_%s.png" % (name, label, lang)
                with open(os.path.join(a.out, fn), "wb") as f:
                    f.write(data)
                cells.append("![](%s)" % fn)
                if cut:
                    print("CUT %s %s %s: %r" % (name, label, lang, model), file=sys.stderr)
            index.append("| %s %s | %s | %s | %s | %s |" % (name, lang, state, what[name], cells[0], cells[1]))
    with open(os.path.join(a.out, "README.md"), "w", encoding="utf-8") as f:
        f.write("\n".join(index) + "\n")
    print("%d screens x %d sizes x %d languages in %s, %d texts cut short" % (
        len(SCREENS), len(SIZES), len(a.lang), a.out, cut_total))
    return 1 if cut_total else 0


if __name__ == "__main__":
    sys.exit(main())
