# The flows of the table application, one module each; firmware/states.py lists them with their
# states. The resident flow (states.RESIDENT: the main screen) is loaded
# with the app; the others when the table enters one of their states, and dropped when it
# leaves it (App._tidy), so a step taken a few times a session costs no heap the rest of it.
import sys

from firmware.compat import MICROPYTHON

_PKG = "firmware.flows."
_ROOMY = 64 * 1024   # free heap above which modules loaded for a moment stay compiled
if MICROPYTHON:
    import gc as _gc


def roomy():
    """Whether the heap has room to keep what it would forget (the flows of every hand, a
    table read once a session): on a board with a big heap, nothing to gain by forgetting."""
    return MICROPYTHON and _gc.mem_free() > _ROOMY


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


def forget(full):
    """Forget a module: what only it holds goes with the next collection."""
    if full in sys.modules:
        del sys.modules[full]
        dot = full.rfind(".")
        pkg = sys.modules.get(full[:dot])
        if pkg is not None and hasattr(pkg, full[dot + 1:]):
            delattr(pkg, full[dot + 1:])


def drop(name):
    """Forget a flow, and the modules it names in USES (what it loads only for itself)."""
    m = sys.modules.get(_PKG + name)
    forget(_PKG + name)
    for other in getattr(m, "USES", ()):
        forget(other)


for _name in ("table",):   # states.RESIDENT (a test checks the two agree)
    load(_name)
