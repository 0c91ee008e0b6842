"""What ``openapi.yaml`` says about the fields of the server's documents that the SDK acts on.

The one list of epoch-millisecond fields: properties marked ``x-printmgmt-epoch-ms: true`` in the spec
(``tests/test_fields.py`` fails when the two differ). Filters compare them with numbers
(:mod:`printmgmt.odata`), tables, notebook views and the command line show them as times
(:func:`epoch_ms_text`). The field paths it declares per collection (:func:`known_paths`) are what the query
check and the command line warn about.
"""

from __future__ import annotations

import functools
import math
from datetime import UTC, datetime
from typing import Final

__all__ = ["EPOCH_MS_FIELDS", "epoch_ms_datetime", "epoch_ms_text", "is_epoch_ms", "known_paths", "unknown_path"]

#: Property names whose values are epoch milliseconds, wherever they appear (``current/checkinTime``,
#: ``stages/createdAt``, ``runtime/lastPrintedJobTime``, a log entry's ``time``).
EPOCH_MS_FIELDS: Final = frozenset({"arrivedTime", "checkinTime", "createdAt", "lastPrintedJobTime", "time"})


def is_epoch_ms(path: str) -> bool:
    """Whether the field at ``path`` (``current/checkinTime`` or ``current.checkinTime``) holds epoch ms."""
    return path.replace(".", "/").rsplit("/", 1)[-1] in EPOCH_MS_FIELDS


def epoch_ms_datetime(value: object) -> datetime | None:
    """The UTC time an epoch-milliseconds value stands for, or ``None`` when it stands for none: ``0`` (the
    server's "never", e.g. a printer that has printed nothing yet), ``None``, anything but a finite number, and
    numbers beyond the years 1 to 9999."""
    if isinstance(value, bool) or not isinstance(value, int | float) or value == 0:
        return None
    if isinstance(value, float) and not math.isfinite(value):
        return None
    try:
        return datetime.fromtimestamp(value / 1000, UTC)
    except (OverflowError, OSError, ValueError):  # beyond what datetime (or the platform's time_t) holds
        return None


def epoch_ms_text(value: object) -> str:
    """An epoch-milliseconds value as a person reads it: ``2025-01-06 08:00:00Z``; ``""`` for ``0`` and
    ``None`` (no time); anything that cannot be a date (text, NaN, year 0) as sent."""
    when = epoch_ms_datetime(value)
    if when is not None:
        return f"{when:%Y-%m-%d %H:%M:%S}Z"
    if value is None or (isinstance(value, int | float) and not isinstance(value, bool) and value == 0):
        return ""
    return str(value)


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
