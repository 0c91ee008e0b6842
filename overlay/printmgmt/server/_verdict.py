"""The verdict of the query check on one set of options: a refusal, or the warnings (see :mod:`._check`).

Cached by the exact texts (loops send one filter again and again), an acceptance also by the filter's literal
shape (:func:`~._lexer.literal_shape`: one form with other values); the readings it is made of are not kept.
"""

from __future__ import annotations

import contextlib
import difflib
import functools
import re
from collections import OrderedDict
from typing import Final

from ..fields import known_paths, unknown_path
from ._lexer import literal_shape
from ._meaning import Finding, findings
from ._options import Option, Reading, read_option, read_uncached
from ._readings import Member

__all__ = ["verdict"]

# what a refusal or a warning keeps: InvalidQuery's keywords, or a warning's (with its kind: "field" for
# UnknownFieldWarning, "meaning" for QueryMeaningWarning)
_Fields = tuple[tuple[str, object], ...]
Verdict = tuple[_Fields | None, tuple[tuple[str, _Fields], ...]]

#: accepted options by their filter's literal shape (the one used last, last)
_ACCEPTED: OrderedDict[tuple[str, str, str, str | None, str | None], Verdict] = OrderedDict()


@functools.lru_cache(maxsize=512)
def verdict(collection: str, mode: str, filter: str | None, orderby: str | None, select: str | None) -> Verdict:
    """What the options get: a refusal's fields or None, and the warnings' (cached: loops send the same)."""
    shape = None if filter is None else literal_shape(filter)
    if shape is None:
        return read_verdict(collection, mode, filter, orderby, select)
    key = (collection, mode, shape, orderby, select)
    found = _ACCEPTED.get(key)
    if found is not None:
        with contextlib.suppress(KeyError):  # another thread's check may have let it go meanwhile
            _ACCEPTED.move_to_end(key)
    else:
        found = read_verdict(collection, mode, filter, orderby, select)
        if found[0] is None:  # a refusal names the text's own positions and rewrite
            _ACCEPTED[key] = found
            if len(_ACCEPTED) > 512:
                _ACCEPTED.popitem(last=False)
    return found


def read_verdict(collection: str, mode: str, filter: str | None, orderby: str | None, select: str | None) -> Verdict:
    """The verdict, from the options' readings."""
    given: tuple[tuple[Option, str | None], ...] = (("$filter", filter), ("$orderby", orderby), ("$select", select))
    readings = [read_uncached(option, text) for option, text in given if text is not None]
    for reading in readings:
        if (refused := reading.refused) is not None:
            return _refusal(reading.option, reading.text, refused.position, refused.reason), ()
    meanings: list[tuple[str, _Fields]] = []
    if mode == "strict":
        for reading in readings:
            found, warned = _misread(reading, collection)
            if found is not None:
                return found, ()
            meanings += [("meaning", fields) for fields in warned]
    unknown: dict[tuple[str, str], str | None] = {}
    for reading in readings:
        for member in reading.members:
            if unknown_path(collection, member.path):
                quoted = unknown.get((reading.option, member.path)) or _quoted(collection, reading, member)
                unknown[reading.option, member.path] = quoted
    fields = [("field", _unknown(collection, option, path, quoted)) for (option, path), quoted in unknown.items()]
    return None, (*fields, *meanings)


#: A known field and a comparison right before a word: ``status eq `` in ``status eq Error``.
_COMPARED: Final = re.compile(r"([\w/]+)\s+(eq|ne|gt|ge|lt|le)\s+$")


def _quoted(collection: str, reading: Reading, member: Member) -> str | None:
    """``status eq 'Error'`` for ``status eq Error``: a bare word compared with a known field is a text unquoted."""
    compared = _COMPARED.search(reading.text[: member.position])
    if reading.option != "$filter" or compared is None or unknown_path(collection, compared[1]):
        return None
    return f"{compared[1]} {compared[2]} '{member.written}'"


def _misread(reading: Reading, collection: str) -> tuple[_Fields | None, list[_Fields]]:
    """The refusal of an accepted option the server reads otherwise than meant, or the warnings where its reading
    may be what is meant; a rewrite is offered only where the strict check accepts it."""
    option, text = reading.option, reading.text
    problem, places = _problem(reading, collection)
    if problem is None:  # a warning names no text: the verdict serves every text of its literal shape
        return None, [
            (("option", option), ("position", p.position), ("reason", p.reason), ("kind", p.warning)) for p in places
        ]
    position, reason, candidate, grouping = problem
    offered = _mended(option, candidate, collection)
    if grouping and offered is not None:
        reason += f"; for OData's meaning write {offered}"
    return _refusal(option, text, position, reason, offered), []


# a refusal: position, reason, the text most likely meant (unchecked; None: none), whether the grouping differs
_Problem = tuple[int, str, str | None, bool]


def _problem(reading: Reading, collection: str) -> tuple[_Problem | None, list[Finding]]:
    """What the strict check refuses in an accepted option, in this order: a dotted name, and/or/not grouped
    otherwise than in OData, a value the server reads otherwise; else the places to warn about."""
    option, text = reading.option, reading.text
    if "." in text and (dotted := sorted((m for m in reading.members if "." in m.written), key=lambda m: m.position)):
        first = dotted[0]
        full = first.written.replace(".", "/")
        reason = f"the server keeps only the name before a dot ({first.path})"
        rewrite = text
        for member in reversed(dotted):
            end = member.position + len(member.written)
            rewrite = rewrite[: member.position] + member.written.replace(".", "/") + rewrite[end:]
        if read_option(option, rewrite).refused is not None:
            return (first.position, f"{reason}, and reads no path {full} either", None, False), []
        return (first.position, f"{reason}: write {full}", rewrite, False), []
    if reading.misreadings:
        first_misread = reading.misreadings[0]
        reason = f"this server groups and/or and not otherwise than OData: it reads {first_misread.server}"
        return (first_misread.position, reason, first_misread.odata, True), []
    places = [] if reading.tree is None else findings(reading.tree, text, reading.members, collection)
    refusals = [place for place in places if not place.warning]
    if not refusals:
        return None, places
    first_place = refusals[0]
    meant = None
    if all(p.edits for p in refusals):  # the text meant: each place has a form the server reads as meant
        meant = text
        for start, end, replacement in sorted((edit for p in refusals for edit in p.edits), reverse=True):
            meant = meant[:start] + replacement + meant[end:]
    return (first_place.position, first_place.reason, meant, False), []


def _mended(option: Option, text: str | None, collection: str) -> str | None:
    """``text`` if the strict check accepts it, or what its refusal means, read again (each pass mends one kind of
    place: the grouping of a dotted filter, values in a regrouped one); None when the server reads none as meant."""
    for _ in range(3):
        if text is None:
            return None
        reading = read_option(option, text)
        if reading.refused is not None:
            return None
        problem, _ = _problem(reading, collection)
        if problem is None:
            return text
        text = problem[2]
    return None


def _refusal(option: str, text: str, position: int | None, reason: str, rewrite: str | None = None) -> _Fields:
    return (("option", option), ("text", text), ("position", position), ("reason", reason), ("rewrite", rewrite))


def _unknown(collection: str, option: str, path: str, quoted: str | None = None) -> _Fields:
    known, _ = known_paths(collection)
    nearest = [quoted] if quoted else difflib.get_close_matches(path, sorted(known), n=3, cutoff=0.6)
    return (("option", option), ("path", path), ("collection", collection), ("suggestions", tuple(nearest)))
