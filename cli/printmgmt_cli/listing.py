"""``list`` and ``get`` of a collection (jobs, printers): one page, or everything streamed page by page."""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from typing import TYPE_CHECKING, Any, TypedDict

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


def add_list_command(
    app: typer.Typer, *, noun: str, resource: Resource, columns: Sequence[Column], newest: str | None = None
) -> None:
    """Register ``<noun>s list`` on ``app``; ``columns`` are the table and CSV columns without ``--select``,
    ``newest`` the time field that, descending, orders the list without ``--orderby`` (else the server's order)."""
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
        wide: opt.Wide = False,
        check_query: opt.CheckQuery = opt.QueryCheck.strict,
    ) -> None:
        if all and top is not None:
            raise typer.BadParameter("--top and --all exclude each other (use --page-size)", param_hint="--top")
        # _id breaks ties: pages of an order by a field many items share could otherwise overlap
        order = orderby if orderby is not None or newest is None else f"{newest} desc,_id desc"
        query = Query(filter=filter, orderby=order, select=select)
        unordered = checked(ctx, f"{noun}s", check_query, query)
        chosen = columns and check_paths(split([columns]), f"{noun}s", noun=noun, option="--columns")
        writer = open_writer(output, columns_for(select, default_columns, chosen or None), wide=wide)
        order_note = ", newest first" if order != orderby else ""
        if unordered:  # the server sorts by a field its documents lack as if unsorted
            fields = " and ".join(unordered)
            order_note = f", in the server's default order ({fields}: not a field in the spec)"
        if all:
            what = f"{noun}s{order_note}"
            run(ctx, lambda client: _everything(resource(client), query, skip, page_size, writer, what))
        else:
            run(ctx, lambda client: _page(resource(client), query, top, skip, writer, f"{noun}s", order_note))

    order_help = f" Newest first (by {newest}) unless --orderby says otherwise." if newest else ""
    list_command.__doc__ = f"List {noun}s: one page (--top, --skip), or all that match streamed (--all).{order_help}"
    app.command("list")(list_command)


class Query(TypedDict):
    """The OData options of a listing, as ``list`` and ``iterate`` take them (with ``check_query="off"``:
    :func:`checked` read them before the sign-in)."""

    filter: str | None
    orderby: str | None
    select: str | None


async def _page(
    resource: JobsResource | PrintersResource,
    query: Query,
    top: int | None,
    skip: int,
    writer: Writer,
    what: str,
    order_note: str,
) -> None:
    """One page; the caption says which of how many, and ``order_note`` (``, newest first``)."""
    top = DEFAULT_TOP if top is None else top
    found = await resource.list(**query, top=top, skip=skip, count=True, check_query="off")
    for item in found:
        writer.write(item.to_dict())
    if found.total is not None and len(found):
        writer.note(f"{what} {found.skip + 1}-{found.next_skip} of {found.total}{order_note}")
    writer.close()


async def _everything(
    resource: JobsResource | PrintersResource, query: Query, skip: int, page_size: int, writer: Writer, what: str
) -> None:
    """Every match, page by page: records on stdout as each page arrives, a progress bar on stderr; a table
    ends with their count."""
    pager = resource.iterate(**query, page_size=page_size, start=skip, check_query="off")
    count = 0
    with progress() as bar:
        task = bar.add_task(what, total=None)
        async for found in pager.by_page():
            if found.total is not None:  # known from the first page on
                bar.update(task, total=max(found.total - skip, 0))
            for item in found:
                writer.write(item.to_dict())
            count += len(found)
            bar.advance(task, len(found))
    writer.note(f"{count} {what}" + (f" after the first {skip}" if skip else ""))
    writer.close()


def checked(ctx: typer.Context, collection: str, mode: opt.QueryCheck, query: Query) -> list[str]:
    """Read ``--filter``, ``--orderby`` and ``--select`` with the server's grammar before anything else (no
    sign-in, no request): a refusal is one line and exit code 2, an unknown field one warning line. The
    unknown fields ``--orderby`` names are returned."""
    from printmgmt.errors import UnknownFieldWarning
    from printmgmt.server import check_mode, check_query

    with reporting_errors(ctx), warning_lines() as caught:
        check_query(collection, check_mode(mode.value), **query)
    found = (warning.message for warning in caught)
    return [w.path for w in found if isinstance(w, UnknownFieldWarning) and w.option == "$orderby"]


def add_get_command(app: typer.Typer, *, noun: str, resource: Resource, key: str, key_help: str) -> None:
    """Register ``<noun>s get KEY`` on ``app``; ``key`` names the argument (``JOB_ID``)."""

    def get_command(
        ctx: typer.Context,
        # typer's older default-value form: the metavar is a local, which a string annotation could not see
        value: str = typer.Argument(
            metavar=key, help=key_help, autocompletion=printer_names if noun == "printer" else None
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
