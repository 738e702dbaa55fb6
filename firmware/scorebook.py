# The table's score book: the session's records and the hand in progress on its way to the
# journal (the record-and-commit protocol). firmware/app.py routes keys, taps and screens; the
# flows change the hand through app.book.
#
#   book = ScoreBook(app)          # app: its journal app.j, app.session, clock() and now_s(),
#                                  # and leave_setup() as a session opens
#   book.start(cfg)                # a session from the host's config (checked): its record, then play
#   replay.resume(book)            # after a reboot: the session and its totals from the journal
#   pay, err = book.preview(ev)    # ev applied to the hand in progress, not yet confirmed
#   book.confirm(ev)               # it happened: True when that ended the hand (then committed)
#   book.undo(); book.rebuild()    # the last event taken back; a preview dropped
#   book.commit_hand()             # the hand's record to the journal, the session's totals on
#   book.end_session(reason)       # the session's closing record
#
# The hand in progress is one rules_min.settle.Hand, fed each event once: the preview of a win,
# its confirmation screen and its record all use the one scoring of that win. A hand's record
# costs a flash erase (~50 ms on the Pico): preview() writes the record that confirming its
# event would commit while the screen asks (journal.prepare), and the last key commits it in
# one small write (journal.commit) when the hand is still as it was.
from firmware import heap
from firmware.compat import MICROPYTHON
from firmware.session import WINDS, Session

_ROOM_FOR_WINS = 450   # bytes kept free in a hand's record for the wins still to come (~150 each)
_TRANSFER_MAX = 24     # [null,null,999999,499], : the most a transfer takes in a record


def record_module():
    # protocol/record.py, imported where a record is built or read (the module stays loaded,
    # except while a declared win is keyed: make_room)
    from protocol import record
    return record


def config_module():
    # the config check, loaded only while a session starts (or resumes)
    from protocol import config
    return config


def make_room():
    """Forget protocol/record.py until the next record is built (it comes back then): a declared
    win needs rules_min/shanten.py's ~11K beside the hand (firmware/flows/declare.py) on the
    unix port's 256K heap."""
    if MICROPYTHON:   # on CPython the host's tools in the same process keep using it: no heap to save
        heap.forget("protocol.record")


class ScoreBook:
    def __init__(self, app):
        self.app = app
        self.events = []              # confirmed events of the hand in progress
        self.hand = None              # the hand in progress, settled so far (rules_min.settle.Hand)
        self.paid_by = []             # the event index of each transfer of the hand in progress
        self.tentative = None         # a preview stands in the hand (see preview)
        self._ev_bytes = 0            # the confirmed events as a record writes them, in bytes
        self._skeleton = None         # (session config, hand) and the bytes of its record with no events
        self._ready = None            # what a hand record prepared ahead (preview) must match (_prepare_hand)
        self._prepare_due = None      # (event, tentative) of a preview that ended the hand
        self._ended_s = None          # the time of that preview: the hand record's time
        self._collect_due = False     # collect the garbage after this screen (collect_after_draw)
        self.last_commit_ms = None    # for the figures: confirm -> record on flash

    # ---- the session's records ----
    def start(self, cfg):
        """Start a session from a config (protocol/config.py): its record, then play. An error
        message, or None."""
        app = self.app
        if app.session is not None and not app.session.ended:
            return self.retime(cfg)
        config = config_module()
        err = config.message(cfg)
        if err:
            return err
        if hasattr(app.j, "can_start_session") and not app.j.can_start_session(16 * 600):
            return "the journal is full"
        if "lang" not in cfg:   # keyed in at the table: the box's language (the tournament's, kept)
            cfg = dict(cfg)
            cfg["lang"] = app.lang
        cfg = config.with_defaults(cfg)
        _organizer_settings(app, cfg)
        if app.timefile is not None:   # an earlier session's extension: not this one's
            from firmware import session_time
            session_time.forget(app.timefile)
            heap.done_with("firmware.session_time")
        record = record_module()
        app.j.append(record.encode(record.session(cfg, app.device_id, app.now_s())))
        start_ms = app.clock()
        heap.forget("protocol.config")
        app.leave_setup()
        preload(cfg["rules"])
        app.session = open_session(cfg, start_ms, app.can_draw)
        app.session.keyed = keyed_text(cfg["rules"])
        app.lang = cfg.get("lang", app.lang)
        warm_fan_names(cfg["rules"], app.lang)
        self.events = []
        self.rebuild()
        return None

    def retime(self, cfg):
        """A config for the session that is running, at the box's next contact with the server
        (issue 18.5: a referee gave the table more time, or less): its time (ends_at, minutes)
        replaces the session's, and the session plays on. Anything else that differs is another
        session: "a session is running". An error message, or None."""
        app = self.app
        s = app.session
        old = s.cfg
        for k in ("tournament", "session", "table", "rules", "players", "first_dealer", "mode"):
            if cfg.get(k) != old.get(k):
                return "a session is running"
        config = config_module()
        err = config.message(cfg)
        heap.forget("protocol.config")
        if err:
            return err
        if "minutes" in cfg:
            old["minutes"] = cfg["minutes"]
            s.limit_ms = cfg["minutes"] * 60000
        if "ends_at" in cfg:
            old["ends_at"] = cfg["ends_at"]
        if app.timefile is not None and ("minutes" in cfg or "ends_at" in cfg):
            from firmware import session_time
            session_time.save(app.timefile, old)
            heap.done_with("firmware.session_time")
        if "pin_mac" in cfg:   # the tournament's PIN, changed since the session began
            old["pin_mac"] = cfg["pin_mac"]
            _organizer_settings(app, old)
        return None

    def apply_correction(self, rec):
        # a correction replaces the hand's points: "deltas" are the new ones, "was" the old
        s = self.app.session
        seats = rec.get("seats") or s.seats()
        for c in range(4):
            s.totals[s.players.index(seats[c])] += rec["deltas"][c] - rec["was"][c]

    def end_session(self, reason=None):
        """The session's closing record, its scores by player; the hand in progress goes."""
        app = self.app
        s = app.session
        s.ended = s.ended or reason or "referee"
        scores = {}
        for p in range(4):
            if p != s.empty:
                scores[s.players[p]] = s.totals[p]
        record = record_module()
        app.j.append(record.encode(record.session_end(s.cfg, s.hand - 1, s.ended, scores, app.now_s())))
        record = None
        self.hand = None
        self.events = []

    # ---- the hand in progress ----
    def new_hand(self):
        from rules_min.settle import Hand
        s = self.app.session
        if s.options:       # a three-player table (firmware/session_three.py)
            from rules_min.settle_three import ThreeHand as Hand
        return Hand(s.rules, s.dealer, WINDS[s.prevalent], s.options)

    def rebuild(self):
        """The hand in progress again from its confirmed events: after an undo, or a preview
        that was not taken (the only times the events are replayed)."""
        self.tentative = None
        self._ready = None
        self._ended_s = None
        s = self.app.session
        if s is None or s.ended:
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
        (app.go) drops it. While it stands, tentative is (flags, barred) of the hand before it,
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
            if "win" not in ev and self._record_size(ev) > getattr(self.app.j, "max_payload", 2000) - _ROOM_FOR_WINS:
                raise ValueError("hand_full", "the hand's record would not fit the journal")
        except ValueError as e:
            self.rebuild()
            a = e.args
            return None, (a[0] if a else "error", a[1] if len(a) > 1 else "")
        after = h.deltas()
        if h.ended:
            # the flash erase waits for after_draw(): the result is on the screen first. The
            # record's time is the result's (this input's), whether the record is prepared
            # ahead or not: the box's own work after it (preparing, which a tight heap can make
            # fail, or the players' confirmations) must not move the record to another second
            self._ended_s = self.app.now_s()
            self._prepare_due = (ev, self.tentative)
        return [after[c] - before[c] for c in range(4)], None

    def collect_after_draw(self):
        """The next input is the last tile of a win (firmware/flows/tiles.py): collect the
        garbage once this screen is out, while the player picks that tile up, so that no
        collection falls between the last tile and its result (scoring, the result's model and
        its drawing allocate; a collection there cost the result ~10-30 ms on the Pico)."""
        self._collect_due = True

    def after_draw(self):
        """The device loop's call (through app.after_draw) once the screen is drawn: the
        collection asked for by collect_after_draw(); the hand's record prepared ahead
        (_prepare_hand) if the preview that ended the hand still stands."""
        if self._collect_due:
            self._collect_due = False
            import gc
            gc.collect()
        due = self._prepare_due
        if due is None:
            # the size of the hand's record with no events, which the hand's first preview
            # that is not a win needs (_record_size: ~20 ms of the Pico's time, on a penalty's
            # or a wall end's key), found once a hand while its first screen is up
            s = self.app.session
            if self.hand is not None and s is not None and not s.ended and self.tentative is None:
                try:
                    self._skeleton_size()
                except MemoryError:
                    pass   # the preview finds it as before
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
        j = self.app.j
        if not hasattr(j, "append_prepared"):
            return
        from rules_min.jsonout import dumps
        n = len(self.paid_by)
        self.events.append(ev)
        try:
            self.hand.finish()
            self._paid(self.hand, len(self.events) - 1)
            t = self._ended_s
            import gc
            gc.collect()   # the record is built and written in one go: let it find the heap tidy
            rec = self._hand_record(False, t)
            j.prepare(record_module().encode(rec))
            # what the confirmation must match to commit it as it is: the event (as written),
            # the events before it, the transfers attributed, the hand, and the record's seq
            # still the prepared one; and the record, for the session's totals
            self._ready = (dumps(ev), len(self.paid_by), len(self.events) - 1, self.app.session.hand,
                           j.pending(), rec)
        except Exception:  # the confirmation writes the record itself, and says what failed
            j.discard()
        finally:
            self.events.pop()
            while len(self.paid_by) > n:
                self.paid_by.pop()

    def _record_size(self, ev):
        # at most the bytes of the hand's record with ev in it (a hand must stay recordable: the
        # wins still to come need their room too), counted piece by piece: encoding the whole
        # record at each preview would leave KBs of garbage
        from rules_min.jsonout import dumps
        h = self.hand
        n = self._skeleton_size() + self._ev_bytes + len(dumps(ev)) + 1 + _TRANSFER_MAX * len(h.transfers)
        for w in h.wins:
            n += len(dumps(w)) + 20
        return n

    def _skeleton_size(self):
        # the bytes of the hand's record with no events in it
        s = self.app.session
        k = (s.cfg, s.hand)
        if self._skeleton is None or self._skeleton[0] != k:
            # once a hand (an undo or a preview not taken keeps it): its 256 bytes found while the
            # heap is whole, not after a declared hand's shanten tables took it (MemoryError seen)
            record = record_module()
            rec = record.hand(s.cfg, s.hand, s.seats(), s.dealer, WINDS[s.prevalent], [], [0, 0, 0, 0], [], [],
                              [], None, self.app.now_s())
            self._skeleton = (k, len(record.encode(rec)) + 40)   # deltas, discarder, next dealer grown
            rec = record = None
        return self._skeleton[1]

    def confirm(self, ev, time_out=False, ended=None):
        """The previewed event is what happened. True when it ended the hand, which is then
        committed; if the commit fails before its record is on flash, the hand goes back to
        before ev (the table can key it again instead of being stuck after it). ended: the
        session ends with this hand, for that reason (the referee's end cuts the hand off as
        time-out does, so what was keyed in it stays on record)."""
        from rules_min.jsonout import dumps
        self.events.append(ev)
        self.tentative = None
        self._paid(self.hand, len(self.events) - 1)
        self._ev_bytes += len(dumps(ev)) + 1
        if not self.hand.ended:
            return False
        seq = getattr(self.app.j, "last_seq", None)
        try:
            self.commit_hand(time_out, ended)
        except Exception:
            if getattr(self.app.j, "last_seq", None) == seq:
                # not on flash (out of memory, a full journal)
                self.events.pop()
                self.rebuild()
            raise
        return True

    def undo(self):
        ev = self.events.pop()
        self.rebuild()
        return ev

    def commit_hand(self, time_out=False, ended=None):
        """The hand's record to the journal (the one prepared ahead when it still stands), the
        session on to its next hand, or to its end (ended: the reason, for a time-out that is
        the referee's end)."""
        app = self.app
        s = app.session
        r = self._ready
        self._ready = None
        h = self.hand
        h.finish()
        self._paid(h, len(self.events) - 1)
        record = record_module()
        t0 = app.clock()
        if r is not None and not time_out and self._as_prepared(r):
            rec = r[5]
            app.j.commit()   # the record _prepare_hand wrote, unchanged since: one small write
        else:
            import gc
            gc.collect()   # the record is built and written in one go: let it find the heap tidy
            t = self._ended_s
            rec = self._hand_record(time_out, app.now_s() if t is None or time_out else t)
            if r is None:
                app.j.append(record.encode(rec))
            else:
                app.j.append_prepared(record.encode(rec))   # the same bytes after all: one small write
        self.last_commit_ms = app.clock() - t0
        record = None
        s.apply(rec)
        if time_out:
            s.time_out()
            if ended:
                s.ended = ended
        else:
            s.next_hand(h.next_dealer)
        self.events = []
        if s.ended:
            self.end_session()
        self.rebuild()

    def _as_prepared(self, r):
        # the hand is as _prepare_hand saw it: same events (the last as written), same transfers
        # attributed, same hand of the session, and the journal still holds that record prepared
        from rules_min.jsonout import dumps
        j = self.app.j
        return (r[1] == len(self.paid_by) and r[2] == len(self.events) - 1 and r[3] == self.app.session.hand
                and j.pending() == r[4] and r[4] == j.last_seq + 1 and r[0] == dumps(self.events[-1]))

    def _hand_record(self, time_out, t):
        # the hand's record, its events as confirmed (commit_hand's, and _prepare_hand's ahead)
        s = self.app.session
        h = self.hand
        record = record_module()
        wins = [record.win(w[0], w[1], w[3], w[2]) for w in h.wins]
        rec = record.hand(s.cfg, s.hand, s.seats(), s.dealer, WINDS[s.prevalent], self.events, h.deltas(),
                          self.transfers(), h.flags, wins, h.next_dealer, t, time_out)
        s.stamp(rec)
        return rec


def _organizer_settings(app, cfg):
    # the tournament's referee PIN (its MAC) and language (protocol/config.py), kept for the
    # sessions after this one and after a power cut (firmware/box_settings.py); the session's
    # record leaves the PIN's MAC out. A config without one keeps the PIN the box has.
    mac = cfg.get("pin_mac", app.pin_mac)
    app.pin_mac = mac
    path = getattr(app, "settings", None)
    if path is not None and app.kept != (mac, cfg["lang"]):
        from firmware import box_settings
        box_settings.save(path, mac, cfg["lang"])
        app.kept = (mac, cfg["lang"])
        heap.done_with("firmware.box_settings")


def open_session(cfg, start_ms, can_draw=None):
    # a three-player or a survival table: a session with rules of its own, loaded only for it;
    # can_draw: the box's font (App.fit), which decides the names the screens show
    if cfg.get("mode") == "survival":
        from firmware.survival import SurvivalSession as S
    elif None in cfg["players"]:
        from firmware.session_three import ThreeSession as S
    else:
        S = Session
    s = S(cfg, start_ms)
    if "hand" in cfg:   # a spare box going on with a table whose box died (issue 18.3)
        s.take_over(cfg)
    s.set_names(can_draw)
    return s


def keyed_text(rules):
    # what a table of this rule set may key (rules_min/keyed.py, the one home of those facts):
    # its win flags, penalty kinds and bar reasons, read once a session as one string
    # (Session.keyed_list takes it apart); the table module is forgotten again, so neither
    # playing nor a penalty holds its ~4K
    from rules_min import keyed
    out = " ".join(keyed.flags(rules)) + "|" + " ".join(keyed.kinds(rules)) + "|" + " ".join(keyed.bar_reasons(rules))
    if not heap.roomy():   # a roomy heap keeps it compiled
        heap.forget("rules_min.keyed")
    return out


def warm_fan_names(rules, lang):
    # the result screen finds fan names through an index of the rules core's name string, built
    # on its first use (firmware/ui/fan_names.py; ~16 ms on the Pico): built as the session
    # opens, not between the first win's last tile and its result
    if rules != "guangdong":   # its names are a table of their own, no index
        from firmware.ui import fan_names
        fan_names.fan(rules, 0, lang)


def preload(rules):
    # Load the rule set's scorer while the heap is still in one piece: imported later, in the
    # middle of a session, a module's code may find no block big enough.
    import gc
    gc.collect()
    import rules_min.settle
    import rules_min.notation
    if rules == "mcr":             # the rule set's part of settle.Hand, which imports its scorer
        import rules_min.settle_mcr
    elif rules == "sichuan":
        import rules_min.settle_sichuan
    else:
        import rules_min.settle_guangdong
