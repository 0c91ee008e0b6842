"""List query options read as the real server reads them, in the engine's types.

The options go through :func:`printmgmt.server.read_query` (the one reader of the server's middleware,
``@sealsystems/odata-mongo`` over ``breeze-mongodb``), whose refusals are the middleware's plain 400. The
query document's JavaScript values become what MongoDB compares: an ObjectID a ``bson.ObjectId``, a RegExp a
compiled pattern, a Date a ``datetime`` (an Invalid Date is the epoch, as the driver's serializer sends it),
``undefined`` null (the driver is created with ``ignoreUndefined: false``).
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from datetime import UTC, datetime, timedelta
from typing import Any, Final

from bson import ObjectId

from printmgmt.server import UNDEFINED, JsDate, Regex, ServerQuery, read_query
from printmgmt.server import ObjectId as JsObjectId

from . import pcre
from .engine import Find, QueryRejected

__all__ = ["QUERY_OPTIONS", "engine_find", "options", "read"]

#: The keys the middleware reads (any other key starting with ``$`` is its 400).
QUERY_OPTIONS: Final = ("$filter", "$inlinecount", "$orderby", "$select", "$skip", "$top")

_EPOCH: Final = datetime(1970, 1, 1, tzinfo=UTC)
#: JavaScript RegExp flags and Python's (breeze writes only ``i``).
_FLAGS: Final = {"i": re.IGNORECASE, "m": re.MULTILINE, "s": re.DOTALL, "u": 0, "g": 0, "y": 0}
#: A named group: ``(?<name>`` in JavaScript and PCRE, ``(?P<name>`` in Python (not the lookbehinds).
_NAMED_GROUP: Final = re.compile(r"(?<!\\)\(\?<(?![=!])")


def read(items: Sequence[tuple[str, str]]) -> tuple[Find, bool]:
    """The ``find`` for a query string's pairs and whether the count is asked for.

    Raises :class:`~printmgmt.server.QueryRefused` where the middleware answers 400 and
    :class:`~printmgmt_sim.engine.QueryRejected` where MongoDB refuses the query.
    """
    query = read_query(options(items))
    return engine_find(query), query.count


def options(items: Sequence[tuple[str, str]]) -> dict[str, str | list[str]]:
    """Query string pairs as Express hands them over: a key given twice is a list."""
    out: dict[str, str | list[str]] = {}
    for key, value in items:
        if key in out:
            previous = out[key]
            out[key] = [*previous, value] if isinstance(previous, list) else [previous, value]
        else:
            out[key] = value
    return out


def engine_find(query: ServerQuery) -> Find:
    """The ``find`` the service runs for ``query``; :class:`QueryRejected` where MongoDB refuses a regex."""
    return Find(
        filter=_value(query.filter),
        sort=[(path, -1 if direction == "desc" else 1) for path, direction in query.sort or ()],
        projection=query.projection,
        skip=0 if query.skip is None else query.skip,
        limit=0 if query.limit is None else query.limit,
    )


def _value(value: Any) -> Any:
    if isinstance(value, Mapping):
        return {key: _value(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_value(item) for item in value]
    if value is UNDEFINED:
        return None
    if isinstance(value, JsObjectId):
        return ObjectId(value.hex)
    if isinstance(value, Regex):
        return _pattern(value)
    if isinstance(value, JsDate):
        return _date(value.epoch_ms)
    return value


def _pattern(regex: Regex) -> re.Pattern[str]:
    flags = 0
    for flag in regex.flags:
        flags |= _FLAGS.get(flag, 0)
    try:
        return re.compile(_NAMED_GROUP.sub("(?P<", pcre.to_python(regex.source)), flags)
    except pcre.UnsupportedPattern as exc:
        raise QueryRejected(f"the simulator does not read this regular expression as MongoDB does: {exc}") from None
    except re.error as exc:
        raise QueryRejected(f"Regular expression is invalid: {exc}") from None


def _date(epoch_ms: int | None) -> datetime:
    try:
        return _EPOCH + timedelta(milliseconds=epoch_ms or 0)
    except OverflowError:
        return datetime.max.replace(tzinfo=UTC) if (epoch_ms or 0) > 0 else datetime.min.replace(tzinfo=UTC)
