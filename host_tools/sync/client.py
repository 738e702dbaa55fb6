"""The host end of the box's link (protocol/frames.py): the one client of the sync tool and the
tag tool. HostLink is the transport (frames over a pyserial-like port, stop-and-wait with
resends); Box the requests, each reply checked before it is believed: the box is not trusted.
open_serial/find_port pick and open the port."""
from __future__ import annotations

import json
import os
import random
import tempfile
import time
from dataclasses import dataclass
from typing import Optional

from protocol import codec as C
from protocol import config
from protocol import frames as F
from protocol.sign import authenticate, wrap_key

from .errors import DeviceError, LinkError, ProtocolError, SyncError
from .text import clean, parse_json

# USB ids of a box. The box's MicroPython build sets MICROPY_HW_USB_VID/PID to the first one:
# VID 0x1209 is pid.codes' (open-source hardware); 0x0001 is its test PID, to be replaced by the
# PID pid.codes allocates to this project. The stock MicroPython ids (Raspberry Pi RP2040 and
# Espressif ESP32-S2/S3 native USB) are accepted too, for boxes flashed with stock firmware;
# HELLO then tells whether the board is a box.
USB_IDS = {(0x1209, 0x0001): "scoring box", (0x2E8A, 0x0005): "MicroPython RP2040",
           (0x303A, 0x4001): "MicroPython ESP32-S2/S3"}
ENV_PORT = "MAHJONG_TABLE_PORT"
ENV_USB_IDS = "MAHJONG_TABLE_USB_IDS"
ENV_SIM_MARKER = "MAHJONG_TABLE_SIM_MARKER"
READ_WAIT = 0.01  # the port's read timeout: how late a request's own timeout can be noticed


class HostLink:
    """Frames over a pyserial-like object (read/write/in_waiting/timeout). Stop-and-wait:
    request() sends a frame, resends it after `timeout` (growing to `max_timeout`) up to
    `retries` times, and returns the data of the OK reply with the same seq and type."""

    READ_WAIT = READ_WAIT

    def __init__(self, ser, timeout: float = 0.5, retries: int = 6, max_timeout: float = 2.0):
        self.ser = ser
        if getattr(ser, "timeout", None) != self.READ_WAIT:
            ser.timeout = self.READ_WAIT  # once: pyserial reconfigures the port on every change
        self.timeout = timeout
        self.retries = retries
        self.max_timeout = max_timeout
        self.seq = random.randrange(256)
        self.rx = F.Deframer()
        self._buf = b""
        self._pos = 0
        self.mismatch = ""
        self.stats = {"bytes_out": 0, "bytes_in": 0, "frames_in": 0, "requests": 0, "resends": 0, "fast_resends": 0,
                      "bad_crc": 0, "bad_cobs": 0, "short": 0, "oversized": 0, "stale": 0}

    def _write(self, data: bytes) -> None:
        try:
            self.ser.write(data)
            self.ser.flush()
        except Exception as e:  # serial.SerialException, OSError: the cable, the box, the pty
            raise LinkError("serial line lost while writing: %s" % e) from None
        self.stats["bytes_out"] += len(data)

    def wake(self, pause: float = 0.05) -> None:
        """Idle fill before the first request: the box leaves the REPL's Ctrl-C handling
        (kbd_intr) at the first byte, before any data byte can arrive."""
        try:
            self.ser.reset_input_buffer()
        except Exception:
            pass
        self._write(b"\x00\x00\x00\x00")
        if pause:
            time.sleep(pause)

    def _count(self) -> None:
        rx = self.rx
        for k in ("frames", "bad_crc", "bad_cobs", "short", "oversized"):
            self.stats["frames_in" if k == "frames" else k] = getattr(rx, k)

    def _frames(self, deadline: float):
        """Yield (type, seq, payload) of each good frame, None for a damaged one, until the deadline."""
        rx = self.rx
        while True:
            while self._pos < len(self._buf):
                self._pos, n = rx.feed(self._buf, self._pos, len(self._buf))
                if n:
                    self._count()
                if n > 0:
                    yield rx.buf[0], rx.buf[1], bytes(rx.buf[2:n - 4])
                elif n < 0:
                    yield None
            left = deadline - time.monotonic()
            if left <= 0:
                return
            try:
                n = self.ser.in_waiting
                data = self.ser.read(n if n else 1)  # waits at most READ_WAIT for a first byte
                if data and self.ser.in_waiting:
                    data += self.ser.read(self.ser.in_waiting)
            except Exception as e:
                raise LinkError("serial line lost while reading: %s" % e) from None
            if data:
                self.stats["bytes_in"] += len(data)
                self._buf = bytes(data)
                self._pos = 0
                self._count()

    def request(self, typ: int, payload: bytes = b"", echo: bytes = b"") -> bytes:
        """The OK reply's data, or DeviceError. `echo`: the data of an OK reply must start with
        it (RECORDS and ACK echo what they were asked), else the reply is a late one to an
        earlier request with the same seq and is ignored."""
        name = C.TYPE_NAMES.get(typ, "type %d" % typ)
        if len(payload) > F.MAX_PAYLOAD:
            raise SyncError("%s request of %d bytes is over the frame limit" % (name, len(payload)))
        self.seq = (self.seq + 1) & 0xFF
        frame = C.encode_frame(typ, self.seq, payload)
        self.stats["requests"] += 1
        timeout = self.timeout
        before = dict(self.stats)
        for attempt in range(self.retries + 1):
            if attempt:
                self.stats["resends"] += 1
            self._write(frame)
            deadline = time.monotonic() + timeout
            garbled = False
            for f in self._frames(deadline):
                if f is None:  # a damaged frame: most likely the reply, so ask again now
                    garbled = True
                    break
                rtyp, rseq, rpay = f
                if rseq != self.seq or rtyp != (typ | F.REPLY):
                    self.stats["stale"] += 1
                    continue
                if not rpay:
                    self.stats["short"] += 1
                    continue
                if rpay[0]:
                    raise DeviceError(typ, rpay[0], rpay[1:].decode("utf-8", "replace"))
                if echo and rpay[1:1 + len(echo)] != echo:
                    self.stats["stale"] += 1
                    self.mismatch = rpay[1:1 + len(echo)].hex()
                    continue
                return rpay[1:]
            if garbled:
                self.stats["fast_resends"] += 1
            else:
                timeout = min(timeout * 2, self.max_timeout)
        seen = {k: self.stats[k] - before[k] for k in ("bad_crc", "bad_cobs", "short", "oversized", "stale")}
        why = []
        if seen["oversized"]:
            why.append("%d oversized frames (over %d bytes: firmware and host tool disagree, or not a box)"
                       % (seen["oversized"], F.MAX_FRAME))
        bad = seen["bad_crc"] + seen["bad_cobs"] + seen["short"]
        if bad:
            why.append("%d bad frames (CRC/COBS: line noise, or another program on this port)" % bad)
        if seen["stale"]:
            why.append("%d replies that did not match the request%s" % (
                seen["stale"], "" if not echo else " (it asked for %s, a reply was for %s)" % (echo.hex(), self.mismatch)))
        raise LinkError("no reply from the box to %s after %d tries%s" % (
            name, self.retries + 1, (": " + "; ".join(why)) if why else " (is it a box, is it on?)"))


def _be32(v: int) -> bytes:
    return int(v).to_bytes(4, "big")


@dataclass
class Record:
    seq: int
    sig: str  # hex
    payload: bytes


class Box:
    """The requests to a box over a HostLink. `key`: the device key (bytes), needed for the
    requests that change the box (ACK, CONFIG, CLOCK, REKEY, ASIDE, RELEASE, TAGS_SET)."""

    def __init__(self, link: HostLink, key: Optional[bytes] = None):
        self.link = link
        self.key = key
        self.info: dict = {}
        self.auth_requests = 0  # authenticated requests made (each a CHALLENGE first)

    @property
    def device(self) -> str:
        return self.info.get("device", "")

    def hello(self) -> dict:
        raw = self.link.request(F.T_HELLO)
        try:
            info = parse_json(raw, "HELLO")
        except ValueError as e:
            raise ProtocolError(str(e)) from None
        self.info = check_hello(info)
        return self.info

    def records(self, start: int, want: int = 255) -> list[Record]:
        raw = self.link.request(F.T_RECORDS, _be32(start) + bytes((min(want, 255),)), echo=_be32(start))
        try:
            _, recs = C.parse_records(raw)
        except ValueError as e:
            raise ProtocolError(str(e)) from None
        return [Record(seq, sig.hex(), payload) for seq, sig, payload in recs]

    def authed(self, typ: int, args: bytes = b"", echo: bytes = b"", key: Optional[bytes] = None) -> bytes:
        """An authenticated request: CHALLENGE for a nonce, then the request with its MAC. A
        box that lost the nonce (it restarted in between) gets one more try with a new one; so
        does a refusal of the MAC, as a box that restarted and then took a resent CHALLENGE holds
        another nonce than the one we signed with. Refused twice: the key is not this box's."""
        key = key if key is not None else self.key
        if key is None:
            raise SyncError("%s changes the box: it needs the box's key (--key-file)" % C.TYPE_NAMES.get(typ, typ))
        for attempt in (0, 1):
            nonce = self.link.request(F.T_CHALLENGE)
            if len(nonce) != F.NONCE_LEN:
                raise ProtocolError("CHALLENGE reply of %d bytes" % len(nonce))
            self.auth_requests += 1
            try:
                return self.link.request(typ, authenticate(key, self.device, nonce, typ, args), echo=echo)
            except DeviceError as e:
                if e.code in (F.E_NONCE, F.E_DENIED) and not attempt:
                    continue
                if e.code == F.E_DENIED:
                    raise DeviceError(typ, e.code, "%s: the key in the key file is not this box's" % e.message) from None
                raise
        raise AssertionError("not reached")

    def ack(self, seq: int) -> int:
        raw = self.authed(F.T_ACK, _be32(seq), echo=_be32(seq))
        if len(raw) != 8:
            raise ProtocolError("ACK reply of %d bytes" % len(raw))
        return int.from_bytes(raw[4:], "big")

    def set_aside(self, seq: int, reason: str) -> int:
        """Set record seq aside on the box, with the server's reason; the count set aside."""
        r = reason.encode("utf-8")[:F.MAX_REASON].decode("utf-8", "ignore").encode()
        raw = self.authed(F.T_ASIDE, _be32(seq) + r, echo=_be32(seq))
        if len(raw) != 5:
            raise ProtocolError("ASIDE reply of %d bytes" % len(raw))
        return raw[4]

    def release(self, seq: int) -> int:
        raw = self.authed(F.T_RELEASE, _be32(seq), echo=_be32(seq))
        if len(raw) != 5:
            raise ProtocolError("RELEASE reply of %d bytes" % len(raw))
        return raw[4]

    def push_config(self, cfg: dict) -> None:
        """Start the box's next session. The config is checked here first with the check the box
        and the server make (protocol/config.py): a bad one never reaches the box."""
        why = config.message(cfg)
        if why:
            raise SyncError("the session config is refused: %s" % clean(why))
        self.authed(F.T_CONFIG, json.dumps(cfg, ensure_ascii=False).encode())

    def set_net(self, settings: dict) -> None:
        """The box's Wi-Fi name, password and server address (protocol/frames.py NET): only a box
        whose board has a network answers it."""
        self.authed(F.T_NET, json.dumps(settings, ensure_ascii=False).encode())

    def set_clock(self, t: Optional[int] = None) -> dict:
        t = int(time.time()) if t is None else int(t)
        raw = self.authed(F.T_CLOCK, t.to_bytes(8, "big"))
        try:
            r = parse_json(raw, "CLOCK")
        except ValueError as e:
            raise ProtocolError(str(e)) from None
        if not _uint(r.get("time")):
            raise ProtocolError("CLOCK reply without the box's time: %s" % clean(r, 80))
        return r

    def provision(self, key: bytes) -> None:
        if len(key) != 32:
            raise SyncError("a device key is 32 bytes")
        self.link.request(F.T_PROVISION, key)

    def rekey(self, old: bytes, new: bytes) -> None:
        """The new key, wrapped with the nonce, in a request authenticated with the old one."""
        if len(new) != 32:
            raise SyncError("a device key is 32 bytes")
        nonce = self.link.request(F.T_CHALLENGE)
        if len(nonce) != F.NONCE_LEN:
            raise ProtocolError("CHALLENGE reply of %d bytes" % len(nonce))
        self.auth_requests += 1
        wrapped = wrap_key(old, self.device, nonce, new)
        self.link.request(F.T_REKEY, authenticate(old, self.device, nonce, F.T_REKEY, wrapped))

    def tags(self, obj: dict, authed: bool = False) -> dict:
        payload = json.dumps(obj).encode()
        raw = self.authed(F.T_TAGS_SET, payload) if authed else self.link.request(F.T_TAGS, payload)
        try:
            return parse_json(raw, "TAGS")
        except ValueError as e:
            raise ProtocolError(str(e)) from None

    def bye(self) -> None:
        self.link.request(F.T_BYE)


def _uint(v, top: int = 2**32) -> bool:
    return isinstance(v, int) and not isinstance(v, bool) and 0 <= v < top


def check_hello(info) -> dict:
    """Refuse a HELLO that is not self-consistent; its free text cleaned for the terminal."""
    if not isinstance(info, dict):
        raise ProtocolError("HELLO reply is not a JSON object")
    if info.get("proto") != F.PROTO:
        raise ProtocolError("the box speaks protocol %s, this tool %d: update one of them"
                            % (clean(info.get("proto"), 20), F.PROTO))
    dev = info.get("device")
    if not C.device_id_ok(dev):
        raise ProtocolError("the box names itself %s: not a device id (1-64 letters, digits, . _ -, "
                            "starting with a letter or digit)" % clean(dev, 80))
    for k in ("last", "acked"):
        if not _uint(info.get(k)):
            raise ProtocolError("the box sent a bad %s %s" % (k, clean(info.get(k), 40)))
    first = info.get("first")
    if first is not None and (not _uint(first) or first < 1 or first > info["last"]):
        raise ProtocolError("the box says its first record is %s and its last %d" % (clean(first, 40), info["last"]))
    if info["acked"] > info["last"]:
        raise ProtocolError("the box says it is acknowledged up to %d beyond its last record %d" % (info["acked"], info["last"]))
    if info["last"] > info["acked"] and (first is None or first > info["acked"] + 1):
        raise ProtocolError("the box has lost records %d..%s that were never acknowledged (first on flash %s)"
                            % (info["acked"] + 1, (first - 1) if first else info["last"], first))
    if not isinstance(info.get("keyed"), bool):
        raise ProtocolError("the box does not say whether it has a key")
    t = info.get("time")
    if t is not None and not _uint(t, 2**63):
        raise ProtocolError("the box sent a bad time %s" % clean(t, 40))
    aside = info.get("aside", [])
    if not isinstance(aside, list) or len(aside) > 255:
        raise ProtocolError("the box sent a bad set-aside list")
    for e in aside:
        if not (isinstance(e, list) and len(e) == 2 and _uint(e[0]) and 0 < e[0] <= info["last"]
                and isinstance(e[1], str)):
            raise ProtocolError("the box sent a bad set-aside entry %s" % clean(e, 60))
    info["aside"] = [[q, clean(r, F.MAX_REASON)] for q, r in aside]
    for k in ("fw", "board", "key_error", "corrupt"):
        if info.get(k) is not None:
            info[k] = clean(info[k], 80)
    return info


def sim_marker_path() -> str:
    return os.environ.get(ENV_SIM_MARKER) or os.path.join(tempfile.gettempdir(), "mahjong-table-sim-%d.port" % os.getuid())


def find_port() -> str:
    """--port auto: $MAHJONG_TABLE_PORT if set; else the one USB serial port whose VID:PID is a
    box's (USB_IDS, or $MAHJONG_TABLE_USB_IDS="1209:0001,2e8a:0005"); else the port the simulator
    announced in its marker file (python -m simulator --serial writes it)."""
    env = os.environ.get(ENV_PORT)
    if env:
        return env
    ids = dict(USB_IDS)
    if os.environ.get(ENV_USB_IDS):
        ids = {}
        try:
            for part in os.environ[ENV_USB_IDS].split(","):
                v, _, p = part.strip().partition(":")
                ids[(int(v, 16), int(p, 16))] = "from $" + ENV_USB_IDS
        except ValueError:
            raise SyncError("$%s must look like 1209:0001,2e8a:0005" % ENV_USB_IDS) from None
    try:
        from serial.tools import list_ports
        found = [p for p in list_ports.comports() if (p.vid, p.pid) in ids]
    except Exception:
        found = []
    if len(found) == 1:
        return found[0].device
    if len(found) > 1:
        raise SyncError("several boxes are plugged in (%s): pick one with --port"
                        % ", ".join("%s %04x:%04x" % (p.device, p.vid, p.pid) for p in found))
    path, why = sim_port()
    if path:
        return path
    raise SyncError("no box found: plug it in, or pass --port (USB ids looked for: %s; %s)"
                    % (", ".join("%04x:%04x" % k for k in ids), why))


def sim_port():
    """(the simulator's pty, "") from its marker file, or (None, why not). The marker is the pty's
    path and the simulator's pid: a simulator that was killed leaves a marker whose pty number the
    system gives to the next terminal opened, so the pid must still be running."""
    marker = sim_marker_path()
    try:
        with open(marker, encoding="utf-8") as f:
            lines = f.read().split("\n")
    except FileNotFoundError:
        return None, "no simulator announced in %s" % marker
    except (OSError, UnicodeDecodeError) as e:
        return None, "cannot read %s: %s" % (marker, e)
    path = lines[0].strip()
    pid = lines[1].strip() if len(lines) > 1 else ""
    if pid:
        if not pid.isdigit():
            return None, "%s is not a simulator's marker" % marker
        try:
            os.kill(int(pid), 0)
        except ProcessLookupError:
            return None, "the simulator that wrote %s (pid %s) is gone" % (marker, pid)
        except (PermissionError, OverflowError):
            pass  # alive (another user's) or not ours to judge: the path check below decides
    if not path or not os.path.exists(path):
        return None, "the simulator's pty %s (from %s) is gone" % (clean(path, 80) or "?", marker)
    return path, ""


def open_serial(port: str, write_timeout: float = 5):
    try:
        import serial
    except ImportError:
        raise SyncError("pyserial is not installed: pip install pyserial") from None
    if port == "auto":
        port = find_port()
    try:
        return serial.Serial(port, 115200, timeout=READ_WAIT, write_timeout=write_timeout, exclusive=True)
    except (serial.SerialException, OSError, ValueError) as e:
        raise SyncError("cannot open %s: %s" % (port, e)) from None
