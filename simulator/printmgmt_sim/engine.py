"""List queries run with MongoDB's rules: the query document, sort, projection, skip and limit of a ``find``.

The real server hands the MongoDB objects its query middleware builds to ``collection.find(query, options)``.
Matching is mongomock's (``mongomock.filtering``: type brackets, so a Date never matches a number and a
regex never matches a number or an ObjectId; a path through an array matches if any element does;
``null`` matches null or missing; ``$ne``/``$not`` also match documents without the field), with what
mongomock lacks or reads otherwise done here:

- equality in BSON's type brackets: a boolean never equals a number (Python's ``True == 1`` does), a number
  never a string; documents equal field by field in order; an array equals a value when it is that value or
  one of its elements is (``$eq``, ``$ne`` and a plain ``{path: value}``);
- ``$gt``/``$gte``/``$lt``/``$lte`` of an array or a document: compared with the stored array and with each of
  its elements (mongomock: the whole array only), in BSON's order (a boolean after a number inside arrays too);
- ``$not`` of a dotted path negates the path's whole condition, as MongoDB's NOT node does: a path through
  null, a scalar or an empty array meets ``{"a.b": {$not: {$gt: 1}}}`` (mongomock tests ``$not`` once per
  value the path leads to, so where it leads to none the document was left out);
- regular expressions are PCRE2's, compiled as MongoDB compiles them (:mod:`printmgmt_sim.pcre`);
- ``$elemMatch`` with a query document reads an element that is an array as a document keyed ``"0"``,
  ``"1"``...: a named field is missing there (mongomock looks inside it), and skips elements that are no
  document or array, null too (where mongomock lets a ``$ne`` match them), as MongoDB's
  ``ElemMatchObjectMatchExpression`` does; each document is matched by all the rules here;
- the query's depth: a document nested deeper than :data:`MAX_DEPTH` levels (or the profile's) fails as
  MongoDB fails, and no depth the server accepts exhausts Python's stack (``$and``/``$or`` chains, which
  breeze nests one level per term, are read flat);

- ``$where``: breeze's JavaScript forms, see :mod:`printmgmt_sim.jswhere` (evaluated after the other
  conditions of the same document; a JavaScript error fails the query);
- ``{$gte: null}`` and ``{$lte: null}`` match null or missing, as ``{$eq: null}``;
- a dotted path compared with null (``{"a.b": null}``, ``$ne``) follows MongoDB's rules where mongomock's
  do not: a path running through a value that is no object (``a: null``, ``a: 4``, an array element
  ``{b: 4}`` for ``a.b.c``) is missing there, so null matches it; array elements that are no objects do not
  count (``a: [1, null]`` has no ``a.b``);
- sorting: ascending by an array's smallest element, descending by its largest (through arrays of
  documents too), missing as null, an empty array before null, values of different types in BSON order,
  ties in natural (insertion) order;
- skip and limit as the ``mongodb`` 3.6 driver passes them: NaN is 0, a limit of 0 is no limit, a negative
  limit is one batch of ``|n|``.

What MongoDB refuses (``$not`` of anything but a document of operators or a regex, an empty ``$not``, a
``$where`` that is not a string or stands inside ``$elemMatch``, a negative skip, an invalid regular
expression, a query nested too deep) raises :class:`QueryRejected`: the server answers 500.
"""

from __future__ import annotations

import functools
import math
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from bson import ObjectId
from bson.regex import Regex as BsonRegex
from mongomock import OperationFailure
from mongomock import filtering as _mongomock
from printmgmt_cli.profile import LIMITS
from printmgmt_cli.profile import MAX_DEPTH as _DEPTH

from .jswhere import JsError, compile_where
from .model import Doc
from .pcre import InvalidRegex, Pattern, compile_regex

__all__ = [
    "MAX_DEPTH",
    "Find",
    "QueryRejected",
    "Regex",
    "check_depth",
    "flat_chains",
    "matcher",
    "order",
    "project",
    "window",
]

#: mongomock's BSON-order wrapper, type brackets and "no such field" marker (untyped there).
_bson_comparable: Final[Callable[[Any], Any]] = _mongomock.BsonComparable
_bracket: Final[Callable[[Any], int]] = _mongomock._get_compare_type
_NOTHING: Final[Any] = vars(_mongomock)["NOTHING"]
#: mongomock's matcher class (untyped there)
_MongomockFilterer: Any = _mongomock._Filterer
#: How deep query documents may nest: MongoDB's limit of 100 levels (the profile's ``max_depth``).
MAX_DEPTH: Final = LIMITS[_DEPTH]
_LOGICAL: Final = ("$and", "$or", "$nor")
#: operators whose operand is a query or a path's condition again
_SUBQUERIES: Final = (*_LOGICAL, "$not", "$elemMatch")
#: the key of the dotted paths compared with null, evaluated here (no operator of MongoDB's)
_NULL_PATHS: Final = "$nullPaths"
#: the ordering operators with an array or document operand, as the engine's own operators (a scalar
#: operand keeps mongomock's), and what each asks of :func:`_bson_order`
_ORDER_TESTS: Final[Mapping[str, tuple[str, Callable[[int], bool]]]] = {
    "$gt": ("$gt(bson)", lambda found: found > 0),
    "$gte": ("$gte(bson)", lambda found: found >= 0),
    "$lt": ("$lt(bson)", lambda found: found < 0),
    "$lte": ("$lte(bson)", lambda found: found <= 0),
}
#: Sort rank of an empty array: before null and missing (MongoDB's "undefined").
_EMPTY, _VALUE = 0, 1


class QueryRejected(Exception):
    """MongoDB refuses the query (its message); the server answers 500."""


class Regex(BsonRegex[str]):
    """A regular expression in a query, matched with PCRE2 as MongoDB matches it (a ``bson`` Regex, which
    mongomock reads as one; its ``try_compile`` gives the PCRE2 pattern)."""

    __slots__ = ("_compiled",)

    def __init__(self, source: str, flags: str = "") -> None:
        """:class:`QueryRejected` with MongoDB's message where MongoDB refuses ``source`` or ``flags``."""
        try:
            self._compiled = compile_regex(source, flags)
        except InvalidRegex as exc:
            raise QueryRejected(str(exc)) from None
        super().__init__(source, flags)

    def try_compile(self) -> Pattern:  # type: ignore[override]
        return self._compiled


def _bson_equal(a: Any, b: Any) -> bool:
    """``a`` equals ``b`` in BSON: the same type bracket, then the same value (documents in field order)."""
    if _bracket(a) != _bracket(b):
        return False
    if isinstance(a, dict):
        return list(a) == list(b) and all(_bson_equal(a[key], b[key]) for key in a)
    if isinstance(a, list):
        return len(a) == len(b) and all(map(_bson_equal, a, b))
    return bool(a == b) or (isinstance(a, float) and a != a and b != b)  # NaN equals NaN in MongoDB


def _equals(value: Any, wanted: Any) -> bool:
    """MongoDB's ``{path: {$eq: wanted}}`` for one value the path leads to (missing equals null)."""
    if value is _NOTHING:
        return wanted is None
    if _bson_equal(value, wanted):
        return True
    return isinstance(value, list) and any(_bson_equal(item, wanted) for item in value)


def _bson_order(a: Any, b: Any) -> int:
    """-1, 0 or 1 as ``a`` sorts before, with or after ``b`` in BSON's order: type brackets first, arrays
    element by element, documents field by field (each field's bracket, then its name, then its value)."""
    bracket_a, bracket_b = _bracket(a), _bracket(b)
    if bracket_a != bracket_b:
        return -1 if bracket_a < bracket_b else 1
    if isinstance(a, dict):
        for (key_a, item_a), (key_b, item_b) in zip(a.items(), b.items(), strict=False):
            found = _sign(_bracket(item_a), _bracket(item_b)) or _sign(key_a, key_b) or _bson_order(item_a, item_b)
            if found:
                return found
        return _sign(len(a), len(b))
    if isinstance(a, list):
        for item_a, item_b in zip(a, b, strict=False):
            found = _bson_order(item_a, item_b)
            if found:
                return found
        return _sign(len(a), len(b))
    if a is None:
        return 0
    if (isinstance(a, float) and a != a) or (isinstance(b, float) and b != b):  # NaN: below every number
        return _sign(a == a, b == b)
    return _sign(a, b)


def _sign(a: Any, b: Any) -> int:
    return -1 if a < b else int(a > b)


def _ordered(holds: Callable[[int], bool]) -> Callable[[Any, Any], bool]:
    """``$gt`` and the like of an array or document operand: compared with the value, and with each element
    of an array value, in BSON's order (within the operand's bracket only)."""

    def compare(value: Any, operand: Any) -> bool:
        bracket = _bracket(operand)
        candidates = [value, *value] if isinstance(value, list) else [value]
        return any(
            item is not _NOTHING and _bracket(item) == bracket and holds(_bson_order(item, operand))
            for item in candidates
        )

    return compare


class _Filterer(_MongomockFilterer):  # type: ignore[misc]
    """mongomock's matcher with equality and order in BSON's type brackets and MongoDB's ``$elemMatch``."""

    def __init__(self) -> None:
        super().__init__()
        self._operator_map["$eq"] = _equals
        self._operator_map["$ne"] = lambda value, wanted: not _equals(value, wanted)
        for own, holds in _ORDER_TESTS.values():
            self._operator_map[own] = _ordered(holds)

    def _elem_match_op(self, doc_val: Any, query: Any) -> bool:
        if isinstance(query, _Evaluated):
            applies = _apply
        elif not isinstance(query, dict) or all(key.startswith("$") and key not in _LOGICAL for key in query):
            return bool(super()._elem_match_op(doc_val, query))  # {$gt: 1}: the elements themselves
        else:
            applies = self.apply
        if not isinstance(doc_val, list):
            return False
        for item in doc_val:
            if isinstance(item, list):  # an array as a document: its fields are "0", "1", ...
                item = {str(index): value for index, value in enumerate(item)}
            if isinstance(item, dict) and applies(query, item):
                return True
        return False


class _Evaluated(dict[str, Any]):
    """An ``$elemMatch`` query holding conditions evaluated here (a dotted path against null)."""

    __slots__ = ()


_filter_applies: Final[Callable[[Mapping[str, Any], Doc], bool]] = _Filterer().apply
#: Values whose Python equality is not BSON's: compared through ``$eq`` (strings, null and dates keep
#: mongomock's faster plain comparison, which agrees with BSON for them).
_NOT_PLAIN: Final = (bool, int, float, ObjectId, dict, list)


@dataclass(frozen=True, slots=True)
class Find:
    """One ``collection.find(filter, {sort, projection, skip, limit})`` in the engine's types.

    ``filter`` holds ``bson.ObjectId``, :class:`Regex` (JavaScript RegExps, as MongoDB reads them),
    ``datetime`` (JavaScript Dates) and None (breeze's ``undefined``); ``sort`` is ``[(path, 1 | -1)]``;
    ``skip`` and ``limit`` are what the driver was given (int, float, NaN); ``max_depth`` is the server's
    limit on nested documents.
    """

    filter: Mapping[str, Any] = field(default_factory=dict)
    sort: Sequence[tuple[str, int]] = ()
    projection: Mapping[str, int] | None = None
    skip: float = 0
    limit: float = 0
    max_depth: int = MAX_DEPTH


def matcher(query: Mapping[str, Any], *, max_depth: int = MAX_DEPTH) -> Callable[[Doc], bool]:
    """A predicate over stored documents; :class:`QueryRejected` where MongoDB refuses ``query`` (also when
    it nests deeper than ``max_depth`` documents)."""
    check_depth(query, max_depth)
    query = _flat(_checked(flat_chains(query), in_elem_match=False))
    if _has_where(query):
        return lambda doc: _apply(query, doc)
    return lambda doc: _filter(query, doc)


def check_depth(query: Any, max_depth: int = MAX_DEPTH) -> None:
    """:class:`QueryRejected` where ``query`` nests query documents deeper than ``max_depth`` levels, as
    MongoDB's query parser refuses it: the query is level 1, each document in an ``$and``/``$or``/``$nor``
    or an ``$elemMatch`` one level more (a path's operators, ``{$gt: 1}``, and values add none). Any depth
    is read without recursion."""
    stack: list[tuple[Any, int, bool]] = [(query, 1, True)]
    while stack:
        value, depth, is_query = stack.pop()
        if isinstance(value, list | tuple):
            stack.extend((item, depth, is_query) for item in value)
        elif isinstance(value, Mapping):
            if is_query and depth > max_depth:
                raise QueryRejected(f"exceeded maximum query tree depth of {max_depth}")
            for key, item in value.items():
                if key in _LOGICAL or key == "$elemMatch":
                    stack.append((item, depth + 1, True))
                elif is_query or key == "$not":
                    stack.append((item, depth, False))


def flat_chains(value: Any, leaf: Callable[[Any], Any] = lambda value: value) -> Any:
    """``value`` with nested ``$and``/``$or`` of the same operator read as one list (``{$or: [a, {$or: [b,
    c]}]}`` as ``{$or: [a, b, c]}``: the same query, which no length of a chain makes deep) and ``leaf`` of
    every value that is no document or array."""
    if isinstance(value, list | tuple):
        return [flat_chains(item, leaf) for item in value]
    if not isinstance(value, Mapping):
        return leaf(value)
    out: dict[str, Any] = {}
    for key, item in value.items():
        if key in ("$and", "$or") and isinstance(item, list | tuple):
            terms: list[Any] = []
            pending = list(reversed(item))
            while pending:
                term = pending.pop()
                inner = term.get(key) if isinstance(term, Mapping) and len(term) == 1 else None
                if isinstance(inner, list | tuple) and inner:
                    pending.extend(reversed(inner))
                else:
                    terms.append(flat_chains(term, leaf))
            out[key] = terms
        else:
            out[key] = flat_chains(item, leaf)
    return out


def _flat(query: Mapping[str, Any]) -> Mapping[str, Any]:
    """``{$and: [{a: x}, {b: y}]}`` as ``{a: x, b: y}`` where no key repeats: the same query, one matcher
    call less per document and level (breeze nests every ``and``)."""
    parts = query.get("$and")
    if len(query) != 1 or not isinstance(parts, list):
        return query
    merged: dict[str, Any] = {}
    for part in (_flat(part) for part in parts):
        if not isinstance(part, Mapping) or merged.keys() & part.keys():
            return query
        merged.update(part)
    return merged


def _filter(query: Mapping[str, Any], doc: Doc) -> bool:
    try:
        return _filter_applies(query, doc)
    except OperationFailure as exc:
        raise QueryRejected(str(exc)) from None


def _apply(query: Mapping[str, Any], doc: Doc) -> bool:
    """``query`` with ``$where`` clauses, evaluated after the other conditions of the same document."""
    rest: dict[str, Any] = {}
    wheres: list[str] = []
    for key, value in query.items():
        if key == "$where":
            wheres.append(value)
        elif key == _NULL_PATHS:
            if not all(_null_at(doc, parts) == wanted for parts, wanted in value):
                return False
        elif key in _LOGICAL and _has_where(value):
            results = (_apply(sub, doc) for sub in value)
            if key == "$and":
                holds = all(results)
            elif key == "$or":
                holds = any(results)
            else:
                holds = not any(results)
            if not holds:
                return False
        else:
            rest[key] = value
    if rest and not _filter(rest, doc):
        return False
    try:
        return all(compile_where(code)(doc) for code in wheres)
    except JsError as exc:
        raise QueryRejected(f"Executor error during find command :: caused by :: {exc}") from None


def _has_where(value: Any) -> bool:
    """Whether ``value`` holds a condition evaluated here (``$where``, a dotted path against null)."""
    if isinstance(value, Mapping):
        return (
            "$where" in value or _NULL_PATHS in value or any(_has_where(value[key]) for key in _LOGICAL if key in value)
        )
    return isinstance(value, list) and any(_has_where(item) for item in value)


def _null_at(value: Any, parts: Sequence[str]) -> bool:
    """Whether MongoDB's ``{path: null}`` matches ``value`` for the rest of the path ``parts``: the path is
    missing, null or runs through a value that is no object; through an array, for one of its objects."""
    if not parts:
        return value is None or (isinstance(value, list) and any(item is None for item in value))
    if isinstance(value, Mapping):
        return parts[0] not in value or _null_at(value[parts[0]], parts[1:])
    if isinstance(value, list):
        return any(_null_at(item, parts) for item in value if isinstance(item, Mapping))
    return True


def _null_condition(value: Any) -> bool | None:
    """For a path's condition: True where it asks for null (``None``, ``$eq``/``$gte``/``$lte`` null, not
    ``$ne`` null), False where it asks for not null, None for any other."""
    if value is None:
        return True
    if not isinstance(value, Mapping) or len(value) != 1:
        return None
    ((operator, operand),) = value.items()
    if operator in ("$eq", "$gte", "$lte") and operand is None:
        return True
    if operator == "$ne" and operand is None:
        return False
    if operator == "$not":
        inner = _null_condition(operand) if isinstance(operand, Mapping) else None
        return None if inner is None else not inner
    return None


def _checked(value: Any, *, in_elem_match: bool) -> Any:
    """``value`` with MongoDB's refusals raised and ``$gte``/``$lte`` of null read as ``$eq``."""
    if isinstance(value, list):
        return [_checked(item, in_elem_match=in_elem_match) for item in value]
    if not isinstance(value, Mapping):
        return value
    out: dict[str, Any] = {}
    for key, item in value.items():
        wanted = None if "." not in key or key.startswith("$") else _null_condition(item)
        if wanted is not None:
            out.setdefault(_NULL_PATHS, []).append((tuple(key.split(".")), wanted))
            continue
        if "." in key and not key.startswith("$") and isinstance(item, Mapping) and "$not" in item:
            # MongoDB's $not negates the whole path's condition; mongomock tests it once per value the path
            # leads to, so a path through null, a scalar or an empty array (no value) never met it
            _check_not(item["$not"])
            out.setdefault("$nor", []).append(_checked({key: item["$not"]}, in_elem_match=in_elem_match))
            item = {operator: operand for operator, operand in item.items() if operator != "$not"}
            if not item:
                continue
        if key == "$where":
            if in_elem_match:
                raise QueryRejected("$where can only be applied to the top-level document")
            if not isinstance(item, str):
                raise QueryRejected("$where got bad type")
        elif key == "$not":
            _check_not(item)
        elif key in _LOGICAL and (not isinstance(item, list) or not item):
            raise QueryRejected(f"{key} must be a nonempty array")
        if key in ("$gte", "$lte") and item is None:
            key = "$eq"
        elif key in _ORDER_TESTS and isinstance(item, list | Mapping):
            key = _ORDER_TESTS[key][0]
        if key in _SUBQUERIES or _is_operators(item):
            item = _checked(item, in_elem_match=in_elem_match or key == "$elemMatch")
            if key == "$elemMatch" and _has_where(item):
                item = _Evaluated(item)
        elif not key.startswith("$") and isinstance(item, _NOT_PLAIN):
            item = {"$eq": item}  # a value (a document or an array too) whose BSON equality is not Python's
        out[key] = [*item, *out[key]] if key == "$nor" and key in out else item
    return out


def _check_not(operand: Any) -> None:
    """:class:`QueryRejected` where MongoDB refuses ``{$not: operand}``."""
    if isinstance(operand, Mapping) and not operand:
        raise QueryRejected("$not cannot be empty")
    if not isinstance(operand, Mapping | BsonRegex):
        raise QueryRejected("$not needs a regex or a document")
    if isinstance(operand, Mapping):
        for operator in operand:
            if not operator.startswith("$") or operator in _LOGICAL:
                raise QueryRejected(f"unknown operator: {operator}")


def _is_operators(condition: Any) -> bool:
    """Whether a path's ``condition`` is a document of operators (``{$gt: 1}``), not a value to equal."""
    return isinstance(condition, Mapping) and any(key.startswith("$") for key in condition)


# -- sort ---------------------------------------------------------------------------------------------


def order(docs: Iterable[tuple[str, Doc]], sort: Sequence[tuple[str, int]]) -> list[str]:
    """The keys of ``(key, document)`` pairs in ``sort`` order (stable: ties keep the given order)."""
    rows = list(docs)
    for path, direction in reversed(sort):
        parts = tuple(path.split("."))
        descending = direction < 0
        rows.sort(key=lambda row: _sort_key(row[1], parts, descending), reverse=descending)
    return [key for key, _ in rows]


def _sort_key(doc: Doc, parts: tuple[str, ...], descending: bool) -> tuple[int, Any]:
    values = list(_sort_values(doc, parts))
    if values == [_EMPTY_ARRAY]:
        return _EMPTY, _bson_comparable(None)
    values = [None if value is _EMPTY_ARRAY else value for value in values] or [None]
    comparable = [_bson_comparable(value) for value in values]
    return _VALUE, (max if descending else min)(comparable)


class _EmptyArray:
    __slots__ = ()


_EMPTY_ARRAY: Final = _EmptyArray()


def _sort_values(value: Any, parts: tuple[str, ...]) -> Iterable[Any]:
    """The values a sort by ``parts`` sees in ``value``: array elements one by one, missing as None."""
    if not parts:
        if isinstance(value, list):
            if not value:
                yield _EMPTY_ARRAY
            yield from value
        else:
            yield value
        return
    if isinstance(value, list):
        if not value:
            yield None
        for item in value:
            yield from _sort_values(item, parts)
    elif isinstance(value, dict) and parts[0] in value:
        yield from _sort_values(value[parts[0]], parts[1:])
    else:
        yield None


# -- projection and window ----------------------------------------------------------------------------


def project(doc: Doc, projection: Mapping[str, int]) -> Doc:
    """An inclusion projection: the selected paths (through arrays of documents) and ``_id``, in the
    document's own field order."""
    return _project(doc, _tree(tuple(sorted(projection))), top=True)


@functools.lru_cache(maxsize=64)
def _tree(paths: tuple[str, ...]) -> dict[str, Any]:
    tree: dict[str, Any] = {}
    for path in paths:
        node = tree
        *heads, last = path.split(".")
        for head in heads:
            child = node.setdefault(head, {})
            if child is True:
                break
            node = child
        else:
            node[last] = True
    return tree


def _project(doc: Doc, tree: Mapping[str, Any], *, top: bool = False) -> Doc:
    out: Doc = {}
    for key, value in doc.items():
        sub = tree.get(key)
        if sub is True or (top and key == "_id"):
            out[key] = value
        elif sub is None:
            continue
        elif isinstance(value, dict):
            out[key] = _project(value, sub)
        elif isinstance(value, list):
            out[key] = [_project(item, sub) for item in value if isinstance(item, dict)]
    return out


def window(total: int, skip: float, limit: float, cap: int | None = None) -> slice:
    """The slice of ``total`` ordered matches a ``find`` with ``skip`` and ``limit`` returns.

    ``cap`` is a server-side page limit on top (the simulator's ``max_top``).
    """
    if math.isnan(skip):
        skip = 0
    if skip < 0:
        raise QueryRejected("skip value must be non-negative")
    if math.isnan(limit) or math.isinf(limit):
        limit = 0
    count = abs(int(limit))
    if cap is not None:
        count = cap if count == 0 else min(count, cap)
    start = min(int(skip), total) if math.isfinite(skip) else total
    return slice(start, None if count == 0 else start + count)
