# A key matrix without diodes, electrically: row pins driven by the scanner (0 = low, 1 = released
# / high-impedance), column pins read with pull-ups. A column reads low when it is connected to a
# low row through any chain of pressed keys, which is how ghost keys appear: with keys (0,0),
# (0,1), (1,0) down and row 1 low, column 1 is pulled low through (1,0)-(0,0)-(0,1).
#
# Pin reads allocate nothing (bitmasks only), so scans can be measured for allocation.
from emulators.fakepins import FakePin


class _Col:
    def __init__(self, m, c):
        self._m = m
        self._c = c

    def value(self, v=None):
        if v is not None:
            raise AssertionError("keypad: a column is an input")
        return 0 if self._m.low_cols() >> self._c & 1 else 1

    def __call__(self, v=None):
        return self.value(v)


class KeyMatrix:
    def __init__(self, nrows, ncols):
        self.nrows = nrows
        self.ncols = ncols
        self.keys = bytearray(nrows)  # bit c of row r: switch (r, c) closed
        self.rows = [FakePin(1, None, "row%d" % r) for r in range(nrows)]
        self.cols = [_Col(self, c) for c in range(ncols)]
        self.reads = 0

    def press(self, r, c):
        self.keys[r] |= 1 << c

    def release(self, r, c):
        self.keys[r] &= 0xFF ^ (1 << c)

    def set(self, r, c, down):
        if down:
            self.press(r, c)
        else:
            self.release(r, c)

    def release_all(self):
        for r in range(self.nrows):
            self.keys[r] = 0

    def low_cols(self):
        self.reads += 1
        low_rows = 0
        for r in range(self.nrows):
            if not self.rows[r]._v:
                low_rows |= 1 << r
        cols = 0
        while True:  # grow the connected set: rows -> their columns -> rows on those columns
            new_cols = cols
            for r in range(self.nrows):
                if low_rows >> r & 1:
                    new_cols |= self.keys[r]
            new_rows = low_rows
            for r in range(self.nrows):
                if self.keys[r] & new_cols:
                    new_rows |= 1 << r
            if new_cols == cols and new_rows == low_rows:
                return cols
            cols = new_cols
            low_rows = new_rows
