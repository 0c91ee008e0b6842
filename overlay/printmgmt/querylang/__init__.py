"""The real server's query language (``$filter``, ``$orderby``, ``$select``, ``$top``, ``$skip``,
``$inlinecount``), read exactly as its middleware reads it.

The server hands the query options to breeze-mongodb 0.0.8 (parser: breeze-odataparser 0.0.1, ObjectIDs
from the mongodb 3.6.6 driver). This package accepts and refuses what they do and builds the same MongoDB
query document; it differs from OData where they do:

- ``and`` and ``or`` have one precedence and group to the right; ``not `` takes the whole rest;
- keywords are lower case, the only blank is ``' '`` and none may end the text; names have at least two
  characters, ``a.b`` keeps ``a``; numbers have no exponent;
- a text of 24 hex digits is an ObjectId, ``null`` is ``undefined``, ``startswith``/``endswith``/
  ``substringof`` are case-insensitive, unescaped JavaScript regexes;
- ``$top`` and ``$skip`` are ``parseInt`` results (``$top=0`` is no limit to MongoDB).

Not reproduced (no realistic filter reaches them): ``not`` over ``__proto__`` compared with an ObjectId
(breeze then walks the ObjectID's methods); in a regex built from a ``datetime'…'`` literal, the zone's
name for zones other than UTC is ``tzinfo.tzname()``, not ICU's long name; parentheses nested more than
about 200 deep are refused here (Python's recursion), the server reads 1,000.

    >>> from printmgmt.querylang import parse_filter
    >>> parse_filter("status eq 'Error' and current/copies eq 1 or current/copies eq 3")
    {'$and': [{'status': 'Error'}, {'$or': [{'current.copies': 1}, {'current.copies': 3}]}]}
"""

from ._options import ServerQuery, parse_filter, parse_orderby, parse_select, read_query
from ._readings import Member, Misreading, filter_members, misreadings
from ._values import UNDEFINED, JsDate, ObjectId, QueryRefused, Regex

__all__ = [
    "UNDEFINED",
    "JsDate",
    "Member",
    "Misreading",
    "ObjectId",
    "QueryRefused",
    "Regex",
    "ServerQuery",
    "filter_members",
    "misreadings",
    "parse_filter",
    "parse_orderby",
    "parse_select",
    "read_query",
]
