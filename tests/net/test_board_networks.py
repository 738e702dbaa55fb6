"""Issue 20's reference hardware with a radio: the Pico W and the ESP32-S3 say so in their board
configs, and their NETWORK names a radio firmware/net starts (a network.WLAN station joined with
the settings from the USB link); the boards without one have no NETWORK (one code path)."""
import pytest

from firmware import board
from firmware.net import radio_for

SETTINGS = {"ssid": "hall", "password": "secret", "server": "http://10.0.0.2:8000"}


class FakeNetwork:
    """MicroPython's network module as a station uses it (docs: network.WLAN)."""
    STA_IF = 0

    def __init__(self):
        self.calls = []

    def WLAN(self, iface):
        net = self

        class W:
            def active(self, on):
                net.calls.append(("active", iface, on))

            def connect(self, ssid, password):
                net.calls.append(("connect", ssid, password))

            def isconnected(self):
                return False
        return W()


@pytest.mark.parametrize("name", ["pico_w", "esp32s3"])
def test_a_board_with_a_radio_joins_the_hall_network(name):
    cfg = board.load(name)
    net = FakeNetwork()
    r = radio_for(cfg.NETWORK, SETTINGS, net)
    assert net.calls == [("active", 0, True), ("connect", "hall", "secret")]
    assert r.state == "joining"


@pytest.mark.parametrize("name", ["pico", "circuitpython_feather", "sim"])
def test_a_board_without_a_radio_has_no_network(name):
    assert getattr(board.load(name), "NETWORK", None) is None


def test_a_network_driver_nobody_knows_is_refused():
    with pytest.raises(ValueError, match="network driver"):
        radio_for({"driver": "lora"}, SETTINGS, FakeNetwork())
