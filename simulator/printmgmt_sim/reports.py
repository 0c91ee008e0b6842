"""Resource descriptions and dashboard statistics. The interface shows neither: all of it is inferred.

- ``/v3/jobs/metadata``, ``/v3/printers/metadata``: a column catalogue ``{resource, idField, fields:
  [{name, type, label}], ...}`` (the Administrator's ``JOBS_METADATA``/``PRINTERS_METADATA`` columns): every
  scalar field the spec declares for a job or printer, ``type`` ``epoch-ms`` where it holds epoch milliseconds.
- ``/v3/statistics/job-count``: ``{total, byStatus}``; optional query parameters ``status`` (comma
  list), ``printerName``, ``userName``, ``from`` and ``to`` (check-in time, epoch ms).
- ``/v3/statistics/job-series``: ``{interval, from, to, series: [{time, count}]}`` of check-ins;
  ``interval`` is ``minute``, ``hour`` (default) or ``day``; ``from``/``to`` default to the last 24
  intervals; ``status`` and ``printerName`` filter as above.
- ``/v3/statistics/printer-count``: ``{total, byStatus, redirected, withMessage}``.
- ``/v3/statistics/metadata``: the parameters above.

Unknown parameters are ignored and unusable values fall back to the defaults (no 400 is declared).
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from typing import Any, Final

from .listquery import QUERY_OPTIONS
from .model import JOB_STATUSES, PRINTER_STATUSES, Doc
from .schemas import properties, resolve
from .store import Store

__all__ = ["job_count", "job_series", "jobs_metadata", "printer_count", "printers_metadata", "statistics_metadata"]

_INTERVALS: Final = {"minute": 60_000, "hour": 3_600_000, "day": 86_400_000}
_MAX_BUCKETS: Final = 1000

#: Fields that are no column: the server's lower-case copy of ``current``, kept for case-insensitive matching.
_NOT_COLUMNS: Final = frozenset({"lcCurrent"})


def _columns(schema: str | dict[str, Any], prefix: str = "") -> list[Doc]:
    """The spec's scalar fields of ``schema`` as columns ``{name, type, label}`` (nested objects' fields by path)."""
    columns: list[Doc] = []
    for name, field in properties(schema).items():
        spec = resolve(field)
        if name in _NOT_COLUMNS or spec.get("type") == "array":
            continue
        if spec.get("type") == "object":
            columns += _columns(spec, f"{prefix}{name}/")
            continue
        kind = "epoch-ms" if spec.get("x-printmgmt-epoch-ms") else spec.get("type", "string")
        columns.append({"name": prefix + name, "type": kind, "label": spec.get("title") or _label(prefix + name)})
    return columns


def _label(path: str) -> str:
    """``current/userName`` -> ``User name``, ``orig/printerName`` -> ``Printer name (orig)``."""
    *parents, name = path.split("/")
    words = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", name.strip("_")).lower()
    label = "ID" if words == "id" else words.capitalize()
    return f"{label} ({parents[0]})" if parents and parents[0] not in ("current", "config", "runtime") else label


def _catalogue(resource: str, schema: str, **extra: Any) -> Doc:
    return {
        "resource": resource,
        "idField": "_id",
        "fields": _columns(schema),
        "queryOptions": list(QUERY_OPTIONS),
        **extra,
    }


def jobs_metadata() -> Doc:
    return _catalogue("jobs", "Job", statuses=list(JOB_STATUSES))


def printers_metadata() -> Doc:
    return _catalogue("printers", "Printer", statuses=list(PRINTER_STATUSES))


def statistics_metadata() -> Doc:
    filters = {"status": "comma-separated job statuses", "printerName": "printer", "from": "epoch ms", "to": "epoch ms"}
    return {
        "statistics": {
            "job-count": {"parameters": {**filters, "userName": "owner"}, "answer": "{total, byStatus}"},
            "job-series": {
                "parameters": {**filters, "interval": "minute | hour | day"},
                "answer": "{interval, from, to, series: [{time, count}]}",
            },
            "printer-count": {"parameters": {}, "answer": "{total, byStatus, redirected, withMessage}"},
        }
    }


def _job_filter(query: Mapping[str, str]) -> tuple[str, list[Any]]:
    """SQL over the job columns for the common statistics parameters."""
    clauses: list[str] = []
    params: list[Any] = []
    if statuses := [s.strip() for s in query.get("status", "").split(",") if s.strip()]:
        clauses.append(f"status IN ({', '.join('?' * len(statuses))})")
        params += statuses
    for key, column in (("printerName", "printer"), ("userName", "user_name")):
        if query.get(key):
            clauses.append(f"{column} = ?")
            params.append(query[key])
    for key, op in (("from", ">="), ("to", "<")):
        if (value := _int(query.get(key))) is not None:
            clauses.append(f"checkin_ms {op} ?")
            params.append(value)
    return " AND ".join(clauses) or "1", params


def job_count(store: Store, query: Mapping[str, str]) -> Doc:
    where, params = _job_filter(query)
    counts = store.count_jobs("status", where, params)
    by_status = {status: counts.pop(status, 0) for status in JOB_STATUSES} | counts
    return {"total": sum(by_status.values()), "byStatus": by_status}


def job_series(store: Store, query: Mapping[str, str], now_ms: int) -> Doc:
    interval = query.get("interval", "hour")
    if interval not in _INTERVALS:
        interval = "hour"
    size = _INTERVALS[interval]
    end = _int(query.get("to")) or now_ms
    begin = _int(query.get("from"))
    if begin is None or begin >= end:
        begin = end - 24 * size
    begin = max(begin, end - _MAX_BUCKETS * size)
    where, params = _job_filter({k: v for k, v in query.items() if k not in ("from", "to")})
    buckets = Counter(
        (t - begin) // size
        for t in store.job_times(f"{where} AND checkin_ms >= ? AND checkin_ms < ?", [*params, begin, end])
    )
    count = -(-(end - begin) // size)
    return {
        "interval": interval,
        "from": begin,
        "to": end,
        "series": [{"time": begin + i * size, "count": buckets.get(i, 0)} for i in range(count)],
    }


def printer_count(store: Store) -> Doc:
    printers = store.printers()
    runtimes = [p.get("runtime", {}) for p in printers]
    statuses = Counter(str(r.get("status", "unknown")) for r in runtimes)
    return {
        "total": len(printers),
        "byStatus": {status: statuses.pop(status, 0) for status in PRINTER_STATUSES} | dict(statuses),
        "redirected": sum(1 for r in runtimes if r.get("redirectedTo")),
        "withMessage": sum(1 for r in runtimes if r.get("message")),
    }


def _int(value: str | None) -> int | None:
    if value is None:
        return None
    try:
        return int(value)
    except ValueError:
        return None
