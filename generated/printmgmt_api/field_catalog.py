"""The fields of the documents each collection lists, from openapi.yaml, typed.

Written by ``templates/field_catalog.py`` during ``make generate``; do not edit.

``JobFields(leaf)`` has one property per field of a job: ``.status`` is ``leaf("status")``,
``.current.printer_name`` is ``leaf("current/printerName")`` (wire paths, ``/`` between names). A path through
an array of objects (``.stages.created_by``) matches a document where any element matches. ``PATHS`` holds
every known path per collection; ``OPEN_PATHS`` the objects whose fields the spec leaves open (anything below
them is a field the spec cannot know). ``EPOCH_MS_FIELDS`` names the fields holding epoch milliseconds, which
the models' views, tables and filters read as times; ``TYPES`` the JSON type of each path's values.
"""

import math
from collections.abc import Callable
from datetime import UTC, datetime
from typing import Final, Generic, TypeVar

F = TypeVar("F")


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


class Fields(Generic[F]):
    """The fields of one document (or sub-document) at ``prefix``; ``leaf`` makes each field's value."""

    __slots__ = ("_leaf", "_prefix")

    def __init__(self, leaf: Callable[[str], F], prefix: str = "") -> None:
        self._leaf = leaf
        self._prefix = prefix

    def __repr__(self) -> str:
        return f"{type(self).__name__}({self._prefix.rstrip('/') or '<document>'!r})"


class PrinterRuntimeFields(Fields[F]):
    """The fields of ``PrinterRuntime``."""

    @property
    def status(self) -> F:
        """``status`` (string)."""
        return self._leaf(self._prefix + "status")

    @property
    def current_printing_job(self) -> F:
        """``currentPrintingJob`` (string)."""
        return self._leaf(self._prefix + "currentPrintingJob")

    @property
    def last_printed_job_time(self) -> F:
        """``lastPrintedJobTime`` (integer)."""
        return self._leaf(self._prefix + "lastPrintedJobTime")

    @property
    def queued_jobs(self) -> F:
        """``queuedJobs`` (integer)."""
        return self._leaf(self._prefix + "queuedJobs")

    @property
    def message(self) -> F:
        """``message`` (string)."""
        return self._leaf(self._prefix + "message")

    @property
    def redirected_to(self) -> F:
        """``redirectedTo`` (string)."""
        return self._leaf(self._prefix + "redirectedTo")


class PrinterConfigFields(Fields[F]):
    """The fields of ``PrinterConfig``."""

    @property
    def printer(self) -> F:
        """``printer`` (string)."""
        return self._leaf(self._prefix + "printer")

    @property
    def connection(self) -> F:
        """``connection`` (string)."""
        return self._leaf(self._prefix + "connection")

    @property
    def server(self) -> F:
        """``server`` (string)."""
        return self._leaf(self._prefix + "server")

    @property
    def ppd(self) -> F:
        """``ppd`` (string)."""
        return self._leaf(self._prefix + "ppd")

    @property
    def rotation(self) -> F:
        """``rotation`` (string)."""
        return self._leaf(self._prefix + "rotation")

    @property
    def alignment(self) -> F:
        """``alignment`` (string)."""
        return self._leaf(self._prefix + "alignment")

    @property
    def tolerance(self) -> F:
        """``tolerance`` (string)."""
        return self._leaf(self._prefix + "tolerance")

    @property
    def web_url(self) -> F:
        """``webUrl`` (string)."""
        return self._leaf(self._prefix + "webUrl")

    @property
    def native_queue(self) -> F:
        """``nativeQueue`` (boolean)."""
        return self._leaf(self._prefix + "nativeQueue")


class PrinterFields(Fields[F]):
    """The fields of ``Printer``."""

    @property
    def id(self) -> F:
        """``_id`` (string)."""
        return self._leaf(self._prefix + "_id")

    @property
    def config(self) -> PrinterConfigFields[F]:
        """``config/...``."""
        return PrinterConfigFields(self._leaf, self._prefix + "config/")

    @property
    def runtime(self) -> PrinterRuntimeFields[F]:
        """``runtime/...``."""
        return PrinterRuntimeFields(self._leaf, self._prefix + "runtime/")

    @property
    def physical(self) -> F:
        """``physical`` (object)."""
        return self._leaf(self._prefix + "physical")


class JobStageContextFields(Fields[F]):
    """The fields of ``JobStageContext``."""

    @property
    def type(self) -> F:
        """``type`` (string)."""
        return self._leaf(self._prefix + "type")


class JobStageFields(Fields[F]):
    """The fields of ``JobStage``."""

    @property
    def file_name(self) -> F:
        """``fileName`` (string)."""
        return self._leaf(self._prefix + "fileName")

    @property
    def mime_type(self) -> F:
        """``mimeType`` (string)."""
        return self._leaf(self._prefix + "mimeType")

    @property
    def created_by(self) -> F:
        """``createdBy`` (string)."""
        return self._leaf(self._prefix + "createdBy")

    @property
    def created_at(self) -> F:
        """``createdAt`` (integer)."""
        return self._leaf(self._prefix + "createdAt")

    @property
    def context(self) -> JobStageContextFields[F]:
        """``context/...``."""
        return JobStageContextFields(self._leaf, self._prefix + "context/")


class JobAttributesFields(Fields[F]):
    """The fields of ``JobAttributes``."""

    @property
    def source_host(self) -> F:
        """``sourceHost`` (string)."""
        return self._leaf(self._prefix + "sourceHost")

    @property
    def user_name(self) -> F:
        """``userName`` (string)."""
        return self._leaf(self._prefix + "userName")

    @property
    def job_name(self) -> F:
        """``jobName`` (string)."""
        return self._leaf(self._prefix + "jobName")

    @property
    def file_name(self) -> F:
        """``fileName`` (string)."""
        return self._leaf(self._prefix + "fileName")

    @property
    def printer_name(self) -> F:
        """``printerName`` (string)."""
        return self._leaf(self._prefix + "printerName")

    @property
    def checkin_type(self) -> F:
        """``checkinType`` (string)."""
        return self._leaf(self._prefix + "checkinType")

    @property
    def server(self) -> F:
        """``server`` (string)."""
        return self._leaf(self._prefix + "server")

    @property
    def creator(self) -> F:
        """``creator`` (string)."""
        return self._leaf(self._prefix + "creator")

    @property
    def arrived_time(self) -> F:
        """``arrivedTime`` (integer)."""
        return self._leaf(self._prefix + "arrivedTime")

    @property
    def checkin_time(self) -> F:
        """``checkinTime`` (integer)."""
        return self._leaf(self._prefix + "checkinTime")

    @property
    def file_size(self) -> F:
        """``fileSize`` (integer)."""
        return self._leaf(self._prefix + "fileSize")

    @property
    def copies(self) -> F:
        """``copies`` (integer)."""
        return self._leaf(self._prefix + "copies")

    @property
    def file_format(self) -> F:
        """``fileFormat`` (string)."""
        return self._leaf(self._prefix + "fileFormat")


class JobFields(Fields[F]):
    """The fields of ``Job``."""

    @property
    def id(self) -> F:
        """``_id`` (string)."""
        return self._leaf(self._prefix + "_id")

    @property
    def status(self) -> F:
        """``status`` (string)."""
        return self._leaf(self._prefix + "status")

    @property
    def ref_id(self) -> F:
        """``refId`` (string)."""
        return self._leaf(self._prefix + "refId")

    @property
    def file_name(self) -> F:
        """``fileName`` (array of string)."""
        return self._leaf(self._prefix + "fileName")

    @property
    def orig(self) -> JobAttributesFields[F]:
        """``orig/...``."""
        return JobAttributesFields(self._leaf, self._prefix + "orig/")

    @property
    def current(self) -> JobAttributesFields[F]:
        """``current/...``."""
        return JobAttributesFields(self._leaf, self._prefix + "current/")

    @property
    def lc_current(self) -> JobAttributesFields[F]:
        """``lcCurrent/...``."""
        return JobAttributesFields(self._leaf, self._prefix + "lcCurrent/")

    @property
    def stages(self) -> JobStageFields[F]:
        """``stages/...`` (an array: any element)."""
        return JobStageFields(self._leaf, self._prefix + "stages/")


#: Every field path of each collection's documents (``current/printerName``), objects included.
PATHS: Final[dict[str, frozenset[str]]] = {
    "jobs": frozenset(
        [
            "_id",
            "current",
            "current/arrivedTime",
            "current/checkinTime",
            "current/checkinType",
            "current/copies",
            "current/creator",
            "current/fileFormat",
            "current/fileName",
            "current/fileSize",
            "current/jobName",
            "current/printerName",
            "current/server",
            "current/sourceHost",
            "current/userName",
            "fileName",
            "lcCurrent",
            "lcCurrent/arrivedTime",
            "lcCurrent/checkinTime",
            "lcCurrent/checkinType",
            "lcCurrent/copies",
            "lcCurrent/creator",
            "lcCurrent/fileFormat",
            "lcCurrent/fileName",
            "lcCurrent/fileSize",
            "lcCurrent/jobName",
            "lcCurrent/printerName",
            "lcCurrent/server",
            "lcCurrent/sourceHost",
            "lcCurrent/userName",
            "orig",
            "orig/arrivedTime",
            "orig/checkinTime",
            "orig/checkinType",
            "orig/copies",
            "orig/creator",
            "orig/fileFormat",
            "orig/fileName",
            "orig/fileSize",
            "orig/jobName",
            "orig/printerName",
            "orig/server",
            "orig/sourceHost",
            "orig/userName",
            "refId",
            "stages",
            "stages/context",
            "stages/context/type",
            "stages/createdAt",
            "stages/createdBy",
            "stages/fileName",
            "stages/mimeType",
            "status",
        ]
    ),
    "printers": frozenset(
        [
            "_id",
            "config",
            "config/alignment",
            "config/connection",
            "config/nativeQueue",
            "config/ppd",
            "config/printer",
            "config/rotation",
            "config/server",
            "config/tolerance",
            "config/webUrl",
            "physical",
            "runtime",
            "runtime/currentPrintingJob",
            "runtime/lastPrintedJobTime",
            "runtime/message",
            "runtime/queuedJobs",
            "runtime/redirectedTo",
            "runtime/status",
        ]
    ),
}

#: The objects of each collection whose fields the spec leaves open (any path below is plausible).
OPEN_PATHS: Final[dict[str, frozenset[str]]] = {
    "jobs": frozenset([]),
    "printers": frozenset(["physical"]),
}

#: Property names whose values are epoch milliseconds, wherever they appear (``current/checkinTime``, a log entry's ``time``).
EPOCH_MS_FIELDS: Final[frozenset[str]] = frozenset(
    ["arrivedTime", "checkinTime", "createdAt", "lastPrintedJobTime", "time"]
)

#: The JSON type of each path's values (``string``, ``integer``, ``number``, ``boolean``, ``object``; an array's: its items'), which a filter's literal must match: MongoDB never matches across types.
TYPES: Final[dict[str, dict[str, str]]] = {
    "jobs": {
        "_id": "string",
        "current": "object",
        "current/arrivedTime": "integer",
        "current/checkinTime": "integer",
        "current/checkinType": "string",
        "current/copies": "integer",
        "current/creator": "string",
        "current/fileFormat": "string",
        "current/fileName": "string",
        "current/fileSize": "integer",
        "current/jobName": "string",
        "current/printerName": "string",
        "current/server": "string",
        "current/sourceHost": "string",
        "current/userName": "string",
        "fileName": "string",
        "lcCurrent": "object",
        "lcCurrent/arrivedTime": "integer",
        "lcCurrent/checkinTime": "integer",
        "lcCurrent/checkinType": "string",
        "lcCurrent/copies": "integer",
        "lcCurrent/creator": "string",
        "lcCurrent/fileFormat": "string",
        "lcCurrent/fileName": "string",
        "lcCurrent/fileSize": "integer",
        "lcCurrent/jobName": "string",
        "lcCurrent/printerName": "string",
        "lcCurrent/server": "string",
        "lcCurrent/sourceHost": "string",
        "lcCurrent/userName": "string",
        "orig": "object",
        "orig/arrivedTime": "integer",
        "orig/checkinTime": "integer",
        "orig/checkinType": "string",
        "orig/copies": "integer",
        "orig/creator": "string",
        "orig/fileFormat": "string",
        "orig/fileName": "string",
        "orig/fileSize": "integer",
        "orig/jobName": "string",
        "orig/printerName": "string",
        "orig/server": "string",
        "orig/sourceHost": "string",
        "orig/userName": "string",
        "refId": "string",
        "stages": "object",
        "stages/context": "object",
        "stages/context/type": "string",
        "stages/createdAt": "integer",
        "stages/createdBy": "string",
        "stages/fileName": "string",
        "stages/mimeType": "string",
        "status": "string",
    },
    "printers": {
        "_id": "string",
        "config": "object",
        "config/alignment": "string",
        "config/connection": "string",
        "config/nativeQueue": "boolean",
        "config/ppd": "string",
        "config/printer": "string",
        "config/rotation": "string",
        "config/server": "string",
        "config/tolerance": "string",
        "config/webUrl": "string",
        "physical": "object",
        "runtime": "object",
        "runtime/currentPrintingJob": "string",
        "runtime/lastPrintedJobTime": "integer",
        "runtime/message": "string",
        "runtime/queuedJobs": "integer",
        "runtime/redirectedTo": "string",
        "runtime/status": "string",
    },
}
