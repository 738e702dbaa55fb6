# The running session's time as the server last set it (a referee's extension, issue 18.5), kept
# on flash so that a power cut does not take it back: the session's record in the journal holds
# the time the session began with, and the extension reaches the box only with a config
# (firmware/scorebook.py retime), which the table may not see again before its time runs out.
# One line of JSON, written whole and renamed over the old one; it names its session, so a file
# left from another session is never applied. Local to the box: the server already has the time.
import json

_KEYS = ("tournament", "session", "table")


def save(path, cfg):
    """Keep cfg's minutes and ends_at for the session cfg names."""
    import os
    kept = {"minutes": cfg.get("minutes"), "ends_at": cfg.get("ends_at")}
    for k in _KEYS:
        kept[k] = cfg.get(k)
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write(json.dumps(kept))
    try:
        os.rename(tmp, path)
    except OSError:   # a port whose rename does not replace
        forget(path)
        os.rename(tmp, path)


def load(path, cfg):
    """(minutes, ends_at) kept for the session cfg names, or None (none kept, another session's,
    or a damaged file)."""
    try:
        with open(path) as f:
            kept = json.loads(f.read(200))
    except (OSError, ValueError):
        return None
    if not isinstance(kept, dict):
        return None
    for k in _KEYS:
        if kept.get(k) != cfg.get(k):
            return None
    m = kept.get("minutes")
    e = kept.get("ends_at")
    if not (m is None or (type(m) is int and 0 < m < 10000)):
        return None
    if not (e is None or (type(e) is int and e > 0)):
        return None
    return m, e


def forget(path):
    import os
    try:
        os.remove(path)
    except OSError:
        pass
