"""One sync run: HELLO; the clock; the records the box set aside, offered to the server again;
every record after the acknowledged position, pulled in chunks and checked (in order, inside the
range the box announced, signature right when the key is known here); uploaded; acknowledged to
the box (with the key) up to the first record the server did not keep. A record the server
refuses goes to the quarantine folder with the server's reason and is set aside on the box, so
the records after it go on; without a quarantine folder or the key it stops the run there.
Anything else that goes wrong stops the run with a message; the box keeps every record that
was not acknowledged and the server is idempotent, so the next run goes on from there. A record
the server fails on (5xx, after its bounded retries) while it takes others is set aside like a
refused one, so one bad record never blocks the box's sync for good. With the key, the run ends
by reporting the box's journal head to the server, signed."""
from __future__ import annotations

import hmac
import os
import time
from typing import Callable, Optional

from protocol import envelope as penvelope
from protocol import frames as F
from protocol.sign import record_sig_hex

from .client import Box, HostLink, Record, open_serial
from .errors import EXIT_FAIL, EXIT_REFUSED, DeviceError, ProtocolError, SyncError
from .keys import key_for, load_keys, save_keys
from .server import Outcome, ServerSink
from .store import OfflineSink, Quarantine
from .summary import Summary
from .text import clean


def envelope(device: str, rec: Record) -> dict:
    """The upload envelope (protocol/envelope.py) of a record pulled from the box."""
    return penvelope.make(device, rec.seq, rec.payload, rec.sig)


class Syncer:
    def __init__(self, box: Box, sink, keys: Optional[dict] = None, progress: Callable[[str], None] = None,
                 chunk: int = 64, set_clock: bool = True, quarantine: Optional[Quarantine] = None):
        self.box = box
        self.sink = sink
        self.keys = keys or {}
        self.progress = progress or (lambda s: None)
        self.chunk = chunk
        self.set_clock = set_clock
        self.quarantine = quarantine
        self.summary = Summary()

    def run(self, info: dict) -> Summary:
        box = self.box
        s = self.summary
        dev = info["device"]
        s.device = dev
        first, last, acked = info.get("first"), info["last"], info["acked"]
        s.acked = acked
        s.aside = [tuple(e) for e in info.get("aside", [])]
        key = key_for(self.keys, dev)
        box.key = key
        self.progress("box %s (firmware %s, board %s): records %s..%d, acknowledged up to %d, %d to sync"
                      % (dev, info.get("fw"), info.get("board"), first, last, acked, last - acked))
        if info.get("corrupt"):
            self.progress("WARNING: the box's journal is damaged (%s): records after it cannot be read" % info["corrupt"])
        if self.set_clock and isinstance(info.get("time"), int) and abs(info["time"] - time.time()) > 2:
            if key is None:
                self.progress("the box's clock is off by %+d s: setting it needs its key (--key-file)"
                              % (info["time"] - time.time()))
            else:
                r = box.set_clock()
                self.progress("clock set (it was off by %+d s)" % (info["time"] - r["time"]))
        if s.aside and isinstance(self.sink, ServerSink) and key is not None:
            self.retry_aside(dev, key)
        if last <= acked:
            return s
        if not info.get("keyed"):
            raise SyncError("box %s has no key, so its records cannot be signed: provision it "
                            "(python -m host_tools sync --port PORT --provision --key-file KEYS)" % dev)
        nxt = acked + 1
        while nxt <= last:
            recs = self.pull(dev, key, nxt, last)
            nxt = recs[-1].seq + 1
            s.pulled += len(recs)
            self.progress("pulled %d..%d" % (recs[0].seq, recs[-1].seq))
            envs = [envelope(dev, r) for r in recs]
            top = None
            blocked = False
            for r, env, o in zip(recs, envs, self.sink.put(envs)):
                if o.kept:
                    s.count(o)
                else:
                    s.refused += 1
                    s.refusals.append((r.seq, o.code, o.message))
                    if not blocked:
                        blocked = self.set_aside(dev, key, env, o)
                if not blocked:
                    top = r.seq
            if top is not None and top > s.acked:
                if key is None:
                    s.unacked = True
                else:
                    s.acked = box.ack(top)
                    if s.acked < top:
                        raise ProtocolError("the box acknowledged only up to %d after ACK %d" % (s.acked, top))
                    self.progress("stored on %s and acknowledged up to %d" % (self.sink.name, top))
            if blocked:
                return s
        return s

    def pull(self, dev: str, key: Optional[bytes], nxt: int, last: int) -> list[Record]:
        """The next chunk from nxt on, each record checked before it is believed."""
        recs: list[Record] = []
        while nxt <= last and len(recs) < self.chunk:
            got = self.box.records(nxt, min(255, last - nxt + 1, self.chunk - len(recs)))
            if not got:
                raise ProtocolError("the box announced records up to %d but sends none from %d: refusing it"
                                    % (last, nxt))
            for r in got:
                if r.seq != nxt:
                    raise ProtocolError("the box sent record %d where %d was due (out of order): refusing it"
                                        % (r.seq, nxt))
                if r.seq > last:
                    raise ProtocolError("the box sent record %d beyond the last it announced (%d): refusing it"
                                        % (r.seq, last))
                if key is not None and not hmac.compare_digest(record_sig_hex(key, dev, r.seq, r.payload), r.sig):
                    raise ProtocolError("record %d of %s fails its signature with the key in the key file: "
                                        "a wrong key file, or the record was altered; nothing of it is uploaded"
                                        % (r.seq, dev))
                recs.append(r)
                nxt += 1
        return recs

    def set_aside(self, dev: str, key: Optional[bytes], env: dict, o: Outcome) -> bool:
        """Quarantine a refused record and set it aside on the box; True if it blocks instead."""
        s = self.summary
        why = "HTTP %d: %s" % (o.code, o.message) if o.code else o.message
        if self.quarantine is None or key is None:
            self.progress("the server refused record %d (%s): %s" % (
                env["seq"], clean(why), "the records after it wait (give --quarantine DIR and the key to set it aside)"))
            return True
        p = self.quarantine.put(env, o, getattr(self.sink, "name", ""))
        try:
            self.box.set_aside(env["seq"], why)
        except DeviceError as e:
            if e.code != F.E_FULL:
                raise
            self.progress("the server refused record %d (%s) and the box cannot set more aside (%s): "
                          "the records after it wait" % (env["seq"], clean(why), e.message))
            return True
        s.set_aside.append((env["seq"], why))
        s.aside = sorted(set(s.aside) | {(env["seq"], why[:F.MAX_REASON])})
        self.progress("the server refused record %d (%s): set aside on the box and in %s" % (env["seq"], clean(why), p))
        return False

    def retry_aside(self, dev: str, key: bytes) -> None:
        """Offer the set-aside records to the server again; release those it takes now."""
        s = self.summary
        for seq, why in list(s.aside):
            try:
                got = self.box.records(seq, 1)
            except DeviceError as e:
                self.progress("record %d (set aside) cannot be read from the box: %s" % (seq, e.message))
                continue
            if not got or got[0].seq != seq:
                raise ProtocolError("the box lists record %d as set aside but does not send it" % seq)
            r = got[0]
            if not hmac.compare_digest(record_sig_hex(key, dev, r.seq, r.payload), r.sig):
                raise ProtocolError("record %d of %s (set aside) fails its signature with the key in the key file"
                                    % (seq, dev))
            [o] = self.sink.put([envelope(dev, r)])
            if not o.kept:
                self.progress("record %d is still refused by the server: %s" % (seq, clean(o.message)))
                continue
            s.count(o)
            self.box.release(seq)
            if self.quarantine is not None:
                self.quarantine.resolve(dev, seq)
            s.released.append(seq)
            s.aside = [e for e in s.aside if e[0] != seq]
            self.progress("record %d (set aside) was taken by the server now: released on the box" % seq)


def sync(port: str, server: Optional[str] = None, offline: Optional[str] = None, key_file: Optional[str] = None,
         progress: Callable[[str], None] = None, timeout: float = 0.5, retries: int = 6, wake: float = 0.05,
         batch: bool = True, set_clock: bool = True, config: Optional[dict] = None, provision: bool = False,
         rekey: bool = False, http_timeout: float = 15.0, chunk: int = 64, ser=None,
         http_pause: float = 0.2, max_timeout: Optional[float] = None, quarantine: Optional[str] = None,
         release: Optional[list] = None, next_session: bool = False, wifi: Optional[dict] = None) -> Summary:
    """One sync run. Raises SyncError (the summary so far is on it as .summary). next_session:
    after the sync, start the box's next session with the config the server has for it. wifi:
    {ssid, password, server} for a box with a network (firmware/net/settings.py)."""
    if next_session and (not server or config is not None):
        raise SyncError("--next-session takes the config from --server URL (and not with --config)")
    progress = progress or (lambda s: None)
    keys = load_keys(key_file)
    if server:
        sink = ServerSink(server, batch=batch, timeout=http_timeout, pause=http_pause)
    elif offline:
        sink = OfflineSink(offline)
    elif not (provision or rekey or config or release or wifi):
        raise SyncError("say where the records go: --server URL or --offline DIR")
    else:
        sink = None
    own = ser is None
    if own:
        ser = open_serial(port)
    if max_timeout is None:
        max_timeout = max(timeout, min(2.0, timeout * 8))
    link = HostLink(ser, timeout=timeout, retries=retries, max_timeout=max_timeout)
    syncer = None
    try:
        link.wake(wake)
        box = Box(link)
        info = box.hello()
        dev = info["device"]
        box.key = key_for(keys, dev)
        if provision:
            do_provision(box, info, key_file, keys, progress)
            info = box.hello()
        if rekey:
            do_rekey(box, info, key_file, keys, progress)
        for seq in release or ():
            left = box.release(seq)
            progress("record %d of %s released: no longer set aside (%d left)" % (seq, dev, left))
        if release:
            info = box.hello()
        if wifi is not None:
            box.set_net(wifi)
            progress("network settings sent to %s: Wi-Fi %s, server %s (from its next boot)" % (
                dev, clean(wifi.get("ssid"), 40), clean(wifi.get("server"), 80)))
        if sink is not None:
            syncer = Syncer(box, sink, keys, progress, chunk=chunk, set_clock=set_clock,
                            quarantine=Quarantine(quarantine) if quarantine else None)
            syncer.run(info)
            if isinstance(sink, ServerSink) and box.key is not None:
                # the box's journal head, signed with its key: the server's Boxes page counts what
                # it has not got from it (an anonymous read may not write it)
                why = sink.report_head(dev, info["last"], box.key)
                if why:
                    syncer.summary.head = why
                    progress("the server did not take the box's journal head (%s): its Boxes page may show an old count" % clean(why))
            if isinstance(sink, OfflineSink):
                sink.made()
        elif set_clock and box.key is not None and isinstance(info.get("time"), int) \
                and abs(info["time"] - time.time()) > 2:
            box.set_clock()
        if next_session:
            config = server_config(server, dev, http_timeout)
        if config is not None:
            box.push_config(config)
            progress("session config sent to %s: %s session %s, table %s" % (
                dev, clean(config.get("tournament"), 64), clean(config.get("session"), 12), clean(config.get("table"), 12)))
        try:
            box.bye()  # lets the box restore its REPL's Ctrl-C at once; it also does on its own
        except SyncError:
            progress("no reply to BYE (the box will time out the link by itself)")
        s = syncer.summary if syncer else Summary(device=dev, acked=info["acked"],
                                                  aside=[tuple(e) for e in info.get("aside", [])])
        s.link = link.stats
        s.auth_requests = box.auth_requests
        if s.unacked:
            e = SyncError("records of %s were uploaded but the box was not acknowledged: that needs its key "
                          "(--key-file); the next run with the key acknowledges them" % dev)
            e.exit_code = EXIT_FAIL
            raise e
        if s.refused:
            if s.set_aside and len(s.set_aside) == s.refused:
                where = "set aside on the box and in the quarantine folder; the records after them are synced"
            else:
                where = "the records from the first of them on stay on the box (acknowledged up to %d)" % s.acked
            e = SyncError("the server refused %d record(s) of %s, %s: %s" % (
                s.refused, dev, where, "; ".join("seq %d: %s %s" % (q, c, clean(m, 80)) for q, c, m in s.refusals[:5])))
            e.exit_code = EXIT_REFUSED
            raise e
        return s
    except SyncError as e:
        e.summary = syncer.summary if syncer else Summary()
        e.summary.link = link.stats
        raise
    finally:
        if sink is not None:
            sink.close()
        if own:
            try:
                ser.close()
            except Exception:
                pass


def server_config(server: str, device: str, timeout: float) -> dict:
    """The next session of the box, from the table it is bound to in the server's published
    seating (box_config.py); fields the server leaves empty are left out, so the box takes its
    defaults."""
    from .box_config import ConfigError, fetch_box_config
    try:
        cfg = fetch_box_config(server, device, timeout=timeout)
    except ConfigError as e:
        raise SyncError("no next session for %s from the server: %s" % (device, clean(str(e), 200))) from None
    return {k: v for k, v in cfg.items() if v is not None}


def do_provision(box: Box, info: dict, key_file: Optional[str], keys: dict, progress) -> None:
    if not key_file:
        raise SyncError("--provision needs --key-file (the key is written there, and never read back from the box)")
    dev = info["device"]
    if info.get("keyed"):
        raise SyncError("box %s already has a key; to change it use --rekey with the current key in %s" % (dev, key_file))
    key = keys.get(dev)
    new = key is None
    if new:
        key = os.urandom(32)
        keys[dev] = key
        save_keys(key_file, keys)  # first: a key the box has must never be lost here
    box.provision(key)
    box.key = key
    progress("box %s provisioned with %s key from %s; register it on the server (POST /api/devices)"
             % (dev, "a new" if new else "the", key_file))


def do_rekey(box: Box, info: dict, key_file: Optional[str], keys: dict, progress) -> None:
    dev = info["device"]
    old = keys.get(dev)
    if not key_file or old is None:
        raise SyncError("--rekey needs the box's current key in --key-file")
    new = os.urandom(32)
    keys[dev + "@previous"] = old
    keys[dev] = new
    save_keys(key_file, keys)
    try:
        box.rekey(old, new)
    except DeviceError:
        keys[dev] = old
        del keys[dev + "@previous"]
        save_keys(key_file, keys)
        raise
    box.key = new
    progress("box %s has a new key (in %s; the old one as %s@previous): register it on the server" % (dev, key_file, dev))
