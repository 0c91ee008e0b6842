"""What ``openapi.yaml`` says about the fields of the server's documents that the SDK acts on.

The one list of epoch-millisecond fields: properties marked ``x-printmgmt-epoch-ms: true`` in the spec
(``tests/test_fields.py`` fails when the two differ). Filters compare them with numbers
(:mod:`printmgmt.odata`), tables and the command line show them as times.
"""

from __future__ import annotations

import re
from typing import Any, Final

__all__ = ["EPOCH_MS_FIELDS", "declared_paths", "is_declared", "is_epoch_ms"]

#: Property names whose values are epoch milliseconds, wherever they appear (``current/checkinTime``,
#: ``stages/createdAt``, ``runtime/lastPrintedJobTime``, a log entry's ``time``).
EPOCH_MS_FIELDS: Final = frozenset({"arrivedTime", "checkinTime", "createdAt", "lastPrintedJobTime", "time"})


def is_epoch_ms(path: str) -> bool:
    """Whether the field at ``path`` (``current/checkinTime`` or ``current.checkinTime``) holds epoch ms."""
    return path.replace(".", "/").rsplit("/", 1)[-1] in EPOCH_MS_FIELDS


def declared_paths(model: type[Any]) -> list[str]:
    """The field paths the spec declares for a document of ``model`` (a generated model such as ``Job``), in the
    spec's order: ``_id``, ``current``, ``current/jobName``... An object the spec leaves open (no declared
    properties, e.g. a printer's ``physical``) ends in ``/*``: any path below it is allowed."""
    import attrs

    import printmgmt_api.models as models

    paths: list[str] = []
    fields = attrs.fields_dict(model)
    for name, wire in model.WIRE_NAMES.items():
        paths.append(wire)
        # "JobAttributes | Unset", "list[JobStage] | Unset": the nested model, if any
        declared = str(fields[name].type or "").split(" | ")[0].strip()
        nested = getattr(models, declared, None)
        if isinstance(nested, type) and hasattr(nested, "WIRE_NAMES"):
            below = declared_paths(nested) or ["*"]
            paths.extend(f"{wire}/{path}" for path in below)
    return paths


def is_declared(path: str, paths: list[str]) -> bool:
    """Whether ``path`` (``current/jobName``) is one of ``paths`` (:func:`declared_paths`) or below an open object."""
    path = re.sub(r"/+", "/", path.replace(".", "/")).strip("/")
    return path in paths or any(p.endswith("/*") and path.startswith(p[:-1]) for p in paths)
