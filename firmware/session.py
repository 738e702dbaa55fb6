# One session at a table: who sits where, which hand, who deals, the wind, running totals and
# the end (RULES.md "Table flow"). Pure logic: the app feeds it settled hands. Its config is
# checked by protocol/config.py before it gets here.
#
# Chairs 0-3 are the physical places, chair 0 East at the start. Seats in the rules core are
# chairs; seat winds follow the dealer. chairs[c] is the player index (0-3 in the config's list)
# sitting at chair c.
#
# A three-player table (firmware/session_three.py) and a survival table (firmware/survival.py)
# are sessions with rules of their own, loaded only when a config asks for them (firmware/scorebook.py
# open_session).

WINDS = "ESWN"


class Session:
    survival = None               # a survival table's scores (firmware/survival.py)
    empty = None                  # the empty chair of a three-player table
    options = None                # the rules core's options for its hands (settle.Hand)
    nobody = (False, False, False, False)   # chairs that confirm nothing (no player there)

    def __init__(self, cfg, start_ms=0):
        self.cfg = cfg
        self.rules = cfg["rules"]
        self.players = cfg["players"]
        self.hands = cfg["hands"]                    # protocol/config.py with_defaults() filled
        m = cfg.get("minutes")                       # them in; no minutes: no time limit
        self.limit_ms = m * 60000 if m else None     # (a Sichuan table unless the server sets one)
        self.start_ms = start_ms
        self.hand = 1                 # the hand being played, 1-based
        self.dealer = cfg.get("first_dealer", 0)
        self.prevalent = 0            # index into WINDS
        self.chairs = [0, 1, 2, 3]
        self.totals = [0, 0, 0, 0]    # per player index
        self.ended = None             # None, "hands", "time", "referee" or "bust"
        # what the rule set lets a table key, "flags|kinds|bar reasons" (space-separated): the
        # app reads it from rules_min/keyed.py as the session starts
        self.keyed = "||"

    def take_over(self, cfg):
        """A spare box goes on with a table whose box died (issue 18.3): the hands before
        cfg["hand"] are played (MCR: its dealers and chair changes follow from their number;
        the others: cfg["dealer"]), the match scores so far are cfg["totals"]."""
        n = cfg["hand"]
        if self.rules == "mcr":
            while self.hand < n and not self.ended:
                self.next_hand(None)
        else:
            self.hand = n
            if "dealer" in cfg:
                self.dealer = cfg["dealer"]
        if "totals" in cfg:
            self.totals = list(cfg["totals"])

    # ---- what the table may key ----
    def keyed_list(self, part):
        """0: the win flags, 1: the penalty kinds, 2: the bar reasons of the rule set, in the
        rules core's order."""
        return self.keyed.split("|")[part].split()

    # ---- who is where ----
    def player_at(self, chair):
        return self.players[self.chairs[chair]]

    names = None                  # player id -> the name the screens show (set_names)
    drawn = False                 # the config's name bitmaps kept decoded, its text let go

    def set_names(self, can_draw=None):
        """The config's names (by the config's player order) as the screens show them: a name
        the box's font cannot draw (can_draw(text) False) is shown as the config's bitmap of it
        (name_bitmaps), or without one by the player's id."""
        names = self.cfg.get("names")
        art = self.cfg.get("name_bitmaps")
        if self.drawn:
            return   # drawn already and the config's bitmaps let go (below): they stand
        import sys
        nb = sys.modules.get("firmware.ui.name_bitmaps")   # the last session's names go
        if art and can_draw is not None:   # the server drew what the font may not (issue 18.6)
            from firmware.ui import name_bitmaps as nb
        if nb is not None:
            nb.clear()
        if not names:
            return
        out = {}
        for i in range(len(names)):
            n = names[i]
            if n is None or self.players[i] is None:
                continue
            if can_draw is not None and not can_draw(n):
                # its bitmap's character stands for it (firmware/ui/name_bitmaps.py), if the
                # config has one that fits the font; else the id
                n = nb.keep(i, art[i]) if art and art[i] else None
                if n is None or not can_draw(n):
                    continue
            out[self.players[i]] = n
        self.names = out or None
        if art and can_draw is not None:
            # kept decoded (firmware/ui/name_bitmaps.py): the base64 text (~0.7 KB) goes; the
            # session's record on flash has it for a power cut
            del self.cfg["name_bitmaps"]
            self.drawn = True

    def shown(self, pid):
        """A player id as the screens name the player: the registered name, else the id."""
        n = self.names
        return n.get(pid, pid) if n is not None and pid is not None else pid

    def who(self, chair):
        """The player at a chair as the screens name them (the records keep player_at's id)."""
        return self.shown(self.player_at(chair))

    def seat_wind(self, chair):
        return WINDS[(chair - self.dealer) % 4]

    def seats(self):
        """Player ids in chair order for the current hand."""
        return [self.player_at(c) for c in range(4)]

    # ---- time ----
    def time_left_ms(self, now_ms, epoch=0):
        """Until time is called: the table's own minutes from its start, or sooner the hall's
        deadline (config ends_at, epoch seconds) once the box knows the time (epoch, set by the
        host's CLOCK; 0: not known, e.g. after a power cut before the next sync). None: the
        session has no time limit."""
        left = None if self.limit_ms is None else self.limit_ms - (now_ms - self.start_ms)
        end = self.cfg.get("ends_at")
        if end and epoch:
            d = (end - epoch) * 1000 - now_ms   # the box's clock reads (end - epoch) s at ends_at
            if left is None or d < left:
                left = d
        return left if left is None or left > 0 else 0

    def timed_out(self, now_ms, epoch=0):
        return self.time_left_ms(now_ms, epoch) == 0

    # ---- after a hand ----
    def stamp(self, rec):
        pass                      # a survival table adds its fields to a hand's record

    def apply(self, rec):
        """A hand's record is on flash (or read back at boot): its points count."""
        deltas = rec["deltas"]
        for c in range(4):
            self.totals[self.chairs[c]] += deltas[c]

    def next_hand(self, next_dealer):
        """Move on after a finished hand; next_dealer from the settlement (chairs)."""
        if self.rules == "mcr":
            k = self.hand            # hands done so far
            if k % 4 == 0:
                self._change_chairs(k // 4)
                self.prevalent = (k // 4) % 4
            self.dealer = (self.cfg.get("first_dealer", 0) + k) % 4
        elif next_dealer is not None:
            self.dealer = next_dealer
        self.hand += 1
        if self.hand > self.hands:
            self.ended = "hands"

    def _change_chairs(self, rounds_done):
        # RULES.md / seed 000 换位: after East, E<->S and W<->N; after South, E->W, W->S, S->N,
        # N->E; after West, E<->S and W<->N again
        c = self.chairs
        if rounds_done == 1 or rounds_done == 3:
            self.chairs = [c[1], c[0], c[3], c[2]]
        elif rounds_done == 2:
            self.chairs = [c[3], c[2], c[0], c[1]]

    def time_out(self):
        # the hand in progress does not count (MCR); the session is over
        self.ended = "time"

    # ---- the end ----
    def standard_scores(self):
        """Standard scores by match score (seed 000: 4/2/1/0, tied places share: the rules
        core's rules_min/tournament.py), as tenths so that 7/3 shows as 2.3; None for rule sets
        without them."""
        if self.rules != "mcr":
            return None
        from rules_min.tournament import MCR_POINTS, shared_places
        out = [0, 0, 0, 0]
        for p, _place, total, n in shared_places(self.totals, MCR_POINTS[4]):
            out[p] = 10 * total // n
        return out
