"""Query options as typed are read with the server's own grammar (:mod:`printmgmt.querylang`) before sending.

``check_query`` (a client setting and a keyword of ``list``/``iterate``):

- ``"strict"`` (the default): refuse what the server refuses, and a filter the server reads otherwise than
  OData does (``and``/``or`` mixed without parentheses, ``not`` before an unparenthesised rest);
- ``"syntax"``: refuse only what the server refuses; a misread filter is sent as written;
- ``"off"``: send every string as written.

Every mode but ``"off"`` warns (:class:`~printmgmt.errors.UnknownFieldWarning`) about a path that is not a field
of the spec's model. Filters built with :mod:`printmgmt.odata` are not read again: the builder only writes
what the server reads as meant (its tests read every form it writes with the same grammar).
"""

from __future__ import annotations

import difflib
import functools
import re
import warnings
from types import ModuleType
from typing import Any, Final, Literal, get_args

from .errors import InvalidQuery, UnknownFieldWarning

__all__ = ["CheckQuery", "check_mode", "check_query"]

CheckQuery = Literal["strict", "syntax", "off"]
_MODES: Final = frozenset(get_args(CheckQuery))
# a quoted literal of a filter (its text is no name)
_LITERAL: Final = re.compile(r"(?:'|%x27)(?:[^']|'')*'?")
# what groups a filter: parentheses, and/or (blanks are spaces on this server), not
_GROUPING: Final = re.compile(r"[()]| and | or |(?<![A-Za-z0-9_/-])not ")
# a name with a dot, as written in a filter (not a number: those start with a digit)
_DOTTED: Final = re.compile(r"(?<![A-Za-z0-9_/-])[A-Za-z_][A-Za-z0-9_/-]*(?:\.[A-Za-z0-9_-]+)+")
# a path of an $orderby or $select as written (names, "/" and "." between them)
_PART: Final = re.compile(r"(?:^|,) *([^ ,]+)")

# what a refusal or a warning keeps: InvalidQuery's keywords, or UnknownFieldWarning's
_Refusal = tuple[tuple[str, object], ...]
_Warning = tuple[tuple[str, object], ...]


def check_mode(value: object, name: str = "check_query") -> CheckQuery:
    """``value`` if it is one of the modes, else a ``ValueError`` naming them."""
    if value not in _MODES:
        raise ValueError(f"{name} must be 'strict', 'syntax' or 'off', not {value!r}")
    return value  # type: ignore[return-value]


def check_query(
    collection: str,
    mode: CheckQuery,
    *,
    filter: str | None = None,
    orderby: str | None = None,
    select: str | None = None,
    stacklevel: int = 1,
) -> None:
    """Raise :class:`~printmgmt.errors.InvalidQuery` for an option the server would refuse (or, ``strict``,
    misread); warn about fields the spec does not know. ``stacklevel`` counts from the caller."""
    if mode == "off" or (filter is None and orderby is None and select is None):
        return
    refusal, found = _verdict(collection, mode, filter, orderby, select)
    if refusal is not None:
        raise InvalidQuery(**dict(refusal))  # type: ignore[arg-type]
    for fields in found:
        warnings.warn(UnknownFieldWarning(**dict(fields)), stacklevel=stacklevel + 1)  # type: ignore[arg-type]


@functools.lru_cache(maxsize=512)
def _verdict(
    collection: str, mode: CheckQuery, filter: str | None, orderby: str | None, select: str | None
) -> tuple[_Refusal | None, tuple[_Warning, ...]]:
    """What the options get: a refusal's fields or None, and the warnings' (cached: loops send the same)."""
    querylang = _reader()
    # (option, path with "/", the text written there, its position); one reading per option: the paths of a
    # filter come from its query document (lambdas resolved), its dotted names from its text
    members: list[tuple[str, str, str, int]] = []
    # most typed filters are of a common subset the server accepts: their paths without the full reader
    common = None if filter is None else querylang._quick.common_filter(filter)
    try:
        if common is not None:
            members += [("$filter", path, path, 0) for path in common.paths]
        elif filter is not None:
            members += _filter_members(filter, querylang.parse_filter(filter))
        if orderby is not None:
            members += _listed("$orderby", orderby, [path for path, _ in querylang.parse_orderby(orderby)])
        if select is not None:
            members += _listed("$select", select, list(querylang.parse_select(select)))
    except querylang.QueryRefused as refused:
        text = {"$filter": filter, "$orderby": orderby, "$select": select}.get(refused.option) or refused.text
        return _refusal(refused.option, text, refused.position, refused.reason), ()
    if mode == "strict":
        for option, path, written, position in members:
            if "." in written:
                text = _text_of(option, filter, orderby, select)
                full = written.replace(".", "/")
                rewrite = text[:position] + full + text[position + len(written) :]
                reason = f"the server keeps only the name before a dot ({path}): write {full}"
                return _refusal(option, text, position, reason, rewrite), ()
        if filter is not None:
            may_be_misread = common.mixed if common is not None else _may_be_misread(filter)
            if may_be_misread and (misread := querylang.misreadings(filter)):
                first = misread[0]
                reason = (
                    f"this server groups and/or and not otherwise than OData: it reads {first.server}; "
                    f"for OData's meaning write {first.odata}"
                )
                return _refusal("$filter", filter, first.position, reason, first.odata), ()
    unknown = dict.fromkeys((option, path) for option, path, _, _ in members if unknown_path(collection, path))
    return None, tuple(_unknown(collection, option, path) for option, path in unknown)


@functools.cache
def _reader() -> ModuleType:
    """:mod:`printmgmt.querylang`, imported with the first check: importing the SDK does not load it."""
    from . import querylang
    from .querylang import _mongo, _quick  # noqa: F401  (the document's paths; the reading of common filters)

    return querylang


def _may_be_misread(text: str) -> bool:
    """Whether ``text`` (accepted by the server) can group otherwise than in OData: only where ``and`` and
    ``or`` meet, or ``not `` is followed by either, within one pair of parentheses (the full reading,
    :func:`printmgmt.querylang.misreadings`, is costlier and runs only then)."""
    if "not " not in text and not (" and " in text and " or " in text):
        return False
    # per open parenthesis: the connectors seen at its level, and whether a "not " came before them
    groups: list[set[str]] = [set()]
    for token in _GROUPING.finditer(_LITERAL.sub("''", text)):
        word = token.group(0)
        if word == "(":
            groups.append(set())
        elif word == ")":
            groups.pop()
        else:
            level = groups[-1]
            if word != "not " and "not " in level:
                return True
            level.add(word)
            if " and " in level and " or " in level:
                return True
    return False


def _filter_members(text: str, document: dict[str, Any]) -> list[tuple[str, str, str, int]]:
    """The paths a filter's query document uses, and each dotted name written in it (the server keeps the
    name before the dot: ``current.printerName`` is ``current``)."""
    found: list[tuple[str, str, str, int]] = []
    if "." in text:
        blanked = _LITERAL.sub(lambda m: " " * len(m.group(0)), text)
        for dotted in _DOTTED.finditer(blanked):
            written = dotted.group(0)
            found.append(("$filter", written.split(".", 1)[0], written, dotted.start()))
    found += [("$filter", path, path, 0) for path in _reader()._mongo.document_paths(document)]
    return found


def _listed(option: str, text: str, paths: list[str]) -> list[tuple[str, str, str, int]]:
    """The members of an ``$orderby``/``$select`` (``paths`` as the reader keeps them, ``.`` for ``/``): each
    path with ``/``, the text written for it and its position."""
    found = []
    for part in _PART.finditer(text):
        written = part.group(1)
        found.append((option, written.split(".", 1)[0], written, part.start(1)))
    if [path.replace("/", ".") for _, path, _, _ in found] != paths:
        # a shape this scan does not follow: the reader's paths, without positions
        return [(option, path.replace(".", "/"), path, 0) for path in paths]
    return found


def _text_of(option: str, filter: str | None, orderby: str | None, select: str | None) -> str:
    return {"$filter": filter, "$orderby": orderby, "$select": select}[option] or ""


def _refusal(option: str, text: str, position: int | None, reason: str, rewrite: str | None = None) -> _Refusal:
    return (("option", option), ("text", text), ("position", position), ("reason", reason), ("rewrite", rewrite))


@functools.cache
def known_paths(collection: str) -> tuple[frozenset[str], frozenset[str]]:
    """The field paths the spec declares for ``collection`` (``jobs``), and the objects it leaves open."""
    from printmgmt_api.field_catalog import OPEN_PATHS, PATHS

    return PATHS.get(collection, frozenset()), OPEN_PATHS.get(collection, frozenset())


def unknown_path(collection: str, path: str) -> bool:
    """Whether ``path`` (``current/jobName``) is neither declared for ``collection`` nor below an open object."""
    known, open_ = known_paths(collection)
    if not known or path in known:
        return False
    return not any(path.startswith(prefix + "/") for prefix in open_)


def _unknown(collection: str, option: str, path: str) -> _Warning:
    known, _ = known_paths(collection)
    nearest = difflib.get_close_matches(path, sorted(known), n=3, cutoff=0.6)
    return (("option", option), ("path", path), ("collection", collection), ("suggestions", tuple(nearest)))
