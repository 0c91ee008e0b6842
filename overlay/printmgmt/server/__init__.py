"""The model of the server: what the SDK, the simulator, ``printmgmt doctor`` and the command line believe
about how a PLOSSYS server behaves beyond what the interface document shows.

This module is the package's one door: the modules behind it are private, and nothing outside the package
imports them. Standard library only, so every layer of the SDK may use it.

- the list-page shapes: every plausible form of a job or printer list page, read (:func:`read_page`) from
  one table (:data:`FORMS`) that the simulator writes its pages with;
- the query reading, below.

The profile (the named settings where a real server answers otherwise than ``openapi.yaml`` guesses) is
``printmgmt_cli.profile``: the doctor writes it and the simulator reads it.

**Query reading.** The server's query language (``$filter``, ``$orderby``, ``$select``, ``$top``, ``$skip``,
``$inlinecount``), read exactly as its middleware reads it: it hands the options to breeze-mongodb 0.0.8
(parser: breeze-odataparser 0.0.1, ObjectIDs from the mongodb 3.6.6 driver). :func:`read_option` reads a text
once and gives the refusal, or the query document (sort, projection), the members it names with their
positions, and where the server groups a filter otherwise than OData; :func:`check_query` is the check
``list``, ``iterate`` and the command line run on raw strings before sending. The reader accepts and refuses
what the server does and builds the same MongoDB query document; it differs from OData where the server does:

- ``and`` and ``or`` have one precedence and group to the right; ``not `` takes the whole rest;
- keywords are lower case, the only blank is ``' '`` and none may end the text; names have at least two
  characters, ``a.b`` keeps ``a``; numbers have no exponent;
- a text of 24 hex digits is an ObjectId, ``null`` is ``undefined``, ``startswith``/``endswith``/
  ``substringof`` are case-insensitive, unescaped JavaScript regexes;
- ``$top`` and ``$skip`` are ``parseInt`` results (``$top=0`` is no limit to MongoDB).

Not reproduced (no realistic filter reaches them): ``not`` over ``__proto__`` compared with an ObjectId
(breeze then walks the ObjectID's methods); in a regex built from a ``datetime'…'`` literal, the zone's
name for zones other than UTC is ``tzinfo.tzname()``, not ICU's long name; past 6,000 levels of parentheses
and ``not`` the reader refuses where the server's parser may still read (it reads about 1,600 levels around
conditions, 5,000 around a literal, then runs out of stack).

    >>> from printmgmt.server import parse_filter
    >>> parse_filter("status eq 'Error' and current/copies eq 1 or current/copies eq 3")
    {'$and': [{'status': 'Error'}, {'$or': [{'current.copies': 1}, {'current.copies': 3}]}]}

Importing this package is cheap: the reader loads with the first name of it that is used.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

# page shapes (small, standard library only: loaded with the package), and the query check
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

_QUERY_READING = {
    **dict.fromkeys(["Option", "Reading", "ServerQuery", "filter_members", "misreadings"], "._options"),
    **dict.fromkeys(["parse_filter", "parse_orderby", "parse_select", "path_refusal"], "._options"),
    **dict.fromkeys(["read_option", "read_query"], "._options"),
    **dict.fromkeys(["Member", "Misreading"], "._readings"),
    "escape_regex": "._meaning",
    **dict.fromkeys(["UNDEFINED", "JsDate", "ObjectId", "QueryRefused", "Regex"], "._values"),
}
# end of query reading

#: Public name -> the private module that defines it, imported when the name is first used.
_LAZY: dict[str, str] = {**_QUERY_READING}

__all__ = [
    "UNDEFINED",
    "CheckQuery",
    "JsDate",
    "Member",
    "Misreading",
    "ObjectId",
    "Option",
    "QueryRefused",
    "Reading",
    "Regex",
    "ServerQuery",
    "check_mode",
    "check_query",
    "escape_regex",
    "filter_members",
    "misreadings",
    "parse_filter",
    "parse_orderby",
    "parse_select",
    "path_refusal",
    "read_option",
    "read_query",
]
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
