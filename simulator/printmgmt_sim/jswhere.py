"""The server-side JavaScript of a ``$where`` that breeze-mongodb writes, evaluated as MongoDB would run it.

breeze writes three forms, all ``function() { return (<clause>); }``:

- ``this.a.b <op> this.c`` (a field compared with a field), ``<op>`` one of ``=== != > >= < <=``;
- ``(new RegExp('^' + this.b,'i')).test(this.a)`` (``startswith(a, b)``);
- ``(new RegExp(this.b + '$','i')).test(this.a)`` (``endswith(a, b)``).

Values follow JavaScript: ``===`` is strict (an object, an array or an ObjectId is only ever equal to itself),
``!=`` is loose (``null != undefined`` is false, ``1 != '1'`` is false), the relational operators compare
strings as strings and everything else as numbers (``undefined`` is NaN: false). Reading a property of
``undefined`` or ``null`` (a missing intermediate object) throws, and a name with ``-`` reads as a
subtraction of an undefined variable: both are :class:`JsError`, which fails the whole query.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable
from datetime import datetime
from typing import Any, Final

from bson import ObjectId

__all__ = ["JsError", "compile_where"]

_PATH: Final = r"this\.([A-Za-z_][A-Za-z0-9_.\-]*)"
_COMPARE: Final = re.compile(rf"{_PATH} (===|!=|>=|<=|>|<) {_PATH}")
_STARTS: Final = re.compile(rf"\(new RegExp\('\^' \+ {_PATH},'i'\)\)\.test\({_PATH}\)")
_ENDS: Final = re.compile(rf"\(new RegExp\({_PATH} \+ '\$','i'\)\)\.test\({_PATH}\)")
#: What ``Number(text)`` reads in decimal (hex, octal and binary literals are not in the documents).
_JS_NUMBER: Final = re.compile(r"[+-]?(?:Infinity|(?:[0-9]+\.?[0-9]*|\.[0-9]+)(?:[eE][+-]?[0-9]+)?)")
_PREFIX: Final = "function() { return ("
_SUFFIX: Final = "); }"


class JsError(Exception):
    """The JavaScript threw (or is not a form breeze writes): MongoDB fails the query."""


class _Undefined:
    """JavaScript's ``undefined`` (a missing field), apart from ``null`` (None)."""

    __slots__ = ()


_UNDEFINED: Final = _Undefined()

Where = Callable[[dict[str, Any]], bool]


@functools.lru_cache(maxsize=64)
def compile_where(code: str) -> Where:
    """A predicate over documents for breeze's ``$where`` text; :class:`JsError` for any other code."""
    if not (code.startswith(_PREFIX) and code.endswith(_SUFFIX)):
        raise JsError(f"not a $where form this simulator runs: {code!r}")
    clause = code[len(_PREFIX) : -len(_SUFFIX)]
    if match := _COMPARE.fullmatch(clause):
        left, op, right = match.groups()
        compare = _OPERATORS[op]
        return lambda doc: compare(_read(doc, left), _read(doc, right))
    for form, anchor in ((_STARTS, "^{}"), (_ENDS, "{}$")):
        if match := form.fullmatch(clause):
            pattern_path, subject_path = match.groups()
            return _regex_test(anchor, pattern_path, subject_path)
    raise JsError(f"not a $where form this simulator runs: {code!r}")


def _regex_test(anchor: str, pattern_path: str, subject_path: str) -> Where:
    def test(doc: dict[str, Any]) -> bool:
        source = anchor.format(_to_string(_read(doc, pattern_path)))
        try:
            pattern = re.compile(source, re.IGNORECASE)
        except re.error as exc:
            raise JsError(f"SyntaxError: Invalid regular expression: /{source}/: {exc}") from None
        return pattern.search(_to_string(_read(doc, subject_path))) is not None

    return test


def _read(doc: dict[str, Any], path: str) -> Any:
    """``this.<path>``: a missing property is undefined; a property of undefined or null throws."""
    if "-" in path:
        name = path.split("-", 1)[1].split(".", 1)[0] or "-"
        raise JsError(f"ReferenceError: {name} is not defined")
    value: Any = doc
    for name in path.split("."):
        if value is _UNDEFINED or value is None:
            kind = "undefined" if value is _UNDEFINED else "null"
            raise JsError(f"TypeError: Cannot read property '{name}' of {kind}")
        value = value.get(name, _UNDEFINED) if isinstance(value, dict) else _UNDEFINED
    return value


# -- JavaScript's conversions and operators ----------------------------------------------------------


def _is_object(value: Any) -> bool:
    return isinstance(value, dict | list | ObjectId | datetime)


def _to_string(value: Any) -> str:
    if value is _UNDEFINED:
        return "undefined"
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, int | float):
        return _number_string(value)
    if isinstance(value, str):
        return value
    if isinstance(value, list):
        return ",".join("" if item is None or item is _UNDEFINED else _to_string(item) for item in value)
    if isinstance(value, ObjectId):
        return f'ObjectId("{value}")'
    return "[object Object]"


def _number_string(value: float) -> str:
    if isinstance(value, float) and value.is_integer() and abs(value) < 1e21:
        return str(int(value))
    return repr(value) if isinstance(value, float) else str(value)


def _to_number(value: Any) -> float:
    if value is _UNDEFINED:
        return math.nan
    if value is None:
        return 0.0
    if isinstance(value, bool | int | float):
        return float(value)
    if isinstance(value, datetime):
        return value.timestamp() * 1000
    text = _to_string(value).strip()
    if not text:
        return 0.0
    if not _JS_NUMBER.fullmatch(text):
        return math.nan
    return float(text)


def _to_primitive(value: Any) -> Any:
    if isinstance(value, datetime):
        return value.timestamp() * 1000
    return _to_string(value) if _is_object(value) else value


def _strict_equal(a: Any, b: Any) -> bool:
    if _is_object(a) or _is_object(b):
        return a is b
    if isinstance(a, bool) or isinstance(b, bool):
        return isinstance(a, bool) and isinstance(b, bool) and a == b
    if isinstance(a, int | float) and isinstance(b, int | float):
        return a == b
    return type(a) is type(b) and a == b


def _loose_equal(a: Any, b: Any) -> bool:
    nullish = (None, _UNDEFINED)
    if a in nullish or b in nullish:
        return a in nullish and b in nullish
    if _is_object(a) and _is_object(b):
        return a is b
    a, b = _to_primitive(a), _to_primitive(b)
    if isinstance(a, str) and isinstance(b, str):
        return a == b
    return _to_number(a) == _to_number(b)


def _less(a: Any, b: Any) -> bool | None:
    """The abstract relational comparison ``a < b``: None when either side is NaN (undefined)."""
    a, b = _to_primitive(a), _to_primitive(b)
    if isinstance(a, str) and isinstance(b, str):
        return a.encode("utf-16-be") < b.encode("utf-16-be")
    x, y = _to_number(a), _to_number(b)
    if math.isnan(x) or math.isnan(y):
        return None
    return x < y


_OPERATORS: Final[dict[str, Callable[[Any, Any], bool]]] = {
    "===": _strict_equal,
    "!=": lambda a, b: not _loose_equal(a, b),
    "<": lambda a, b: _less(a, b) is True,
    ">": lambda a, b: _less(b, a) is True,
    "<=": lambda a, b: _less(b, a) is False,
    ">=": lambda a, b: _less(a, b) is False,
}
