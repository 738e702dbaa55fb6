# What the organizer set for this box, kept on flash across sessions and power cuts: the referee
# PIN and the language of the tournament (the session config's "pin_mac" and "lang", which the
# server sends with every config: firmware/scorebook.py start). One line, "PIN_MAC LANG" ("-":
# none). The PIN is kept as the config brings it, its MAC with the box's key (protocol/sign.py
# pin_mac_hex): the flash holds no PIN either. A box that never had a config with one has the
# factory PIN (protocol/config.py FACTORY_PIN, stated in the README), and the language it booted
# with.
_HEX = b"0123456789abcdef"


def load(path):
    """(pin_mac, lang) kept at path, each None when there is none (no file, or a damaged one)."""
    try:
        with open(path, "rb") as f:
            parts = f.read(80).split()
    except OSError:
        return None, None
    mac = None
    if len(parts) > 0 and len(parts[0]) == 32:
        ok = True
        for ch in parts[0]:
            if ch not in _HEX:
                ok = False
        if ok:
            mac = parts[0].decode()
    lang = None
    if len(parts) > 1 and parts[1] in (b"cn", b"en"):
        lang = parts[1].decode()
    return mac, lang


def save(path, pin_mac, lang):
    """Write it whole to a new file, then rename over the old: a power cut keeps one or the other."""
    import os
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write("%s %s\n" % (pin_mac or "-", lang))
    try:
        os.rename(tmp, path)
    except OSError:   # a port whose rename does not replace
        try:
            os.remove(path)
        except OSError:
            pass
        os.rename(tmp, path)
