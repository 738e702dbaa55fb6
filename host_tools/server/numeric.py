"""Numbers typed by people or sent by clients, checked as text before anything parses them.

``Fraction("1e-10000000")`` builds a ten-million-digit integer and holds the server for minutes;
``int("9" * 100000)`` is slow too. So a number is first matched against a short pattern (at most
12 digits on each side of the point, no exponent), and only then converted. (The carry ratio
of a Guangdong final is checked so by its format: ``formats.guangdong_004.ratio_text``.)
"""
from __future__ import annotations

import re
from fractions import Fraction

_DECIMAL = re.compile(r"[+-]?[0-9]{1,12}(\.[0-9]{1,12})?")
_INT = re.compile(r"[+-]?[0-9]{1,12}")


class BadNumber(ValueError):
    pass


def decimal(text: str, what: str = "number", lo: Fraction | int | None = None, hi: Fraction | int | None = None) -> Fraction:
    """A decimal such as "12", "-3", "7.5" -> Fraction, within [lo, hi]."""
    if not isinstance(text, str) or not _DECIMAL.fullmatch(text.strip()):
        raise BadNumber("%s must be a number such as 12 or 7.5" % what)
    v = Fraction(text.strip())
    if (lo is not None and v < lo) or (hi is not None and v > hi):
        raise BadNumber("%s must be between %s and %s" % (what, lo, hi))
    return v


def integer(text: str, what: str = "number", lo: int | None = None, hi: int | None = None) -> int:
    if isinstance(text, bool):
        raise BadNumber("%s must be a whole number" % what)
    if isinstance(text, int):
        v = text
    elif isinstance(text, str) and _INT.fullmatch(text.strip()):
        v = int(text.strip())
    else:
        raise BadNumber("%s must be a whole number" % what)
    if (lo is not None and v < lo) or (hi is not None and v > hi):
        raise BadNumber("%s must be between %s and %s" % (what, lo, hi))
    return v


def is_number(text: str) -> bool:
    return isinstance(text, str) and bool(_DECIMAL.fullmatch(text.strip()))


def digits(text: str, most: int = 12) -> bool:
    """Only ASCII digits, 1..most of them (``str.isdigit`` takes "５" and "²" too)."""
    return isinstance(text, str) and 0 < len(text) <= most and text.isascii() and text.isdigit()
