# The network interface under the push: up, down, or absent; a step at a time, never a wait.
#
#   HostRadio   the host's own network (the CPython simulator, the MicroPython unix port): up
#   Wlan        network.WLAN station (the Pico W's CYW43439, an ESP32-S3): connect() starts the
#               join, step() reads isconnected(); rejoins after a drop, every REJOIN_MS
#
# Wlan.active(True) runs once, at boot (Net.start): the CYW43 driver powers the chip up and
# loads its firmware there (~0.3-1 s, blocking; with the radio absent it gives up in that time,
# tests/pico/test_pico_w.py), which must not fall on a key press. A radio that failed to come up
# is "no radio" until the next boot.

REJOIN_MS = 15000


class HostRadio:
    state = "up"

    def step(self, now):
        return True


class Wlan:
    def __init__(self, ssid, password, network=None):
        self.state = "no radio"
        self.ssid = ssid
        self.password = password
        self._next = 0
        try:
            if network is None:
                import network
            self._w = network.WLAN(network.STA_IF)
            self._w.active(True)
            self._join(0)
        except Exception:  # no radio, no driver: nothing to join, the push waits
            self._w = None

    def _join(self, now):
        self._next = now + REJOIN_MS
        try:
            self._w.connect(self.ssid, self.password)
            self.state = "joining"
        except OSError:  # the driver could not start the chip (radio absent)
            self.state = "no radio"

    def step(self, now):
        w = self._w
        if w is None:
            return False
        if w.isconnected():
            self.state = "up"
            return True
        if self.state == "up":
            self.state = "joining"  # dropped: the driver rejoins by itself; ask again later
            self._next = now + REJOIN_MS
        elif now - self._next >= 0:
            self._join(now)
        return False
