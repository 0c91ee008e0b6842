"""The model of the server: what the SDK, the simulator, ``printmgmt doctor`` and the command line believe
about how a PLOSSYS server behaves beyond what the interface document shows. The package is the one door to
its private modules; standard library only, so every layer of the SDK may use it.

**List pages.** Every plausible form of a job or printer list page, read (:func:`read_page`) from one table
(:data:`FORMS`) that the simulator writes its pages with. (The profile of where a real server differs from
``openapi.yaml`` is ``printmgmt_cli.profile``: the doctor writes it, the simulator reads it.)

**Query reading.** ``$filter``, ``$orderby``, ``$select``, ``$top``, ``$skip`` and ``$inlinecount`` read as the
server's middleware reads them with breeze-mongodb 0.0.8 (breeze-odataparser 0.0.1, ObjectIDs from the mongodb
3.6.6 driver). :func:`read_option` gives the refusal, or the query document, the members named with their
positions and where the server groups a filter otherwise than OData; :func:`check_query` is the check ``list``,
``iterate`` and the command line run before sending. Where the reader differs from OData, and the little
it does not reproduce: docs/paging.md ("The server's query language").

    >>> from printmgmt.server import parse_filter
    >>> parse_filter("status eq 'Error' and current/copies eq 1 or current/copies eq 3")
    {'$and': [{'status': 'Error'}, {'$or': [{'current.copies': 1}, {'current.copies': 3}]}]}

Importing this package is cheap: the reader loads with the first of its names used.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from . import _page_shapes
from ._check import CheckQuery, check_mode, check_query
from ._page_shapes import *  # noqa: F403  (the door: the private module's __all__, once)

if TYPE_CHECKING:
    from ._meaning import escape_regex
    from ._options import (
        Option,
        Reading,
        ServerQuery,
        filter_members,
        misreadings,
        parse_filter,
        parse_orderby,
        parse_select,
        path_refusal,
        read_option,
        read_query,
    )
    from ._readings import Member, Misreading
    from ._values import UNDEFINED, JsDate, ObjectId, QueryRefused, Regex

#: Public name -> the private module that defines it, imported when the name is first used.
_LAZY: dict[str, str] = {
    name: module
    for module, names in {
        "._options": "Option Reading ServerQuery filter_members misreadings parse_filter parse_orderby parse_select "
        "path_refusal read_option read_query",
        "._readings": "Member Misreading",
        "._meaning": "escape_regex",
        "._values": "UNDEFINED JsDate ObjectId QueryRefused Regex",
    }.items()
    for name in names.split()
}

__all__ = ["UNDEFINED", "CheckQuery", "JsDate", "Member", "Misreading", "ObjectId", "Option", "QueryRefused", "Reading"]
__all__ += ["Regex", "ServerQuery", "check_mode", "check_query", "escape_regex", "filter_members", "misreadings"]
__all__ += ["parse_filter", "parse_orderby", "parse_select", "path_refusal", "read_option", "read_query"]
__all__ += _page_shapes.__all__


def __getattr__(name: str) -> Any:
    module = _LAZY.get(name)
    if module is None:
        raise AttributeError(f"module 'printmgmt.server' has no attribute {name!r}")
    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list[str]:
    return sorted(__all__)
