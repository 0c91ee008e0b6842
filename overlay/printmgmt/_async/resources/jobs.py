"""``client.jobs``: print jobs."""

from __future__ import annotations

from collections.abc import AsyncIterator, Callable, Iterable
from typing import Unpack, overload

from printmgmt_api.api.jobs import (
    cancel_job,
    collect_job,
    delete_job,
    get_job,
    get_job_logfile,
    get_job_logs,
    get_job_pageinfo,
    get_jobs_metadata,
    list_jobs,
    move_job,
    pause_job,
    repeat_job,
    resume_job,
    save_job_tempfiles,
)
from printmgmt_api.models import ActionResult, Job, LogEntry, Metadata, MoveRequest, PageInfo

from ... import odata
from ..._call import NOT_GIVEN, CallOptions, NotGiven, ReadOptions, Timeout
from ..._concurrency import async_sleep
from ..._progress import progress_bar, set_status
from ..._validate import path_segment
from ...errors import BadRequest, JobFailed
from ...waiting import DONE, FAILED, FINAL, MANY_BATCH, Statuses, Waiter, fingerprint, status_of
from ._base import BulkAction, Collection, Destination

__all__ = ["JobsResource"]


class JobsResource(Collection[Job]):
    """Print jobs: list, read, act on them (cancel, pause, resume, repeat, move) and fetch their files."""

    _item = Job
    _list_request = staticmethod(list_jobs.request)

    async def get(self, id: str, **options: Unpack[CallOptions]) -> Job:
        """The job with this ``_id``."""
        return await self._read(get_job.request, id, options)

    async def wait_for(
        self,
        id: str,
        *,
        until: Statuses = DONE,
        fail_on: Statuses = FAILED,
        timeout: float | None = 300.0,
        poll: float = 1.0,
        max_poll: float = 15.0,
        request_timeout: Timeout | NotGiven = NOT_GIVEN,
        progress: bool = False,
        **options: Unpack[ReadOptions],
    ) -> Job:
        """Poll the job until its status is in ``until`` (default ``Processed``) and return it.

        Raises :class:`~printmgmt.errors.JobFailed` when it reaches a status in ``fail_on`` (default ``Error``,
        ``Canceled``), at once :class:`~printmgmt.errors.StatusUnreachable` when it ended in another status;
        :class:`~printmgmt.errors.WaitTimeout` after ``timeout`` seconds (``None``: no limit). Polls every
        ``poll`` seconds, backing off to ``max_poll`` while nothing changes; ``request_timeout`` is each poll's
        own timeout. ``progress=True`` shows the status last seen (the extra ``printmgmt[progress]``).
        """
        waiter = Waiter(until=until, fail_on=fail_on, timeout=timeout, poll=poll, max_poll=max_poll)
        async for job in self._polls(id, waiter, request_timeout, progress, options):
            last = job
        return last

    async def watch(
        self,
        id: str,
        *,
        until: Statuses = FINAL,
        timeout: float | None = None,
        poll: float = 1.0,
        max_poll: float = 15.0,
        request_timeout: Timeout | NotGiven = NOT_GIVEN,
        progress: bool = False,
        **options: Unpack[ReadOptions],
    ) -> AsyncIterator[Job]:
        """Yield the job now and each time it changes, until its status is in ``until`` (default: any final
        status; that state is yielded too). Raises :class:`~printmgmt.errors.WaitTimeout` and
        :class:`~printmgmt.errors.StatusUnreachable` as :meth:`wait_for` does."""
        waiter = Waiter(until=until, fail_on=(), timeout=timeout, poll=poll, max_poll=max_poll)
        async for job in self._polls(id, waiter, request_timeout, progress, options):
            yield job

    async def _polls(
        self, id: str, waiter: Waiter, request_timeout: Timeout | NotGiven, progress: bool, options: ReadOptions
    ) -> AsyncIterator[Job]:
        what, seen = f"job {id!r}", None
        bar = progress_bar(progress, total=1, desc=what, unit="job")
        try:
            while True:
                job = await self.get(id, timeout=request_timeout, **options)
                set_status(bar, status_of(job))
                if fingerprint(job) != seen:
                    if seen is not None:
                        waiter.changed()
                    seen = fingerprint(job)
                    yield job
                if waiter.ended(job, what):
                    bar.update(1)
                    return
                await async_sleep(waiter.next_delay(job, what))
        finally:
            bar.close()

    async def wait_for_many(
        self,
        ids: Iterable[str],
        *,
        until: Statuses = DONE,
        fail_on: Statuses = FAILED,
        timeout: float | None = 300.0,
        poll: float = 1.0,
        max_poll: float = 15.0,
        request_timeout: Timeout | NotGiven = NOT_GIVEN,
        on_round: Callable[[list[Job]], object] | None = None,
        progress: bool = False,
        **options: Unpack[ReadOptions],
    ) -> list[Job]:
        """Wait until every job has a status in ``until`` or ``fail_on``; return them in the order given.

        Each round is one filtered list request per 50 jobs; where the server refuses that filter or misses a
        job, the jobs are read one by one from then on. Raises as :meth:`wait_for` does, with ``.jobs`` (every
        job as last seen) and, on a :class:`~printmgmt.errors.WaitTimeout`, ``.pending`` (those not ended).
        ``on_round`` gets every job as last seen after each round; ``progress=True`` counts the jobs that ended.
        """
        if isinstance(ids, str | bytes):
            raise TypeError("expected several job ids (a list), not one string")
        keys = list(dict.fromkeys(path_segment(key, "job id") for key in ids))
        waiter = Waiter(until=until, fail_on=fail_on, timeout=timeout, poll=poll, max_poll=max_poll)
        final = waiter.until | waiter.fail_on
        latest: dict[str, Job] = {}
        by_filter = True
        bar = progress_bar(progress, total=len(keys), desc="jobs ended", unit="job")
        try:
            while True:
                pending = [key for key in keys if key not in latest or status_of(latest[key]) not in final]
                before = {key: fingerprint(latest[key]) for key in pending if key in latest}
                found: dict[str, Job] = {}
                if by_filter:
                    try:
                        found = await self._by_id_filter(pending, request_timeout, options)
                    except BadRequest:
                        by_filter = False  # a server whose driver refuses the id literal
                for key in pending:
                    if key not in found:
                        # not in the filtered list: read it alone (a job that is gone raises the server's own 404)
                        found[key] = await self.get(key, timeout=request_timeout, **options)
                        by_filter = False  # it exists, yet the filter missed it
                latest.update(found)
                if any(fingerprint(latest[key]) != seen for key, seen in before.items()):
                    waiter.changed()
                jobs = [latest[key] for key in keys]
                if on_round is not None:
                    on_round(jobs)
                left = [job for job in jobs if status_of(job) not in final]
                bar.update(len(pending) - len(left))  # a job that ended is not read again
                for job in left:
                    waiter.check_reachable(job, f"job {job.id!r}", jobs)
                if not left:
                    failed = [job for job in jobs if status_of(job) in waiter.fail_on]
                    if failed:
                        statuses = ", ".join(sorted({str(status_of(job)) for job in failed}))
                        raise JobFailed(
                            f"{len(failed)} of {len(jobs)} jobs ended as {statuses}", job=failed[0], jobs=jobs
                        )
                    return jobs
                what = f"{len(left)} of {len(jobs)} jobs" if len(jobs) > 1 else f"job {left[0].id!r}"
                await async_sleep(waiter.next_delay(left[0], what, jobs, left))
        finally:
            bar.close()

    async def _by_id_filter(self, keys: list[str], timeout: Timeout | NotGiven, options: ReadOptions) -> dict[str, Job]:
        """The jobs among ``keys`` that a filter on ``_id`` finds, one list request per batch."""
        found: dict[str, Job] = {}
        for start in range(0, len(keys), MANY_BATCH):
            batch = keys[start : start + MANY_BATCH]
            ids_filter = odata.or_(*(odata.field("_id") == key for key in batch))
            page = await self.list(filter=ids_filter, top=len(batch), timeout=timeout, **options)
            found.update((job.id, job) for job in page.items if job.id in batch)
        return found

    async def delete(self, id: str, **options: Unpack[CallOptions]) -> ActionResult:
        """Delete the job and its files."""
        return await self._read(delete_job.request, id, options)

    async def metadata(self, **options: Unpack[CallOptions]) -> Metadata:
        """Description of the job resource (column catalogue)."""
        return await self._invoker.invoke(get_jobs_metadata.request(), **options)

    async def cancel(self, id: str, **options: Unpack[CallOptions]) -> ActionResult:
        """Cancel the job. :class:`~printmgmt.errors.PreconditionFailed` when it has already finished."""
        return await self._read(cancel_job.request, id, options)

    async def pause(self, id: str, **options: Unpack[CallOptions]) -> ActionResult:
        """Pause the job. :class:`~printmgmt.errors.PreconditionFailed` when it is paused or finished."""
        return await self._read(pause_job.request, id, options)

    async def resume(self, id: str, **options: Unpack[CallOptions]) -> ActionResult:
        """Resume a paused job. :class:`~printmgmt.errors.PreconditionFailed` when it is not paused."""
        return await self._read(resume_job.request, id, options)

    async def repeat(self, id: str, **options: Unpack[CallOptions]) -> ActionResult:
        """Print a finished job again. :class:`~printmgmt.errors.PreconditionFailed` while it is active."""
        return await self._read(repeat_job.request, id, options)

    async def move(self, id: str, *, printer: str, **options: Unpack[CallOptions]) -> ActionResult:
        """Move the job to ``printer``. :class:`~printmgmt.errors.PreconditionFailed` for an unusable target."""
        body = MoveRequest(printer_name=path_segment(printer, "printer"))
        return await self._read(move_job.request, id, options, body=body)

    async def logs(self, id: str, **options: Unpack[CallOptions]) -> list[LogEntry]:
        """The job's log entries."""
        return await self._read(get_job_logs.request, id, options)

    @overload
    async def logfile(self, id: str, **options: Unpack[CallOptions]) -> str: ...
    @overload
    async def logfile(self, id: str, *, to: Destination, **options: Unpack[CallOptions]) -> int: ...
    async def logfile(self, id: str, *, to: Destination | None = None, **options: Unpack[CallOptions]) -> str | int:
        """The job's log file as text, or streamed to ``to`` (a path or binary file); then bytes written."""
        if to is not None:
            return await self._download(get_job_logfile.request, id, options, to=to)
        return await self._read(get_job_logfile.request, id, options)

    async def pageinfo(self, id: str, **options: Unpack[CallOptions]) -> PageInfo:
        """Per-page information of the job."""
        return await self._read(get_job_pageinfo.request, id, options)

    @overload
    async def collect(self, id: str, **options: Unpack[CallOptions]) -> bytes: ...
    @overload
    async def collect(self, id: str, *, to: Destination, **options: Unpack[CallOptions]) -> int: ...
    async def collect(self, id: str, *, to: Destination | None = None, **options: Unpack[CallOptions]) -> bytes | int:
        """The job's collected files as bytes, or streamed to ``to``; then bytes written."""
        if to is not None:
            return await self._download(collect_job.request, id, options, to=to)
        file = await self._read(collect_job.request, id, options)
        return file.payload.read()

    async def tempfiles(self, id: str, **options: Unpack[CallOptions]) -> ActionResult:
        """Keep the job's temporary (stage) files."""
        return await self._read(save_job_tempfiles.request, id, options)

    cancel_many = BulkAction("jobs.cancel")
    pause_many = BulkAction("jobs.pause")
    resume_many = BulkAction("jobs.resume")
    delete_many = BulkAction("jobs.delete")
