"""``printmgmt doctor``: the read-only conformance probe (:mod:`printmgmt.doctor`) as a report."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from . import options as opt
from .output import Format, open_writer
from .runner import run

if TYPE_CHECKING:
    from printmgmt import PrintClient

__all__ = ["doctor"]

COLUMNS = ("verdict", "id", "guess", "observed")


WriteProfile = Annotated[
    Path | None,
    typer.Option(
        "--write-profile",
        metavar="FILE",
        dir_okay=False,
        help="also write the findings as a simulator profile (TOML, or JSON for a .json name): run the twin as "
        "this server answers with printmgmt-sim --profile FILE",
    ),
]


def doctor(ctx: typer.Context, output: opt.Output = Format.table, write_profile: WriteProfile = None) -> None:
    """Compare the server's answers with the SDK's guesses (read-only; attach `-o json` to an issue)."""

    async def action(client: PrintClient) -> None:
        from printmgmt.doctor import probe
        from printmgmt.doctor import write_profile as write

        report = await probe(client)
        if write_profile is not None:
            write(report, write_profile)
        if output is Format.json:
            sys.stdout.write(json.dumps(report.to_dict(), ensure_ascii=False, indent=2) + "\n")
            return
        writer = open_writer(output, COLUMNS)
        for finding in report.findings:
            writer.write(finding.to_dict())
        summary = ", ".join(f"{n} {verdict}" for verdict, n in report.to_dict()["summary"].items())
        writer.note(f"{report.server} through {report.client or 'a bearer token'}: {summary}")
        writer.close()
        if output is Format.table:
            for finding in report.differences:
                typer.echo(f"- {finding.id}: {finding.advice}")

    run(ctx, action)
