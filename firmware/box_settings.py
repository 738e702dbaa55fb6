# What the organizer set for this box, kept on flash across sessions and power cuts: the referee
# PIN and the language of the tournament (the session config's "pin" and "lang", which the
# server sends with every config: firmware/scorebook.py start). One line, "PIN LANG".
# Not in the journal: its records go to any host that asks (RECORDS is open), and the PIN must
# not; a session's record leaves it out (protocol/config.py PRIVATE).
# A box that has never had a config with a PIN has the factory PIN (protocol/config.py
# FACTORY_PIN, stated in the README), and the language it booted with.


def load(path):
    """(pin, lang) kept at path, each None when there is none (no file, or a damaged one)."""
    try:
        with open(path, "rb") as f:
            parts = f.read(64).split()
    except OSError:
        return None, None
    pin = None
    if len(parts) > 0 and 4 <= len(parts[0]) <= 8:
        digits = True
        for ch in parts[0]:
            if ch < 48 or ch > 57:
                digits = False
        if digits:
            pin = parts[0].decode()
    lang = None
    if len(parts) > 1 and parts[1] in (b"cn", b"en"):
        lang = parts[1].decode()
    return pin, lang


def save(path, pin, lang):
    """Write it whole to a new file, then rename over the old: a power cut keeps one or the other."""
    import os
    tmp = path + ".tmp"
    with open(tmp, "w") as f:
        f.write("%s %s\n" % (pin, lang))
    try:
        os.rename(tmp, path)
    except OSError:   # a port whose rename does not replace
        try:
            os.remove(path)
        except OSError:
            pass
        os.rename(tmp, path)
