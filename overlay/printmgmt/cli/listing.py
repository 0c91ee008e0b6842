"""``list`` and ``get`` of a collection (jobs, printers): one page, or everything streamed page by page."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Literal

import typer

from . import options as opt
from .choices import check_paths, split
from .complete import printer_names
from .output import Column, Format, Writer, columns_for, open_writer, progress, write_one
from .runner import reporting_errors, run, warning_lines

if TYPE_CHECKING:
    from printmgmt import PrintClient
    from printmgmt.client import JobsResource, PrintersResource

__all__ = ["DEFAULT_TOP", "Query", "add_get_command", "add_list_command", "get_one"]

#: Page size of ``list`` without ``--top`` or ``--all``.
DEFAULT_TOP = 50

Resource = Callable[["PrintClient"], "JobsResource | PrintersResource"]


@dataclass(frozen=True, slots=True)
class Query:
    """The OData options of a listing."""

    filter: str | None
    orderby: str | None
    select: str | None
    top: int | None
    skip: int
    #: What the SDK reads before sending (the command line has read the options already).
    check_query: Literal["off"] = "off"


def add_list_command(app: typer.Typer, *, noun: str, resource: Resource, columns: Sequence[Column], model: str) -> None:
    """Register ``<noun>s list`` on ``app``; ``columns`` are the table and CSV columns without ``--select``,
    ``model`` the generated model whose fields ``--columns`` may name (``Job``)."""
    default_columns = columns

    def list_command(
        ctx: typer.Context,
        filter: opt.Filter = None,
        orderby: opt.OrderBy = None,
        select: opt.Select = None,
        columns: opt.Columns = None,
        top: opt.Top = None,
        skip: opt.Skip = 0,
        all: opt.All = False,
        page_size: opt.PageSize = 500,
        output: opt.Output = Format.table,
        check_query: opt.CheckQuery = opt.QueryCheck.strict,
    ) -> None:
        if all and top is not None:
            raise typer.BadParameter("--top and --all exclude each other (use --page-size)", param_hint="--top")
        query = Query(filter=filter, orderby=orderby, select=select, top=top, skip=skip)
        checked(ctx, f"{noun}s", query, check_query)
        chosen = columns and check_paths(split([columns]), f"{noun}s", noun=noun, option="--columns")
        writer = open_writer(output, columns_for(select, default_columns, chosen or None))
        if all:
            run(ctx, lambda client: _everything(resource(client), query, page_size, writer, noun))
        else:
            run(ctx, lambda client: _page(resource(client), query, writer, noun))

    list_command.__doc__ = f"List {noun}s: one page (--top, --skip), or all that match streamed (--all)."
    app.command("list")(list_command)


async def _page(resource: JobsResource | PrintersResource, query: Query, writer: Writer, noun: str) -> None:
    found = await resource.list(
        filter=query.filter,
        orderby=query.orderby,
        select=query.select,
        top=DEFAULT_TOP if query.top is None else query.top,
        skip=query.skip,
        count=True,
        check_query=query.check_query,
    )
    for item in found:
        writer.write(item.to_dict())
    if found.total is not None and len(found):
        writer.note(f"{noun}s {found.skip + 1}-{found.next_skip} of {found.total}")
    writer.close()


async def _everything(
    resource: JobsResource | PrintersResource, query: Query, page_size: int, writer: Writer, noun: str
) -> None:
    """Every match, page by page: records on stdout as each page arrives, a progress bar on stderr."""
    pager = resource.iterate(
        filter=query.filter,
        orderby=query.orderby,
        select=query.select,
        page_size=page_size,
        start=query.skip,
        check_query=query.check_query,
    )
    with progress() as bar:
        task = bar.add_task(f"{noun}s", total=None)
        async for found in pager.by_page():
            if found.total is not None:  # known from the first page on
                bar.update(task, total=max(found.total - query.skip, 0))
            for item in found:
                writer.write(item.to_dict())
            bar.advance(task, len(found))
    writer.close()


def checked(ctx: typer.Context, collection: str, query: Query, mode: str) -> None:
    """Read ``--filter``, ``--orderby`` and ``--select`` with the server's grammar before anything else (no
    sign-in, no request): a refusal is one line and exit code 2, an unknown field one warning line."""
    from printmgmt._querycheck import check_mode, check_query

    with reporting_errors(ctx), warning_lines():
        check_query(collection, check_mode(mode), filter=query.filter, orderby=query.orderby, select=query.select)


def add_get_command(app: typer.Typer, *, noun: str, resource: Resource, key: str, key_help: str) -> None:
    """Register ``<noun>s get KEY`` on ``app``; ``key`` names the argument (``job_id``)."""

    def get_command(
        ctx: typer.Context,
        # typer's older default-value form: the metavar is a local, which a string annotation could not see
        value: str = typer.Argument(
            metavar=key, help=key_help, show_default=False, autocompletion=printer_names if noun == "printer" else None
        ),
        output: opt.Output = Format.table,
    ) -> None:
        get_one(ctx, lambda client: resource(client).get(value), output)

    get_command.__doc__ = f"Show one {noun}."
    app.command("get")(get_command)


def get_one(ctx: typer.Context, fetch: Callable[[PrintClient], Awaitable[Any]], fmt: Format) -> None:
    """Write one document (a model with ``to_dict()``, or a plain mapping)."""

    async def action(client: PrintClient) -> None:
        found = await fetch(client)
        write_one(found.to_dict() if hasattr(found, "to_dict") else found, fmt)

    run(ctx, action)
