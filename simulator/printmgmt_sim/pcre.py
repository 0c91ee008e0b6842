"""MongoDB's regular expressions: PCRE2 (the ``pcre2`` binding), compiled as MongoDB compiles a ``$regex``.

MongoDB (6.1 and later; ``mongo/util/pcre_util.cpp`` ``flagsToOptions``) compiles a pattern with
``PCRE2_UTF`` and the options its flags name: ``i`` caseless, ``m`` multiline, ``s`` dotall, ``x`` extended,
``u`` nothing more; any other flag is its error 51108. ``PCRE2_UCP`` is not set, so ``\\w``, ``\\d``, ``\\s``,
``\\b`` and the POSIX classes stay ASCII (a pattern may still ask for Unicode with a leading ``(*UCP)``);
``\\u`` is no escape (``PCRE2_ALT_BSUX`` is off), ``\\x{263A}``, ``\\o{101}``, ``\\z`` and ``\\G`` are.
Before compiling it refuses a pattern with a NUL and one longer than 32,764 bytes (``expression_leaf.cpp``,
``pcre.cpp``). The binding sets ``PCRE2_ALT_BSUX``, ``PCRE2_UCP`` and ``PCRE2_NEVER_BACKSLASH_C`` on its own;
they are taken off again here, through the binding's compiled layer (``pcre2._cy``, pinned), which also
matches without building a match object. The binding's library is built without ``\\C`` (one code unit),
so that escape is refused where MongoDB may read it.

The pattern is the RegExp's ``.source`` as the ``mongodb`` driver serializes it: a line terminator there is
already written as ``\\n``, ``\\r``, ``\\u2028`` or ``\\u2029``, so the last two are PCRE2's error, as on
the server. Lone UTF-16 surrogates become U+FFFD, as the driver's UTF-8 encoding writes them.
"""

from __future__ import annotations

import contextlib
import functools
from typing import Final, Protocol

import pcre2
from pcre2 import _cy

__all__ = ["InvalidRegex", "Pattern", "compile_regex"]

_UTF: Final = 0x00080000
_OPTIONS: Final = {"i": 0x00000008, "m": 0x00000400, "s": 0x00000020, "x": 0x00000080, "u": 0}
#: what the binding sets on its own and MongoDB does not: ALT_BSUX, UCP, NEVER_BACKSLASH_C
_NOT_MONGODB: Final = 0x00000002 | 0x00020000 | 0x00100000
_NO_CONTEXT: Final = _cy.create_match_context()
#: ``kMaxPatternLength``: the longest pattern MongoDB hands PCRE2, in bytes
MAX_PATTERN_BYTES: Final = 32764


class InvalidRegex(ValueError):
    """MongoDB refuses the pattern: the message is MongoDB's (``Regular expression is invalid: ...``)."""


class Pattern(Protocol):
    """A compiled pattern: ``search`` finds a match anywhere in a string (None when there is none)."""

    def search(self, string: str) -> object | None: ...


@functools.lru_cache(maxsize=256)
def compile_regex(source: str, flags: str = "") -> Pattern:
    """``source`` with ``flags`` compiled as MongoDB compiles a ``$regex``; :class:`InvalidRegex` where it
    refuses it."""
    options = _UTF
    for flag in flags:
        if flag not in _OPTIONS:
            raise InvalidRegex(f"$regex invalid flag in regex options: {flag}")
        options |= _OPTIONS[flag]
    if "\0" in source:
        raise InvalidRegex("Regular expression cannot contain an embedded null byte")
    source = _well_formed(source)
    if len(source.encode()) > MAX_PATTERN_BYTES:
        raise InvalidRegex(
            "Regular expression is invalid: pattern string is longer than the limit set by the application"
        )
    try:
        code = _cy.compile(source, options, _NOT_MONGODB)
    except pcre2.PatternError as exc:
        message = str(exc).split("; ", 1)[-1]
        raise InvalidRegex(f"Regular expression is invalid: {message}") from None
    with contextlib.suppress(pcre2.LibraryError):  # no JIT on this machine: the interpreter matches alike
        _cy.jit_compile(code)
    return _Compiled(code)


class _Compiled:
    """A compiled pattern that matches any text: lone surrogates (no UTF-8) read as U+FFFD."""

    __slots__ = ("_code",)

    def __init__(self, code: object) -> None:
        self._code = code

    def search(self, string: str) -> object | None:
        try:
            found: object | None = _search(self._code, string)
        except UnicodeEncodeError:
            found = _search(self._code, _well_formed(string))
        return found


def _search(code: object, string: str) -> object | None:
    """The binding's match data of ``code``'s first match in ``string`` (None: no match)."""
    data: object | None = _cy.match(code, string, len(string), 0, _NO_CONTEXT, 0)[0]
    return data


def _well_formed(text: str) -> str:
    """``text`` with surrogate pairs joined and lone surrogates as U+FFFD."""
    try:
        text.encode()
    except UnicodeEncodeError:
        return text.encode("utf-16", "surrogatepass").decode("utf-16", "replace")
    return text
