# Puts tests/ on sys.path, so `from emulators import ...` works, and on CPython also tests/shims,
# whose pure-Python `framebuf` stands in for MicroPython's built-in one. Both runners (pytest and
# tests/mp_run.py) put this folder on sys.path, so each driver test starts with `import emu_path`.
import sys


def _up(path):
    i = path.rfind("/")
    return path[:i] if i > 0 else "."


_here = __file__ if "/" in __file__ else "./" + __file__
TESTS = _up(_up(_here))
if TESTS not in sys.path:
    sys.path.append(TESTS)
if sys.implementation.name != "micropython" and TESTS + "/shims" not in sys.path:
    sys.path.append(TESTS + "/shims")

MICROPYTHON = sys.implementation.name == "micropython"


def needs_micropython():
    """For a test that measures the heap (gc.mem_alloc: MicroPython only). Under pytest on CPython
    it is skipped, and says where it runs: test_drivers_on_micropython.py runs this module on
    the unix port and checks that every one of its tests passed there."""
    if not MICROPYTHON:
        import pytest
        pytest.skip("measures MicroPython's heap: runs on the unix port (test_drivers_on_micropython.py)")
