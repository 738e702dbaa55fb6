# A GPIO pin as drivers see machine.Pin: pin.value(), pin.value(v), and pin(v) / pin().
# on_change(v) lets an emulator react to edges (chip select, reset, data/command).


class FakePin:
    def __init__(self, value=1, on_change=None, name="pin"):
        self._v = value
        self._cb = on_change
        self.name = name

    def value(self, v=None):
        if v is None:
            return self._v
        v = 1 if v else 0
        if v != self._v:
            self._v = v
            if self._cb is not None:
                self._cb(v)
        return None

    def __call__(self, v=None):
        return self.value(v)

    def on(self):
        self.value(1)

    def off(self):
        self.value(0)


class Clock:
    """Virtual time shared by an emulator and the driver's sleep function, in nanoseconds."""

    def __init__(self):
        self.ns = 0
        self.slept_ns = 0

    def sleep_us(self, us):
        self.ns += us * 1000
        self.slept_ns += us * 1000

    def sleep_ms(self, ms):
        self.sleep_us(ms * 1000)
