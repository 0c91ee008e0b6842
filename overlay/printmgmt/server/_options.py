"""``$filter``, ``$orderby`` and ``$select`` as breeze-mongodb 0.0.8 reads them behind @sealsystems/odata-mongo.

Each text is read once (:func:`read_option`, cached); everything else here is a view of that reading. The query
the server then runs (the filter's document, ``$top``, ``$skip``, the count) is the simulator's
(``printmgmt_sim.translation``).
"""

from __future__ import annotations

import contextlib
import itertools
import re
import sys
import threading
from collections.abc import Iterator
from dataclasses import dataclass, field
from datetime import UTC, tzinfo
from functools import lru_cache
from typing import Final, Literal

from . import _lexer as lx
from ._parser import MEMBER, Node, Parser
from ._readings import Member, Misreading, misreadings_of
from ._reasons import explain
from ._translatable import Fields, Untranslatable
from ._values import QueryRefused

#: A query option read with the server's grammar.
Option = Literal["$filter", "$orderby", "$select"]


@dataclass(frozen=True, slots=True)
class Reading:
    """What the server makes of one ``$filter``, ``$orderby`` or ``$select`` text.

    ``refused`` is the server's 400 (then nothing else is set); otherwise ``sort`` is an ``$orderby``'s
    ``[("current.copies", "desc"), ...]``, ``projection`` a ``$select``'s ``{"current.printerName": 1, ...}``;
    ``members`` are the fields the text names, in order, and ``misreadings`` the places where the server groups a
    filter otherwise than OData (first one first); ``tree`` is a filter's parse tree (:class:`~._parser.Node`).
    """

    option: Option
    text: str
    refused: QueryRefused | None = None
    sort: tuple[tuple[str, str], ...] | None = None
    projection: dict[str, int] | None = None
    members: tuple[Member, ...] = ()
    misreadings: tuple[Misreading, ...] = ()
    tree: Node | None = field(default=None, repr=False, compare=False)

    def accepted(self) -> Reading:
        """This reading, or its refusal raised (a new exception each time: the reading is shared)."""
        refused = self.refused
        if refused is not None:
            raise QueryRefused(refused.option, refused.text, refused.position, refused.reason)
        return self


#: Deepest nesting of parentheses and ``not`` read (the server's parser reads less: docs/paging.md); deeper is
#: refused before parsing, so the answer never depends on how much recursion limit the caller has left.
MAX_NESTING: Final = 6000
TOO_DEEP: Final = f"the filter nests parentheses or 'not' deeper than {MAX_NESTING:,} levels, which the server refuses"
_TOO_LONG_A_CHAIN: Final = (
    "the filter chains hundreds of arithmetic or comparison operators, which the server does not translate"
)
#: nesting read within Python's default recursion limit; deeper readings get room for their frames
_SHALLOW: Final = 100
#: a quoted text (toggled by each quote: '' inside is a quote) or the unclosed rest
_QUOTED: Final = re.compile(r"'[^']*+'?")
#: Python frames the reader and the translator take per level of nesting, at most (and some to start from)
_FRAMES_PER_LEVEL: Final = 6
_room_lock = threading.Lock()
_room_users = 0
_room_saved = 0


def _nesting(text: str) -> int:
    """The deepest nesting of parentheses outside quoted text ('' inside quotes is a quote), and the number of
    ``not `` (each may nest what follows it)."""
    depths = itertools.accumulate(((c == "(") - (c == ")") for c in _QUOTED.sub("", text)), initial=0)
    return max(depths) + text.count("not ")


@contextlib.contextmanager
def _recursion_room(levels: int) -> Iterator[None]:
    """Python's recursion limit raised for ``levels`` of nesting while any thread reads that deep (the limit is
    the process's: the last reader out puts it back)."""
    global _room_users, _room_saved
    needed = _FRAMES_PER_LEVEL * levels + 1000
    with _room_lock:
        if _room_users == 0:
            _room_saved = sys.getrecursionlimit()
        _room_users += 1
        if sys.getrecursionlimit() < needed:
            sys.setrecursionlimit(needed)
    try:
        yield
    finally:
        with _room_lock:
            _room_users -= 1
            if _room_users == 0:
                sys.setrecursionlimit(_room_saved)


# the simulator reads one text again for each page of a listing; a reading is never changed
@lru_cache(maxsize=512)
def read_option(option: Option, text: str, tz: tzinfo = UTC) -> Reading:
    """The one reading of a query option's ``text`` (``tz``: the server's zone, for zone-less datetimes)."""
    return read_uncached(option, text, tz)


def read_uncached(option: Option, text: str, tz: tzinfo = UTC) -> Reading:
    """:func:`read_option`'s reading, not kept: for a caller that keeps what it makes of it instead."""
    try:
        if option == "$filter":
            return _read_filter(text, tz)
        return _read_paths(option, text)
    except QueryRefused as refused:  # kept without the frames it was raised in
        return Reading(option, text, QueryRefused(refused.option, refused.text, refused.position, refused.reason))


def _levels(text: str) -> int:
    # no deeper than it has parentheses and "not"s: most texts are counted by two quick scans
    return _nesting(text) if text.count("(") + text.count("not ") > _SHALLOW else 0


def tree_room(text: str) -> contextlib.AbstractContextManager[None]:
    """Room in Python's recursion limit to walk the tree of the accepted filter ``text`` (raised while any
    thread walks one that deep)."""
    levels = _levels(text)
    return _recursion_room(levels) if levels > _SHALLOW else contextlib.nullcontext()


def _read_filter(text: str, tz: tzinfo) -> Reading:
    if _levels(text) > MAX_NESTING:
        raise QueryRefused("$filter", text, 0, TOO_DEEP)
    parser = Parser(text, tz)
    with tree_room(text):
        try:
            tree = parser.filter_expr(0)
            if tree is None or tree.stop != len(text):
                if tree is not None:
                    parser.fail(tree.stop)
                raise QueryRefused("$filter", text, *explain(text, parser.far))
            fields = Fields(text)
            fields.condition(tree)
        except Untranslatable as error:
            raise QueryRefused("$filter", text, error.position, error.reason) from None
        except RecursionError:  # hundreds of chained arithmetic or comparison operators, which the server refuses
            raise QueryRefused("$filter", text, 0, _TOO_LONG_A_CHAIN) from None
        # only where and/or/not meet can the server's grouping differ from OData's
        found = misreadings_of(tree, text) if parser.mixed else ()
    return Reading("$filter", text, members=tuple(fields.members), misreadings=found, tree=tree)


def _read_paths(option: Option, text: str) -> Reading:
    parser = Parser(text, UTC)
    result = parser.paths(0, option == "$orderby")
    if result is None or result[1] != len(text):
        if result is not None:
            parser.fail(result[1])
        position, reason = explain(text, parser.far, option.lstrip("$"))
        raise QueryRefused(option, text, position, reason)
    items = result[0]
    named = tuple(Member(lx.path_value(written), position, written) for written, _, position in items)
    keys = [member.path.replace("/", ".") for member in named]
    if option == "$orderby":
        sort = tuple((key, direction) for key, (_, direction, _) in zip(keys, items, strict=True))
        return Reading(option, text, sort=sort, members=named)
    # result["__proto__"] = 1 sets no key in JavaScript
    projection = {key: 1 for key in keys if key != "__proto__"}
    return Reading(option, text, projection=projection, members=named)


def misreadings(text: str) -> list[Misreading]:
    """Places where the server groups the filter ``text`` differently from OData (empty when it reads the
    same, or when the server refuses the text)."""
    return list(read_option("$filter", text).misreadings)


def filter_members(text: str) -> list[Member]:
    """The fields a filter names, in order, with positions (raises :class:`QueryRefused` when the server
    refuses the text)."""
    return list(read_option("$filter", text).accepted().members)


@lru_cache(maxsize=1024)
def path_refusal(path: str) -> str | None:
    """Why the server's filter grammar does not read ``path`` (``current/printerName``) whole as that member
    path; ``None`` when it does. A name of one letter, a first name read as a literal (``nullable``), a later
    one read as a lambda (``current/allPages``) and a dot (the server keeps the name before it) are refused."""
    parser = Parser(path, UTC)
    found = parser.n2(0) if path else None
    if found is not None and found.kind == MEMBER and found.stop == len(path):
        return None if "." not in path else "the server keeps only the name before a dot"
    if found is not None:
        parser.fail(found.stop)
    return explain(path, parser.far, "path")[1]
