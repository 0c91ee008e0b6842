"""Where the server reads a filter's values otherwise than OData means them (docs/paging.md, "Values the server
reads otherwise"; the grouping of and/or/not is :mod:`._readings`'). The walks are loops: a tree of any depth is
looked at without recursion.
"""

from __future__ import annotations

import operator
import re
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from decimal import Decimal
from functools import lru_cache
from typing import Final

from ..fields import field_type, is_epoch_ms, known_paths, unknown_path
from . import _lexer as lx
from ._js import number_to_string
from ._parser import (
    ANYALL,
    BOOL,
    FN,
    LIT_BINARY,
    LIT_BOOLEAN,
    LIT_DATETIME,
    LIT_DATETIMEOFFSET,
    LIT_GUID,
    LIT_NULL,
    LIT_NUMBER,
    LIT_STRING,
    MEMBER,
    UNARY,
    Node,
)
from ._readings import Member

__all__ = ["Finding", "escape_regex", "findings"]

#: The characters a JavaScript regular expression gives a meaning; JavaScript (and PCRE, which MongoDB runs
#: the expression with) reads each as itself after a backslash, also in unicode mode, so nothing else is escaped.
_REGEX_SPECIAL: Final = re.compile(r"[\\^$.|?*+()\[\]{}]")
#: a special character escaped (the expression's own way of writing it), or one that is not
_ESCAPED_OR_SPECIAL: Final = re.compile(r"\\[\\^$.|?*+()\[\]{}]|" + _REGEX_SPECIAL.pattern)
_TEXT_FUNCTIONS: Final = frozenset({"startswith", "endswith", "substringof"})
#: OData's meaning of ``condition op true|false`` (false < true), by whether it holds for a false and a true one
_BOOLEAN_MEANING: Final = {(False, True): "it", (True, False): "not", (False, False): "never", (True, True): "always"}
#: comparisons whose OData reading of a null condition no server form keeps ('ne false' true, the others false)
_NULL_KEPT_OTHERWISE: Final = frozenset({("ne", False), ("lt", True), ("le", False)})
_PYTHON_OPS: Final = {"eq": "==", "ne": "!=", "gt": ">", "ge": ">=", "lt": "<", "le": "<="}
_EPOCH: Final = datetime(1970, 1, 1, tzinfo=UTC)
_LONG_NUMBER: Final = re.compile(r"[0-9]{16}")
_CAPITAL: Final = re.compile(r"(?<=[a-z0-9])([A-Z])")
#: the spec's JSON types by the kind of value MongoDB compares (its type brackets)
_BRACKETS: Final = {"integer": "number", "number": "number", "string": "text", "boolean": "boolean"}

Edit = tuple[int, int, str]


@dataclass(frozen=True, slots=True)
class Finding:
    """A place the server reads otherwise than OData: ``edits`` (start, end, replacement) give OData's meaning
    in a form the server reads so (none: it has no such form); a ``warning`` (its kind) is sent as written."""

    position: int
    reason: str
    edits: tuple[Edit, ...] = ()
    #: a warning's kind (the :class:`~printmgmt.errors.QueryMeaningWarning`'s), or "" for a refusal
    warning: str = ""


def escape_regex(text: str) -> str:
    r"""``text`` as a regular expression that matches itself only (``v1.2`` -> ``v1\.2``)."""
    return _REGEX_SPECIAL.sub(lambda m: "\\" + m.group(0), text)


def quoted(text: str) -> str:
    """``text`` as the grammar's quoted literal."""
    return "'" + text.replace("'", "''") + "'"


def findings(tree: Node, text: str, members: tuple[Member, ...], collection: str) -> list[Finding]:
    """Every place in the filter ``text`` (read as ``tree``, naming ``members``) that the server reads otherwise
    than OData means it, in the order of the text; ``collection``'s spec types the fields."""
    # a number is misread only after "$" or past 15 digits: most filters have neither
    numbers = "$" in text or _LONG_NUMBER.search(text) is not None
    paths = {member.position: member.path for member in members}
    found: list[Finding] = []
    objects: list[Node] = []  # 'eq' of an ObjectId or a date, which the server's 'not' makes a failing $not
    stack = [tree]
    while stack:
        node = stack.pop()
        kind = node.kind
        if kind == BOOL:
            left, right = node.args
            if (refused := _refused_comparison(node, paths, collection, text)) is not None:
                found.append(refused)
                continue
            if left.kind == MEMBER:
                if node.op == "eq" and (_KINDS.get(right.kind) == "date" or _object_id(right)):
                    objects.append(node)
                if _KINDS.get(right.kind) == "date" and not _odata_date(right.op):
                    found.append(Finding(right.pos, "OData reads no such date (the server's JavaScript reads one)"))
                if right.kind in _KINDS and left.pos in paths:
                    found += _typed(node, paths[left.pos], right, collection, text)
                if numbers and right.kind == LIT_NUMBER:
                    found += _number(right, text)
                continue  # a member and a literal or a member: nothing below
            if right.kind == LIT_BOOLEAN and node.op != "eq":
                found.append(_boolean(node, right, text))
        elif kind == FN:
            if node.op in _TEXT_FUNCTIONS:
                found += _text_function(node, text, collection, paths)
        elif kind == ANYALL and (alone := _element_alone(node)) is not None:
            found.append(_scalar_lambda(node, alone, text, collection))
            continue
        elif kind == LIT_BINARY:
            found.append(Finding(node.pos, _BINARY))
            continue
        elif kind == LIT_NUMBER:
            if numbers:
                found += _number(node, text)
            continue
        stack += node.args
    if objects:  # a literal rewritten (guid'…', epoch milliseconds) is no ObjectId or date any more
        mended = {finding.position for finding in found if finding.edits}
        found += _negated_objects(tree, [node for node in objects if node.args[1].pos not in mended], text)
    return sorted(found, key=lambda finding: finding.position)


def _odata_date(written: str) -> bool:
    """Whether a date literal's text names a moment (no 30 February, no hour 24: JavaScript reads both)."""
    try:
        datetime.fromisoformat(written)
    except ValueError:
        return False
    return True


def _object_id(node: Node) -> bool:
    return node.kind == LIT_STRING and len(node.value) == 24 and lx.OBJECT_ID.fullmatch(node.value) is not None


def _negated_objects(tree: Node, objects: list[Node], text: str) -> list[Finding]:
    """The comparisons of ``objects`` the server negates (``not``, ``eq false``, the body of ``all()``) with a
    ``$not`` of an ObjectId or a date, which fails in MongoDB (``m ne v`` means the same and does not)."""
    found = []
    stack: list[tuple[Node, Node, bool]] = [(tree, tree, False)]
    while stack:
        node, parent, negated = stack.pop()
        if negated and any(node is compared for compared in objects):
            if parent.kind == BOOL and parent.op != "eq":
                continue  # refused for its operator: the rewrite is read again
            member, literal = node.args
            what = "a date" if _KINDS.get(literal.kind) == "date" else "an ObjectId"
            reason = f"the server negates {text[node.pos : node.end]} as $not of {what}, which fails in MongoDB"
            edits: tuple[Edit, ...] = ()
            # not (m eq v), (m eq v) eq false: m ne v
            if parent.kind == UNARY or (parent.kind == BOOL and parent.args[-1].value is False):
                reason += f": write {text[member.pos : member.end]} ne {text[literal.pos : literal.end]}"
                start, end = min(parent.pos, node.start), max(parent.end, node.stop)
                edits = ((start, node.pos, ""), (node.op_pos, node.op_pos + 2, "ne"), (node.end, end, ""))
            found.append(Finding(node.op_pos, reason, edits))
        elif node.kind == ANYALL:  # $elemMatch starts afresh; all() negates its body
            stack.append((node.args[0], node, node.op == "all"))
        else:
            last = node.args[-1] if node.args else node
            flips = node.kind == UNARY or (node.kind == BOOL and last.kind == LIT_BOOLEAN and not last.value)
            stack += [(arg, node, negated or flips) for arg in node.args]
    return found


def _boolean(node: Node, right: Node, text: str) -> Finding:
    value = bool(right.value)
    holds = getattr(operator, node.op)  # eq, ne, gt, ge, lt, le: OData's names are Python's
    meaning = _BOOLEAN_MEANING[holds(False, value), holds(True, value)]
    server = "the condition" if value else "its negation"
    written = text[node.op_pos : right.end]
    reason = f"the server ignores the operator after a condition and reads '{written}' as {server}"
    if meaning in ("always", "never"):
        return Finding(node.op_pos, f"{reason}; OData's is {meaning} true: leave the condition out")
    meant = "true" if meaning == "it" else "false"
    # a text function of a missing field is null in OData: 'ne false' keeps it, 'eq false' does not, and the
    # server's 'eq true' never keeps it, its 'eq false' always does
    condition = node.args[0]
    while condition.kind == UNARY:
        condition = condition.args[0]
    if condition.kind == FN and (node.op, value) in _NULL_KEPT_OTHERWISE:
        return Finding(node.op_pos, f"{reason}; the server has no form for OData's reading of a missing field")
    edits = ((node.op_pos, node.op_pos + 2, "eq"), (right.pos, right.end, meant))
    return Finding(node.op_pos, f"{reason}: write 'eq {meant}'", edits)


_BINARY: Final = (
    "binary'…' is a value no field holds: OData refuses to compare it, and the server compares the parser's "
    "array of its characters instead"
)
_WHERE: Final = (
    "the server compares two fields with server-side JavaScript ($where): loose != and no types, a missing "
    "object fails the query, and servers without JavaScript refuse it; OData compares typed values. Compare "
    "each field with a literal instead"
)
_ORDERS: Final = frozenset({"lt", "le", "gt", "ge"})
_CAPITALS: Final = (
    "jobs' keys are ObjectIds: the server reads capitals as the ObjectId, OData as a text: write lower case"
)


def _refused_comparison(node: Node, paths: dict[int, str], collection: str, text: str) -> Finding | None:
    """A comparison OData refuses or the server cannot read as OData: two fields (JavaScript to the
    server), an object or array of objects as a value, or an order against null."""
    left, right = node.args
    if left.kind == MEMBER and right.kind == MEMBER and _known(collection, paths, left, right):
        return Finding(node.op_pos, _WHERE)
    if LIT_BINARY in (left.kind, right.kind):
        binary = left if left.kind == LIT_BINARY else right
        return Finding(binary.pos, _BINARY)
    for side in (left, right):
        if side.kind == MEMBER and field_type(collection, paths.get(side.pos, "")) == "object":
            written = text[side.pos : side.end]
            reason = (
                f"{written} holds an object (or an array of them) in the spec: OData refuses to compare it as a "
                "value (compare one of its fields; any()/all() for an array)"
            )
            return Finding(side.pos, reason)
    if node.op in _ORDERS and LIT_NULL in (left.kind, right.kind):
        reason = (
            f"'{node.op} null' is never true in OData, and MongoDB matches missing and null fields with it: "
            "leave the condition out"
        )
        return Finding(node.op_pos, reason)
    return None


def _known(collection: str, paths: dict[int, str], *sides: Node) -> bool:
    """Whether every member of ``sides`` is a field of the spec (else the unknown field's warning says more)."""
    return all(not unknown_path(collection, paths.get(side.pos, str(side.value))) for side in sides)


def _element_alone(node: Node) -> Node | None:
    """The first place a lambda's body names its variable alone (``fn eq 'x'``: the array's element itself,
    which the server's $elemMatch of a query document never matches), or None."""
    variable = node.value
    stack = [node.args[0]]
    while stack:
        inner = stack.pop()
        if inner.kind == MEMBER and inner.value == variable:
            return inner
        stack += inner.args
    return None


def _scalar_lambda(node: Node, alone: Node, text: str, collection: str) -> Finding:
    body = node.args[0]
    reason = (
        f"the server never matches {text[alone.pos : alone.end]}, the element of {node.path} itself, inside "
        f"{node.op}() (its $elemMatch matches fields of documents only)"
    )
    literal = body.args[1] if body.kind == BOOL else body
    if (
        node.op == "any"
        # an array the spec types (not one in an open object, nor a lambda's inside another's)
        and field_type(collection, node.path) in _BRACKETS
        and body.kind == BOOL
        and body.op == "eq"
        and body.args[0] is alone
        and literal.kind in (LIT_STRING, LIT_NUMBER, LIT_BOOLEAN)
    ):
        # MongoDB's equality on an array matches where one element equals: any(v: v eq x) itself
        meant = f"{text[node.pos : node.op_pos]} eq {text[literal.pos : literal.end]}"
        return Finding(node.pos, f"{reason}: write {meant}", ((node.pos, node.end, meant),))
    return Finding(node.pos, reason)


def _text_function(node: Node, text: str, collection: str, paths: dict[int, str]) -> list[Finding]:
    name = node.op
    literal, member = node.args if name == "substringof" else node.args[::-1]
    if member.kind == MEMBER:
        path = paths.get(member.pos)
        kind = None if path is None else _field_kind(collection, path)
        if kind not in (None, "text", "id") or (path is not None and field_type(collection, path) == "object"):
            return [Finding(member.pos, f"OData's {name} takes a text, and {path} holds no text in the spec")]
        if literal.kind == LIT_NULL:  # the server's regular expression is the text "undefined"
            return [Finding(literal.pos, f"OData's {name} of null is null: neither it nor its negation holds")]
        if literal.kind not in (LIT_STRING, MEMBER):
            return [Finding(literal.pos, f"OData's {name} takes a text, and {text[literal.pos : literal.end]} is none")]
        if (collection, path) == ("jobs", "_id"):
            return [Finding(member.pos, "jobs' keys are ObjectIds: the server's regular expression never matches one")]
        if literal.kind == MEMBER:
            return [Finding(node.pos, _WHERE)] if _known(collection, paths, member, literal) else []
    if literal.kind != LIT_STRING or member.kind != MEMBER:
        return []
    value: str = literal.value
    out = []
    # the text itself, as a regular expression: an escape (v1\.2) stays, a special character gains a backslash
    # (a backslash before any other character is one: \d -> \\d)
    meant = _ESCAPED_OR_SPECIAL.sub(lambda m: m.group() if len(m.group()) == 2 else "\\" + m.group(), value)
    if meant != value:
        escaped = quoted(meant)
        reason = f"the server reads the text of {name} as a regular expression: for the text itself write {escaped}"
        out.append(Finding(literal.pos, reason, ((literal.pos, literal.end, escaped),)))
    if value.lower() != value.upper():
        # the same words for every text of one literal shape: the check keeps an acceptance by its shape
        reason = f"{name} ignores case on this server (OData's is case-exact)"
        out.append(Finding(node.pos, reason, warning="case"))
    return out


def _number(node: Node, text: str) -> list[Finding]:
    digits: str = node.op
    out = []
    end = node.pos + len(digits)
    if end < node.end and text[end] == "$":
        reason = (
            f"the server reads '$' after the number {digits} as the start of another query option and drops "
            "the rest of the filter"
        )
        out.append(Finding(end, reason))
    # the double's own value, or its shortest digits (as JavaScript writes it), is what was written; at most 15
    # digits always are (the common case, decided by the length)
    if len(digits) > 15 and Decimal(digits) not in (Decimal(float(digits)), Decimal(repr(float(digits)))):
        reason = f"the server reads numbers as doubles: {digits} is read as {number_to_string(float(digits))}"
        out.append(Finding(node.pos, reason))
    return out


def _typed(node: Node, path: str, literal: Node, collection: str, text: str) -> list[Finding]:
    """A field compared with a literal MongoDB never matches it with (the spec types the field)."""
    field_kind = _field_kind(collection, path)
    if field_kind is None:
        return []
    kind = _KINDS[literal.kind]
    if _object_id(literal):
        kind = "objectid"
    if field_kind == "id":  # an ObjectId or a text: never a number, a boolean or a date
        # jobs' keys are ObjectIds (the profile's job_ids: a server keeping texts needs check_query="syntax")
        jobs_key = (collection, path) == ("jobs", "_id")
        if kind == "objectid" and jobs_key and literal.value != literal.value.lower():
            return [Finding(literal.pos, _CAPITALS)]
        if kind == "objectid" or (kind == "text" and (node.op not in _ORDERS or not jobs_key)):
            return []
        reason = f"{path} is an ObjectId or a text, and MongoDB never matches {_KIND_NAMES[kind]} with one"
        if kind == "text":  # an order: MongoDB compares values of one type only
            reason = f"jobs' keys are ObjectIds, and MongoDB orders none against a text: '{node.op}' matches nothing"
        return [Finding(literal.pos, reason)]
    epoch = field_kind == "epoch"
    if epoch:
        field_kind = "number"
    if kind == field_kind:
        return []
    declared = field_type(collection, path)
    op = node.op
    replacement = _same_value(kind, field_kind, literal, op, epoch)
    if kind == "objectid":
        written = text[literal.pos : literal.end]
        reason = f"the server reads {written}, 24 hex digits, as an ObjectId, which never equals the text {path} holds"
    else:
        what = "epoch milliseconds" if epoch else f"{declared}s"
        reason = f"{path} holds {what} in the spec, and MongoDB never matches {_KIND_NAMES[kind]} with one"
        reason += " (ne matches every document, the other operators none)"
    if replacement is None:
        return [Finding(literal.pos, reason)]
    reason += f": write {replacement}"
    if kind == "date":
        reason += f" ({path} {op} {replacement}), or build it: {_builder(collection, path, op, int(replacement))}"
    return [Finding(literal.pos, reason, ((literal.pos, literal.end, replacement),))]


_KIND_NAMES: Final = dict(number="a number", text="a text", boolean="a boolean", date="a date", objectid="an ObjectId")
#: the kind of value MongoDB compares a literal as (a text of 24 hex digits is an ObjectId); null matches a
#: missing field of any type, binary is an array: neither is held to the field's type
_KINDS: Final = {LIT_NUMBER: "number", LIT_BOOLEAN: "boolean", LIT_GUID: "text", LIT_STRING: "text"}
_KINDS.update(dict.fromkeys((LIT_DATETIME, LIT_DATETIMEOFFSET), "date"))


@lru_cache(maxsize=1024)
def _field_kind(collection: str, path: str) -> str | None:
    """The kind of value the spec says ``path`` holds (``epoch`` for epoch milliseconds), or None."""
    if path.rsplit("/", 1)[-1] == "_id":  # printers' keys are names; jobs' ObjectIds, others' the spec cannot tell
        return "text" if (collection, path) == ("printers", "_id") else "id"
    if is_epoch_ms(path):
        return "epoch"
    return _BRACKETS.get(field_type(collection, path) or "")


def _same_value(kind: str, field_kind: str, literal: Node, op: str, epoch: bool) -> str | None:
    """The literal the server compares as the field's type, where it means what was written."""
    if kind == "date":
        epoch_ms = literal.value.epoch_ms
        return None if not epoch or epoch_ms is None else str(epoch_ms)
    if kind == "objectid":
        return f"guid'{literal.value}'" if field_kind == "text" else None
    if op not in ("eq", "ne"):  # an order of numbers is not one of texts, nor of booleans
        return None
    if kind == "number" and field_kind == "boolean" and literal.value in (0, 1):
        return "true" if literal.value == 1 else "false"
    if kind == "number" and field_kind == "text":
        return quoted(literal.op)
    if kind == "text" and field_kind == "number" and lx.NUMBER.fullmatch(literal.value):
        return str(literal.value)
    if kind == "text" and field_kind == "boolean" and literal.value in ("true", "false"):
        return str(literal.value)
    return None


def _builder(collection: str, path: str, op: str, epoch_ms: int) -> str:
    """What :mod:`printmgmt.odata` builds the comparison with (it writes the epoch milliseconds itself)."""
    when = _EPOCH + timedelta(milliseconds=epoch_ms)
    parts = [when.year, when.month, when.day, when.hour, when.minute, when.second, when.microsecond]
    while len(parts) > 3 and parts[-1] == 0:
        parts.pop()
    moment = f"datetime({', '.join(map(str, parts))}, tzinfo=UTC)"
    field = f'odata.field("{path}")'
    if path in known_paths(collection)[0]:  # the catalogue names each in snake case: odata.jobs.current.copies
        field = ".".join(["odata", collection, *(_CAPITAL.sub(r"_\1", p).lower().lstrip("_") for p in path.split("/"))])
    return f"{field} {_PYTHON_OPS[op]} {moment}"
