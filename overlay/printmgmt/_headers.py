"""Request headers checked by h11's rules where a caller's headers enter the SDK, before anything is sent: the
default transport would send some of what h11 refuses (``"X-A: b"`` as a name is a header of its own)."""

from __future__ import annotations

import re
from collections.abc import Mapping

from .errors import InvalidHeader

#: What a name never holds: anything but RFC 9110's ``tchar``.
_NOT_TCHAR = re.compile(rb"[^-!#$%&'*+.^_`|~0-9A-Za-z]")
#: What a value never holds (HTTP/1.1 allows spaces and tabs only between other characters).
_NEVER_IN_VALUE = re.compile(rb"[\x00\n\x0b\x0c\r]")
_BLANKS = (b" ", b"\t")

_NAMED = {0: "a NUL", 10: "a line feed (\\n)", 11: "a vertical tab", 12: "a form feed", 13: "a carriage return (\\r)"}


def check_headers(headers: Mapping[str, str] | Mapping[bytes, bytes], where: str) -> None:
    """:class:`~printmgmt.errors.InvalidHeader` for the first header of ``headers`` HTTP/1.1 cannot carry."""
    for name, value in headers.items():
        check_header(name, value, where)


def check_header(name: str | bytes, value: str | bytes, where: str) -> None:
    """:class:`~printmgmt.errors.InvalidHeader` unless ``name: value`` can be sent as it is (a ``str`` is sent
    in ASCII, as httpx encodes it); ``where`` says where it was given."""
    raw_name, bad = _encoded(name, "header name", where)
    if bad is None and ((found := _NOT_TCHAR.search(raw_name)) or not raw_name):
        bad = found.start() if found else 0
    if bad is not None:
        if not name:
            raise InvalidHeader(name="", where=where, reason="a header name is empty")
        # shown up to its first wrong character only: a name such as "Authorization: Bearer ..." holds a credential
        text = name.decode("latin-1") if isinstance(name, bytes) else name  # one character per byte
        excerpt = text[:bad] + ("…" if bad < len(text) - 1 else "")
        raise InvalidHeader(
            name=text[:bad],
            where=where,
            reason=f"header name {excerpt!r} holds {text[bad]!r} at position {bad}: a name is letters, digits and "
            "!#$%&'*+-.^_`|~ only",
        )
    shown = raw_name.decode("ascii")
    raw_value, bad = _encoded(value, f"the value of header {shown!r}", where)
    if bad is not None:
        reason = f"the value of header {shown!r} holds a character that is not ASCII at position {bad} (give bytes)"
        raise InvalidHeader(name=shown, where=where, reason=reason)
    found = _NEVER_IN_VALUE.search(raw_value)
    if found:
        what = f"holds {_NAMED[raw_value[found.start()]]} at position {found.start()}"
    elif raw_value[:1] in _BLANKS or raw_value[-1:] in _BLANKS:
        what = ("begins" if raw_value[:1] in _BLANKS else "ends") + " with a blank"
    else:
        return
    raise InvalidHeader(name=shown, where=where, reason=f"the value of header {shown!r} {what}")


def _encoded(text: object, what: str, where: str) -> tuple[bytes, int | None]:
    """``text`` as sent, and the position of its first character that is not ASCII (``None``: none)."""
    if isinstance(text, bytes):
        return text, None
    if not isinstance(text, str):
        raise TypeError(f"{where}: {what} must be a str or bytes, not {type(text).__name__}")
    try:
        return text.encode("ascii"), None
    except UnicodeEncodeError as exc:
        return b"", exc.start
