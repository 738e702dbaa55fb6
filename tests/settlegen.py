"""Random VALID hands for the settle command (`python -m host_tools settle --rules R`), for the
property tests (tests/test_settle_properties.py) and the CPython / MicroPython comparison
(tests/test_settle_micropython.py). CPython only.

    random_request(rng, rules)  -> (request dict without "id", info)
        info["winners"]: {event index: winning seat}; info["ended"]: the last event ends the hand
    junk_request(rng, rules)    -> a request with some events or fields broken (for fuzzing)

`rng` is a random.Random (or hypothesis' st.randoms()); the same seed gives the same hands.

Every sequence keeps the rules the settle engine enforces (docs/rules.md):
  Sichuan   suited tiles only, a winning hand of at most two suits and none of the winner's missing
            suit (定缺 fixed per seat for the hand), no chow melds; kongs, wins and declares only by
            seats still in; up to three winners (一炮多响 on one discard allowed); wall_end gives the
            13 tiles of every seat still in (ready, not ready, or 花猪 with three suits).
  Guangdong any tiles, no chow melds; a chicken hand (鸡和) only self-drawn; one win, or several
            winners on one discard; horses.
  MCR       tests/handgen.random_win hands of at least 8 fans (checked with the score protocol),
            one winner per hand; declared hands that are no win (错和 / 诈和).
Bonus flags are set only where the engine accepts them: kong=True self-drawn right after the
winner's own kong (杠上开花), on a discard right after the discarder's added kong (抢杠).
"""
import json

import handgen
from handgen import ORPHANS, tile_name

SUITS = "msp"
WINDS = "ESWN"
ALL_SUITED = tuple(range(27))


# ------------------------------------------------------------------ winning hands

def _free(used, t, n):
    return used[t] + n <= 4


def _meld_digit(rng, kind):
    if kind == "p":
        return rng.randint(1, 3)
    return rng.choice((None, None, 1, 2, 3, 5, 6, 7))   # None: concealed kong


def _regular(rng, allowed, chow_p, meld_p, kong_p):
    """(melds, concealed, win) of four sets and a pair from `allowed` tiles, or None."""
    used = [0] * 34
    allowed = list(allowed)
    chow_starts = [t for t in allowed if t < 27 and t % 9 <= 6 and t + 1 in allowed and t + 2 in allowed]
    melds = []
    concealed = []
    for _ in range(4):
        for _try in range(20):
            r = rng.random()
            if r < chow_p and chow_starts:
                t = rng.choice(chow_starts)
                if all(_free(used, x, 1) for x in (t, t + 1, t + 2)):
                    for x in (t, t + 1, t + 2):
                        used[x] += 1
                    concealed += [t, t + 1, t + 2]   # chows are never claimed here
                    break
            elif r < chow_p + kong_p:
                t = rng.choice(allowed)
                if used[t] == 0:
                    used[t] = 4
                    melds.append(("k", t, _meld_digit(rng, "k")))
                    break
            else:
                t = rng.choice(allowed)
                if _free(used, t, 3):
                    used[t] += 3
                    if rng.random() < meld_p:
                        melds.append(("p", t, _meld_digit(rng, "p")))
                    else:
                        concealed += [t, t, t]
                    break
        else:
            return None
    pairs = [t for t in allowed if _free(used, t, 2)]
    if not pairs:
        return None
    p = rng.choice(pairs)
    concealed += [p, p]
    rng.shuffle(concealed)
    win = concealed.pop()
    return melds, concealed, win


def _seven_pairs(rng, allowed):
    used = [0] * 34
    tiles = []
    allowed = list(allowed)
    for _ in range(7):
        for _try in range(20):
            t = rng.choice(allowed)
            # a second pair of the same tile (four of a kind) now and then: 龙七对
            if used[t] == 0 or (used[t] == 2 and rng.random() < 0.3):
                used[t] += 2
                tiles += [t, t]
                break
        else:
            return None
    rng.shuffle(tiles)
    win = tiles.pop()
    return [], tiles, win


def _orphans(rng):
    tiles = list(ORPHANS) + [rng.choice(ORPHANS)]
    rng.shuffle(tiles)
    win = tiles.pop()
    return [], tiles, win


def _write(rng, hand):
    melds, concealed, win = hand
    return handgen.notation(melds, concealed, win, rng)


def sichuan_suits(rng, missing):
    """The suits (indices) a Sichuan hand of a player with this missing suit may hold."""
    rest = [s for s in range(3) if s != missing]
    if missing is None:
        rest = rng.sample(range(3), 2)
    if rng.random() < 0.3:
        return [rng.choice(rest)]
    return rest


def _tiles_of(suits):
    return [t for t in ALL_SUITED if t // 9 in suits]


def sichuan_win(rng, missing):
    """(hand string, structure) of a Sichuan winning hand avoiding `missing` (0-2 or None)."""
    while True:
        allowed = _tiles_of(sichuan_suits(rng, missing))
        if rng.random() < 0.15:
            h = _seven_pairs(rng, allowed)
        else:
            h = _regular(rng, allowed, rng.choice((0.0, 0.4, 0.8)), rng.choice((0.0, 0.3, 0.6)), 0.12)
        if h is not None:
            return _write(rng, h), h


_GD_THEMES = ("any", "any", "one_suit", "one_suit_honours", "honours", "terminals_honours", "no_honours")


def _gd_allowed(rng, theme):
    s = rng.randrange(3)
    if theme == "one_suit":
        return [t for t in range(27) if t // 9 == s]
    if theme == "one_suit_honours":
        return [t for t in range(34) if t // 9 == s or t >= 27]
    if theme == "honours":
        return list(range(27, 34))
    if theme == "terminals_honours":
        return list(ORPHANS)
    if theme == "no_honours":
        return list(range(27))
    return list(range(34))


def guangdong_win(rng):
    """(hand string, structure) of a Guangdong winning hand (no claimed chows)."""
    while True:
        theme = rng.choice(_GD_THEMES)
        r = rng.random()
        if r < 0.04:
            h = _orphans(rng)
        elif r < 0.16:
            h = _seven_pairs(rng, _gd_allowed(rng, theme))
        else:
            h = _regular(rng, _gd_allowed(rng, theme), rng.choice((0.0, 0.4, 0.8)), rng.choice((0.0, 0.3, 0.6)), 0.1)
        if h is not None:
            return _write(rng, h), h


def is_chicken(hand):
    """Whether the engine's hand table scores this Guangdong hand as 鸡和 (then: self-draw only)."""
    from rules_min import guangdong
    from rules_min.notation import parse
    from rules_min.win import Win

    melds, counts, win, _ = parse(hand)
    row = guangdong.score(Win(melds, counts, win))
    return guangdong.HAND_TABLE[row][0] == guangdong.CHICKEN


def near_miss(rng, hand):
    """A 14-tile hand like `hand` (same melds) with one concealed tile changed so it is no win,
    drawn from the same tiles pool as the original's suits when possible. None if none found."""
    melds, concealed, win = hand
    tiles = concealed + [win]
    meld_tiles = []
    for k, t, _ in melds:
        meld_tiles += [t] * (4 if k == "k" else 3)
    pool = sorted(set(tiles))
    pool = list(range(pool[0] // 9 * 9, min(34, pool[-1] // 9 * 9 + 9))) if pool[-1] < 27 else list(range(34))
    for _ in range(30):
        i = rng.randrange(len(tiles))
        new = rng.choice(pool)
        c = [0] * 34
        for t in tiles:
            c[t] += 1
        c[tiles[i]] -= 1
        c[new] += 1
        if c[new] + meld_tiles.count(new) > 4:
            continue
        if handgen.is_win_counts(c, len(melds)):
            continue
        out = list(tiles)
        out[i] = new
        return handgen.notation(melds, out[:-1], out[-1], rng)
    return None


def sichuan_13(rng, missing, kind):
    """A 13-tile Sichuan hand for wall_end: kind "ready" (a win less its winning tile),
    "pig" (three suits), or "any" (random two-suit tiles, usually not ready)."""
    if kind == "ready":
        _, (melds, concealed, win) = sichuan_win(rng, missing)
        return handgen.notation(melds, concealed[:-1], concealed[-1], rng) if concealed else None
    suits = [0, 1, 2] if kind == "pig" else sichuan_suits(rng, missing)
    while True:
        used = [0] * 34
        tiles = []
        for s in suits:     # at least one tile of each suit
            t = s * 9 + rng.randrange(9)
            tiles.append(t)
            used[t] += 1
        pool = _tiles_of(suits)
        while len(tiles) < 13:
            t = rng.choice(pool)
            if used[t] < 4:
                used[t] += 1
                tiles.append(t)
        rng.shuffle(tiles)
        return handgen.notation([], tiles[:-1], tiles[-1], rng)


# ------------------------------------------------------------------ MCR

def _score(req, rules="mcr"):
    from rules_min.request import handle_line
    return json.loads(handle_line(json.dumps(req), rules))


def mcr_win(rng, seat_wind, prevalent):
    """A handgen.random_win request of >= 8 fans (not counting flowers) for this seat wind; now
    and then with win_tile_mixed or replacement_flower (when it still reaches 8 fans)."""
    while True:
        req = handgen.random_win(rng)
        req["seat_wind"] = seat_wind
        req["prevalent_wind"] = prevalent
        if rng.random() < 0.15:
            req["win_tile_mixed"] = True
        if req["kong"] and req["self_drawn"] and rng.random() < 0.3:
            req["replacement_flower"] = True
        rep = _score(req)
        if rep.get("ok") and rep["meets_minimum"]:
            return req


def mcr_declare_hand(rng, seat_wind, prevalent):
    """A hand whose declaration is a failed win: no win, or a win under 8 fans (as on a discard)."""
    while True:
        if rng.random() < 0.5:
            req = handgen.random_near_miss(rng)
        else:
            req = handgen.random_win(rng)
        q = {"hand": req["hand"], "seat_wind": seat_wind, "prevalent_wind": prevalent}
        rep = _score(q)
        if rep.get("ok") and not rep["meets_minimum"]:
            return req["hand"]
        if not rep.get("ok") and rep["error"]["code"] == "not_win":
            return req["hand"]


# ------------------------------------------------------------------ event sequences

PENALTIES = {
    "mcr": ("empty_call", "early_draw", "slow_claim", "late", "exposed_tiles", "information"),
    "guangdong": ("early_draw", "call_words", "late", "false_win", "information", "wall", "exposed_tiles"),
    "sichuan": ("tier1", "tier2", "tier3", "tier4", "late"),
}
BARS = ("information", "tier2", "tier4")   # penalties after which the seat may not win this hand
BAR_REASONS = {   # the bar event's reasons (docs/rules.md "停和陪打")
    "mcr": ("wrong_call", "wrong_count", "wrong_draw", "false_declaration", "exposed_own", "information"),
    "guangdong": ("wrong_count", "wrong_draw"),
    "sichuan": ("interfering", "delaying"),
}
EXPOSED = {"mcr": (5, 60), "guangdong": (1, 16)}   # keyed points to the victim

WEIGHTS = {   # kong, win, penalty, declare, wall_end, time_out, bar
    "sichuan": (0.36, 0.3, 0.14, 0.08, 0.06, 0.02, 0.03),
    "guangdong": (0.4, 0.15, 0.28, 0.1, 0.04, 0.03, 0.03),
    "mcr": (0.3, 0.2, 0.32, 0.12, 0.03, 0.03, 0.04),
}
KINDS = ("kong", "win", "penalty", "declare", "wall_end", "time_out", "bar")


class _Gen:
    def __init__(self, rng, rules, max_events):
        self.rng = rng
        self.rules = rules
        self.max_events = max_events
        self.dealer = rng.randrange(4)
        self.pw = rng.choice(WINDS)
        self.events = []
        self.winners = {}          # event index -> seat
        self.out = set()           # Sichuan: seats that have won
        self.barred = set()
        self.group = None          # [discarder, robbed?] of the open discard win
        self.ended = False
        self.missing = [rng.randrange(3) for _ in range(4)]
        self.say_missing = [rng.random() < 0.7 for _ in range(4)]

    def add(self, ev):
        self.events.append(ev)

    def prev(self):
        return self.events[-1] if self.events else None

    def still(self):
        return [s for s in range(4) if s not in self.out]

    # -- events
    def kong(self):
        rng = self.rng
        cands = self.still()
        if self.rules == "guangdong":   # seed 004 §三.3(2): a barred player neither pungs nor kongs
            cands = [x for x in cands if x not in self.barred]
        if not cands:
            return
        s = rng.choice(cands)
        kind = rng.choice(("concealed", "added", "direct"))
        ev = {"kong": kind, "seat": s}
        if kind == "direct":
            others = [x for x in self.still() if x != s]
            if not others:
                return
            ev["from"] = rng.choice(others)
        self.group = None
        self.add(ev)

    def penalty(self):
        rng = self.rng
        s = rng.randrange(4)
        kind = rng.choice(PENALTIES[self.rules])
        ev = {"penalty": kind, "seat": s}
        if kind == "late":
            ev["minutes"] = rng.choice((0, 3, 10, 11, 14, 15, 20))
        elif rng.random() < 0.1:
            ev["minutes"] = rng.randrange(30)
        if kind == "exposed_tiles":
            ev["victim"] = rng.choice([x for x in range(4) if x != s])
            ev["points"] = rng.randint(*EXPOSED[self.rules])
        if kind == "information" and self.rules == "mcr":
            r = rng.random()
            if r < 0.7:
                ev["points"] = rng.randint(1, 100)
            if r > 0.4:
                ev["bar"] = True
                self.barred.add(s)
        elif kind in BARS:
            self.barred.add(s)
        self.group = None
        self.add(ev)

    def declare(self):
        rng = self.rng
        if self.rules == "mcr":
            cands = [s for s in range(4) if s not in self.barred]
        else:
            cands = self.still()
        if not cands:
            return
        s = rng.choice(cands)
        ev = {"declare": s}
        if rng.random() < 0.8:
            if self.rules == "mcr":
                ev["hand"] = mcr_declare_hand(rng, WINDS[(s - self.dealer) % 4], self.pw)
            elif self.rules == "sichuan":
                _, h = sichuan_win(rng, self.missing[s])
                hand = near_miss(rng, h)
                if hand is None:
                    return
                ev["hand"] = hand
                if self.say_missing[s]:
                    ev["missing_suit"] = SUITS[self.missing[s]]
            else:
                _, h = guangdong_win(rng)
                hand = near_miss(rng, h)
                if hand is None:
                    return
                ev["hand"] = hand
        if self.rules != "guangdong":
            self.barred.add(s)    # 错报和 / 错和 / 诈和: no win this hand (MCR; Sichuan likewise)
        self.group = None
        self.add(ev)

    def wall_end(self):
        rng = self.rng
        ev = {"wall_end": True}
        if self.rules == "sichuan":
            hands = {}
            missing = {}
            for s in self.still():
                kind = rng.choice(("ready", "ready", "any", "pig"))
                h = None
                while h is None:
                    h = sichuan_13(rng, self.missing[s], kind)
                hands[str(s)] = h
                if kind != "pig" and self.say_missing[s]:
                    missing[str(s)] = SUITS[self.missing[s]]
            ev["hands"] = hands
            if missing or rng.random() < 0.5:
                ev["missing_suit"] = missing
        self.add(ev)
        self.ended = True

    def time_out(self):
        self.add({"time_out": True})
        self.ended = True

    def bar(self):
        rng = self.rng
        s = rng.choice(self.still())
        self.barred.add(s)
        self.group = None
        self.add({"bar": s, "reason": rng.choice(BAR_REASONS[self.rules])})

    def win(self):
        if self.rules == "mcr":
            return self._win_mcr()
        rng = self.rng
        g = self.group
        if self.rules == "guangdong" and self.winners and g is None:
            return    # a second Guangdong win needs the same discard
        cands = [s for s in self.still() if s not in self.barred and s not in self.winners.values()]
        if g is not None and self.rules == "guangdong":
            cands = [s for s in cands if s != g[0]]
        if not cands:
            return
        w = rng.choice(cands)
        prev = self.prev()
        joining = g is not None and g[0] != w and (self.rules == "guangdong" or rng.random() < (0.9 if g[1] else 0.6))
        self_drawn = not joining and rng.random() < 0.4
        ev = {"win": w, "from": None}
        kong = False
        kd = False
        if joining:
            src = g[0]
            kong = g[1] and rng.random() < 0.85     # several players rob the same kong
            kd = g[2]                                # 杠上炮 is a fact of the discard
        elif not self_drawn:
            others = [x for x in self.still() if x != w]
            if not others:
                return
            src = rng.choice(others)
            if prev and prev.get("kong") == "added" and prev.get("seat") in others and g is None \
                    and rng.random() < 0.5:
                src = prev["seat"]
                kong = True                          # 抢杠
            elif prev and "kong" in prev and "seat" in prev and prev["seat"] in others and rng.random() < 0.5:
                src = prev["seat"]                   # the konger's discard: 杠上炮 if right after
                kd = self.rules == "sichuan" and rng.random() < 0.7
        else:
            src = None
            if prev and prev.get("seat") == w and "kong" in prev and isinstance(prev["kong"], str) \
                    and rng.random() < 0.6:
                kong = True                          # 杠上开花
        ev["from"] = src
        if g is not None and src == g[0]:
            kd = g[2]     # the engine joins any win on the same discarder's discard to the open one
        if self.rules == "sichuan":
            hand, _ = sichuan_win(rng, self.missing[w])
            if self.say_missing[w]:
                ev["missing_suit"] = SUITS[self.missing[w]]
            if src is None and rng.random() < 0.1:
                ev["last_tile"] = True
        else:
            while True:
                hand, _ = guangdong_win(rng)
                if src is None or not is_chicken(hand):
                    break
            ev["horses"] = [tile_name(rng.randrange(34)) for _ in range(rng.choice((0, 1, 2, 2, 2)))]
        ev["hand"] = hand
        if kong or rng.random() < 0.3:
            ev["kong"] = kong
        if kd or (self.rules == "sichuan" and src is not None and rng.random() < 0.2):
            ev["kong_discard"] = kd
        if src is None and rng.random() < 0.3:
            del ev["from"]
        i = len(self.events)
        self.add(ev)
        self.winners[i] = w
        if self.rules == "sichuan":
            self.out.add(w)
            if len(self.winners) >= 3:
                self.ended = True
        elif src is None:
            self.ended = True
        if src is None:
            self.group = None
        elif g is not None and g[0] == src:
            pass
        else:
            self.group = [src, kong, kd]
        if self.rules == "guangdong" and src is not None:
            # more winners on this discard (more often when the kong was robbed), or the hand is over
            if rng.random() < (0.3 if kong else 0.5):
                self.ended = True

    def _win_mcr(self):
        rng = self.rng
        for _ in range(10):
            wind = rng.choice(WINDS)
            w = (self.dealer + WINDS.index(wind)) % 4
            if w not in self.barred:
                break
        else:
            return
        req = mcr_win(rng, wind, self.pw)
        ev = {"win": w, "hand": req["hand"]}
        others = [x for x in range(4) if x != w]
        if req["self_drawn"]:
            ev["from"] = None
            if req["kong"]:
                prev = self.prev()
                if not (prev and prev.get("seat") == w and "kong" in prev):
                    k = {"kong": rng.choice(("concealed", "added", "direct")), "seat": w}
                    if k["kong"] == "direct":
                        k["from"] = rng.choice(others)
                    self.add(k)
        else:
            ev["from"] = rng.choice(others)
            if req["kong"]:
                self.add({"kong": "added", "seat": ev["from"]})
        for k in ("kong", "last_tile", "last_of_kind"):
            if req[k] or rng.random() < 0.3:
                ev[k] = req[k]
        for k in ("win_tile_mixed", "replacement_flower"):
            if k in req:
                ev[k] = req[k]
        if req["flowers"] or rng.random() < 0.3:
            ev["flowers"] = req["flowers"]
        i = len(self.events)
        self.add(ev)
        self.winners[i] = w
        self.ended = True

    def run(self):
        rng = self.rng
        n = rng.randint(0, self.max_events) if rng.random() < 0.3 else self.max_events
        while len(self.events) < n and not self.ended:
            if self.rules == "guangdong" and self.group is not None:
                # after a Guangdong discard win only more winners on that discard may follow
                before = len(self.events)
                self.win()
                if len(self.events) == before:
                    self.ended = True
                continue
            kind = rng.choices(KINDS, weights=WEIGHTS[self.rules])[0]
            if self.group is not None and rng.random() < (0.7 if self.group[1] else 0.3):
                kind = "win"      # Sichuan: more often a second winner on the same discard
            getattr(self, kind)()
        req = {"dealer": self.dealer, "prevalent_wind": self.pw, "events": self.events}
        options = {}
        if self.rules == "sichuan" and rng.random() < 0.25:
            options["gen"] = rng.random() < 0.7
        if self.rules == "guangdong" and rng.random() < 0.25:
            options["horse_add"] = rng.random() < 0.7
        if options or rng.random() < 0.3:
            req["options"] = options
        return req, {"winners": dict(self.winners), "ended": self.ended}


def random_request(rng, rules, max_events=16):
    """A valid settle request (no "id") and facts about it (see the module doc)."""
    return _Gen(rng, rules, max_events).run()


# ------------------------------------------------------------------ junk

JUNK_VALUES = (None, True, False, -1, 4, 99, 2 ** 70, 1.5, -0.0, "", "x", "0", "E", "1m", [], [1], {}, {"a": 1},
               "\u0000", "中" * 30, [None, None, None], "123m" * 30)
EVENT_KEYS = ("win", "from", "hand", "missing_suit", "kong", "last_tile", "last_of_kind", "flowers", "horses",
              "declare", "penalty", "seat", "minutes", "wall_end", "hands", "time_out", "bar", "reason",
              "victim", "points", "win_tile_mixed", "replacement_flower", "kong_discard", "misnamed")


def _junk_value(rng):
    r = rng.random()
    if r < 0.5:
        return rng.choice(JUNK_VALUES)
    if r < 0.7:
        return rng.randint(-5, 8)
    if r < 0.85:
        return rng.choice(("concealed", "added", "direct", "tier1", "tier2", "late", "wall", "false_win",
                           "information", "empty_call", "p", "m", "s", "W", "P", "exposed_tiles", "call_words",
                           "wrong_call", "wrong_draw", "delaying"))
    return "".join(rng.choice("123456789mspESWNCFPabcdefgh[],0 ") for _ in range(rng.randrange(20)))


def _mangle_hand(rng, h):
    h = list(h)
    for _ in range(rng.randint(1, 3)):
        i = rng.randrange(len(h) + 1)
        op = rng.random()
        if op < 0.4 and h:
            del h[min(i, len(h) - 1)]
        elif op < 0.8:
            h.insert(i, rng.choice("123456789mspESWNCFPabcdefgh[],0 x"))
        elif h:
            h[min(i, len(h) - 1)] = rng.choice("123456789msp[],")
    return "".join(h)


def junk_request(rng, rules):
    req, _ = random_request(rng, rules, 10)
    ev = req["events"]
    for _ in range(rng.randint(1, 4)):
        r = rng.random()
        if ev and r < 0.3:
            e = rng.choice(ev)
            if isinstance(e, dict):
                e[rng.choice(EVENT_KEYS)] = _junk_value(rng)
        elif ev and r < 0.45:
            e = rng.choice(ev)
            if isinstance(e, dict) and e:
                del e[rng.choice(sorted(e))]
        elif ev and r < 0.6:
            e = rng.choice(ev)
            if isinstance(e, dict) and isinstance(e.get("hand"), str) and e["hand"]:
                e["hand"] = _mangle_hand(rng, e["hand"])
            elif isinstance(e, dict) and isinstance(e.get("hands"), dict) and e["hands"]:
                k = rng.choice(sorted(e["hands"]))
                v = e["hands"][k]
                e["hands"][k] = _mangle_hand(rng, v) if isinstance(v, str) and rng.random() < 0.7 else _junk_value(rng)
        elif r < 0.7:
            ev.insert(rng.randrange(len(ev) + 1), {k: _junk_value(rng) for k in rng.sample(EVENT_KEYS, rng.randint(0, 4))})
        elif r < 0.75:
            ev.insert(rng.randrange(len(ev) + 1), _junk_value(rng))
        elif ev and r < 0.82:
            i, j = rng.randrange(len(ev)), rng.randrange(len(ev))
            ev[i], ev[j] = ev[j], ev[i]     # out of order: wins after the end, kongs by winners ...
        elif ev and r < 0.87:
            ev.append(rng.choice(ev))       # a repeated event
        elif r < 0.92:
            req[rng.choice(("dealer", "prevalent_wind", "options", "events"))] = _junk_value(rng)
        else:
            req["options"] = {rng.choice(("gen", "horse_add", "hand_table")): _junk_value(rng)}
    return req
