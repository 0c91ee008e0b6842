"""``printmgmt jobs wait``: wait until jobs reach a status, with a progress display on stderr."""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Annotated

import typer

from . import options as opt
from .actions import read_keys
from .choices import check_names, job_statuses, split
from .output import Column, Format, message, open_writer, progress
from .runner import Exit, run

if TYPE_CHECKING:
    from printmgmt import PrintClient
    from printmgmt_api.models import Job

__all__ = ["add_wait_command"]

COLUMNS = (
    Column("_id", rank=0),
    Column("status", rank=1),
    Column("current/printerName", rank=2),
    Column("current/jobName", rank=3, wraps=True),
)

Statuses = Annotated[
    list[str] | None,
    typer.Option(
        "--until", "-u", help="A status that ends the wait (repeatable or comma-separated; default Processed)."
    ),
]
FailOn = Annotated[
    list[str] | None,
    typer.Option(
        "--fail-on", help="A status that fails the wait (repeatable or comma-separated; default Error and Canceled)."
    ),
]
Timeout = Annotated[float, typer.Option("--timeout", "-t", min=0, help="Give up after this many seconds.")]
Poll = Annotated[float, typer.Option("--poll", min=0.01, help="Seconds between the first polls (backing off to 15).")]


def _summary(jobs: list[Job]) -> str:
    from printmgmt.waiting import status_of

    counts = Counter(status_of(job) or "?" for job in jobs)
    return ", ".join(f"{n} {status}" for status, n in sorted(counts.items()))


def add_wait_command(app: typer.Typer) -> None:
    @app.command("wait")
    def wait_jobs(
        ctx: typer.Context,
        keys: opt.Keys,
        until: Statuses = None,
        fail_on: FailOn = None,
        timeout: Timeout = 300.0,
        poll: Poll = 1.0,
        output: opt.Output = Format.table,
    ) -> None:
        """Wait until jobs reach a status (default Processed): one filtered request per round for all of them.

        Exit 0 when every job did; 1 when one ended in a failure status (--fail-on), or in another status
        it does not leave (Processed while waiting for Paused: at once), or the timeout passed.
        """
        from printmgmt.errors import JobFailed, WaitTimeout
        from printmgmt.waiting import DONE, FAILED, status_of

        ids = read_keys(keys)
        known = job_statuses()
        ends = check_names(split(until), known, what="job status", option="--until") or DONE
        fails = FAILED if fail_on is None else check_names(split(fail_on), known, what="job status", option="--fail-on")

        async def action(client: PrintClient) -> int:
            code, outcome = Exit.OK, "done"
            with progress() as bar:
                task = bar.add_task(f"waiting for {len(ids)} job(s)", total=len(ids))
                final = {*ends, *fails}

                def on_round(jobs: list[Job]) -> None:
                    ended = sum(status_of(job) in final for job in jobs)
                    bar.update(task, completed=ended, description=_summary(jobs))

                try:
                    jobs = await client.jobs.wait_for_many(
                        ids,
                        until=ends,
                        fail_on=fails,
                        timeout=timeout,
                        poll=poll,
                        max_poll=max(poll, 15.0),
                        on_round=on_round,
                    )
                    said = f" ({_summary(jobs)})"
                except JobFailed as failed:
                    jobs, code, outcome = failed.jobs, Exit.API, str(failed)
                    said = f" ({_summary(jobs)})"
                except WaitTimeout as late:
                    jobs, code, outcome = late.jobs, Exit.API, str(late)
                    # the message counts the jobs left; those that ended are said apart
                    left = {job.id for job in late.pending}
                    ended = [job for job in jobs if job.id not in left]
                    said = f"; {len(ended)} ended ({_summary(ended)})" if ended else ""
            writer = open_writer(output, COLUMNS)
            for job in jobs:
                writer.write(job.to_dict())
            writer.close()
            message(f"wait: {outcome}{said if jobs else ''}", style=None if code == Exit.OK else "red")
            return code

        run(ctx, action)
