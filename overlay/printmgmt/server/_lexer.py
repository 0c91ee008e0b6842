"""The grammar's terminals, matched as the PEG grammar does, without backing off (possessive quantifiers): a
name is ``[A-Za-z_][A-Za-z0-9_-]+`` (at least two characters), ``a.b`` keeps ``a``, a path segment may not
begin with ``any``/``all``, a number has no exponent; and the literal shape of a filter (:func:`literal_shape`).
"""

from __future__ import annotations

import re
from typing import Final

_NAME: Final = r"[A-Za-z_][A-Za-z0-9_-]++"
#: an identifier: names joined by "." (only the first name counts)
IDENTIFIER: Final = re.compile(rf"{_NAME}(?:\.{_NAME})*+")
#: an identifier path: identifiers joined by "/", never into a segment starting with any/all
PATH: Final = re.compile(rf"{_NAME}(?:\.{_NAME})*+(?:(?!/any|/all)/{_NAME}(?:\.{_NAME})*+)*+")
NAME_START: Final = frozenset("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz_")
NAME_CHARS: Final = NAME_START | frozenset("0123456789-")
DIGITS: Final = frozenset("0123456789")
#: an integer: 0-9 alone or without a leading zero, optionally negative
INT: Final = re.compile(r"-?(?:[1-9][0-9]++|[0-9])")
#: a number's digits: an integer and its fraction, if any (group 1)
NUMBER: Final = re.compile(r"-?(?:[1-9][0-9]++|[0-9])(\.[0-9]++)?+")
NUMBER_SUFFIXES: Final = frozenset("mMfL")
UNRESERVED: Final = re.compile(r"[A-Za-z0-9_-]*+")
#: the text of a quoted string after its opening quote: '' is one quote, anything else but a quote counts
STRING_BODY: Final = re.compile(r"(?:''|[^'])*+")
GUID_BODY: Final = re.compile(r"[^']++")
HEX2: Final = re.compile(r"[0-9A-Fa-f]{2}")
_DATE: Final = r"\d{4}-(?:[01]\d|2[0-4])-(?:[0-2]\d|3[01])T(?:[01]\d|2[0-4]):(?:[0-5]\d|60)"
_SECONDS: Final = r"(?::(?:[0-5]\d|60)(?:\.\d++)?+)?+"
_ZONE: Final = r"(?:[+-](?:[01]\d|2[0-4]):(?:[0-5]\d|60)|Z)"
DATETIME: Final = re.compile(rf"{_DATE}{_SECONDS}{_ZONE}?+")
DATETIMEOFFSET: Final = re.compile(rf"{_DATE}{_SECONDS}{_ZONE}")
OBJECT_ID: Final = re.compile(r"[0-9a-fA-F]{24}")

COMPARISONS: Final = frozenset({"eq", "ne", "lt", "le", "gt", "ge"})
ARITHMETIC: Final = frozenset({"add", "sub", "mul", "div", "mod"})
LOGICAL: Final = frozenset({"and", "or"})
#: the functions the grammar knows, with the numbers of arguments it tries, in its order
FUNCTIONS: Final[dict[str, tuple[int, ...]]] = {
    **{"replace": (3,), "substring": (2, 3), "tolower": (1,), "toupper": (1,), "trim": (1,), "concat": (2,)},
    **{"length": (1,), "indexof": (2,), "second": (1,), "minute": (1,), "hour": (1,), "day": (1,), "month": (1,)},
    **{"year": (1,), "round": (1,), "floor": (1,), "ceiling": (1,), "isof": (1, 2), "substringof": (2,)},
    **{"startswith": (2,), "endswith": (2,)},
}
#: words the grammar reads only in lower case
KEYWORDS: Final = frozenset(
    {"and", "or", "not", "any", "all", "true", "false", "null", "asc", "desc"}
    | {"datetime", "datetimeoffset", "guid", "binary"}
    | COMPARISONS
    | ARITHMETIC
    | set(FUNCTIONS)
)
#: literals that a name may not begin with (the literal is read first)
LITERAL_WORDS: Final = ("null", "true", "false")


def path_value(written: str) -> str:
    """The path breeze keeps: each segment up to its first ``.`` (``a.b/c`` -> ``a/c``)."""
    if "." not in written:
        return written
    return "/".join(segment.partition(".")[0] for segment in written.split("/"))


# a plain quoted text (opened after no name character), a number between blanks, "(", "," and ")", or what stops
# a shape: a typed literal's quote (datetime'…'), %x27, "$"; the lookahead lets the search skip the rest at once
_LITERAL_OR_STOP: Final = re.compile(
    r"(?=['%$0-9-])(?:(?<![A-Za-z0-9_-])'((?:''|[^'])*+)'|(?<=[ (,])(-?+[0-9]++(?:\.[0-9]++)?+)(?=[ ),]|\Z)|'|%x27|\$)"
)
#: what makes a text's regular expression (``startswith``...) depend on its characters
_REGEX_MEANING: Final = frozenset("\\^$.|?*+()[]{}'")
_DIGIT_CLASS: Final = str.maketrans("123456789", "111111111")


def _text_shape(text: str) -> str:
    """A quoted text of the same kind: an ObjectId (24 hex digits) or a text, with letters (case-folded) or not."""
    if len(text) == 24 and OBJECT_ID.fullmatch(text):
        return "0" * 24 if text.isdigit() else "a" * 24
    return ("x" if text.lower() != text.upper() else "_") * len(text)


def literal_shape(text: str) -> str | None:
    """``text`` with each plain quoted text and each number replaced by one of the same length and kind, or
    ``None`` where a literal is not plain (a typed literal, ``%x27``, a number's ``$``).

    Texts of one shape differ only in values no rule of the grammar, the translation or the check looks at (a
    quoted text with no regular expression character, as an ObjectId or not, with letters or without; a number
    of at most 15 digits with the same digits zero): the server reads both alike.
    """
    # looked up by the text with nonzero digits made 1s and quoted letters a (hex) or x, where the shape hides them
    pieces = text.encode(errors="surrogatepass").translate(_NONZERO_AS_1).split(b"'")
    pieces[1::2] = [piece.translate(_LETTER_KINDS) for piece in pieces[1::2]]
    key = b"'".join(pieces)
    shape = _SHAPES.get(key)
    if shape is None:
        shape, between, literals = _shape(text)
        if shape is not None and not _NONZERO.search(between) and not _SPELT.search(literals):
            if len(_SHAPES) >= 512:
                _SHAPES.clear()
            _SHAPES[key] = shape
    return shape


_NONZERO_AS_1: Final = bytes.maketrans(b"23456789", b"11111111")
_LETTER_KINDS: Final = bytes.maketrans(b"abcdefABCDEFghijklmnopqrstuvwxyzGHIJKLMNOPQRSTUVWXYZ", b"a" * 12 + b"x" * 40)
_NONZERO: Final = re.compile("[1-9]")
_SPELT: Final = re.compile("[1-9A-Za-z]")
_SHAPES: dict[bytes, str] = {}


def _shape(text: str) -> tuple[str | None, str, str]:
    """The literal shape, and what of ``text`` it keeps as written: between literals, and in literals."""
    parts = _LITERAL_OR_STOP.split(text)  # [text between literals, quoted, number, text, ...]
    literals: list[str] = []
    for i in range(1, len(parts), 3):
        quoted, digits = parts[i], parts[i + 1]
        if quoted is not None:
            plain = _REGEX_MEANING.isdisjoint(quoted)
            parts[i] = f"'{_text_shape(quoted) if plain else quoted}'"
            literals += () if plain else (quoted,)
        elif digits is not None:
            # more digits than a double holds exactly: the number the server reads is not the one written
            short = len(digits) < 16
            parts[i + 1] = digits.translate(_DIGIT_CLASS) if short else digits
            literals += () if short else (digits,)
        else:
            return None, "", ""
    return "".join(filter(None, parts)), "".join(parts[::3]), "".join(literals)
