# tests/hw: board configs, the device main loop, the displayio backend, the firmware build and
# deploy, tile tags end to end. The emulators of tests/emulators and the framebuf shim of
# tests/shims are importable from here.
import os
import sys

TESTS = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
for _p in (TESTS, os.path.join(TESTS, "shims"), os.path.dirname(os.path.abspath(__file__))):
    if _p not in sys.path:
        sys.path.append(_p)
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
