# The table application: keys, tag reads and the clock in; screens and journal records out.
#
#   app = App(journal, clock_ms, device_id="box-1")
#   app.press("A"); app.tap(uid, tile); app.tick(); app.screen() -> (title, lines, hint)
#
# Inputs of the wrong kind for the current step get a message and change nothing. Any exception
# in a handler puts the app back on its main screen with the journal untouched; the hand in
# progress keeps the events already confirmed.
from rules_min import jsonout
from firmware.entry import Entry
from firmware.session import Session, check_config, WINDS
from firmware import texts
from firmware.texts import t as _t

VERSION = 1
_KEYS_DIGITS = "0123456789"
_SUIT_KEYS = "ABC"   # key-in fallback: digit then A/B/C = m/s/p; 0 then 1-7 = E S W N C F P


def payload(record):
    return bytes((VERSION,)) + jsonout.dumps(record).encode()


def decode(payload_bytes):
    import json
    if not payload_bytes or payload_bytes[0] != VERSION:
        return None
    return json.loads(bytes(payload_bytes[1:]).decode())


class App:
    def __init__(self, journal, clock_ms, device_id="box", lang="cn", pin="2580", epoch=0):
        self.j = journal
        self.clock = clock_ms
        self.device_id = device_id
        self.lang = lang
        self.pin = pin
        self.epoch = epoch            # unix seconds at clock 0; set by the host's clock command
        self.session = None
        self.events = []              # confirmed events of the hand in progress
        self.hand_start = 0
        self.state = "idle"
        self.d = {}                   # the current step's data
        self.msg = ""
        self.num = ""                 # digits keyed so far
        self.pending = None           # first key of a keyed-in tile
        self.last_commit_ms = None    # for the figures: confirm -> record on flash
        self._resume()

    # ---- time and text ----
    def now_s(self):
        return self.epoch + self.clock() // 1000

    def tx(self, key):
        return _t(key, self.lang)

    # ---- inputs ----
    def press(self, key):
        self.msg = ""
        try:
            if key == "*" and self.pending is not None:
                self.pending = None
                return
            getattr(self, "_k_" + self.state)(key)
        except Exception as e:   # no traceback on the screen: back to a safe place
            self._reset_after_error(e)

    def tap(self, uid, tile):
        """A tag was read: uid bytes and the tile code it carries (or an error string)."""
        self.msg = ""
        if isinstance(tile, str):
            self.msg = tile
            return
        try:
            h = getattr(self, "_t_" + self.state, None)
            if h is None:
                self.msg = "no tile needed now"
            else:
                h(tile, bytes(uid) if uid is not None else None)
        except Exception as e:
            self._reset_after_error(e)

    def tick(self):
        s = self.session
        if s is not None and not s.ended and self.state == "main" and s.timed_out(self.clock()):
            self.state = "timeout"

    def _reset_after_error(self, e):
        self.state = "main" if self.session is not None and not self.session.ended else (
            "ended" if self.session is not None else "idle")
        self.d = {}
        self.num = ""
        self.pending = None
        self.msg = self.tx("error") + ": " + type(e).__name__

    # ---- the host's config ----
    def push_config(self, cfg):
        """Start a session from the host's config; returns an error message or None."""
        if self.session is not None and not self.session.ended:
            return "a session is running"
        err = check_config(cfg)
        if err:
            return err
        if hasattr(self.j, "can_start_session") and not self.j.can_start_session(16 * 600):
            return self.tx("full")
        rec = {"v": 1, "kind": "session", "time": self.now_s(), "device": self.device_id}
        for k in ("tournament", "session", "table", "rules", "first_dealer", "hands", "minutes"):
            if k in cfg:
                rec[k] = cfg[k]
        rec["seats"] = cfg["players"]
        self.j.append(payload(rec))
        self._start(cfg, self.clock())
        return None

    def _start(self, cfg, start_ms):
        _preload(cfg["rules"])
        self.session = Session(cfg, start_ms)
        self.events = []
        self.hand_start = start_ms
        self.state = "main"

    # ---- resume after a reboot: replay the journal ----
    def _resume(self):
        cfg = None
        started = 0
        closed = False
        for seq, data in self.j.records(1):
            rec = decode(data)
            if rec is None:
                continue
            kind = rec.get("kind")
            if kind == "session":
                cfg = {"rules": rec["rules"], "players": rec["seats"], "tournament": rec["tournament"],
                       "session": rec["session"], "table": rec["table"],
                       "first_dealer": rec.get("first_dealer", 0)}
                for k in ("hands", "minutes"):
                    if k in rec:
                        cfg[k] = rec[k]
                self.session = Session(cfg, 0)
                started = rec.get("time", 0)
            elif self.session is None:
                continue
            elif kind == "hand":
                s = self.session
                s.apply(rec["deltas"])
                if rec.get("time_out"):
                    s.time_out()
                else:
                    s.next_hand(rec.get("next_dealer"))
            elif kind == "correction":
                self._apply_correction(rec)
            elif kind == "session_end":
                self.session.ended = self.session.ended or "hands"
                closed = True
            if kind == "session":
                closed = False
        if self.session is not None:
            _preload(self.session.rules)
            if self.session.ended and not closed:
                # the power died between the last hand and the session's closing record
                self._end_session()
            # the clock restarts at boot: the session's time runs from its record's time
            self.session.start_ms = self.clock() - max(0, self.now_s() - started) * 1000
            self.state = "ended" if self.session.ended else "main"

    def _apply_correction(self, rec):
        # a correction replaces the hand's points: "deltas" are the new ones, "was" the old
        s = self.session
        seats = rec.get("seats") or s.seats()
        for c in range(4):
            s.totals[s.players.index(seats[c])] += rec["deltas"][c] - rec["was"][c]

    # ---- settlement of the hand in progress ----
    def _settle(self, events):
        from rules_min.settle import Hand
        s = self.session
        h = Hand(s.rules, s.dealer, WINDS[s.prevalent])
        for i in range(len(events)):
            h.event(i, events[i])
        return h

    def _try(self, ev):
        """Settle the hand with ev added; (Hand, None) or (None, message)."""
        try:
            return self._settle(self.events + [ev]), None
        except ValueError as e:
            return None, e.args[1] if len(e.args) > 1 else str(e)

    def running(self):
        """Points of the hand so far, per chair."""
        if not self.events:
            return [0, 0, 0, 0]
        return self._settle(self.events).deltas()

    # ---- committing ----
    def _commit_hand(self, h, time_out=False):
        s = self.session
        h.finish()
        win = None
        for ev in self.events:
            if "win" in ev:
                win = ev
                break
        rec = {"v": 1, "kind": "hand", "tournament": s.cfg["tournament"], "session": s.cfg["session"],
               "table": s.cfg["table"], "hand": s.hand, "rules": s.rules, "seats": s.seats(),
               "dealer": s.dealer, "prevalent_wind": WINDS[s.prevalent], "events": self.events,
               "deltas": h.deltas(), "next_dealer": h.next_dealer,
               "winners": h.winners, "discarder": None if win is None else win.get("from"),
               "fans": self._fans_summary(win), "time": self.now_s()}
        if time_out:
            rec["time_out"] = True
        t0 = self.clock()
        self.j.append(payload(rec))
        self.last_commit_ms = self.clock() - t0
        s.apply(rec["deltas"])
        if time_out:
            s.time_out()
        else:
            s.next_hand(h.next_dealer)
        self.events = []
        self.hand_start = self.clock()
        if s.ended:
            self._end_session()
        else:
            self.state = "main"
        self.msg = self.tx("saved")

    def _end_session(self):
        s = self.session
        rec = {"v": 1, "kind": "session_end", "tournament": s.cfg["tournament"], "session": s.cfg["session"],
               "table": s.cfg["table"], "hands": s.hand - 1, "reason": s.ended or "referee",
               "match_scores": {s.players[p]: s.totals[p] for p in range(4)}, "time": self.now_s()}
        self.j.append(payload(rec))
        s.ended = s.ended or "referee"
        self.state = "ended"

    def _fans_summary(self, win):
        if win is None:
            return None
        names, total = self._fans(win)
        return {"seat": win["win"], "total": total, "names": names}

    def _fans(self, ev):
        from rules_min.notation import parse
        s = self.session
        melds, counts, w, letters = parse(ev["hand"])
        self_drawn = ev.get("from") is None
        names = []
        if s.rules == "mcr":
            from rules_min import mcr
            from rules_min.mcr_table import name, ORDER
            ft, total = mcr.score(melds, counts, w, self_drawn, ev.get("last_of_kind", False),
                                  ev.get("last_tile", False), ev.get("kong", False),
                                  27 + (ev["win"] - s.dealer) % 4, 27 + s.prevalent)
            for f in ORDER:
                if ft[f]:
                    names.append(name(f, self.lang == "en") + ("x%d" % ft[f] if ft[f] > 1 else ""))
            fl = ev.get("flowers", 0)
            if fl:
                names.append(("flowers x%d" if self.lang == "en" else "花牌x%d") % fl)
            return names, total + fl
        if s.rules == "sichuan":
            from rules_min import sichuan
            f, total = sichuan.score(melds, counts, w, self_drawn, ev.get("kong", False),
                                     ev.get("last_tile", False))
            for i in range(sichuan.NUM_FANS):
                if f[i]:
                    names.append(sichuan.name(i, self.lang == "en"))
            return names, total
        from rules_min import guangdong
        row = guangdong.score(melds, counts, w)
        r = guangdong.HAND_TABLE[row]
        return [r[1] if self.lang == "en" else r[0]], r[2]

    # ---- screens ----
    def screen(self):
        fn = getattr(self, "_s_" + self.state)
        title, lines, hint = fn()
        if self.msg:
            lines = list(lines) + ["! " + self.msg]
        if self.pending is not None:
            hint = "tile: " + self.pending + "_"
        return title, lines, hint

    def _names(self):
        s = self.session
        return [s.player_at(c) for c in range(4)]

    def _status_lines(self):
        # two chairs a line, so a 128x64 screen shows all four; this hand's points on a third
        s = self.session
        run = self.running()
        cells = []
        for c in range(4):
            p = s.chairs[c]
            cells.append("%d%s%s%s %d" % (c + 1, s.seat_wind(c), "*" if c == s.dealer else "", s.players[p],
                                           s.totals[p]))
        lines = [cells[0] + "\t" + cells[1], cells[2] + "\t" + cells[3]]
        if any(run):
            lines.append(" ".join("%+d" % x for x in run))
        return lines

    # idle
    def _s_idle(self):
        return self.tx("idle"), [self.device_id], self.tx("keyin")

    def _k_idle(self, key):
        if key == "D":
            self.state = "cfg"
            self.d = {"step": 0, "cfg": {"tournament": "T", "players": []}}
            self.num = ""

    # keyed-in config: rules, table, session, four player numbers, dealer
    _CFG_STEPS = ("rules", "table", "session", "player", "player", "player", "player", "dealer", "check")

    def _s_cfg(self):
        step = self._CFG_STEPS[self.d["step"]]
        c = self.d["cfg"]
        lines = []
        if step == "player":
            lines.append("%s %d: %s" % (self.tx("player"), len(c["players"]) + 1, self.num))
        elif step == "check":
            lines = [c["rules"] + " T%s S%s" % (c["table"], c["session"]), " ".join(c["players"])]
        else:
            lines.append(self.num)
        return self.tx(step), lines, self.tx("ok")

    def _k_cfg(self, key):
        d = self.d
        step = self._CFG_STEPS[d["step"]]
        c = d["cfg"]
        if key == "*":
            if self.num:
                self.num = self.num[:-1]
            elif d["step"] == 0:
                self.state = "idle"
            else:
                d["step"] -= 1
                if self._CFG_STEPS[d["step"]] == "player" and c["players"]:
                    c["players"].pop()
            return
        if step == "rules":
            if key in "123":
                c["rules"] = ("mcr", "sichuan", "guangdong")[int(key) - 1]
                d["step"] += 1
            return
        if step == "dealer":
            if key in "1234":
                c["first_dealer"] = int(key) - 1
                d["step"] += 1
            return
        if step == "check":
            if key == "#":
                err = self.push_config(c)
                if err:
                    self.msg = err
            return
        if key in _KEYS_DIGITS and len(self.num) < 6:
            self.num += key
        elif key == "#" and self.num:
            if step == "player":
                if self.num in c["players"]:
                    self.msg = "a player sits at two places"
                    self.num = ""
                    return
                c["players"].append(self.num)
            else:
                c[step] = int(self.num)
            self.num = ""
            d["step"] += 1

    # main: the hand in progress
    def _s_main(self):
        s = self.session
        left = s.time_left_ms(self.clock()) // 60000
        title = "%s %d/%d %s %s %dmin" % (self.tx("hand"), s.hand, s.hands, WINDS[s.prevalent],
                                          self.tx("left"), left)
        return title, self._status_lines(), self.tx("menu")

    def _k_main(self, key):
        if key == "A":
            self._begin("win_who")
        elif key == "B":
            self._begin("kong_who")
        elif key == "C":
            self._begin("pen_who")
        elif key == "D":
            self._begin("more")
        elif key == "*" and self.events:
            self._begin("undo")

    def _begin(self, state, **d):
        self.state = state
        self.d = d
        self.num = ""
        self.pending = None

    # undo the last confirmed event of the hand
    def _s_undo(self):
        return "Undo?", [self._describe(self.events[-1])], self.tx("ok")

    def _k_undo(self, key):
        if key == "#":
            self.events.pop()
            self.state = "main"
        elif key == "*":
            self.state = "main"

    def _describe(self, ev):
        for k in ("win", "kong", "penalty", "declare"):
            if k in ev:
                return "%s %s" % (k, ev[k])
        return "wall end" if ev.get("wall_end") else "event"

    # seat prompts shared by several flows
    def _seat_lines(self):
        s = self.session
        return ["%d %s %s" % (c + 1, s.seat_wind(c), s.player_at(c)) for c in range(4)]

    def _seat_key(self, key, allow_zero=False):
        if key in "1234":
            return int(key) - 1
        if allow_zero and key == "0":
            return -1
        return None

    # ---- win ----
    def _s_win_who(self):
        return self.tx("winner"), self._seat_lines(), self.tx("back")

    def _k_win_who(self, key):
        if key == "*":
            self.state = "main"
            return
        c = self._seat_key(key)
        if c is not None:
            self._begin("win_from", winner=c, group=self.d.get("group"))

    def _s_win_from(self):
        return self.tx("from"), self._seat_lines(), self.tx("back")

    def _k_win_from(self, key):
        if key == "*":
            self.state = "win_who" if self.d.get("group") is None else "another"
            return
        c = self._seat_key(key, allow_zero=True)
        if c is None:
            return
        if c == self.d["winner"]:
            self.msg = "the winner cannot be the discarder"
            return
        if self.d.get("group") is not None and c != self.d["group"]:
            self.msg = "same discard: discarder %d" % (self.d["group"] + 1)
            return
        rules = self.session.rules
        self.d["from"] = None if c < 0 else c
        self.d["entry"] = Entry(14, chows=rules == "mcr", honours=rules != "sichuan")
        self.d["flags"] = {}
        self.d["next"] = "flags"
        self.state = "melds"

    # tile entry, shared by win, declare and wall-end hands
    def _keyed_tile(self, key):
        """Key-in fallback for a tile whose tag fails. Returns a tile code, None (nothing yet),
        or -1 when the key is no part of a tile."""
        if self.pending is None:
            if key in "0123456789":
                self.pending = key
                return None
            return -1
        p = self.pending
        self.pending = None
        if p == "0":
            if key in "1234567":
                return 27 + int(key) - 1
            self.msg = "honour: 0 then 1-7"
            return None
        if key in _SUIT_KEYS:
            return _SUIT_KEYS.find(key) * 9 + int(p) - 1
        self.msg = "suit: A=m B=s C=p"
        return None

    def _s_melds(self):
        return self.tx("melds"), _hand_lines(self.d["entry"]), "# " + self.tx("back")

    def _k_melds(self, key):
        e = self.d["entry"]
        if key == "*":
            if not e.drop_meld():
                self._back_from_entry()
            return
        if key == "#":
            if not e.current:
                self.state = "concealed"
                return
            kind = e.meld_kind()
            if kind is None:
                self.msg = "not a meld"
                return
            self.state = "meld_offer"
            return
        t = self._keyed_tile(key)
        if t is not None and t >= 0:
            self._t_melds(t, None)

    def _t_melds(self, tile, uid):
        if tile >= 34:
            self._flower(tile)
            return
        err = self.d["entry"].add_meld_tile(tile, uid)
        if err:
            self.msg = err

    def _flower(self, tile):
        if self.session.rules != "mcr":
            self.msg = "no flowers in this rule set"
            return
        f = self.d.setdefault("flags", {})
        seen = f.setdefault("flower_tiles", [])
        if tile in seen:
            self.msg = "that flower was already read"
            return
        seen.append(tile)
        f["flowers"] = len(seen)

    def _s_meld_offer(self):
        kind = self.d["entry"].meld_kind()
        key = "offer_kong" if kind == 2 else ("offer_chow" if kind == 0 else "offer")
        return self.tx(key), [self.d["entry"].notation()], self.tx("back")

    def _k_meld_offer(self, key):
        if key == "*":
            self.state = "melds"
            return
        if key in "0123":
            err = self.d["entry"].close_meld(int(key))
            if err:
                self.msg = err
            else:
                self.state = "melds"

    def _s_concealed(self):
        e = self.d["entry"]
        need = e.need_concealed()
        have = len(e.concealed)
        prompt = "wintile" if e.size == 14 and have == need - 1 else "tiles"
        return self.tx(prompt), _hand_lines(e) + ["%d/%d" % (have, need)], "# *"

    def _k_concealed(self, key):
        e = self.d["entry"]
        if key == "*":
            if not e.drop_concealed():
                self.state = "melds"
            return
        if key == "#":
            if e.complete():
                self.state = self.d["next"]
            else:
                self.msg = "%d/%d tiles" % (len(e.concealed), e.need_concealed())
            return
        t = self._keyed_tile(key)
        if t is not None and t >= 0:
            self._t_concealed(t, None)

    def _t_concealed(self, tile, uid):
        if tile >= 34:
            self._flower(tile)
            return
        e = self.d["entry"]
        err = e.add_concealed(tile, uid)
        if err:
            self.msg = err
        elif e.complete():
            self.state = self.d["next"]

    def _back_from_entry(self):
        nxt = self.d.get("next")
        if nxt == "flags":
            self.state = "win_from"
        elif nxt == "decl_result":
            self.state = "decl_who"
        else:
            self.state = "main"

    # flags, then the result
    def _s_flags(self):
        f = self.d["flags"]
        rules = self.session.rules
        if rules == "mcr":
            on = "".join(k for k, v in (("1", f.get("last_of_kind")), ("2", f.get("last_tile")),
                                        ("3", f.get("kong"))) if v)
            return self.tx("flags_mcr"), ["on: " + on, "flowers %d" % f.get("flowers", 0)], self.tx("ok")
        if rules == "sichuan":
            return self.tx("flags_sc"), ["void %s kong %s last %s" % (f.get("missing_suit", "-"),
                                        f.get("kong", False), f.get("last_tile", False))], self.tx("ok")
        return self.tx("flags_gd"), ["horses " + " ".join(_tn(x) for x in f.get("horse_tiles", []))], self.tx("ok")

    def _k_flags(self, key):
        f = self.d["flags"]
        rules = self.session.rules
        if key == "*":
            self.state = "concealed"
            self.d["entry"].drop_concealed()
            return
        if key == "#":
            self._preview_win()
            return
        if rules == "mcr":
            k = {"1": "last_of_kind", "2": "last_tile", "3": "kong"}.get(key)
            if k:
                f[k] = not f.get(k, False)
            elif key == "4":
                f["flowers"] = (f.get("flowers", 0) + 1) % 9
        elif rules == "sichuan":
            if key in "123":
                f["missing_suit"] = "msp"[int(key) - 1]
            elif key == "4":
                f["kong"] = not f.get("kong", False)
            elif key == "5":
                f["last_tile"] = not f.get("last_tile", False)
        else:
            if key == "4":
                f["kong"] = not f.get("kong", False)

    def _t_flags(self, tile, uid):
        if self.session.rules != "guangdong":
            self.msg = "no tile needed now"
            return
        hs = self.d["flags"].setdefault("horse_tiles", [])
        if len(hs) >= 2:
            self.msg = "two horses at most"
            return
        hs.append(tile)

    def _win_event(self):
        d = self.d
        f = d["flags"]
        ev = {"win": d["winner"], "from": d["from"], "hand": d["entry"].notation()}
        for k in ("kong", "last_tile", "last_of_kind"):
            if f.get(k):
                ev[k] = True
        if f.get("flowers"):
            ev["flowers"] = f["flowers"]
        if f.get("missing_suit"):
            ev["missing_suit"] = f["missing_suit"]
        if f.get("horse_tiles"):
            ev["horses"] = [_tn(x) for x in f["horse_tiles"]]
        return ev

    def _preview_win(self):
        ev = self._win_event()
        h, err = self._try(ev)
        if err:
            self.msg = err
            return
        names, total = self._fans(ev)
        before = self.running()
        after = h.deltas()
        self.d["event"] = ev
        self.d["result"] = (names, total, [after[c] - before[c] for c in range(4)])
        self.d["ok"] = [False] * 4
        self.state = "confirm"

    def _s_confirm(self):
        names, total, pay = self.d["result"]
        lines = ["%d %s" % (total, self.tx("fans"))] + names
        lines.append(" ".join("%+d" % p for p in pay))
        ok = "".join(str(c + 1) if self.d["ok"][c] else "." for c in range(4))
        return self.tx("confirm4"), lines, ok + " *"

    def _k_confirm(self, key):
        if key == "*":
            self.state = self.d.get("back", "flags")
            return
        c = self._seat_key(key)
        if c is None:
            return
        self.d["ok"][c] = True
        if all(self.d["ok"]):
            self._confirmed(self.d["event"])

    def _confirmed(self, ev):
        self.events.append(ev)
        h = self._settle(self.events)
        if "win" in ev and ev.get("from") is not None and self.session.rules != "mcr":
            self._begin("another", group=ev["from"])
            return
        self._after_event(h)

    def _after_event(self, h):
        h.finish()
        if h.ended:
            self._commit_hand(h)
        else:
            self.state = "main"

    def _s_another(self):
        return self.tx("another"), self._seat_lines(), ""

    def _k_another(self, key):
        if key == "#":
            self._after_event(self._settle(self.events))
            return
        c = self._seat_key(key)
        if c is not None and c != self.d["group"]:
            self._begin("win_from", winner=c, group=self.d["group"])
            self._k_win_from(str(self.d["group"] + 1))

    # ---- kong ----
    def _s_kong_who(self):
        return self.tx("kong_who"), self._seat_lines(), self.tx("back")

    def _k_kong_who(self, key):
        if key == "*":
            self.state = "main"
            return
        c = self._seat_key(key)
        if c is not None:
            self._begin("kong_kind", seat=c)

    def _s_kong_kind(self):
        return self.tx("kong_kind"), [self.session.player_at(self.d["seat"])], self.tx("back")

    def _k_kong_kind(self, key):
        if key == "*":
            self.state = "kong_who"
        elif key in "123":
            self.d["kind"] = ("concealed", "added", "direct")[int(key) - 1]
            self.state = "kong_from" if key == "3" else "kong_ok"

    def _s_kong_from(self):
        return self.tx("kong_from"), self._seat_lines(), self.tx("back")

    def _k_kong_from(self, key):
        if key == "*":
            self.state = "kong_kind"
            return
        c = self._seat_key(key)
        if c is not None:
            self.d["from"] = c
            self.state = "kong_ok"

    def _kong_event(self):
        ev = {"kong": self.d["kind"], "seat": self.d["seat"]}
        if self.d["kind"] == "direct":
            ev["from"] = self.d["from"]
        return ev

    def _s_kong_ok(self):
        ev = self._kong_event()
        h, err = self._try(ev)
        lines = [self._describe(ev)]
        if h is not None:
            before = self.running()
            after = h.deltas()
            lines.append(" ".join("%+d" % (after[c] - before[c]) for c in range(4)))
        return self.tx("check"), lines, self.tx("ok")

    def _k_kong_ok(self, key):
        if key == "*":
            self.state = "kong_kind"
        elif key == "#":
            self._simple_event(self._kong_event())

    def _simple_event(self, ev):
        h, err = self._try(ev)
        if err:
            self.msg = err
            return
        self.events.append(ev)
        self._after_event(h)

    # ---- penalties ----
    def _s_pen_who(self):
        return self.tx("pen_who"), self._seat_lines(), self.tx("back")

    def _k_pen_who(self, key):
        if key == "*":
            self.state = "main"
            return
        c = self._seat_key(key)
        if c is not None:
            self._begin("pen_kind", seat=c)

    def _s_pen_kind(self):
        kinds = texts.PENALTIES[self.session.rules]
        return "1-%d" % len(kinds), ["%d %s" % (i + 1, texts.penalty_name(k, self.lang))
                                     for i, k in enumerate(kinds)], self.tx("back")

    def _k_pen_kind(self, key):
        kinds = texts.PENALTIES[self.session.rules]
        if key == "*":
            self.state = "pen_who"
            return
        if key in "123456789" and int(key) <= len(kinds):
            self.d["kind"] = kinds[int(key) - 1]
            self.num = ""
            self.state = "pen_min" if self.d["kind"] == "late" else "pen_ok"

    def _s_pen_min(self):
        return self.tx("minutes"), [self.num], self.tx("ok")

    def _k_pen_min(self, key):
        if key == "*":
            if self.num:
                self.num = self.num[:-1]
            else:
                self.state = "pen_kind"
        elif key in _KEYS_DIGITS and len(self.num) < 3:
            self.num += key
        elif key == "#" and self.num:
            self.d["minutes"] = int(self.num)
            self.state = "pen_ok"

    def _pen_event(self):
        ev = {"penalty": self.d["kind"], "seat": self.d["seat"]}
        if "minutes" in self.d:
            ev["minutes"] = self.d["minutes"]
        return ev

    def _s_pen_ok(self):
        return self.tx("check"), [self.session.player_at(self.d["seat"]) + " " + self.d["kind"]], self.tx("ok")

    def _k_pen_ok(self, key):
        if key == "*":
            self.state = "pen_kind"
        elif key == "#":
            self._simple_event(self._pen_event())

    # ---- more ----
    def _s_more(self):
        return "D", [self.tx("more")], self.tx("back")

    def _k_more(self, key):
        if key == "*":
            self.state = "main"
        elif key == "1":
            self._begin("decl_who")
        elif key == "2":
            self._begin_wall()
        elif key == "3":
            self._begin("timeout")
        elif key == "4":
            self._begin("pin")
        elif key == "5":
            self.lang = "en" if self.lang == "cn" else "cn"
            self.state = "main"

    # declared wins that fail
    def _s_decl_who(self):
        return self.tx("declare_who"), self._seat_lines(), self.tx("back")

    def _k_decl_who(self, key):
        if key == "*":
            self.state = "more"
            return
        c = self._seat_key(key)
        if c is not None:
            rules = self.session.rules
            self._begin("melds", seat=c, entry=Entry(14, chows=rules == "mcr", honours=rules != "sichuan"),
                        flags={}, next="decl_result")

    def _s_decl_result(self):
        return self.tx("check"), [self.d["entry"].notation()], self.tx("ok")

    def _k_decl_result(self, key):
        if key == "*":
            self.state = "concealed"
            self.d["entry"].drop_concealed()
            return
        if key == "#":
            ev = {"declare": self.d["seat"], "hand": self.d["entry"].notation()}
            h, err = self._try(ev)
            if err:
                self.msg = err
                return
            before = self.running()
            after = h.deltas()
            self.d["event"] = ev
            self.d["result"] = ([h.transfers[-1][3]] if h.transfers else [], 0,
                                [after[c] - before[c] for c in range(4)])
            self.d["ok"] = [False] * 4
            self.d["back"] = "decl_result"
            self.state = "confirm"

    # wall end: Sichuan needs the hands of the players still in
    def _begin_wall(self):
        if self.session.rules != "sichuan":
            self._begin("wall_ok", hands={})
            return
        h = self._settle(self.events)
        still = [c for c in range(4) if not h.out[c]]
        self._begin("wall_seat", still=still, hands={}, missing={}, i=0)
        self._wall_next()

    def _wall_next(self):
        d = self.d
        if d["i"] >= len(d["still"]):
            self.state = "wall_ok"
            return
        self.d["entry"] = Entry(13, chows=False, honours=False)
        self.d["next"] = "wall_void"
        self.state = "melds"

    def _s_wall_void(self):
        c = self.d["still"][self.d["i"]]
        return "%d: 1m 2s 3p" % (c + 1), [self.d["entry"].notation()], self.tx("back")

    def _k_wall_void(self, key):
        if key == "*":
            self.state = "concealed"
            self.d["entry"].drop_concealed()
        elif key in "123":
            c = self.d["still"][self.d["i"]]
            self.d["hands"][str(c)] = self.d["entry"].notation()
            self.d["missing"][str(c)] = "msp"[int(key) - 1]
            self.d["i"] += 1
            self._wall_next()

    def _s_wall_ok(self):
        ev = self._wall_event()
        h, err = self._try(ev)
        if err:
            return self.tx("check"), [err], self.tx("back")
        before = self.running()
        after = h.deltas()
        return self.tx("check"), ["wall end", " ".join("%+d" % (after[c] - before[c]) for c in range(4))], self.tx("ok")

    def _wall_event(self):
        ev = {"wall_end": True}
        if self.d.get("hands"):
            ev["hands"] = self.d["hands"]
            ev["missing_suit"] = self.d["missing"]
        return ev

    def _k_wall_ok(self, key):
        if key == "*":
            self.state = "main"
        elif key == "#":
            self._simple_event(self._wall_event())

    # time-out: the hand in progress is recorded for its settled kongs (Guangdong/Sichuan)
    def _s_timeout(self):
        return self.tx("timeout"), self._status_lines(), self.tx("ok")

    def _k_timeout(self, key):
        if key == "*":
            self.state = "main"
        elif key == "#":
            self.events.append({"time_out": True})
            self._commit_hand(self._settle(self.events), time_out=True)

    # ---- referee ----
    def _s_pin(self):
        return self.tx("pin"), ["*" * len(self.num)], self.tx("ok")

    def _k_pin(self, key):
        if key in _KEYS_DIGITS and len(self.num) < 8:
            self.num += key
        elif key == "*":
            self.state = "main" if self.session and not self.session.ended else "ended"
        elif key == "#":
            ok = self.num == self.pin
            self.num = ""
            if ok:
                self.state = "ref"
            else:
                self.msg = "wrong PIN"

    def _s_ref(self):
        return self.tx("ref"), [], self.tx("back")

    def _k_ref(self, key):
        if key == "*":
            self.state = "main" if not self.session.ended else "ended"
        elif key == "1":
            self._begin("corr_hand")
        elif key == "2" and not self.session.ended:
            self._end_session()

    def _s_corr_hand(self):
        return self.tx("corr_hand"), [self.num], self.tx("ok")

    def _k_corr_hand(self, key):
        if key in _KEYS_DIGITS and len(self.num) < 3:
            self.num += key
        elif key == "*":
            self.state = "ref"
        elif key == "#" and self.num:
            n = int(self.num)
            cfg = self.session.cfg
            found = None
            for seq, data in self.j.records(1):
                rec = decode(data)
                if rec is None:
                    continue
                if rec.get("kind") == "hand" and rec.get("hand") == n and \
                        rec.get("session") == cfg["session"] and rec.get("table") == cfg["table"]:
                    found = [seq, rec["seats"], rec["deltas"]]
                elif rec.get("kind") == "correction" and found and rec["corrects"]["seq"] == found[0]:
                    found[2] = rec["deltas"]   # the latest correction is what counts now
            self.num = ""
            if found is None:
                self.msg = "no such hand"
                return
            self._begin("corr_delta", seq=found[0], seats=found[1], was=found[2], deltas=[], neg=False)

    def _s_corr_delta(self):
        d = self.d
        c = len(d["deltas"])
        lines = ["%d %s %+d -> %s%s" % (c + 1, d["seats"][c], d["was"][c], "-" if d["neg"] else "", self.num)]
        return self.tx("corr_delta"), lines + ["%+d" % x for x in d["deltas"]], self.tx("ok")

    def _k_corr_delta(self, key):
        d = self.d
        if key in _KEYS_DIGITS and len(self.num) < 4:
            self.num += key
        elif key == "A":
            d["neg"] = not d["neg"]
        elif key == "*":
            self.state = "ref"
        elif key == "#":
            v = int(self.num or "0")
            d["deltas"].append(-v if d["neg"] else v)
            self.num = ""
            d["neg"] = False
            if len(d["deltas"]) == 4:
                rec = {"v": 1, "kind": "correction", "corrects": {"device": self.device_id, "seq": d["seq"]},
                       "seats": d["seats"], "deltas": d["deltas"], "was": d["was"], "reason": "corrected at the table",
                       "referee": "table PIN", "time": self.now_s()}
                self.j.append(payload(rec))
                self._apply_correction(rec)
                self.msg = self.tx("saved")
                self.state = "main" if not self.session.ended else "ended"

    # ---- the end ----
    def _s_ended(self):
        s = self.session
        std = s.standard_scores()
        lines = []
        for p in range(4):
            lines.append("%s %d%s" % (s.players[p], s.totals[p],
                                      (" %d.%d" % (std[p] // 10, std[p] % 10)) if std else ""))
        return self.tx("ended"), lines, "D"

    def _k_ended(self, key):
        if key == "D":
            self.session = None
            self._begin("idle")
        elif key == "4":
            self._begin("pin")


def _preload(rules):
    # Load the rule set's scorer while the heap is still in one piece: imported later, in the
    # middle of a session, a module's code may find no block big enough.
    import rules_min.settle
    import rules_min.notation
    if rules == "mcr":
        import rules_min.mcr
        import rules_min.mcr_pay
    elif rules == "sichuan":
        import rules_min.sichuan
    else:
        import rules_min.guangdong


def _compact(tiles):
    # 1m2m3m5s -> 123m5s: fits the 128 px screen
    out = ""
    cur = ""
    suit = None
    for t in sorted(tiles):
        if t >= 27:
            if cur:
                out += cur + "msp"[suit]
                cur = ""
                suit = None
            out += _tn(t)
        elif suit == t // 9:
            cur += str(t % 9 + 1)
        else:
            if cur:
                out += cur + "msp"[suit]
            suit = t // 9
            cur = str(t % 9 + 1)
    if cur:
        out += cur + "msp"[suit]
    return out


def _hand_lines(e):
    """The entry so far on two short lines: claimed melds, then the concealed tiles."""
    melds = " ".join(_compact(m[1]) for m in e.melds)
    if e.current:
        melds += (" " if melds else "") + "[" + _compact(e.current)
    conc = _compact(e.concealed[:-1]) if e.size == 14 and e.complete() else _compact(e.concealed)
    return [melds] if not e.concealed else ([melds, conc] if melds else [conc])


def _tn(t):
    from rules_min.tiles import name
    if t >= 34:
        return "abcdefgh"[t - 34]
    return name(t)
