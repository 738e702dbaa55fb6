# The table application: keys, tag reads and the clock in; screens and journal records out.
#
#   app = App(journal, clock_ms, device_id="box-1", lang="cn", epoch=0)
#   app.press("A"); app.tap(uid, tile); app.tick(); app.screen() -> (title, lines, hint)
#   app.state                      # a name of firmware/states.py
#   app.push_config(cfg)           # start a session (the host's config); None or an error
#   app.fit(display)               # lay screens out for this display (rows, font widths)
#
# The App keeps the session, the hand in progress and the journal; each flow (a module of
# firmware/flows/, listed with its states in firmware/states.py) draws its screens and takes
# its keys. The hand in progress is one rules_min.settle.Hand, fed each event once: the preview
# of a win, its confirmation screen and its record all use the one scoring of that win.
#
# Inputs of the wrong kind for the current step get a message and change nothing. An exception
# in a handler puts the app back on its main screen with the journal untouched; the hand in
# progress keeps the events already confirmed.
from firmware import flows, layout, states as S, texts as T
from firmware.session import Session, WINDS
import sys

_MP = sys.implementation.name == "micropython"
_ROOMY = 64 * 1024   # free heap above which the flows of every hand stay loaded
if _MP:
    import gc as _gc


def _record():
    # protocol/record.py, imported where a record is built or read (the module stays loaded,
    # except while a declared win is keyed: make_room)
    from protocol import record
    return record


def make_room():
    """Forget protocol/record.py until the next record is built (it comes back then): a declared
    win needs rules_min/shanten.py's ~11K beside the hand (firmware/flows/declare.py) on the
    unix port's 256K heap."""
    if _MP:   # on CPython the host's tools in the same process keep using it: no heap to save
        flows.forget("protocol.record")


def decode(data):
    """A record's journal payload back to the record (the link's tools use it)."""
    return _record().decode(data)


def payload(rec):
    return bytes(_record().encode(rec))


_ROOM_FOR_WINS = 450   # bytes kept free in a hand's record for the wins still to come (~150 each)
_TRANSFER_MAX = 24     # [null,null,999999,499], : the most a transfer takes in a record


def _config():
    # the config check, loaded only while a session starts (or resumes)
    from protocol import config
    return config


class App:
    def __init__(self, journal, clock_ms, device_id="box", lang="cn", pin="2580", epoch=0):
        self.j = journal
        self.clock = clock_ms
        self.device_id = device_id
        self.lang = lang
        self.pin = pin
        self.epoch = epoch            # unix seconds at clock 0; set by the host's clock command
        self._t_in = None             # clock ms at the input being handled (see press)
        self.session = None
        self.events = []              # confirmed events of the hand in progress
        self.hand = None              # the hand in progress, settled so far (rules_min.settle.Hand)
        self.paid_by = []             # the event index of each transfer of the hand in progress
        self.tentative = None         # a preview stands in the hand (see preview)
        self._ev_bytes = 0            # the confirmed events as a record writes them, in bytes
        self._skeleton = None         # (session config, hand) and the bytes of its record with no events
        self.state = "idle"
        self.d = {}                   # the current step's data
        self.msg = ""
        self.num = ""                 # digits keyed so far
        self.page = 0
        self.view = layout.View()
        self.last_commit_ms = None    # for the figures: confirm -> record on flash
        self._ready = None            # the record time of a hand record prepared ahead (preview)
        self._prepare_due = None      # (event, tentative) of a preview that ended the hand
        self._roomy_at = None         # (clock, heap above _ROOMY) of the last look
        self._h = {}                  # state -> its row of its flow's HANDLERS, for loaded flows
        self._later = None            # what runs once the input's handler returned (later)
        self._resume()

    # ---- time, text, layout ----
    def now_s(self):
        t = self._t_in
        return self.epoch + (self.clock() if t is None else t) // 1000

    def tx(self, key):
        return T.t(key, self.lang)

    def fit(self, display):
        """Lay screens out for a display: its renderer's rows and font (firmware/board.py's
        screens carry it as .r; anything else keeps the 128x64 layout)."""
        r = getattr(display, "r", None)
        if r is not None and hasattr(r, "text_width"):
            self.view = layout.View.of(r)

    # ---- the flows ----
    def _row(self, state):
        row = self._h.get(state)
        if row is None:
            for r in flows.load(S.flow_of(state)).HANDLERS:
                self._h[r[0]] = r
            row = self._h[state]
        return row

    def _tidy(self, leaving=False):
        # drop the flows of rare steps once the table has left them (not the flow whose tiles
        # are being tapped: its callbacks wait in d, and a second copy of it would be imported);
        # leaving: the current one too (the step is over, what comes next was handed to later)
        cur = None if leaving else S.flow_of(self.state)
        owner = self.d.get("owner")
        roomy = None
        for name, states in S.FLOWS:
            if name != cur and name != owner and name not in S.RESIDENT and flows.loaded(name):
                if name in S.EVERY_HAND:
                    if roomy is None:
                        roomy = self._roomy()
                    if roomy:
                        continue   # a heap with room keeps the flows of every hand compiled
                self._forget(name)

    def _roomy(self):
        # gc.mem_free() walks the whole heap (~8 ms on the Pico): asked at most every 5 s, not
        # at every key (a key's time to the screen is ~40 ms all told)
        if not _MP:
            return False
        now = self.clock()
        r = self._roomy_at
        if r is None or now - r[0] >= 5000 or now < r[0]:
            r = self._roomy_at = (now, _gc.mem_free() > _ROOMY)
        return r[1]

    def later(self, fn, *args):
        """Run fn(*args) once the handler that asks it has returned and its flow is dropped:
        the tiles of a hand are in, and the hand is scored without the tile flow in the heap;
        the seats agreed, and the hand is written without the win flow in it."""
        self._later = (fn, args)

    def _settle_input(self):
        self._tidy()
        later = self._later
        if later is not None:
            self._later = None
            self._tidy(leaving=True)
            try:
                later[0](*later[1])
            except Exception as e:
                self._reset_after_error(e)
            self._tidy()

    def _forget(self, name):
        for n, states in S.FLOWS:
            if n == name:
                for st in states:
                    self._h.pop(st, None)
        flows.drop(name)

    def say(self, key, *args):
        """A shared text (firmware/texts.py) as the message, until the next input."""
        self.show(self.tx(key), *args)

    def show(self, text, *args):
        """A message on the screen until the next input."""
        self.msg = text % args if args else text

    # ---- inputs ----
    # An input's records carry the time it came in, not the time its work ended: on a slow chip
    # scoring and writing can cross a second, and the table's time is when the key was pressed.
    def press(self, key):
        self._t_in = self.clock()
        try:
            self._press(key)
        finally:
            self._t_in = None

    def tap(self, uid, tile):
        """A tag was read: uid bytes and the tile code it carries, or a code of why it is not
        one of ours (firmware/main.py: blank, corrupt, foreign_set, version, multiple)."""
        self._t_in = self.clock()
        try:
            self._tap(uid, tile)
        finally:
            self._t_in = None

    def _press(self, key):
        self.msg = ""
        try:
            if key == "#" and self.state in S.PAGED:
                self.screen()   # the page count of what is on the screen now
                if self._pages > 1:
                    self.page = (self.page + 1) % self._pages
                return
            self._row(self.state)[2](self, key)
        except Exception as e:   # no traceback on the screen: back to a safe place
            self._reset_after_error(e)
        self._settle_input()

    def _tap(self, uid, tile):
        self.msg = ""
        if isinstance(tile, str):
            k = T.TAG_MESSAGES.get(tile)
            self.msg = self.tx(k) if k is not None else tile
            return
        try:
            h = self._row(self.state)[3]
            if h is None:
                self.say(T.NO_TILE_NOW)
            else:
                h(self, tile, bytes(uid) if uid is not None else None)
        except Exception as e:
            self._reset_after_error(e)
        self._settle_input()

    def tick(self):
        s = self.session
        if s is not None and not s.ended and self.state == "main" and s.timed_out(self.clock(), self.epoch):
            self.go("timeout")

    def go(self, state, **d):
        """Enter a step with fresh step data; a preview not confirmed is dropped."""
        if self.tentative is not None:
            self.rebuild()
        self.state = state
        self.d = d
        self.num = ""
        self.page = 0

    def to(self, state):
        """Move within a flow, keeping the step data."""
        self.state = state
        self.page = 0

    def home(self):
        """The screen to return to: the hand in progress, the end of the session, or idle (a
        survival table: its dice roll, its end)."""
        s = self.session
        self.go("idle" if s is None else (s.survival.home(s) if s.survival else ("ended" if s.ended else "main")))

    def _reset_after_error(self, e):
        self._later = None
        self.home()
        self.msg = self.tx(T.ERROR) + ": " + type(e).__name__

    # ---- screens ----
    _pages = 1

    def screen(self):
        try:
            return self._screen()
        except Exception as e:   # a screen that cannot be drawn: back to a safe one
            self._reset_after_error(e)
            return self._screen()

    def _screen(self):
        m = self._row(self.state)[1](self)
        title, lines, hint = m[0], m[1], m[2]
        head = m[3] if len(m) > 3 else None     # a row repeated at the top of every page
        if self.msg:
            lines = ["! " + self.msg] + list(lines)
        v = self.view
        rows = layout.rows_of(v, lines)
        per = v.rows - (1 if head is not None else 0)
        n = 1 if len(rows) <= per else (len(rows) + per - 1) // per
        if n > 1 and self.state not in S.PAGED:
            # a step that has # for OK keeps to one page: what does not fit (the message comes
            # first) is left off; tests/app/test_screens.py keeps the reviewed screens clear of it
            self.hidden = len(rows) - per
            rows = rows[:per]
            n = 1
        else:
            self.hidden = 0
        self._pages = n
        if self.page >= n:
            self.page = 0
        if n > 1:
            title = title + "\t%d/%d" % (self.page + 1, n)
            rows = rows[self.page * per:(self.page + 1) * per]
            if self.state in S.PAGED:
                hint = hint + " " + self.tx(T.PAGE_HINT)
        if head is not None:
            rows = [head] + rows
        return title, rows, hint

    # ---- the host's config ----
    def push_config(self, cfg):
        """Start a session from a config (protocol/config.py); returns an error message or None."""
        if self.session is not None and not self.session.ended:
            return "a session is running"
        config = _config()
        err = config.message(cfg)
        if err:
            return err
        if hasattr(self.j, "can_start_session") and not self.j.can_start_session(16 * 600):
            return "the journal is full"
        cfg = config.with_defaults(cfg)
        record = _record()
        self.j.append(record.encode(record.session(cfg, self.device_id, self.now_s())))
        self._start(cfg, self.clock())
        return None

    def _start(self, cfg, start_ms):
        flows.forget("protocol.config")
        self._forget("setup")
        _preload(cfg["rules"])
        self.session = open_session(cfg, start_ms)
        self.session.keyed = _keyed(cfg["rules"])
        self.lang = cfg.get("lang", self.lang)
        self.events = []
        self.rebuild()
        self.home()

    # ---- resume after a reboot: replay the journal ----
    def _resume(self):
        started = 0
        closed = False
        config = _config()
        record = _record()
        for seq, data in self.j.records(1):
            rec = record.decode(data)
            if rec is None or rec.get("v") != record.VERSION:
                continue
            kind = rec.get("kind")
            if kind == "session":
                cfg = {}
                for name, _r, _k, _lo, _hi in config.FIELDS:
                    k = "seats" if name == "players" else name
                    if k in rec:
                        cfg[name] = rec[k]
                self.session = open_session(config.with_defaults(cfg), 0)
                self.lang = self.session.cfg["lang"]
                started = rec.get("time", 0)
                closed = False
            elif self.session is None:
                continue
            elif kind == "hand":
                s = self.session
                s.apply(rec)
                if rec.get("time_out"):
                    s.time_out()
                else:
                    s.next_hand(rec.get("next_dealer"))
            elif kind == "correction":
                self.apply_correction(rec)
            elif kind == "session_end":
                self.session.ended = self.session.ended or "hands"
                closed = True
        config = record = None
        flows.forget("protocol.config")
        if self.session is not None:
            self._forget("setup")
            self.session.keyed = _keyed(self.session.rules)
            _preload(self.session.rules)
            if self.session.ended and not closed:
                # the power died between the last hand and the session's closing record
                self.end_session()
            # the clock restarts at boot: the session's time runs from its record's time
            self.session.start_ms = self.clock() - max(0, self.now_s() - started) * 1000
            self.rebuild()
            self.home()

    def apply_correction(self, rec):
        # a correction replaces the hand's points: "deltas" are the new ones, "was" the old
        s = self.session
        seats = rec.get("seats") or s.seats()
        for c in range(4):
            s.totals[s.players.index(seats[c])] += rec["deltas"][c] - rec["was"][c]

    # ---- the hand in progress ----
    def new_hand(self):
        from rules_min.settle import Hand
        s = self.session
        if s.options:       # a three-player table (firmware/session_three.py)
            from rules_min.settle_three import ThreeHand as Hand
        return Hand(s.rules, s.dealer, WINDS[s.prevalent], s.options)

    def rebuild(self):
        """The hand in progress again from its confirmed events: after an undo, or a preview
        that was not taken (the only times the events are replayed)."""
        self.tentative = None
        self._ready = None
        if self.session is None or self.session.ended:
            self.hand = None
            return
        from rules_min.jsonout import dumps
        h = self.new_hand()
        self.paid_by = []
        self._ev_bytes = 0
        for i in range(len(self.events)):
            h.event(i, self.events[i])
            self._paid(h, i)
            self._ev_bytes += len(dumps(self.events[i])) + 1
        self.hand = h

    def _paid(self, h, i):
        # the transfers h holds beyond those already attributed came from event i
        while len(self.paid_by) < len(h.transfers):
            self.paid_by.append(i)

    def transfers(self):
        """The hand's transfers as the record keeps them: [payer, payee, points, event]."""
        h = self.hand
        return [[t[0], t[1], t[2], self.paid_by[k]] for k, t in enumerate(h.transfers) if t[2]]

    def running(self):
        """Points of the hand so far, per chair."""
        return self.hand.deltas() if self.hand is not None else [0, 0, 0, 0]

    def preview(self, ev, finish=False, joining=False):
        """Apply ev to the hand in progress as a preview: (payments per chair, None), or (None,
        (code, message)) when the rules refuse it. confirm(ev) takes it; leaving the step
        (go) drops it. While it stands, app.tentative is (flags, barred) of the hand before it,
        so a screen can say what the event adds. finish: close the discard (its winners are all
        in) for the payments; joining: ev is one more winner on the discard of the last event,
        which that finish closed."""
        if self.tentative is not None or joining:
            self.rebuild()
        h = self.hand
        before = h.deltas()
        self.tentative = (len(h.flags), h.barred[:])
        try:
            h.event(len(self.events), ev)
            if finish:
                h.finish()
            if "win" not in ev and self._record_size(ev) > getattr(self.j, "max_payload", 2000) - _ROOM_FOR_WINS:
                raise ValueError("hand_full", "the hand's record would not fit the journal")
        except ValueError as e:
            self.rebuild()
            a = e.args
            return None, (a[0] if a else "error", a[1] if len(a) > 1 else "")
        after = h.deltas()
        if h.ended:
            # the flash erase waits for after_draw(): the result is on the screen first
            self._prepare_due = (ev, self.tentative)
        return [after[c] - before[c] for c in range(4)], None

    def after_draw(self):
        """The device loop's call once the screen is drawn: the hand's record prepared ahead
        (_prepare_hand) if the preview that ended the hand still stands."""
        due = self._prepare_due
        if due is None:
            return
        self._prepare_due = None
        if self.tentative is due[1] and self.hand is not None and self.hand.ended:
            self._prepare_hand(due[0])

    def _prepare_hand(self, ev):
        # The slow half of the commit ahead of its key: the record confirming ev would write goes
        # to flash now (journal.prepare: the flash erase), while the screen asks; commit_hand()
        # commits it in one small write (journal.commit) when the hand is still as it was here.
        # Anything else builds the record and appends it (journal.append_prepared: the same
        # bytes still commit as they are).
        self._ready = None
        if not hasattr(self.j, "append_prepared"):
            return
        from rules_min.jsonout import dumps
        n = len(self.paid_by)
        self.events.append(ev)
        try:
            self.hand.finish()
            self._paid(self.hand, len(self.events) - 1)
            t = self.now_s()
            import gc
            gc.collect()   # the record is built and written in one go: let it find the heap tidy
            rec = self._hand_record(False, t)
            self.j.prepare(_record().encode(rec))
            # what the confirmation must match to commit it as it is: the event (as written),
            # the events before it, the transfers attributed, the hand, and the record's seq
            # still the prepared one; and the record, for the session's totals
            self._ready = (t, dumps(ev), len(self.paid_by), len(self.events) - 1, self.session.hand,
                           self.j.pending(), rec)
        except Exception:  # the confirmation writes the record itself, and says what failed
            self.j.discard()
        finally:
            self.events.pop()
            while len(self.paid_by) > n:
                self.paid_by.pop()

    def _record_size(self, ev):
        # at most the bytes of the hand's record with ev in it (a hand must stay recordable: the
        # wins still to come need their room too), counted piece by piece: encoding the whole
        # record at each preview would leave KBs of garbage
        from rules_min.jsonout import dumps
        s = self.session
        h = self.hand
        k = (s.cfg, s.hand)
        if self._skeleton is None or self._skeleton[0] != k:
            # once a hand (an undo or a preview not taken keeps it): its 256 bytes found while the
            # heap is whole, not after a declared hand's shanten tables took it (MemoryError seen)
            record = _record()
            rec = record.hand(s.cfg, s.hand, s.seats(), s.dealer, WINDS[s.prevalent], [], [0, 0, 0, 0], [], [],
                              [], None, self.now_s())
            self._skeleton = (k, len(record.encode(rec)) + 40)   # deltas, discarder, next dealer grown
            rec = record = None
        n = self._skeleton[1] + self._ev_bytes + len(dumps(ev)) + 1 + _TRANSFER_MAX * len(h.transfers)
        for w in h.wins:
            n += len(dumps(w)) + 20
        return n

    def confirm(self, ev, stay=False, time_out=False):
        """The previewed event is what happened: commit the hand if that ended it, else back to
        the hand in progress (stay: the flow goes on to a step of its own)."""
        from rules_min.jsonout import dumps
        self.events.append(ev)
        self.tentative = None
        self._paid(self.hand, len(self.events) - 1)
        self._ev_bytes += len(dumps(ev)) + 1
        if self.hand.ended:
            seq = getattr(self.j, "last_seq", None)
            try:
                self.commit_hand(time_out)
            except Exception:
                if getattr(self.j, "last_seq", None) == seq:
                    # not on flash (out of memory, a full journal): the hand goes back to before
                    # this event, so the table can key it again instead of being stuck after it
                    self.events.pop()
                    self.rebuild()
                raise
        elif not stay:
            self.home()

    def undo(self):
        ev = self.events.pop()
        self.rebuild()
        return ev

    # ---- committing ----
    def commit_hand(self, time_out=False):
        s = self.session
        r = self._ready
        self._ready = None
        h = self.hand
        h.finish()
        self._paid(h, len(self.events) - 1)
        record = _record()
        t0 = self.clock()
        if r is not None and not time_out and self._as_prepared(r):
            rec = r[6]
            self.j.commit()   # the record _prepare_hand wrote, unchanged since: one small write
        else:
            import gc
            gc.collect()   # the record is built and written in one go: let it find the heap tidy
            rec = self._hand_record(time_out, self.now_s() if r is None else r[0])
            if r is None:
                self.j.append(record.encode(rec))
            else:
                self.j.append_prepared(record.encode(rec))   # the same bytes after all: one small write
        self.last_commit_ms = self.clock() - t0
        record = None
        s.apply(rec)
        if time_out:
            s.time_out()
        else:
            s.next_hand(h.next_dealer)
        self.events = []
        if s.ended:
            self.end_session()
        self.rebuild()
        self.home()
        self.say(T.SAVED)

    def _as_prepared(self, r):
        # the hand is as _prepare_hand saw it: same events (the last as written), same transfers
        # attributed, same hand of the session, and the journal still holds that record prepared
        from rules_min.jsonout import dumps
        return (r[2] == len(self.paid_by) and r[3] == len(self.events) - 1 and r[4] == self.session.hand
                and self.j.pending() == r[5] and r[5] == self.j.last_seq + 1 and r[1] == dumps(self.events[-1]))

    def _hand_record(self, time_out, t):
        # the hand's record, its events as confirmed (commit_hand's, and _prepare_hand's ahead)
        s = self.session
        h = self.hand
        record = _record()
        wins = [record.win(w[0], w[1], w[3], w[2]) for w in h.wins]
        rec = record.hand(s.cfg, s.hand, s.seats(), s.dealer, WINDS[s.prevalent], self.events, h.deltas(),
                          self.transfers(), h.flags, wins, h.next_dealer, t, time_out)
        s.stamp(rec)
        return rec

    def end_session(self, reason=None):
        s = self.session
        s.ended = s.ended or reason or "referee"
        scores = {}
        for p in range(4):
            if p != s.empty:
                scores[s.players[p]] = s.totals[p]
        record = _record()
        self.j.append(record.encode(record.session_end(s.cfg, s.hand - 1, s.ended, scores, self.now_s())))
        record = None
        self.hand = None
        self.events = []
        self.home()


def open_session(cfg, start_ms):
    # a three-player or a survival table: a session with rules of its own, loaded only for it
    if cfg.get("mode") == "survival":
        from firmware.survival import SurvivalSession as S
    elif None in cfg["players"]:
        from firmware.session_three import ThreeSession as S
    else:
        S = Session
    return S(cfg, start_ms)


def _keyed(rules):
    # what a table of this rule set may key (rules_min/keyed.py, the one home of those facts):
    # its win flags, penalty kinds and bar reasons, read once a session as one string
    # (Session.keyed_list takes it apart); the table module is forgotten again, so neither
    # playing nor a penalty holds its ~4K
    from rules_min import keyed
    out = " ".join(keyed.flags(rules)) + "|" + " ".join(keyed.kinds(rules)) + "|" + " ".join(keyed.bar_reasons(rules))
    if not (_MP and _gc.mem_free() > _ROOMY):   # a roomy heap keeps it compiled
        flows.forget("rules_min.keyed")
    return out


def _preload(rules):
    # Load the rule set's scorer while the heap is still in one piece: imported later, in the
    # middle of a session, a module's code may find no block big enough.
    import gc
    gc.collect()
    import rules_min.settle
    import rules_min.notation
    if rules == "mcr":
        import rules_min.mcr
        import rules_min.mcr_pay
    elif rules == "sichuan":
        import rules_min.sichuan
    else:
        import rules_min.guangdong
