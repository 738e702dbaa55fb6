# Fan names for the screen, found by index: each name table of the rules core (one "|"-joined
# string per language) gets a table of where each name starts, built once, so showing a fan is
# one slice, not a walk through the string. The rules core keeps the one copy of the names.
from firmware.compat import MICROPYTHON as _MP

FLOWERS = 80   # rules_min/mcr_table.FLOWER_TILES: flowers are a fan of their own on the record

_index = {}


class Names:
    def __init__(self, s):
        # a table may be bytes (the rules core keeps ASCII names so; its replies send them as
        # they are); MicroPython lends a str's UTF-8 bytes without a copy; CPython encodes once
        self.b = b = memoryview(s) if _MP or isinstance(s, bytes) else s.encode()
        n = 1
        for i in range(len(b)):
            if b[i] == 124:      # "|"
                n += 1
        self.n = n
        at = bytearray(2 * (n + 1))   # 2 bytes where each name starts, then the end
        k = 1
        for i in range(len(b)):
            if b[i] == 124:
                at[2 * k] = (i + 1) >> 8
                at[2 * k + 1] = (i + 1) & 0xFF
                k += 1
        e = len(b) + 1
        at[2 * n] = e >> 8
        at[2 * n + 1] = e & 0xFF
        self.at = at

    def __len__(self):
        return self.n

    def get(self, i):
        at = self.at
        a = (at[2 * i] << 8) | at[2 * i + 1]
        e = (at[2 * i + 2] << 8) | at[2 * i + 3]
        return str(self.b[a:e - 1], "utf-8")


def _names(rules, en):
    key = rules + ("en" if en else "cn")
    n = _index.get(key)
    if n is None:
        if rules == "mcr":
            from rules_min import mcr_table as m
        else:
            from rules_min import sichuan as m
        n = _index[key] = Names(m.EN if en else m.CN)
    return n


def fan(rules, fid, lang):
    """(name, points of one) of a fan id as the record carries it (protocol/record.py)."""
    en = lang == "en"
    if rules == "guangdong":
        from rules_min.guangdong import HAND_TABLE
        row = HAND_TABLE[fid]
        return row[1] if en else row[0], row[2]
    if rules == "mcr":
        from rules_min.mcr_table import POINTS
        pts = 1 if fid == FLOWERS else POINTS[fid]
    else:
        from rules_min.sichuan import POINTS
        pts = POINTS[fid]
    return _names(rules, en).get(fid), pts
