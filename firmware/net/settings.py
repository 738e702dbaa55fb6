# The box's network settings on flash: Wi-Fi name, password and the tournament server's address.
# Set over the USB link by an authenticated request (firmware/net/link_request.py, the sync
# tool's `--wifi`), never typed on the keypad. One small JSON file beside the device key.
import json

FILE = "/net.json"
MAX_TEXT = 128  # bytes of each setting


def load(root):
    """{"ssid", "password", "server"} from flash, or None when unset or unreadable."""
    try:
        with open((root or "") + FILE) as f:
            s = json.loads(f.read())
    except (OSError, ValueError):
        return None
    return s if check(s) is None else None


def check(s):
    """None when s is a settings dict, else what is wrong with it."""
    if not isinstance(s, dict) or sorted(s) != ["password", "server", "ssid"]:
        return "settings are {ssid, password, server}"
    for k in ("ssid", "password", "server"):
        v = s[k]
        if not isinstance(v, str) or len(v.encode()) > MAX_TEXT:
            return "%s: text of at most %d bytes" % (k, MAX_TEXT)
    if not s["server"].startswith("http://"):
        return "server: an http:// address"
    return None


def save(root, s):
    path = (root or "") + FILE
    with open(path + ".tmp", "w") as f:
        f.write(json.dumps(s))
    import os
    os.rename(path + ".tmp", path)
