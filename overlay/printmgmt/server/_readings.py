"""Where the server groups a filter differently from OData (docs/paging.md), and the members an option names."""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from ._parser import ANDOR, ANYALL, UNARY, Node


@dataclass(frozen=True, slots=True)
class Misreading:
    """A place where the server groups differently from OData: ``server`` and ``odata`` are the whole filter,
    parenthesised as the server reads it and as OData would (most likely meant; the server reads it so)."""

    position: int
    server: str
    odata: str


@dataclass(frozen=True, slots=True)
class Member:
    """A field an option names: ``path`` with ``/`` as the server keys it (inside a lambda, from the
    collection on), its ``position`` in the option's text and the text ``written`` there."""

    path: str
    position: int
    written: str


def _is_not(node: Node) -> bool:
    return node.kind == UNARY and node.op == "not "


def _links(node: Node, root: Node) -> bool:
    """Whether ``node`` belongs to the chain of and/or/not that starts at ``root`` (no parentheses between)."""
    return (node is root or node.parens == 0) and (node.kind == ANDOR or _is_not(node))


# canonical forms of a grouping: ("and"|"or", operands), ("not", operand), or an operand's position
_Canon = tuple[object, ...] | int


def _negated(canon: _Canon) -> _Canon:
    # not (not x) means x in both readings
    if isinstance(canon, tuple) and canon[0] == "not":
        return canon[1]  # type: ignore[return-value]
    return ("not", canon)


def _merge(op: str, parts: list[_Canon]) -> _Canon:
    if len(parts) == 1:
        return parts[0]
    flat: list[_Canon] = []
    for part in parts:
        if isinstance(part, tuple) and part[0] == op:
            flat.extend(part[1])  # type: ignore[arg-type]
        else:
            flat.append(part)
    return (op, tuple(flat))


class _Reader:
    """Both groupings of each chain of and/or/not in one filter."""

    def __init__(self, text: str) -> None:
        self.text = text
        self.found: list[int] = []

    def server(self, node: Node, root: Node) -> tuple[_Canon, str]:
        """The server's grouping: and/or to the right, ``not`` over the whole rest (a loop down the right side)."""
        spine: list[Node] = []
        while _links(node, root):
            spine.append(node)
            node = node.args[0] if _is_not(node) else node.args[1]
        canon: _Canon = node.pos
        text = self.operand(node, self.server)
        right = node
        for link in reversed(spine):
            if _is_not(link):
                canon, text = _negated(canon), _not(text, right is node and _enclosed(node))
            else:
                left = link.args[0]  # never a link: "not " would have taken the rest
                if _links(right, root) and not (right.kind == ANDOR and right.op == link.op):
                    text = f"({text})"
                canon = _merge(link.op, [left.pos, canon])
                text = f"{self.operand(left, self.server)} {link.op} {text}"
            right = link
        return canon, text

    def odata(self, node: Node, root: Node) -> tuple[_Canon, str]:
        """OData's grouping: ``not`` on the next operand, ``and`` before ``or``."""
        if not _links(node, root):
            return node.pos, self.operand(node, self.odata)
        operands: list[tuple[int, Node]] = []  # (negations, operand)
        ops: list[str] = []
        # in order: a link's left side, its operator, its right side; a not adds to its first operand
        stack: list[tuple[Node | str, int]] = [(node, 0)]
        while stack:
            item, negations = stack.pop()
            if isinstance(item, str):
                ops.append(item)
            elif not _links(item, root):
                operands.append((negations, item))
            elif _is_not(item):
                stack.append((item.args[0], negations + 1))
            else:
                stack += [(item.args[1], 0), (item.op, 0), (item.args[0], negations)]
        canons: list[_Canon] = []
        texts: list[str] = []
        for negations, operand in operands:
            canon: _Canon = operand.pos
            text = self.operand(operand, self.odata)
            for negation in range(negations):
                canon, text = _negated(canon), _not(text, negation == 0 and _enclosed(operand))
            canons.append(canon)
            texts.append(f"({text})" if negations and len(operands) > 1 else text)
        groups: list[list[int]] = [[0]]
        for i, op in enumerate(ops, start=1):
            groups[-1].append(i) if op == "and" else groups.append([i])
        ands = [(_merge("and", [canons[i] for i in g]), " and ".join(texts[i] for i in g)) for g in groups]
        if len(ands) == 1:
            return ands[0]
        shown = [f"({t})" if len(g) > 1 else t for (_, t), g in zip(ands, groups, strict=True)]
        return _merge("or", [c for c, _ in ands]), " or ".join(shown)

    def operand(self, node: Node, reading: Callable[[Node, Node], tuple[_Canon, str]]) -> str:
        """An operand's text: a parenthesised chain and a lambda's body in the same reading, anything else
        as written (with its parentheses)."""
        if node.kind == ANDOR or _is_not(node):
            return f"({reading(node, node)[1]})"
        if node.kind == ANYALL:
            body = node.args[0]
            inner = reading(body, body)[1]
            if body.parens and (body.kind == ANDOR or _is_not(body)):
                inner = f"({inner})"
            return f"{self.text[node.pos : body.start]}{inner}{self.text[body.stop : node.end]}"
        return self.text[node.start : node.stop]

    def visit(self, tree: Node) -> None:
        """Compare both readings of every chain, then look inside its operands."""
        stack = [tree]
        while stack:
            node = stack.pop()
            if node.kind == ANDOR or _is_not(node):
                operands, may_differ = _chain(node)
                if may_differ and self.server(node, node)[0] != self.odata(node, node)[0]:
                    self.found.append(node.op_pos if node.kind == ANDOR else node.pos)
                stack += operands
            else:
                stack += node.args


def _enclosed(node: Node) -> bool:
    """Whether an operand's text (:meth:`_Reader.operand`) is one pair of parentheses around the rest."""
    return node.kind == ANDOR or _is_not(node) or (node.parens > 0 and node.kind != ANYALL)


def _not(text: str, enclosed: bool) -> str:
    return f"not {text}" if enclosed else f"not ({text})"


def _chain(root: Node) -> tuple[list[Node], bool]:
    """The operands of the chain at ``root`` (what its and/or/not links join), and whether its two readings can
    differ: only when it mixes ``and`` with ``or``, or has a ``not`` over and/or."""
    operands: list[Node] = []
    ops: set[str] = set()
    not_over_andor = False
    stack = [root]
    while stack:
        node = stack.pop()
        if _is_not(node):
            not_over_andor = not_over_andor or (node.args[0].kind == ANDOR and _links(node.args[0], root))
        else:
            ops.add(node.op)
        for child in node.args:
            (stack if _links(child, root) else operands).append(child)
    return operands, not_over_andor or len(ops) > 1


def misreadings_of(tree: Node, text: str) -> tuple[Misreading, ...]:
    """Places where the server groups the filter ``text`` (read as ``tree``) differently from OData."""
    reader = _Reader(text)
    try:
        reader.visit(tree)
        if not reader.found:
            return ()
        server = reader.server(tree, tree)[1]
        odata = reader.odata(tree, tree)[1]
    except RecursionError:  # parentheses nested hundreds deep: nothing to show
        return ()
    return tuple(Misreading(position, server, odata) for position in sorted(reader.found))
