"""Device keys on the laptop, and files written so that a crash leaves the old or the new one.

Key file (--key-file): JSON {"<device id>": "<64 hex digits>", ...}, or one bare hex key (for
every box). --provision adds a box's new key; --rekey keeps the old one as "<id>@previous"."""
from __future__ import annotations

import json
import os
import tempfile
from typing import Optional

from .errors import SyncError


def load_keys(path: Optional[str]) -> dict:
    """{device id: key bytes}; a bare hex key file gives {"*": key}."""
    if not path:
        return {}
    try:
        text = open(path, encoding="utf-8").read().strip()
    except FileNotFoundError:
        return {}
    except (OSError, UnicodeDecodeError) as e:
        raise SyncError("cannot read key file %s: %s" % (path, e))
    try:
        if text.startswith("{"):
            obj = json.loads(text)
            if not isinstance(obj, dict):
                raise ValueError("not a JSON object")
            return {str(k): _hexkey(v) for k, v in obj.items()}
        return {"*": _hexkey(text)}
    except (ValueError, RecursionError) as e:
        raise SyncError("key file %s: %s" % (path, e)) from None


def _hexkey(v) -> bytes:
    try:
        k = bytes.fromhex(v)
    except (TypeError, ValueError):
        raise ValueError("a key is 64 hex digits") from None
    if len(k) != 32:
        raise ValueError("a key is 64 hex digits (32 bytes), not %d bytes" % len(k))
    return k


def save_keys(path: str, keys: dict) -> None:
    text = json.dumps({k: v.hex() for k, v in sorted(keys.items())}, indent=1) + "\n"
    try:
        atomic_write(path, text.encode(), mode=0o600)
    except OSError as e:
        raise SyncError("cannot write the key file %s: %s" % (path, e)) from None


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
