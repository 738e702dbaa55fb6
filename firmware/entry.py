# Hand entry: the tiles a player taps (or keys in), grouped as claimed melds, concealed tiles and
# the winning tile, checked as they come so a mistake is refused at once with a message.
from rules_min.tiles import name

CHOW = 0
PUNG = 1
KONG = 2


class Entry:
    """size 14: a winning hand (melds, concealed, then the winning tile); size 13: a hand
    waiting for its tile (end-of-wall checks). chows: whether claimed chows exist."""

    def __init__(self, size=14, chows=True, honours=True):
        self.size = size
        self.chows = chows
        self.honours = honours
        self.melds = []          # [kind, tiles, offer, uids]
        self.current = []        # tiles of the meld being tapped
        self.current_uids = []
        self.concealed = []
        self.concealed_uids = []
        self.counts = bytearray(34)
        self.flowers = 0

    # ---- counting ----
    def tiles_in_hand(self):
        # kongs count as three, as in the notation
        return 3 * len(self.melds) + len(self.current) + len(self.concealed)

    def need_concealed(self):
        return self.size - 3 * len(self.melds)

    def _take(self, t, uid):
        if uid is not None:
            if uid in self.current_uids or uid in self.concealed_uids or any(uid in m[3] for m in self.melds):
                return "that tag was already read"
        if t >= 34:
            return "flowers are counted, not tiles of the hand"
        if t >= 27 and not self.honours:
            return "no honours in this rule set"
        if self.counts[t] >= 4:
            return "a fifth %s" % name(t)
        return None


    # ---- melds ----
    def add_meld_tile(self, t, uid=None):
        err = self._take(t, uid)
        if err:
            return err
        if len(self.melds) >= 4:
            return "four melds at most"
        if len(self.current) >= 4:
            return "a meld has 3 or 4 tiles"
        self.current.append(t)
        self.current_uids.append(uid)
        self.counts[t] += 1
        return None

    def meld_kind(self):
        """Kind of the tiles tapped so far as a meld, or None if they are none."""
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

    def close_meld(self, offer):
        kind = self.meld_kind()
        if kind is None:
            return "not a meld"
        if kind == CHOW and not 1 <= offer <= 3:
            return "which tile was claimed: 1-3"
        if kind == PUNG and not 1 <= offer <= 3:
            return "who gave the tile: 1 left, 2 opposite, 3 right"
        if kind == KONG and not 0 <= offer <= 3:
            return "0 concealed kong, 1-3 who gave it"
        self.melds.append([kind, sorted(self.current), offer, self.current_uids])
        self.current = []
        self.current_uids = []
        return None

    def drop_meld(self):
        # undo the last meld (or the tiles of the one being tapped)
        if self.current:
            tiles = self.current
            self.current = []
            self.current_uids = []
        elif self.melds:
            tiles = self.melds.pop()[1]
        else:
            return False
        for t in tiles:
            self.counts[t] -= 1
        return True

    # ---- concealed tiles (the last one is the winning tile for size 14) ----
    def add_concealed(self, t, uid=None):
        if len(self.concealed) >= self.need_concealed():
            return "that is all %d tiles" % self.size
        err = self._take(t, uid)
        if err:
            return err
        self.concealed.append(t)
        self.concealed_uids.append(uid)
        self.counts[t] += 1
        return None

    def drop_concealed(self):
        if not self.concealed:
            return False
        t = self.concealed.pop()
        self.concealed_uids.pop()
        self.counts[t] -= 1
        return True

    def complete(self):
        return not self.current and len(self.concealed) == self.need_concealed()

    def notation(self):
        out = ""
        for kind, tiles, offer, _ in self.melds:
            s = "".join(name(t) for t in tiles)
            out += "[" + s + ("" if kind == KONG and offer == 0 else str(offer)) + "]"
        return out + "".join(name(t) for t in self.concealed)
