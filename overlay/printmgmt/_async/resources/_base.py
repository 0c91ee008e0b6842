"""What every resource namespace shares: actions, downloads and OData collections."""

from __future__ import annotations

import contextlib
import os
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import IO, Any, Generic, Protocol, TypeVar, Union, Unpack, overload

from printmgmt_api.models import ActionResult, InlineCount
from printmgmt_api.types import Request

from ..._call import NOT_GIVEN, CallOptions, NotGiven, Timeout
from ..._validate import non_negative, path_segment, positive
from ...bulk import BulkResult, OnOutcome
from ...odata import Expr, to_filter
from ...pagination import Page
from .._invoke import Invoker
from ..bulk import run_bulk
from ..pager import Pager

__all__ = ["BulkAction", "BulkMethod", "Collection", "Destination", "Resource"]

#: Where a download goes: a file path (written atomically) or an open binary file.
Destination = Union[str, "os.PathLike[str]", IO[bytes]]

Item = TypeVar("Item")

#: Pages requested ahead by ``iterate()``: enough to hide a server's latency, few enough to stay polite.
DEFAULT_PREFETCH = 4
T = TypeVar("T")


class Resource:
    """Base of the namespaces on :class:`~printmgmt.PrintClient` (``client.jobs``, ``client.printers``...)."""

    #: How a path key of this resource is named in argument errors and in API errors ("job" -> job 'abc').
    _noun = "resource"
    _key_name = "id"

    def __init__(self, invoker: Invoker) -> None:
        self._invoker = invoker

    def _key(self, key: str) -> tuple[str, str]:
        """The validated path key and the error target it names (``job 'abc'``)."""
        return path_segment(key, f"{self._noun} {self._key_name}"), f"{self._noun} {key!r}"

    async def _many(
        self,
        action: AsyncKeyedAction,
        keys: Iterable[str],
        *,
        concurrency: int,
        on_outcome: OnOutcome | None,
        timeout: Timeout | NotGiven,
    ) -> BulkResult:
        """Run a keyed action for every key (see :mod:`printmgmt.bulk`); every key is checked before any request."""
        if isinstance(keys, str | bytes):
            raise TypeError(f"expected several {self._noun} {self._key_name}s (a list), not one {type(keys).__name__}")
        checked = [self._key(key)[0] for key in keys]
        return await run_bulk(
            checked, lambda key: action(key, timeout=timeout), concurrency=concurrency, on_outcome=on_outcome
        )

    async def _read(self, build: Callable[..., Request[T]], key: str, options: CallOptions, **kwargs: Any) -> T:
        """Send the keyed request ``build(key, **kwargs)`` and return its parsed body."""
        path, target = self._key(key)
        return await self._invoker.invoke(build(path, **kwargs), target=target, **options)

    async def _act_on(
        self, build: Callable[..., Request[Any]], key: str, options: CallOptions, **kwargs: Any
    ) -> ActionResult:
        """Run a keyed action (pause, resume...)."""
        path, target = self._key(key)
        return await self._act(build(path, **kwargs), options, target=target)

    async def _act(self, request: Request[Any], options: CallOptions, *, target: str | None = None) -> ActionResult:
        """Run an action. Its 2xx answer is read leniently (declared ``answer: action``): the action happened, so an
        empty body gives an empty :class:`ActionResult`, text its ``message``, another JSON value its ``["value"]``.
        """
        result: ActionResult = await self._invoker.invoke(request, target=target, **options)
        return result

    async def _download(
        self, build: Callable[[str], Request[Any]], key: str, options: CallOptions, *, to: Destination
    ) -> int:
        """Stream a download to ``to``; a path is written as ``<path>.part`` and renamed when complete."""
        path, target = self._key(key)
        request = build(path)
        if not isinstance(to, str | os.PathLike):
            return await self._invoker.download(request, sink=to, target=target, **options)
        final = os.fspath(to)
        partial = f"{final}.part"
        try:
            # local file writes are short; a thread hop per chunk would cost more than it saves
            with open(partial, "wb") as sink:  # noqa: ASYNC230
                written = await self._invoker.download(request, sink=sink, target=target, **options)
            os.replace(partial, final)
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
    ) -> BulkResult: ...


class BulkAction:
    """Declares ``<action>_many`` on a resource: the keyed ``action`` over many keys (see :mod:`printmgmt.bulk`).

    Bounded concurrency (``concurrency``, default 8), one :class:`~printmgmt.bulk.Outcome` per key in the
    order given, never stopped by one failure; every key is checked before any request is sent.
    """

    def __init__(self, action: str) -> None:
        self.action = action
        self.__doc__ = f"{action.capitalize()} each of ``keys``; returns a BulkResult with one Outcome per key."

    @overload
    def __get__(self, resource: None, owner: type[Resource]) -> BulkAction: ...
    @overload
    def __get__(self, resource: Resource, owner: type[Resource]) -> BulkMethod: ...
    def __get__(self, resource: Resource | None, owner: type[Resource]) -> BulkAction | BulkMethod:
        if resource is None:
            return self
        action: AsyncKeyedAction = getattr(resource, self.action)

        async def many(
            keys: Iterable[str],
            *,
            concurrency: int = 8,
            on_outcome: OnOutcome | None = None,
            timeout: Timeout | NotGiven = NOT_GIVEN,
        ) -> BulkResult:
            return await resource._many(action, keys, concurrency=concurrency, on_outcome=on_outcome, timeout=timeout)

        many.__doc__ = self.__doc__
        return many


class Collection(Resource, Generic[Item]):
    """A resource listed with OData query options (jobs, printers)."""

    @staticmethod
    def _list_request(**params: Any) -> Request[Any]:
        """The generated list request (a collection's own, imported when first used)."""
        raise NotImplementedError

    @staticmethod
    def _item() -> type[Item]:
        """The model of an item, decoded on access (:mod:`printmgmt._lazy`; imported when first used)."""
        raise NotImplementedError

    #: Order used by iterate() when the caller gives none: skip/top paging needs a stable order.
    _stable_order = "_id"

    async def list(
        self,
        *,
        filter: Expr | str | None = None,
        orderby: str | None = None,
        select: str | Sequence[str] | None = None,
        top: int | None = None,
        skip: int | None = None,
        count: bool = False,
        **options: Unpack[CallOptions],
    ) -> Page[Item]:
        """One page of the collection.

        ``filter`` is an :mod:`printmgmt.odata` expression or a raw ``$filter`` string; ``select`` a
        ``$select`` string or a list of field paths (``["_id", "status", "current/printerName"]``);
        ``count=True`` asks the server for the total (``$inlinecount=allpages``), reported as ``Page.total``.
        ``options``: ``timeout``, ``deadline``, ``extra_query``, ``extra_headers`` (see
        :class:`~printmgmt.CallOptions`).
        """
        kwargs: dict[str, Any] = {}
        if (text := to_filter(filter)) is not None:
            kwargs["filter_"] = text
        if orderby is not None:
            kwargs["orderby"] = _text(orderby, "orderby")
        if select is not None:
            kwargs["select"] = _fields(select)
        if top is not None:
            kwargs["top"] = non_negative(top, "top")
        if skip is not None:
            kwargs["skip"] = non_negative(skip, "skip")
        if count:
            kwargs["inlinecount"] = InlineCount.ALLPAGES
        items, total = await self._invoker.invoke_page(self._list_request(**kwargs), self._item(), **options)
        return Page(items=items, total=total, skip=skip or 0, top=top)

    def iterate(
        self,
        *,
        filter: Expr | str | None = None,
        orderby: str | None = None,
        select: str | Sequence[str] | None = None,
        page_size: int = 100,
        start: int = 0,
        prefetch: int = DEFAULT_PREFETCH,
        **options: Unpack[CallOptions],
    ) -> Pager[Item]:
        """Every item matching ``filter``, fetched ``page_size`` at a time: ``async for item in ...``.

        Orders by ``_id`` unless ``orderby`` is given. ``start`` is the ``$skip`` of the first page (to
        resume an interrupted iteration). Once the server has told the total, up to ``prefetch`` following
        pages are requested concurrently (``0``: one request at a time); items still come in order.
        """
        positive(page_size, "page_size")
        non_negative(start, "start")
        non_negative(prefetch, "prefetch")
        text = to_filter(filter)
        order = orderby if orderby is not None else self._stable_order

        async def fetch(skip: int, top: int) -> Page[Item]:
            return await self.list(filter=text, orderby=order, select=select, top=top, skip=skip, count=True, **options)

        return Pager(fetch=fetch, page_size=page_size, start=start, prefetch=prefetch)


def query_params(query: Mapping[str, object]) -> dict[str, str]:
    """Free query parameters for operations whose parameters the interface does not show."""
    params: dict[str, str] = {}
    for key, value in query.items():
        if isinstance(value, bool):
            params[key] = "true" if value else "false"
        elif isinstance(value, str | int | float):
            params[key] = str(value)
        else:
            raise TypeError(f"query parameter {key!r} must be a str, int, float or bool, not {type(value).__name__}")
    return params


def _text(value: object, name: str) -> str:
    if not isinstance(value, str):
        raise TypeError(f"{name} must be a str, not {type(value).__name__}")
    return value


def _fields(select: str | Sequence[str]) -> str:
    """``$select`` from a string as given, or from a list of field paths joined with commas."""
    if isinstance(select, str):
        return select
    if not isinstance(select, Sequence) or not all(isinstance(field, str) and field for field in select):
        raise TypeError(f"select must be a str or a list of field names, not {select!r}")
    if any("," in field for field in select):
        raise ValueError(f"a field name in select holds a comma: {select!r}")
    return ",".join(select)
