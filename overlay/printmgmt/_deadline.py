"""A call's deadline: the one object every layer (retry loop, token flow, transports through the request's
:data:`DEADLINE` extension) asks how long the call may still take."""

from __future__ import annotations

import contextlib
import socket
import threading
import time
from collections.abc import Callable, Mapping
from typing import Any, Final, TypeVar

import httpx

from .errors import DeadlineMark

E = TypeVar("E", bound=BaseException)

#: The request extension that carries a call's :class:`Deadline` to its auth flow and its transports.
DEADLINE: Final = "printmgmt_deadline"


class DeadlineExceeded(httpx.TimeoutException, DeadlineMark):
    """A call's ``deadline`` passed: an httpx timeout, so the stack beneath the call handles it as one."""


class Deadline:
    """The end of one call's whole time: every attempt, the waits between them, signing in and reading the body."""

    __slots__ = ("_end", "during", "seconds", "watch")

    def __init__(self, seconds: float | None) -> None:
        if seconds is not None and (isinstance(seconds, bool) or not isinstance(seconds, int | float) or seconds <= 0):
            raise ValueError(f"deadline must be a number of seconds > 0 or None, not {seconds!r}")
        self.seconds = seconds
        self._end = None if seconds is None else time.monotonic() + seconds
        #: What the call is doing besides its own request (``" while signing in at ..."``), for the message.
        self.during = ""
        #: Given each response being read, so that reading it ends at the deadline (:class:`SyncTimeLimit`).
        self.watch: Callable[[httpx.Response], object] = lambda response: None

    @classmethod
    def of(cls, extensions: Mapping[str, Any]) -> Deadline:
        """The deadline of the call a request (httpx's or httpcore's) belongs to; unbounded outside a call."""
        found = extensions.get(DEADLINE)
        return found if isinstance(found, Deadline) else cls(None)

    def remaining(self) -> float | None:
        """Seconds left (``None``: unbounded)."""
        return None if self._end is None else self._end - time.monotonic()

    def exceeded(self) -> DeadlineExceeded:
        """The error of a call that ran out of time."""
        exceeded = DeadlineExceeded(f"the call's deadline of {self.seconds:g} s passed{self.during}")
        exceeded.before_sending = bool(self.during)
        return exceeded

    def within(self, timeout: float | None, expired: Callable[[str], BaseException] | None = None) -> float | None:
        """``timeout`` or the time left if shorter; once passed, raise ``expired(message)`` or :meth:`exceeded`."""
        left = self.remaining()
        if left is None:
            return timeout
        if left <= 0:
            raise self.exceeded() if expired is None else expired(f"the call's deadline of {self.seconds:g} s passed")
        return left if timeout is None else min(timeout, left)

    def timeouts(
        self, extensions: Mapping[str, Any], expired: Callable[[str], BaseException] | None = None
    ) -> dict[str, float | None]:
        """A request's per-operation timeouts (its ``timeout`` extension), each :meth:`within` the deadline."""
        given = extensions.get("timeout") or {}
        return {name: self.within(given.get(name), expired) for name in ("connect", "read", "write", "pool")}

    def check(self) -> None:
        """Raise :class:`DeadlineExceeded` once the deadline has passed."""
        self.within(None)

    def cap(self, timeout: httpx.Timeout) -> httpx.Timeout:
        """``timeout`` capped to the time left, for a transport that does not ask the deadline (a caller's own)."""
        return timeout if self._end is None else httpx.Timeout(**self.timeouts({"timeout": timeout.as_dict()}))

    def passed(self) -> bool:
        """Whether the deadline has passed (or is within 50 ms of it: a timer may fire a little early)."""
        left = self.remaining()
        return left is not None and left <= 0.05

    def explain(self, exc: E) -> E | DeadlineExceeded:
        """``exc``, or :class:`DeadlineExceeded` caused by it when it is a timeout capped by the deadline."""
        if isinstance(exc, DeadlineExceeded) or not isinstance(exc, httpx.TimeoutException) or not self.passed():
            return exc
        explained = self.exceeded()
        explained.__cause__ = exc
        with contextlib.suppress(RuntimeError):  # the token request's timeout names the token request
            explained.request = exc.request
        return explained

    def allows(self, delay: float) -> bool:
        """Whether another attempt can start after waiting ``delay`` seconds."""
        left = self.remaining()
        return left is None or delay < left


class AsyncTimeLimit:
    """Cancels an ``async with`` block at the deadline, wherever it waits, raising :meth:`~Deadline.exceeded`."""

    __slots__ = ("_deadline", "_scope")

    def __init__(self, deadline: Deadline) -> None:
        self._deadline = deadline

    def watch(self, response: httpx.Response) -> None:
        """Nothing to do: cancelling reaches every read (the sync twin needs the response's socket)."""

    async def __aenter__(self) -> AsyncTimeLimit:
        import asyncio

        self._scope = asyncio.timeout(self._deadline.remaining())
        await self._scope.__aenter__()
        return self

    async def __aexit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: Any) -> None:
        try:
            await self._scope.__aexit__(kind, exc, tb)
        except TimeoutError as timed_out:
            if self._scope.expired():
                raise self._deadline.exceeded() from timed_out
            raise


class SyncTimeLimit:
    """Ends a ``with`` block at the deadline by shutting :meth:`watch`'s sockets: a blocking read is not cancellable."""

    __slots__ = ("_deadline", "_fired", "_lock", "_sockets", "_timer")

    def __init__(self, deadline: Deadline) -> None:
        self._deadline = deadline
        self._lock = threading.Lock()
        self._fired = False
        self._sockets: list[Any] = []
        self._timer: threading.Timer | None = None

    def watch(self, response: httpx.Response) -> None:
        """Shut ``response``'s connection when the time is up (httpcore's network stream gives its socket)."""
        stream = response.extensions.get("network_stream")
        sock = stream.get_extra_info("socket") if stream is not None else None
        if sock is None:
            return
        with self._lock:
            self._sockets.append(sock)
            fired = self._fired
        if fired:
            self._shut(sock)

    def _fire(self) -> None:
        with self._lock:
            self._fired = True
            sockets, self._sockets = self._sockets, []
        for sock in sockets:
            self._shut(sock)

    @staticmethod
    def _shut(sock: Any) -> None:
        with contextlib.suppress(OSError):
            sock.shutdown(socket.SHUT_RDWR)

    def __enter__(self) -> SyncTimeLimit:
        if (left := self._deadline.remaining()) is not None:
            self._timer = threading.Timer(max(left, 0.0), self._fire)
            self._timer.daemon = True
            self._timer.start()
        return self

    def __exit__(self, kind: type[BaseException] | None, exc: BaseException | None, tb: Any) -> None:
        if self._timer is not None:
            self._timer.cancel()
        if self._fired and isinstance(exc, Exception):
            raise self._deadline.exceeded() from exc
