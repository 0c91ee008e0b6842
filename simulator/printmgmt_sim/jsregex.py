"""JavaScript RegExp syntax (V8, no ``u`` flag, with the web-compatibility rules of Annex B).

``new RegExp(text, "i")`` throws for an invalid pattern, which the server answers with 400; Python's ``re``
accepts and refuses other patterns (``(?i)`` is fine there, ``(?<n>…)`` is not), so the check is written
out here. Patterns are read as JavaScript does, in UTF-16 code units.
"""

from __future__ import annotations

import re
from typing import Final

#: V8's largest quantifier bound (kInfinity = kMaxInt); larger numbers are clamped to it
_INFINITY: Final = 2**31 - 1
_INTERVAL: Final = re.compile(r"\{([0-9]+)(?:(,)([0-9]*))?\}")
#: after ``\u`` in a group name
_NAME_ESCAPE: Final = re.compile(r"\{([0-9A-Fa-f]+)\}|([0-9A-Fa-f]{4})")
#: an escape in a class: ``\c`` and a letter, digit or ``_``; octal (at most 0o377); ``\xhh``, ``\uhhhh``
#: (without their digits the letter stands for itself); any other character
_CLASS_ESCAPE: Final = re.compile(
    r"\\(?:c([A-Za-z0-9_])|([0-3][0-7]{0,2}|[4-7][0-7]?)|x([0-9A-Fa-f]{2})|u([0-9A-Fa-f]{4})|([\s\S]))"
)
_SIMPLE: Final = re.compile(r"[^\\^$.*+?()\[\]{}|/\n\r\u2028\u2029]*")
#: a class atom's control escapes (``\b`` in a class is a backspace)
_CONTROL_ESCAPES: Final = {"b": 8, "f": 12, "n": 10, "r": 13, "t": 9, "v": 11}
_CLASS_ESCAPES: Final = frozenset("dDsSwW")
#: how ``.source`` writes line terminators
_LINE_TERMINATORS: Final = {"\n": "\\n", "\r": "\\r", "\u2028": "\\u2028", "\u2029": "\\u2029"}
#: an escape (a line terminator escaped or not counts as the terminator: ``.source`` drops the backslash)
_ESCAPES: Final = re.compile(r"\\?([\n\r\u2028\u2029])|\\[\s\S]?")
_CLASS: Final = r"\[(?:\\[\s\S]?|[^\\\]])*\]?"
#: what ``.source`` may rewrite: escapes, a whole class (``/`` stays unescaped in it), a ``/``
_SOURCE_PARTS: Final = re.compile(_ESCAPES.pattern + "|(" + _CLASS + ")|/")
#: V8's scan for a named group: escapes and classes are skipped; a ``(?<`` that is no lookbehind is one
_NAMED_GROUP_SCAN: Final = re.compile(r"\\[\s\S]?|" + _CLASS + r"|(\(\?<(?![=!]))")


class RegexError(Exception):
    """An invalid pattern: ``index`` (a UTF-16 code unit) and V8's message."""

    def __init__(self, index: int, message: str) -> None:
        super().__init__(message)
        self.index, self.message = index, message


def _units(text: str) -> str:
    """``text`` with every character one UTF-16 code unit (astral characters become surrogate pairs)."""
    if text.isascii() or all(ord(c) < 0x10000 for c in text):
        return text
    return "".join(
        c if ord(c) < 0x10000 else chr(0xD800 + ((ord(c) - 0x10000) >> 10)) + chr(0xDC00 + (ord(c) & 0x3FF))
        for c in text
    )


class _Checker:
    __slots__ = ("has_named", "named_refs", "names", "p", "s")

    def __init__(self, pattern: str) -> None:
        self.s = pattern
        self.p = 0
        self.names: set[str] = set()
        self.named_refs: list[tuple[int, str]] = []
        # V8's scan: is there a ``(?<`` that is not a lookbehind, outside classes and escapes?
        self.has_named = "(?<" in pattern and any(m.group(1) for m in _NAMED_GROUP_SCAN.finditer(pattern))

    def at(self, i: int = 0) -> str:
        j = self.p + i
        return self.s[j] if j < len(self.s) else ""

    def check(self) -> None:
        s = self.s
        stack: list[str] = []  # the kinds of the open groups
        quantifiable: str | None = None  # None: nothing to repeat; "lookbehind"; "atom"
        while True:
            simple = _SIMPLE.match(s, self.p)
            if simple is not None and simple.end() > self.p:
                # plain characters: the last one is the atom a following quantifier applies to
                self.p = simple.end()
                quantifiable = "atom"
            c = self.at()
            if c == "":
                if stack:
                    raise RegexError(self.p, "Unterminated group")
                break
            if c in "*+?" or (c == "{" and _INTERVAL.match(s, self.p)):
                if quantifiable is None:
                    raise RegexError(self.p, "Nothing to repeat")
                self._quantifier(quantifiable)
                quantifiable = None
            elif c in "|^$":
                self.p += 1
                quantifiable = None
            elif c == "(":
                stack.append(self._open_group())
                quantifiable = None
            elif c == ")":
                if not stack:
                    raise RegexError(self.p, "Unmatched ')'")
                kind = stack.pop()
                self.p += 1
                quantifiable = "lookbehind" if kind == "lookbehind" else "atom"
            elif c == "[":
                self._class()
                quantifiable = "atom"
            elif c == "\\":
                quantifiable = self._atom_escape()
            else:
                self.p += 1  # ".", "{", "}", "]", "/", line terminators: ordinary atoms
                quantifiable = "atom"
        for index, name in self.named_refs:
            if name not in self.names:
                raise RegexError(index, "Invalid named capture referenced")

    def _quantifier(self, quantifiable: str) -> None:
        start = self.p
        if self.at() == "{":
            interval = _INTERVAL.match(self.s, self.p)
            assert interval is not None
            low = min(int(interval.group(1)), _INFINITY)
            high = low if not interval.group(2) else min(int(interval.group(3) or _INFINITY), _INFINITY)
            if high < low:
                raise RegexError(start, "numbers out of order in {} quantifier")
            self.p = interval.end()
        else:
            self.p += 1
        if self.at() == "?":
            self.p += 1
        if quantifiable == "lookbehind":
            raise RegexError(start, "Invalid quantifier")

    def _open_group(self) -> str:
        start = self.p
        self.p += 1
        if self.at() != "?":
            return "group"
        nxt = self.at(1)
        if nxt in (":", "=", "!"):
            self.p += 2
            return "group"
        if nxt == "<":
            if self.at(2) in ("=", "!"):
                self.p += 3
                return "lookbehind"
            self.p += 2
            name = self._group_name()
            if name in self.names:
                raise RegexError(start, "Duplicate capture group name")
            self.names.add(name)
            return "group"
        raise RegexError(start, "Invalid group")

    def _group_name(self) -> str:
        """A group name after ``<``, up to and including ``>``."""
        start = self.p
        name: list[str] = []
        while True:
            c = self.at()
            if c == "\\" and self.at(1) == "u":
                escape = _NAME_ESCAPE.match(self.s, self.p + 2)
                if escape is None or int(code := escape.group(1) or escape.group(2), 16) > 0x10FFFF:
                    raise RegexError(start, "Invalid Unicode escape")
                self.p = escape.end()
                c = chr(int(code, 16))
            else:
                # surrogate pairs count as one character in a name
                if "\ud800" <= c <= "\udbff" and "\udc00" <= self.at(1) <= "\udfff":
                    c = (c + self.at(1)).encode("utf-16-le", "surrogatepass").decode("utf-16-le")
                    self.p += 1
                self.p += 1
            if name and c == ">":
                return "".join(name)
            valid = c in "$_" or c.isidentifier() if not name else c in "$\u200c\u200d" or ("a" + c).isidentifier()
            if c == "\\" or not c or not valid:
                raise RegexError(start, "Invalid capture group name")
            name.append(c)

    def _atom_escape(self) -> str | None:
        start = self.p
        c = self.at(1)
        if c == "":
            raise RegexError(start, "\\ at end of pattern")
        self.p += 2
        if c in "bB":
            return None  # assertions are not quantifiable
        if c == "k" and self.has_named:
            if self.at() != "<":
                raise RegexError(start, "Invalid named reference")
            self.p += 1
            self.named_refs.append((start, self._group_name()))
        return "atom"

    def _class(self) -> None:
        """A character class from ``[`` to ``]``; ranges must be in order."""
        self.p += 1
        if self.at() == "^":
            self.p += 1
        while True:
            c = self.at()
            if c == "":
                raise RegexError(self.p, "Unterminated character class")
            if c == "]":
                self.p += 1
                return
            first = self._class_atom()
            if self.at() != "-":
                continue
            self.p += 1
            if self.at() in ("", "]"):
                continue
            dash = self.p - 1
            second = self._class_atom()
            if first is not None and second is not None and first > second:
                raise RegexError(dash, "Range out of order in character class")

    def _class_atom(self) -> int | None:
        """One class atom: its code unit, or None for a class escape (``\\d``), which makes ``-`` literal."""
        c = self.at()
        if c != "\\":
            self.p += 1
            return ord(c)
        escape = _CLASS_ESCAPE.match(self.s, self.p)
        if escape is None:
            raise RegexError(self.p, "\\ at end of pattern")
        start, self.p = self.p, escape.end()
        control, octal, hex2, hex4, other = escape.groups()
        if control:
            return ord(control) % 32
        if octal:
            return int(octal, 8)
        if hex2 or hex4:
            return int(hex2 or hex4, 16)
        if other == "c":
            self.p -= 1  # a lone "\c" is a backslash; the "c" is read next
            return ord("\\")
        if other == "k" and self.has_named:
            raise RegexError(start, "Invalid escape")
        return None if other in _CLASS_ESCAPES else _CONTROL_ESCAPES.get(other, ord(other))


def check(pattern: str) -> None:
    """Raise :class:`RegexError` where ``new RegExp(pattern, "i")`` throws."""
    _Checker(_units(pattern)).check()


def source(pattern: str) -> str:
    """The RegExp's ``.source``: ``/`` outside a class escaped, line terminators written as escapes."""
    return _SOURCE_PARTS.sub(_source_part, pattern) if pattern else "(?:)"


def _source_part(part: re.Match[str]) -> str:
    if part.group(1):
        return _LINE_TERMINATORS[part.group(1)]
    if part.group() == "/":
        return "\\/"
    if part.group().startswith("["):
        return _ESCAPES.sub(_source_part, part.group())
    return part.group()
