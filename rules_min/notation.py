# Hand notation of docs/rules.md -> (melds, concealed counts, winning tile, flowers).
#
#   [345m3]258m1488s369p7s    claimed chow 345m (3rd tile claimed), concealed tiles, win 7s
#   [EEE,2] or [EEE2]         pung of East from the opposite player
#   [5555p]                   concealed kong (no digit); [5555p1] melded; [5555p5] promoted (5-7)
#   abc                       flower letters anywhere outside brackets
#
# melds is a bytearray of 3 bytes per meld: kind, tile, offer. For a chow the tile is the lowest
# one. offer: chow 1-3 = which tile was claimed; pung/kong 1-3 = supplier; kong 0 = concealed,
# 5-7 = promoted from a pung of supplier offer-4.
# Errors raise ValueError(code, message): the caller shows the message and changes nothing.
from rules_min.tiles import HONOURS, SUITS, FLOWERS, name

CHOW = 0
PUNG = 1
KONG = 2


def _err(code, msg):
    return ValueError(code, msg)


def _tiles(s, i, end, out):
    # Reads tiles of s[i:end] into the list out (digits share the following suit letter).
    # Returns the index where it stopped: at a digit run with no suit letter after it, or end.
    while i < end:
        c = s[i]
        h = HONOURS.find(c)
        if h >= 0:
            out.append(27 + h)
            i += 1
            continue
        if "1" <= c <= "9":
            j = i
            while j < end and "1" <= s[j] <= "9":
                j += 1
            if j >= end or SUITS.find(s[j]) < 0:
                return i  # a digit run with no suit: a supplier digit, or an error for the caller
            base = SUITS.find(s[j]) * 9
            for k in range(i, j):
                out.append(base + ord(s[k]) - 49)
            i = j + 1
            continue
        return i
    return i


def _at(msg, i):
    # every message that can point at a character ends the same way: the CLI puts a caret there
    return "%s at position %d" % (msg, i)


def _meld(s, i, end, melds, seen):
    # s[i:end] is the inside of one bracket pair; i - 1 is its "["
    tiles = []
    j = _tiles(s, i, end, tiles)
    offer = -1
    if j < end:
        k = j + 1 if s[j] == "," else j
        if k == end - 1 and "0" <= s[k] <= "9":
            offer = ord(s[k]) - 48
        else:
            raise _err("bad_meld", _at("cannot read meld [%s]" % s[i:end], _bad_in_meld(s, j, end)))
    n = len(tiles)
    if n < 3 or n > 4:
        raise _err("bad_meld", _at("a meld has 3 or 4 tiles: [%s]" % s[i:end], i - 1))
    t = tiles[0]
    if tiles[1] == t and tiles[2] == t and (n == 3 or tiles[3] == t):
        kind = PUNG if n == 3 else KONG
        if kind == PUNG:
            if offer == -1:
                offer = 1
            elif offer < 1 or offer > 3:
                raise _err("bad_meld", _at("pung supplier must be 1-3: [%s]" % s[i:end], end - 1))
        else:
            if offer == -1:
                offer = 0
            elif not (0 <= offer <= 3 or 5 <= offer <= 7):
                raise _err("bad_meld", _at("kong supplier must be 1-3 or 5-7: [%s]" % s[i:end], end - 1))
    else:
        if n != 3:
            raise _err("bad_meld", _at("four tiles that are not a kong: [%s]" % s[i:end], i - 1))
        tiles.sort()
        t = tiles[0]
        if t >= 27 or tiles[1] != t + 1 or tiles[2] != t + 2 or t % 9 > 6:
            raise _err("bad_meld", _at("not a chow or pung: [%s]" % s[i:end], i - 1))
        kind = CHOW
        if offer == -1:
            offer = 1
        elif offer < 1 or offer > 3:
            raise _err("bad_meld", _at("claimed chow tile must be 1-3: [%s]" % s[i:end], end - 1))
    for x in tiles:
        seen[x] += 1
    melds.append(kind)
    melds.append(t)
    melds.append(offer)


def _valid(c):
    return c == " " or c == "[" or c == "]" or HONOURS.find(c) >= 0 or FLOWERS.find(c) >= 0 \
        or SUITS.find(c) >= 0 or "1" <= c <= "9"


def _bad_char(s, i, end):
    # s[i] starts no tile. A digit run is blamed on what follows it: "123x456m" on the x at 3,
    # "123 456m" on the space where a suit letter was due, "123" on the end of the hand.
    j = i
    while j < end and "1" <= s[j] <= "9":
        j += 1
    if j == i:
        if "0" <= s[i] <= "9":
            return _err("bad_char", _at("the digit 0 is no tile rank", i))
        if SUITS.find(s[i]) >= 0:
            return _err("bad_char", _at("suit letter %s without digits before it" % s[i], i))
        return _err("bad_char", _at("unknown character %r" % s[i], i))
    if j < end and s[j] == "0":
        return _err("bad_char", _at("the digit 0 is no tile rank", j))
    if j < end and not _valid(s[j]):
        return _err("bad_char", _at("unknown character %r" % s[j], j))
    return _err("bad_char", _at("a suit letter (m, s, p) is missing after %s" % s[i:j], j))


def _bad_in_meld(s, j, end):
    # the first character inside a bracket that is no tile, digit or comma
    while j < end and ("1" <= s[j] <= "9" or s[j] == "," or SUITS.find(s[j]) >= 0 or HONOURS.find(s[j]) >= 0):
        j += 1
    return j if j < end else end - 1


def parse(s, size=14):
    """Parse a hand string. Returns (melds, counts, win, flowers): melds bytearray (3 bytes a meld),
    counts bytearray(34) of the concealed tiles including the winning tile, win the last tile.
    size=13 reads a hand waiting for its tile (end-of-wall checks); win is then just its last."""
    if not isinstance(s, str):
        raise _err("bad_hand", "hand must be a string")
    melds = bytearray()
    counts = bytearray(34)
    seen = bytearray(34)  # every tile of the hand, kongs as four
    flowers = 0
    conc = []
    i = 0
    end = len(s)
    if end > 80:
        raise _err("bad_hand", "hand string too long")
    while i < end:
        c = s[i]
        if c == " ":
            i += 1
        elif c == "[":
            if conc:
                raise _err("bad_meld", _at("melds must come before the concealed tiles", i))
            j = s.find("]", i)
            if j < 0:
                raise _err("bad_meld", _at("unclosed bracket", i))
            if len(melds) >= 12:
                raise _err("tile_count", _at("more than four melds", i))
            _meld(s, i + 1, j, melds, seen)
            i = j + 1
        elif c == "]":
            raise _err("bad_meld", _at("a closing bracket without its opening one", i))
        elif FLOWERS.find(c) >= 0:
            bit = 1 << FLOWERS.find(c)
            if flowers & bit:
                raise _err("bad_flower", _at("flower %s given twice" % c, i))
            flowers |= bit
            i += 1
        else:
            j = _tiles(s, i, end, conc)
            if j == i:
                raise _bad_char(s, i, end)
            i = j
    n = len(conc) + len(melds)  # each meld counts three tiles; len(melds) is 3 bytes a meld
    if n != size:
        raise _err("tile_count", "the hand needs %d tiles (kongs count 3), got %d" % (size, n))
    for x in conc:
        counts[x] += 1
        seen[x] += 1
    for x in range(34):
        if seen[x] > 4:
            raise _err("fifth_tile", "%s appears %d times" % (name(x), seen[x]))
    nf = 0
    while flowers:
        nf += flowers & 1
        flowers >>= 1
    return melds, counts, conc[-1], nf
