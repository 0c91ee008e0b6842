"""List queries run with MongoDB's rules: the query document, sort, projection, skip and limit of a ``find``.

The real server hands the MongoDB objects its query middleware builds to ``collection.find(query, options)``.
Matching is mongomock's (``mongomock.filtering``: type brackets, so a Date never matches a number and a
regex never matches a number or an ObjectId; a path through an array matches if any element does;
``null`` matches null or missing; ``$ne``/``$not`` also match documents without the field), with what
mongomock lacks or reads otherwise done here:

- ``$where``: breeze's JavaScript forms, see :mod:`printmgmt_sim.jswhere` (evaluated after the other
  conditions of the same document; a JavaScript error fails the query);
- ``{$gte: null}`` and ``{$lte: null}`` match null or missing, as ``{$eq: null}``;
- a dotted path compared with null (``{"a.b": null}``, ``$ne``) follows MongoDB's rules where mongomock's
  do not: a path running through a value that is no object (``a: null``, ``a: 4``, an array element
  ``{b: 4}`` for ``a.b.c``) is missing there, so null matches it; array elements that are no objects do not
  count (``a: [1, null]`` has no ``a.b``). Inside ``$elemMatch`` mongomock's rules stay;
- sorting: ascending by an array's smallest element, descending by its largest (through arrays of
  documents too), missing as null, an empty array before null, values of different types in BSON order,
  ties in natural (insertion) order;
- skip and limit as the ``mongodb`` 3.6 driver passes them: NaN is 0, a limit of 0 is no limit, a negative
  limit is one batch of ``|n|``.

What MongoDB refuses (``$not`` of anything but a document or a regex, an empty ``$not``, a ``$where`` that is
not a string or stands inside ``$elemMatch``, a negative skip, an invalid regular expression) raises
:class:`QueryRejected`: the server answers 500.
"""

from __future__ import annotations

import functools
import math
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, Final

from mongomock import OperationFailure
from mongomock import filtering as _mongomock

from .jswhere import JsError, compile_where
from .model import Doc

__all__ = ["Find", "QueryRejected", "matcher", "order", "project", "window"]

#: mongomock's matcher and BSON-order wrapper (untyped there).
_filter_applies: Final[Callable[[Mapping[str, Any], Doc], bool]] = _mongomock.filter_applies
_bson_comparable: Final[Callable[[Any], Any]] = _mongomock.BsonComparable
_LOGICAL: Final = ("$and", "$or", "$nor")
#: the key of the dotted paths compared with null, evaluated here (no operator of MongoDB's)
_NULL_PATHS: Final = "$nullPaths"
#: Sort rank of an empty array: before null and missing (MongoDB's "undefined").
_EMPTY, _VALUE = 0, 1


class QueryRejected(Exception):
    """MongoDB refuses the query (its message); the server answers 500."""


@dataclass(frozen=True, slots=True)
class Find:
    """One ``collection.find(filter, {sort, projection, skip, limit})`` in the engine's types.

    ``filter`` holds ``bson.ObjectId``, compiled ``re.Pattern`` (case-insensitive JavaScript RegExps),
    ``datetime`` (JavaScript Dates) and None (breeze's ``undefined``); ``sort`` is ``[(path, 1 | -1)]``;
    ``skip`` and ``limit`` are what the driver was given (int, float, NaN).
    """

    filter: Mapping[str, Any] = field(default_factory=dict)
    sort: Sequence[tuple[str, int]] = ()
    projection: Mapping[str, int] | None = None
    skip: float = 0
    limit: float = 0


def matcher(query: Mapping[str, Any]) -> Callable[[Doc], bool]:
    """A predicate over stored documents; :class:`QueryRejected` where MongoDB refuses ``query``."""
    query = _flat(_checked(query, in_elem_match=False))
    if _has_where(query):
        return lambda doc: _apply(query, doc)
    return lambda doc: _filter(query, doc)


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
        wanted = None if in_elem_match or "." not in key or key.startswith("$") else _null_condition(item)
        if wanted is not None:
            out.setdefault(_NULL_PATHS, []).append((tuple(key.split(".")), wanted))
            continue
        if key == "$where":
            if in_elem_match:
                raise QueryRejected("$where can only be applied to the top-level document")
            if not isinstance(item, str):
                raise QueryRejected("$where got bad type")
        elif key == "$not":
            if isinstance(item, Mapping) and not item:
                raise QueryRejected("$not cannot be empty")
            if not isinstance(item, Mapping | re.Pattern):
                raise QueryRejected("$not needs a regex or a document")
        elif key in _LOGICAL and (not isinstance(item, list) or not item):
            raise QueryRejected(f"{key} must be a nonempty array")
        if key in ("$gte", "$lte") and item is None:
            key = "$eq"
        out[key] = _checked(item, in_elem_match=in_elem_match or key == "$elemMatch")
    return out


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
