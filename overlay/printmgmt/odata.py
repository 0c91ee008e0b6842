"""A small OData v2 ``$filter`` builder that writes only what the real server reads as meant (docs/paging.md).

    >>> from printmgmt import odata
    >>> f = (odata.field("status") == "Paused") & (odata.field("current/printerName") == "O'Brien")
    >>> str(f)
    "status eq 'Paused' and current/printerName eq 'O''Brien'"

The server gives ``and`` and ``or`` one precedence, grouped to the right, and lets ``not`` take everything after
it, so every mixture of ``&``, ``|`` and ``~`` is parenthesised; a negated ``==`` or ``!=`` is the opposite
comparison (MongoDB rejects the server's ``not`` of an equality with an id or a time), and ``~`` of ``&``/``|``
is pushed down to the comparisons:

    >>> str(odata.field("current/jobName").startswith("Inv") | ~(odata.field("current/copies") > 1))
    "startswith(current/jobName,'Inv') eq true or (not (current/copies gt 1))"
    >>> str(~((odata.field("status") == "Error") & (odata.field("current/copies") != 1)))
    "status ne 'Error' or current/copies eq 1"

Literals are typed (:func:`literal`; any other type raises ``TypeError`` before a request is made). A string of
24 hex digits, which the server turns into an ObjectId, is sent as ``guid'…'`` except against ``_id``. A
timezone-aware ``datetime`` compared with a field of epoch milliseconds (:data:`printmgmt.fields.EPOCH_MS_FIELDS`)
is sent as that number, else as ``datetime'…Z'``; a finer instant is rounded to the millisecond that keeps the
comparison's meaning (``==`` and ``!=`` with it raise ``ValueError``: no stored time can equal it):

    >>> str(odata.field("refId") == "67725342cfddd0c58b71cce6")
    "refId eq guid'67725342cfddd0c58b71cce6'"
    >>> from datetime import datetime, UTC
    >>> str(odata.field("current/checkinTime") > datetime(2020, 12, 18, 8, 35, 47, 459001, tzinfo=UTC))
    'current/checkinTime gt 1608280547459'
    >>> str(odata.field("validUntil") < datetime(2020, 12, 18, 8, 35, 47, 459000, tzinfo=UTC))
    "validUntil lt datetime'2020-12-18T08:35:47.459Z'"

The spec's fields are typed attributes of :data:`jobs` and :data:`printers` (wire paths, snake_case names):

    >>> str((odata.jobs.current.printer_name == "PRT-1") & (odata.jobs.stages.created_by == "checkin"))
    "current/printerName eq 'PRT-1' and stages/createdBy eq 'checkin'"

A path is refused unless the server's grammar reads it as that member path (``printmgmt.server.path_refusal``).
``startswith``, ``endswith`` and ``substringof`` escape their text (:func:`regex_literal`), since the server reads
it as a regular expression, and match ignoring case.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from functools import partialmethod
from typing import TYPE_CHECKING, Any, Final

from .fields import is_epoch_ms

__all__ = [
    "Expr",
    "Field",
    "and_",
    "endswith",
    "epoch_ms",
    "field",
    "jobs",
    "literal",
    "not_",
    "or_",
    "printers",
    "regex_literal",
    "startswith",
    "substringof",
    "to_filter",
]

Literal = str | int | float | bool | datetime | None

_EPOCH: Final = datetime(1970, 1, 1, tzinfo=UTC)
_MS: Final = timedelta(milliseconds=1)
# JavaScript numbers: integers beyond this are rounded by the server's parser
_SAFE_INT: Final = 2**53
_OBJECT_ID: Final = re.compile(r"[0-9A-Fa-f]{24}")
_NEGATED_EQUALITY: Final = {"eq": "ne", "ne": "eq"}


def literal(value: Literal) -> str:
    """Render ``value`` as an OData v2 literal the server reads as that value: ``str`` quoted (inner quotes doubled),
    ``bool`` ``true``/``false``, a number in plain decimals (never an exponent), ``None`` ``null``, an aware
    ``datetime`` ``datetime'…Z'`` in UTC."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    # int.__repr__/float.__repr__, not str()/repr(): an ``(int, Enum)`` member's str() is "Color.RED"
    if isinstance(value, int):
        if abs(value) > _SAFE_INT:
            raise ValueError(f"cannot use {int.__repr__(value)} in a filter: the server reads numbers as doubles")
        return int.__repr__(value)
    if isinstance(value, float):
        if not math.isfinite(value):
            raise ValueError(f"cannot use {value!r} in a filter")
        # the shortest digits that give back the double, positional: the server refuses exponents (1e+20)
        text = format(Decimal(float.__repr__(value)), "f")
        return text if "." in text else text + ".0"
    if isinstance(value, str):
        return "'" + value.replace("'", "''") + "'"
    if isinstance(value, datetime):
        utc = _utc(value)
        if utc.microsecond % 1000:
            raise ValueError(
                f"{value.isoformat()} is finer than the server's milliseconds: round it, or compare a field "
                "(odata.field(...) >= value rounds as the comparison needs)"
            )
        # isoformat always writes a 4-digit year (strftime("%Y") writes "999" for year 999); "Z", because
        # without a zone the server reads the local time of its own process
        spec = "seconds" if utc.microsecond == 0 else "milliseconds"
        return "datetime'" + utc.replace(tzinfo=None).isoformat(timespec=spec) + "Z'"
    raise TypeError(f"unsupported filter value type {type(value).__name__}: {value!r}")


def _utc(value: datetime) -> datetime:
    # aware means utcoffset() is not None; a tzinfo that returns None still leaves the time naive
    if value.utcoffset() is None:
        raise ValueError("use a timezone-aware datetime (naive times are ambiguous)")
    return value.astimezone(UTC)


def _to_millisecond(op: str, value: datetime) -> datetime:
    """``value`` on the server's millisecond grid, on the side that keeps ``op``'s meaning for stored times."""
    below = value.microsecond % 1000
    if not below:
        return value
    if op in _NEGATED_EQUALITY:
        outcome = "can never hold" if op == "eq" else "always holds"
        raise ValueError(
            f"{op} with {value.isoformat()} {outcome}: the server keeps milliseconds (round the time, or "
            "compare a range)"
        )
    floor = value - timedelta(microseconds=below)
    # x >= v and x < v hold for a whole millisecond x exactly when they hold for v's next millisecond;
    # x > v and x <= v exactly when they hold for v's own
    return floor + _MS if op in ("ge", "lt") else floor


def epoch_ms(value: datetime) -> int:
    """Milliseconds since the epoch, the unit of the server's time fields (``current/checkinTime``)."""
    # exact integer arithmetic (floored): int(value.timestamp() * 1000) loses a millisecond to float rounding,
    # e.g. 2004-05-29T15:36:20.893Z gave 1085844980892
    return (_utc(value) - _EPOCH) // _MS


def _join(op: str, exprs: tuple[Expr, ...]) -> Expr:
    if not exprs:
        raise ValueError(f"{op}_ needs at least one expression")
    for expr in exprs:
        if not isinstance(expr, Expr):
            raise TypeError(f"{op} combines filter expressions, not {type(expr).__name__}")
    if len(exprs) == 1:
        return exprs[0]
    # De Morgan in the builder: the server's own rewriting of not (a and b) may give a form MongoDB rejects
    return Expr(
        f" {op} ".join(e._operand_of(op) for e in exprs),
        op,
        negation=lambda: _join("or" if op == "and" else "and", tuple(not_(e) for e in exprs)),
    )


def and_(*exprs: Expr) -> Expr:
    return _join("and", exprs)


def or_(*exprs: Expr) -> Expr:
    return _join("or", exprs)


def not_(expr: Expr) -> Expr:
    """The negation of ``expr`` (``~expr``), in a form the server accepts and reads as meant."""
    if not isinstance(expr, Expr):
        raise TypeError(f"not_ takes a filter expression, not {type(expr).__name__}")
    if expr._negation is not None:
        return expr._negation()
    return Expr(f"not ({expr})", "not", negation=lambda: expr)


class Expr:
    """A boolean filter expression; combine with ``&``, ``|`` and ``~``; ``str()`` renders it."""

    __slots__ = ("_negation", "_op", "_text")

    # _op: None for comparisons and functions, else "and", "or" or "not"; _negation builds the expression's
    # negation in a form the server accepts (None: "not (...)")
    def __init__(self, text: str, op: str | None = None, negation: Callable[[], Expr] | None = None) -> None:
        self._text = text
        self._op = op
        self._negation = negation

    def __str__(self) -> str:
        return self._text

    def __repr__(self) -> str:
        return f"Expr({self._text!r})"

    def _operand_of(self, op: str) -> str:
        # parenthesised unless it is a comparison or of the same operator (a and (b and c) means (a and b) and c)
        return self._text if self._op is None or self._op == op else f"({self._text})"

    __and__ = and_
    __or__ = or_
    __invert__ = not_

    def __bool__(self) -> bool:
        raise TypeError("use & | ~ to combine filter expressions, not and/or/not")


class Field:
    """A member path such as ``status`` or ``current/printerName``; comparisons build :class:`Expr`."""

    __slots__ = ("path",)

    def __init__(self, path: str) -> None:
        if not isinstance(path, str):
            raise ValueError(f"not a field path: {path!r} (a str of names separated by '/')")
        # the server's own grammar decides (loaded with the first field)
        from .server import path_refusal

        refusal = path_refusal(path)
        if refusal is not None:
            raise ValueError(f"not a field path the server reads: {path!r} ({refusal})")
        self.path = path

    def __repr__(self) -> str:
        return f"field({self.path!r})"

    def _value(self, op: str, value: Literal) -> str:
        if isinstance(value, datetime):
            instant = _to_millisecond(op, _utc(value))
            # the server stores these as numbers and compares numbers: a datetime'…' literal would match nothing
            return str(epoch_ms(instant)) if is_epoch_ms(self.path) else literal(instant)
        if value is None and op not in _NEGATED_EQUALITY:
            raise ValueError(f"{op} null matches nothing on the server: compare null with == or !=")
        if isinstance(value, str) and _OBJECT_ID.fullmatch(value) and self.path.rsplit("/", 1)[-1] != "_id":
            # the server turns '<24 hex>' into an ObjectId; guid'…' stays the string
            return f"guid'{value}'"
        return literal(value)

    def _compare(self, op: str, value: Literal) -> Expr:
        text = f"{self.path} {op} {self._value(op, value)}"
        opposite = _NEGATED_EQUALITY.get(op)
        if opposite is None:
            # not (f lt v) is {f: {$not: {$lt: v}}}, which MongoDB accepts for every value
            return Expr(text)
        # the server's not (f eq v) is {f: {$not: v}}, which MongoDB rejects for an ObjectId or a date
        return Expr(text, negation=lambda: self._compare(opposite, value))

    __eq__ = partialmethod(_compare, "eq")  # type: ignore[assignment]
    __ne__ = partialmethod(_compare, "ne")  # type: ignore[assignment]
    __gt__ = partialmethod(_compare, "gt")
    __ge__ = partialmethod(_compare, "ge")
    __lt__ = partialmethod(_compare, "lt")
    __le__ = partialmethod(_compare, "le")
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


def regex_literal(text: str) -> str:
    r"""``text`` escaped for the server's regular expressions, so that it matches itself only: the server builds a
    ``$regex`` of the text of ``startswith``/``endswith``/``substringof`` as given (``new RegExp("^" + text, "i")``).

        >>> print(regex_literal("Pay (Q1) v1.2*"))
        Pay \(Q1\) v1\.2\*
    """
    from .server import escape_regex  # the server model's, loaded with the first text function

    return escape_regex(text)


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


def to_filter(value: Expr | str | None) -> str | None:
    """The ``$filter`` text for a builder expression or a raw filter string."""
    if value is None or isinstance(value, str):
        return value
    if isinstance(value, Expr):
        return str(value)
    raise TypeError(f"filter must be a str or an odata expression, not {type(value).__name__}")


if TYPE_CHECKING:
    from printmgmt_api.field_catalog import JobFields, PrinterFields

    #: A job's fields, typed, from the spec: ``odata.jobs.current.printer_name == "PRT-1"`` is
    #: ``current/printerName eq 'PRT-1'``; a misspelt name is a type checker's error. Nested objects are nested
    #: attributes; a path through an array of objects (``odata.jobs.stages.created_by``) matches any element.
    jobs: JobFields[Field]
    #: A printer's fields, typed, from the spec (``odata.printers.runtime.status == "idle"``).
    printers: PrinterFields[Field]


def __getattr__(name: str) -> Any:
    # the catalogue is built on first use: the command line imports this module to start, and needs none of it
    if name in ("jobs", "printers"):
        from printmgmt_api import field_catalog

        value = (field_catalog.JobFields if name == "jobs" else field_catalog.PrinterFields)(Field)
        globals()[name] = value
        return value
    raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
