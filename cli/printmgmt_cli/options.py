"""Options and arguments shared by several commands."""

from __future__ import annotations

import enum
from typing import Annotated

import typer

from .complete import printer_names
from .output import Format

__all__ = [
    "All",
    "CheckQuery",
    "Columns",
    "Concurrency",
    "Filter",
    "Keys",
    "OrderBy",
    "Output",
    "PageSize",
    "PrinterKeys",
    "Select",
    "Skip",
    "Top",
    "Wide",
    "Yes",
]

Output = Annotated[
    Format,
    typer.Option(
        "--output",
        "-o",
        help="table (for people), json (one array), jsonl (one object per line) or csv.",
        case_sensitive=False,
    ),
]
Filter = Annotated[str | None, typer.Option("--filter", "-f", help="OData $filter, e.g. \"status eq 'Error'\".")]
OrderBy = Annotated[str | None, typer.Option("--orderby", help="OData $orderby, e.g. 'current/checkinTime desc'.")]
Select = Annotated[
    str | None,
    typer.Option(
        "--select",
        "-s",
        help="Fields to fetch, comma-separated paths such as status and current/printerName; also the table/CSV "
        "columns.",
    ),
]


class QueryCheck(enum.StrEnum):
    """How --filter/--orderby/--select are read before sending (the SDK's ``check_query``)."""

    strict = "strict"
    syntax = "syntax"
    off = "off"


CheckQuery = Annotated[
    QueryCheck,
    typer.Option(
        "--check-query",
        help="Before sending, refuse a filter, order or selection the server would refuse (syntax), or also read "
        "otherwise than OData (strict); off sends them as written.",
    ),
]
Columns = Annotated[
    str | None,
    typer.Option(
        "--columns",
        "-c",
        help="The table/CSV columns, comma-separated field paths such as _id, status and current/jobName, in "
        "the order shown (the first stay longest on a narrow terminal); unlike --select, what is fetched stays "
        "the same.",
    ),
]
Wide = Annotated[
    bool,
    typer.Option(
        "--wide",
        "-w",
        help="A table with every column and every cell whole, however wide the terminal (which then wraps lines).",
    ),
]
Top = Annotated[int | None, typer.Option("--top", "-n", min=0, help="At most this many (default 50).")]
Skip = Annotated[int, typer.Option("--skip", min=0, help="Skip this many first.")]
All = Annotated[
    bool, typer.Option("--all", "-a", help="Everything that matches, fetched page by page (progress on stderr).")
]
PageSize = Annotated[int, typer.Option("--page-size", min=1, max=10_000, help="Page size of --all.")]
Keys = Annotated[
    list[str], typer.Argument(help="One or more job ids; - reads them from stdin, one per line.", metavar="JOB_ID...")
]
PrinterKeys = Annotated[
    list[str],
    typer.Argument(
        help="One or more printer names; - reads them from stdin, one per line.",
        metavar="NAME...",
        autocompletion=printer_names,
    ),
]
Concurrency = Annotated[
    int, typer.Option("--concurrency", "-j", min=1, max=64, help="Requests in flight when acting on several.")
]
Yes = Annotated[bool, typer.Option("--yes", "-y", help="Do not ask for confirmation.")]
