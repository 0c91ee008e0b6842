"""JavaScript's number rules where breeze relies on them: ``parseFloat`` and ``String(n)``."""

from __future__ import annotations

import math
from decimal import Decimal


def number(value: float) -> int | float:
    """A JS number as Python holds it: ``int`` when integral and finite, else ``float``."""
    if math.isfinite(value) and value == int(value):
        return int(value)
    return value


def parse_float(text: str) -> int | float:
    """``parseFloat`` of a text the grammar accepted as a number (``-?digits[.digits]``)."""
    if len(text) < 16 and "." not in text:  # at most 15 digits: the double holds the integer exactly
        return int(text)
    return number(float(text))


def number_to_string(value: float) -> str:
    """``String(value)`` for a JS number (Number::toString, radix 10)."""
    if math.isnan(value):
        return "NaN"
    if value == 0:
        return "0"
    if value < 0:
        return "-" + number_to_string(-value)
    if math.isinf(value):
        return "Infinity"
    # repr() gives the shortest digits that round-trip, as JavaScript does; only the layout differs
    _, places, exponent = Decimal(repr(float(value))).normalize().as_tuple()
    digits = "".join(map(str, places))
    k = len(digits)
    n = k + int(exponent)  # the decimal point's place: value = 0.digits * 10**n
    if k <= n <= 21:
        return digits + "0" * (n - k)
    if 0 < n <= 21:
        return digits[:n] + "." + digits[n:]
    if -6 < n <= 0:
        return "0." + "0" * (-n) + digits
    head = digits[0] if k == 1 else digits[0] + "." + digits[1:]
    return f"{head}e{n - 1:+d}"
