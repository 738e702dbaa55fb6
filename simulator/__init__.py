# The desktop simulator (README "Commands"). On CPython, which has no framebuf, it registers the
# pure-Python one (firmware/ui/framebuf_py.py) with the renderer: a MicroPython port has it built in.
import sys

if sys.implementation.name != "micropython":
    from firmware.ui import framebuf_py, render

    render.use_framebuf(framebuf_py)
