# The quick reading of a well-formed hand, for the scoring requests (rules_min/request.py):
# parse() here gives what notation.parse() gives, faster on MicroPython. The box reads a hand
# once per win and imports notation alone, so this code takes none of its heap.
from rules_min import notation
from rules_min.notation import CHOW, PUNG, KONG, SUITS, HONOURS, FLOWERS

# On MicroPython every s[i] of a str makes a new one-character str, looked up among all interned
# strings (on the Pico with .mpy files: most of parse's time). _quick reads the hand's bytes
# instead, as ints, and accepts only what notation.parse() accepts, giving the same result; on
# anything else (every error, any byte it does not know) it returns None and notation.parse()
# reads the hand itself, with its error messages. _CH: byte -> 1-9 digit, 10-12 suit m s p,
# 20-26 honour E S W N C F P, 30-37 flower a-h, 40 "[", 42 ",", 43 " "; 0 for the rest.
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
    # notation._tiles() on bytes: into counts (counts is not None) or out (up to 4 tiles,
    # returns -1 for more); returns (index where it stopped) + 100 * tiles read. Stops at a
    # digit run with no suit after it, a byte that is no tile, or end.
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
    # notation._meld() on bytes; False where it would raise
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


def parse(s, size=14):
    """notation.parse(s, size): the quick reading when it takes s, else notation's own."""
    if isinstance(s, str):
        quick = _quick(s, size)
        if quick is not None:
            return quick
    return notation.parse(s, size)
