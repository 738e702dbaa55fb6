# The box online (issue 20): loaded only on a board whose config has a NETWORK (firmware/main.py
# imports this package lazily, so a board without one never has this code in its heap).
#
#   push.py        Pusher: committed records to the server, a bounded step per loop, the
#                  server's ack checked with the device key (protocol/push.py, protocol/sign.py)
#   fetch.py       Fetcher: the next session config and the hall's time from the server, taken
#                  only with the MACs of the USB link's CONFIG and CLOCK (protocol/fetch.py)
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

    def __init__(self, pusher, radio, settings, fetcher=None):
        self.pusher = pusher
        self.fetcher = fetcher
        self.radio = radio
        self.settings = settings
        self.steps = 0
        self.errors = 0
        self.showing = False  # the status screen is up (firmware/net/screen.py)

    def step(self, now):
        """One bounded move of the push or the fetch (one request at a time: the records first,
        the fetch when the push has nothing to do, and a fetch under way goes on to its end)."""
        self.steps += 1
        p = self.pusher
        if p is None:
            return False
        f = self.fetcher
        part = f if f is not None and f.busy() else p
        try:
            if part is p and p.step(now):
                return True
            part = f
            return f is not None and f.step(now)
        except Exception as e:  # never into the device loop: counted, and that part starts over
            self.errors += 1
            part.reset(now, "%s: %s" % (type(e).__name__, e))
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
        f = self.fetcher
        problem = p.problem if p.problem is not None or f is None else f.problem
        return (self.radio.state, problem, p.last_push, p.unsynced())


def radio_for(netcfg, s, network=None):
    """The radio a board config's NETWORK names: "cyw43" (the Pico W) and "wlan" (an ESP32-S3)
    are network.WLAN stations, "host" the machine's own network (the simulator, the unix port).
    network: a stand-in for MicroPython's module (the tests)."""
    driver = netcfg.get("driver")
    if driver in ("cyw43", "wlan"):
        from firmware.net.radio import Wlan
        return Wlan(s["ssid"], s["password"], network)
    if driver == "host":
        from firmware.net.radio import HostRadio
        return HostRadio()
    raise ValueError("network driver " + str(driver))


def start(dev, netcfg, root):
    """The Net of a booted Device: settings from flash (netcfg["server"], the simulator's and
    the tests' stand-in, wins), the radio the config names, the pusher and the fetcher.
    netcfg["sockets"]: a socket module stand-in (the tests); netcfg["backoff_max"]: ms (60 s;
    shorter in tests); netcfg["fetch_ms"]: the fetch's interval (firmware/net/fetch.py's by
    default)."""
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
    radio = radio_for(netcfg, s)
    from firmware.net.http import Resolver
    from firmware.net.push import Pusher
    resolver = Resolver(sockets)
    backoff_max = netcfg.get("backoff_max", 60000)
    pusher = Pusher(dev.app, dev.link, s["server"], radio, sockets, resolver, backoff_max)
    fetcher = None
    if netcfg.get("fetch", True):  # netcfg["fetch"]: False, the push alone (tests)
        from firmware.net.fetch import Fetcher
        from firmware.net.http import split_url
        fetcher = Fetcher(dev, split_url(s["server"]), radio, sockets, resolver, netcfg.get("fetch_ms"), backoff_max)
    return Net(pusher, radio, s, fetcher)
