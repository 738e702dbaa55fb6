# Tile codes shared by every module of the rules core.
#
# A tile is a small int 0..33 so that a hand fits in a bytearray(34) of counts:
#   0..8   1m..9m  characters (万)
#   9..17  1s..9s  bamboo (条)
#   18..26 1p..9p  dots (筒)
#   27..30 E S W N winds
#   31..33 C F P   dragons: red 中, green 發, white 白
# Flowers a..h are not tiles of the hand; they are only counted.
import sys

if sys.implementation.name == "micropython":
    from micropython import const
else:
    # CPython. Not `try: from micropython import const`: a desktop venv may hold a stand-in
    # `micropython` package (Adafruit Blinka's) that imports typing, ~10 ms of every CLI start.
    # The rest of the rules core takes const from here.
    def const(x):
        return x


NUM_TILES = const(34)
EAST = const(27)
RED = const(31)
GREEN = const(32)
WHITE = const(33)

SUITS = "msp"
HONOURS = "ESWNCFP"
FLOWERS = "abcdefgh"


def is_suited(t):
    return t < 27


def is_honour(t):
    return t >= 27


def is_terminal(t):
    return t < 27 and t % 9 in (0, 8)


def is_terminal_or_honour(t):
    return t >= 27 or t % 9 in (0, 8)


def suit(t):
    # 0 m, 1 s, 2 p, 3 honour
    return t // 9 if t < 27 else 3


def rank(t):
    # 1..9 for suited tiles, 0 for honours
    return t % 9 + 1 if t < 27 else 0


def name(t):
    if t >= 27:
        return HONOURS[t - 27]
    return str(t % 9 + 1) + SUITS[t // 9]


def parse_tile(s):
    # '5p' -> 22, 'E' -> 27; None when it is no tile
    if len(s) == 1:
        i = HONOURS.find(s)
        return 27 + i if i >= 0 else None
    if len(s) == 2 and "1" <= s[0] <= "9":
        j = SUITS.find(s[1])
        if j >= 0:
            return j * 9 + ord(s[0]) - 49
    return None


def nth(s, i):
    """The i-th field of a "|"-separated string: name tables stay one string, not 82 objects.
    Each call walks the string (MicroPython finds a str index by walking its UTF-8): for a
    table looked up often, use fields()/field()."""
    start = 0
    for _ in range(i):
        start = s.find("|", start) + 1
    end = s.find("|", start)
    return s[start:] if end < 0 else s[start:end]


def fields(b):
    """Byte offsets of the "|"-separated fields of the bytes b, for field(): the table is
    walked once, here, instead of at every lookup. Two bytes an offset (tables up to 64K)."""
    n = b.count(b"|") + 1
    at = bytearray(2 * n + 2)
    i = 0
    for k in range(1, n + 1):
        j = b.find(b"|", i)
        if j < 0:
            j = len(b)
        i = j + 1
        at[2 * k] = i & 255
        at[2 * k + 1] = i >> 8
    return at


def field_bytes(b, at, i):
    """The i-th field of b (bytes, offsets from fields(b))."""
    s = at[2 * i] | at[2 * i + 1] << 8
    return b[s:(at[2 * i + 2] | at[2 * i + 3] << 8) - 1]


def field(b, at, i):
    """The i-th field of b, as a str."""
    return str(field_bytes(b, at, i), "utf-8")
