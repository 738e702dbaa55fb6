# The table application: keys, tag reads and the clock in; screens and journal records out.
#
#   app = App(journal, clock_ms, device_id="box-1", lang="cn", epoch=0)
#   app.press("A"); app.tap(uid, tile); app.tick(); app.screen() -> (title, lines, hint)
#   app.state                      # a name of firmware/states.py
#   app.push_config(cfg)           # start a session (the host's config); None or an error
#   app.fit(display)               # lay screens out for this display (rows, font widths)
#
# The App routes: each input goes to the flow of the current state (a module of firmware/flows/,
# listed with its states in firmware/states.py), which takes its keys and draws its screens. The
# session, its hand in progress and their records are the score book's (firmware/scorebook.py,
# app.book): the flows preview and confirm events through it.
#
# Inputs of the wrong kind for the current step get a message and change nothing. An exception
# in a handler puts the app back on its main screen with the journal untouched; the hand in
# progress keeps the events already confirmed.
from firmware import flows, heap, states as S
from firmware.scorebook import ScoreBook, record_module
from firmware.ui import layout, texts as T


def decode(data):
    """A record's journal payload back to the record (the host's tools and tests use it)."""
    return record_module().decode(data)


def payload(rec):
    return bytes(record_module().encode(rec))


class App:
    def __init__(self, journal, clock_ms, device_id="box", lang="cn", pin="2580", epoch=0, settings=None,
                 keyfile=None, timefile=None):
        # pin: protocol/config.py FACTORY_PIN (a test checks they agree); settings: the file of
        # what the organizer's configs set (firmware/box_settings.py), None: nothing kept;
        # keyfile: the device key's, which checks the tournament's PIN (pin_ok)
        self.j = journal
        self.clock = clock_ms
        self.device_id = device_id
        self.settings = settings
        self.keyfile = keyfile
        self.timefile = timefile      # the running session's extended time (firmware/session_time.py)
        self.kept = (None, None)      # (pin_mac, lang) as the settings file has them
        if settings is not None:
            from firmware import box_settings
            self.kept = box_settings.load(settings)
            lang = self.kept[1] or lang
            heap.done_with("firmware.box_settings")
        self.pin_mac = self.kept[0]   # the tournament's PIN (its MAC), None: the factory one
        self.lang = lang
        self.pin = pin
        self.epoch = epoch            # unix seconds at clock 0; set by the host's clock command
        self._t_in = None             # clock ms at the input being handled (see press)
        self.session = None
        self.book = ScoreBook(self)   # the hand in progress and the session's records
        self.state = "idle"
        self.d = {}                   # the current step's data (its keys: firmware/states.py)
        self.msg = ""
        self.num = ""                 # digits keyed so far
        self.page = 0
        self.view = layout.View()
        self.can_draw = None          # can_draw(text): the display's font has every character (fit)
        self._h = {}                  # state -> its row of its flow's HANDLERS, for loaded flows
        self._later = None            # what runs once the input's handler returned (later)
        self._roomy_at = None         # (clock, heap.roomy()) of the last look (_roomy)
        # that look is stale (or not made yet): after_draw looks again. The first look is made
        # after the first screen: made where it is first needed, it fell inside the session's
        # first win's last tile (and the first after a reboot), ~9 ms on the frozen Pico
        self._roomy_due = True
        from firmware import replay
        if replay.resume(self.book):  # a session in the journal: back to it after a reboot
            self.home()
        replay = None
        heap.done_with("firmware.replay")

    # the hand in progress, for screens, the simulator and tests (the flows change it through
    # self.book)
    @property
    def hand(self):
        return self.book.hand

    @property
    def events(self):
        return self.book.events

    def running(self):
        """Points of the hand so far, per chair."""
        return self.book.running()

    def pin_ok(self, pin):
        """The referee PIN keyed in: the tournament's (checked as its MAC with the box's key,
        protocol/sign.py pin_mac_hex), or the factory PIN when the box has none (or no key to
        check it with: a key erased in the referee menu)."""
        mac = self.pin_mac
        if mac is not None and self.keyfile is not None:
            from firmware.link import store
            key = store.load_key(self.keyfile)[0]
            if key is not None:
                from protocol.sign import pin_mac_hex
                return pin_mac_hex(key, self.device_id, pin) == mac
        return pin == self.pin

    # ---- time, text, layout ----
    def now_s(self):
        t = self._t_in
        return self.epoch + (self.clock() if t is None else t) // 1000

    def tx(self, key):
        return T.t(key, self.lang)

    def fit(self, display):
        """Lay screens out for a display: its renderer's rows and font (firmware/board/base.py's
        screens carry it as .r; anything else keeps the 128x64 layout)."""
        r = getattr(display, "r", None)
        if r is not None and hasattr(r, "text_width"):
            self.view = layout.View.of(r)
        font = getattr(r, "font", None)
        if font is not None and hasattr(font, "has"):
            def can_draw(text):
                for ch in text:
                    if not font.has(ch):
                        return False
                return True
            self.can_draw = can_draw
            if self.session is not None:   # resumed before the display was known
                self.session.set_names(can_draw)

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
        # heap.roomy() asks gc.mem_free(), which walks the whole heap (~8 ms on the Pico, ~13 ms
        # on the frozen build's bigger one): asked once, then at most every 5 s and never inside
        # an input: a stale answer serves this input and after_draw() asks again once its screen
        # is out (the last tile of a win, which drops the tile flow, waited for it)
        now = self.clock()
        r = self._roomy_at
        if r is None:
            r = self._roomy_at = (now, heap.roomy(heap.HOT))
        elif now - r[0] >= 5000 or now < r[0]:
            self._roomy_due = True
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
        """A shared text (firmware/ui/texts.py) as the message, until the next input."""
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
        if self.book.tentative is not None:
            self.book.rebuild()
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

    # ---- the session and its hands (firmware/scorebook.py) ----
    def push_config(self, cfg):
        """Start a session from a config (protocol/config.py); returns an error message or None.
        A config of the session that is running changes its time (a referee's extension: the
        table's step goes on, a message says the time left)."""
        s = self.session
        running = s is not None and not s.ended
        err = self.book.start(cfg)
        if err is None:
            if not running:
                self.home()
            else:
                left = s.time_left_ms(self.clock(), self.epoch)
                if self.state == "timeout" and left != 0:
                    self.home()   # time was called, not yet closed: the table plays on
                if left is not None:
                    self.say(T.TIME_CHANGED, (left + 59999) // 60000)
        return err

    def leave_setup(self):
        """A session opens: the setup flow's steps are over."""
        self._forget("setup")

    def confirm(self, ev, stay=False, time_out=False):
        """The previewed event is what happened: commit the hand if that ended it, else back to
        the hand in progress (stay: the flow goes on to a step of its own)."""
        if self.book.confirm(ev, time_out):
            self.saved()
        elif not stay:
            self.home()

    def commit_hand(self, time_out=False):
        self.book.commit_hand(time_out)
        self.saved()

    def after_draw(self):
        """The device loop's call once the screen is drawn: the slow work an input left for
        after it (the score book's flash erase of a hand's record prepared ahead)."""
        if self._roomy_due:
            self._roomy_due = False
            self._roomy_at = (self.clock(), heap.roomy(heap.HOT))
        self.book.after_draw()

    def saved(self):
        self.home()
        self.say(T.SAVED)

    def end_session(self, reason=None):
        self.book.end_session(reason)
        self.home()
