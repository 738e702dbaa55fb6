# Hardware objects from a board config (board_configs/NAME.py; on a device the build installs the
# chosen one as the top-level module `board_config`).
#
#   cfg = board.load()               # board_config on a device, board.load("pico") on a laptop
#   hw = board.build(cfg)            # hw.keys, hw.display, hw.reader, hw.unique_id(), hw.cfg
#   k = hw.keys.poll()               # one key name ("0".."9", "A".."D", "*", "#") or None
#   hw.display.show(model, scroll)   # a screen model (title, lines, hint); hw.display.rows
#   r = hw.reader.poll()             # the reader driver itself: poll / read / write / halt, uid
#
# One builder per platform, each imported only by build() and only for its board:
#   micropython.py    `machine`'s buses and pins under the drivers of firmware/drivers/
#   circuitpython.py  `board` / `busio` / `digitalio` / `displayio`
#   parts.py          a board without a port of its own (PLATFORM "parts": the desktop
#                     simulator's), its parts from the module cfg.PARTS names
#   base.py           what they share: Hardware, the keypad scanner, the screens
# Tests pass stand-ins for the port's modules: build(cfg, mods={"machine": fake}).
#
# The "parts" module (or mods["parts"]) has, and this package never names it:
#   key_pins(KEYPAD) -> (rows, cols)   pins of a key matrix, for the keypad scanner
#   display(DISPLAY) -> dev            a framebuf.FrameBuffer with show(), as the SSD1306 driver
#   reader(READER)   -> reader         an object with the reader drivers' interface
#   unique_id()      -> bytes          what machine.unique_id() gives on a board
# so keys still go through the scanner and its debounce, tags through tile_tag, and screens
# through firmware/ui/render.py, as on a board.


def load(name=None):
    """The board config module: `board_config` when name is None, else board_configs.<name>.
    ValueError for a board that has no config."""
    if name is None:
        import board_config
        return board_config
    if not name or not all(c.isalpha() or c.isdigit() or c == "_" for c in name):
        raise ValueError("no board %r: board names are board_configs/NAME.py" % (name,))
    try:
        mod = __import__("board_configs." + name)
    except ImportError as e:
        if name in str(e):
            raise ValueError("no board %r (board_configs/%s.py does not exist)" % (name, name))
        raise
    return getattr(mod, name)


def _import(name):
    mod = __import__(name)
    for part in name.split(".")[1:]:
        mod = getattr(mod, part)
    return mod


def build(cfg, mods=None):
    from firmware.board.base import _mod
    plat = cfg.PLATFORM
    if plat == "micropython":
        from firmware.board.micropython import build_mp
        rp2 = _mod(mods, "_rp2") if cfg.KEYPAD.get("scanner") == "pio" else None
        return build_mp(cfg, _mod(mods, "machine"), rp2)
    if plat == "circuitpython":
        from firmware.board.circuitpython import build_cp
        return build_cp(cfg, mods)
    if plat == "parts":
        from firmware.board.parts import build_parts
        return build_parts(cfg, mods["parts"] if mods is not None and "parts" in mods else _import(cfg.PARTS))
    raise ValueError("unknown platform " + str(plat))
