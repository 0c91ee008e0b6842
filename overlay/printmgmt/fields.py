"""What ``openapi.yaml`` says about the fields of the server's documents that the SDK acts on.

The one list of epoch-millisecond fields: properties marked ``x-printmgmt-epoch-ms: true`` in the spec
(``tests/test_fields.py`` fails when the two differ). Filters compare them with numbers
(:mod:`printmgmt.odata`), tables and the command line show them as times.
"""

from __future__ import annotations

from typing import Final

__all__ = ["EPOCH_MS_FIELDS", "is_epoch_ms"]

#: Property names whose values are epoch milliseconds, wherever they appear (``current/checkinTime``,
#: ``stages/createdAt``, ``runtime/lastPrintedJobTime``, a log entry's ``time``).
EPOCH_MS_FIELDS: Final = frozenset({"arrivedTime", "checkinTime", "createdAt", "lastPrintedJobTime", "time"})


def is_epoch_ms(path: str) -> bool:
    """Whether the field at ``path`` (``current/checkinTime`` or ``current.checkinTime``) holds epoch ms."""
    return path.replace(".", "/").rsplit("/", 1)[-1] in EPOCH_MS_FIELDS
