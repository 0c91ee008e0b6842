"""What OData means by a filter, evaluated on documents: the semantic referee's first opinion.

It reads the tree the real parser builds (breeze-odataparser 0.0.1, ``semantic_referee.cjs``), not the SDK's
reader, and evaluates it with OData's rules (v2 and v4 agree on everything used here), typed by the spec's
schemas (``printmgmt_api.schemas``):

- comparisons are typed: a string with a string, a number with a number, a boolean with a boolean, an instant
  (``datetime'…'``/``datetimeoffset'…'``) with an instant; ``null`` with any of them. Anything else (an instant
  against an epoch-milliseconds integer, a number against a boolean, a guid against a string, a path through
  an array compared without ``any()``, an unknown field) makes the filter invalid: OData answers 400;
- literals mean what they say: ``'…'`` is text (24 hex digits too), numbers are exact (``9007199254740993``
  is not ``…992``), a number followed by anything but a blank, ``)`` or ``,`` is a syntax error, dates are
  instants (an impossible date is invalid);
- functions are case-sensitive and literal (``startswith(f,'.pdf')`` looks for a dot); a boolean expression
  compared with ``true``/``false`` is compared as a value, under every operator;
- null: a missing field is null; ``eq``/``ne`` treat two nulls as equal, ``lt``/``le``/``gt``/``ge`` with a
  null are false, a function of a null is null, ``not`` of null is null, ``and``/``or`` read null as false
  (OData v2's lifted operators); a filter keeps the documents where it is true;
- ``any()`` is true for some element, ``all()`` for every element (so for an empty or missing collection).

Open objects (the spec's ``additionalProperties`` below ``physical``) hold untyped values: their comparisons
are typed by the values themselves, and a mismatch there is false, not an error.
"""

from __future__ import annotations

import dataclasses
import math
import re
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from decimal import ROUND_CEILING, ROUND_FLOOR, ROUND_HALF_UP, Decimal
from typing import Any, Final

from bson import ObjectId

__all__ = ["Invalid", "NoReading", "Schema", "compile_filter", "schema_of"]


class Invalid(Exception):
    """OData refuses the filter (a type mismatch, an invalid literal, an unknown field): ``kind`` names the class."""

    def __init__(self, kind: str, detail: str = "") -> None:
        super().__init__(f"{kind}: {detail}" if detail else kind)
        self.kind = kind


class NoReading(Exception):
    """The referee has no OData reading of this tree (``isof``: types the spec does not name)."""


# --- the spec's types --------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Type:
    """A field's or an expression's type: ``kind`` is string, number, bool, instant, guid, binary, null,
    object, collection or open (untyped); ``element`` a collection's element, ``fields`` an object's."""

    kind: str
    element: Type | None = None
    fields: Mapping[str, Type] | None = None
    open: bool = False


STRING, NUMBER, BOOL, INSTANT = Type("string"), Type("number"), Type("bool"), Type("instant")
GUID, BINARY, NULL, OPEN = Type("guid"), Type("binary"), Type("null"), Type("open")
Schema = Type


def schema_of(schemas: Mapping[str, Any], name: str) -> Type:
    """The type of ``components.schemas[name]`` (references resolved)."""
    return _type(schemas, schemas[name])


def _type(schemas: Mapping[str, Any], schema: Mapping[str, Any]) -> Type:
    if "$ref" in schema:
        return _type(schemas, schemas[schema["$ref"].rsplit("/", 1)[-1]])
    kind = schema.get("type")
    if kind == "string":
        return STRING
    if kind in ("integer", "number"):
        return NUMBER
    if kind == "boolean":
        return BOOL
    if kind == "array":
        return Type("collection", element=_type(schemas, schema.get("items", {})))
    if kind == "object" or "properties" in schema:
        fields = {key: _type(schemas, sub) for key, sub in schema.get("properties", {}).items()}
        return Type("object", fields=fields, open=bool(schema.get("additionalProperties")) and not fields)
    return OPEN


# --- values ------------------------------------------------------------------------------------------
_NUMBER: Final = re.compile(r"-?[0-9]+(\.[0-9]+)?\Z")
_DATETIME: Final = re.compile(r"(\d{4})-(\d\d)-(\d\d)T(\d\d):(\d\d)(?::(\d\d)(?:\.(\d+))?)?(Z|[+-]\d\d:\d\d)?\Z")
_EPOCH: Final = datetime(1970, 1, 1, tzinfo=UTC)

Env = dict[str, Any]
Eval = Callable[[Any, Env], Any]


def _view(value: Any) -> Any:
    """A stored value as OData sees it: an ObjectId is the spec's string, its hex text."""
    return value.__str__() if isinstance(value, ObjectId) else value


def _resolve(doc: Any, parts: tuple[str, ...]) -> Any:
    for part in parts:
        if not isinstance(doc, Mapping):
            return None
        doc = doc.get(part)
    return _view(doc)


def _kind_of(value: Any) -> str:
    """The runtime type of an untyped (open) value."""
    if value is None:
        return "null"
    if isinstance(value, bool):
        return "bool"
    if isinstance(value, int | float | Decimal):
        return "number"
    if isinstance(value, str):
        return "string"
    if isinstance(value, datetime):
        return "instant"
    return "other"


def _number(text: str) -> int | Decimal:
    if not _NUMBER.match(text):
        raise Invalid("stray characters after a number", text)
    return int(text) if "." not in text else Decimal(text)


def _instant(text: str, offset_required: bool) -> datetime:
    m = _DATETIME.match(text)
    if m is None or (offset_required and m.group(8) is None):
        raise Invalid("invalid date literal", text)
    year, month, day, hour, minute = (int(m.group(i)) for i in range(1, 6))
    second = int(m.group(6) or 0)
    fraction = (m.group(7) or "0")[:6].ljust(6, "0")
    try:
        moment = datetime(year, month, day, hour, minute, second, int(fraction), tzinfo=UTC)
    except ValueError:
        raise Invalid("invalid date literal", text) from None
    zone = m.group(8)
    if zone and zone != "Z":
        hours, minutes = int(zone[1:3]), int(zone[4:6])
        if hours > 23 or minutes > 59:
            raise Invalid("invalid date literal", text)
        sign = 1 if zone[0] == "+" else -1
        moment -= sign * timedelta(hours=hours, minutes=minutes)
    return moment


# --- compiling the tree ------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Scope:
    """The type of the documents and of each lambda variable in scope, and the server's readings
    :func:`compile_filter` is asked for."""

    root: Type
    variables: Mapping[str, Type]
    all_needs_element: bool = False
    missing_text_false: bool = False
    open_arrays_by_element: bool = False
    non_documents_skipped: bool = False
    text_ignores_case: bool = False


_COMPARABLE: Final = {
    frozenset({"string"}),
    frozenset({"number"}),
    frozenset({"bool"}),
    frozenset({"instant"}),
    frozenset({"guid"}),
}
_ORDER: Final[dict[str, Callable[[Any, Any], bool]]] = {
    "lt": lambda a, b: a < b,
    "le": lambda a, b: a <= b,
    "gt": lambda a, b: a > b,
    "ge": lambda a, b: a >= b,
}


def compile_filter(
    tree: Mapping[str, Any],
    root: Type,
    *,
    all_needs_element: bool = False,
    missing_text_false: bool = False,
    open_arrays_by_element: bool = False,
    non_documents_skipped: bool = False,
    text_ignores_case: bool = False,
) -> Callable[[Any], bool]:
    """A predicate over stored documents for the parser's ``tree`` (:class:`Invalid` where OData refuses).

    ``all_needs_element`` reads ``all()`` as the server does (false for an empty or missing array), and
    ``missing_text_false`` ``startswith``/``endswith``/``substringof`` of a missing value or of one that is no
    text (false, so ``not`` of it is true), ``text_ignores_case`` their match ignoring case (Unicode's simple
    case folding, as PCRE's caseless match), ``open_arrays_by_element`` an array held by an untyped field
    compared as a value (one element matches; ``ne``: none equals), ``non_documents_skipped`` any()/all() over
    an array of objects past its elements that are none (null): the guide lists these differences (and the
    check warns about the case), and the referee asks which of them make the whole of a difference."""
    readings = (all_needs_element, missing_text_false, open_arrays_by_element, non_documents_skipped)
    kind, run = _compile(tree, Scope(root, {}, *readings, text_ignores_case))
    if kind.kind not in ("bool", "open"):
        raise Invalid("the filter is no boolean expression", kind.kind)
    return lambda doc: run(doc, {}) is True


def _compile(node: Mapping[str, Any], scope: Scope) -> tuple[Type, Eval]:
    kind = node["type"]
    compiler = _COMPILERS.get(kind)
    if compiler is None:
        raise NoReading(kind)
    return compiler(node, scope)


def _member(node: Mapping[str, Any], scope: Scope) -> tuple[Type, Eval]:
    path = node["value"]
    head, _, rest = path.partition("/")
    if head in scope.variables:
        start, variable = scope.variables[head], head
        parts = tuple(rest.split("/")) if rest else ()
    else:
        start, variable = scope.root, None
        parts = tuple(path.split("/"))
    current = start
    for part in parts:
        if current.kind == "open" or (current.kind == "object" and current.open):
            current = OPEN
            continue
        if current.kind == "collection":
            raise Invalid("a path through an array outside any()/all()", path)
        if current.kind != "object" or current.fields is None or part not in current.fields:
            raise Invalid("unknown field", path)
        current = current.fields[part]
    if current.kind == "collection":
        current = Type("collection", element=current.element)
    if variable is None:
        return current, lambda doc, env: _resolve(doc, parts)
    return current, lambda doc, env: _resolve(env[variable], parts)


def _literal(node: Mapping[str, Any], scope: Scope) -> tuple[Type, Eval]:
    kind = node["type"]
    value: Any = node.get("value")
    if kind == "lit_string":
        return STRING, lambda doc, env: value
    if kind == "lit_boolean":
        return BOOL, lambda doc, env: value
    if kind == "lit_null":
        return NULL, lambda doc, env: None
    if kind == "lit_number":
        number = _number(value["$number"])
        return NUMBER, lambda doc, env: number
    if kind in ("lit_datetime", "lit_dateTimeOffset"):
        moment = _instant(value["text"], kind == "lit_dateTimeOffset")
        return INSTANT, lambda doc, env: moment
    if kind == "lit_guid":  # its format is not checked: the comparison's types decide first
        return GUID, lambda doc, env: value.lower()
    if kind == "lit_binary":
        return BINARY, lambda doc, env: "".join(value[2:4])
    raise NoReading(kind)


def _compatible(a: Type, b: Type, what: str) -> None:
    kinds = {a.kind, b.kind} - {"null", "open"}
    if len(kinds) > 1 or (kinds and frozenset(kinds) not in _COMPARABLE):
        names = " vs ".join(sorted({a.kind, b.kind}))
        raise Invalid(f"{what}: {names}")


def _bool_compare(node: Mapping[str, Any], scope: Scope) -> tuple[Type, Eval]:
    op = node["op"]
    left, run_left = _compile(node["p1"], scope)
    right, run_right = _compile(node["p2"], scope)
    for side in (left, right):
        if side.kind in ("collection", "object"):
            raise Invalid(f"a {side.kind} compared with {op}", node["p1"].get("value", ""))
    _compatible(left, right, "comparison of mismatched types")

    by_element = scope.open_arrays_by_element and left.kind == "open"

    def run(doc: Any, env: Env) -> bool | None:
        a, b = run_left(doc, env), run_right(doc, env)
        if by_element and isinstance(a, list):  # the server's: one element matches (ne: none equals)
            if op == "ne":
                return not any(compare(x, b) is False for x in a)
            return any(compare(x, b) for x in a)
        return compare(a, b)

    def compare(a: Any, b: Any) -> bool | None:
        # a value of another kind than the schema's (the server keeps what it is given) is no match
        if a is not None and b is not None and _kind_of(a) != _kind_of(b):
            return bool(op == "ne")
        if op in ("eq", "ne"):
            return bool(_equal(a, b) == (op == "eq"))
        if a is None or b is None:
            return False
        try:
            return bool(_ORDER[op](a, b))
        except TypeError:  # two untyped values of different kinds
            return False

    return BOOL, run


def _equal(a: Any, b: Any) -> bool:
    if a is None or b is None:
        return a is None and b is None
    return isinstance(a, bool) == isinstance(b, bool) and bool(a == b)


def _math(node: Mapping[str, Any], scope: Scope) -> tuple[Type, Eval]:
    op = node["op"]
    left, run_left = _compile(node["p1"], scope)
    right, run_right = _compile(node["p2"], scope)
    for side in (left, right):
        if side.kind not in ("number", "null", "open"):
            raise Invalid("arithmetic on a non-number", side.kind)

    def run(doc: Any, env: Env) -> Any:
        a, b = run_left(doc, env), run_right(doc, env)
        if not isinstance(a, int | float | Decimal) or not isinstance(b, int | float | Decimal):
            return None
        if isinstance(a, bool) or isinstance(b, bool):
            return None
        a, b = Decimal(str(a)) if isinstance(a, float) else a, Decimal(str(b)) if isinstance(b, float) else b
        if op in ("div", "mod") and b == 0:
            return None
        if op == "add":
            return a + b
        if op == "sub":
            return a - b
        if op == "mul":
            return a * b
        if op == "div":
            return a // b if isinstance(a, int) and isinstance(b, int) else Decimal(a) / Decimal(b)
        return int(math.fmod(a, b)) if isinstance(a, int) and isinstance(b, int) else Decimal(a) % Decimal(b)

    return NUMBER, run


def _logical(node: Mapping[str, Any], scope: Scope) -> tuple[Type, Eval]:
    left, run_left = _compile(node["p1"], scope)
    right, run_right = _compile(node["p2"], scope)
    for side in (left, right):
        if side.kind not in ("bool", "null", "open"):
            raise Invalid(f"{node['op']} of a non-boolean", side.kind)
    if node["op"] == "and":
        return BOOL, lambda doc, env: run_left(doc, env) is True and run_right(doc, env) is True
    return BOOL, lambda doc, env: run_left(doc, env) is True or run_right(doc, env) is True


def _unary(node: Mapping[str, Any], scope: Scope) -> tuple[Type, Eval]:
    operand, run_operand = _compile(node["p1"], scope)
    if node["op"] == "not ":
        if operand.kind not in ("bool", "null", "open"):
            raise Invalid("not of a non-boolean", operand.kind)

        def negate(doc: Any, env: Env) -> bool | None:
            value = run_operand(doc, env)
            return None if value is None else not value

        return BOOL, negate
    if operand.kind not in ("number", "null", "open"):
        raise Invalid("minus of a non-number", operand.kind)
    return NUMBER, lambda doc, env: None if (value := run_operand(doc, env)) is None else -value


def _lambda(node: Mapping[str, Any], scope: Scope) -> tuple[Type, Eval]:
    collection, run_collection = _member({"value": node["member"]}, scope)
    if collection.kind == "open":
        element = OPEN
    elif collection.kind != "collection" or collection.element is None:
        raise Invalid("any()/all() over a field that is no array", node["member"])
    else:
        element = collection.element
    variable = node["lambda"]
    inner = dataclasses.replace(scope, variables={**scope.variables, variable: element})
    body, run_body = _compile(node["subquery"], inner)
    if body.kind not in ("bool", "null", "open"):
        raise Invalid("a lambda body that is no boolean", body.kind)
    every = node["op"] == "all"
    empty_holds = every and not scope.all_needs_element
    skip = scope.non_documents_skipped and element.kind == "object"

    def run(doc: Any, env: Env) -> bool:
        items = run_collection(doc, env)
        if not isinstance(items, list) or not items:
            return empty_holds and (items is None or items == [])
        if skip:
            items = [item for item in items if isinstance(item, dict)]
        results = (run_body(doc, {**env, variable: _view(item)}) is True for item in items)
        return all(results) if every else any(results)

    return BOOL, run


# --- functions ---------------------------------------------------------------------------------------
def _text_fn(apply: Callable[..., Any], result: Type, *params: Type) -> Callable[..., tuple[Type, Eval]]:
    """A function of typed parameters whose value is null when any argument is null."""

    def compile_call(node: Mapping[str, Any], scope: Scope) -> tuple[Type, Eval]:
        args = [node[key] for key in ("p1", "p2", "p3") if key in node]
        if len(args) != len(params):
            raise NoReading(f"{node['name']}/{len(args)}")
        runs = []
        for arg, param in zip(args, params, strict=True):
            kind, run_arg = _compile(arg, scope)
            if kind.kind not in (param.kind, "null", "open"):
                raise Invalid(f"{node['name']}() of a {kind.kind}", param.kind)
            runs.append(run_arg)

        missing = False if scope.missing_text_false and result is BOOL else None
        fold = scope.text_ignores_case and result is BOOL

        def run(doc: Any, env: Env) -> Any:
            values = [run_arg(doc, env) for run_arg in runs]
            if any(_kind_of(v) != p.kind for v, p in zip(values, params, strict=True)):
                return missing  # null: a missing value, or an untyped one of another kind
            return apply(*map(_folded, values)) if fold else apply(*values)

        return result, run

    return compile_call


def _folded(text: str) -> str:
    """``text`` with Unicode's simple case folding (one character for one: ``ẞ`` is ``ß``, ``İ`` stays)."""
    return "".join(c.casefold() if len(c.casefold()) == 1 else c.lower() if len(c.lower()) == 1 else c for c in text)


def _substring(s: str, start: int | Decimal, length: int | Decimal | None = None) -> str:
    begin = max(int(start), 0)
    return s[begin:] if length is None else s[begin : begin + max(int(length), 0)]


def _rounded(mode: str) -> Callable[[Any], Any]:
    return lambda n: Decimal(str(n)).to_integral_value(rounding=mode)


def _part(name: str) -> Callable[[datetime], int]:
    return lambda moment: int(getattr(moment, name))


_FUNCTIONS: Final[dict[tuple[str, int], Callable[..., tuple[Type, Eval]]]] = {
    ("substringof", 2): _text_fn(lambda needle, s: needle in s, BOOL, STRING, STRING),
    ("startswith", 2): _text_fn(str.startswith, BOOL, STRING, STRING),
    ("endswith", 2): _text_fn(str.endswith, BOOL, STRING, STRING),
    ("tolower", 1): _text_fn(str.lower, STRING, STRING),
    ("toupper", 1): _text_fn(str.upper, STRING, STRING),
    ("trim", 1): _text_fn(str.strip, STRING, STRING),
    ("length", 1): _text_fn(len, NUMBER, STRING),
    ("indexof", 2): _text_fn(str.find, NUMBER, STRING, STRING),
    ("concat", 2): _text_fn(lambda a, b: a + b, STRING, STRING, STRING),
    ("replace", 3): _text_fn(str.replace, STRING, STRING, STRING, STRING),
    ("substring", 2): _text_fn(_substring, STRING, STRING, NUMBER),
    ("substring", 3): _text_fn(_substring, STRING, STRING, NUMBER, NUMBER),
    **{(name, 1): _text_fn(_part(name), NUMBER, INSTANT) for name in ("year", "month", "day", "hour", "minute")},
    ("second", 1): _text_fn(_part("second"), NUMBER, INSTANT),
    ("round", 1): _text_fn(_rounded(ROUND_HALF_UP), NUMBER, NUMBER),
    ("floor", 1): _text_fn(_rounded(ROUND_FLOOR), NUMBER, NUMBER),
    ("ceiling", 1): _text_fn(_rounded(ROUND_CEILING), NUMBER, NUMBER),
}


def _call(node: Mapping[str, Any], scope: Scope) -> tuple[Type, Eval]:
    arity = sum(key in node for key in ("p1", "p2", "p3"))
    compiler = _FUNCTIONS.get((node["name"], arity))
    if compiler is None:
        raise NoReading(f"{node['name']}/{arity}")
    return compiler(node, scope)


_COMPILERS: Final[dict[str, Callable[[Mapping[str, Any], Scope], tuple[Type, Eval]]]] = {
    "member": _member,
    **dict.fromkeys(
        ["lit_string", "lit_boolean", "lit_null", "lit_number", "lit_datetime", "lit_dateTimeOffset"], _literal
    ),
    **dict.fromkeys(["lit_guid", "lit_binary"], _literal),
    "op_bool": _bool_compare,
    "op_math": _math,
    "op_andOr": _logical,
    "op_unary": _unary,
    "op_anyAll": _lambda,
    "fn_1": _call,
    "fn_2": _call,
    "fn_3": _call,
}
