# Hand entry: the tiles a player taps (or keys in), checked as they come so a mistake is
# refused at once. One stream of taps: the tiles of a claimed meld, then # to close it as a
# meld (a kong then asks concealed or not); after the melds, the concealed tiles, the winning
# tile last. The hand is complete when the concealed tiles are all there; no key ends it.
from rules_min.tiles import name
from firmware.ui import texts as T

CHOW = 0
PUNG = 1
KONG = 2


class Entry:
    """size 14: a winning hand; size 13: a hand waiting for its tile (end-of-wall checks).
    chows: whether claimed chows exist; honours: whether the rule set has honour tiles."""

    def __init__(self, size=14, chows=True, honours=True):
        self.size = size
        self.chows = chows
        self.honours = honours
        self.melds = []          # [kind, sorted tiles, offer, uids]; offer 0: a concealed kong
        self.current = []            # tiles since the last closed meld
        self.uids = []
        self.counts = bytearray(34)

    # ---- counting ----
    def need(self):
        """Tiles the concealed part takes (the winning tile included)."""
        return self.size - 3 * len(self.melds)

    def tiles(self):
        return 3 * len(self.melds) + len(self.current)

    def complete(self):
        return len(self.current) == self.need()

    # ---- taps ----
    def add(self, t, uid=None):
        """Take a tile; None, or (text id, argument) of why not."""
        if uid is not None:
            if uid in self.uids or any(uid in m[3] for m in self.melds):
                return (T.TAG_TWICE, None)
        if t >= 27 and not self.honours:
            return (T.NO_HONOURS, None)
        if self.counts[t] >= 4:
            return (T.FIFTH, name(t))
        if len(self.current) >= self.need():
            return (T.ALL_TILES, self.size)
        self.current.append(t)
        self.uids.append(uid)
        self.counts[t] += 1
        return None

    def kind(self):
        """What the open tiles make as a claimed meld: CHOW, PUNG, KONG, or None."""
        c = self.current
        if len(c) == 4 and c[0] == c[1] == c[2] == c[3]:
            return KONG
        if len(c) != 3:
            return None
        if c[0] == c[1] == c[2]:
            return PUNG
        s = sorted(c)
        if s[0] < 27 and s[1] == s[0] + 1 and s[2] == s[0] + 2 and s[0] // 9 == s[2] // 9:
            return CHOW if self.chows else None
        return None

    def close(self, concealed=False):
        """The open tiles are a meld (a kong: concealed or claimed). None, or why not."""
        k = self.kind()
        if k is None:
            return (T.NOT_A_MELD_CHOWS if self.chows else T.NOT_A_MELD, None)
        if len(self.melds) >= 4:
            return (T.FOUR_MELDS, None)
        self.melds.append([k, sorted(self.current), 0 if (k == KONG and concealed) else 1, self.uids])
        self.current = []
        self.uids = []
        return None

    def undo(self):
        """Take back the last tile, or reopen the last meld; False when there is nothing."""
        if self.current:
            self.counts[self.current.pop()] -= 1
            self.uids.pop()
            return True
        if self.melds:
            m = self.melds.pop()
            self.current = m[1][:]
            self.uids = m[3]
            return True
        return False

    # ---- what was entered ----
    def notation(self):
        """The hand in the notation of the settle protocol: [melds], concealed, winning tile."""
        out = ""
        for kind, tiles, offer, _ in self.melds:
            s = "".join(name(t) for t in tiles)
            out += "[" + s + ("" if kind == KONG and offer == 0 else "1") + "]"
        return out + "".join(name(t) for t in self.current)

    def suits(self):
        """Bit 0/1/2 set for each suit m/s/p the hand holds."""
        b = 0
        for m in self.melds:
            if m[1][0] < 27:
                b |= 1 << (m[1][0] // 9)
        for t in self.current:
            if t < 27:
                b |= 1 << (t // 9)
        return b


def void_suit(suits):
    """The suit a Sichuan hand lacks ("m", "s", "p"), from the bits of Entry.suits(); None when
    it holds all three (a 花猪, which the rules refuse)."""
    for i in range(3):
        if not suits & (1 << i):
            return "msp"[i]
    return None


def compact(tiles):
    """Tiles as short text: 1m2m3m5s -> 123m5s (the order kept, digits share a suit letter)."""
    out = ""
    run = ""
    suit = -1
    for t in tiles:
        if t >= 27:
            if run:
                out += run + "msp"[suit]
                run = ""
                suit = -1
            out += name(t)
        elif t // 9 == suit:
            run += str(t % 9 + 1)
        else:
            if run:
                out += run + "msp"[suit]
            suit = t // 9
            run = str(t % 9 + 1)
    if run:
        out += run + "msp"[suit]
    return out
