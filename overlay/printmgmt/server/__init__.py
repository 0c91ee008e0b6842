"""The model of the server: what the SDK, the simulator, ``printmgmt doctor`` and the command line believe
about how a PLOSSYS server behaves beyond what the interface document shows. The package is the one door to
its private modules; standard library only, so every layer of the SDK may use it.

**List pages.** Every plausible form of a job or printer list page, read (:func:`read_page`) from one table
(:data:`FORMS`) that the simulator writes its pages with. (The profile of where a real server differs from
``openapi.yaml`` is ``printmgmt_cli.profile``: the doctor writes it, the simulator reads it.)

**Query reading.** ``$filter``, ``$orderby`` and ``$select`` read as the server's middleware reads them with
breeze-mongodb 0.0.8 (breeze-odataparser 0.0.1). :func:`read_option` gives the refusal, or the parse tree
(:class:`Node`), the members named with their positions and where the server groups a filter otherwise than OData;
:func:`check_query` is the check ``list``, ``iterate`` and the command line run before sending. Where the reader
differs from OData, and the little it does not reproduce: docs/paging.md ("The server's query language"). The
MongoDB query the server builds from a reading is the simulator's (``printmgmt_sim.translation``).

    >>> from printmgmt.server import filter_members
    >>> [member.path for member in filter_members("status eq 'Error' or stages/any(st: st/state eq 'done')")]
    ['status', 'stages', 'stages/state']

Importing this package is cheap: the reader loads with the first of its names used.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from . import _page_shapes
from ._check import CheckQuery, check_mode, check_query
from ._page_shapes import *  # noqa: F403  (the door: the private module's __all__, once)

if TYPE_CHECKING:
    from ._js import number_to_string
    from ._lexer import OBJECT_ID
    from ._meaning import escape_regex
    from ._options import Option, Reading, filter_members, misreadings, path_refusal, read_option, tree_room
    from ._parser import Node
    from ._readings import Member, Misreading
    from ._translatable import member_key
    from ._values import JsDate, QueryRefused

#: Public name -> the private module that defines it, imported when the name is first used.
_LAZY: dict[str, str] = {
    name: module
    for module, names in {
        "._options": "Option Reading filter_members misreadings path_refusal read_option tree_room",
        "._readings": "Member Misreading",
        "._meaning": "escape_regex",
        "._values": "JsDate QueryRefused",
        "._parser": "Node",
        "._translatable": "member_key",
        "._js": "number_to_string",
        "._lexer": "OBJECT_ID",
    }.items()
    for name in names.split()
}

__all__ = ["OBJECT_ID", "CheckQuery", "JsDate", "Member", "Misreading", "Node", "Option", "QueryRefused", "Reading"]
__all__ += ["check_mode", "check_query", "escape_regex", "filter_members", "member_key", "misreadings"]
__all__ += ["number_to_string", "path_refusal", "read_option", "tree_room"]
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
