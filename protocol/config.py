# Session config: what a box needs to start a session at a table. One check for everyone who
# handles one: the box (keyed in, or pushed over the link), the sync tool before it sends one,
# and the server before it offers one. So the box refuses exactly what the server would refuse,
# and a session record the server cannot store is never written (it would block every later
# sync of the box). Pure Python: MicroPython and CPython.
#
#   from protocol import config
#   err = config.check(cfg)        # None, or (field, message): message in English, names the field
#   cfg = config.with_defaults(cfg)   # a new dict with hands / minutes / lang filled in
#
#   {"tournament": "T2025", "session": 3, "table": 12, "rules": "mcr",
#    "players": ["101", "102", "103", "104"], "first_dealer": 0,
#    "hands": 16, "minutes": 120, "lang": "cn", "pin_mac": "<32 hex digits>",
#    "names": ["Li Ming", "Zoë", "王芳", null],
#    "name_bitmaps": [null, "<base64>", "<base64>", null]}
#
# lang and the referee PIN are the tournament's (issue 18.6: the organizer sets them on the
# server, which sends them with every config); the box keeps them for later sessions and after a
# power cut (firmware/box_settings.py). The PIN travels as pin_mac (protocol/sign.py
# pin_mac_hex: keyed with the box's key), never in clear: a config is fetched without a login.
# A box that never got one has FACTORY_PIN. PRIVATE fields are left out of the session's record.
#
# name_bitmaps (issue 18.6): a name the box's fonts cannot draw (its glyph tables hold ASCII and
# the few hundred Chinese characters of its own screens) comes drawn by the server, by chair, as
# one 1-bit bitmap per name (host_tools/server/boxes/name_bitmaps.py renders it with the box's
# own typeface, WenQuanYi Bitmap Song 12 px; firmware/ui/name_bitmaps.py draws it where the name
# goes). A bitmap is the base64 of 3 header bytes, width (1..NAME_PX_MAX px), height
# (NAME_ROWS), baseline (rows above it: 1..height), then height rows of (width + 7) // 8 bytes,
# MONO_HLSB (the leftmost pixel is the high bit, as framebuf and the box's glyphs): at most 3 +
# 12 * 12 = 147 bytes a name at 12 rows (196 characters of base64), 588 bytes for four. A
# bitmap whose length is not what its header says is refused (the config is signed, the box
# still checks sizes before it keeps one). null: a name the box draws itself, or no name.
#
# FIELDS is the whole schema: a new field (issue 14's survival mode, for one) is a row there.
# Keys the schema does not know are refused, so a config from a newer server fails loudly on an
# older box instead of starting a session that ignores part of it.

RULES = ("mcr", "sichuan", "guangdong")
LANGS = ("cn", "en")
FACTORY_PIN = "2580"         # the referee PIN of a box that never had a config with one (README)
PIN_DIGITS = (4, 8)          # a referee PIN: 4 to 8 digits (the server checks the organizer's)
PIN_MAC_LEN = 32             # hex digits of a config's pin_mac
PRIVATE = ("pin_mac",)       # config fields a session's record leaves out (the box keeps them)
SEATS = 4
NUMBER_MAX = 10000           # session and table numbers: 1 .. NUMBER_MAX
ID_MAX = 64                  # tournament id
PLAYER_MAX = 16              # player id: what a 128 px screen line can still show beside a score
NAME_MAX = 24                # a player's name as the box shows it (the server cuts longer ones)
NAME_PX_MAX = 96             # a name bitmap's width cap: 8 CJK characters at 12 px (the server cuts)
NAME_ROWS = (8, 16)          # a name bitmap's height: the box's font cells are 12 or 16 rows
# A three-player table: one chair of players is null (the empty one). Seed 000 §一.3 若有三人，
# 正常比赛，打15盘（5圈）; seed 004 §三.1 此时若有三人，则继续比赛 (its 12 hands). Sichuan: seed
# 003 has no three-player play (a late player forfeits the game), so it is refused there, and in
# survival (every table seats four). A session's default hands and minutes are the rules core's
# (rules_min/tournament.py, which the server's formats read too): with_defaults() fills them in.
THREE_RULES = ("mcr", "guangdong")
MODES = ("session", "survival")
TIME_MAX = 1 << 40           # epoch seconds
SCORE_MAX = 1000000

# name, required, kind, low, high. Kinds: "id" (a string of low..high printable characters),
# "hex" (a string of low..high hex digits 0-9 a-f), "totals" (one int low..high per player),
# "names" (a name of low..high printable
# characters or null per chair, null at the empty chair), "bitmaps" (a name bitmap of low..high px
# wide or null per chair, null at the empty chair), "int" (low..high, not a bool), "choice" (one of the tuple in low), "players" (ids, one may be
# null), "seat" (0 .. the number of players - 1, not the empty chair), "bool", "scores" (one int
# low..high per player).
# Survival (issue 14, seed 000 §三.2, docs/survival.md): mode "survival" needs scores (what each
# player carries in, by chair) and event_start (epoch seconds: the multipliers count from it);
# final marks the last table. ends_at (every mode): when the head referee calls time for the
# hall (epoch seconds), so a table that started late does not play longer. Added by the tourney
# stream for the server; the box implements them (a box that does not must refuse mode).
FIELDS = (
    ("tournament", True, "id", 1, ID_MAX),
    ("session", True, "int", 1, NUMBER_MAX),
    ("table", True, "int", 1, NUMBER_MAX),
    ("rules", True, "choice", RULES, None),
    ("players", True, "players", 1, PLAYER_MAX),
    ("first_dealer", True, "seat", None, None),
    ("hands", False, "int", 1, 400),
    ("minutes", False, "int", 1, 600),
    ("lang", False, "choice", LANGS, None),
    ("mode", False, "choice", MODES, None),
    ("scores", False, "scores", 1, SCORE_MAX),
    ("event_start", False, "int", 0, TIME_MAX),
    ("final", False, "bool", None, None),
    ("ends_at", False, "int", 0, TIME_MAX),
    ("pin_mac", False, "hex", PIN_MAC_LEN, PIN_MAC_LEN),
    ("names", False, "names", 1, NAME_MAX),
    ("name_bitmaps", False, "bitmaps", 1, NAME_PX_MAX),
    # a spare box taking over a table whose box died (issue 18.3): the hand it starts with, its
    # dealer (Sichuan, Guangdong: MCR's follows from the hand) and the match scores so far by
    # the config's players (0 at the empty chair)
    ("hand", False, "int", 1, 400),
    ("dealer", False, "seat", None, None),
    ("totals", False, "totals", -SCORE_MAX, SCORE_MAX),
)
SURVIVAL_ONLY = ("scores", "event_start", "final")


def is_int(v):
    return isinstance(v, int) and not isinstance(v, bool)


def id_problem(v, lo, hi):
    """None when v is an id of lo..hi printable characters, else what is wrong with it."""
    if not isinstance(v, str):
        return "must be a string"
    if len(v) < lo or len(v) > hi:
        return "must be %d to %d characters" % (lo, hi)
    for ch in v:
        o = ord(ch)
        if o < 32 or o == 127:
            return "holds a control character"
    if v.strip() != v:
        return "starts or ends with a space"
    return None


def _field(name, kind, lo, hi, v, cfg):
    if kind == "id":
        return id_problem(v, lo, hi)
    if kind == "int":
        if not is_int(v):
            return "must be a whole number"
        if v < lo or v > hi:
            return "must be %d to %d" % (lo, hi)
        return None
    if kind == "choice":
        if v not in lo:
            return "must be one of " + ", ".join(lo)
        return None
    if kind == "players":
        if not isinstance(v, list) or len(v) != SEATS:
            return "must be a list of %d player ids" % SEATS
        if v.count(None) > 1:
            return "may leave one chair empty (null), not more"
        for p in v:
            e = None if p is None else id_problem(p, lo, hi)
            if e:
                return "has an id that " + e
        for i in range(len(v)):
            if v[i] in v[i + 1:]:
                return "name %s twice: a player sits at two places" % v[i]
        return None
    if kind == "names":
        # the players' registered names by chair, for the screens (issue 18.6: the records keep
        # the ids); null for the empty chair, and for a player the box is to show by id
        players = cfg.get("players") or ()
        if not isinstance(v, list) or len(v) != SEATS:
            return "must be a list of %d names" % SEATS
        for i in range(SEATS):
            if v[i] is None:
                continue
            if i < len(players) and players[i] is None:
                return "names a player at the empty chair"
            e = id_problem(v[i], lo, hi)
            if e:
                return "has a name that " + e
        return None
    if kind == "bitmaps":
        players = cfg.get("players") or ()
        if not isinstance(v, list) or len(v) != SEATS:
            return "must be a list of %d name bitmaps" % SEATS
        for i in range(SEATS):
            if v[i] is None:
                continue
            if i < len(players) and players[i] is None:
                return "draws a name at the empty chair"
            e = bitmap_problem(v[i], hi)
            if e:
                return "has a bitmap that " + e
        return None
    if kind == "hex":
        if not isinstance(v, str) or not lo <= len(v) <= hi:
            return "must be %d hex digits" % lo
        for ch in v:
            if not ("0" <= ch <= "9" or "a" <= ch <= "f"):
                return "must be %d hex digits (0-9 a-f)" % lo
        return None
    if kind == "bool":
        return None if v is True or v is False else "must be true or false"
    if kind == "scores" or kind == "totals":
        # a survival score (a player at 0 or below is out and never seated again), or the session's
        # totals so far that a spare box takes over (issue 18.3)
        if not isinstance(v, list) or len(v) != SEATS:
            return "must be a list of %d scores" % SEATS
        for x in v:
            if not is_int(x) or x < lo or x > hi:
                return "must be whole numbers %d to %d" % (lo, hi)
        return None
    if kind == "seat":
        n = len(cfg.get("players") or ()) or SEATS
        if not is_int(v) or v < 0 or v >= n:
            return "must be a seat 0 to %d" % (n - 1)
        if (cfg.get("players") or [0])[v:v + 1] == [None]:
            return "must be a chair with a player"
        return None
    return "has no check"


def _b64(c):
    # a byte of the base64 alphabet (binascii on both ends skips what is not: checked here first)
    return 65 <= c <= 90 or 97 <= c <= 122 or 48 <= c <= 57 or c == 43 or c == 47


def bitmap(text):
    """(width, height, baseline, rows) of a name bitmap's base64 text (see name_bitmaps above),
    or None when it is not base64 of a header and exactly the rows it announces. rows: bytes,
    height rows of (width + 7) // 8 bytes."""
    if not isinstance(text, str) or len(text) % 4 or len(text) > 4 * ((3 + NAME_ROWS[1] * ((NAME_PX_MAX + 7) >> 3) + 2) // 3):
        return None
    b = text.encode()
    n = len(b)
    for i in range(n):
        # padding only at the end (at most two); every other byte from the alphabet
        if b[i] == 61:
            if i < n - 2 or (i == n - 2 and b[n - 1] != 61):
                return None
        elif not _b64(b[i]):
            return None
    from binascii import a2b_base64
    raw = a2b_base64(b)
    if len(raw) < 3:
        return None
    w, h, base = raw[0], raw[1], raw[2]
    if len(raw) != 3 + h * ((w + 7) >> 3) or w < 1 or not NAME_ROWS[0] <= h <= NAME_ROWS[1] or not 1 <= base <= h:
        return None
    return w, h, base, raw[3:]


def bitmap_problem(text, px_max=NAME_PX_MAX):
    """None when text is a name bitmap at most px_max wide, else what is wrong with it."""
    got = bitmap(text)
    if got is None:
        return ("is not the base64 of a header (width, height %d-%d, baseline) and its rows"
                % NAME_ROWS)
    if got[0] > px_max:
        return "is wider than %d px" % px_max
    return None


def check(cfg):
    """None when cfg can start a session; else (field, message), the message in English."""
    if not isinstance(cfg, dict):
        return ("config", "the config must be an object")
    known = []
    for name, required, kind, lo, hi in FIELDS:
        known.append(name)
        if name not in cfg:
            if required:
                return (name, "%s is missing" % name)
            continue
        e = _field(name, kind, lo, hi, cfg[name], cfg)
        if e:
            return (name, "%s %s" % (name, e))
    for k in cfg:
        if k not in known:
            return (str(k)[:24], "unknown field %s" % str(k)[:24])
    survival = cfg.get("mode") == "survival"
    if None in cfg["players"] and (survival or cfg["rules"] not in THREE_RULES):
        return ("players", "players: a three-player table is for mcr and guangdong sessions only")
    for k in SURVIVAL_ONLY:
        if k in cfg and not survival:
            return (k, "%s is for mode survival only" % k)
    if "hand" in cfg and cfg["hand"] > cfg.get("hands", 400):
        return ("hand", "hand is after the session's last")
    if survival and ("hand" in cfg or "totals" in cfg):
        return ("hand", "a survival table carries its scores in (scores), not a hand or totals")
    if survival:
        for k in ("scores", "event_start"):
            if k not in cfg:
                return (k, "%s is missing (mode survival)" % k)
    return None


def message(cfg):
    """check() as one line of text, or None."""
    e = check(cfg)
    return None if e is None else e[1]


def with_defaults(cfg):
    """A copy of a checked config with hands, minutes and lang filled in. A rule set without a
    time limit by default (Sichuan) gets no minutes: the session then has none."""
    from rules_min.tournament import SESSION_HANDS, SESSION_HANDS_THREE, SESSION_MINUTES
    out = {}
    for k in cfg:
        out[k] = cfg[k]
    r = cfg["rules"]
    if "hands" not in out:
        out["hands"] = SESSION_HANDS_THREE.get(r, SESSION_HANDS[r]) if None in cfg["players"] else SESSION_HANDS[r]
    if "minutes" not in out and SESSION_MINUTES[r] is not None:
        out["minutes"] = SESSION_MINUTES[r]
    if "lang" not in out:
        out["lang"] = LANGS[0]
    return out


def pin_problem(pin):
    """None when pin is a referee PIN (PIN_DIGITS digits), else what is wrong (the server's
    check of what an organizer sets)."""
    lo, hi = PIN_DIGITS
    if not isinstance(pin, str) or not lo <= len(pin) <= hi:
        return "a referee PIN is %d to %d digits" % (lo, hi)
    for ch in pin:
        if ch < "0" or ch > "9":
            return "a referee PIN is %d to %d digits" % (lo, hi)
    return None
