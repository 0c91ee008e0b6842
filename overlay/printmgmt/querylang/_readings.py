"""Where this server reads a filter differently from OData, and which members a filter uses.

The server gives ``and`` and ``or`` one precedence and groups them to the right, and ``not `` takes the
whole rest of the expression; OData binds ``not`` to the next operand, ``and`` before ``or``, both from
the left. A chain of conditions without parentheses can therefore mean two different things.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC

from ._options import parse_tree
from ._parser import ANDOR, ANYALL, BOOL, FN, MATH, MEMBER, UNARY, Node
from ._values import QueryRefused


@dataclass(frozen=True, slots=True)
class Misreading:
    """A place where the server groups differently from OData.

    ``server`` and ``odata`` are the whole filter, parenthesised as the server reads it and as OData
    would (what the writer most likely meant; the server reads this text that way).
    """

    position: int
    server: str
    odata: str


@dataclass(frozen=True, slots=True)
class Member:
    """A member path a filter uses: ``path`` with ``/`` (inside a lambda, from the collection on: the
    variable is replaced by the collection's path), its ``position`` and the text ``written`` there."""

    path: str
    position: int
    written: str = ""


def _is_not(node: Node) -> bool:
    return node.kind == UNARY and node.op == "not "


def _links(node: Node, root: Node) -> bool:
    """Whether ``node`` belongs to the chain of and/or/not that starts at ``root`` (no parentheses between)."""
    return (node is root or node.parens == 0) and (node.kind == ANDOR or _is_not(node))


# canonical forms of a grouping: ("and"|"or", operands), ("not", operand), or an operand's position
_Canon = tuple[object, ...] | int


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
        """The server's grouping: and/or to the right, ``not`` over the whole rest."""
        if not _links(node, root):
            return node.pos, self.operand(node, self.server)
        if _is_not(node):
            canon, text = self.server(node.args[0], root)
            return ("not", canon), f"not ({text})"
        parts = [self.server(arg, root) for arg in node.args]
        texts = [
            f"({t})" if _links(arg, root) and not (arg.kind == ANDOR and arg.op == node.op) else t
            for (_, t), arg in zip(parts, node.args, strict=True)
        ]
        return _merge(node.op, [c for c, _ in parts]), f" {node.op} ".join(texts)

    def odata(self, node: Node, root: Node) -> tuple[_Canon, str]:
        """OData's grouping: ``not`` on the next operand, ``and`` before ``or``."""
        if not _links(node, root):
            return node.pos, self.operand(node, self.odata)
        operands: list[list[object]] = []  # [negations, node]
        ops: list[str] = []

        def flatten(n: Node) -> None:
            if not _links(n, root):
                operands.append([0, n])
            elif _is_not(n):
                first = len(operands)
                flatten(n.args[0])
                operands[first][0] += 1  # type: ignore[operator]
            else:
                flatten(n.args[0])
                ops.append(n.op)
                flatten(n.args[1])

        flatten(node)
        canons: list[_Canon] = []
        texts: list[str] = []
        for negations, operand in operands:
            assert isinstance(operand, Node) and isinstance(negations, int)
            canon: _Canon = operand.pos
            text = self.operand(operand, self.odata)
            for _ in range(negations):
                canon, text = ("not", canon), f"not ({text})"
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
        """An operand's text: a parenthesised chain and a lambda's body in the same reading."""
        if node.kind == ANDOR or _is_not(node):
            return f"({reading(node, node)[1]})"
        if node.kind == ANYALL:
            body = node.args[0]
            return f"{self.text[node.pos : body.pos]}{reading(body, body)[1]})"
        return self.text[node.pos : node.end]

    def visit(self, node: Node) -> None:
        """Compare both readings of every chain, then look inside its operands."""
        if node.kind == ANDOR or _is_not(node):
            if self.server(node, node)[0] != self.odata(node, node)[0]:
                self.found.append(node.op_pos if node.kind == ANDOR else node.pos)
            self.visit_operands(node, node)
        else:
            for child in node.args:
                self.visit(child)

    def visit_operands(self, node: Node, root: Node) -> None:
        for child in node.args:
            if _links(child, root):
                self.visit_operands(child, root)
            else:
                self.visit(child)


def misreadings(text: str) -> list[Misreading]:
    """Places where the server groups ``text`` differently from OData (empty when it reads the same, or
    when the server refuses the text)."""
    try:
        tree = parse_tree(text, UTC)
    except QueryRefused:
        return []
    reader = _Reader(text)
    reader.visit(tree)
    if not reader.found:
        return []
    server = reader.server(tree, tree)[1]
    odata = reader.odata(tree, tree)[1]
    return [Misreading(position, server, odata) for position in sorted(reader.found)]


def filter_members(text: str) -> list[Member]:
    """The member paths a filter uses, in order, with positions (raises :class:`QueryRefused` when the
    server refuses the text's grammar)."""
    out: list[Member] = []

    def walk(node: Node, lambdas: tuple[tuple[str, str], ...]) -> None:
        if node.kind == MEMBER:
            out.append(Member(_resolve(node.value, lambdas), node.pos, text[node.pos : node.end]))
        elif node.kind == ANYALL:
            collection = _resolve(node.path, lambdas)
            out.append(Member(collection, node.pos, text[node.pos : node.op_pos]))
            walk(node.args[0], ((node.value, collection), *lambdas))
            return
        if node.kind in (BOOL, FN, MATH, ANDOR, UNARY):
            for child in node.args:
                walk(child, lambdas)

    walk(parse_tree(text, UTC), ())
    return out


def _resolve(path: str, lambdas: tuple[tuple[str, str], ...]) -> str:
    for variable, collection in lambdas:
        if path == variable:
            return collection
        if path.startswith(variable + "/"):
            return collection + path[len(variable) :]
    return path
