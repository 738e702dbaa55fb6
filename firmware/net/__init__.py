# The box online (issue 20): loaded only on a board whose config has a NETWORK (firmware/main.py
# imports this package lazily, so a board without one never has this code in its heap).
#
#   push.py        Pusher: committed records to the server, a bounded step per loop, the
#                  server's ack checked with the device key (protocol/push.py, protocol/sign.py)
#   http.py        one HTTP POST over a non-blocking socket (why not micropython-lib's requests:
#                  its header)
#   radio.py       the interface under it: the host's network, or network.WLAN on a board
#   settings.py    Wi-Fi name, password, server address on flash (set over the USB link)
#   link_request.py  the USB link's request that sets them (authenticated)
#   screen.py      the status screen (key 9), the main screen's synced mark, the referee call (key 0)
#
# start(dev, netcfg, root) -> Net, which the device loop steps (Device.net.step(now)).


class Net:
    """The box's network side: status for the screens, step() for the loop."""

    def __init__(self, pusher, radio, settings):
        self.pusher = pusher
        self.radio = radio
        self.settings = settings
        self.steps = 0
        self.errors = 0
        self.showing = False  # the status screen is up (firmware/net/screen.py)

    def step(self, now):
        self.steps += 1
        if self.pusher is None:
            return False
        try:
            return self.pusher.step(now)
        except Exception as e:  # never into the device loop: counted, and the push starts over
            self.errors += 1
            self.pusher.reset(now, "%s: %s" % (type(e).__name__, e))
            return False

    def key(self, app, k):
        from firmware.net import screen
        return screen.key(self, app, k)

    def screen(self, app, now):
        from firmware.net import screen
        return screen.screen(self, app, now)

    def status(self):
        """(connection, problem or None, last push ms or None, records not yet synced)."""
        p = self.pusher
        if p is None:
            return ("not set up", None, None, None)
        return (self.radio.state, p.problem, p.last_push, p.unsynced())


def start(dev, netcfg, root):
    """The Net of a booted Device: settings from flash (netcfg["server"], the simulator's and
    the tests' stand-in, wins), the radio the config names, the pusher. netcfg["sockets"]: a
    socket module stand-in (the tests); netcfg["backoff_max"]: ms (60 s; shorter in tests)."""
    from firmware.net import settings as S
    from firmware.net.link_request import attach
    s = S.load(root)
    if netcfg.get("server"):
        s = {"ssid": "", "password": "", "server": netcfg["server"]}
    if dev.link is not None:
        attach(dev.link, root)
    if s is None or dev.link is None:  # nothing to push to, or no key to sign with
        return Net(None, None, s)
    sockets = netcfg.get("sockets")
    if sockets is None:
        import socket as sockets
    driver = netcfg.get("driver")
    if driver in ("cyw43", "wlan"):
        from firmware.net.radio import Wlan
        radio = Wlan(s["ssid"], s["password"])
    else:  # "host": the machine's own network
        from firmware.net.radio import HostRadio
        radio = HostRadio()
    from firmware.net.http import Resolver
    from firmware.net.push import Pusher
    pusher = Pusher(dev.app, dev.link, s["server"], radio, sockets, Resolver(sockets), netcfg.get("backoff_max", 60000))
    return Net(pusher, radio, s)
