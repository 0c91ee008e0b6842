"""JavaScript's number rules where breeze relies on them: ``parseFloat``, ``parseInt`` and ``String(n)``."""

from __future__ import annotations

import math
import re
from decimal import Decimal
from typing import Final

#: JavaScript's StrWhiteSpaceChar (WhiteSpace and LineTerminator), which parseInt skips at the start.
_JS_SPACE: Final = (
    "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000\ufeff"
)
_INT_PREFIX: Final = re.compile(r"[+-]?[0-9]+")


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


def parse_int(text: str) -> int | float:
    """``parseInt(text, 10)``: leading blanks, a sign, then as many digits as there are; else NaN."""
    match = _INT_PREFIX.match(text.lstrip(_JS_SPACE))
    if match is None:
        return math.nan
    digits = match.group()
    # a JS number is a double: the integer rounds to the nearest one (or Infinity)
    try:
        return number(float(int(digits)))
    except OverflowError:
        return -math.inf if digits.startswith("-") else math.inf


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
