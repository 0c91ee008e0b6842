"""List query options read as the real server reads them, in the engine's types.

The options go through :func:`~printmgmt_sim.translation.read_query` (the one reader of the server's middleware,
``@sealsystems/odata-mongo`` over ``breeze-mongodb``), whose refusals are the middleware's plain 400. The
query document's JavaScript values become what MongoDB compares: an ObjectID a ``bson.ObjectId``, a RegExp
an :class:`~printmgmt_sim.engine.Regex` (PCRE2, as MongoDB compiles its source), a Date a ``datetime`` (an
Invalid Date is the epoch, as the driver's serializer sends it), ``undefined`` null (the driver is created
with ``ignoreUndefined: false``). A sort key given twice keeps its first place and its last direction: the
driver turns the sort list into an object key by key.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import UTC, datetime, timedelta
from typing import Any, Final

from bson import ObjectId

from printmgmt.server import JsDate

from .engine import MAX_DEPTH, Find, Regex, check_depth, flat_chains
from .translation import UNDEFINED, ServerQuery, read_query
from .translation import ObjectId as JsObjectId
from .translation import Regex as JsRegex

__all__ = ["QUERY_OPTIONS", "engine_find", "options", "read"]

#: The keys the middleware reads (any other key starting with ``$`` is its 400).
QUERY_OPTIONS: Final = ("$filter", "$inlinecount", "$orderby", "$select", "$skip", "$top")

_EPOCH: Final = datetime(1970, 1, 1, tzinfo=UTC)


def read(items: Sequence[tuple[str, str]], *, max_depth: int = MAX_DEPTH) -> tuple[Find, bool]:
    """The ``find`` for a query string's pairs and whether the count is asked for.

    Raises :class:`~printmgmt.server.QueryRefused` where the middleware answers 400 and
    :class:`~printmgmt_sim.engine.QueryRejected` where MongoDB refuses the query (also where its documents
    nest deeper than ``max_depth`` levels).
    """
    query = read_query(options(items))
    return engine_find(query, max_depth=max_depth), query.count


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


def engine_find(query: ServerQuery, *, max_depth: int = MAX_DEPTH) -> Find:
    """The ``find`` the service runs for ``query``; :class:`~printmgmt_sim.engine.QueryRejected` where MongoDB
    refuses a regex or a depth past ``max_depth``."""
    check_depth(query.filter, max_depth)
    sort = {path: -1 if direction == "desc" else 1 for path, direction in query.sort or ()}
    return Find(
        filter=flat_chains(query.filter, _value),
        sort=list(sort.items()),
        projection=query.projection,
        skip=0 if query.skip is None else query.skip,
        limit=0 if query.limit is None else query.limit,
        max_depth=max_depth,
    )


def _value(value: Any) -> Any:
    """A JavaScript value that is no object or array as MongoDB gets it."""
    if value is UNDEFINED:
        return None
    if isinstance(value, JsObjectId):
        return ObjectId(value.hex)
    if isinstance(value, JsRegex):
        return Regex(value.source, value.flags)
    if isinstance(value, JsDate):
        return _date(value.epoch_ms)
    return value


def _date(epoch_ms: int | None) -> datetime:
    try:
        return _EPOCH + timedelta(milliseconds=epoch_ms or 0)
    except OverflowError:
        return datetime.max.replace(tzinfo=UTC) if (epoch_ms or 0) > 0 else datetime.min.replace(tzinfo=UTC)
