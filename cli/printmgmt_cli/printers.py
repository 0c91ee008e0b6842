"""``printmgmt printers``: list, show and act on printers."""

from __future__ import annotations

from typing import Annotated

import typer

from . import options as opt
from .actions import act_one, bulk_commands
from .complete import printer_names
from .listing import add_get_command, add_list_command
from .output import Column, Format

__all__ = ["app"]

app = typer.Typer(
    help="Printers: list, show, pause, resume, redirect, set a message, check the device.", no_args_is_help=True
)

#: A printer list's columns for people; on a wide terminal also the job printing and the last printed time.
COLUMNS = (
    Column("_id", rank=0),
    Column("runtime/status", rank=1),
    Column("runtime/queuedJobs", rank=2),
    Column("runtime/redirectedTo", rank=3),
    Column("runtime/message", rank=4, wraps=True),
    Column("runtime/currentPrintingJob", rank=5, extra=True),
    Column("runtime/lastPrintedJobTime", rank=6, extra=True),
)
NAME_HELP = "The printer's name (_id)."
Name = Annotated[str, typer.Argument(help=NAME_HELP, metavar="NAME", autocompletion=printer_names)]


add_list_command(app, noun="printer", resource=lambda c: c.printers, columns=COLUMNS)
add_get_command(app, noun="printer", resource=lambda c: c.printers, key="NAME", key_help=NAME_HELP)

bulk_commands(
    app,
    "printer",
    lambda c: c.printers,
    {"pause": "Pause printers' output (refused when already paused).", "resume": "Resume paused printers."},
)


@app.command("redirect")
def redirect_printer(
    ctx: typer.Context,
    name: Name,
    to: Annotated[
        str, typer.Option("--to", "-t", help="The printer to send the queue to.", autocompletion=printer_names)
    ],
    output: opt.Output = Format.table,
) -> None:
    """Redirect a printer's waiting and future jobs to another printer (refused for a loop or unknown target)."""
    act_one(ctx, name, noun="printer", verb="redirect", single=lambda c, k: c.printers.redirect(k, to=to), fmt=output)


@app.command("message")
def printer_message(
    ctx: typer.Context,
    name: Name,
    text: Annotated[str | None, typer.Argument(help="The message to show.", metavar="TEXT")] = None,
    clear: Annotated[bool, typer.Option("--clear", help="Remove the message instead.")] = False,
    output: opt.Output = Format.table,
) -> None:
    """Set (or --clear) the operator message shown for a printer."""
    if clear == (text is not None):
        raise typer.BadParameter("give either TEXT or --clear", param_hint="TEXT")
    act_one(
        ctx,
        name,
        noun="printer",
        verb="message",
        single=lambda c, k: c.printers.clear_message(k) if text is None else c.printers.set_message(k, text),
        fmt=output,
    )


@app.command("check")
def check_printer(ctx: typer.Context, name: Name, output: opt.Output = Format.table) -> None:
    """Query the device now and store its answer in the printer's physical data."""
    act_one(ctx, name, noun="printer", verb="check", single=lambda c, k: c.printers.check_physical(k), fmt=output)
