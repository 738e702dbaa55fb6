# The pure-Python framebuf under its old name: it lives in firmware/ui/framebuf_py.py (CircuitPython
# boards ship it too); the simulator registers it for firmware/ui/render.py (simulator/parts.py).
from firmware.ui.framebuf_py import MONO_HLSB, MONO_VLSB, MVLSB, RGB565, FrameBuffer  # noqa: F401
