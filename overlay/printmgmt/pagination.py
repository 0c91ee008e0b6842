"""Pages of a collection, and the rules every pager over ``$top``/``$skip`` follows: what both clients share; the
pagers themselves, which have a generated sync twin, are ``printmgmt._async.pager`` (offset paging, prefetch)."""

from __future__ import annotations

from collections.abc import Callable, Hashable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any, Generic, TypeVar, overload

from ._model_runtime import models_html
from .errors import PagingError, PrintMgmtError

__all__ = ["Page", "fresh_items", "is_last", "item_id", "resume_note"]

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
        return None if self.total is None else self.next_skip < self.total

    def __repr__(self) -> str:
        return f"Page(items=<{len(self.items)} items>, total={self.total}, skip={self.skip}, top={self.top})"

    def _repr_html_(self) -> str:
        """Jupyter: one row per item with its key, status, printer and times, the documents one click away."""
        of = f" of {self.total}" if self.total is not None else ""
        first = self.skip + 1 if self.items else self.skip
        return models_html(self.items, f"Page: items {first}\u2013{self.next_skip}{of}")

    def to_pandas(self) -> Any:
        """The items as a pandas ``DataFrame``, one row each (:func:`printmgmt.tables.to_pandas`; needs the extra
        ``printmgmt[pandas]``, else raises ``ImportError`` saying so)."""
        from .tables import to_pandas

        return to_pandas(self)


def resume_note(exc: PrintMgmtError, skip: int) -> None:
    """Say on a failure where a new iteration can resume."""
    exc.resume_skip = skip
    exc.add_note(f"iteration stopped at skip={skip}; resume with iterate(..., start={skip})")


def item_id(item: Any) -> Hashable:
    """An item's key: its ``id`` (``_id`` on the wire)."""
    key: Hashable = item.id
    return key


def fresh_items(
    page: Page[T], previous: frozenset[Hashable], key: Callable[[T], Hashable]
) -> tuple[list[T], frozenset[Hashable]]:
    """The items of ``page`` the page before it (keys ``previous``) did not hold, and this page's keys: items that
    arrive ahead of the position shift offsets, so a page may start with items already yielded. No new item at
    all means the server ignores ``$skip``: :class:`~printmgmt.errors.PagingError`."""
    keys = [key(item) for item in page.items]
    if not previous:
        return page.items, frozenset(keys)
    fresh = [item for item, k in zip(page.items, keys, strict=True) if k not in previous]
    if page.items and not fresh:
        raise PagingError(
            f"the server answered skip={page.skip} with no item the page before did not hold: it does not page "
            "(a server or a proxy that ignores $skip?); the items would repeat without end",
            skip=page.skip,
        )
    return fresh, frozenset(keys)


def is_last(page: Page[T], page_size: int, *, confirm_short_pages: bool = True) -> bool:
    """Whether nothing follows ``page``: its total says so, or it is empty, or (``confirm_short_pages`` off) it is
    short; a server may cap pages below the size asked for, so the pager otherwise asks once more."""
    if not page.items:
        return True
    if page.total is not None:
        return page.next_skip >= page.total
    return not confirm_short_pages and len(page.items) < page_size
