"""What a box says, made safe to show and to use: the box is not trusted, whatever it sends
must neither crash the tool nor reach the terminal as control characters or escape sequences."""
from __future__ import annotations

import json
import unicodedata

# Categories never shown as they are: controls (C0, C1, DEL: escape sequences start with one),
# format characters (bidirectional overrides, zero-width), private use, surrogates, and line
# or paragraph separators.
_HIDDEN = ("Cc", "Cf", "Co", "Cs", "Cn", "Zl", "Zp")
MAX_DEPTH = 8  # a box's JSON replies are flat objects with a list or two inside


def clean(s, limit: int = 120) -> str:
    """s as printable text: any hidden character as \\xNN / \\uNNNN, cut to `limit` characters
    (with an ellipsis). Not a string: its repr, cleaned."""
    if not isinstance(s, str):
        s = repr(s)
    out = []
    n = 0
    for ch in s:
        if unicodedata.category(ch) in _HIDDEN:
            o = ord(ch)
            ch = "\\x%02x" % o if o < 0x100 else "\\u%04x" % o if o < 0x10000 else "\\U%08x" % o
        out.append(ch)
        n += len(ch)
        if n >= limit:
            out.append("…")
            break
    return "".join(out)


def _depth(text: str) -> int:
    """Deepest nesting of [ and { outside strings (the JSON is not parsed yet)."""
    depth = top = 0
    in_str = esc = False
    for ch in text:
        if in_str:
            if esc:
                esc = False
            elif ch == "\\":
                esc = True
            elif ch == '"':
                in_str = False
        elif ch == '"':
            in_str = True
        elif ch in "[{":
            depth += 1
            if depth > top:
                top = depth
        elif ch in "]}":
            depth -= 1
    return top


def parse_json(raw: bytes, what: str, kind=dict, max_depth: int = MAX_DEPTH):
    """A box's JSON reply -> the object, or ValueError with a message naming `what`: not UTF-8,
    not JSON, nested deeper than max_depth, not of the expected kind."""
    try:
        text = bytes(raw).decode("utf-8")
    except UnicodeDecodeError as e:
        raise ValueError("%s reply is not UTF-8 (byte %d)" % (what, e.start)) from None
    if _depth(text) > max_depth:
        raise ValueError("%s reply is nested more than %d deep" % (what, max_depth))
    try:
        obj = json.loads(text)
    except (ValueError, RecursionError):
        raise ValueError("%s reply is not JSON: %s" % (what, clean(text, 60))) from None
    if kind is not None and not isinstance(obj, kind):
        raise ValueError("%s reply is a JSON %s, not an object" % (what, type(obj).__name__))
    return obj
