"""The grammar of breeze-odataparser 0.0.1 as a recursive-descent parser with exact positions.

It follows the PEG rules as they are: ordered choice that never backs off, greedy repetition, one blank
character (``' '``), right-recursive ``and``/``or`` (one precedence), comparisons and arithmetic, ``not ``
taking a whole filter expression. Each rule returns its node or ``None``; ``far`` is the furthest position
any terminal failed at (where a refusal is reported).
"""

from __future__ import annotations

import re
from datetime import tzinfo
from typing import Any, Final

from . import _lexer as lx
from ._js import parse_float
from ._jsdate import date_from_text

# node kinds (the names breeze's tree uses)
MEMBER: Final = "member"
BOOL: Final = "op_bool"
ANDOR: Final = "op_andOr"
MATH: Final = "op_math"
UNARY: Final = "op_unary"
ANYALL: Final = "op_anyAll"
FN: Final = "fn"
LIT_NULL: Final = "lit_null"
LIT_BINARY: Final = "lit_binary"
LIT_BOOLEAN: Final = "lit_boolean"
LIT_NUMBER: Final = "lit_number"
LIT_DATETIME: Final = "lit_datetime"
LIT_DATETIMEOFFSET: Final = "lit_dateTimeOffset"
LIT_GUID: Final = "lit_guid"
LIT_STRING: Final = "lit_string"


class Node:
    """A node of the filter tree.

    ``op``: the operator, function or lambda operator (``any``/``all``); ``value``: a literal's value, a
    member's path (``/``-separated, as breeze keeps it) or a lambda's variable; ``args``: operands;
    ``path``: the collection of a lambda; ``pos``/``end``: the span in the text; ``op_pos``: where the
    operator stands; ``parens``: how many parentheses enclose the node directly; ``start``/``stop``: the span
    with the parentheses around the node and around its first and last operand.
    """

    __slots__ = ("args", "end", "kind", "op", "op_pos", "parens", "path", "pos", "start", "stop", "value")

    def __init__(self, kind: str, pos: int, end: int, op: str = "", value: Any = None, *args: Node) -> None:
        self.kind = kind
        self.pos = pos
        self.end = end
        self.op = op
        self.value = value
        self.args = args
        self.op_pos = pos
        self.parens = 0
        self.path = ""
        self.start = pos
        self.stop = end


Result = Node | None

_LAMBDAS: Final = ("/any", "/all")
_ARITHMETIC, _COMPARISONS, _LOGICAL = lx.ARITHMETIC, lx.COMPARISONS, lx.LOGICAL
#: every operator (none begins with the two letters of another: the text after a blank names one at most)
_OPERATORS: Final = _ARITHMETIC | _COMPARISONS | _LOGICAL
_KEYWORD_LITERALS: Final = ("null", "binary", "true", "false", "datetime", "guid")
_KEYWORD_INITIALS: Final = frozenset(word[0] for word in _KEYWORD_LITERALS)

#: the query options of the grammar's second rule named "exp"
_OPTION_IN_NUMBER: Final = re.compile(r"\$(expand|filter|orderby|skip|top|format|inlinecount|select)=")


class Parser:
    """One text, parsed by any of the grammar's start rules."""

    __slots__ = ("after", "at", "far", "mixed", "n", "op", "q", "s", "tz")

    def __init__(self, text: str, tz: tzinfo) -> None:
        self.s = text
        self.n = len(text)
        self.far = 0
        self.tz = tz
        # the last look(): at a blank at ``at``, the operator ``op`` at ``q``, its blanks ending at ``after``
        self.at = self.q = self.after = -1
        self.op = ""
        #: whether ``and`` met ``or`` in one chain, or ``not `` stood before a chain or a ``not``
        self.mixed = False

    def fail(self, pos: int) -> None:
        if pos > self.far:
            self.far = pos

    def squote(self, p: int) -> int:
        """The end of a quote (``'`` or ``%x27``) at ``p``, or -1 (failing there)."""
        if self.s.startswith("'", p):
            return p + 1
        if self.s.startswith("%x27", p):
            return p + 4
        self.fail(p)
        return -1

    def path(self, p: int) -> re.Match[str] | None:
        """An identifier path at ``p``; where it stops before a one-letter segment, that is the failure."""
        s = self.s
        m = lx.PATH.match(s, p)
        e = p if m is None else m.end()
        if m is None and p < self.n and s[p] in lx.NAME_START:
            self.fail(p + 1)
        elif e + 1 < self.n and s[e] in "./" and s[e + 1] in lx.NAME_START:
            self.fail(e + 2)
        return m

    def blanks(self, p: int) -> int:
        s, n = self.s, self.n
        while p < n and s[p] == " ":
            p += 1
        return p

    def look(self, p: int) -> str:
        """The operator after the blanks at ``p`` (a blank) or "", standing at ``q``, its blanks ending at
        ``after`` (kept: arithmetic, comparison and and/or each look at an operand's end)."""
        if p != self.at:
            s, n = self.s, self.n
            q = p + 1
            while q < n and s[q] == " ":
                q += 1
            op = s[q : q + 3]
            if op not in _OPERATORS:
                op = op[:2] if op[:2] in _OPERATORS else ""
            u = q + len(op)
            while u < n and s[u] == " ":
                u += 1
            self.at, self.q, self.op, self.after = p, q, op, u
        return self.op

    def operator(self, p: int, ops: frozenset[str]) -> str:
        """``wsp+ op wsp+`` at ``p`` (a blank) for one of ``ops``: the operator (at ``q``, the blanks after
        it ending at ``after``), or ""."""
        op = self.look(p)
        if op not in ops:
            if self.q > self.far:
                self.far = self.q
            return ""
        if self.after == self.q + len(op):
            if self.after > self.far:
                self.far = self.after
            return ""
        return op

    # filterExpr = wsp* n0Expr (wsp+ ("and"|"or") wsp+ filterExpr)?
    def filter_expr(self, p: int) -> Result:
        """Read as a loop (a filter of thousands of clauses nests no deeper), built right-grouped."""
        s, n = self.s, self.n
        operands: list[Node] = []
        ops: list[tuple[str, int]] = []
        while True:
            while p < n and s[p] == " ":
                p += 1
            r = self.n0(p)
            if r is None:
                break  # a dangling "and"/"or": the chain ends at the operand before it
            operands.append(r)
            end = r.stop
            if end >= n or s[end] != " ":  # no operator can follow (n0 has marked the end as far)
                break
            op = self.operator(end, _LOGICAL)
            if not op:
                break
            ops.append((op, self.q))
            p = self.after
        if len(operands) < 2:
            return operands[0] if operands else None
        if len(ops) > 1 and not self.mixed:
            self.mixed = len({op for op, _ in ops}) > 1
        node = operands[-1]
        stop = node.stop
        for left, (op, at) in zip(reversed(operands[:-1]), reversed(ops[: len(operands) - 1]), strict=True):
            node = Node(ANDOR, left.pos, node.end, op, None, left, node)
            node.op_pos, node.start, node.stop = at, left.start, stop
        return node

    # n0Expr = wsp* n1Expr (wsp+ ("eq"|"ne"|...) wsp+ n0Expr)?  (the callers pass the position after wsp*)
    # n1Expr = wsp* n2Expr (wsp+ ("add"|"sub"|...) wsp+ n1Expr)?
    def n0(self, p: int, ops: frozenset[str] = _COMPARISONS) -> Result:
        s, n = self.s, self.n
        # n2's commonest branches first (a field, a quoted text, a number), without its dispatch
        c = s[p] if p < n else ""
        if c in lx.NAME_START:
            r = self.word(p)
        elif c == "'":
            r = self.string(p)
        else:
            r = self.number(p) if c in lx.DIGITS else self.n2(p)
        if r is None:
            return None
        e = r.stop
        if e >= n or s[e] != " ":  # the common end of an operand: no operator can follow
            if e > self.far:
                self.far = e
            return r
        if ops is _COMPARISONS:
            op = self.look(e)
            if op in _ARITHMETIC:
                r = self.chain(r, MATH, _ARITHMETIC)
            else:  # what chain() would find: no arithmetic here, and maybe no comparison either
                if self.q > self.far:
                    self.far = self.q
                if op not in _COMPARISONS:
                    return r
        return self.chain(r, BOOL if ops is _COMPARISONS else MATH, ops)

    def chain(self, left: Node, kind: str, ops: frozenset[str]) -> Node:
        """``left (wsp+ op wsp+ right)?`` where the right side is the same level again (right-recursive)."""
        p = left.stop
        if p >= self.n or self.s[p] != " ":  # n0 has marked the end as far
            return left
        op = self.operator(p, ops)
        if not op:
            return left
        q = self.q
        right = self.n0(self.after, _COMPARISONS if kind == BOOL else _ARITHMETIC)
        if right is None:
            return left
        node = Node(kind, left.pos, right.end, op, None, left, right)
        node.op_pos, node.start, node.stop = q, left.start, right.stop
        return node

    # n2Expr = anyAllExpr / literal / parenExpr / unaryExpr / methodCallExpr / memberExpr
    def n2(self, p: int) -> Result:
        s = self.s
        if p >= self.n:
            self.fail(p)
            return None
        c = s[p]
        if c in lx.NAME_START:
            return self.word(p)
        if c == "(":
            return self.paren(p)
        if c in lx.DIGITS:
            return self.number(p)
        if c == "-":
            if p + 1 < self.n and s[p + 1] in lx.DIGITS:
                return self.number(p)
            return self.unary(p, "-", p + 1)
        if c == "'" or c == "%":
            if s.startswith("%d88", p):
                r = self.binary(p, p + 4)
                if r is not None:
                    return r
            return self.string(p)
        self.fail(p)
        return None

    def word(self, p: int) -> Result:
        """What starts with a letter: a lambda, a keyword literal, ``not ``, a function call or a member."""
        s = self.s
        m = lx.PATH.match(s, p)
        q = p if m is None else m.end()
        if m is None:
            self.fail(p + 1)  # a name of one letter
        elif s.startswith(_LAMBDAS, q):
            r = self.lambda_(p, m.group(), q)
            if r is not None:
                return r
        elif q + 1 < self.n and s[q] in "./" and s[q + 1] in lx.NAME_START:
            self.fail(q + 2)  # a segment of one letter
        c = s[p]
        if c in _KEYWORD_INITIALS and s.startswith(_KEYWORD_LITERALS, p):
            r = self.keyword_literal(p)
            if r is not None:
                return r
        if c == "n" and s.startswith("not ", p):
            r = self.unary(p, "not ", p + 4)
            if r is not None:
                return r
        if m is None:
            return None
        written = m.group()
        if q < self.n and s[q] == "(" and written in lx.FUNCTIONS:
            for arity in lx.FUNCTIONS[written]:
                r = self.call(p, written, q, arity)
                if r is not None:
                    return r
        if q > self.far:
            self.far = q
        return Node(MEMBER, p, q, "", lx.path_value(written) if "." in written else written)

    def lambda_(self, p: int, written: str, q: int) -> Result:
        # path "/" ("any"|"all") "(" wsp* identifier ":" wsp+ filterExpr wsp* ")"
        s = self.s
        op = s[q + 1 : q + 4]
        t = q + 4
        if not s.startswith("(", t):
            self.fail(t)
            return None
        t = self.blanks(t + 1)
        m = lx.IDENTIFIER.match(s, t)
        if m is None:
            self.fail(t + 1 if t < self.n and s[t] in lx.NAME_START else t)
            return None
        t = m.end()
        if not s.startswith(":", t):
            self.fail(t)
            return None
        u = self.blanks(t + 1)
        if u == t + 1:
            self.fail(u)
            return None
        sub = self.filter_expr(u)
        if sub is None:
            return None
        e = self.blanks(sub.stop)
        if not s.startswith(")", e):
            self.fail(e)
            return None
        node = Node(ANYALL, p, e + 1, op, m.group().partition(".")[0], sub)
        node.path = lx.path_value(written)
        node.op_pos = q
        return node

    def keyword_literal(self, p: int) -> Result:
        s = self.s
        if s.startswith("null", p):
            q = p + 4
            if s.startswith("'", q):
                m = lx.IDENTIFIER.match(s, q + 1)
                if m is not None and s.startswith("'", m.end()):
                    q = m.end() + 1
                else:
                    self.fail(m.end() if m is not None else q + 1)
            return Node(LIT_NULL, p, q)
        if s.startswith("binary", p):
            return self.binary(p, p + 6)
        if s.startswith("true", p):
            return Node(LIT_BOOLEAN, p, p + 4, "", True)
        if s.startswith("false", p):
            return Node(LIT_BOOLEAN, p, p + 5, "", False)
        if s.startswith("datetime", p):
            r = self.datetime(p, p + 8, lx.DATETIME, LIT_DATETIME)
            if r is None and s.startswith("datetimeoffset", p):
                r = self.datetime(p, p + 14, lx.DATETIMEOFFSET, LIT_DATETIMEOFFSET)
            return r
        if s.startswith("guid", p):
            q = self.squote(p + 4)
            m = None if q < 0 else lx.GUID_BODY.match(s, q)
            if m is None or not s.startswith("'", m.end()):
                self.fail(q if m is None else m.end())
                return None
            return Node(LIT_GUID, p, m.end() + 1, "", m.group())
        return None

    def binary(self, p: int, q: int) -> Result:
        # ("%d88" | "binary") squote hexdigit hexdigit squote: the value is the parser's match array
        s = self.s
        t = self.squote(q)
        if t < 0 or lx.HEX2.match(s, t) is None:
            self.fail(t)
            return None
        u = self.squote(t + 2)
        if u < 0:
            return None
        value = [s[p:q], s[q:t], s[t], s[t + 1], s[t + 2 : u]]
        return Node(LIT_BINARY, p, u, "", value)

    def datetime(self, p: int, q: int, pattern: Any, kind: str) -> Result:
        s = self.s
        t = self.squote(q)
        m = None if t < 0 else pattern.match(s, t)
        if m is None:
            self.fail(t)
            return None
        u = self.squote(m.end())
        if u < 0:
            return None
        return Node(kind, p, u, m.group(), date_from_text(m.group(), self.tz))

    def string(self, p: int) -> Result:
        s = self.s
        q = p + 1 if s[p] == "'" else self.squote(p)
        if q < 0:
            return None
        m = lx.STRING_BODY.match(s, q)
        assert m is not None  # the pattern matches the empty text
        e = m.end()
        if e >= self.n:
            self.fail(e)
            return None
        return Node(LIT_STRING, p, e + 1, "", m.group().replace("''", "'"))

    def number(self, p: int) -> Result:
        # int ("." digits)? (query option)? [mMfL]?  — an exponent is never read (see the note)
        s, n = self.s, self.n
        m = lx.NUMBER.match(s, p)
        assert m is not None  # n2 calls this at a digit or at "-" before a digit
        q = m.end()
        if m.start(1) < 0 and q < n and s[q] == ".":
            self.fail(q + 1)
        text = s[p:q]
        if q < n and s[q] == "$":
            q = self.query_option(q)
        if q < n and s[q] in lx.NUMBER_SUFFIXES:
            q += 1
        return Node(LIT_NUMBER, p, q, text, parse_float(text))

    def query_option(self, p: int) -> int:
        """The end of the grammar's second rule ``exp`` (a query option, which numbers use by mistake) at ``$``."""
        s = self.s
        m = _OPTION_IN_NUMBER.match(s, p)
        if m is None:
            return self.n
        option, q = m[1], m.end()
        end: int | None
        if option == "filter":
            r = self.filter_expr(q)
            end = None if r is None else r.stop
        elif option in ("orderby", "select"):
            items = self.paths(q, option == "orderby")
            end = None if items is None else items[1]
        elif option in ("skip", "top"):
            m = lx.INT.match(s, q)
            end = None if m is None else m.end()
        elif option == "expand":
            end = self.expand(q)
        else:
            u = lx.UNRESERVED.match(s, q)
            end = q if u is None else u.end()
        return self.n if end is None else end

    def expand(self, p: int) -> int | None:
        # identifierPath ("," wsp? expandExpr)?
        m = self.path(p)
        if m is None:
            self.fail(p)
            return None
        q = m.end()
        if self.s.startswith(",", q):
            t = q + 1 + self.s.startswith(" ", q + 1)
            end = self.expand(t)
            if end is not None:
                return end
        return q

    def paren(self, p: int) -> Result:
        # "(" filterExpr wsp* ")"
        node = self.filter_expr(p + 1)
        if node is None:
            return None
        q = self.blanks(node.stop)
        if not self.s.startswith(")", q):
            self.fail(q)
            return None
        node.parens += 1
        node.start, node.stop = p, q + 1
        return node

    def unary(self, p: int, op: str, q: int) -> Result:
        inner = self.filter_expr(q)
        if inner is None:
            return None
        node = Node(UNARY, p, inner.end, op, None, inner)
        node.stop = inner.stop
        if inner.kind == ANDOR or inner.kind == UNARY:
            self.mixed = True
        return node

    def call(self, p: int, name: str, q: int, arity: int) -> Result:
        # name "(" filterExpr ("," filterExpr)* ")" with exactly ``arity`` arguments, no blank before , or )
        s = self.s
        args: list[Node] = []
        t = q
        for i in range(arity):
            arg = self.filter_expr(t + 1)
            if arg is None:
                return None
            args.append(arg)
            t = arg.stop
            expected = "," if i < arity - 1 else ")"
            if not s.startswith(expected, t):
                self.fail(t)
                return None
        return Node(FN, p, t + 1, name, None, *args)

    # orderbyExpr = wsp* orderbyPath (wsp* "," wsp* orderbyPath)*; orderbyPath = path (wsp+ ("asc"|"desc"))?
    # selectExpr = wsp* identifierPath (wsp* "," wsp* identifierPath)*
    def paths(self, p: int, directions: bool) -> tuple[list[tuple[str, str, int]], int] | None:
        """``$orderby``'s (``directions``) or ``$select``'s items: (path as written, "asc"/"desc"/"", position)."""
        s = self.s
        items: list[tuple[str, str, int]] = []
        p = end = self.blanks(p)
        while True:
            m = self.path(p)
            if m is None:
                self.fail(p)
                return (items, end) if items else None
            end = m.end()
            direction = "asc" if directions else ""
            q = self.blanks(end)
            if directions and q > end and s.startswith(("asc", "desc"), q):
                direction = "asc" if s.startswith("asc", q) else "desc"
                end = q + len(direction)
            elif q > end:
                self.fail(q)
            items.append((m.group(), direction, m.start()))
            q = self.blanks(end)
            if not s.startswith(",", q):
                self.fail(q)
                return items, end
            p = self.blanks(q + 1)
