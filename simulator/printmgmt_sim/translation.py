"""The query breeze-mongodb 0.0.8 hands to MongoDB behind @sealsystems/odata-mongo: a ``$filter``'s query
document, the sort, the projection, ``$top``, ``$skip`` and the count (:func:`read_query`).

Each option is read by the SDK's :func:`printmgmt.server.read_option` (the server's grammar, its refusals and the
fields a filter names); this module builds the document from an accepted filter's tree. Only here is V8's check of
the regular expression a text function builds from its literal (:mod:`.jsregex`): the server answers 400 to an
invalid one. ``not`` is applied by rewriting (:func:`apply_not`), also into forms MongoDB itself then rejects.

``$filter``, ``$select`` and ``$orderby`` are read when non-empty, in that order; ``$top`` whenever present
(``parseInt``), ``$skip`` when non-empty; ``$inlinecount`` asks for the count unless absent, empty or ``none``.
Any other key starting with ``$`` is refused; other keys are ignored.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta, tzinfo
from functools import lru_cache
from typing import Any, Final

from printmgmt.server import (
    OBJECT_ID,
    JsDate,
    Node,
    Option,
    QueryRefused,
    member_key,
    number_to_string,
    read_option,
    tree_room,
)

from . import jsregex

__all__ = ["UNDEFINED", "ObjectId", "Regex", "ServerQuery", "apply_not", "date_to_string", "parse_filter"]
__all__ += ["parse_int", "parse_orderby", "parse_select", "query_document", "read_query"]

#: the keys the middleware passes on (any other key starting with "$" is a 400)
OPTIONS: Final = ("$filter", "$orderby", "$select", "$top", "$skip", "$inlinecount")
#: the order the middleware reads them in (the first refusal is the answer)
_READ: Final[tuple[Option, ...]] = ("$filter", "$select", "$orderby")


@dataclass(frozen=True, slots=True)
class ObjectId:
    """A MongoDB ObjectID; ``hex`` in lower case, as the driver's ``toHexString()`` writes it."""

    hex: str

    def __repr__(self) -> str:
        return f"ObjectId({self.hex!r})"


@dataclass(frozen=True, slots=True)
class Regex:
    """A JavaScript RegExp: ``source`` as its ``.source`` property reads (``/`` escaped), and ``flags``."""

    source: str
    flags: str

    def __repr__(self) -> str:
        return f"Regex({self.source!r}, {self.flags!r})"


class _Undefined:
    """JavaScript's ``undefined``: what breeze writes for a ``null`` literal."""

    __slots__ = ()

    def __repr__(self) -> str:
        return "UNDEFINED"

    def __reduce__(self) -> str:
        return "UNDEFINED"


#: The single ``undefined`` value (``{"f": UNDEFINED}`` for ``f eq null``).
UNDEFINED: Final = _Undefined()


@dataclass(frozen=True, slots=True)
class ServerQuery:
    """What the server makes of the query options (``collection.find(filter, options)``).

    ``limit``/``skip`` are ``parseInt`` results: ``float("nan")`` for NaN, ``None`` when not given.
    """

    filter: dict[str, Any]
    sort: list[tuple[str, str]] | None
    projection: dict[str, int] | None
    limit: int | float | None
    skip: int | float | None
    count: bool


_MONGO_OPS: Final = {"ne": "$ne", "gt": "$gt", "ge": "$gte", "lt": "$lt", "le": "$lte"}
_JS_OPS: Final = {"eq": "===", "ne": "!=", "gt": ">", "ge": ">=", "lt": "<", "le": "<="}
_OBJECTS: Final = (dict, list, ObjectId, Regex, JsDate)
#: De Morgan: the negation of an ``$and`` is an ``$or`` of the negations, and the reverse
_DUALS: Final = {"$and": "$or", "$or": "$and"}


class _Inheriting(dict[str, Any]):
    """A JavaScript object whose prototype was set by ``q["__proto__"] = v``: no key of its own, but
    ``for (k in q)`` (breeze's ``applyNot``) also walks the keys of ``v``."""

    __slots__ = ("prototype",)

    def __init__(self, prototype: Any) -> None:
        super().__init__()
        self.prototype = prototype


def _doc(key: str, value: Any) -> dict[str, Any]:
    # q["__proto__"] = v sets the prototype of a JS object instead of a key (ignored when v is no object)
    if key == "__proto__":
        return _Inheriting(value if isinstance(value, _OBJECTS) else None)
    return {key: value}


def _enumerable(query: dict[str, Any]) -> list[tuple[str, Any]]:
    """``for (k in query)``: its own keys, then those of its prototype chain (an array's are its indexes;
    an ObjectID's methods are not modelled)."""
    items = list(query.items())
    prototype = query.prototype if isinstance(query, _Inheriting) else None
    if isinstance(prototype, dict):
        items += _enumerable(prototype)
    elif isinstance(prototype, list):
        items += [(str(i), item) for i, item in enumerate(prototype)]
    return items


def _where(expression: str) -> dict[str, Any]:
    return {"$where": f"function() {{ return ({expression}); }}"}


class _Translator:
    """Builds the document of one filter tree that :func:`~printmgmt.server.read_option` accepted (its
    refusals are the SDK's; the only one left here is the regular expression's); ``tz`` is the server's zone
    (for ``String(date)`` in a regex). Node kinds are breeze's names (:class:`printmgmt.server.Node`)."""

    __slots__ = ("text", "tz")

    def __init__(self, text: str, tz: tzinfo) -> None:
        self.text = text
        self.tz = tz

    def query(self, node: Node, lambdas: tuple[str, ...] = ()) -> dict[str, Any]:
        kind = node.kind
        if kind == "op_bool":
            return self.compare(node, lambdas)
        if kind == "op_andOr":
            # a chain a op (b op (c …)) as a loop, the left operands first as breeze translates them
            spine = [node]
            while spine[-1].args[1].kind == "op_andOr":
                spine.append(spine[-1].args[1])
            lefts = [self.query(link.args[0], lambdas) for link in spine]
            result = self.query(spine[-1].args[1], lambdas)
            for link, left in zip(reversed(spine), reversed(lefts), strict=True):
                result = {"$and" if link.op == "and" else "$or": [left, result]}
            return result
        if kind == "fn":
            return self.function(node, lambdas)
        if kind == "op_unary":  # "not ": the SDK refuses a minus sign
            return apply_not(self.query(node.args[0], lambdas))
        return self.lambda_(node, lambdas)

    def compare(self, node: Node, lambdas: tuple[str, ...]) -> dict[str, Any]:
        op = node.op
        left, right = node.args
        if left.kind != "member":  # a condition compared with a boolean: only the boolean counts
            inner = self.query(left, lambdas)
            return inner if right.value is True else apply_not(inner)
        key = member_key(left.value, lambdas)
        if right.kind == "member":
            return _where(f"this.{key} {_JS_OPS[op]} this.{member_key(right.value, lambdas)}")
        value = self.value(right)
        return _doc(key, value if op == "eq" else {_MONGO_OPS[op]: value})

    def value(self, node: Node) -> Any:
        kind = node.kind
        if kind == "lit_string":
            return text_value(node.value)
        if kind == "lit_null":
            return UNDEFINED
        if kind == "lit_binary":
            return list(node.value)  # the tree is shared; the document is the caller's
        return node.value

    def function(self, node: Node, lambdas: tuple[str, ...]) -> dict[str, Any]:
        name = node.op
        first, second = node.args
        if name == "substringof":
            return _doc(member_key(second.value, lambdas), self.regex(name, first))
        key = member_key(first.value, lambdas)
        if second.kind != "member":
            return _doc(key, self.regex(name, second))
        other = member_key(second.value, lambdas)
        if name == "startswith":
            return _where(f"(new RegExp('^' + this.{other},'i')).test(this.{key})")
        return _where(f"(new RegExp(this.{other} + '$','i')).test(this.{key})")

    def regex(self, function: str, literal: Node) -> Regex:
        text = self.js_string(self.value(literal))
        pattern = {"startswith": "^" + text, "endswith": text + "$"}.get(function, text)
        made = js_regex(pattern)
        if isinstance(made, str):
            reason = f"not a valid JavaScript regular expression: /{pattern}/: {made}"
            raise QueryRefused("$filter", self.text, literal.pos, reason)
        return made

    def lambda_(self, node: Node, lambdas: tuple[str, ...]) -> dict[str, Any]:
        inner = (node.value, *lambdas)
        key = member_key(node.path, inner)
        sub = self.query(node.args[0], inner)
        if node.op == "any":
            return _doc(key, {"$elemMatch": sub})
        query = _doc(key, {"$not": {"$elemMatch": apply_not(sub)}})
        query[key + ".0"] = {"$exists": True}  # an empty array is not "all"
        return query

    def js_string(self, value: Any) -> str:
        """What JavaScript's ``+`` makes of a literal's value when it is joined to text."""
        if isinstance(value, str):
            return value
        if isinstance(value, bool):
            return "true" if value else "false"
        if isinstance(value, int | float):
            return number_to_string(float(value))
        if isinstance(value, ObjectId):
            return value.hex
        if isinstance(value, JsDate):
            return date_to_string(value, self.tz)
        if isinstance(value, list):
            return ",".join(value)
        return "undefined"


def text_value(text: str) -> str | ObjectId:
    """A quoted literal's value: 24 hex digits are an ObjectID (in lower case, as the driver keeps it)."""
    return ObjectId(text.lower()) if len(text) == 24 and OBJECT_ID.fullmatch(text) else text


@lru_cache(maxsize=256)
def js_regex(pattern: str) -> Regex | str:
    """``new RegExp(pattern, "i")``, or V8's complaint about the pattern."""
    try:
        jsregex.check(pattern)
    except jsregex.RegexError as error:
        return error.message
    return Regex(jsregex.source(pattern), "i")


def apply_not(query: dict[str, Any]) -> dict[str, Any]:
    """breeze's ``applyNot``: ``$ne`` for a plain value, ``$not`` for an object (also an ObjectId, a Date,
    a regex), De Morgan for ``$and``/``$or``, and an ``$or`` of the negations of a two-key document."""
    # a chain {$and: [a, {$or: [b, …]}]} as a loop: De Morgan on each link
    links: list[tuple[str, dict[str, Any]]] = []
    items = _enumerable(query)
    while len(items) == 1 and items[0][0] in _DUALS:
        key, (left, query) = items[0]
        links.append((_DUALS[key], left))
        items = _enumerable(query)
    results = [
        {_DUALS[key]: [apply_not(value[0]), apply_not(value[1])]}
        if key in _DUALS
        else {key: {"$not" if isinstance(value, _OBJECTS) else "$ne": value}}
        for key, value in items
    ]
    result = results[0] if len(results) == 1 else {"$or": results}
    for key, left in reversed(links):
        result = {key: [apply_not(left), result]}
    return result


# the simulator reads one text again for each page of a listing; a document is never changed
@lru_cache(maxsize=512)
def query_document(text: str, tz: tzinfo = UTC) -> dict[str, Any]:
    """The MongoDB query document breeze builds for a ``$filter`` text (zone-less datetimes in ``tz``), or
    :class:`~printmgmt.server.QueryRefused` (shared: read it, do not change it)."""
    tree = read_option("$filter", text, tz).accepted().tree
    assert tree is not None
    with tree_room(text):
        return _Translator(text, tz).query(tree)


def parse_filter(text: str, *, tz: tzinfo = UTC) -> dict[str, Any]:
    """The MongoDB query document breeze builds for a ``$filter`` text (zone-less datetimes in ``tz``)."""
    return query_document(text, tz)


def parse_orderby(text: str) -> list[tuple[str, str]]:
    """The sort breeze builds for an ``$orderby`` text: ``[("current.copies", "desc"), ...]``."""
    return list(read_option("$orderby", text).accepted().sort or ())


def parse_select(text: str) -> dict[str, int]:
    """The projection breeze builds for a ``$select`` text: ``{"current.printerName": 1, ...}``."""
    return dict(read_option("$select", text).accepted().projection or {})


def _js_text(value: str | Sequence[str]) -> str:
    """``String(value)``: a key given twice is an array, which JavaScript joins with commas."""
    return value if isinstance(value, str) else ",".join(value)


def read_query(options: Mapping[str, str | Sequence[str]], *, tz: tzinfo = UTC) -> ServerQuery:
    """The query the server runs for these options (as Express hands them over), or :class:`QueryRefused`."""
    for key, value in options.items():
        if key.startswith("$") and key not in OPTIONS:
            known = ", ".join(OPTIONS)
            hint = f"keys are case-sensitive: {key} -> {key.lower()}" if key.lower() in OPTIONS else None
            reason = hint or f"the server knows only the options {known}"
            raise QueryRefused(key, _js_text(value), None, reason)
    query: dict[str, Any] = {}
    projection: dict[str, int] | None = None
    sort: list[tuple[str, str]] | None = None
    for option in _READ:
        given = options.get(option)
        if given is None or given == "":
            continue
        if not isinstance(given, str):
            raise QueryRefused(option, _js_text(given), None, f"{option} is given more than once")
        if option == "$filter":
            query = query_document(given, tz)  # the reading's refusal, or its document
            continue
        reading = read_option(option, given, tz).accepted()
        if option == "$select":
            projection = reading.projection or None
        else:
            sort = None if reading.sort is None else list(reading.sort)
    top = options.get("$top")
    skip = options.get("$skip")
    count = options.get("$inlinecount")
    return ServerQuery(
        filter=query,
        sort=sort,
        projection=projection,
        limit=None if top is None else parse_int(_js_text(top)),
        # an empty $skip is skipped (JavaScript's truthiness); an array is always truthy
        skip=parse_int(_js_text(skip)) if skip is not None and skip != "" else None,
        count=bool(count) and count != "none" if isinstance(count, str) else count is not None,
    )


#: JavaScript's StrWhiteSpaceChar (WhiteSpace and LineTerminator), which parseInt skips at the start.
_JS_SPACE: Final = (
    "\t\n\v\f\r \u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a"
    "\u2028\u2029\u202f\u205f\u3000\ufeff"
)
_INT_PREFIX: Final = re.compile(r"[+-]?[0-9]+")


def parse_int(text: str) -> int | float:
    """``parseInt(text, 10)``: leading blanks, a sign, then as many digits as there are; else NaN."""
    match = _INT_PREFIX.match(text.lstrip(_JS_SPACE))
    if match is None:
        return math.nan
    digits = match.group()
    # a JS number is a double: the integer rounds to the nearest one (or Infinity)
    try:
        value = float(int(digits))
    except OverflowError:
        return -math.inf if digits.startswith("-") else math.inf
    return int(value) if math.isfinite(value) else value


_DAY_MS: Final = 86_400_000
_CYCLE_DAYS: Final = 146_097  # days in 400 Gregorian years
_EPOCH: Final = datetime(1970, 1, 1, tzinfo=UTC)
_MS: Final = timedelta(milliseconds=1)
#: the span Python's datetime holds (years 1-9999, a day inside at each end); offsets outside it use its ends
_FIRST_MS: Final = (datetime.min.replace(tzinfo=UTC) - _EPOCH) // _MS + _DAY_MS
_LAST_MS: Final = (datetime(9999, 12, 31, 23, 59, 59, tzinfo=UTC) - _EPOCH) // _MS - _DAY_MS
_WEEKDAYS: Final = ("Thu", "Fri", "Sat", "Sun", "Mon", "Tue", "Wed")  # 1970-01-01 was a Thursday
_MONTHS: Final = ("Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec")


def date_to_string(date: JsDate, tz: tzinfo) -> str:
    """``String(date)``: ``Wed Jan 01 2025 10:00:00 GMT+0000 (Coordinated Universal Time)``.

    The zone's name is ICU's long name in V8; here it is that name for UTC and ``tzinfo.tzname()`` otherwise.
    """
    if date.epoch_ms is None:
        return "Invalid Date"
    moment = (_EPOCH + min(max(date.epoch_ms, _FIRST_MS), _LAST_MS) * _MS).astimezone(tz)
    offset = (moment.utcoffset() or timedelta()) // _MS
    local = date.epoch_ms + offset
    days, ms = divmod(local, _DAY_MS)
    cycles, in_cycle = divmod(days, _CYCLE_DAYS)  # the calendar repeats every 400 years
    civil = _EPOCH + timedelta(days=in_cycle)
    year, month, day = civil.year + 400 * cycles, civil.month, civil.day
    seconds = ms // 1000
    minutes = int(offset / 60_000)  # V8 truncates an offset with seconds (LMT) toward zero
    sign = "+" if minutes >= 0 else "-"
    zone = "Coordinated Universal Time" if offset == 0 and tz is UTC else moment.tzname() or "UTC"
    year_text = f"{year:04d}" if year >= 0 else f"-{-year:06d}"
    return (
        f"{_WEEKDAYS[days % 7]} {_MONTHS[month - 1]} {day:02d} {year_text} "
        f"{seconds // 3600:02d}:{seconds // 60 % 60:02d}:{seconds % 60:02d} "
        f"GMT{sign}{abs(minutes) // 60:02d}{abs(minutes) % 60:02d} ({zone})"
    )
