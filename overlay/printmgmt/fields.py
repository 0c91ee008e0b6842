"""What ``openapi.yaml`` says about the fields of the server's documents that the SDK acts on.

``make generate`` lists them in ``printmgmt_api.field_catalog``: the epoch-millisecond fields (marked
``x-printmgmt-epoch-ms``), which filters compare as numbers and tables show as times, and each collection's field
paths and their types, which the query check holds a query to.
"""

from __future__ import annotations

from printmgmt_api import field_catalog as _catalog
from printmgmt_api.field_catalog import EPOCH_MS_FIELDS, epoch_ms_datetime, epoch_ms_text, is_epoch_ms

__all__ = ["EPOCH_MS_FIELDS", "epoch_ms_datetime", "epoch_ms_text", "field_type", "is_epoch_ms", "known_paths"]
__all__ += ["unknown_path"]


def known_paths(collection: str) -> tuple[frozenset[str], frozenset[str]]:
    """The field paths the spec declares for ``collection`` (``jobs``), and the objects it leaves open."""
    return _catalog.PATHS.get(collection, frozenset()), _catalog.OPEN_PATHS.get(collection, frozenset())


def unknown_path(collection: str, path: str) -> bool:
    """Whether ``path`` (``current/jobName``) is neither declared for ``collection`` nor below an open object."""
    known = _catalog.PATHS.get(collection)
    if not known or path in known:
        return False
    return not any(path.startswith(prefix + "/") for prefix in _catalog.OPEN_PATHS.get(collection, ()))


def field_type(collection: str, path: str) -> str | None:
    """The JSON type the spec gives the values at ``path`` of ``collection``'s documents (``string``, ``integer``,
    ``number``, ``boolean``, ``object``; an array's: its items'), or ``None`` where it declares none."""
    return _catalog.TYPES.get(collection, {}).get(path)
