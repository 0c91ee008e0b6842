"""Admission control: at most the pool's size of requests in flight, queued before their token is stamped."""

from __future__ import annotations

from .._concurrency import AsyncSemaphore

__all__ = ["Admission"]


class Admission:
    """Lets at most ``limit`` (the pool's size; ``None``: no limit) requests into httpx at once, first come first
    served, within the pool timeout. They queue here, before a token is put on them: in the pool a request could
    wait past its token's life, and httpcore wakes every waiter for each free connection."""

    def __init__(self, limit: int | None) -> None:
        self._semaphore = AsyncSemaphore(limit) if limit else None

    def __call__(self, pool_timeout: float | None) -> _Slot:
        """``async with admission(pool_timeout):`` holds one of the ``limit`` places."""
        return _Slot(self._semaphore, pool_timeout)


class _Slot:
    """A place held in an :class:`Admission` (a class, not a generator: this runs for every request)."""

    __slots__ = ("_held", "_semaphore", "_timeout")

    def __init__(self, semaphore: AsyncSemaphore | None, pool_timeout: float | None) -> None:
        self._semaphore = semaphore
        self._timeout = pool_timeout
        self._held: AsyncSemaphore | None = None

    async def __aenter__(self) -> None:
        if self._semaphore is not None:
            self._held = await self._semaphore.acquire(self._timeout)

    async def __aexit__(self, *exc_info: object) -> None:
        if self._held is not None:
            self._held.release()
