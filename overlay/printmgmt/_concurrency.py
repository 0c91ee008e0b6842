"""The few primitives where async and sync code really differ, in twins: ``AsyncX`` for ``printmgmt._async``,
``SyncX`` for the generated ``printmgmt._sync`` (``scripts/unasync.py`` renames one to the other)."""

from __future__ import annotations

import inspect
import threading
import time
from collections.abc import Awaitable, Callable, Coroutine, Iterable, Iterator
from typing import TYPE_CHECKING, Any, Generic, TypeVar

import httpx

from ._per_loop import PerLoop

if TYPE_CHECKING:  # imported at first use: a sync program never loads asyncio
    import concurrent.futures

__all__ = [
    "AsyncAhead",
    "AsyncIterableOnly",
    "AsyncSemaphore",
    "SyncAhead",
    "SyncIterableOnly",
    "SyncSemaphore",
    "Take",
    "async_pause",
    "async_run_workers",
    "async_sleep",
    "sync_pause",
    "sync_run_workers",
    "sync_sleep",
]

T = TypeVar("T")

sync_sleep = time.sleep


async def async_sleep(seconds: float) -> None:
    import asyncio

    await asyncio.sleep(seconds)


async def async_pause(seconds: float, sleep: Callable[[float], object] | None) -> None:
    """Wait ``seconds`` with ``sleep`` (a plain function, or one returning an awaitable), else asyncio's."""
    waited = (sleep or async_sleep)(seconds)
    if inspect.isawaitable(waited):
        await waited


def sync_pause(seconds: float, sleep: Callable[[float], object] | None) -> None:
    """Wait ``seconds`` with ``sleep`` (a plain function), else ``time.sleep``."""
    waited = (sleep or sync_sleep)(seconds)
    if inspect.isawaitable(waited):
        if inspect.iscoroutine(waited):
            waited.close()  # never awaited: no "coroutine was never awaited" warning on top of this error
        raise TypeError("the sync client's RetryPolicy(sleep=...) must wait itself, not return an awaitable")


class Take(Generic[T]):
    """Items handed out one at a time to several workers (tasks or threads)."""

    __slots__ = ("_closed", "_items", "_lock")

    def __init__(self, items: Iterable[T]) -> None:
        self._items = iter(items)
        self._lock = threading.Lock()
        self._closed = False

    def __iter__(self) -> Iterator[T]:
        return self

    def __next__(self) -> T:
        with self._lock:  # never held across I/O: only while taking the next item
            if self._closed:
                raise StopIteration
            return next(self._items)

    def close(self) -> None:
        """Hand out nothing more (a worker failed: the others stop after their current item)."""
        self._closed = True


class AsyncSemaphore:
    """``limit`` places, one semaphore per event loop; ``acquire`` waits at most ``timeout`` seconds."""

    def __init__(self, limit: int) -> None:
        import asyncio

        self._semaphores = PerLoop(lambda: asyncio.Semaphore(limit))

    async def acquire(self, timeout: float | None) -> AsyncSemaphore:
        semaphore = self._semaphores.get()
        if not semaphore.locked():  # a free place, nobody waiting: taken at once, no timer needed
            await semaphore.acquire()
            return self
        import asyncio

        try:
            async with asyncio.timeout(timeout):
                await semaphore.acquire()
        except TimeoutError:
            raise httpx.PoolTimeout(f"no free connection within {timeout} s") from None
        return self

    def release(self) -> None:
        self._semaphores.get().release()


class SyncSemaphore:
    """``limit`` places shared by threads; ``acquire`` waits at most ``timeout`` seconds."""

    def __init__(self, limit: int) -> None:
        self._semaphore = threading.BoundedSemaphore(limit)

    def acquire(self, timeout: float | None) -> SyncSemaphore:
        if not self._semaphore.acquire(timeout=timeout):
            raise httpx.PoolTimeout(f"no free connection within {timeout} s")
        return self

    def release(self) -> None:
        self._semaphore.release()


class AsyncIterableOnly:
    """Base of async iterables: a plain ``for`` says to use ``async for`` (instead of "not iterable")."""

    __slots__ = ()

    if not TYPE_CHECKING:  # type checkers keep reporting a plain ``for`` as an error
        # ``for`` falls back to __getitem__ when there is no __iter__; an __iter__ would make the object an
        # ``Iterable`` to isinstance() checks
        def __getitem__(self, index):
            raise TypeError(
                f"use 'async for' to iterate a {type(self).__name__} of the async client "
                "(printmgmt.sync.PrintClient's pagers take a plain 'for')"
            )


class SyncIterableOnly:
    """The sync twin of :class:`AsyncIterableOnly`: nothing to add, a sync pager is iterated with ``for``."""

    __slots__ = ()


class AsyncAhead(Generic[T]):
    """A call started now whose result is awaited later (a task)."""

    __slots__ = ("_task",)

    def __init__(self, call: Callable[[], Awaitable[T]]) -> None:
        import asyncio

        self._task = asyncio.ensure_future(call())

    async def result(self) -> T:
        return await self._task

    def cancel(self) -> None:
        self._task.cancel()
        # a call started ahead that failed is never awaited: mark its exception retrieved
        self._task.add_done_callback(lambda task: task.cancelled() or task.exception())


class SyncAhead(Generic[T]):
    """A call started now on a thread of its own whose result is waited for later."""

    __slots__ = ("_future",)

    def __init__(self, call: Callable[[], T]) -> None:
        import concurrent.futures

        self._future: concurrent.futures.Future[T] = concurrent.futures.Future()
        threading.Thread(target=self._run, args=(call,), daemon=True, name="printmgmt-prefetch").start()

    def _run(self, call: Callable[[], T]) -> None:
        if not self._future.set_running_or_notify_cancel():
            return
        try:
            self._future.set_result(call())
        except BaseException as exc:  # handed to whoever waits for the result
            self._future.set_exception(exc)

    def result(self) -> T:
        return self._future.result()

    def cancel(self) -> None:
        # a thread cannot be stopped: a running call is waited for, so no request outlives its loop (and client)
        if not self._future.cancel():
            self._future.exception()


async def async_run_workers(count: int, worker: Callable[[], Coroutine[Any, Any, None]]) -> None:
    """Run ``count`` copies of ``worker`` concurrently; the first exception one raises is raised as it was."""
    import asyncio

    try:
        async with asyncio.TaskGroup() as group:
            for _ in range(count):
                group.create_task(worker())
    except BaseExceptionGroup as failed:
        raise failed.exceptions[0] from None


def sync_run_workers(count: int, worker: Callable[[], None]) -> None:
    """Run ``count`` copies of ``worker`` on threads; the first exception one raises is raised as it was."""
    if count <= 0:
        return
    import concurrent.futures

    with concurrent.futures.ThreadPoolExecutor(count, thread_name_prefix="printmgmt-bulk") as pool:
        futures = [pool.submit(worker) for _ in range(count)]
    for future in futures:
        future.result()
