"""The simulator's former list path, kept as the baseline of scenario 8: list options parsed with
``odata-query``'s grammar (OData's reading, not the server's) and compiled to SQLite over the stored JSON
documents, then run by :class:`SqliteJobs`, a table of the same documents with the former store's query.

Only the bench uses it; the simulator runs list queries with :mod:`printmgmt_sim.engine`.
"""

from __future__ import annotations

import functools
import json
import re
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Mapping
from dataclasses import dataclass, field
from datetime import UTC, datetime
from typing import Any, Final

from odata_query import ast
from odata_query.grammar import ODataLexer, ODataParser
from printmgmt_sim.model import Doc

__all__ = ["ListQuery", "ODataError", "SqliteJobs", "parse_query", "project"]

ALLOWED_KEYS: Final = frozenset({"$filter", "$top", "$skip", "$select", "$inlinecount", "$orderby"})

Path = tuple[str, ...]

_NAME: Final = r"[A-Za-z_][A-Za-z0-9_]*"
_PATH: Final = re.compile(rf"{_NAME}(?:/{_NAME})*")
_ORDER_ITEM: Final = re.compile(rf"\s*({_NAME}(?:/{_NAME})*)(?:\s+(asc|desc))?\s*", re.IGNORECASE)
_FUNCTIONS: Final = frozenset({"startswith", "endswith", "substringof"})
_COMPARATORS: Final[dict[type[ast._Comparator], str]] = {
    ast.Eq: "=",
    ast.NotEq: "<>",
    ast.Lt: "<",
    ast.LtE: "<=",
    ast.Gt: ">",
    ast.GtE: ">=",
}
#: json_each/json_type type names for each literal kind.
_TYPES: Final = {
    "text": "('text')",
    "number": "('integer', 'real')",
    "bool": "('true', 'false')",
    "date": "('date')",  # no stored JSON value is a date
}
#: MongoDB's sort order of value types.
_TYPE_RANK: Final = (
    "CASE json_type(doc, {path}) WHEN 'integer' THEN 1 WHEN 'real' THEN 1 WHEN 'text' THEN 2 "
    "WHEN 'object' THEN 3 WHEN 'array' THEN 4 WHEN 'false' THEN 5 WHEN 'true' THEN 5 ELSE 0 END"
)
#: Deepest member path accepted (each level through an array doubles the SQL).
_MAX_DEPTH: Final = 6


class ODataError(ValueError):
    """The query options cannot be used; the API answers 400 ``Bad Request``."""


@dataclass(frozen=True, slots=True)
class ListQuery:
    """Compiled list options: SQL over the columns ``id`` and ``doc`` with named ``params``."""

    where: str = "1"
    order: str = "rowid"
    params: Mapping[str, Any] = field(default_factory=dict)
    select: tuple[Path, ...] | None = None
    top: int | None = None
    skip: int = 0
    count: bool = False


def parse_query(items: Iterable[tuple[str, str]]) -> ListQuery:
    """Read the query string's ``(key, value)`` pairs (already percent- and ``+``-decoded)."""
    options: dict[str, str] = {}
    for key, value in items:
        if not key.startswith("$"):
            continue
        if key not in ALLOWED_KEYS:
            raise ODataError(f"invalid key {key!r}")
        if key in options:
            raise ODataError(f"{key} given twice")
        options[key] = value
    sql = _Sql()
    where = sql.filter(options["$filter"]) if options.get("$filter") else "1"
    order = sql.order(options["$orderby"]) if options.get("$orderby") else "rowid"
    inline = options.get("$inlinecount", "none")
    if inline not in ("allpages", "none"):
        raise ODataError("$inlinecount must be allpages or none")
    return ListQuery(
        where=where,
        order=order,
        params=sql.params,
        select=_select(options["$select"]) if options.get("$select") else None,
        top=_count(options, "$top"),
        skip=_count(options, "$skip") or 0,
        count=inline == "allpages",
    )


def project(doc: Doc, select: Iterable[Path]) -> Doc:
    """MongoDB-style projection: ``_id`` plus each selected path (through arrays of objects)."""
    out: Doc = {"_id": doc["_id"]} if "_id" in doc else {}
    for path in select:
        _copy(doc, out, path)
    return out


def _copy(source: Doc, target: Doc, path: Path) -> None:
    head, rest = path[0], path[1:]
    if head not in source:
        return
    value = source[head]
    if not rest:
        target[head] = value
    elif isinstance(value, dict):
        sub = target.get(head)
        if not isinstance(sub, dict):
            sub = target[head] = {}
        _copy(value, sub, rest)
    elif isinstance(value, list):
        elements = [item for item in value if isinstance(item, dict)]
        projected = target.get(head)
        if not isinstance(projected, list) or len(projected) != len(elements):
            projected = target[head] = [{} for _ in elements]
        for element, sub in zip(elements, projected, strict=True):
            _copy(element, sub, rest)


def _count(options: Mapping[str, str], key: str) -> int | None:
    if key not in options:
        return None
    text = options[key].strip()
    if not text.isdigit() or not text.isascii():
        raise ODataError(f"{key} must be a non-negative integer")
    return min(int(text), 2**62)


def _select(text: str) -> tuple[Path, ...] | None:
    items = [item.strip() for item in text.split(",")]
    if items == ["*"]:
        return None
    paths: list[Path] = []
    for item in items:
        if not _PATH.fullmatch(item):
            raise ODataError(f"not a field path in $select: {item!r}")
        paths.append(tuple(item.split("/")))
    return tuple(paths)


class _Sql:
    """Builds SQL fragments with named parameters (one instance per query, so names never clash)."""

    def __init__(self) -> None:
        self.params: dict[str, Any] = {}
        self._aliases = 0

    def param(self, value: Any) -> str:
        name = f"p{len(self.params)}"
        self.params[name] = value
        return f":{name}"

    def alias(self) -> str:
        self._aliases += 1
        return f"j{self._aliases}"

    def segment(self, name: str) -> str:
        return self.param(f'."{name}"')

    # -- $orderby ----------------------------------------------------------------------------------

    def order(self, text: str) -> str:
        parts: list[str] = []
        for item in text.split(","):
            match = _ORDER_ITEM.fullmatch(item)
            if not match:
                raise ODataError(f"not a sort key: {item!r}")
            path, direction = match.group(1), (match.group(2) or "asc").upper()
            if path == "_id":
                parts.append(f"id {direction}")
                continue
            json_path = self.param("$" + "".join(f'."{name}"' for name in path.split("/")))
            parts.append(f"{_TYPE_RANK.format(path=json_path)} {direction}")
            parts.append(f"json_extract(doc, {json_path}) {direction}")
        parts.append("rowid")
        return ", ".join(parts)

    # -- $filter -----------------------------------------------------------------------------------

    def filter(self, text: str) -> str:
        parser = ODataParser()
        parser._function_call = _function_call  # type: ignore[method-assign]  # the v2 function set
        try:
            tree = parser.parse(_tokens(text))
        except ODataError:
            raise
        except Exception as exc:  # the grammar raises several unrelated types
            raise ODataError(f"cannot parse $filter: {exc}") from exc
        if tree is None:
            raise ODataError("empty $filter")
        return self.condition(tree, {})

    def condition(self, node: ast._Node, scope: Mapping[str, str]) -> str:
        if isinstance(node, ast.BoolOp):
            op = "AND" if isinstance(node.op, ast.And) else "OR"
            return f"({self.condition(node.left, scope)} {op} {self.condition(node.right, scope)})"
        if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
            return f"(NOT {self.condition(node.operand, scope)})"
        if isinstance(node, ast.Call):
            return self.function(node, scope)
        if isinstance(node, ast.Compare):
            return self.compare(node, scope)
        if isinstance(node, ast.CollectionLambda):
            return self.collection(node, scope)
        raise ODataError(f"not a condition: {type(node).__name__}")

    def compare(self, node: ast.Compare, scope: Mapping[str, str]) -> str:
        op = _COMPARATORS.get(type(node.comparator))
        if op is None:
            raise ODataError("unsupported comparison")
        if isinstance(node.left, ast.Call) and isinstance(node.right, ast.Boolean) and op in ("=", "<>"):
            condition = self.function(node.left, scope)
            return condition if node.right.py_val == (op == "=") else f"(NOT {condition})"
        left, right = _path(node.left), _path(node.right)
        if left is None:
            raise ODataError("the left side of a comparison must be a field")
        if right is not None:
            return self.fields(self.locate(left, scope), op, self.locate(right, scope))
        kind, value = _literal(node.right)
        base, segments = self.locate(left, scope)
        if kind == "null":
            present = self.exists(base, segments, lambda a: f"{a}.type <> 'null'")
            return {"=": f"(NOT {present})", "<=": f"(NOT {present})", ">=": f"(NOT {present})", "<>": present}.get(
                op, "0"
            )
        if op == "<>":
            return f"(NOT {self.exists(base, segments, self.leaf('=', kind, value))})"
        return self.exists(base, segments, self.leaf(op, kind, value))

    def leaf(self, op: str, kind: str, value: Any) -> Callable[[str], str]:
        bound = self.param(int(value) if kind == "bool" else value)
        return lambda a: f"{a}.type IN {_TYPES[kind]} AND {a}.value {op} {bound}"

    def fields(self, left: tuple[str, Path], op: str, right: tuple[str, Path]) -> str:
        """Field against field, on plain (non-array) paths, numbers with numbers and text with text."""
        (lbase, lpath), (rbase, rpath) = left, right
        lsql = f"{lbase} || {self.param(''.join(f'.{_quoted(n)}' for n in lpath))}"
        rsql = f"{rbase} || {self.param(''.join(f'.{_quoted(n)}' for n in rpath))}"
        same_kind = (
            f"((json_type(doc, {lsql}) IN {_TYPES['number']} AND json_type(doc, {rsql}) IN {_TYPES['number']})"
            f" OR (json_type(doc, {lsql}) = 'text' AND json_type(doc, {rsql}) = 'text'))"
        )
        if op == "<>":
            return f"(NOT ({same_kind} AND json_extract(doc, {lsql}) = json_extract(doc, {rsql})))"
        return f"({same_kind} AND json_extract(doc, {lsql}) {op} json_extract(doc, {rsql}))"

    def function(self, node: ast.Call, scope: Mapping[str, str]) -> str:
        name = _full_name(node.func).lower()
        member, text = (node.args[1], node.args[0]) if name == "substringof" else (node.args[0], node.args[1])
        path = _path(member)
        if path is None or not isinstance(text, ast.String):
            raise ODataError(f"{name} takes a field and a text literal")
        # breeze-mongodb builds a case-insensitive MongoDB $regex from the text as given, unescaped:
        # new RegExp("^" + text, "i"), new RegExp(text + "$", "i"), new RegExp(text, "i")
        pattern = {"startswith": "^{}", "endswith": "{}$", "substringof": "{}"}[name].format(text.py_val)
        try:
            re.compile(pattern)
        except re.error as exc:
            raise ODataError(f"{name}: not a valid regular expression ({exc})") from None
        base, segments = self.locate(path, scope)
        bound = self.param(pattern)
        return self.exists(base, segments, lambda a: f"{a}.type = 'text' AND sim_regex({bound}, {a}.value)")

    def collection(self, node: ast.CollectionLambda, scope: Mapping[str, str]) -> str:
        path = _path(node.owner)
        if path is None:
            raise ODataError("any/all needs a field")
        base, segments = self.locate(path, scope)
        array = f"{base} || {self.param(''.join(f'.{_quoted(n)}' for n in segments))}"
        a = self.alias()
        is_array = f"json_type(doc, {array}) = 'array'"
        if node.lambda_ is None:
            return f"({is_array} AND json_array_length(doc, {array}) > 0)"
        inner = {**scope, node.lambda_.identifier.name: f"{a}.fullkey"}
        condition = self.condition(node.lambda_.expression, inner)
        if isinstance(node.operator, ast.Any):
            return f"({is_array} AND EXISTS (SELECT 1 FROM json_each(doc, {array}) AS {a} WHERE {condition}))"
        return (
            f"({is_array} AND json_array_length(doc, {array}) > 0 AND NOT EXISTS "
            f"(SELECT 1 FROM json_each(doc, {array}) AS {a} WHERE NOT ({condition})))"
        )

    def locate(self, path: Path, scope: Mapping[str, str]) -> tuple[str, Path]:
        """The SQL JSON-path prefix a member path starts from (a lambda variable or the document root)."""
        if path[0] in scope:
            return scope[path[0]], path[1:]
        return "'$'", path

    def exists(self, base: str, segments: Path, leaf: Callable[[str], str]) -> str:
        """SQL that is 1 when some value at ``base`` + ``segments`` satisfies ``leaf`` (MongoDB matching).

        An array at the end matches by any element; an array of objects on the way is searched element by
        element. ``leaf`` gets the alias of a ``json_each`` row (``type``, ``value``).
        """
        if len(segments) > _MAX_DEPTH:
            raise ODataError("field path too deep")
        a = self.alias()
        if not segments:
            return f"EXISTS (SELECT 1 FROM json_each(doc, {base}) AS {a} WHERE typeof({a}.key) <> 'text' AND {leaf(a)})"
        here = f"{base} || {self.segment(segments[0])}"
        if len(segments) == 1:
            return self.exists(here, (), leaf)
        rest = segments[1:]
        return (
            f"(CASE json_type(doc, {here}) WHEN 'array' THEN EXISTS (SELECT 1 FROM json_each(doc, {here}) AS {a}"
            f" WHERE {a}.type = 'object' AND {self.exists(f'{a}.fullkey', rest, leaf)})"
            f" ELSE {self.exists(here, rest, leaf)} END)"
        )


def _function_call(func: ast.Identifier, args: list[ast._Node]) -> ast.Call:
    """Replaces the grammar's OData v4 function table with the v2 functions the middleware handles."""
    name = _full_name(func).lower()
    if func.namespace or name not in _FUNCTIONS:
        raise ODataError(f"unsupported function {_full_name(func)!r}")
    if len(args) != 2:
        raise ODataError(f"{name} takes two arguments")
    return ast.Call(func, args)


def _tokens(text: str) -> Iterator[Any]:
    """The lexer's tokens, with OData v2 ``datetime'...'`` literals joined into one date-time token."""
    held: Any = None
    for token in ODataLexer().tokenize(text):
        if held is not None:
            if token.type == "STRING" and token.index == held.index + len("datetime"):
                token.type = "DATETIME"
                token.value = ast.DateTime(token.value.val)
                held = None
                yield token
                continue
            yield held
            held = None
        if token.type == "ODATA_IDENTIFIER" and not token.value.namespace and token.value.name.lower() == "datetime":
            held = token
            continue
        yield token
    if held is not None:
        yield held


def _full_name(identifier: ast.Identifier) -> str:
    return ".".join((*identifier.namespace, identifier.name))


def _path(node: ast._Node) -> Path | None:
    if isinstance(node, ast.Identifier):
        return (*node.namespace, node.name)
    if isinstance(node, ast.Attribute):
        owner = _path(node.owner)
        attr = node.attr if isinstance(node.attr, str) else _path(node.attr)
        if owner is None or attr is None:
            return None
        return (*owner, attr) if isinstance(attr, str) else (*owner, *attr)
    return None


def _literal(node: ast._Node) -> tuple[str, Any]:
    if isinstance(node, ast.String):
        return "text", node.py_val
    if isinstance(node, ast.GUID):
        return "text", node.val
    if isinstance(node, ast.Boolean):
        return "bool", node.py_val
    if isinstance(node, ast.Integer | ast.Float):
        return "number", node.py_val
    if isinstance(node, ast.Null):
        return "null", None
    if isinstance(node, ast.DateTime):
        try:
            moment = datetime.fromisoformat(node.val)
        except ValueError as exc:
            raise ODataError(f"not a date-time: {node.val!r}") from exc
        if moment.tzinfo is None:
            moment = moment.replace(tzinfo=UTC)
        # a JavaScript Date in the MongoDB query: another type than the stored epoch-ms numbers, so it matches none
        return "date", round(moment.timestamp() * 1000)
    raise ODataError(f"unsupported literal {type(node).__name__}")


def _quoted(name: str) -> str:
    return f'"{name}"'


class SqliteJobs:
    """Job documents in SQLite as the former store kept them, answering a list the former way (uncached)."""

    def __init__(self, docs: Iterable[Doc]) -> None:
        self._db = sqlite3.connect(":memory:", check_same_thread=False)
        self._db.execute("CREATE TABLE jobs (rowid INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, doc TEXT NOT NULL)")
        self._db.create_function("sim_regex", 2, _regex, deterministic=True)
        self._db.executemany(
            "INSERT INTO jobs (id, doc) VALUES (?, ?)", ((str(doc["_id"]), json.dumps(doc)) for doc in docs)
        )

    def answer(self, items: Iterable[tuple[str, str]]) -> tuple[list[Doc], int]:
        """The page and the total for a query string's pairs."""
        query = parse_query(items)
        ids = [
            row[0]
            for row in self._db.execute(
                f"SELECT rowid FROM jobs WHERE {query.where} ORDER BY {query.order}", dict(query.params)
            )
        ]
        window = ids[query.skip :] if query.top is None else ids[query.skip : query.skip + query.top]
        rows = self._db.execute(
            "SELECT rowid, doc FROM jobs WHERE rowid IN (SELECT value FROM json_each(?))", (json.dumps(window),)
        ).fetchall()
        by_rowid = dict(rows)
        docs: list[Doc] = [json.loads(by_rowid[rowid]) for rowid in window if rowid in by_rowid]
        if query.select is not None:
            docs = [project(doc, query.select) for doc in docs]
        return docs, len(ids)

    def close(self) -> None:
        self._db.close()


@functools.lru_cache(maxsize=256)
def _compiled(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.IGNORECASE)


def _regex(pattern: str, value: Any) -> bool:
    return isinstance(value, str) and _compiled(pattern).search(value) is not None
