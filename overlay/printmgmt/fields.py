"""What ``openapi.yaml`` says about the fields of the server's documents that the SDK acts on.

The one list of epoch-millisecond fields: properties marked ``x-printmgmt-epoch-ms: true`` in the spec
(``tests/test_fields.py`` fails when the two differ). Filters compare them with numbers
(:mod:`printmgmt.odata`), tables and the command line show them as times. The field paths it declares per
collection (:func:`known_paths`) are what the query check and the command line warn about.
"""

from __future__ import annotations

import functools
from typing import Final

__all__ = ["EPOCH_MS_FIELDS", "is_epoch_ms", "known_paths", "unknown_path"]

#: Property names whose values are epoch milliseconds, wherever they appear (``current/checkinTime``,
#: ``stages/createdAt``, ``runtime/lastPrintedJobTime``, a log entry's ``time``).
EPOCH_MS_FIELDS: Final = frozenset({"arrivedTime", "checkinTime", "createdAt", "lastPrintedJobTime", "time"})


def is_epoch_ms(path: str) -> bool:
    """Whether the field at ``path`` (``current/checkinTime`` or ``current.checkinTime``) holds epoch ms."""
    return path.replace(".", "/").rsplit("/", 1)[-1] in EPOCH_MS_FIELDS


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
