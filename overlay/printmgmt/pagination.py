"""Pages of a collection and an async pager over ``$top``/``$skip``.

The server pages with OData ``$top``/``$skip``; there are no continuation tokens. Skip/top paging is only
stable under a stable order, so :meth:`Pager` is always given an ``$orderby`` (``_id`` when the caller
gives none). Items added or removed while a pager runs may still be skipped or seen twice: that is a
property of offset paging, not of this module.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Generic, TypeVar, overload

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


FetchPage = Callable[[int, int], Awaitable[Page[T]]]


@dataclass(frozen=True, slots=True)
class Pager(Generic[T]):
    """Iterates a whole collection page by page; ``async for`` yields items.

    Re-iterable: each ``async for`` starts again at ``start``. At most one page is held in memory. A page is
    the last one when the server's total says so (no extra request), when it is empty, or, when the server
    reports no total, when it is shorter than ``page_size``.
    """

    fetch: FetchPage[T] = field(repr=False)
    page_size: int
    start: int = 0

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
        skip = self.start
        previous: list[T] | None = None
        while True:
            try:
                page = await self.fetch(skip, self.page_size)
            except PrintMgmtError as exc:
                exc.resume_skip = skip
                exc.add_note(f"iteration stopped at skip={skip}; resume with iterate(..., start={skip})")
                raise
            if page.total is None and previous is not None and page.items == previous:
                # without a total, a server that ignores $skip would make this loop forever
                raise PrintMgmtError(
                    f"the server answered skip={skip} with the same items as the page before: it does not page"
                )
            if page.items:
                yield page
            if _is_last(page, self.page_size):
                return
            previous = page.items
            skip = page.next_skip

    async def to_list(self) -> list[T]:
        """Collect every item (for collections known to be small)."""
        return [item async for item in self]


def _is_last(page: Page[T], page_size: int) -> bool:
    if not page.items:
        return True
    if page.total is not None:
        # trust the total over the page length: a server may cap pages below the size asked for
        return page.next_skip >= page.total
    return len(page.items) < page_size
