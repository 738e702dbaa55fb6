# The flows of the table application, one module each; firmware/states.py lists them with their
# states. The resident flow (states.RESIDENT: the main screen) is loaded
# with the app; the others when the table enters one of their states, and dropped when it
# leaves it (App._tidy), so a step taken a few times a session costs no heap the rest of it.
import sys

from firmware.heap import forget

_PKG = "firmware.flows."


def load(name):
    """The module of a flow, imported if it is not loaded."""
    full = _PKG + name
    m = sys.modules.get(full)
    if m is None:
        __import__(full)
        m = sys.modules[full]
    return m


def loaded(name):
    return _PKG + name in sys.modules


def drop(name):
    """Forget a flow, and the modules it names in USES (what it loads only for itself)."""
    m = sys.modules.get(_PKG + name)
    forget(_PKG + name)
    for other in getattr(m, "USES", ()):
        forget(other)


for _name in ("table",):   # states.RESIDENT (a test checks the two agree)
    load(_name)
