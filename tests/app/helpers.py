"""A table driving the firmware App directly: keys, taps (each copy of a tile in turn), clock."""
from firmware.app import App
from firmware.journal import Journal
from protocol import record
from rules_min.tiles import parse_tile

MCR = {"rules": "mcr", "tournament": "T", "session": 1, "table": 7, "players": ["101", "102", "103", "104"],
       "first_dealer": 0}
SC = dict(MCR, rules="sichuan", players=["21", "22", "23", "24"])
GD = dict(MCR, rules="guangdong", players=["31", "32", "33", "34"])
WIN = "1s 3s 4s 4s 5s 5s 5s 6s 6s 6s 7s 7s 7s 2s"            # MCR: 清一色 and more, any seat
SC_WIN = "1m 2m 3m 4m 5m 6m 7m 8m 9m 1s 1s 2s 3s 4s"          # Sichuan/Guangdong: 清龙-ish, void p


class Table:
    def __init__(self, tmp_path, cfg=None, lang="cn", name="j"):
        self.dir = str(tmp_path / name)
        self.ms = 0
        self.copies = {}
        self.screens = []
        self.boot(lang)
        if cfg is not None:
            assert self.app.push_config(cfg) is None

    def boot(self, lang="cn"):
        self.journal = Journal(self.dir)
        self.app = App(self.journal, lambda: self.ms, device_id="box-1", lang=lang, epoch=1764400000)

    def keys(self, s):
        for k in s.replace(" ", ""):
            self.app.press(k)
            self.screens.append(self.app.screen())
            self.app.after_draw()  # as the device loop does once the screen is drawn
        return self

    def tap(self, s):
        for name in s.split():
            t = 34 + "abcdefgh".find(name) if len(name) == 1 and name in "abcdefgh" else parse_tile(name)
            n = self.copies.get(t, 0)
            self.copies[t] = n + 1
            self.app.tap(bytes((4, t, n, 1)), t)
            self.screens.append(self.app.screen())
            self.app.after_draw()
        return self

    def records(self):
        return [record.decode(bytes(p)) for _, p in self.journal.records(1)]

    def screen_text(self):
        title, lines, hint = self.app.screen()
        return " | ".join([title] + list(lines) + [hint])
