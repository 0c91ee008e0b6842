"""``list`` and ``get`` of a collection (jobs, printers): one page, or everything streamed page by page."""

from __future__ import annotations

import warnings
from collections.abc import Awaitable, Callable, Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any

import typer

from . import options as opt
from .choices import check_paths, split
from .complete import printer_names
from .output import Column, Format, Writer, columns_for, open_writer, progress, write_one
from .runner import reporting_errors, run, warning_lines

if TYPE_CHECKING:
    from printmgmt import PrintClient
    from printmgmt._async.resources.jobs import JobsResource
    from printmgmt._async.resources.printers import PrintersResource
    from printmgmt.server import CheckQuery

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
    #: How the options are read before sending (``--check-query``).
    check_query: CheckQuery = "strict"


def add_list_command(
    app: typer.Typer,
    *,
    noun: str,
    resource: Resource,
    columns: Sequence[Column],
    model: str,
    newest: str | None = None,
) -> None:
    """Register ``<noun>s list`` on ``app``; ``columns`` are the table and CSV columns without ``--select``,
    ``model`` the generated model whose fields ``--columns`` may name (``Job``), ``newest`` the time field
    that, descending, orders the list without ``--orderby`` (else the server's order)."""
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
        from printmgmt.server import check_mode

        mode = check_mode(check_query.value)
        # _id breaks ties: pages of an order by a field many items share could otherwise overlap
        order = orderby if orderby is not None or newest is None else f"{newest} desc,_id desc"
        query = Query(filter=filter, orderby=order, select=select, top=top, skip=skip, check_query=mode)
        checked(ctx, f"{noun}s", query)
        chosen = columns and check_paths(split([columns]), f"{noun}s", noun=noun, option="--columns")
        writer = open_writer(output, columns_for(select, default_columns, chosen or None), wide=wide)
        order_note = ", newest first" if order != orderby else ""
        if all:
            run(ctx, lambda client: _everything(resource(client), query, page_size, writer, f"{noun}s{order_note}"))
        else:
            run(ctx, lambda client: _page(resource(client), query, writer, noun, order_note))

    order_help = f" Newest first (by {newest}) unless --orderby says otherwise." if newest else ""
    list_command.__doc__ = f"List {noun}s: one page (--top, --skip), or all that match streamed (--all).{order_help}"
    app.command("list")(list_command)


async def _page(
    resource: JobsResource | PrintersResource, query: Query, writer: Writer, noun: str, order_note: str
) -> None:
    """One page; the caption says which of how many, and ``order_note`` (``, newest first``)."""
    with _warned_already():
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
        writer.note(f"{noun}s {found.skip + 1}-{found.next_skip} of {found.total}{order_note}")
    writer.close()


async def _everything(
    resource: JobsResource | PrintersResource, query: Query, page_size: int, writer: Writer, what: str
) -> None:
    """Every match, page by page: records on stdout as each page arrives, a progress bar on stderr."""
    with _warned_already():
        pager = resource.iterate(
            filter=query.filter,
            orderby=query.orderby,
            select=query.select,
            page_size=page_size,
            start=query.skip,
            check_query=query.check_query,
        )
    with progress() as bar:
        task = bar.add_task(what, total=None)
        async for found in pager.by_page():
            if found.total is not None:  # known from the first page on
                bar.update(task, total=max(found.total - query.skip, 0))
            for item in found:
                writer.write(item.to_dict())
            bar.advance(task, len(found))
    writer.close()


def checked(ctx: typer.Context, collection: str, query: Query) -> None:
    """Read ``--filter``, ``--orderby`` and ``--select`` with the server's grammar before anything else (no
    sign-in, no request): a refusal is one line and exit code 2, an unknown field one warning line."""
    from printmgmt.server import check_query

    with reporting_errors(ctx), warning_lines():
        check_query(collection, query.check_query, filter=query.filter, orderby=query.orderby, select=query.select)


@contextmanager
def _warned_already() -> Iterator[None]:
    """The SDK's own check of the same options finds the verdict :func:`checked` had (read once, cached);
    its warnings were shown as lines then."""
    from printmgmt.errors import UnknownFieldWarning

    with warnings.catch_warnings():
        warnings.simplefilter("ignore", UnknownFieldWarning)
        yield


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
