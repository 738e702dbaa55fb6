"""Sync a scoring box: pull its new journal records over USB serial and upload them.

    python -m host_tools sync --port PORT --server URL [--key-file KEYS]
    python -m host_tools sync --port PORT --offline DIR          # to files, for later:
    python -m host_tools sync --upload DIR --server URL
    python -m host_tools sync --port PORT --provision --key-file KEYS   # first time: set the key

The wire protocol is the device's, firmware/link.py (its header is the specification); this
module has its own copy of the framing so the host tools install without the firmware.

A run: HELLO (device id, journal range, acked position); set the box's clock when it is off by
more than 2 s; pull every record from acked+1 in chunks; check each (in order, inside the range
the box announced, signature right when the key is known here); upload the chunk (batch
endpoint, or one by one if the server has none); acknowledge to the box, with journal.ack, only
the records up to the first one the server did not store (201 stored or 200 known). Anything
that goes wrong stops the run with a message and a non-zero exit; the box keeps every record
that was not acknowledged and the server is idempotent, so the next run goes on from there.

--offline DIR writes each record as DIR/<device>/<seq, 10 digits>.json (the upload envelope;
written to a temporary file, fsynced, renamed, directory fsynced) and acknowledges it then.
--upload DIR sends those files and moves each stored one to DIR/<device>/uploaded/.

Exit status: 0 done; 1 failed (link, device, server: nothing wrong stored, run again);
2 usage; 3 the server refused records (they stay unacknowledged on the box, or in DIR).

Key file (--key-file): JSON {"<device id>": "<64 hex digits>", ...}, or one bare hex key. With
a key the tool checks every signature before uploading (the server checks anyway).

--port auto: $MAHJONG_TABLE_PORT if set; else the one USB serial port whose VID:PID is a box's
(USB_IDS below, or $MAHJONG_TABLE_USB_IDS="1209:0001,2e8a:0005"); else the port the simulator
announced in its marker file (python -m simulator --serial writes it).
"""
from __future__ import annotations

import base64
import binascii
import hashlib
import hmac
import http.client
import json
import os
import random
import sys
import tempfile
import time
import urllib.parse
import zlib
from dataclasses import dataclass, field
from typing import Callable, Optional

PROTO = 1
MAX_FRAME = 2048  # decoded body: type u8, seq u8, payload, crc32 LE
MAX_ENC = MAX_FRAME + MAX_FRAME // 254 + 1
REC_HEADER = 38

T_HELLO, T_RECORDS, T_ACK, T_CONFIG, T_CLOCK, T_PROVISION, T_CHALLENGE, T_REKEY, T_BYE = range(1, 10)
REPLY = 0x80
TYPE_NAMES = {T_HELLO: "HELLO", T_RECORDS: "RECORDS", T_ACK: "ACK", T_CONFIG: "CONFIG", T_CLOCK: "CLOCK",
              T_PROVISION: "PROVISION", T_CHALLENGE: "CHALLENGE", T_REKEY: "REKEY", T_BYE: "BYE"}
ERRORS = {1: "bad request", 2: "unknown request", 3: "no key", 4: "key already set", 5: "denied",
          6: "out of range", 7: "journal damaged", 8: "refused", 9: "internal error"}
E_NO_KEY, E_KEY_SET, E_DENIED = 3, 4, 5

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

EXIT_OK, EXIT_FAIL, EXIT_USAGE, EXIT_REFUSED = 0, 1, 2, 3


class SyncError(Exception):
    """Stops a run: the message says what happened and what to do."""

    exit_code = EXIT_FAIL


class LinkError(SyncError):
    pass


class DeviceError(SyncError):
    def __init__(self, typ: int, code: int, message: str):
        self.code = code
        self.message = message
        super().__init__("box refused %s: %s (%s)" % (TYPE_NAMES.get(typ, typ), message, ERRORS.get(code, code)))


class ProtocolError(SyncError):
    """The box broke the protocol (lied about its range, sent records out of order...)."""


class ServerError(SyncError):
    pass


def sim_marker_path() -> str:
    return os.environ.get(ENV_SIM_MARKER) or os.path.join(tempfile.gettempdir(), "mahjong-table-sim-%d.port" % os.getuid())


# ------------------------------------------------------------------------------------ framing

def crc32(b) -> int:
    return zlib.crc32(b) & 0xFFFFFFFF


def cobs_encode(data: bytes) -> bytes:
    """Canonical COBS (no trailing empty block after a final 254-byte run)."""
    out = bytearray()
    n = len(data)
    i = 0
    while True:
        z = data.find(b"\x00", i)
        end = n if z < 0 else z
        while end - i >= 254:
            out.append(0xFF)
            out += data[i:i + 254]
            i += 254
            if i == n:
                return bytes(out)
        out.append(end - i + 1)
        out += data[i:end]
        if z < 0:
            return bytes(out)
        i = z + 1


def cobs_decode(enc: bytes) -> bytes:
    out = bytearray()
    i = 0
    n = len(enc)
    while i < n:
        code = enc[i]
        if code == 0:
            raise ValueError("zero byte inside a COBS block")
        i += 1
        end = i + code - 1
        if end > n:
            raise ValueError("COBS block runs past the end")
        block = enc[i:end]
        if 0 in block:
            raise ValueError("zero byte inside a COBS block")
        out += block
        i = end
        if code < 0xFF and i < n:
            out.append(0)
    return bytes(out)


def encode_frame(typ: int, seq: int, payload: bytes = b"") -> bytes:
    body = bytes((typ, seq)) + bytes(payload)
    body += crc32(body).to_bytes(4, "little")
    return b"\x00" + cobs_encode(body) + b"\x00"


class FrameError(ValueError):
    def __init__(self, kind: str, detail: str = ""):
        self.kind = kind
        super().__init__(kind + (": " + detail if detail else ""))


def decode_body(enc: bytes, max_frame: int = MAX_FRAME) -> tuple[int, int, bytes]:
    """COBS bytes between two delimiters -> (type, seq, payload); FrameError(kind) if bad."""
    if len(enc) > max_frame + max_frame // 254 + 1:
        raise FrameError("oversized", "%d encoded bytes" % len(enc))
    try:
        body = cobs_decode(enc)
    except ValueError as e:
        raise FrameError("bad_cobs", str(e))
    if len(body) > max_frame:
        raise FrameError("oversized", "%d bytes" % len(body))
    if len(body) < 6:
        raise FrameError("short", "%d bytes" % len(body))
    if crc32(body[:-4]) != int.from_bytes(body[-4:], "little"):
        raise FrameError("bad_crc")
    return body[0], body[1], body[2:-4]


# ------------------------------------------------------------------------------------ link

class HostLink:
    """The host end over a pyserial-like object (read/write/in_waiting/timeout). Stop-and-wait:
    request() sends a frame, resends it after `timeout` (growing to `max_timeout`) up to
    `retries` times, and returns the payload of the reply with the same seq and type."""

    READ_WAIT = 0.01  # the port's read timeout: how late a request's own timeout can be noticed

    def __init__(self, ser, timeout: float = 0.5, retries: int = 6, max_timeout: float = 2.0):
        self.ser = ser
        if getattr(ser, "timeout", None) != self.READ_WAIT:
            ser.timeout = self.READ_WAIT  # once: pyserial reconfigures the port on every change
        self.timeout = timeout
        self.retries = retries
        self.max_timeout = max_timeout
        self.seq = random.randrange(256)
        self._rx = bytearray()
        self._skip = False
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

    def _frames(self, deadline: float):
        """Yield decoded frames until the deadline."""
        while True:
            # frames already complete in the buffer
            while True:
                k = self._rx.find(0)
                if k < 0:
                    break
                enc = bytes(self._rx[:k])
                del self._rx[:k + 1]
                if self._skip:
                    self._skip = False
                    continue
                if not enc:
                    continue
                try:
                    f = decode_body(enc)
                except FrameError as e:
                    self.stats[e.kind] += 1
                    yield None
                    continue
                self.stats["frames_in"] += 1
                yield f
            if len(self._rx) > MAX_ENC:
                self.stats["oversized"] += 1
                self._skip = True
                self._rx.clear()
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
                if self._skip:
                    k = data.find(0)
                    if k < 0:
                        continue
                    self._skip = False
                    data = data[k + 1:]
                self._rx += data

    def request(self, typ: int, payload: bytes = b"", echo: bytes = b"") -> bytes:
        """The OK reply's data, or DeviceError. `echo`: the data of an OK reply must start with
        it (RECORDS and ACK echo what they were asked), else the reply is a late one to an
        earlier request with the same seq and is ignored."""
        if len(payload) + 6 > MAX_FRAME:
            raise SyncError("%s request of %d bytes is over the frame limit" % (TYPE_NAMES[typ], len(payload)))
        self.seq = (self.seq + 1) & 0xFF
        frame = encode_frame(typ, self.seq, payload)
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
                if rseq != self.seq or rtyp != (typ | REPLY):
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
                       % (seen["oversized"], MAX_FRAME))
        bad = seen["bad_crc"] + seen["bad_cobs"] + seen["short"]
        if bad:
            why.append("%d bad frames (CRC/COBS: line noise, or another program on this port)" % bad)
        if seen["stale"]:
            why.append("%d replies that did not match the request%s" % (
                seen["stale"], "" if not echo else " (it asked for %s, a reply was for %s)" % (echo.hex(), self.mismatch)))
        raise LinkError("no reply from the box to %s after %d tries%s" % (
            TYPE_NAMES[typ], self.retries + 1, (": " + "; ".join(why)) if why else " (is it a box, is it on?)"))


def _be32(v: int) -> bytes:
    return int(v).to_bytes(4, "big")


@dataclass
class Record:
    seq: int
    sig: str  # hex
    payload: bytes


class Box:
    """Requests to a box over a HostLink."""

    def __init__(self, link: HostLink):
        self.link = link
        self.info: dict = {}

    def hello(self) -> dict:
        raw = self.link.request(T_HELLO)
        try:
            info = json.loads(raw.decode())
        except (UnicodeDecodeError, ValueError):
            raise ProtocolError("HELLO reply is not JSON") from None
        self.info = check_hello(info)
        return self.info

    def records(self, start: int, want: int = 255) -> list[Record]:
        raw = self.link.request(T_RECORDS, _be32(start) + bytes((min(want, 255),)), echo=_be32(start))
        if len(raw) < 5:
            raise ProtocolError("RECORDS reply of %d bytes" % len(raw))
        count = raw[4]
        out = []
        o = 5
        for _ in range(count):
            if o + REC_HEADER > len(raw):
                raise ProtocolError("RECORDS reply cut short")
            seq = int.from_bytes(raw[o:o + 4], "big")
            n = int.from_bytes(raw[o + 4:o + 6], "big")
            sig = raw[o + 6:o + 38].hex()
            if o + REC_HEADER + n > len(raw):
                raise ProtocolError("RECORDS reply cut short in record %d" % seq)
            out.append(Record(seq, sig, bytes(raw[o + 38:o + 38 + n])))
            o += REC_HEADER + n
        if o != len(raw):
            raise ProtocolError("RECORDS reply has %d stray bytes" % (len(raw) - o))
        return out

    def ack(self, seq: int) -> int:
        raw = self.link.request(T_ACK, _be32(seq), echo=_be32(seq))
        if len(raw) != 8:
            raise ProtocolError("ACK reply of %d bytes" % len(raw))
        return int.from_bytes(raw[4:], "big")

    def push_config(self, cfg: dict) -> None:
        self.link.request(T_CONFIG, json.dumps(cfg, ensure_ascii=False).encode())

    def set_clock(self, t: Optional[int] = None) -> dict:
        t = int(time.time()) if t is None else int(t)
        return json.loads(self.link.request(T_CLOCK, t.to_bytes(8, "big")).decode())

    def provision(self, key: bytes) -> None:
        if len(key) != 32:
            raise SyncError("a device key is 32 bytes")
        self.link.request(T_PROVISION, key)

    def rekey(self, device: str, old: bytes, new: bytes) -> None:
        nonce = self.link.request(T_CHALLENGE)
        if len(nonce) != 16:
            raise ProtocolError("CHALLENGE reply of %d bytes" % len(nonce))
        idz = device.encode() + b"\x00"
        mask = hmac.new(old, b"wrap\x00" + idz + nonce, hashlib.sha256).digest()
        wrapped = bytes(a ^ b for a, b in zip(new, mask))
        proof = hmac.new(old, b"rekey\x00" + idz + nonce + new, hashlib.sha256).digest()
        self.link.request(T_REKEY, wrapped + proof)

    def bye(self) -> None:
        self.link.request(T_BYE)


def check_hello(info) -> dict:
    """Refuse a HELLO that is not self-consistent."""
    if not isinstance(info, dict):
        raise ProtocolError("HELLO reply is not a JSON object")
    if info.get("proto") != PROTO:
        raise ProtocolError("the box speaks protocol %r, this tool %d: update one of them" % (info.get("proto"), PROTO))
    dev = info.get("device")
    if not isinstance(dev, str) or not dev or len(dev) > 64:
        raise ProtocolError("the box sent a bad device id %r" % (dev,))
    for k in ("last", "acked"):
        v = info.get(k)
        if not isinstance(v, int) or isinstance(v, bool) or not 0 <= v < 2**32:
            raise ProtocolError("the box sent a bad %s %r" % (k, v))
    first = info.get("first")
    if first is not None and (not isinstance(first, int) or first < 1 or first > info["last"]):
        raise ProtocolError("the box says its first record is %r and its last %d" % (first, info["last"]))
    if info["acked"] > info["last"]:
        raise ProtocolError("the box says it is acknowledged up to %d beyond its last record %d" % (info["acked"], info["last"]))
    if info["last"] > info["acked"] and (first is None or first > info["acked"] + 1):
        raise ProtocolError("the box has lost records %d..%s that were never acknowledged (first on flash %r)"
                            % (info["acked"] + 1, (first - 1) if first else info["last"], first))
    return info


def sign(key: bytes, device: str, seq: int, payload: bytes) -> str:
    return hmac.new(key, device.encode() + b"\x00" + seq.to_bytes(4, "big") + payload, hashlib.sha256).hexdigest()


def envelope(device: str, rec: Record) -> dict:
    return {"device": device, "seq": rec.seq, "payload": base64.b64encode(rec.payload).decode(), "sig": rec.sig}


# ------------------------------------------------------------------------------------ keys

def load_keys(path: Optional[str]) -> dict:
    """{device id: key bytes}; a bare hex key file gives {"*": key}."""
    if not path:
        return {}
    try:
        text = open(path, encoding="utf-8").read().strip()
    except FileNotFoundError:
        return {}
    except OSError as e:
        raise SyncError("cannot read key file %s: %s" % (path, e))
    try:
        if text.startswith("{"):
            return {k: _hexkey(v, path) for k, v in json.loads(text).items()}
        return {"*": _hexkey(text, path)}
    except ValueError as e:
        raise SyncError("key file %s: %s" % (path, e))


def _hexkey(v, path) -> bytes:
    try:
        k = bytes.fromhex(v)
    except (TypeError, ValueError):
        raise ValueError("a key is 64 hex digits") from None
    if len(k) != 32:
        raise ValueError("a key is 64 hex digits (32 bytes), not %d bytes" % len(k))
    return k


def save_keys(path: str, keys: dict) -> None:
    text = json.dumps({k: v.hex() for k, v in sorted(keys.items())}, indent=1) + "\n"
    atomic_write(path, text.encode(), mode=0o600)


def key_for(keys: dict, device: str) -> Optional[bytes]:
    return keys.get(device, keys.get("*"))


def atomic_write(path: str, data: bytes, mode: int = 0o644) -> None:
    d = os.path.dirname(os.path.abspath(path))
    fd, tmp = tempfile.mkstemp(dir=d, prefix=".tmp-", suffix=".part")
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(data)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, mode)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
    fsync_dir(d)


def fsync_dir(d: str) -> None:
    try:
        fd = os.open(d, os.O_RDONLY)
    except OSError:
        return
    try:
        os.fsync(fd)
    except OSError:
        pass
    finally:
        os.close(fd)


# ------------------------------------------------------------------------------------ sinks

STORED, KNOWN = "stored", "known"


@dataclass
class Outcome:
    status: str  # "stored", "known" or "refused"
    code: int = 0
    message: str = ""


class ServerSink:
    """POST {server}/api/records (or :batch, up to 200) with one persistent HTTP connection."""

    BATCH_MAX = 200

    def __init__(self, url: str, batch: bool = True, timeout: float = 15.0, tries: int = 3, pause: float = 0.2):
        u = urllib.parse.urlsplit(url)
        if u.scheme not in ("http", "https") or not u.hostname:
            raise SyncError("server URL must be http(s)://host[:port][/path], not %r" % url)
        self.url = url.rstrip("/")
        self.u = u
        self.base = u.path.rstrip("/")
        self.batch = batch
        self.timeout = timeout
        self.tries = tries
        self.pause = pause
        self.conn = None
        self.name = "server %s" % self.url

    def _connect(self):
        cls = http.client.HTTPSConnection if self.u.scheme == "https" else http.client.HTTPConnection
        return cls(self.u.hostname, self.u.port, timeout=self.timeout)

    def _post(self, path: str, obj) -> tuple[int, object]:
        body = json.dumps(obj).encode()
        last = None
        for attempt in range(self.tries):
            if attempt:
                time.sleep(self.pause * attempt)
            try:
                if self.conn is None:
                    self.conn = self._connect()
                self.conn.request("POST", self.base + path, body, {"Content-Type": "application/json"})
                r = self.conn.getresponse()
                data = r.read()
                status = r.status
                if r.getheader("connection", "").lower() == "close":
                    self.close()
            except (OSError, http.client.HTTPException) as e:
                self.close()
                last = "%s: %s" % (type(e).__name__, e)
                continue
            if status >= 500:
                last = "HTTP %d" % status
                continue
            try:
                parsed = json.loads(data.decode()) if data else None
            except (UnicodeDecodeError, ValueError):
                parsed = None
            return status, parsed
        raise ServerError("%s unreachable (%s)" % (self.name, last))

    def close(self):
        if self.conn is not None:
            try:
                self.conn.close()
            except Exception:
                pass
            self.conn = None

    def put(self, envs: list[dict]) -> list[Outcome]:
        out: list[Outcome] = []
        i = 0
        while i < len(envs):
            part = envs[i:i + self.BATCH_MAX]
            res = self._batch(part) if self.batch and len(part) > 1 else None
            if res is None:
                res = [self._one(e) for e in part]
            out += res
            i += len(part)
        return out

    def _one(self, env: dict) -> Outcome:
        status, body = self._post("/api/records", env)
        return _outcome(status, body)

    def _batch(self, envs: list[dict]) -> Optional[list[Outcome]]:
        status, body = self._post("/api/records:batch", envs)
        if status in (404, 405, 501):
            self.batch = False  # an older server: one by one
            return None
        if status != 200:
            return None  # the whole batch refused: one by one, for per-record reasons
        items = body.get("results") if isinstance(body, dict) else body
        if not isinstance(items, list) or len(items) != len(envs):
            return None
        return [_outcome(it.get("status_code"), it) if isinstance(it, dict) else Outcome("refused", 0, "bad batch item")
                for it in items]


def _outcome(status, body) -> Outcome:
    st = body.get("status") if isinstance(body, dict) else None
    if status is None:
        status = {"stored": 201, "known": 200}.get(st, 400)
    if status == 201:
        return Outcome(STORED, status)
    if status == 200 and st in (None, "known", "stored"):
        return Outcome(KNOWN if st != "stored" else STORED, status)
    msg = ""
    if isinstance(body, dict):
        msg = str(body.get("error") or body.get("message") or st or "")
    if status == 403:
        raise ServerError("the server refused a record of this box with 403 (%s): is the box registered on the "
                          "server with the key it was provisioned with?" % (msg or "unknown device or bad signature"))
    return Outcome("refused", int(status), msg)


def _safe_name(device: str) -> str:
    return "".join(c if c.isalnum() or c in "._-" else "%%%02x" % ord(c) for c in device) or "_"


class OfflineSink:
    """One JSON file per record: DIR/<device>/<seq>.json (the upload envelope)."""

    def __init__(self, root: str):
        self.root = root
        self.name = "files in %s" % root

    def path(self, env: dict) -> str:
        return os.path.join(self.root, _safe_name(env["device"]), "%010d.json" % env["seq"])

    def put(self, envs: list[dict]) -> list[Outcome]:
        out = []
        for env in envs:
            p = self.path(env)
            data = (json.dumps(env, sort_keys=True) + "\n").encode()
            os.makedirs(os.path.dirname(p), exist_ok=True)
            done = os.path.join(os.path.dirname(p), "uploaded", os.path.basename(p))
            existing = None
            for q in (p, done):
                try:
                    with open(q, "rb") as f:
                        existing = (q, f.read())
                    break
                except FileNotFoundError:
                    continue
            if existing is not None:
                try:
                    same = json.loads(existing[1]) == env
                except ValueError:
                    same = False
                if same:
                    out.append(Outcome(KNOWN))
                else:  # a different record under this (device, seq): keep the file, refuse
                    out.append(Outcome("refused", 409, "%s holds a different record" % existing[0]))
                continue
            try:
                atomic_write(p, data)
            except OSError as e:
                raise SyncError("cannot write %s: %s" % (p, e))
            out.append(Outcome(STORED))
        return out

    def close(self):
        pass


# ------------------------------------------------------------------------------------ runs

@dataclass
class Summary:
    pulled: int = 0
    uploaded: int = 0
    known: int = 0
    refused: int = 0
    device: str = ""
    acked: int = 0
    refusals: list = field(default_factory=list)
    link: dict = field(default_factory=dict)  # HostLink.stats: bytes and frames on the wire

    def line(self) -> str:
        return "pulled %d, uploaded %d, already known %d, refused %d" % (self.pulled, self.uploaded, self.known, self.refused)


def find_port() -> str:
    """--port auto (see the module doc)."""
    env = os.environ.get(ENV_PORT)
    if env:
        return env
    ids = dict(USB_IDS)
    if os.environ.get(ENV_USB_IDS):
        ids = {}
        for part in os.environ[ENV_USB_IDS].split(","):
            v, _, p = part.strip().partition(":")
            ids[(int(v, 16), int(p, 16))] = "from $" + ENV_USB_IDS
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
    marker = sim_marker_path()
    try:
        path = open(marker).read().strip()
    except OSError:
        path = ""
    if path and os.path.exists(path):
        return path
    raise SyncError("no box found: plug it in, or pass --port (USB ids looked for: %s)"
                    % ", ".join("%04x:%04x" % k for k in ids))


def open_serial(port: str):
    try:
        import serial
    except ImportError:
        raise SyncError("pyserial is not installed: pip install pyserial") from None
    if port == "auto":
        port = find_port()
    try:
        return serial.Serial(port, 115200, timeout=HostLink.READ_WAIT, write_timeout=5, exclusive=True)
    except (serial.SerialException, OSError, ValueError) as e:
        raise SyncError("cannot open %s: %s" % (port, e)) from None


class Syncer:
    def __init__(self, box: Box, sink, keys: Optional[dict] = None, progress: Callable[[str], None] = None,
                 chunk: int = 64, set_clock: bool = True):
        self.box = box
        self.sink = sink
        self.keys = keys or {}
        self.progress = progress or (lambda s: None)
        self.chunk = chunk
        self.set_clock = set_clock
        self.summary = Summary()

    def run(self, info: dict) -> Summary:
        box = self.box
        s = self.summary
        dev = info["device"]
        s.device = dev
        first, last, acked = info.get("first"), info["last"], info["acked"]
        s.acked = acked
        self.progress("box %s (firmware %s, board %s): records %s..%d, acknowledged up to %d, %d to sync"
                      % (dev, info.get("fw"), info.get("board"), first, last, acked, last - acked))
        if info.get("corrupt"):
            self.progress("WARNING: the box's journal is damaged (%s): records after it cannot be read" % info["corrupt"])
        if self.set_clock and isinstance(info.get("time"), int) and abs(info["time"] - time.time()) > 2:
            r = box.set_clock()
            self.progress("clock set (it was off by %+d s)" % (info["time"] - r.get("time", info["time"])))
        if last <= acked:
            return s
        if not info.get("keyed"):
            raise SyncError("box %s has no key, so its records cannot be signed: provision it "
                            "(python -m host_tools sync --port PORT --provision --key-file KEYS)" % dev)
        key = key_for(self.keys, dev)
        nxt = acked + 1
        while nxt <= last:
            recs: list[Record] = []
            while nxt <= last and len(recs) < self.chunk:
                got = box.records(nxt, min(255, last - nxt + 1, self.chunk - len(recs)))
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
                    if key is not None and not hmac.compare_digest(sign(key, dev, r.seq, r.payload), r.sig):
                        raise ProtocolError("record %d of %s fails its signature with the key in the key file: "
                                            "a wrong key file, or the record was altered; nothing of it is uploaded"
                                            % (r.seq, dev))
                    recs.append(r)
                    nxt += 1
            s.pulled += len(recs)
            self.progress("pulled %d..%d" % (recs[0].seq, recs[-1].seq))
            outcomes = self.sink.put([envelope(dev, r) for r in recs])
            top = None
            blocked = False
            for r, o in zip(recs, outcomes):
                if o.status == STORED:
                    s.uploaded += 1
                elif o.status == KNOWN:
                    s.known += 1
                else:
                    s.refused += 1
                    s.refusals.append((r.seq, o.code, o.message))
                    blocked = True
                if not blocked:
                    top = r.seq
            if top is not None:
                s.acked = box.ack(top)
                if s.acked < top:
                    raise ProtocolError("the box acknowledged only up to %d after ACK %d" % (s.acked, top))
                self.progress("stored on %s and acknowledged up to %d" % (self.sink.name, top))
            if blocked:
                return s
        return s


def sync(port: str, server: Optional[str] = None, offline: Optional[str] = None, key_file: Optional[str] = None,
         progress: Callable[[str], None] = None, timeout: float = 0.5, retries: int = 6, wake: float = 0.05,
         batch: bool = True, set_clock: bool = True, config: Optional[dict] = None, provision: bool = False,
         rekey: bool = False, http_timeout: float = 15.0, chunk: int = 64, ser=None,
         http_pause: float = 0.2, max_timeout: Optional[float] = None) -> Summary:
    """One sync run. Raises SyncError (the summary so far is on it as .summary)."""
    progress = progress or (lambda s: None)
    keys = load_keys(key_file)
    if server:
        sink = ServerSink(server, batch=batch, timeout=http_timeout, pause=http_pause)
    elif offline:
        sink = OfflineSink(offline)
    elif not (provision or rekey or config):
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
        if provision:
            do_provision(box, info, key_file, keys, progress)
            info = box.hello()
        if rekey:
            do_rekey(box, info, key_file, keys, progress)
        if sink is not None:
            syncer = Syncer(box, sink, keys, progress, chunk=chunk, set_clock=set_clock)
            syncer.run(info)
        elif set_clock and isinstance(info.get("time"), int) and abs(info["time"] - time.time()) > 2:
            box.set_clock()
        if config is not None:
            box.push_config(config)
            progress("session config sent to %s" % dev)
        try:
            box.bye()  # lets the box restore its REPL's Ctrl-C at once; it also does on its own
        except SyncError:
            progress("no reply to BYE (the box will time out the link by itself)")
        s = syncer.summary if syncer else Summary(device=dev)
        s.link = link.stats
        if s.refused:
            e = SyncError("the server refused %d record(s) of %s, which stay on the box (acknowledged up to %d): %s"
                          % (s.refused, dev, s.acked, "; ".join("seq %d: %s %s" % r for r in s.refusals[:5])))
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
        box.rekey(dev, old, new)
    except DeviceError:
        keys[dev] = old
        del keys[dev + "@previous"]
        save_keys(key_file, keys)
        raise
    progress("box %s has a new key (in %s; the old one as %s@previous): register it on the server" % (dev, key_file, dev))


def upload_dir(root: str, server: str, key_file: Optional[str] = None, progress=None, batch: bool = True,
               http_timeout: float = 15.0) -> Summary:
    """sync --upload DIR: send the files --offline wrote; stored ones move to <device>/uploaded/."""
    progress = progress or (lambda s: None)
    keys = load_keys(key_file)
    sink = ServerSink(server, batch=batch, timeout=http_timeout)
    s = Summary()
    try:
        if not os.path.isdir(root):
            raise SyncError("no such directory: %s" % root)
        for d in sorted(os.listdir(root)):
            ddir = os.path.join(root, d)
            if not os.path.isdir(ddir):
                continue
            names = sorted(n for n in os.listdir(ddir) if n.endswith(".json") and n[:-5].isdigit())
            for i in range(0, len(names), ServerSink.BATCH_MAX):
                part = names[i:i + ServerSink.BATCH_MAX]
                envs, paths = [], []
                for n in part:
                    p = os.path.join(ddir, n)
                    try:
                        env = json.load(open(p, encoding="utf-8"))
                        ok = (isinstance(env, dict) and set(env) == {"device", "seq", "payload", "sig"}
                              and env["seq"] == int(n[:-5]))
                        payload = base64.b64decode(env["payload"], validate=True) if ok else b""
                    except (ValueError, KeyError, TypeError, binascii.Error):
                        ok = False
                    key = key_for(keys, env["device"]) if ok else None
                    if ok and key is not None and not hmac.compare_digest(sign(key, env["device"], env["seq"], payload), env["sig"]):
                        ok = False
                    if not ok:
                        s.refused += 1
                        s.refusals.append((int(n[:-5]), 0, "%s is not a good record file" % p))
                        continue
                    envs.append(env)
                    paths.append(p)
                outcomes = sink.put(envs)
                for p, o in zip(paths, outcomes):
                    if o.status in (STORED, KNOWN):
                        if o.status == STORED:
                            s.uploaded += 1
                        else:
                            s.known += 1
                        up = os.path.join(ddir, "uploaded")
                        os.makedirs(up, exist_ok=True)
                        os.replace(p, os.path.join(up, os.path.basename(p)))
                    else:
                        s.refused += 1
                        s.refusals.append((int(os.path.basename(p)[:-5]), o.code, o.message))
                fsync_dir(ddir)
                if envs:
                    progress("%s: %d file(s) sent" % (d, len(envs)))
        if s.refused:
            e = SyncError("%d record file(s) refused, left in %s: %s" % (
                s.refused, root, "; ".join("seq %d: %s %s" % r for r in s.refusals[:5])))
            e.exit_code = EXIT_REFUSED
            raise e
        return s
    except SyncError as e:
        e.summary = s
        raise
    finally:
        sink.close()


def add_parser(sub) -> None:
    """The `sync` subcommand of host_tools/cli.py."""
    p = sub.add_parser("sync", help="pull new hands from a scoring box over USB serial and upload them",
                       description="Pull the box's unsynced journal records and upload them; the box is "
                                   "acknowledged only for what the server (or --offline DIR) stored. "
                                   "Progress goes to stderr, one summary line to stdout. Exit status: 0 done, "
                                   "1 failed (run again: it goes on where it stopped), 3 records refused.")
    p.add_argument("--port", help="serial port of the box, or 'auto'")
    p.add_argument("--server", metavar="URL", help="tournament server, e.g. http://10.0.0.2:8000")
    p.add_argument("--offline", metavar="DIR", help="store the records as files in DIR instead of uploading")
    p.add_argument("--upload", metavar="DIR", help="upload the files an --offline run stored (no box needed)")
    p.add_argument("--key-file", metavar="FILE", help="device keys, JSON {device: hex}: signatures are checked "
                                                      "here; --provision writes a new key to it")
    p.add_argument("--provision", action="store_true", help="give a box without a key its key (from/into --key-file)")
    p.add_argument("--rekey", action="store_true", help="change the box's key (the current one must be in --key-file)")
    p.add_argument("--config", metavar="FILE", help="after syncing, start the next session with this JSON config")
    p.add_argument("--no-clock", action="store_true", help="leave the box's clock alone")
    p.add_argument("--no-batch", action="store_true", help="upload one record per request")
    p.add_argument("--timeout", type=float, default=0.5, help="seconds before a request is sent again (default 0.5)")
    p.add_argument("--retries", type=int, default=6, help="resends before giving up (default 6)")
    p.add_argument("-q", "--quiet", action="store_true", help="no progress output")
    p.set_defaults(run=main)


def main(args) -> int:
    """The CLI (host_tools/cli.py's `sync` subcommand)."""
    quiet = getattr(args, "quiet", False)

    def progress(msg):
        if not quiet:
            print(msg, file=sys.stderr, flush=True)

    try:
        if args.upload:
            if not args.server:
                raise SyncError("--upload DIR needs --server URL")
            s = upload_dir(args.upload, args.server, args.key_file, progress, batch=not args.no_batch)
        else:
            if not args.port:
                raise SyncError("--port PORT (or --port auto) is needed")
            if args.server and args.offline:
                raise SyncError("--server or --offline, not both")
            config = None
            if args.config:
                try:
                    config = json.load(open(args.config, encoding="utf-8"))
                except (OSError, ValueError) as e:
                    raise SyncError("cannot read config %s: %s" % (args.config, e))
            s = sync(args.port, server=args.server, offline=args.offline, key_file=args.key_file, progress=progress,
                     timeout=args.timeout, retries=args.retries, batch=not args.no_batch, set_clock=not args.no_clock,
                     config=config, provision=args.provision, rekey=args.rekey)
    except SyncError as e:
        s = getattr(e, "summary", None)
        if s is not None:
            print(s.line(), flush=True)
        print("sync: error: %s" % e, file=sys.stderr, flush=True)
        return e.exit_code
    print(s.line(), flush=True)
    return EXIT_OK
