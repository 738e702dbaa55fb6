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


# ---- the quick reading of a well-formed hand ----
# On MicroPython every s[i] of a str makes a new one-character str, looked up among all interned
# strings (on the Pico with .mpy files: most of parse's time). _quick reads the hand's bytes
# instead, as ints, and accepts only what parse() below accepts, giving the same result; on
# anything else (every error, any byte it does not know) it returns None and parse() reads the
# hand itself, with its error messages. _CH: byte -> 1-9 digit, 10-12 suit m s p, 20-26 honour
# E S W N C F P, 30-37 flower a-h, 40 "[", 42 ",", 43 " "; 0 for the rest.
_CH = bytearray(128)
for _i in range(9):
    _CH[49 + _i] = 1 + _i
for _i in range(3):
    _CH[ord(SUITS[_i])] = 10 + _i
for _i in range(7):
    _CH[ord(HONOURS[_i])] = 20 + _i
for _i in range(8):
    _CH[ord(FLOWERS[_i])] = 30 + _i
_CH[91] = 40
_CH[44] = 42
_CH[32] = 43
_QT = bytearray(4)  # a meld's tiles


def _qtiles(b, i, end, counts, out):
    # _tiles() on bytes: into counts (counts is not None) or out (up to 4 tiles, returns -1 for
    # more); returns (index where it stopped) + 100 * tiles read. Stops at a digit run with no
    # suit after it, a byte that is no tile, or end.
    n = 0
    while i < end:
        k = _CH[b[i]] if b[i] < 128 else 0
        if 20 <= k <= 26:  # an honour: a run of one, tile 7 + its class
            j = i + 1
            nxt = j
            base = 7
        elif 1 <= k <= 9:  # digits sharing the suit letter after them
            j = i
            while j < end and 1 <= (_CH[b[j]] if b[j] < 128 else 0) <= 9:
                j += 1
            if j >= end or not 10 <= (_CH[b[j]] if b[j] < 128 else 0) <= 12:
                return i + 100 * n
            nxt = j + 1
            base = (_CH[b[j]] - 10) * 9 - 1
        else:
            return i + 100 * n
        while i < j:
            t = base + _CH[b[i]]
            if counts is not None:
                counts[t] += 1
            elif n < 4:
                out[n] = t
            else:
                return -1
            n += 1
            i += 1
        i = nxt
    return i + 100 * n


def _qmeld(b, i, end, melds, seen):
    # _meld() on bytes; False where _meld would raise
    r = _qtiles(b, i, end, None, _QT)
    if r < 0:
        return False
    j = r % 100
    n = r // 100
    offer = -1
    if j < end:
        k = j + 1 if b[j] == 44 else j
        if k != end - 1 or not 48 <= b[k] <= 57:
            return False
        offer = b[k] - 48
    if n < 3:
        return False
    q = _QT
    t = q[0]
    if q[1] == t and q[2] == t and (n == 3 or q[3] == t):
        if n == 3:
            kind = PUNG
            if offer == -1:
                offer = 1
            elif offer < 1 or offer > 3:
                return False
        else:
            kind = KONG
            if offer == -1:
                offer = 0
            elif not (0 <= offer <= 3 or 5 <= offer <= 7):
                return False
    else:
        if n != 3:
            return False
        a = q[0]
        c = q[1]
        d = q[2]
        t = min(a, c, d)
        if a + c + d != 3 * t + 3 or max(a, c, d) != t + 2 or t >= 27 or t % 9 > 6 or a == c or c == d or a == d:
            return False
        kind = CHOW
        if offer == -1:
            offer = 1
        elif offer < 1 or offer > 3:
            return False
    for x in range(n):
        seen[q[x]] += 1
    melds.append(kind)
    melds.append(t)
    melds.append(offer)
    return True


def _quick(s, size):
    b = s.encode()
    end = len(b)
    if end > 80:
        return None
    melds = bytearray()
    counts = bytearray(34)
    seen = bytearray(34)
    flowers = 0
    nconc = 0
    i = 0
    while i < end:
        k = _CH[b[i]] if b[i] < 128 else 0
        if k == 43:
            i += 1
        elif k == 40:
            j = b.find(b"]", i)
            if nconc or j < 0 or len(melds) >= 12 or not _qmeld(b, i + 1, j, melds, seen):
                return None
            i = j + 1
        elif 30 <= k <= 37:
            bit = 1 << (k - 30)
            if flowers & bit:
                return None
            flowers |= bit
            i += 1
        else:
            r = _qtiles(b, i, end, counts, None)
            j = r % 100
            if j == i:
                return None
            nconc += r // 100
            i = j
    if nconc + len(melds) != size:
        return None
    for x in range(34):
        if seen[x] + counts[x] > 4:
            return None
    # the winning tile: the last tile of the string
    i = end - 1
    while b[i] == 32 or 30 <= _CH[b[i]] <= 37:
        i -= 1
    k = _CH[b[i]]
    if 20 <= k <= 26:
        win = 7 + k
    else:
        win = (k - 10) * 9 + _CH[b[i - 1]] - 1
    nf = 0
    while flowers:
        nf += flowers & 1
        flowers >>= 1
    return melds, counts, win, nf

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
    quick = _quick(s, size)
    if quick is not None:
        return quick
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
