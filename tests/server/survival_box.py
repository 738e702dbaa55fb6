"""A survival-mode box for the server tests, as docs/survival.md asks the box to be: it takes the
config the server gives (``GET /api/boxes/DEVICE/config``), writes its records with
protocol/record.py's builders, signs them with protocol/sign.py, keeps the survival scores with
rules_min/survival.py (the multiplier of each hand from its dice roll, penalties not
multiplied) and ends the table at the first bust with a session_end.

What a real box adds and this one does not: the tiles. A hand here is given by its winner,
discarder and fan total; the payments are rules_min/mcr_pay.py's, as settle makes them (the
server never re-scores a box's hand: the fan total is the box's). A 错和 is given as its
transfers (10 from the player to each other)."""
from __future__ import annotations

import base64
import hashlib
from typing import Optional

from protocol import record as precord
from protocol import sign as psign
from rules_min import mcr_pay
from rules_min import survival as rules

from .conftest import uid

WINDS = "ESWN"


class SurvivalBox:
    def __init__(self, server, tid: str, hall_table: int):
        self.server, self.tid, self.hall = server, tid, hall_table
        self.id = uid("sv")
        self.key = hashlib.sha256(self.id.encode()).digest()
        self.seq = 0
        self.cfg: Optional[dict] = None
        st, body = server.org.post("/api/devices", {"id": self.id, "key": self.key.hex(), "tournament": tid, "table": hall_table})
        assert st == 201, body

    # ---- the link ----
    def fetch_config(self) -> tuple[int, dict]:
        return self.server.anon.get("/api/boxes/%s/config" % self.id)

    def envelope(self, rec: dict) -> dict:
        assert precord.validate(rec) is None, precord.validate(rec)  # the box builds only what passes
        self.seq += 1
        payload = bytes(precord.encode(rec))
        return {"device": self.id, "seq": self.seq, "payload": base64.b64encode(payload).decode(),
                "sig": psign.record_sig_hex(self.key, self.id, self.seq, payload)}

    def upload(self, recs: list) -> dict:
        st, body = self.server.anon.post("/api/records:batch", [self.envelope(r) for r in recs])
        assert st == 200 and all(r["status_code"] == 201 for r in body["results"]), body
        return body

    # ---- the table ----
    def start(self, at: int) -> dict:
        """Fetch the config and begin its session: the session record."""
        st, cfg = self.fetch_config()
        assert st == 200, cfg
        self.cfg, self.scores, self.hands, self.totals = cfg, list(cfg["scores"]), 0, [0, 0, 0, 0]
        self.dealer = cfg["first_dealer"]
        return precord.session(cfg, self.id, at)

    def hand(self, start: int, end: int, winner: Optional[str] = None, discarder: Optional[str] = None, fans: int = 0,
             penalties: tuple = ()) -> dict:
        """One hand keyed at ``end``, its dice rolled at ``start`` (epoch seconds). penalties:
        (payer, payee, points) transfers between players (a 错和: 10 to each)."""
        seats = self.cfg["players"]
        w = None if winner is None else seats.index(winner)
        d = None if discarder is None else seats.index(discarder)
        transfers = []
        if w is not None:
            for s, v in enumerate(mcr_pay.payments(fans, w, d)):
                if v < 0:
                    transfers.append([s, w, -v, "win %d fans%s" % (fans, " self-drawn" if d is None else "")])
        for a, b, pts in penalties:
            transfers.append([seats.index(a), seats.index(b), pts, "false win"])
        deltas = [0, 0, 0, 0]
        for a, b, pts, _why in transfers:
            deltas[a] -= pts
            deltas[b] += pts
        m = rules.hand_multiplier(self.cfg["event_start"], start)
        play, pen = rules.split(deltas, fans, w, d)
        self.scores = rules.apply(self.scores, rules.change(play, pen, m))
        self.totals = [a + b for a, b in zip(self.totals, deltas)]
        self.hands += 1
        events = [] if w is None else [{"win": w, "from": d, "hand": "given by its fan total"}]
        wins = [] if w is None else [precord.win(w, d, fans, [[1, 1]])]
        rec = precord.hand(self.cfg, self.hands, list(seats), self.dealer, WINDS[(self.hands - 1) // 4 % 4], events, deltas, transfers, [],
                           wins, (self.dealer + 1) % 4, end)
        rec.update(hand_start=start, multiplier=m, scores=list(self.scores))  # as firmware/survival.py adds them
        self.dealer = (self.dealer + 1) % 4
        return rec

    def busted(self) -> bool:
        return bool(rules.busted(self.scores))

    def end(self, at: int) -> dict:
        """The session_end at the bust: match_scores are the hands' deltas as in every mode."""
        return precord.session_end(self.cfg, self.hands, "bust", dict(zip(self.cfg["players"], self.totals)), at)


# The 16-player event of tests/server/test_survival_live.py (worked by hand there and in
# tests/tournament/test_survival_event_live.py), as data for the browser test: each table's
# hands (dice roll and keyed, minutes after the start; winner, discarder, fans, penalties) and
# the order things happen in: ("play", table) uploads a table's records, ("confirm", seats)
# seats the next table (the referee's swap at table 6 included).
EVENT_HANDS = {
    1: [(0, 9, "3", "32", 16, ()), (10, 18, "31", None, 18, ())],
    2: [(0, 12, "7", "28", 42, ())],
    3: [(0, 25, "12", "11", 10, ()), (26, 33, "24", None, 24, ())],
    4: [(0, 20, "15", "16", 8, ()), (31, 40, "20", None, 8, ()), (41, 45, "15", "19", 8, (("16", "15", 10), ("16", "19", 10), ("16", "20", 10)))],
    5: [(21, 29, "27", "8", 12, ()), (30, 38, "31", "8", 8, ())],
    6: [(36, 44, "24", "4", 8, ())],
    7: [(41, 50, "23", "7", 20, ()), (51, 58, "31", None, 10, ())],
    8: [(47, 55, "3", None, 16, ())],
    9: [(57, 65, "20", "15", 12, ()), (66, 72, "3", None, 13, ())],
    10: [(74, 80, "3", None, 8, ())],
    11: [(82, 88, "31", "3", 36, ()), (89, 96, "20", "24", 8, ())],
}
EVENT_STEPS = [("play", 2), ("play", 1), ("confirm", ("31", "7", "27", "8")), ("play", 3), ("confirm", ("24", "3", "12", "4")),
               ("play", 5), ("confirm", ("31", "7", "27", "23")), ("play", 6), ("play", 4), ("confirm", ("24", "20", "3", "12")),
               ("play", 8), ("confirm", ("3", "24", "15", "20")), ("play", 7), ("play", 9), ("confirm", ("3", "31", "23", "27")),
               ("play", 10), ("confirm", ("3", "31", "20", "24")), ("play", 11)]


def play_table(box: SurvivalBox, t0: int, hands: list) -> None:
    """Fetch the config of the box's table and upload the session, its hands and the bust's end."""
    recs = [box.start(t0 + 60 * hands[0][0])]
    for start, end, w, d, fans, pen in hands:
        recs.append(box.hand(t0 + 60 * start, t0 + 60 * end, w, d, fans, pen))
    assert box.busted()
    recs.append(box.end(t0 + 60 * hands[-1][1]))
    box.upload(recs)
