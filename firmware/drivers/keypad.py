# Key matrix scanner: rows are outputs, columns inputs with pull-ups; scan() pulls one row low at
# a time and a pressed key pulls its column low.
#
#   kp = Keypad(rows, cols, "123A456B789C*0#D", debounce=3)  # pins: machine.Pin or callables
#   kp.scan()                      # from a timer or the main loop, every 5..10 ms
#   ev = kp.get()                  # -1 when empty; else key index | DOWN, or GHOST
#   if ev >= 0 and ev != GHOST: kp.name(ev), is_down(ev)
#
# Rows should be open-drain (or the matrix diode-free keys may short a low row to a high one);
# columns inputs with pull-ups. Row pins are called with 0 / 1, column pins with no argument.
#
# Debounce: a key changes state only after reading the same new level in `debounce` consecutive
# scans. With eager=True a press counts at the first scan that reads the key closed (a membrane
# contact does not close by itself; the latency a player feels is the scan period, not
# `debounce` of them) while a release still needs `debounce` open scans, which must outlast the
# contact's bounce (<= 5 ms on flat membrane keypads): scans every 5 ms and debounce 3 do.
# Ghosting: without diodes, three keys at three corners of a rectangle connect the fourth
# corner too, so a scan with two rows sharing two pressed columns cannot tell which keys are
# really down: such a scan is ignored (pending changes restart), and one GHOST event marks the
# start of the ambiguity.
#
# Settling: a column a pressed key pulled low comes back up through the RP2040's pull-up (up to
# 80 kOhm) and the line's capacitance (tens of pF): a few microseconds during which it still
# reads low, so the key would show on the next row too. settle_us waits that long after driving
# each row, before reading the columns (sleep_us: the port's, or one a test hands in).
#
# Events go to a ring buffer made once; a full buffer drops new events and counts them in
# .overflows. scan() allocates nothing.
from firmware.compat import const

DOWN = const(0x80)
GHOST = const(0x7F)
_MAX_KEYS = const(127)


def is_down(ev):
    return ev & DOWN != 0


def key_index(ev):
    return ev & 0x7F


def _setter(pin):
    return pin.value if hasattr(pin, "value") else pin


try:
    from time import sleep_us as _sleep_us
except ImportError:  # CPython
    def _sleep_us(us):
        pass


class Keypad:
    def __init__(self, rows, cols, keymap, debounce=3, events=16, eager=False, settle_us=0, sleep_us=None):
        nr = len(rows)
        nc = len(cols)
        if nc > 8 or nr * nc > _MAX_KEYS:
            raise ValueError("keypad: at most 8 columns and 127 keys")
        if isinstance(keymap, str):
            keymap = keymap.encode()
        if len(keymap) != nr * nc:
            raise ValueError("keypad: keymap needs %d names, has %d" % (nr * nc, len(keymap)))
        if debounce < 1 or debounce > 255:
            raise ValueError("keypad: debounce must be 1..255 scans")
        self.keymap = bytes(keymap)  # row-major: keymap[row * ncols + col]
        self._nr = nr
        self._nc = nc
        self._n = debounce
        self._eager = eager
        self._settle = settle_us
        self._sleep = sleep_us or _sleep_us
        self._raw = bytearray(nr)  # this scan: bit c of row r = key pressed
        self._stable = bytearray(nr)  # debounced state
        self._count = bytearray(nr * nc)  # consecutive scans a key has read its new level
        self._ring = bytearray(events)
        self._head = 0
        self._len = 0
        self._ghosting = False
        self.ghost_scans = 0
        self.overflows = 0
        self._pins(rows, cols)

    def _pins(self, rows, cols):
        self._rows = tuple(_setter(p) for p in rows)
        self._cols = tuple(_setter(p) for p in cols)
        for r in self._rows:
            r(1)

    def _push(self, ev):
        if self._len == len(self._ring):
            self.overflows += 1
            return
        ring = self._ring
        ring[(self._head + self._len) % len(ring)] = ev
        self._len += 1

    def get(self):
        if not self._len:
            return -1
        ev = self._ring[self._head]
        self._head = (self._head + 1) % len(self._ring)
        self._len -= 1
        return ev

    def pending(self):
        return self._len

    def name(self, ev):
        # the key's one-character name from the keymap (allocates a str)
        return chr(self.keymap[ev & 0x7F])

    def code(self, ev):
        # the keymap byte of an event, for comparisons that allocate nothing
        return self.keymap[ev & 0x7F]

    def is_pressed(self, row, col):
        return self._stable[row] >> col & 1

    def _ghosted(self):
        raw = self._raw
        nr = self._nr
        for a in range(nr - 1):
            ra = raw[a]
            if ra & (ra - 1):  # two or more keys in this row
                for b in range(a + 1, nr):
                    x = ra & raw[b]
                    if x & (x - 1):
                        return True
        return False

    def scan(self):
        """One pass over the matrix; returns the number of events waiting."""
        self._read()
        return self._update()

    def _read(self):
        rows = self._rows
        cols = self._cols
        raw = self._raw
        nc = self._nc
        settle = self._settle
        for r in range(self._nr):
            rows[r](0)
            if settle:
                self._sleep(settle)
            m = 0
            for c in range(nc):
                if not cols[c]():
                    m |= 1 << c
            rows[r](1)
            raw[r] = m

    def _update(self):
        """The debounce and ghost rules applied to one scan's reading (self._raw)."""
        raw = self._raw
        nc = self._nc
        count = self._count
        if self._ghosted():
            self.ghost_scans += 1
            if not self._ghosting:
                self._ghosting = True
                self._push(GHOST)
            for i in range(len(count)):
                count[i] = 0
            return self._len
        self._ghosting = False
        st = self._stable
        n = self._n
        eager = self._eager
        for r in range(self._nr):
            diff = raw[r] ^ st[r]
            base = r * nc
            for c in range(nc):
                i = base + c
                if diff >> c & 1:
                    if eager and raw[r] >> c & 1:  # a press: at once
                        count[i] = 0
                        st[r] ^= 1 << c
                        self._push(i | DOWN)
                        continue
                    k = count[i] + 1
                    if k >= n:
                        count[i] = 0
                        st[r] ^= 1 << c
                        self._push(i | DOWN if raw[r] >> c & 1 else i)
                    else:
                        count[i] = k
                elif count[i]:
                    count[i] = 0  # bounced back before it settled
        return self._len
