"""Pages of a collection and an async pager over ``$top``/``$skip``.

The server pages with OData ``$top``/``$skip``; there are no continuation tokens. Skip/top paging is only
stable under a stable order, so :meth:`Pager` is always given an ``$orderby`` (``_id`` when the caller
gives none). Items added or removed while a pager runs may still be skipped or seen twice: that is a
property of offset paging, not of this module.

Once the first page has told the total, the pager fetches up to ``prefetch`` of the following pages
concurrently, so the server's latency is paid once for several pages; pages are still yielded in order and
at most ``prefetch + 1`` of them are held at a time.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections import deque
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, Generic, TypeVar, overload

from .errors import PrintMgmtError

__all__ = ["Page", "Pager"]

T = TypeVar("T")


@dataclass(frozen=True, slots=True)
class Page(Generic[T]):
    """One page of a list operation.

    ``total`` is the size of the whole filtered collection when the server reported it
    (``count=True``), else ``None``. ``skip`` and ``top`` are what was asked for.
    """

    items: list[T]
    total: int | None = None
    skip: int = 0
    top: int | None = None

    def __iter__(self) -> Iterator[T]:
        return iter(self.items)

    def __len__(self) -> int:
        return len(self.items)

    @overload
    def __getitem__(self, index: int) -> T: ...
    @overload
    def __getitem__(self, index: slice) -> Sequence[T]: ...
    def __getitem__(self, index: int | slice) -> T | Sequence[T]:
        return self.items[index]

    @property
    def next_skip(self) -> int:
        """The ``skip`` of the page after this one."""
        return self.skip + len(self.items)

    @property
    def has_more(self) -> bool | None:
        """Whether items follow this page: known only when ``total`` is."""
        if self.total is None:
            return None
        return self.next_skip < self.total

    def __repr__(self) -> str:
        return f"Page(items=<{len(self.items)} items>, total={self.total}, skip={self.skip}, top={self.top})"

    def to_pandas(self) -> Any:
        """The items as a pandas ``DataFrame``, one row each (see :func:`printmgmt.tables.to_pandas`).

        Needs the extra ``printmgmt[pandas]``; raises ``ImportError`` saying so without it.
        """
        from .tables import to_pandas

        return to_pandas(self)


FetchPage = Callable[[int, int], Awaitable[Page[T]]]


@dataclass(frozen=True, slots=True)
class Pager(Generic[T]):
    """Iterates a whole collection page by page; ``async for`` yields items.

    Re-iterable: each ``async for`` starts again at ``start``. A page is the last one when the server's total
    says so (no extra request), when it is empty, or, when the server reports no total, when it is shorter
    than ``page_size``. With a total, up to ``prefetch`` next pages are fetched while the current one is
    consumed (``prefetch=0``: one request at a time).
    """

    fetch: FetchPage[T] = field(repr=False)
    page_size: int
    start: int = 0
    prefetch: int = 0

    def __aiter__(self) -> AsyncIterator[T]:
        return self._items()

    async def _items(self) -> AsyncIterator[T]:
        async for page in self.by_page():
            for item in page.items:
                yield item

    async def by_page(self) -> AsyncIterator[Page[T]]:
        """Yield whole pages instead of items.

        When fetching a page fails, the error gets ``resume_skip``: pass it as ``start=`` to a new
        ``iterate()`` to continue with the first item not yet yielded.
        """
        skip, size = self.start, self.page_size
        previous: list[T] | None = None
        # (skip, task) of pages requested ahead, in order; all share `size`
        ahead: deque[tuple[int, asyncio.Task[Page[T]]]] = deque()
        try:
            while True:
                if ahead and ahead[0][0] == skip:
                    page = await _resumable(ahead.popleft()[1], skip)
                else:
                    _cancel(ahead)
                    page = await _resumable(self.fetch(skip, size), skip)
                if page.total is None and previous is not None and page.items == previous:
                    # without a total, a server that ignores $skip would make this loop forever
                    raise PrintMgmtError(
                        f"the server answered skip={skip} with the same items as the page before: it does not page"
                    )
                if _is_last(page, size):
                    if page.items:
                        yield page
                    return
                if page.total is not None and len(page.items) < size:
                    # the server caps pages below what was asked: what was requested ahead would leave gaps
                    _cancel(ahead)
                    size = len(page.items)
                previous, skip = page.items, page.next_skip
                if page.total is not None:
                    self._request_ahead(ahead, skip, size, page.total)
                yield page
        finally:
            _cancel(ahead)

    def _request_ahead(self, ahead: deque[tuple[int, asyncio.Task[Page[T]]]], skip: int, size: int, total: int) -> None:
        after = ahead[-1][0] + size if ahead else skip
        while len(ahead) < self.prefetch and after < total:
            ahead.append((after, asyncio.ensure_future(self.fetch(after, size))))
            after += size

    async def to_list(self) -> list[T]:
        """Collect every item (for collections known to be small)."""
        return [item async for item in self]


async def _resumable(fetching: Awaitable[Page[T]], skip: int) -> Page[T]:
    """Await a page; a failure says where to resume."""
    try:
        return await fetching
    except PrintMgmtError as exc:
        exc.resume_skip = skip
        exc.add_note(f"iteration stopped at skip={skip}; resume with iterate(..., start={skip})")
        raise


def _cancel(ahead: deque[tuple[int, asyncio.Task[Page[T]]]]) -> None:
    while ahead:
        task = ahead.popleft()[1]
        task.cancel()
        # a page fetched ahead that failed is never awaited: mark its exception retrieved
        task.add_done_callback(_swallow)


def _swallow(task: asyncio.Task[object]) -> None:
    with contextlib.suppress(asyncio.CancelledError, Exception):
        task.result()


def _is_last(page: Page[T], page_size: int) -> bool:
    if not page.items:
        return True
    if page.total is not None:
        # trust the total over the page length: a server may cap pages below the size asked for
        return page.next_skip >= page.total
    return len(page.items) < page_size
