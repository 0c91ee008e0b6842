"""Resource descriptions and dashboard statistics. The interface shows neither: all of it is inferred.

- ``/v3/jobs/metadata``, ``/v3/printers/metadata``: a column catalogue ``{resource, idField, fields:
  [{name, type, label}], ...}`` (the Administrator's ``JOBS_METADATA``/``PRINTERS_METADATA`` columns).
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

from collections import Counter
from collections.abc import Mapping
from typing import Any, Final

from .listquery import QUERY_OPTIONS
from .model import JOB_STATUSES, PRINTER_STATUSES, Doc
from .store import Store

__all__ = ["job_count", "job_series", "jobs_metadata", "printer_count", "printers_metadata", "statistics_metadata"]

_INTERVALS: Final = {"minute": 60_000, "hour": 3_600_000, "day": 86_400_000}
_MAX_BUCKETS: Final = 1000

_JOB_FIELDS: Final = (
    ("_id", "string", "Job id"),
    ("status", "string", "Status"),
    ("refId", "string", "Reference id"),
    ("current/jobName", "string", "Name"),
    ("current/userName", "string", "Owner"),
    ("current/printerName", "string", "Printer"),
    ("orig/printerName", "string", "Original printer"),
    ("current/checkinTime", "epoch-ms", "Checked in"),
    ("current/arrivedTime", "epoch-ms", "Arrived"),
    ("current/fileName", "string", "File"),
    ("current/fileFormat", "string", "Format"),
    ("current/fileSize", "integer", "Size (bytes)"),
    ("current/copies", "integer", "Copies"),
    ("current/pagesFromFileContent", "integer", "Pages"),
    ("current/sourceHost", "string", "Source host"),
    ("current/checkinType", "string", "Check-in type"),
)
_PRINTER_FIELDS: Final = (
    ("_id", "string", "Printer"),
    ("config/connection", "string", "Connection"),
    ("config/server", "string", "Server"),
    ("config/type/model", "string", "Model"),
    ("config/type/manufacturer", "string", "Manufacturer"),
    ("runtime/status", "string", "Status"),
    ("runtime/queuedJobs", "integer", "Queued jobs"),
    ("runtime/currentPrintingJob", "string", "Printing job"),
    ("runtime/lastPrintedJobTime", "epoch-ms", "Last printed"),
    ("runtime/message", "string", "Message"),
    ("runtime/redirectedTo", "string", "Redirected to"),
)


def _catalogue(resource: str, fields: tuple[tuple[str, str, str], ...], **extra: Any) -> Doc:
    return {
        "resource": resource,
        "idField": "_id",
        "fields": [{"name": name, "type": kind, "label": label} for name, kind, label in fields],
        "queryOptions": list(QUERY_OPTIONS),
        **extra,
    }


def jobs_metadata() -> Doc:
    return _catalogue("jobs", _JOB_FIELDS, statuses=list(JOB_STATUSES))


def printers_metadata() -> Doc:
    return _catalogue("printers", _PRINTER_FIELDS, statuses=list(PRINTER_STATUSES))


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
