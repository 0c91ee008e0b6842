"""``client.jobs``: print jobs."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any, Unpack, overload

from printmgmt_api.types import Request

from ..._call import CallOptions
from ..._validate import path_segment
from ._base import BulkAction, Collection, Destination

if TYPE_CHECKING:
    from printmgmt_api.models import ActionResult, Job, JobCollection, LogEntry, Metadata, PageInfo

__all__ = ["JobsResource"]


class JobsResource(Collection["Job"]):
    """Print jobs: list, read, act on them (cancel, pause, resume, repeat, move) and fetch their files."""

    _noun, _key_name = "job", "id"

    @staticmethod
    def _item() -> type[Job]:
        from printmgmt_api.models import Job

        return Job

    @staticmethod
    def _list_request(**params: Any) -> Request[JobCollection | list[Job]]:
        from printmgmt_api.api.jobs import list_jobs

        return list_jobs.request(**params)

    async def get(self, id: str, **options: Unpack[CallOptions]) -> Job:
        """The job with this ``_id``."""
        from printmgmt_api.api.jobs import get_job

        return await self._read(get_job.request, id, options)

    async def delete(self, id: str, **options: Unpack[CallOptions]) -> ActionResult:
        """Delete the job and its files."""
        from printmgmt_api.api.jobs import delete_job

        return await self._act_on(delete_job.request, id, options)

    async def metadata(self, **options: Unpack[CallOptions]) -> Metadata:
        """Description of the job resource (column catalogue)."""
        from printmgmt_api.api.jobs import get_jobs_metadata

        return await self._invoker.invoke(get_jobs_metadata.request(), **options)

    async def cancel(self, id: str, **options: Unpack[CallOptions]) -> ActionResult:
        """Cancel the job. :class:`~printmgmt.errors.PreconditionFailed` when it has already finished."""
        from printmgmt_api.api.jobs import cancel_job

        return await self._act_on(cancel_job.request, id, options)

    async def pause(self, id: str, **options: Unpack[CallOptions]) -> ActionResult:
        """Pause the job. :class:`~printmgmt.errors.PreconditionFailed` when it is paused or finished."""
        from printmgmt_api.api.jobs import pause_job

        return await self._act_on(pause_job.request, id, options)

    async def resume(self, id: str, **options: Unpack[CallOptions]) -> ActionResult:
        """Resume a paused job. :class:`~printmgmt.errors.PreconditionFailed` when it is not paused."""
        from printmgmt_api.api.jobs import resume_job

        return await self._act_on(resume_job.request, id, options)

    async def repeat(self, id: str, **options: Unpack[CallOptions]) -> ActionResult:
        """Print a finished job again. :class:`~printmgmt.errors.PreconditionFailed` while it is active."""
        from printmgmt_api.api.jobs import repeat_job

        return await self._act_on(repeat_job.request, id, options)

    async def move(self, id: str, *, printer: str, **options: Unpack[CallOptions]) -> ActionResult:
        """Move the job to ``printer``. :class:`~printmgmt.errors.PreconditionFailed` for an unusable target."""
        from printmgmt_api.models import MoveRequest

        body = MoveRequest(printer_name=path_segment(printer, "printer"))
        from printmgmt_api.api.jobs import move_job

        return await self._act_on(move_job.request, id, options, body=body)

    async def logs(self, id: str, **options: Unpack[CallOptions]) -> list[LogEntry]:
        """The job's log entries."""
        from printmgmt_api.api.jobs import get_job_logs

        return await self._read(get_job_logs.request, id, options)

    @overload
    async def logfile(self, id: str, **options: Unpack[CallOptions]) -> str: ...
    @overload
    async def logfile(self, id: str, *, to: Destination, **options: Unpack[CallOptions]) -> int: ...
    async def logfile(self, id: str, *, to: Destination | None = None, **options: Unpack[CallOptions]) -> str | int:
        """The job's log file as text, or streamed to ``to`` (a path or binary file); then bytes written."""
        from printmgmt_api.api.jobs import get_job_logfile

        if to is not None:
            return await self._download(get_job_logfile.request, id, options, to=to)
        return await self._read(get_job_logfile.request, id, options)

    async def pageinfo(self, id: str, **options: Unpack[CallOptions]) -> PageInfo:
        """Per-page information of the job."""
        from printmgmt_api.api.jobs import get_job_pageinfo

        return await self._read(get_job_pageinfo.request, id, options)

    @overload
    async def collect(self, id: str, **options: Unpack[CallOptions]) -> bytes: ...
    @overload
    async def collect(self, id: str, *, to: Destination, **options: Unpack[CallOptions]) -> int: ...
    async def collect(self, id: str, *, to: Destination | None = None, **options: Unpack[CallOptions]) -> bytes | int:
        """The job's collected files as bytes, or streamed to ``to``; then bytes written."""
        from printmgmt_api.api.jobs import collect_job

        if to is not None:
            return await self._download(collect_job.request, id, options, to=to)
        file = await self._read(collect_job.request, id, options)
        return file.payload.read()

    async def tempfiles(self, id: str, **options: Unpack[CallOptions]) -> ActionResult:
        """Keep the job's temporary (stage) files."""
        from printmgmt_api.api.jobs import save_job_tempfiles

        return await self._act_on(save_job_tempfiles.request, id, options)

    cancel_many = BulkAction("cancel")
    pause_many = BulkAction("pause")
    resume_many = BulkAction("resume")
    delete_many = BulkAction("delete")
