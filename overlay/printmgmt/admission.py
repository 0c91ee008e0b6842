"""Admission control: at most the pool's size of requests in flight, queued before their token is stamped."""

from __future__ import annotations

import asyncio

import httpx

from ._per_loop import PerLoop

__all__ = ["Admission"]


class Admission:
    """Lets at most ``limit`` requests into httpx at once, first come first served (``None``: no limit).

    ``limit`` is the pool's ``max_connections``, so requests queue here, before the auth flow puts a token
    on them, rather than in httpcore's pool after it. There a request could wait longer than its token had
    left (then get 401, and its one retry could expire the same way), and waits are unfair: httpcore wakes
    every waiter for each free connection. The pool timeout applies to the wait here (``httpx.PoolTimeout``).
    One semaphore per event loop, as notebooks and scripts may run several loops over one client.
    """

    def __init__(self, limit: int | None) -> None:
        self.limit = limit
        self._semaphores = PerLoop(lambda: asyncio.Semaphore(limit or 1))

    def __call__(self, pool_timeout: float | None) -> _Slot:
        """``async with admission(pool_timeout):`` holds one of the ``limit`` places."""
        return _Slot(self, pool_timeout)

    async def _acquire(self, pool_timeout: float | None) -> asyncio.Semaphore | None:
        if self.limit is None:
            return None
        semaphore = self._semaphores.get()
        if not semaphore.locked():  # a free place, nobody waiting: taken at once, no timer needed
            await semaphore.acquire()
            return semaphore
        try:
            async with asyncio.timeout(pool_timeout):
                await semaphore.acquire()
        except TimeoutError:
            raise httpx.PoolTimeout(f"no free connection within {pool_timeout} s") from None
        return semaphore


class _Slot:
    """A place held in an :class:`Admission` (a small class: this runs for every request)."""

    __slots__ = ("_admission", "_semaphore", "_timeout")

    def __init__(self, admission: Admission, pool_timeout: float | None) -> None:
        self._admission = admission
        self._timeout = pool_timeout
        self._semaphore: asyncio.Semaphore | None = None

    async def __aenter__(self) -> None:
        self._semaphore = await self._admission._acquire(self._timeout)

    async def __aexit__(self, *exc_info: object) -> None:
        if self._semaphore is not None:
            self._semaphore.release()
