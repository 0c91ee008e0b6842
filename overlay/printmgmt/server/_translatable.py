"""Which filter trees breeze-mongodb 0.0.8 translates, and the fields a translated filter names.

Only comparisons of a member with a literal or a member, ``startswith``/``endswith``/``substringof``,
``and``/``or``, ``not `` and lambdas translate; everything else is "Not yet implemented" (400). The query
document breeze then builds is the simulator's (``printmgmt_sim.translation``): the check needs only the refusal
and the fields. It leaves one refusal to the server: V8's check of the regular expression a text function builds
from its literal (docs/paging.md, "The check").
"""

from __future__ import annotations

from ._parser import ANDOR, ANYALL, BOOL, FN, LIT_BOOLEAN, LIT_STRING, MATH, MEMBER, UNARY, Node
from ._readings import Member


class Untranslatable(Exception):
    """breeze throws here: ``position`` in the filter and the reason in words."""

    def __init__(self, position: int, reason: str) -> None:
        super().__init__(reason)
        self.position = position
        self.reason = reason


class Fields:
    """Walks one filter tree as breeze translates it: raises :class:`Untranslatable` where breeze throws, and
    collects in ``members`` each member as the document keys it, in the order the text names them (below a lambda
    from its collection's path on)."""

    __slots__ = ("members", "prefix", "text")

    def __init__(self, text: str) -> None:
        self.text = text
        self.members: list[Member] = []
        # the path of the innermost open lambda's collection, with "/" (empty outside lambdas)
        self.prefix = ""

    def condition(self, node: Node, lambdas: tuple[str, ...] = ()) -> None:
        kind = node.kind
        if kind == BOOL:
            self.compare(node, lambdas)
        elif kind == ANDOR:
            # a chain a op (b op (c …)) as a loop, the left operands first as breeze translates them
            while node.kind == ANDOR:
                self.condition(node.args[0], lambdas)
                node = node.args[1]
            self.condition(node, lambdas)
        elif kind == FN and len(node.args) == 2:
            self.function(node, lambdas)
        elif kind == UNARY:
            self.condition(node.args[0], lambdas)
            if node.op != "not ":
                raise Untranslatable(node.pos, "a minus sign before a condition is not supported")
        elif kind == ANYALL:
            self.lambda_(node, lambdas)
        else:
            raise Untranslatable(node.pos, _not_a_condition(node))

    def member(self, node: Node, lambdas: tuple[str, ...]) -> str:
        """Collects a member (or a lambda's collection) ``node``; its document key."""
        lambda_ = node.kind == ANYALL
        key = member_key(node.path if lambda_ else node.value, lambdas)
        written = self.text[node.pos : node.op_pos if lambda_ else node.end]
        path = self.prefix + field_path(key) if lambdas else key.replace(".", "/")
        self.members.append(Member(path, node.pos, written))
        return key

    def compare(self, node: Node, lambdas: tuple[str, ...]) -> None:
        op = node.op
        left, right = node.args
        if left.kind == MEMBER:
            self.member(left, lambdas)
            if right.kind == MEMBER:
                self.member(right, lambdas)
            elif not right.kind.startswith("lit_"):
                raise Untranslatable(right.pos, _right_side(right, op))
            return
        if right.kind == LIT_BOOLEAN:  # only the boolean counts; the operator is ignored
            self.condition(left, lambdas)
            return
        if left.kind.startswith("lit_"):
            reason = f"a comparison needs a field on the left, not the literal {self.text[left.pos : left.end]}"
        elif left.kind == FN:
            reason = f"a function is compared only with true or false ({left.op}(…) {op} …)"
        else:
            reason = f"the left side of '{op}' must be a field"
        raise Untranslatable(left.pos, reason)

    def function(self, node: Node, lambdas: tuple[str, ...]) -> None:
        name = node.op
        first, second = node.args
        # {__proto__: regex} sets no key: breeze finds its query empty and throws
        if first.kind == MEMBER:
            key = self.member(first, lambdas)
            if second.kind == MEMBER:
                self.member(second, lambdas)
                if name in ("startswith", "endswith"):
                    return
            elif name in ("startswith", "endswith") and second.kind.startswith("lit_") and key != "__proto__":
                return
        elif name == "substringof" and first.kind == LIT_STRING and second.kind == MEMBER:
            key = self.member(second, lambdas)
            if key != "__proto__":
                return
        raise Untranslatable(node.pos, _unsupported_function(node))

    def lambda_(self, node: Node, lambdas: tuple[str, ...]) -> None:
        inner = (node.value, *lambdas)
        self.member(node, inner)
        outer, self.prefix = self.prefix, self.members[-1].path + "/"
        try:
            self.condition(node.args[0], inner)
        finally:
            self.prefix = outer


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
