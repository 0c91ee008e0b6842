"""Pages of a collection, and the rules every pager over ``$top``/``$skip`` follows (the pagers themselves:
``printmgmt._async.pager`` and its generated sync twin, where offset paging and prefetch are explained)."""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar, overload

from .errors import PrintMgmtError

__all__ = ["Page", "is_last", "resume_note", "same_items"]

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


def resume_note(exc: PrintMgmtError, skip: int) -> None:
    """Say on a failure where a new iteration can resume."""
    exc.resume_skip = skip
    exc.add_note(f"iteration stopped at skip={skip}; resume with iterate(..., start={skip})")


def same_items(page: Page[Any], previous: list[Any] | None, skip: int) -> None:
    """Without a total, a server that ignores ``$skip`` would make a pager loop forever: refuse it."""
    if page.total is None and previous is not None and page.items == previous:
        raise PrintMgmtError(
            f"the server answered skip={skip} with the same items as the page before: it does not page"
        )


def is_last(page: Page[T], page_size: int) -> bool:
    if not page.items:
        return True
    if page.total is not None:
        # trust the total over the page length: a server may cap pages below the size asked for
        return page.next_skip >= page.total
    return len(page.items) < page_size
