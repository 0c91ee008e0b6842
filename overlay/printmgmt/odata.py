"""A small OData v2 ``$filter`` builder with escaped literals.

    >>> from printmgmt import odata
    >>> f = (odata.field("status") == "Paused") & (odata.field("current/printerName") == "O'Brien")
    >>> str(f)
    "status eq 'Paused' and current/printerName eq 'O''Brien'"
    >>> str(odata.field("current/jobName").startswith("Inv") | ~(odata.field("copies") > 1))
    "startswith(current/jobName,'Inv') eq true or (not (copies gt 1))"

Literals are typed: ``str`` is single-quoted with inner quotes doubled, ``bool`` is ``true``/``false``,
``int``/``float`` are plain, ``None`` is ``null``, and a timezone-aware ``datetime`` is
``datetime'YYYY-MM-DDTHH:MM:SS[.fff]'`` in UTC, with the fraction it has. Any other type raises
``TypeError`` before a request is made.

The real server stores its times as epoch milliseconds and compares numbers, so a ``datetime`` compared with
a field the spec marks as epoch ms (:data:`printmgmt.fields.EPOCH_MS_FIELDS`) is sent as that number:

    >>> from datetime import datetime, UTC
    >>> str(odata.field("current/checkinTime") >= datetime(2020, 12, 18, 8, 35, 47, 459000, tzinfo=UTC))
    'current/checkinTime ge 1608280547459'
    >>> str(odata.field("validUntil") < datetime(2020, 12, 18, 8, 35, 47, 459000, tzinfo=UTC))
    "validUntil lt datetime'2020-12-18T08:35:47.459'"

Functions render in the form the server's OData middleware is tested with: ``startswith(f,'x') eq true``,
``endswith(f,'x') eq true`` and ``substringof('x',f) eq true``. Their text matches literally: the middleware
reads it as a regular expression, so :func:`regex_literal` escapes it (``startswith('v1.2')`` does not match
``v132``). Case is ignored, as the middleware does.
"""

from __future__ import annotations

import math
import re
from datetime import UTC, datetime, timedelta
from typing import Final

from .fields import is_epoch_ms

__all__ = [
    "Expr",
    "Field",
    "and_",
    "endswith",
    "epoch_ms",
    "field",
    "literal",
    "not_",
    "or_",
    "regex_literal",
    "startswith",
    "substringof",
    "to_filter",
]

Literal = str | int | float | bool | datetime | None

# a member path: OData identifiers separated by "/", as in current/printerName ("$" is not an identifier character)
_PATH: Final = re.compile(r"[A-Za-z_][A-Za-z0-9_]*(/[A-Za-z_][A-Za-z0-9_]*)*")
_EPOCH: Final = datetime(1970, 1, 1, tzinfo=UTC)
_MS: Final = timedelta(milliseconds=1)


def literal(value: Literal) -> str:
    """Render ``value`` as an OData v2 literal."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    # int.__repr__/float.__repr__, not str()/repr(): an ``(int, Enum)`` member's str() is "Color.RED"
    if isinstance(value, int):
        return int.__repr__(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"cannot use {value!r} in a filter")
        return float.__repr__(value)
    if isinstance(value, str):
        return "'" + value.replace("'", "''") + "'"
    if isinstance(value, datetime):
        # aware means utcoffset() is not None; a tzinfo that returns None still leaves the time naive
        if value.utcoffset() is None:
            raise ValueError("use a timezone-aware datetime in a filter (naive times are ambiguous)")
        # isoformat always writes a 4-digit year (strftime("%Y") writes "999" for year 999); the fraction is
        # written as far as it goes (OData allows up to 7 digits), so the literal is the instant given
        utc = value.astimezone(UTC).replace(tzinfo=None)
        if utc.microsecond == 0:
            spec = "seconds"
        elif utc.microsecond % 1000 == 0:
            spec = "milliseconds"
        else:
            spec = "microseconds"
        return "datetime'" + utc.isoformat(timespec=spec) + "'"
    raise TypeError(f"unsupported filter value type {type(value).__name__}: {value!r}")


def epoch_ms(value: datetime) -> int:
    """Milliseconds since the epoch, the unit of the server's time fields (``current/checkinTime``)."""
    if value.utcoffset() is None:
        raise ValueError("use a timezone-aware datetime (naive times are ambiguous)")
    # exact integer arithmetic (floored): int(value.timestamp() * 1000) loses a millisecond to float rounding,
    # e.g. 2004-05-29T15:36:20.893Z gave 1085844980892
    return (value - _EPOCH) // _MS


class Expr:
    """A boolean filter expression; combine with ``&``, ``|`` and ``~``; ``str()`` renders it."""

    __slots__ = ("_op", "_text")

    # _op: None for comparisons and functions, else "and", "or" or "not"
    def __init__(self, text: str, op: str | None = None) -> None:
        self._text = text
        self._op = op

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Expr({self._text!r})"

    def _operand_of(self, op: str) -> str:
        # Parenthesise every compound operand of another operator. OData gives "and" precedence over "or",
        # but the grammar of the server's OData middleware (breeze) may not: it can read and/or with equal
        # precedence and let "not" take everything to its right. Same-operator chains stay flat.
        return self._text if self._op is None or self._op == op else f"({self._text})"

    def __and__(self, other: Expr) -> Expr:
        return and_(self, other)

    def __or__(self, other: Expr) -> Expr:
        return or_(self, other)

    def __invert__(self) -> Expr:
        return not_(self)

    def __bool__(self) -> bool:
        raise TypeError("use & | ~ to combine filter expressions, not and/or/not")


class Field:
    """A member path such as ``status`` or ``current/printerName``; comparisons build :class:`Expr`."""

    __slots__ = ("path",)

    def __init__(self, path: str) -> None:
        if not isinstance(path, str) or not _PATH.fullmatch(path):
            raise ValueError(f"not a field path: {path!r} (use names separated by '/')")
        self.path = path

    def __repr__(self) -> str:
        return f"field({self.path!r})"

    def _compare(self, op: str, value: Literal) -> Expr:
        if isinstance(value, datetime) and is_epoch_ms(self.path):
            # the server stores these as numbers and compares numbers: a datetime'…' literal would match nothing
            return Expr(f"{self.path} {op} {epoch_ms(value)}")
        return Expr(f"{self.path} {op} {literal(value)}")

    def __eq__(self, value: Literal) -> Expr:  # type: ignore[override]
        return self._compare("eq", value)

    def __ne__(self, value: Literal) -> Expr:  # type: ignore[override]
        return self._compare("ne", value)

    def __gt__(self, value: Literal) -> Expr:
        return self._compare("gt", value)

    def __ge__(self, value: Literal) -> Expr:
        return self._compare("ge", value)

    def __lt__(self, value: Literal) -> Expr:
        return self._compare("lt", value)

    def __le__(self, value: Literal) -> Expr:
        return self._compare("le", value)

    __hash__ = None  # type: ignore[assignment]

    def startswith(self, prefix: str) -> Expr:
        return startswith(self, prefix)

    def endswith(self, suffix: str) -> Expr:
        return endswith(self, suffix)

    def contains(self, text: str) -> Expr:
        """``substringof('text', field) eq true``."""
        return substringof(text, self)


def field(path: str) -> Field:
    """A member path: ``field("current/printerName")``."""
    return Field(path)


def _as_field(value: Field | str) -> Field:
    return value if isinstance(value, Field) else Field(value)


#: The characters a JavaScript regular expression gives a meaning; each is escaped with a backslash, which
#: JavaScript accepts before exactly these (also in unicode mode), so nothing else is escaped.
_REGEX_SPECIAL: Final = re.compile(r"[\\^$.|?*+()\[\]{}]")


def regex_literal(text: str) -> str:
    r"""``text`` escaped for the server's regular expressions: it then matches itself only.

    The server's OData middleware (breeze-mongodb) turns ``startswith``/``endswith``/``substringof`` into
    MongoDB ``$regex`` queries built from the text as given (``new RegExp("^" + text, "i")``), so an unescaped
    ``.`` matches any character and an unbalanced ``(`` is an invalid expression (400).

        >>> print(regex_literal("Pay (Q1) v1.2*"))
        Pay \(Q1\) v1\.2\*
    """
    return _REGEX_SPECIAL.sub(lambda m: "\\" + m.group(0), text)


def _text_arg(value: str, what: str) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{what} takes a string, not {type(value).__name__}")
    return literal(regex_literal(value))


def startswith(member: Field | str, prefix: str) -> Expr:
    return Expr(f"startswith({_as_field(member).path},{_text_arg(prefix, 'startswith')}) eq true")


def endswith(member: Field | str, suffix: str) -> Expr:
    return Expr(f"endswith({_as_field(member).path},{_text_arg(suffix, 'endswith')}) eq true")


def substringof(text: str, member: Field | str) -> Expr:
    return Expr(f"substringof({_text_arg(text, 'substringof')},{_as_field(member).path}) eq true")


def _join(op: str, exprs: tuple[Expr, ...]) -> Expr:
    if not exprs:
        raise ValueError(f"{op}_ needs at least one expression")
    for expr in exprs:
        if not isinstance(expr, Expr):
            raise TypeError(f"{op} combines filter expressions, not {type(expr).__name__}")
    if len(exprs) == 1:
        return exprs[0]
    return Expr(f" {op} ".join(e._operand_of(op) for e in exprs), op)


def and_(*exprs: Expr) -> Expr:
    return _join("and", exprs)


def or_(*exprs: Expr) -> Expr:
    return _join("or", exprs)


def not_(expr: Expr) -> Expr:
    if not isinstance(expr, Expr):
        raise TypeError(f"not_ takes a filter expression, not {type(expr).__name__}")
    return Expr(f"not ({expr})", "not")


def to_filter(value: Expr | str | None) -> str | None:
    """The ``$filter`` text for a builder expression or a raw filter string."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, Expr):
        return str(value)
    raise TypeError(f"filter must be a str or an odata expression, not {type(value).__name__}")
