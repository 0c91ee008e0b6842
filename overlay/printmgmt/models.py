"""The typed models of the interface (generated from ``openapi.yaml``), under stable names: every schema's.

Models keep fields the SDK does not know in ``additional_properties`` (also reachable as
``model["field"]``), and enums keep values they do not know (``JobStatus("Archived").is_known`` is False).
Times are epoch milliseconds as sent; each time field has a reader beside it giving an aware UTC datetime
(``job.current.checkin_time_utc``), and :func:`to_datetime` converts any such value.
"""

from __future__ import annotations

from datetime import UTC, datetime

# every model of the spec, under its schema's name: a schema added to openapi.yaml is exported by make generate
from printmgmt_api.models import *  # noqa: F403
from printmgmt_api.models import __all__ as _GENERATED
from printmgmt_api.types import UNSET, Unset

__all__ = [*_GENERATED, "UNSET", "Unset", "to_datetime"]


def to_datetime(epoch_ms: int | float | Unset | None) -> datetime | None:
    """An aware UTC datetime for an epoch-milliseconds field, ``None`` when the field is unset or null."""
    if epoch_ms is None or isinstance(epoch_ms, Unset):
        return None
    return datetime.fromtimestamp(epoch_ms / 1000, tz=UTC)
