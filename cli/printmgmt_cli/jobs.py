"""``printmgmt jobs``: list, show and act on print jobs."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from . import options as opt
from .actions import act, act_one, bulk_commands
from .listing import add_get_command, add_list_command
from .output import Column, Format, message
from .runner import run
from .waits import add_wait_command

if TYPE_CHECKING:
    from printmgmt import PrintClient

__all__ = ["app"]

app = typer.Typer(
    help="Print jobs: list, show, wait, pause, resume, cancel, repeat, move, delete.", no_args_is_help=True
)

#: A job list's columns for people, one line per job: at 80 columns the id, status, printer and name (cut
#: short with "…" when long); wider, the user and the check-in time; on a wide terminal the copies and the
#: format too.
COLUMNS = (
    Column("_id", rank=0),
    Column("status", rank=1),
    Column("current/printerName", rank=2),
    Column("current/userName", rank=4),
    Column("current/jobName", rank=3, cut=True),
    Column("current/checkinTime", rank=5),
    Column("current/copies", rank=6, extra=True),
    Column("current/fileFormat", rank=7, extra=True),
)
JOB_ID_HELP = "The job's id (_id)."
JobId = Annotated[str, typer.Argument(help=JOB_ID_HELP, metavar="JOB_ID")]


#: The order of a job list without --orderby: an operator looks for the latest jobs first.
NEWEST = "current/checkinTime"

add_list_command(app, noun="job", resource=lambda c: c.jobs, columns=COLUMNS, newest=NEWEST)
add_get_command(app, noun="job", resource=lambda c: c.jobs, key="JOB_ID", key_help=JOB_ID_HELP)
add_wait_command(app)

bulk_commands(
    app,
    "job",
    lambda c: c.jobs,
    {
        "pause": "Pause jobs (refused when paused, printing or ended).",
        "resume": "Resume paused jobs.",
        "cancel": "Cancel jobs (refused once printed or canceled).",
    },
)


@app.command("delete")
def delete_jobs(
    ctx: typer.Context,
    keys: opt.Keys,
    output: opt.Output = Format.table,
    concurrency: opt.Concurrency = 8,
    yes: opt.Yes = False,
) -> None:
    """Delete jobs and their files; asks first (--yes to skip, required off a terminal)."""
    act(
        ctx,
        keys=keys,
        noun="job",
        verb="delete",
        single=lambda c, k: c.jobs.delete(k),
        many=lambda c: c.jobs.delete_many,
        fmt=output,
        concurrency=concurrency,
        confirm=not yes,
    )


@app.command("repeat")
def repeat_job(ctx: typer.Context, job_id: JobId, output: opt.Output = Format.table) -> None:
    """Print an ended job again (refused while it is active)."""
    act_one(ctx, job_id, noun="job", verb="repeat", single=lambda c, k: c.jobs.repeat(k), fmt=output)


@app.command("move")
def move_job(
    ctx: typer.Context,
    job_id: JobId,
    printer: Annotated[str, typer.Option("--printer", "-p", help="The target printer.")],
    output: opt.Output = Format.table,
) -> None:
    """Move a job to another printer (refused while printing, once ended, or for an unknown printer)."""
    act_one(ctx, job_id, noun="job", verb="move", single=lambda c, k: c.jobs.move(k, printer=printer), fmt=output)


@app.command("logfile")
def job_logfile(
    ctx: typer.Context,
    job_id: JobId,
    to: Annotated[
        Path | None,
        typer.Option("--to", help="Write to this file (complete or not at all) instead of stdout.", dir_okay=False),
    ] = None,
) -> None:
    """Print a job's log file."""

    async def action(client: PrintClient) -> None:
        if to is None:
            sys.stdout.write(await client.jobs.logfile(job_id))
        else:
            written = await client.jobs.logfile(job_id, to=to)
            message(f"{written} bytes written to {to}")

    run(ctx, action)
