# The box asks the tournament server for its next session config and the hall's time
# (protocol/fetch.py is the wire format), from the device loop a bounded step at a time, as the
# push does (firmware/net/push.py; Net.step gives the push the first turn).
#
# Both answers count only when their MACs check with the device key over this fetch's own nonce:
# the MACs of the USB link's CONFIG and CLOCK requests, so the box takes from the network exactly
# what it would take from the sync tool, and nothing from an access point or a server without
# the key ("server lacks key" on the status screen, nothing changed).
#
# When a config is taken (App.push_config, as the link's CONFIG):
#   - between sessions (idle, or a session ended): a session other than the one the box last
#     played starts; the same one (the server has not published the next) is left alone;
#   - a session running: a config of that same session whose time (minutes, ends_at) or PIN
#     changed, a referee's extension; a config of another session waits until this one ends;
#   - anything else (a flow under way, the tags mode): at the next fetch.
# The time is taken when it differs from the box's by CLOCK_SLACK_S or more, and only from an
# answer that came back within CLOCK_RTT_MS (protocol/fetch.py).
#
# Fetches every IDLE_MS between sessions, every RUNNING_MS during one; after a failure, backoff
# from 1 s doubling to the push's maximum.
import json

from binascii import hexlify, unhexlify

from firmware.compat import ticks_diff, ticks_ms
from firmware.net.http import Post
from protocol import fetch as pfetch
from protocol.sign import equal

IDLE_MS = 15000
RUNNING_MS = 60000
BACKOFF_MIN = 1000
CLOCK_SLACK_S = 2
BETWEEN = ("idle", "ended", "sv_end")  # the app's states between sessions (firmware/app.py home)
_SAME = ("tournament", "session", "table", "rules", "players", "first_dealer", "mode")  # scorebook.retime's
_PLAYED = ("tournament", "session", "table")


class Fetcher:
    def __init__(self, dev, where, radio, sockets, resolver, every_ms=None, backoff_max=60000):
        """where: (host, port, path prefix) of the server (firmware/net/http.py split_url)."""
        self.dev = dev
        self.host, self.port, prefix = where
        self.path = prefix + pfetch.path(dev.app.device_id)
        self.radio = radio
        self.sockets = sockets
        self.resolver = resolver
        self.every = every_ms  # tests: one interval for both
        self.problem = None
        self.tries = 0  # fetches asked for
        self.fetches = 0  # answers whose MACs checked
        self.configs = 0  # configs taken
        self.clocks = 0  # times taken
        self.last = None  # clock ms of the last checked answer
        self.why = None  # the server's reason for no config
        self._req = None
        self._nonce = None
        self._t0 = 0
        self._next = 0
        self._backoff = BACKOFF_MIN
        self._backoff_max = backoff_max

    def busy(self):
        return self._req is not None

    def step(self, now):
        """One bounded move; True when it did something."""
        req = self._req
        if req is not None:
            if req.step():
                self._req = None
                self._answer(req, now)
            return True
        link = self.dev.link
        if now - self._next < 0 or link is None or link._hm is None or not self.radio.step(now):
            return False
        from firmware.link.requests import _urandom
        self._nonce = _urandom(pfetch.NONCE_LEN)
        body = json.dumps({"nonce": hexlify(self._nonce).decode()}).encode()
        self._t0 = ticks_ms()
        self.tries += 1
        self._req = Post(self.sockets, self.resolver, self.host, self.port, self.path, body)
        return True

    def reset(self, now, why):
        req = self._req
        self._req = None
        if req is not None:
            req.close()
        self._fail(now, why)

    def _fail(self, now, why):
        self.problem = why
        self._next = now + self._backoff
        self._backoff = min(self._backoff * 2, self._backoff_max)

    def _answer(self, req, now):
        if req.error is not None:
            return self._fail(now, "server: %s" % req.error)
        if req.status != 200:
            return self._fail(now, "server does not know this box" if req.status == 404 else "server: HTTP %d" % req.status)
        link = self.dev.link
        hm, idz, nonce = link._hm, link._idz(), self._nonce
        try:
            a = json.loads(req.answer)
            t = a["time"]
            ok = isinstance(t, int) and 0 <= t < 1 << 63 and equal(pfetch.clock_mac(hm, idz, nonce, t), unhexlify(a["time_mac"]))
            text = a["config"]
            if ok and text is not None:
                text = text.encode()
                ok = equal(pfetch.config_mac(hm, idz, nonce, text), unhexlify(a["config_mac"]))
        except (ValueError, KeyError, TypeError, AttributeError):
            return self._fail(now, "server: not a fetch answer")
        if not ok:
            return self._fail(now, "server lacks key")
        self.fetches += 1
        self.last = now
        self.problem = None
        self._backoff = BACKOFF_MIN
        app = self.dev.app
        if ticks_diff(ticks_ms(), self._t0) <= pfetch.CLOCK_RTT_MS:
            self._clock(app, t)
        if text is None:
            self.why = a.get("why")
        else:
            self.why = None
            self._config(app, text)
        s = app.session
        running = s is not None and not s.ended
        self._next = now + (self.every or (RUNNING_MS if running else IDLE_MS))

    def _clock(self, app, t):
        from firmware.link.requests import CLOCK_MAX, CLOCK_MIN
        if CLOCK_MIN <= t < CLOCK_MAX and abs(app.now_s() - t) >= CLOCK_SLACK_S:
            app.epoch = t - app.clock() // 1000  # as the link's CLOCK (firmware/link/requests.py)
            self.clocks += 1
            self.dev.dirty = True

    def _config(self, app, text):
        try:
            cfg = json.loads(text)
        except ValueError:
            cfg = None
        if not isinstance(cfg, dict):
            self.problem = "config is not a JSON object"
            return
        s = app.session
        if s is not None and not s.ended:
            old = s.cfg
            if not _same(cfg, old, _SAME):
                self.why = "next session waits"  # another session: after this one ends
                return
            if not _retimed(cfg, old, app):
                return  # nothing new
        elif app.state not in BETWEEN or (s is not None and _same(cfg, s.cfg, _PLAYED)):
            return  # a flow under way, or the session the box played already
        err = app.push_config(cfg)
        if err:
            self.problem = "config refused: %s" % err
        else:
            self.configs += 1
        self.dev.dirty = True


def _retimed(cfg, old, app):
    """True when cfg changes the running session's time or the PIN (what scorebook.retime takes)."""
    for k in ("minutes", "ends_at"):
        if k in cfg and cfg[k] != old.get(k):
            return True
    return "pin_mac" in cfg and cfg["pin_mac"] != app.pin_mac


def _same(a, b, keys):
    for k in keys:
        if a.get(k) != b.get(k):
            return False
    return True
