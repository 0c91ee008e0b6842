"""``printmgmt doctor``: the read-only conformance probe (:mod:`printmgmt_cli.doctor`) as a report.

For people, the report reads verdict first: a heading line (server, client, the count of each verdict), then
one block per finding that differs or could not be decided (its verdict and id, then the question, the
guess, what the server answered and what to do), then one line per finding that matches. Long text wraps
at the terminal's width; off a terminal each line is whole.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Final

import typer
from rich.console import Group, RenderableType
from rich.table import Table
from rich.text import Text

from . import options as opt
from .errors import ConfigError
from .output import Format, message, open_writer, print_table
from .runner import Exit, reporting_errors, run

if TYPE_CHECKING:
    from printmgmt import PrintClient

    from .doctor import Finding, Report

__all__ = ["doctor"]

#: The CSV columns (JSON Lines has each finding whole).
COLUMNS = ("verdict", "id", "question", "guess", "observed", "advice")
#: The order of the report for people, and how each verdict is shown.
VERDICTS: Final = {"differs": "bold red", "unknown": "bold yellow", "matches": "green"}

WriteProfile = Annotated[
    Path | None,
    typer.Option(
        "--write-profile",
        metavar="FILE",
        dir_okay=False,
        help="Also write the findings as a simulator profile (TOML, or JSON for a .json name): run the twin as "
        "this server answers with printmgmt-sim --profile FILE. An existing FILE is kept unless --force.",
    ),
]
Force = Annotated[bool, typer.Option("--force", help="Let --write-profile replace an existing file.")]
ExitZero = Annotated[
    bool,
    typer.Option(
        "--exit-zero", help="Exit 0 even when the server differs from a guess (scripts that only want the report)."
    ),
]


def doctor(
    ctx: typer.Context,
    output: opt.Output = Format.table,
    write_profile: WriteProfile = None,
    force: Force = False,
    exit_zero: ExitZero = False,
) -> None:
    """Compare the server's answers with the SDK's guesses (read-only; attach `-o json` to an issue).

    Exit 5 when the server differs from a guess (--exit-zero: 0), else as every command.
    """
    if write_profile is not None and write_profile.exists() and not force:
        with reporting_errors(ctx):  # said before any request: the probe takes a while
            raise ConfigError(f"{write_profile} exists; pass --force to replace it")

    async def action(client: PrintClient) -> int:
        from . import profile
        from .doctor import probe

        report = await probe(client)
        if write_profile is not None:
            profile.write_profile(report.profile(), write_profile)
        if output is Format.json:
            sys.stdout.write(json.dumps(report.to_dict(), ensure_ascii=False, indent=2) + "\n")
        elif output is Format.table:
            print_table(rendered(report))
        else:
            writer = open_writer(output, COLUMNS)
            for finding in report.findings:
                writer.write(finding.to_dict())
            writer.close()
        differ = len(report.differences)
        if not differ or exit_zero:
            return Exit.OK
        guesses = "guess" if differ == 1 else "guesses"
        said = f"the server differs from {differ} {guesses}: exit {int(Exit.DIFFERS)} (--exit-zero keeps 0)"
        message(f"doctor: {said}", style="yellow")
        return Exit.DIFFERS

    run(ctx, action)


def rendered(report: Report) -> RenderableType:
    """The report for people: the heading, a block per finding that differs or is unknown, a line per match."""
    counts = report.to_dict()["summary"]
    summary = ", ".join(f"{counts[verdict]} {verdict}" for verdict in VERDICTS if verdict in counts)
    heading = Text.assemble(
        ("doctor", "bold"), f": {report.server} through {report.client or 'a bearer token'}\n", summary
    )
    parts: list[RenderableType] = [heading]
    for verdict in ("differs", "unknown"):
        parts += [_block(finding) for finding in report.findings if finding.verdict == verdict]
    matches = [finding for finding in report.findings if finding.verdict == "matches"]
    if matches:
        lines = Table.grid(padding=(0, 2))
        lines.add_column(no_wrap=True)
        lines.add_column(no_wrap=True)
        lines.add_column(overflow="fold")
        for finding in matches:
            lines.add_row(Text(finding.verdict, style=VERDICTS["matches"]), finding.id, Text(finding.observed))
        parts += [Text(""), lines]
    return Group(*parts)


def _block(finding: Finding) -> RenderableType:
    """One finding: its verdict and id on a line, then each of its texts under a label, wrapped beside it."""
    details = Table.grid(padding=(0, 2), pad_edge=True)
    details.add_column(no_wrap=True, style="dim")
    details.add_column(overflow="fold")
    rows = [("question", finding.question), ("guess", finding.guess), ("observed", finding.observed)]
    rows += [("advice", finding.advice)] if finding.advice else []
    for label, text in rows:
        details.add_row(label, Text(text))
    title = Text.assemble((finding.verdict, VERDICTS.get(finding.verdict, "")), "  ", (finding.id, "bold"))
    return Group(Text(""), title, details)
