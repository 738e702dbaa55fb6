# firmware/board/__init__.py's builder for a board without a port of its own (PLATFORM "parts":
# the desktop simulator's board, and the unix port's): the parts come from the module cfg.PARTS
# names (or mods["parts"]); keys still go through the keypad scanner and its debounce, tags
# through tile_tag, and screens through the renderer, as on a board.
from firmware.board.base import FramebufScreen, Hardware, _matrix, _renderer


def build_parts(cfg, parts):
    rows, cols = parts.key_pins(cfg.KEYPAD)
    display = FramebufScreen(parts.display(cfg.DISPLAY), _renderer(cfg))
    return Hardware(cfg, _matrix(cfg.KEYPAD, rows, cols), display, parts.reader(cfg.READER),
                    parts.unique_id)
