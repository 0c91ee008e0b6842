"""``printmgmt stats``: job and printer statistics (``client.statistics``)."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import TYPE_CHECKING, Annotated, Any

import typer

from printmgmt import odata

from . import options as opt
from .choices import check_names, job_statuses, split
from .listing import get_one
from .output import Format, open_writer, write_one
from .runner import run

if TYPE_CHECKING:
    from printmgmt import PrintClient

__all__ = ["app"]

app = typer.Typer(
    help="Statistics: job counts by status, check-ins over time, printer counts. Without a subcommand: "
    "job and printer counts.",
    invoke_without_command=True,
)

Params = Annotated[
    list[str] | None,
    typer.Option(
        "--param",
        help="Extra query parameter KEY=VALUE, passed through (the interface does not list them); repeatable.",
    ),
]
Status = Annotated[
    str | None, typer.Option("--status", help="Only these statuses, comma-separated (status=, inferred).")
]
Printer = Annotated[str | None, typer.Option("--printer", help="Only this printer (printerName=, inferred).")]
Since = Annotated[
    str | None,
    typer.Option("--since", help="Checked in from (from=, inferred): ISO 8601 (UTC unless given) or epoch ms."),
]
Until = Annotated[str | None, typer.Option("--until", help="Checked in before (to=, inferred): as --since.")]

#: Query parameters (``Any``: the SDK's ``**query`` shares its namespace with ``timeout``, refused below).
Query = dict[str, Any]


def epoch_ms(text: str) -> int:
    """Epoch milliseconds from digits or an ISO 8601 time (naive times are UTC)."""
    if text.isdigit():
        return int(text)
    try:
        moment = datetime.fromisoformat(text)
    except ValueError as exc:
        raise typer.BadParameter(f"not an ISO 8601 time or epoch ms: {text!r}") from exc
    if moment.tzinfo is None:
        moment = moment.replace(tzinfo=UTC)
    return odata.epoch_ms(moment)


#: The statistics methods' own keywords: a ``--param`` of one of these names would not reach the server.
_CALL_OPTIONS = ("timeout", "deadline")


def query(params: list[str] | None, **named: str | int | None) -> Query:
    """The query of a statistics call: the named filters that are set, then ``--param`` pairs."""
    result: Query = {key: value for key, value in named.items() if value is not None}
    for pair in params or []:
        key, sep, value = pair.partition("=")
        if not sep or not key:
            raise typer.BadParameter(f"expected KEY=VALUE, not {pair!r}", param_hint="--param")
        if key in _CALL_OPTIONS:
            hint = " (use --timeout)" if key == "timeout" else ""
            raise typer.BadParameter(
                f"{key!r} is the call's own option, not a query parameter{hint}", param_hint="--param"
            )
        result[key] = value
    return result


def _filters(status: str | None, printer: str | None, since: str | None, until: str | None) -> dict[str, Any]:
    if status:
        check_names(split([status]), job_statuses(), what="job status", option="--status")
    return {
        "status": status,
        "printerName": printer,
        "from": epoch_ms(since) if since else None,
        "to": epoch_ms(until) if until else None,
    }


@app.callback()
def overview(ctx: typer.Context, output: opt.Output = Format.table) -> None:
    """Job counts by status and printer counts."""
    if ctx.invoked_subcommand is not None:
        return

    async def action(client: PrintClient) -> None:
        jobs = (await client.statistics.job_count()).to_dict()
        printers = (await client.statistics.printer_count()).to_dict()
        write_one({"jobs": jobs, "printers": printers}, output)

    run(ctx, action)


@app.command("jobs")
def job_count(
    ctx: typer.Context,
    status: Status = None,
    printer: Printer = None,
    user: Annotated[str | None, typer.Option("--user", help="Only this owner (userName=, inferred).")] = None,
    since: Since = None,
    until: Until = None,
    param: Params = None,
    output: opt.Output = Format.table,
) -> None:
    """Job counts: the total and one per status."""
    params = query(param, **_filters(status, printer, since, until), userName=user)
    get_one(ctx, lambda c: c.statistics.job_count(**params), output)


@app.command("series")
def job_series(
    ctx: typer.Context,
    interval: Annotated[
        str | None, typer.Option("--interval", help="Bucket size, e.g. minute, hour, day (interval=, inferred).")
    ] = None,
    status: Status = None,
    printer: Printer = None,
    since: Since = None,
    until: Until = None,
    param: Params = None,
    output: opt.Output = Format.table,
) -> None:
    """Check-ins over time: one row per interval."""
    params = query(param, **_filters(status, printer, since, until), interval=interval)

    async def action(client: PrintClient) -> None:
        answer = (await client.statistics.job_series(**params)).to_dict()
        series = answer.get("series")
        if output is Format.json or not isinstance(series, list):
            write_one(answer, output)
            return
        writer = open_writer(output, ("time", "count"))
        for point in series:
            if isinstance(point, dict):
                writer.write(point)
        writer.note(f"check-ins per {answer.get('interval', 'interval')}")
        writer.close()

    run(ctx, action)


@app.command("printers")
def printer_count(ctx: typer.Context, param: Params = None, output: opt.Output = Format.table) -> None:
    """Printer counts: the total, one per runtime status, redirected and with a message."""
    params = query(param)
    get_one(ctx, lambda c: c.statistics.printer_count(**params), output)
