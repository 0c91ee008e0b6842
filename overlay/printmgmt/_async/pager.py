"""The async pager over ``$top``/``$skip`` (docs/paging.md); the rules both clients share are in ``pagination``."""

from __future__ import annotations

import dataclasses
from collections import deque
from collections.abc import AsyncIterator, Callable, Hashable
from dataclasses import dataclass, field
from functools import partial
from typing import Generic, Protocol, TypeVar

from .._concurrency import AsyncAhead, AsyncIterableOnly
from .._progress import progress_bar, set_total
from ..errors import PrintMgmtError
from ..pagination import Page, fresh_items, is_last, item_id, resume_note

__all__ = ["AsyncFetchPage", "Pager"]

T = TypeVar("T")


class AsyncFetchPage(Protocol[T]):
    """Fetches the page at ``skip`` of ``top`` items."""

    async def __call__(self, skip: int, top: int, /) -> Page[T]: ...


@dataclass(frozen=True, slots=True)
class Pager(AsyncIterableOnly, Generic[T]):
    """Iterates a whole collection page by page; ``async for`` yields items.

    Re-iterable: each ``async for`` starts again at ``start``. A page is the last one when the server's total
    says so (no extra request) or when it is empty. Without a total, a page shorter than ``page_size`` is
    confirmed as the last by one more request, which must come back empty (a server may cap its pages below
    the size asked for); ``confirm_short_pages=False`` takes a short page as the last without it. With a
    total, up to ``prefetch`` next pages are fetched while the current one is consumed (``prefetch=0``: one
    request at a time). ``key`` names an item (its ``id``), to drop items a shifted page repeats.
    """

    fetch: AsyncFetchPage[T] = field(repr=False)
    page_size: int
    start: int = 0
    prefetch: int = 0
    key: Callable[[T], Hashable] = field(default=item_id, repr=False)
    confirm_short_pages: bool = True
    #: Show a progress display (tqdm, the extra ``printmgmt[progress]``) while iterating item by item.
    progress: bool = False

    async def __aiter__(self) -> AsyncIterator[T]:
        bar = progress_bar(self.progress, total=None, desc="items", unit="item")
        try:
            async for page in self.by_page():
                if page.total is not None:
                    set_total(bar, page.total - self.start)
                for item in page.items:
                    yield item
                bar.update(len(page.items))
        finally:
            bar.close()

    async def by_page(self) -> AsyncIterator[Page[T]]:
        """Yield whole pages instead of items. When fetching a page fails, the error gets ``resume_skip``: pass it
        as ``start=`` to a new ``iterate()`` to continue with the first item not yet yielded."""
        skip, size = self.start, self.page_size
        previous: frozenset[Hashable] = frozenset()
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
                    fresh, previous = fresh_items(page, previous, self.key)
                except PrintMgmtError as exc:
                    resume_note(exc, skip)
                    raise
                shown = page if len(fresh) == len(page.items) else dataclasses.replace(page, items=fresh)
                if is_last(page, size, confirm_short_pages=self.confirm_short_pages):
                    if fresh:
                        yield shown
                    return
                if page.total is not None and len(page.items) < size:
                    # the server caps pages below what was asked: what was requested ahead would leave gaps
                    _cancel(ahead)
                    size = len(page.items)
                skip = page.next_skip
                if page.total is not None:
                    after = ahead[-1][0] + size if ahead else skip
                    while len(ahead) < self.prefetch and after < page.total:
                        ahead.append((after, AsyncAhead(partial(self.fetch, after, size))))
                        after += size
                yield shown
        finally:
            _cancel(ahead)

    async def to_list(self) -> list[T]:
        """Collect every item (for collections known to be small)."""
        return [item async for item in self]


def _cancel(ahead: deque[tuple[int, AsyncAhead[Page[T]]]]) -> None:
    while ahead:
        ahead.popleft()[1].cancel()
