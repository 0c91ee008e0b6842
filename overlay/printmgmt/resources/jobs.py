"""``client.jobs``: print jobs."""

from __future__ import annotations

from typing import overload

from printmgmt_api.models import ActionResult, Job, JobCollection, LogEntry, Metadata, MoveRequest, PageInfo
from printmgmt_api.types import File

from .._invoke import Operation, Timeout
from .._validate import path_segment
from ._base import BulkAction, Collection, Destination

__all__ = ["JobsResource"]

_LIST = Operation("listJobs")
_GET = Operation("getJob")
_DELETE = Operation("deleteJob")
_METADATA = Operation("getJobsMetadata")
_CANCEL = Operation("cancelJob")
_PAUSE = Operation("pauseJob")
_RESUME = Operation("resumeJob")
_REPEAT = Operation("repeatJob")
_MOVE = Operation("moveJob")
_LOGS = Operation("getJobLogs")
_LOGFILE = Operation("getJobLogfile")
_PAGEINFO = Operation("getJobPageinfo")
_COLLECT = Operation("collectJob")
_TEMPFILES = Operation("saveJobTempfiles")


class JobsResource(Collection[Job]):
    """Print jobs: list, read, act on them (cancel, pause, resume, repeat, move) and fetch their files."""

    _noun, _key_name = "job", "id"
    _list_operation = _LIST
    _collection_model = JobCollection

    async def get(self, id: str, *, timeout: Timeout = None) -> Job:
        """The job with this ``_id``."""
        return await self._read(_GET, id, Job, timeout=timeout)

    async def delete(self, id: str, *, timeout: Timeout = None) -> ActionResult:
        """Delete the job and its files."""
        return await self._act_on(_DELETE, id, timeout=timeout)

    async def metadata(self, *, timeout: Timeout = None) -> Metadata:
        """Description of the job resource (column catalogue)."""
        return await self._invoker.call(_METADATA, expect=Metadata, timeout=timeout)

    async def cancel(self, id: str, *, timeout: Timeout = None) -> ActionResult:
        """Cancel the job. :class:`~printmgmt.errors.PreconditionFailed` when it has already finished."""
        return await self._act_on(_CANCEL, id, timeout=timeout)

    async def pause(self, id: str, *, timeout: Timeout = None) -> ActionResult:
        """Pause the job. :class:`~printmgmt.errors.PreconditionFailed` when it is paused or finished."""
        return await self._act_on(_PAUSE, id, timeout=timeout)

    async def resume(self, id: str, *, timeout: Timeout = None) -> ActionResult:
        """Resume a paused job. :class:`~printmgmt.errors.PreconditionFailed` when it is not paused."""
        return await self._act_on(_RESUME, id, timeout=timeout)

    async def repeat(self, id: str, *, timeout: Timeout = None) -> ActionResult:
        """Print a finished job again. :class:`~printmgmt.errors.PreconditionFailed` while it is active."""
        return await self._act_on(_REPEAT, id, timeout=timeout)

    async def move(self, id: str, *, printer: str, timeout: Timeout = None) -> ActionResult:
        """Move the job to ``printer``. :class:`~printmgmt.errors.PreconditionFailed` for an unusable target."""
        body = MoveRequest(printer_name=path_segment(printer, "printer"))
        return await self._act_on(_MOVE, id, body=body, timeout=timeout)

    async def logs(self, id: str, *, timeout: Timeout = None) -> list[LogEntry]:
        """The job's log entries."""
        return await self._read(_LOGS, id, list, timeout=timeout)

    @overload
    async def logfile(self, id: str, *, timeout: Timeout = None) -> str: ...
    @overload
    async def logfile(self, id: str, *, to: Destination, timeout: Timeout = None) -> int: ...
    async def logfile(self, id: str, *, to: Destination | None = None, timeout: Timeout = None) -> str | int:
        """The job's log file as text, or streamed to ``to`` (a path or binary file); then bytes written."""
        if to is not None:
            return await self._download(_LOGFILE, id, to=to, timeout=timeout)
        return await self._read(_LOGFILE, id, str, timeout=timeout)

    async def pageinfo(self, id: str, *, timeout: Timeout = None) -> PageInfo:
        """Per-page information of the job."""
        return await self._read(_PAGEINFO, id, PageInfo, timeout=timeout)

    @overload
    async def collect(self, id: str, *, timeout: Timeout = None) -> bytes: ...
    @overload
    async def collect(self, id: str, *, to: Destination, timeout: Timeout = None) -> int: ...
    async def collect(self, id: str, *, to: Destination | None = None, timeout: Timeout = None) -> bytes | int:
        """The job's collected files as bytes, or streamed to ``to``; then bytes written."""
        if to is not None:
            return await self._download(_COLLECT, id, to=to, timeout=timeout)
        file = await self._read(_COLLECT, id, File, timeout=timeout)
        return file.payload.read()

    async def tempfiles(self, id: str, *, timeout: Timeout = None) -> ActionResult:
        """Keep the job's temporary (stage) files."""
        return await self._act_on(_TEMPFILES, id, timeout=timeout)

    cancel_many = BulkAction("cancel")
    pause_many = BulkAction("pause")
    resume_many = BulkAction("resume")
    delete_many = BulkAction("delete")
