"""The async pager over ``$top``/``$skip`` (``printmgmt._sync.pager`` is generated from this file).

The server pages with OData ``$top``/``$skip``; there are no continuation tokens. Skip/top paging is only
stable under a stable order, so :class:`Pager` is always given an ``$orderby`` (``_id`` when the caller
gives none). Items added or removed while a pager runs may still be skipped or seen twice: that is a
property of offset paging, not of this module.

Once the first page has told the total, the pager fetches up to ``prefetch`` of the following pages
concurrently, so the server's latency is paid once for several pages; pages are still yielded in order and
at most ``prefetch + 1`` of them are held at a time.
"""

from __future__ import annotations

from collections import deque
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from functools import partial
from typing import Generic, Protocol, TypeVar

from .._concurrency import AsyncAhead, AsyncIterableOnly
from ..errors import PrintMgmtError
from ..pagination import Page, is_last, resume_note, same_items

__all__ = ["AsyncFetchPage", "Pager"]

T = TypeVar("T")


class AsyncFetchPage(Protocol[T]):
    """Fetches the page at ``skip`` of ``top`` items."""

    async def __call__(self, skip: int, top: int, /) -> Page[T]: ...


@dataclass(frozen=True, slots=True)
class Pager(AsyncIterableOnly, Generic[T]):
    """Iterates a whole collection page by page; ``async for`` yields items.

    Re-iterable: each ``async for`` starts again at ``start``. A page is the last one when the server's total
    says so (no extra request), when it is empty, or, when the server reports no total, when it is shorter
    than ``page_size``. With a total, up to ``prefetch`` next pages are fetched while the current one is
    consumed (``prefetch=0``: one request at a time).
    """

    fetch: AsyncFetchPage[T] = field(repr=False)
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
        # (skip, call) of pages requested ahead, in order; all share `size`
        ahead: deque[tuple[int, AsyncAhead[Page[T]]]] = deque()
        try:
            while True:
                try:
                    if ahead and ahead[0][0] == skip:
                        page = await ahead.popleft()[1].result()
                    else:
                        _cancel(ahead)
                        page = await self.fetch(skip, size)
                except PrintMgmtError as exc:
                    resume_note(exc, skip)
                    raise
                same_items(page, previous, skip)
                if is_last(page, size):
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

    def _request_ahead(self, ahead: deque[tuple[int, AsyncAhead[Page[T]]]], skip: int, size: int, total: int) -> None:
        after = ahead[-1][0] + size if ahead else skip
        while len(ahead) < self.prefetch and after < total:
            ahead.append((after, AsyncAhead(partial(self.fetch, after, size))))
            after += size

    async def to_list(self) -> list[T]:
        """Collect every item (for collections known to be small)."""
        return [item async for item in self]


def _cancel(ahead: deque[tuple[int, AsyncAhead[Page[T]]]]) -> None:
    while ahead:
        ahead.popleft()[1].cancel()
