"""One object per running event loop: asyncio locks and semaphores must not cross loops, and notebooks and
scripts may run several loops (``asyncio.run`` per cell) over one client."""

from __future__ import annotations

import weakref
from collections.abc import AsyncGenerator, Callable
from typing import TYPE_CHECKING, Generic, NamedTuple, TypeVar

import httpx

if TYPE_CHECKING:  # imported at first use: importing the SDK, or a sync program, never loads asyncio
    import asyncio

__all__ = ["PerLoop", "PerLoopTransport"]

T = TypeVar("T")


class PerLoop(Generic[T]):
    """``get()`` returns the running loop's instance, made by ``factory`` on first use."""

    def __init__(self, factory: Callable[[], T]) -> None:
        self._factory = factory
        self._by_loop: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, T] = weakref.WeakKeyDictionary()

    def get(self) -> T:
        import asyncio

        loop = asyncio.get_running_loop()
        if (value := self._by_loop.get(loop)) is None:
            value = self._by_loop[loop] = self._factory()
        return value


class PerLoopTransport(httpx.AsyncBaseTransport):
    """An httpx transport per event loop (a pool's connections fail in the next loop: "Event loop is closed"),
    made by ``factory`` on first use there, closed as that loop shuts down or by :meth:`aclose`."""

    def __init__(self, factory: Callable[[], httpx.AsyncBaseTransport]) -> None:
        self.factory = factory
        self._by_loop: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop, _LoopTransport] = (
            weakref.WeakKeyDictionary()
        )

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        import asyncio

        loop = asyncio.get_running_loop()
        if (entry := self._by_loop.get(loop)) is None:
            transport = self.factory()
            entry = self._by_loop[loop] = _LoopTransport(transport, _close_at_shutdown(transport))
            await entry.closer.__anext__()  # registers the closer with this loop's shutdown
        return await entry.transport.handle_async_request(request)

    def current(self) -> httpx.AsyncBaseTransport | None:
        """The running loop's transport, once a request has made it."""
        import asyncio

        entry = self._by_loop.get(asyncio.get_running_loop())
        return entry.transport if entry is not None else None

    async def aclose(self) -> None:
        """Close this loop's transport now, and those of other loops that still run (in their loop)."""
        import asyncio

        current = asyncio.get_running_loop()
        entries, self._by_loop = list(self._by_loop.items()), weakref.WeakKeyDictionary()
        for loop, entry in entries:
            if loop is current:
                await entry.closer.aclose()
            elif loop.is_running() and not loop.is_closed():
                asyncio.run_coroutine_threadsafe(entry.closer.aclose(), loop)
            # a closed loop closed its transport at shutdown: nothing can be awaited in it any more


class _LoopTransport(NamedTuple):
    transport: httpx.AsyncBaseTransport
    closer: AsyncGenerator[None, None]  # asyncio.run closes async generators before the loop: the transport too


async def _close_at_shutdown(transport: httpx.AsyncBaseTransport) -> AsyncGenerator[None, None]:
    try:
        yield
    finally:
        await transport.aclose()
