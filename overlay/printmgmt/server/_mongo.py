"""The filter tree as breeze-mongodb 0.0.8 translates it into a MongoDB query document.

Only comparisons of a member with a literal or a member, ``startswith``/``endswith``/``substringof``,
``and``/``or``, ``not `` and lambdas translate; everything else is "Not yet implemented" (400). ``not`` is
applied by rewriting (:func:`apply_not`), also into forms MongoDB itself then rejects.
"""

from __future__ import annotations

from datetime import tzinfo
from functools import lru_cache
from typing import Any, Final

from . import _jsregex
from ._js import number_to_string
from ._jsdate import date_to_string
from ._lexer import OBJECT_ID
from ._parser import ANDOR, ANYALL, BOOL, FN, LIT_BINARY, LIT_BOOLEAN, LIT_NULL, LIT_STRING, MATH, MEMBER, UNARY, Node
from ._readings import Member
from ._values import UNDEFINED, JsDate, ObjectId, Regex

_MONGO_OPS: Final = {"ne": "$ne", "gt": "$gt", "ge": "$gte", "lt": "$lt", "le": "$lte"}
_JS_OPS: Final = {"eq": "===", "ne": "!=", "gt": ">", "ge": ">=", "lt": "<", "le": "<="}
_OBJECTS: Final = (dict, list, ObjectId, Regex, JsDate)
#: De Morgan: the negation of an ``$and`` is an ``$or`` of the negations, and the reverse
_DUALS: Final = {"$and": "$or", "$or": "$and"}


class Untranslatable(Exception):
    """breeze throws here: ``position`` in the filter and the reason in words."""

    def __init__(self, position: int, reason: str) -> None:
        super().__init__(reason)
        self.position = position
        self.reason = reason


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


class Translator:
    """Translates one filter tree; ``tz`` is the server's zone (for ``String(date)`` in a regex).

    ``members`` collects each member as the document keys it, in the order the text names them (below a
    lambda from its collection's path on).
    """

    __slots__ = ("members", "prefix", "text", "tz")

    def __init__(self, text: str, tz: tzinfo) -> None:
        self.text = text
        self.tz = tz
        self.members: list[Member] = []
        # the path of the innermost open lambda's collection, with "/" (empty outside lambdas)
        self.prefix = ""

    def query(self, node: Node, lambdas: tuple[str, ...] = ()) -> dict[str, Any]:
        kind = node.kind
        if kind == BOOL:
            return self.compare(node, lambdas)
        if kind == ANDOR:
            # a chain a op (b op (c …)) as a loop, the left operands first as breeze translates them
            spine = [node]
            while spine[-1].args[1].kind == ANDOR:
                spine.append(spine[-1].args[1])
            lefts = [self.query(link.args[0], lambdas) for link in spine]
            result = self.query(spine[-1].args[1], lambdas)
            for link, left in zip(reversed(spine), reversed(lefts), strict=True):
                result = {"$and" if link.op == "and" else "$or": [left, result]}
            return result
        if kind == FN and len(node.args) == 2:
            return self.function(node, lambdas)
        if kind == UNARY:
            inner = self.query(node.args[0], lambdas)
            if node.op == "not ":
                return apply_not(inner)
            raise Untranslatable(node.pos, "a minus sign before a condition is not supported")
        if kind == ANYALL:
            return self.lambda_(node, lambdas)
        raise Untranslatable(node.pos, _not_a_condition(node))

    def member(self, node: Node, lambdas: tuple[str, ...]) -> str:
        """The document's key for a member (or a lambda's collection) ``node``."""
        lambda_ = node.kind == ANYALL
        key = member_key(node.path if lambda_ else node.value, lambdas)
        written = self.text[node.pos : node.op_pos if lambda_ else node.end]
        path = self.prefix + field_path(key) if lambdas else key.replace(".", "/")
        self.members.append(Member(path, node.pos, written))
        return key

    def value(self, node: Node) -> Any:
        kind = node.kind
        if kind == LIT_STRING:
            return text_value(node.value)
        if kind == LIT_NULL:
            return UNDEFINED
        if kind == LIT_BINARY:
            return list(node.value)  # the tree is shared; the document is the caller's
        return node.value

    def compare(self, node: Node, lambdas: tuple[str, ...]) -> dict[str, Any]:
        op = node.op
        left, right = node.args
        if left.kind == MEMBER:
            key = self.member(left, lambdas)
            if right.kind.startswith("lit_"):
                value = self.value(right)
                return _doc(key, value if op == "eq" else {_MONGO_OPS[op]: value})
            if right.kind == MEMBER:
                return _where(f"this.{key} {_JS_OPS[op]} this.{self.member(right, lambdas)}")
            raise Untranslatable(right.pos, _right_side(right, op))
        if right.kind == LIT_BOOLEAN:
            # only the boolean counts; the operator is ignored
            inner = self.query(left, lambdas)
            return inner if right.value is True else apply_not(inner)
        if left.kind.startswith("lit_"):
            reason = f"a comparison needs a field on the left, not the literal {self.text[left.pos : left.end]}"
        elif left.kind == FN:
            reason = f"a function is compared only with true or false ({left.op}(…) {op} …)"
        else:
            reason = f"the left side of '{op}' must be a field"
        raise Untranslatable(left.pos, reason)

    def function(self, node: Node, lambdas: tuple[str, ...]) -> dict[str, Any]:
        name = node.op
        first, second = node.args
        query: dict[str, Any] = {}
        if first.kind == MEMBER:
            key = self.member(first, lambdas)
            if second.kind.startswith("lit_") and name in ("startswith", "endswith"):
                text = self.js_string(self.value(second))
                query = _doc(key, self.regex(text_pattern(name, text), second))
            elif second.kind == MEMBER:
                other = self.member(second, lambdas)
                if name == "startswith":
                    query = _where(f"(new RegExp('^' + this.{other},'i')).test(this.{key})")
                elif name == "endswith":
                    query = _where(f"(new RegExp(this.{other} + '$','i')).test(this.{key})")
        elif name == "substringof" and first.kind == LIT_STRING and second.kind == MEMBER:
            text = self.js_string(self.value(first))
            query = _doc(self.member(second, lambdas), self.regex(text_pattern(name, text), first))
        if query:
            return query
        raise Untranslatable(node.pos, _unsupported_function(node))

    def regex(self, pattern: str, literal: Node) -> Regex:
        made = js_regex(pattern)
        if isinstance(made, str):
            raise Untranslatable(literal.pos, f"not a valid JavaScript regular expression: /{pattern}/: {made}")
        return made

    def lambda_(self, node: Node, lambdas: tuple[str, ...]) -> dict[str, Any]:
        inner = (node.value, *lambdas)
        key = self.member(node, inner)
        outer, self.prefix = self.prefix, self.members[-1].path + "/"
        try:
            sub = self.query(node.args[0], inner)
        finally:
            self.prefix = outer
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


def member_key(path: str, lambdas: tuple[str, ...]) -> str:
    """A member path (``/`` between names) as the query document's key; inside lambdas (their variables
    innermost first) ``var/`` is removed from the path: the first occurrence, anywhere."""
    for variable in lambdas:
        path = path.replace(variable + "/", "", 1)
    return path.replace("/", ".")


def field_path(key: str) -> str:
    """A query document's key as a field path: ``/`` between names, array indexes left out (``stages.0``,
    which ``all()`` asks to exist, is the array itself)."""
    if "." not in key and not key.isdigit():
        return key
    return "/".join(part for part in key.split(".") if not part.isdigit())


def text_value(text: str) -> str | ObjectId:
    """A quoted literal's value: 24 hex digits are an ObjectID (in lower case, as the driver keeps it)."""
    return ObjectId(text.lower()) if len(text) == 24 and OBJECT_ID.fullmatch(text) else text


def text_pattern(function: str, text: str) -> str:
    """The regular expression ``startswith``, ``endswith`` or ``substringof`` matches with, for ``text``."""
    return {"startswith": "^" + text, "endswith": text + "$"}.get(function, text)


@lru_cache(maxsize=256)
def js_regex(pattern: str) -> Regex | str:
    """``new RegExp(pattern, "i")``, or V8's complaint about the pattern."""
    try:
        _jsregex.check(pattern)
    except _jsregex.RegexError as error:
        return error.message
    return Regex(_jsregex.source(pattern), "i")


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


def _not_a_condition(node: Node) -> str:
    if node.kind == MEMBER:
        return f"a field alone is not a condition: {node.value} (compare it, e.g. {node.value} eq …)"
    if node.kind == MATH:
        return f"arithmetic ({node.op}) is not supported by this server"
    if node.kind == FN:
        return _unsupported_function(node)
    return "a literal alone is not a condition"


def _right_side(node: Node, op: str) -> str:
    if node.kind == BOOL:
        return f"comparisons do not chain (… {op} … {node.op} …): use and/or"
    if node.kind == MATH:
        return f"arithmetic ({node.op}) is not supported by this server"
    if node.kind == FN:
        return f"a function on the right of '{op}' is not supported"
    return f"the right side of '{op}' must be a literal or a field"


def _unsupported_function(node: Node) -> str:
    name = node.op
    if name in ("startswith", "endswith"):
        return f"{name} takes a field first, then a literal or a field: {name}(field,'text')"
    if name == "substringof":
        return "substringof takes a quoted text first, then a field: substringof('text',field)"
    return f"the function {name} is not supported by this server (only startswith, endswith, substringof)"
