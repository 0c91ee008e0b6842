"""What every resource namespace shares: actions, downloads and OData collections."""

from __future__ import annotations

import contextlib
import functools
import os
import re
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import IO, Any, Generic, Protocol, TypeVar, Union, Unpack, overload

from printmgmt_api.models import ActionResult, InlineCount
from printmgmt_api.operations import BY_MODULE, BY_NAME, OperationSpec, Request

from ..._call import NOT_GIVEN, CallOptions, NotGiven, Timeout
from ..._progress import progress_bar
from ..._validate import non_negative, path_segment, positive
from ...bulk import BulkResult, OnOutcome, Outcome
from ...errors import Target
from ...odata import Expr, to_filter
from ...pagination import Page
from ...server import CheckQuery, check_mode, check_query
from .._invoke import Invoker
from ..bulk import run_bulk
from ..pager import Pager

__all__ = ["BulkAction", "BulkMethod", "Collection", "Destination", "Resource"]

#: Where a download goes: a file path (written atomically) or an open binary file.
Destination = Union[str, "os.PathLike[str]", IO[bytes]]

Item = TypeVar("Item")
T = TypeVar("T")


def spec_of(build: Callable[..., Request[Any]]) -> OperationSpec:
    """The declaration of the operation a generated module's ``request`` builds."""
    return BY_MODULE[build.__module__.removeprefix("printmgmt_api.api.")]


def key_name(spec: OperationSpec) -> str:
    """How the path key of ``spec``'s target is called (``job`` and ``{id}``: ``job id``)."""
    assert spec.target is not None and spec.key is not None, f"{spec.id} declares no target"
    words = re.sub(r"(?<!^)(?=[A-Z])", " ", spec.key).lower()
    return words if words.startswith(spec.target) else f"{spec.target} {words}"


def key_of(spec: OperationSpec, key: object) -> tuple[str, Target]:
    """``key`` checked as the path key of ``spec``'s target, and the target it names (``job 'abc'``)."""
    segment = path_segment(key, key_name(spec))
    assert spec.target is not None
    return segment, Target(spec.target, segment)


class Resource:
    """Base of the namespaces on :class:`~printmgmt.PrintClient` (``client.jobs``, ``client.printers``...)."""

    def __init__(self, invoker: Invoker) -> None:
        self._invoker = invoker

    async def _many(
        self,
        action: AsyncKeyedAction,
        spec: OperationSpec,
        keys: Iterable[str],
        *,
        concurrency: int = 8,
        on_outcome: OnOutcome | None = None,
        timeout: Timeout | NotGiven = NOT_GIVEN,
        progress: bool = False,
    ) -> BulkResult:
        """Run a keyed action for every key (see :mod:`printmgmt.bulk`); every key is checked before any request."""
        if isinstance(keys, str | bytes):
            raise TypeError(f"expected several {key_name(spec)}s (a list), not one {type(keys).__name__}")
        checked = [key_of(spec, key)[0] for key in keys]
        desc = getattr(action, "__name__", "action")
        bar = progress_bar(progress, total=len(checked), desc=desc, unit=spec.target or "item")

        def report(outcome: Outcome) -> None:
            bar.update(1)
            if on_outcome is not None:
                on_outcome(outcome)

        try:
            return await run_bulk(
                checked, lambda key: action(key, timeout=timeout), concurrency=concurrency, on_outcome=report
            )
        finally:
            bar.close()

    async def _read(self, build: Callable[..., Request[T]], key: str, options: CallOptions, **kwargs: Any) -> T:
        """Send the keyed request ``build(key, **kwargs)`` and return its parsed body (an action's read leniently)."""
        path, target = key_of(spec_of(build), key)
        return await self._invoker.invoke(build(path, **kwargs), target=target, **options)

    async def _download(
        self, build: Callable[[str], Request[Any]], key: str, options: CallOptions, *, to: Destination
    ) -> int:
        """Stream a download to ``to``; a path is written as ``<path>.part`` and renamed when complete."""
        path, target = key_of(spec_of(build), key)
        request = build(path)
        if not isinstance(to, str | os.PathLike):
            return await self._invoker.download(request, sink=to, target=target, **options)
        partial = f"{os.fspath(to)}.part"
        try:
            # local file writes are short; a thread hop per chunk would cost more than it saves
            with open(partial, "wb") as sink:  # noqa: ASYNC230
                written = await self._invoker.download(request, sink=sink, target=target, **options)
            os.replace(partial, to)
        except BaseException:
            with contextlib.suppress(OSError):
                os.remove(partial)
            raise
        return written


class AsyncKeyedAction(Protocol):
    """A resource's action on one key (``jobs.pause``)."""

    async def __call__(self, key: str, /, *, timeout: Timeout | NotGiven = NOT_GIVEN) -> ActionResult: ...


class BulkMethod(Protocol):
    """``resource.<action>_many(keys, concurrency=8, on_outcome=None, timeout=NOT_GIVEN)``."""

    async def __call__(
        self,
        keys: Iterable[str],
        *,
        concurrency: int = 8,
        on_outcome: OnOutcome | None = None,
        timeout: Timeout | NotGiven = NOT_GIVEN,
        progress: bool = False,
    ) -> BulkResult: ...


class BulkAction:
    """Declares ``<action>_many`` on a resource: the keyed ``action`` over many keys (see :mod:`printmgmt.bulk`).

    Bounded concurrency (``concurrency``, default 8), one :class:`~printmgmt.bulk.Outcome` per key in the
    order given, never stopped by one failure; every key is checked before any request is sent.
    """

    def __init__(self, name: str) -> None:
        """``name``: the keyed action's client method as the spec declares it (``jobs.pause``)."""
        self.spec = BY_NAME[name]
        self.action = name.rpartition(".")[2]
        self.__doc__ = (
            f"{self.action.capitalize()} each of ``keys``; returns a BulkResult with one Outcome per key "
            "(``progress=True``: a progress display, the extra ``printmgmt[progress]``)."
        )

    @overload
    def __get__(self, resource: None, owner: type[Resource]) -> BulkAction: ...
    @overload
    def __get__(self, resource: Resource, owner: type[Resource]) -> BulkMethod: ...
    def __get__(self, resource: Resource | None, owner: type[Resource]) -> BulkAction | BulkMethod:
        if resource is None:
            return self
        action: AsyncKeyedAction = getattr(resource, self.action)
        many = functools.partial(resource._many, action, self.spec)
        many.__doc__ = self.__doc__
        return many


class Collection(Resource, Generic[Item]):
    """A resource listed with OData query options (jobs, printers); ``check_query`` is the client's mode of
    reading raw options before sending (:func:`printmgmt.server.check_query`)."""

    def __init__(self, invoker: Invoker, check_query: CheckQuery = "strict") -> None:
        super().__init__(invoker)
        self._check_query = check_mode(check_query)

    #: The generated builder of the collection's list request.
    _list_request: Callable[..., Request[Any]]
    #: The model of an item, decoded on access (:mod:`printmgmt._lazy`).
    _item: type[Item]

    async def list(
        self,
        *,
        filter: Expr | str | None = None,
        orderby: str | None = None,
        select: str | Sequence[str] | None = None,
        top: int | None = None,
        skip: int | None = None,
        count: bool = False,
        check_query: CheckQuery | None = None,
        **options: Unpack[CallOptions],
    ) -> Page[Item]:
        """One page of the collection.

        ``filter`` is an :mod:`printmgmt.odata` expression or a raw ``$filter`` string; ``select`` a
        ``$select`` string or a list of field paths; ``count=True`` asks for the total (``Page.total``), and
        ``top=0, count=True`` only counts (sent as ``$top=1``: to the server's database 0 means no limit).
        Raw strings are read with the server's grammar first: :class:`~printmgmt.errors.InvalidQuery` for what
        it would refuse or (``check_query="strict"``, the default) read otherwise than OData; ``"syntax"``
        refuses only the former, ``"off"`` nothing. ``options``: see :class:`~printmgmt.CallOptions`.
        """
        query = _query(filter, orderby, select)
        self._check(check_query, filter, query)
        return await self._page(query, top=top, skip=skip, count=count, options=options)

    def iterate(
        self,
        *,
        filter: Expr | str | None = None,
        orderby: str | None = None,
        select: str | Sequence[str] | None = None,
        page_size: int = 100,
        start: int = 0,
        prefetch: int = 4,  # enough to hide a server's latency, few enough to stay polite
        confirm_short_pages: bool = True,
        check_query: CheckQuery | None = None,
        progress: bool = False,
        **options: Unpack[CallOptions],
    ) -> Pager[Item]:
        """Every item matching ``filter``, fetched ``page_size`` at a time: ``async for item in ...``.

        Orders by ``_id`` unless ``orderby`` is given; ``start`` is the first page's ``$skip`` (to resume).
        Once the total is known, up to ``prefetch`` pages are requested ahead; items still come in order. No item
        is lost or repeated silently: without a total a short page is confirmed as the last by one more request
        (``confirm_short_pages=False`` saves it); a page with nothing new raises
        :class:`~printmgmt.errors.PagingError`. ``progress=True`` shows a progress display. Raw strings are
        checked before the first request, as :meth:`list` does.
        """
        positive(page_size, "page_size")
        non_negative(start, "start")
        non_negative(prefetch, "prefetch")
        query = _query(filter, orderby, select)
        self._check(check_query, filter, query)
        ordered = {"orderby": "_id", **query}  # skip/top paging needs a stable order

        async def fetch(skip: int, top: int) -> Page[Item]:
            return await self._page(ordered, top=top, skip=skip, count=True, options=options)

        return Pager(
            fetch=fetch,
            page_size=page_size,
            start=start,
            prefetch=prefetch,
            confirm_short_pages=confirm_short_pages,
            progress=progress,
        )

    async def _page(
        self, query: dict[str, str], *, top: int | None, skip: int | None, count: bool, options: CallOptions
    ) -> Page[Item]:
        """One page for options already read (``query``: the generated builder's keywords)."""
        kwargs: dict[str, Any] = dict(query)
        if top is not None:
            kwargs["top"] = non_negative(top, "top") or 1
        if skip is not None:
            kwargs["skip"] = non_negative(skip, "skip")
        if count:
            kwargs["inlinecount"] = InlineCount.ALLPAGES
        items, total = await self._invoker.invoke_page(self._list_request(**kwargs), self._item, **options)
        if top == 0:
            items = items[:0]
        return Page(items=items, total=total, skip=skip or 0, top=top)

    def _check(self, mode: CheckQuery | None, filter: Expr | str | None, query: dict[str, str]) -> None:
        """Read the raw options with the server's grammar; warnings point at the caller of ``list``/``iterate``."""
        collection = type(self).__name__.removesuffix("Resource").lower()
        check_query(
            collection,
            self._check_query if mode is None else mode,
            # the builder's own output is not read again
            filter=query.get("filter_") if isinstance(filter, str) else None,
            orderby=query.get("orderby"),
            select=query.get("select"),
            stacklevel=3,
        )


def _query(filter: Expr | str | None, orderby: str | None, select: str | Sequence[str] | None) -> dict[str, str]:
    """The query options to send, as the generated builder's keywords (an empty one is none to the server)."""
    if orderby is not None and not isinstance(orderby, str):
        raise TypeError(f"orderby must be a str, not {type(orderby).__name__}")
    given = {"filter_": to_filter(filter), "orderby": orderby, "select": None if select is None else _fields(select)}
    return {key: value for key, value in given.items() if value}


def query_params(query: Mapping[str, object]) -> dict[str, str]:
    """Free query parameters for operations whose parameters the interface does not show."""
    for key, value in query.items():
        if not isinstance(value, str | int | float):  # bool is an int
            raise TypeError(f"query parameter {key!r} must be a str, int, float or bool, not {type(value).__name__}")
    return {key: str(value).lower() if isinstance(value, bool) else str(value) for key, value in query.items()}


def _fields(select: str | Sequence[str]) -> str:
    """``$select`` from a string as given, or from a list of field paths joined with commas."""
    if isinstance(select, str):
        return select
    if not isinstance(select, Sequence) or not all(isinstance(field, str) and field for field in select):
        raise TypeError(f"select must be a str or a list of field names, not {select!r}")
    if any("," in field for field in select):
        raise ValueError(f"a field name in select holds a comma: {select!r}")
    return ",".join(select)
