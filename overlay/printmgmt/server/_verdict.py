"""The verdict of the query check on one set of options: a refusal, or the warnings (see :mod:`._check`).

Loops send one filter again and again, or one form with other values (``status eq 'x' and copies gt {n}``):
a verdict is cached by the exact texts, and an acceptance also by the filter's literal shape
(:func:`~._lexer.literal_shape`), which every text of that form shares. The readings the verdict is made of
are not kept (:func:`~._options.read_option`'s cache is for readers of the query document).
"""

from __future__ import annotations

import contextlib
import difflib
import functools
import re
from collections import OrderedDict
from typing import Final

from ..fields import known_paths, unknown_path
from ._check import CheckQuery
from ._lexer import literal_shape
from ._options import Option, Reading, read_option, read_uncached
from ._readings import Member

__all__ = ["verdict"]

# what a refusal or a warning keeps: InvalidQuery's keywords, or UnknownFieldWarning's
_Fields = tuple[tuple[str, object], ...]
Verdict = tuple[_Fields | None, tuple[_Fields, ...]]

#: accepted options by their filter's literal shape (the one used last, last)
_ACCEPTED: OrderedDict[tuple[str, str, str, str | None, str | None], Verdict] = OrderedDict()
_SHAPES_KEPT = 512


@functools.lru_cache(maxsize=512)
def verdict(collection: str, mode: CheckQuery, filter: str | None, orderby: str | None, select: str | None) -> Verdict:
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
            if len(_ACCEPTED) > _SHAPES_KEPT:
                _ACCEPTED.popitem(last=False)
    return found


def read_verdict(
    collection: str, mode: CheckQuery, filter: str | None, orderby: str | None, select: str | None
) -> Verdict:
    """The verdict, from the options' readings."""
    given: tuple[tuple[Option, str | None], ...] = (("$filter", filter), ("$orderby", orderby), ("$select", select))
    # the verdict is kept, not the readings
    readings = [read_uncached(option, text) for option, text in given if text is not None]
    for reading in readings:
        if (refused := reading.refused) is not None:
            return _refusal(reading.option, reading.text, refused.position, refused.reason), ()
    if mode == "strict":
        for reading in readings:
            if (found := _misread(reading)) is not None:
                return found, ()
    unknown: dict[tuple[str, str], str | None] = {}
    for reading in readings:
        for member in reading.members:
            if unknown_path(collection, member.path):
                quoted = unknown.get((reading.option, member.path)) or _quoted(collection, reading, member)
                unknown[reading.option, member.path] = quoted
    return None, tuple(_unknown(collection, option, path, quoted) for (option, path), quoted in unknown.items())


#: A known field and a comparison right before a word: ``status eq `` in ``status eq Error``.
_COMPARED: Final = re.compile(r"([\w/]+)\s+(eq|ne|gt|ge|lt|le)\s+$")


def _quoted(collection: str, reading: Reading, member: Member) -> str | None:
    """``status eq 'Error'`` for the unknown ``Error`` of ``status eq Error``: a bare word compared with a
    known field is most likely a string without its quotes."""
    compared = _COMPARED.search(reading.text[: member.position])
    if reading.option != "$filter" or compared is None or unknown_path(collection, compared[1]):
        return None
    return f"{compared[1]} {compared[2]} '{member.written}'"


def _misread(reading: Reading) -> _Fields | None:
    """The refusal of an accepted option that the server reads otherwise than it is written to mean: a
    dotted name (the server keeps the name before the dot), and/or/not grouped otherwise than in OData. A
    rewrite is offered only where the server reads it as written."""
    option, text = reading.option, reading.text
    if "." in text and (dotted := sorted((m for m in reading.members if "." in m.written), key=lambda m: m.position)):
        first = dotted[0]
        full = first.written.replace(".", "/")
        reason = f"the server keeps only the name before a dot ({first.path})"
        rewrite = text
        for member in reversed(dotted):
            end = member.position + len(member.written)
            rewrite = rewrite[: member.position] + member.written.replace(".", "/") + rewrite[end:]
        again = read_option(option, rewrite)
        if again.refused is not None:
            return _refusal(option, text, first.position, f"{reason}, and reads no path {full} either")
        if again.misreadings:
            rewrite = again.misreadings[0].odata
        return _refusal(option, text, first.position, f"{reason}: write {full}", _as_written(option, rewrite))
    if reading.misreadings:
        first_misread = reading.misreadings[0]
        reason = f"this server groups and/or and not otherwise than OData: it reads {first_misread.server}"
        offered = _as_written(option, first_misread.odata)
        if offered is not None:
            reason += f"; for OData's meaning write {offered}"
        return _refusal(option, text, first_misread.position, reason, offered)
    return None


def _as_written(option: Option, text: str) -> str | None:
    """``text`` if the server accepts it and reads it as written (a rewrite is offered only then)."""
    reading = read_option(option, text)
    if reading.refused is None and not reading.misreadings and all("." not in m.written for m in reading.members):
        return text
    return None


def _refusal(option: str, text: str, position: int | None, reason: str, rewrite: str | None = None) -> _Fields:
    return (("option", option), ("text", text), ("position", position), ("reason", reason), ("rewrite", rewrite))


def _unknown(collection: str, option: str, path: str, quoted: str | None = None) -> _Fields:
    known, _ = known_paths(collection)
    nearest = [quoted] if quoted else difflib.get_close_matches(path, sorted(known), n=3, cutoff=0.6)
    return (("option", option), ("path", path), ("collection", collection), ("suggestions", tuple(nearest)))
