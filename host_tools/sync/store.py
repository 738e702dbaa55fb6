"""Records kept on the laptop: the offline store (--offline DIR, uploaded later with --upload
DIR) and the quarantine (--quarantine DIR: the records the server refused, with its reason, for
a referee). Every file is written to a temporary file, fsynced and renamed; paths are built
only from checked device ids (protocol.frames.device_id_ok) and seq numbers, and checked to stay
inside their folder.

    DIR/<device>/<seq, 10 digits>.json            an upload envelope {device, seq, payload, sig}
    DIR/<device>/uploaded/<seq>.json               ... once the server has it
    QDIR/<device>/<seq>.json                       {"envelope", "status", "reason", "server", "time"}
    QDIR/<device>/resolved/<seq>.json              ... once the server took it after all
"""
from __future__ import annotations

import json
import os
import time
from typing import Optional

from protocol import envelope as penvelope
from protocol.codec import device_id_ok
from protocol.sign import record_sig_ok

from .errors import EXIT_REFUSED, SyncError
from .keys import atomic_write, fsync_dir, key_for, load_keys
from .server import KNOWN, REFUSED, STORED, Outcome, ServerSink
from .summary import Summary
from .text import clean

ENVELOPE_KEYS = set(penvelope.FIELDS)


def _inside(root: str, *parts: str) -> str:
    """root/parts..., refusing any result outside root (a hostile id that got this far)."""
    if not device_id_ok(parts[0]):
        raise SyncError("refusing to store records under the device id %s" % clean(parts[0], 80))
    p = os.path.join(root, *parts)
    base = os.path.realpath(root)
    if os.path.commonpath([base, os.path.realpath(p)]) != base:
        raise SyncError("refusing to write %s: outside %s" % (clean(p), root))
    return p


def _makedirs(d: str) -> None:
    try:
        os.makedirs(d, exist_ok=True)
    except OSError as e:
        raise SyncError("cannot make the folder %s: %s" % (d, e)) from None


def seq_name(seq: int) -> str:
    return "%010d.json" % seq


def _read_json(path: str):
    try:
        with open(path, "rb") as f:
            return json.loads(f.read(1 << 20).decode("utf-8"))
    except FileNotFoundError:
        return None
    except (OSError, ValueError, RecursionError):
        return False  # there, but not a good file


class OfflineSink:
    """One JSON file per record: DIR/<device>/<seq>.json (the upload envelope)."""

    def __init__(self, root: str):
        self.root = root
        self.name = "files in %s" % root

    def made(self) -> None:
        """The folder, even when the box had nothing new (called once the box was read): the
        later `--upload DIR` then finds it (uploads 0) instead of failing "no such directory"."""
        _makedirs(self.root)

    def path(self, env: dict) -> str:
        return _inside(self.root, env["device"], seq_name(env["seq"]))

    def put(self, envs: list[dict]) -> list[Outcome]:
        out = []
        for env in envs:
            p = self.path(env)
            _makedirs(os.path.dirname(p))
            done = os.path.join(os.path.dirname(p), "uploaded", os.path.basename(p))
            existing = None
            for q in (p, done):
                got = _read_json(q)
                if got is not None:
                    existing = (q, got)
                    break
            if existing is not None:
                if existing[1] == env:
                    out.append(Outcome(KNOWN))
                else:  # a different record under this (device, seq): keep the file, refuse
                    out.append(Outcome(REFUSED, 409, "%s holds a different record" % existing[0]))
                continue
            try:
                atomic_write(p, (json.dumps(env, sort_keys=True) + "\n").encode())
            except OSError as e:
                raise SyncError("cannot write %s: %s" % (p, e))
            out.append(Outcome(STORED))
        return out

    def close(self):
        pass


class Quarantine:
    """The records a server refused, each with the reason, for a referee to look at."""

    def __init__(self, root: str):
        self.root = root

    def path(self, device: str, seq: int, resolved: bool = False) -> str:
        return _inside(self.root, device, *(("resolved",) if resolved else ()), seq_name(seq))

    def put(self, env: dict, outcome: Outcome, server: str) -> str:
        """Durable before the box is told to set the record aside."""
        p = self.path(env["device"], env["seq"])
        _makedirs(os.path.dirname(p))
        doc = {"envelope": env, "status": outcome.code, "reason": outcome.message, "server": server,
               "time": time.strftime("%Y-%m-%dT%H:%M:%S%z")}
        try:
            atomic_write(p, (json.dumps(doc, sort_keys=True, indent=1) + "\n").encode())
        except OSError as e:
            raise SyncError("cannot write %s: %s" % (p, e))
        return p

    def resolve(self, device: str, seq: int) -> Optional[str]:
        """The server took it after all: move its file to resolved/ (if this laptop has one)."""
        p = self.path(device, seq)
        if not os.path.exists(p):
            return None
        q = self.path(device, seq, resolved=True)
        _makedirs(os.path.dirname(q))
        try:
            os.replace(p, q)
        except OSError as e:
            raise SyncError("cannot move %s to %s: %s" % (p, q, e)) from None
        fsync_dir(os.path.dirname(p))
        return q

    def held(self, device: str) -> list[int]:
        d = _inside(self.root, device)
        try:
            names = os.listdir(d)
        except OSError:
            return []
        return sorted(int(n[:-5]) for n in names if n.endswith(".json") and n[:-5].isdigit())


def check_envelope(env, name: str, keys: dict) -> Optional[str]:
    """Why this file is not a good record envelope, or None."""
    if not isinstance(env, dict) or set(env) != ENVELOPE_KEYS:
        return "not a record envelope"
    dev, seq = env["device"], env["seq"]
    if not device_id_ok(dev) or not isinstance(seq, int) or isinstance(seq, bool) or seq_name(seq) != name:
        return "device or seq do not match the file name"
    try:
        payload = penvelope.decode_payload(env["payload"])
    except ValueError:
        return "payload is not base64"
    key = key_for(keys, dev)
    if key is not None and not record_sig_ok(key, dev, seq, payload, env["sig"]):
        return "signature does not match the key file"
    return None


def upload_dir(root: str, server: str, key_file: Optional[str] = None, progress=None, batch: bool = True,
               http_timeout: float = 15.0, quarantine: Optional[str] = None):
    """sync --upload DIR: send the files --offline wrote; stored ones move to <device>/uploaded/,
    refused ones (with --quarantine QDIR) to QDIR/<device>/ with the server's reason."""
    progress = progress or (lambda s: None)
    keys = load_keys(key_file)
    sink = ServerSink(server, batch=batch, timeout=http_timeout)
    quar = Quarantine(quarantine) if quarantine else None
    s = Summary()
    try:
        if not os.path.isdir(root):
            raise SyncError("no such directory: %s" % root)
        try:
            listing = sorted(os.listdir(root))
        except OSError as e:
            raise SyncError("cannot read %s: %s" % (root, e)) from None
        for d in listing:
            ddir = os.path.join(root, d)
            if not os.path.isdir(ddir) or not device_id_ok(d):
                continue
            try:
                names = sorted(n for n in os.listdir(ddir) if n.endswith(".json") and n[:-5].isdigit())
            except OSError as e:
                raise SyncError("cannot read %s: %s" % (ddir, e)) from None
            for i in range(0, len(names), penvelope.BATCH_MAX):
                envs, paths = [], []
                for n in names[i:i + penvelope.BATCH_MAX]:
                    p = os.path.join(ddir, n)
                    env = _read_json(p)
                    why = check_envelope(env, n, keys) if env else "not JSON"
                    if why is None and env["device"] != d:
                        why = "a record of %s in the folder of %s" % (clean(env["device"], 64), d)
                    if why:
                        s.refused += 1
                        s.refusals.append((int(n[:-5]), 0, "%s: %s" % (p, why)))
                        continue
                    envs.append(env)
                    paths.append(p)
                for p, env, o in zip(paths, envs, sink.put(envs)):
                    if o.kept:
                        s.count(o)
                        up = os.path.join(ddir, "uploaded")
                        _makedirs(up)
                        try:
                            os.replace(p, os.path.join(up, os.path.basename(p)))
                        except OSError as e:
                            raise SyncError("cannot move %s to %s: %s" % (p, up, e)) from None
                        continue
                    s.refused += 1
                    s.refusals.append((env["seq"], o.code, o.message))
                    if quar is not None:
                        why = "HTTP %d: %s" % (o.code, o.message)
                        quar.put(env, o, sink.name)
                        try:
                            os.remove(p)
                        except OSError as e:
                            raise SyncError("cannot remove %s: %s" % (p, e)) from None
                        s.set_aside.append((env["seq"], why))
                        s.aside.append((env["seq"], why))
                fsync_dir(ddir)
                if envs:
                    progress("%s: %d file(s) sent" % (d, len(envs)))
        if s.refused:
            where = ("set aside in %s" % quarantine) if quar is not None else ("left in %s" % root)
            e = SyncError("%d record file(s) refused, %s: %s" % (
                s.refused, where, "; ".join("seq %d: %s %s" % r for r in s.refusals[:5])))
            e.exit_code = EXIT_REFUSED
            raise e
        return s
    except SyncError as e:
        e.summary = s
        raise
    finally:
        sink.close()
