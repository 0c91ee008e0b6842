"""The single flight: the first caller that needs a token leads its acquisition, the others await its outcome.
One acquisition per event loop for tasks (futures must not cross loops), one among threads."""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import TYPE_CHECKING, Any, Generic, TypeVar

from .._per_loop import PerLoop

if TYPE_CHECKING:  # imported at first use: a sync program never loads asyncio
    import asyncio
    import concurrent.futures

__all__ = ["AsyncFlights", "SyncFlights"]

T = TypeVar("T")


class LeaderGone(Exception):
    """The caller leading an acquisition was cancelled or ran out of time; a waiter leads a new one."""


class _Flight(Generic[T]):
    """One caller's part in an acquisition: its leader settles it, the others await ``outcome``."""

    __slots__ = ("_future", "_land", "leading")

    def __init__(self, future: Any, land: Callable[[], None], *, leading: bool) -> None:
        self._future = future
        self._land = land  # ends the acquisition: the next caller to join leads a new one
        self.leading = leading

    def succeed(self, value: T) -> None:
        self._land()
        self._future.set_result(value)

    def fail(self, exc: BaseException, shared: Callable[[BaseException], BaseException]) -> None:
        """End the acquisition with ``shared(exc)`` for the waiters."""
        self._land()
        self._future.set_exception(self._failure(exc, shared))
        self._future.exception()  # marks it retrieved: with no waiter, asyncio would log "never retrieved"

    def hand_over(self) -> None:
        """End the acquisition without an outcome (its leader ran out of its own time): a waiter leads a new one."""
        self.fail(LeaderGone(), lambda exc: exc)

    def _failure(self, exc: BaseException, shared: Callable[[BaseException], BaseException]) -> BaseException:
        return shared(exc)


class AsyncFlight(_Flight[T]):
    __slots__ = ()

    async def outcome(self, bound: float | None) -> T | None:
        """The leader's result, or its failure raised; ``None`` when the leader is gone (lead instead).
        :class:`TimeoutError` after ``bound`` seconds; the acquisition goes on for the others."""
        import asyncio

        try:
            async with asyncio.timeout(bound):
                result: T = await asyncio.shield(self._future)
                return result
        except LeaderGone:
            return None

    def _failure(self, exc: BaseException, shared: Callable[[BaseException], BaseException]) -> BaseException:
        import asyncio

        task = asyncio.current_task()
        if isinstance(exc, GeneratorExit | asyncio.CancelledError) and task is not None and task.cancelling():
            return LeaderGone()  # the leader's task is being cancelled: a waiter leads a new acquisition
        return shared(exc)


class AsyncFlights(Generic[T]):
    """The acquisition under way in each event loop."""

    __slots__ = ("_current",)

    def __init__(self) -> None:
        self._current: PerLoop[list[asyncio.Future[T]]] = PerLoop(list)

    def join(self) -> AsyncFlight[T]:
        import asyncio

        current = self._current.get()  # empty, or the one acquisition under way
        if current:
            return AsyncFlight(current[0], current.clear, leading=False)
        current.append(asyncio.get_running_loop().create_future())
        return AsyncFlight(current[0], current.clear, leading=True)


class SyncFlight(_Flight[T]):
    __slots__ = ()

    def outcome(self, bound: float | None) -> T | None:
        """As :meth:`AsyncFlight.outcome`, waiting in this thread."""
        try:
            result: T = self._future.result(timeout=bound)  # concurrent.futures.TimeoutError is TimeoutError
            return result
        except LeaderGone:
            return None


class SyncFlights(Generic[T]):
    """The acquisition under way among threads."""

    __slots__ = ("_current", "_lock")

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._current: concurrent.futures.Future[T] | None = None

    def join(self) -> SyncFlight[T]:
        import concurrent.futures

        with self._lock:
            future, leading = self._current, self._current is None
            if future is None:
                future = self._current = concurrent.futures.Future()
        return SyncFlight(future, lambda: self._land(future), leading=leading)

    def _land(self, future: concurrent.futures.Future[T]) -> None:
        with self._lock:
            if self._current is future:
                self._current = None
