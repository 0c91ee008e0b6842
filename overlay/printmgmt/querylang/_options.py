"""The query options as breeze-mongodb 0.0.8 reads them behind @sealsystems/odata-mongo.

``$filter``, ``$select`` and ``$orderby`` are read when non-empty, in that order; ``$top`` whenever present
(``parseInt``), ``$skip`` when non-empty; ``$inlinecount`` asks for the count unless absent, empty or
``none``. Any other key starting with ``$`` is refused; other keys are ignored.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from datetime import UTC, tzinfo
from functools import lru_cache
from typing import Any, Final

from ._js import parse_int
from ._mongo import Translator, Untranslatable
from ._parser import Node, Parser
from ._reasons import explain
from ._values import QueryRefused

#: the keys the middleware passes on (any other key starting with "$" is a 400)
OPTIONS: Final = ("$filter", "$orderby", "$select", "$top", "$skip", "$inlinecount")


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


def parse_tree(text: str, tz: tzinfo = UTC) -> Node:
    """The filter's tree, or :class:`QueryRefused` where the grammar refuses it."""
    tree = _tree(text, tz)
    if isinstance(tree, Node):
        return tree
    raise QueryRefused("$filter", text, *tree)


# A list call, its pages and the checks before it read one filter several times; trees are never changed
#: the refusal for parentheses nested deeper than Python's recursion allows (the server reads 1,000 levels)
TOO_DEEP: Final = "the filter nests parentheses too deeply for this reader (about 200 levels at most)"


#: Deepest nesting of parentheses read; deeper is refused before parsing, so the answer never depends on how
#: much of Python's recursion limit the caller has left.
MAX_NESTING: Final = 200


def _nesting(text: str) -> int:
    """The deepest nesting of parentheses outside quoted text ('' inside quotes is a quote)."""
    deepest = depth = 0
    quoted = False
    for char in text:
        if char == "'":
            quoted = not quoted
        elif quoted:
            continue
        elif char == "(":
            depth += 1
            deepest = max(deepest, depth)
        elif char == ")":
            depth -= 1
    return deepest


@lru_cache(maxsize=256)
def _tree(text: str, tz: tzinfo) -> Node | tuple[int, str]:
    if text.count("(") > MAX_NESTING and _nesting(text) > MAX_NESTING:  # no deeper than it has parentheses
        return 0, TOO_DEEP
    parser = Parser(text, tz)
    try:
        result = parser.filter_expr(0)
    except RecursionError:
        return 0, TOO_DEEP
    if result is None or result[1] != len(text):
        if result is not None:
            parser.fail(result[1])
        return explain(text, parser.far)
    return result[0]


def parse_filter(text: str, *, tz: tzinfo = UTC) -> dict[str, Any]:
    """The MongoDB query document breeze builds for a ``$filter`` text (zone-less datetimes in ``tz``)."""
    tree = parse_tree(text, tz)
    try:
        return Translator(text, tz).query(tree)
    except Untranslatable as error:
        raise QueryRefused("$filter", text, error.position, error.reason) from None
    except RecursionError:
        raise QueryRefused("$filter", text, 0, TOO_DEEP) from None


def _items(option: str, text: str) -> list[tuple[str, str, int]]:
    parser = Parser(text, UTC)
    result = parser.paths(0, option == "$orderby")
    if result is None or result[1] != len(text):
        if result is not None:
            parser.fail(result[1])
        position, reason = explain(text, parser.far, option.lstrip("$"))
        raise QueryRefused(option, text, position, reason)
    return result[0]


def parse_orderby(text: str) -> list[tuple[str, str]]:
    """The sort breeze builds for an ``$orderby`` text: ``[("current.copies", "desc"), ...]``."""
    return [(path.replace("/", "."), direction) for path, direction, _ in _items("$orderby", text)]


def parse_select(text: str) -> dict[str, int]:
    """The projection breeze builds for a ``$select`` text: ``{"current.printerName": 1, ...}``."""
    projection: dict[str, int] = {}
    for path, _, _ in _items("$select", text):
        key = path.replace("/", ".")
        if key != "__proto__":  # result["__proto__"] = 1 sets no key in JavaScript
            projection[key] = 1
    return projection


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
    for option in ("$filter", "$select", "$orderby"):
        given = options.get(option)
        if given is None or given == "":
            continue
        if not isinstance(given, str):
            raise QueryRefused(option, _js_text(given), None, f"{option} is given more than once")
        if option == "$filter":
            query = parse_filter(given, tz=tz)
        elif option == "$select":
            projection = parse_select(given) or None
        else:
            sort = parse_orderby(given)
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
