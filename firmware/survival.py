# A survival table on the box (勇者争先赛, seed 000 §三.2; docs/survival.md): the scores the
# players carry in, the dice-roll key that fixes each hand's start and multiplier, the scores
# after each hand (the win multiplied, penalties not), the bust that ends the table, and the
# table's order at its end. The numbers are rules_min/survival.py's (one home, the server's too).
#
# Loaded only when a session config says mode "survival" (firmware/scorebook.py open_session): a
# box at an ordinary session holds none of it. Scores are kept by player index (the config's
# players); the records carry them by chair, as the hand's seats.
#
# DECISIONS: a survival table has no hand count and no time limit of its own (it ends at its
# bust, or when the referee ends it); the chairs change every round as in a session (每圈换位),
# and after the North round they go back to the table's first order, the prevalent wind to East.
# A referee's correction on the box does not move the survival scores: survival hands are
# corrected on the server, which replays the table (host_tools/tournament/survival_live.py).
from rules_min import survival as R
from firmware.ui import texts as T
from firmware.compat import const
from firmware.session import Session
from protocol.record import HAND_MAX

_TITLE = const(0)
_ROLL_TITLE = const(1)
_NEXT = const(2)
_TX = T.Table(
    "第%d盘 %d倍|Hand %d x%d|"  # _TITLE
    "第%d盘 现%d倍|Hand %d now x%d|"  # _ROLL_TITLE
    "%d分钟后%d倍|in %d min: x%d|"  # _NEXT
)


def text(i, lang):
    return _TX.get(i, lang)


class Survival:
    def __init__(self, cfg):
        self.event_start = cfg["event_start"]
        self.final = cfg.get("final", False)
        self.scores = list(cfg["scores"])     # by player index
        self.history = [self.scores[:]]       # at the table's start and after every hand
        self.hand_start = None                # epoch seconds of this hand's dice roll
        self.mult = None                      # this hand's multiplier, fixed at the roll
        self.last = (None, None)              # the last hand's winner and discarder (player index)

    # ---- the dice roll ----
    def mult_at(self, now_s):
        # a box clock before the event's start (set early) shows the first multiplier
        return R.multiplier(max(0, now_s - self.event_start))

    def roll(self, now_s):
        """The dealer rolled the dice: the hand is in progress, its multiplier is the one in force
        now (若牌局正在进行中，则从下一盘起翻倍)."""
        self.hand_start = now_s
        self.mult = self.mult_at(now_s)

    def rolled(self):
        return self.hand_start is not None

    # ---- after a hand ----
    def after(self, chairs, deltas, wins, now_s):
        """The record's fields of a hand settled with deltas (by chair, unmultiplied) and wins
        (the record's): hand_start, multiplier, and the survival scores by chair, moved by m x
        the win's payments + the penalties. Nothing changes until done()."""
        if self.mult is None:       # no roll keyed (cannot happen from the keys): roll now
            self.roll(now_s)
        w = d = None
        total = 0
        if wins:
            w, d, total = wins[0]["seat"], wins[0]["from"], wins[0]["total"]
        play, pen = R.split(deltas, total, w, d)
        ch = R.change(play, pen, self.mult)
        return {"hand_start": self.hand_start, "multiplier": self.mult,
                "scores": [self.scores[chairs[c]] + ch[c] for c in range(4)]}

    def done(self, rec, players):
        """The hand's record is on flash: its scores stand (also at boot, from the journal)."""
        self.replay(rec, players)
        self.hand_start = None
        self.mult = None

    def replay(self, rec, players):
        """A hand record read back from the journal at boot."""
        seats = rec["seats"]
        sc = rec.get("scores")
        if sc is None:
            return
        for c in range(4):
            self.scores[players.index(seats[c])] = sc[c]
        self.history.append(self.scores[:])
        wins = rec.get("wins") or ()
        if wins:
            w, d = wins[0]["seat"], wins[0]["from"]
            self.last = (players.index(seats[w]), None if d is None else players.index(seats[d]))
        else:
            self.last = (None, None)

    def busted(self):
        return bool(R.busted(self.scores))

    def order(self):
        """[(player index, place, out)] best first (追平胜; simultaneous busts by the seed)."""
        return R.table_order(self.history, self.last[0], self.last[1])

    def home(self, s):
        """The table's screen between steps: over, the hand in progress, or waiting to roll."""
        return "sv_end" if s.ended else ("main" if self.mult is not None else "roll")

    # ---- what the screens show ----
    def title(self, app):
        s = app.session
        if self.mult is None:
            return text(_ROLL_TITLE, app.lang) % (s.hand, self.mult_at(app.now_s()))
        return text(_TITLE, app.lang) % (s.hand, self.mult)

    def next_line(self, app):
        """When the multiplier next goes up, for the table waiting to roll."""
        now = app.now_s()
        at = R.next_step_s(self.event_start, max(now, self.event_start))
        return text(_NEXT, app.lang) % ((at - now + 59) // 60, self.mult_at(at))


class SurvivalSession(Session):
    def __init__(self, cfg, start_ms=0):
        Session.__init__(self, cfg, start_ms)
        self.survival = Survival(cfg)
        self.hands = HAND_MAX         # protocol/record.py: the most hands a record numbers
        self.limit_ms = _NO_LIMIT_MS

    def stamp(self, rec):
        """A hand's record before it goes on flash: its start, multiplier and scores."""
        sv = self.survival
        f = sv.after(self.chairs, rec["deltas"], rec["wins"], rec["time"])
        for k in f:
            rec[k] = f[k]

    def apply(self, rec):
        Session.apply(self, rec)
        self.survival.done(rec, self.players)

    def next_hand(self, next_dealer):
        Session.next_hand(self, next_dealer)
        if self.survival.busted():
            self.ended = "bust"       # 打立出局: the table is over, no further hand

    def _change_chairs(self, rounds_done):
        if rounds_done % 4 == 0:
            self.chairs = [0, 1, 2, 3]
        else:
            Session._change_chairs(self, rounds_done % 4)


_NO_LIMIT_MS = 1000 * 86400000    # a thousand days
