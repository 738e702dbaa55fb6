# A stand-in for MicroPython's `machine` module, wired to the register-level emulators of
# tests/emulators as a board config says: firmware/board/ builds the real drivers on it.
# Runs on CPython and on the MicroPython unix port (no f-strings, no dataclasses).
from emulators.fakepins import FakePin
from emulators.keypad_emu import KeyMatrix


class _PinFactory:
    OUT = 1
    IN = 0
    OPEN_DRAIN = 2
    PULL_UP = 1

    def __init__(self, m):
        self.m = m

    def __call__(self, n, mode=None, pull=None, value=None):
        self.m.pin_calls.append((n, mode, pull, value))
        p = self.m.pins.get(n)
        if p is None:
            p = self.m.pins[n] = FakePin(1, None, "gp%s" % (n,))
        if value is not None:
            p.value(value)
        return p


class FakeMachine:
    def __init__(self, cfg, rfid=None, oled=None, lcd=None, nfc=None):
        self.cfg = cfg
        self.pins = {}
        self.pin_calls = []
        self.i2c_calls = []
        self.spi_calls = []
        self.sm_calls = []
        self.Pin = _PinFactory(self)
        self.keys = KeyMatrix(len(cfg.KEYPAD["rows"]), len(cfg.KEYPAD["cols"]))
        for i in range(len(cfg.KEYPAD["rows"])):
            self.pins[cfg.KEYPAD["rows"][i]] = self.keys.rows[i]
        for i in range(len(cfg.KEYPAD["cols"])):
            self.pins[cfg.KEYPAD["cols"][i]] = self.keys.cols[i]
        self.rfid = rfid
        self.oled = oled
        self.lcd = lcd
        self.nfc = nfc
        r = cfg.READER
        if rfid is not None:
            self.pins[r["cs"]] = rfid.cs
            self.pins[r["rst"]] = rfid.rst
        if nfc is not None and r.get("irq") is not None:
            self.pins[r["irq"]] = nfc.irq
        d = cfg.DISPLAY
        if lcd is not None:
            self.pins[d["cs"]] = lcd.cs
            self.pins[d["dc"]] = lcd.dc
            self.pins[d["rst"]] = lcd.rst

    def _pin_no(self, p):
        for n in self.pins:
            if self.pins[n] is p:
                return n
        return None

    def I2C(self, bus_id, sda=None, scl=None, freq=None):
        self.i2c_calls.append((bus_id, self._pin_no(sda), self._pin_no(scl), freq))
        if self.cfg.DISPLAY.get("bus") == "i2c" and self.cfg.DISPLAY.get("i2c_id") == bus_id and self.oled is not None:
            return self.oled
        return self.nfc.i2c()

    def SPI(self, bus_id, baudrate=None, polarity=0, phase=0, sck=None, mosi=None, miso=None):
        self.spi_calls.append((bus_id, baudrate, polarity, phase, self._pin_no(sck), self._pin_no(mosi),
                               self._pin_no(miso)))
        if self.cfg.READER.get("bus") == "spi" and self.cfg.READER.get("spi_id") == bus_id:
            return self.rfid
        return self.lcd

    def unique_id(self):
        return b"\xe6\x61\x41\x04\x03\x2a\x5b\x2c"

    def press(self, key):
        i = self.cfg.KEYPAD["keymap"].index(key)
        self.keys.press(i // 4, i % 4)

    def release_all(self):
        self.keys.release_all()

    def rp2(self):
        """A stand-in for the port's _rp2 module: its StateMachine behaves as the keypad scanner's
        program (firmware/drivers/keypad_pio.py) on this matrix."""
        fm = self

        class StateMachine:
            def __init__(self, sm_id, program, freq=None, set_base=None, in_base=None):
                fm.sm_calls.append((sm_id, freq, fm._pin_no(set_base), fm._pin_no(in_base)))
                k = fm.cfg.KEYPAD
                self.rows = [fm.pins[n] for n in k["rows"]]
                self.cols = [fm.pins[n] for n in k["cols"]]
                self.last = 0
                self.count = 0  # the program's scan count (OSR), counted down
                self.fifo = []
                self.on = 0

            def active(self, v=None):
                if v is not None:
                    self.on = v
                return self.on

            def rx_fifo(self):
                # one pass of the program: each row driven low in turn, its columns shifted in;
                # a change is pushed over the count's low 14 bits, and the wait after a push
                # counts 3 scans more
                self.count = (self.count - 1) & 0xFFFFFFFF
                w = 0
                for r in self.rows:
                    r.value(0)
                    n = 0
                    for c in range(len(self.cols)):
                        n |= (1 if self.cols[c].value() else 0) << c
                    w = w << 4 | n
                    r.value(1)
                if w != self.last and len(self.fifo) < 8:
                    self.fifo.append(w << 14 | self.count & 0x3FFF)
                    self.last = w
                    self.count = (self.count - 3) & 0xFFFFFFFF
                return len(self.fifo)

            def get(self):
                return self.fifo.pop(0)

        m = type("rp2", (), {})()
        m.StateMachine = StateMachine
        return m
