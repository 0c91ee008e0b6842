"""The documents the simulator stores, shaped like the real server's MongoDB objects.

Jobs follow ``openapi.yaml``'s ``Job`` schema (``_id``, ``status``, ``refId``, ``fileName``, ``orig``,
``current``, ``lcCurrent``, ``stages``); printers follow ``Printer`` (``_id`` = name, ``config``,
``runtime``, ``physical``). Times are epoch milliseconds, like the real server.
"""

from __future__ import annotations

import random
from typing import Any, Final

from printmgmt.models import JobStatus as S
from printmgmt_api.schemas import SCHEMAS

from .draws import Draws
from .samples import complete

__all__ = [
    "JOB_STATUSES",
    "PRINTER_STATUSES",
    "RESTING",
    "SERVICE_OF",
    "Doc",
    "add_stage",
    "lower_copy",
    "new_job",
    "new_printer",
    "object_id",
    "set_current",
]

Doc = dict[str, Any]

#: The job statuses of the spec's ``JobStatus`` enum, in its order (the order a job normally passes them).
JOB_STATUSES: Final = tuple(S(value) for value in SCHEMAS["JobStatus"]["enum"])
#: Statuses no service acts on: a job stays there until someone acts on it.
RESTING: Final = frozenset({S.ERROR, S.PROCESSED, S.CANCELED, S.PAUSED})

#: The service acting on a job in each status (the server-evidence table), used as the log's ``service``.
SERVICE_OF: Final[dict[str, str]] = {
    S.ADDED: "seal-convert-dispatcher",
    S.WAITPREPROCESSING: "seal-convert-dispatcher",
    S.PREPROCESSING: "seal-convert-dispatcher",
    S.POSTPONEDPREPROCESSING: "seal-convert-dispatcher",
    S.PROCESSINGREMOTE: "external",
    S.WAITPROCESSING: "seal-controller",
    S.PROCESSING: "seal-controller",
    S.POSTPONED: "seal-controller",
    S.ACCOUNTING: "seal-plossys-accounting",
    S.ERROR: "seal-controller",
    S.PROCESSED: "seal-controller",
    S.CANCELED: "seal-rest",
    S.PAUSED: "seal-rest",
}

#: Printer ``runtime.status`` values the simulator uses (the field is open; only ``idle`` is documented).
PRINTER_STATUSES: Final = ("idle", "printing", "paused")


def object_id(rng: random.Random, epoch_ms: int) -> str:
    """A MongoDB ObjectId-like hex id: 4 bytes of seconds, then 8 random bytes (sorts by creation time)."""
    seconds = (epoch_ms // 1000) & 0xFFFFFFFF
    return f"{seconds:08x}{rng.getrandbits(64):016x}"


def lower_copy(attributes: Doc) -> Doc:
    """``lcCurrent``: the attributes with every string lower-cased (for case-insensitive matching)."""
    return {key: value.lower() if isinstance(value, str) else value for key, value in attributes.items()}


def new_job(
    draws: Draws,
    *,
    checkin_ms: int,
    user: str,
    job_name: str,
    file_name: str,
    printer: str,
    status: str,
    mime_type: str = "application/pdf",
    checkin_type: str = "lpr",
    source_host: str = "ws-001.corp.example",
    creator: str = "printmgmt-sim",
    copies: int = 1,
    file_size: int = 20_000,
    pages: int = 1,
) -> Doc:
    """A job document as ``seal-rest`` stores it after check-in: the given attributes, and every other field the
    spec declares drawn from the schema (:mod:`~printmgmt_sim.samples`); ``draws`` are the document's streams."""
    job_id = object_id(draws("_id"), checkin_ms)
    stored = _uuid(draws("fileName"))
    attributes: Doc = {
        "sourceHost": source_host,
        "userName": user,
        "jobName": job_name,
        "fileName": file_name,
        "printerName": printer,
        "checkinType": checkin_type,
        "server": "spooler1",
        "creator": creator,
        "arrivedTime": checkin_ms - draws("arrivedTime").randint(5, 400),
        "checkinTime": checkin_ms,
        "fileSize": file_size,
        "copies": copies,
        "fileFormat": mime_type,
    }
    # orig and current share the attributes the spec declares; current adds what processing found
    complete(attributes, "JobAttributes", draws, time_ms=checkin_ms, path="attributes")
    current = {**attributes, "pagesFromFileContent": pages}
    job: Doc = {
        "_id": job_id,
        "status": status,
        "refId": f"{draws('refId').getrandbits(32):08x}",
        "fileName": [stored],
        "orig": attributes,
        "current": current,
        "lcCurrent": lower_copy(current),
        "stages": [
            {
                "fileName": stored,
                "mimeType": mime_type,
                "createdBy": "checkin",
                "createdAt": checkin_ms + 1,
                "context": {"type": checkin_type},
            }
        ],
    }
    return complete(job, "Job", draws, time_ms=checkin_ms)


def add_stage(rng: random.Random, job: Doc, *, created_by: str, mime_type: str, at_ms: int) -> None:
    """Record a processing step that produced a new stored file (conversion, repeat...)."""
    stored = _uuid(rng)
    job.setdefault("stages", []).append(
        {"fileName": stored, "mimeType": mime_type, "createdBy": created_by, "createdAt": at_ms}
    )
    job["fileName"] = [stored]
    current = job.setdefault("current", {})
    current["fileFormat"] = mime_type
    job["lcCurrent"] = lower_copy(current)


def set_current(job: Doc, **changes: Any) -> None:
    """Change current attributes and keep ``lcCurrent`` in step."""
    current = job.setdefault("current", {})
    current.update(changes)
    job["lcCurrent"] = lower_copy(current)


def new_printer(
    name: str,
    draws: Draws,
    *,
    time_ms: int,
    connection: str,
    model: str,
    manufacturer: str,
    server: str = "spooler1",
    ppd: str = "small_format.ppd",
    status: str = "idle",
) -> Doc:
    """A printer document (``config`` keys are strings, as on the real server), with every other field the spec
    declares drawn from the schema; ``draws`` are the document's streams, ``time_ms`` the deployment's time."""
    host = connection.split("://", 1)[-1].split(":", 1)[0].split("/", 1)[0]
    printer: Doc = {
        "_id": name,
        "config": {
            "printer": name,
            "connection": connection,
            "server": server,
            "ppd": ppd,
            "rotation": "0",
            "alignment": "center",
            "tolerance": "0.0",
            "webUrl": f"http://{host}",
            "connectionHostname": host,
            "type": {"model": model, "manufacturer": manufacturer},
        },
        "runtime": {"status": status, "currentPrintingJob": "", "lastPrintedJobTime": 0, "queuedJobs": 0},
        "physical": {},
    }
    return complete(printer, "Printer", draws, time_ms=time_ms)


def _uuid(rng: random.Random) -> str:
    value = f"{rng.getrandbits(128):032x}"
    return f"{value[:8]}-{value[8:12]}-4{value[13:16]}-a{value[17:20]}-{value[20:]}"
