"""MongoDB's regular expressions (PCRE) in Python's ``re``: the escapes PCRE reads and ``re`` does not.

The server's middleware checks a ``startswith``/``endswith``/``substringof`` text as a JavaScript RegExp
without the ``u`` flag, where ``\\p``, ``\\Q`` or ``\\h`` are just the letters; MongoDB then reads the same
source with PCRE. Read here as PCRE does: ``\\Q…\\E`` (the text between, literally), ``\\p{..}``/``\\P{..}``
and ``\\pL`` for Unicode general categories (``L``, ``Lu``, ``Nd``, ``L&``, ``Any``...), ``\\h``/``\\H``
(horizontal blanks), ``\\v``/``\\V`` (vertical ones), ``\\R`` (a line break), ``\\e`` (escape) and ``\\cX``
(a control character). Not read (:class:`UnsupportedPattern`, the simulator's 500 naming it): script names
(``\\p{Greek}``), ``\\P`` inside a character class, ``\\X``, ``\\K``, ``\\C``, ``\\N`` and ``\\g``; and, as
PCRE keeps ``\\p{Lu}`` to upper case letters under the ``i`` flag, Python's case folding of such a class is a
difference left as is.
"""

from __future__ import annotations

import functools
import re
import sys
import unicodedata
from typing import Final

__all__ = ["UnsupportedPattern", "to_python"]

_HORIZONTAL: Final = "\\t \\xa0\\u1680\\u180e\\u2000-\\u200a\\u202f\\u205f\\u3000"
_VERTICAL: Final = "\\n\\x0b\\x0c\\r\\x85\\u2028\\u2029"
#: escapes PCRE reads as a class or a character, as ``re`` writes them inside a class
_CLASSES: Final = {"h": _HORIZONTAL, "v": _VERTICAL, "e": "\\x1b"}
_NEGATED: Final = {"H": _HORIZONTAL, "V": _VERTICAL}
_NOT_READ: Final = frozenset("XKCNg")
_GENERAL: Final = frozenset("CLMNPSZ")
#: Unicode's general categories
_CATEGORIES: Final = frozenset(
    "Cc Cf Cn Co Cs Ll Lm Lo Lt Lu Mc Me Mn Nd Nl No Pc Pd Pe Pf Pi Po Ps Sc Sk Sm So Zl Zp Zs".split()  # noqa: SIM905
)


class UnsupportedPattern(ValueError):
    """A PCRE construct this translation does not read (the reason names it)."""


def to_python(source: str) -> str:
    """``source`` (a PCRE pattern as MongoDB gets it) for Python's ``re``."""
    out: list[str] = []
    i, n = 0, len(source)
    in_class = False
    while i < n:
        c = source[i]
        if c == "\\" and i + 1 < n:
            letter = source[i + 1]
            if letter == "Q":
                end = source.find("\\E", i + 2)
                literal = source[i + 2 : n if end < 0 else end]
                out.append("".join(_escaped(char) for char in literal))
                i = n if end < 0 else end + 2
                continue
            if letter == "E":  # an \E without \Q: nothing
                i += 2
                continue
            if letter in "pP":
                name, i = _property_name(source, i + 2)
                ranges = _category(name)
                if letter == "P" and in_class:
                    raise UnsupportedPattern(f"\\P{{{name}}} inside a character class")
                out.append(ranges if in_class else f"[{'^' if letter == 'P' else ''}{ranges}]")
                continue
            if letter in _CLASSES:
                out.append(_CLASSES[letter] if in_class else f"[{_CLASSES[letter]}]")
                i += 2
                continue
            if letter in _NEGATED and not in_class:
                out.append(f"[^{_NEGATED[letter]}]")
                i += 2
                continue
            if letter == "R" and not in_class:
                out.append("(?:\\r\\n|[" + _VERTICAL + "])")
                i += 2
                continue
            if letter == "c" and i + 2 < n:
                out.append(_escaped(chr(ord(source[i + 2].upper()) ^ 0x40)))
                i += 3
                continue
            if letter in _NOT_READ or (letter in _NEGATED and in_class):
                raise UnsupportedPattern(f"the PCRE escape \\{letter}")
            out.append(source[i : i + 2])
            i += 2
            continue
        if c == "[" and not in_class:
            in_class = True
            out.append(c)
            # a "]" first (or after "^") is a literal in PCRE
            if source.startswith("^", i + 1):
                out.append("^")
                i += 1
            if source.startswith("]", i + 1):
                out.append("\\]")
                i += 1
        elif c == "]" and in_class:
            in_class = False
            out.append(c)
        else:
            out.append(c)
        i += 1
    return "".join(out)


def _escaped(char: str) -> str:
    return re.escape(char)


def _property_name(source: str, i: int) -> tuple[str, int]:
    """The property after ``\\p``: ``{Name}`` or one letter; and the index after it."""
    if source.startswith("{", i):
        end = source.find("}", i)
        if end < 0:
            raise UnsupportedPattern("\\p{ without its }")
        return source[i + 1 : end].replace(" ", "").replace("_", ""), end + 1
    if i < len(source):
        return source[i], i + 1
    raise UnsupportedPattern("\\p at the end of the pattern")


@functools.cache
def _category(name: str) -> str:
    """The code points of a Unicode general category (``L``, ``Lu``, ``L&``, ``Any``; ``^`` before the name
    negates it) as the ranges of a class."""
    negate = name.startswith("^")
    name = name.removeprefix("^")
    if name == "Any":
        wanted: frozenset[str] | None = None
    elif name == "L&":
        wanted = frozenset({"Lu", "Ll", "Lt"})
    elif name[:1] in _GENERAL and (len(name) == 1 or (len(name) == 2 and name in _CATEGORIES)):
        wanted = frozenset(c for c in _CATEGORIES if c.startswith(name))
    else:
        raise UnsupportedPattern(f"the Unicode property {name!r} (scripts and other names are not read here)")
    ranges: list[tuple[int, int]] = []
    for code in range(sys.maxunicode + 1):
        if (wanted is None or unicodedata.category(chr(code)) in wanted) != negate:
            if ranges and ranges[-1][1] == code - 1:
                ranges[-1] = (ranges[-1][0], code)
            else:
                ranges.append((code, code))
    return "".join(_escaped_code(a) if a == b else f"{_escaped_code(a)}-{_escaped_code(b)}" for a, b in ranges)


def _escaped_code(code: int) -> str:
    return f"\\U{code:08x}"
