# Keeping the heap: a module loaded for a moment is forgotten once it has done its work (a flow
# the table left, the config check, the journal's boot check, the session's replay), so the
# next collection takes what only it held (on a board running .mpy files: its code too). A heap
# with room keeps what it would load again soon.
import sys

from firmware.compat import MICROPYTHON

_ROOMY = 64 * 1024   # free heap above which modules loaded for a moment stay compiled
# free heap above which the flows every hand passes through (states.EVERY_HAND) stay compiled: on
# the stock build (.mpy files on littlefs) importing them again costs ~100 ms at a hand's first
# key (bench/pico_gc_steps.py), and its heap keeps them with room to spare (bench/pico_heap.py);
# below it (a build with more resident code) they go after each hand as before
HOT = 20 * 1024
if MICROPYTHON:
    import gc as _gc


def roomy(need=_ROOMY):
    """Whether the heap has room to keep what it would forget (a table read once a session;
    need=HOT: the flows of every hand): on a board with a big heap, nothing to gain by
    forgetting."""
    return MICROPYTHON and _gc.mem_free() > need


def forget(full):
    """Forget a module: what only it holds goes with the next collection."""
    if full in sys.modules:
        del sys.modules[full]
        dot = full.rfind(".")
        pkg = sys.modules.get(full[:dot])
        if pkg is not None and hasattr(pkg, full[dot + 1:]):
            delattr(pkg, full[dot + 1:])


def done_with(full):
    """Forget a module that ran once (at boot) when its code is in the heap: loaded from an .mpy
    file. Frozen, its code is in flash and forgetting it would only leave holes in the heap; on
    CPython the tests and the host's tools in the same process keep it."""
    m = sys.modules.get(full)
    if MICROPYTHON and m is not None and getattr(m, "__file__", "").endswith(".mpy"):
        forget(full)
