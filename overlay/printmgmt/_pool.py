"""The default transport's connection pool: :class:`~printmgmt._http11.HTTP11Connection` objects, never one to two
requests at once (httpcore 1.0.9's pool does that under concurrency, and churns connections above
``max_keepalive_connections``: encode/httpx#3215, encode/httpcore#1035, #1000, #1110; #953 reverted in #1002).

Idle connections are reused last in, first out per origin, and closed once expired when their origin is asked
for; a released one goes to the first waiter (first come, first served); ``max_connections`` is a hard bound.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import dataclasses
import ssl
import typing
from collections.abc import AsyncIterator, Iterable
from typing import Any

import httpcore
import httpx

from ._deadline import Deadline
from ._http11 import HTTP11Connection, close_if_strays

#: A ``setsockopt`` argument tuple, as httpcore types it.
SocketOption = tuple[int, int, int] | tuple[int, int, bytes | bytearray] | tuple[int, int, None, int]

__all__ = ["ConnectionPool", "PooledTransport"]


class PooledTransport(httpx.AsyncHTTPTransport):
    """``httpx.AsyncHTTPTransport`` that sends HTTP/1.1 through :class:`ConnectionPool` (the same arguments).

    Falls back to httpx's own pool for ``http2=True``, a ``proxy``, ``uds`` or ``socket_options``, its connections
    closed after stray bytes (:func:`~printmgmt._http11.close_if_strays`).
    ``max_keepalive_connections`` is not used by the pool: it keeps up to ``max_connections`` alive.
    """

    def __init__(
        self,
        verify: ssl.SSLContext | bool = True,
        *,
        trust_env: bool = True,
        http2: bool = False,
        limits: httpx.Limits | None = None,
        proxy: httpx.Proxy | str | None = None,
        uds: str | None = None,
        local_address: str | None = None,
        retries: int = 0,
        socket_options: Iterable[SocketOption] | None = None,
    ) -> None:
        limits = limits or httpx.Limits(max_connections=100, max_keepalive_connections=20)
        # one context for both pools: loading a CA bundle costs milliseconds
        context = (
            verify if isinstance(verify, ssl.SSLContext) else httpx.create_ssl_context(verify, trust_env=trust_env)
        )
        super().__init__(
            verify=context,
            trust_env=trust_env,
            http2=http2,
            limits=limits,
            proxy=proxy,
            uds=uds,
            local_address=local_address,
            retries=retries,
            socket_options=socket_options,
        )
        #: Whether requests go through :class:`ConnectionPool` (else through httpx's own pool).
        self.pooled = not http2 and proxy is None and uds is None and socket_options is None
        # httpx's private ``_pool`` (tests/wheel/shims.py checks it): ``handle_async_request``, which pytest-httpx
        # replaces, stays httpx's own
        if self.pooled:
            self._pool = ConnectionPool(context, limits, local_address, retries)  # type: ignore[assignment]
        else:
            self._pool = _StrictPool(self._pool)  # type: ignore[assignment]


@dataclasses.dataclass(eq=False)
class _StrictPool:
    """httpcore's async pool (or proxy pool), whose answers close their connection on stray bytes."""

    _pool: httpcore.AsyncConnectionPool

    async def handle_async_request(self, request: httpcore.Request) -> httpcore.Response:
        response = await self._pool.handle_async_request(request)
        response.stream = _StrictStream(response.stream)
        return response

    async def aclose(self) -> None:
        await self._pool.aclose()

    async def __aenter__(self) -> _StrictPool:
        await self._pool.__aenter__()
        return self

    async def __aexit__(self, *exc_info: Any) -> None:
        await self._pool.__aexit__(*exc_info)


@dataclasses.dataclass(eq=False)
class _StrictStream:
    _stream: Any

    async def __aiter__(self) -> AsyncIterator[bytes]:
        async for part in self._stream:
            yield part

    async def aclose(self) -> None:
        close_if_strays(self._stream)
        await self._stream.aclose()


class ConnectionPool:
    """HTTP/1.1 connections to any number of origins, in one event loop, used as an
    ``httpcore.AsyncConnectionPool`` is: a response's stream gives its connection back when closed."""

    def __init__(
        self, ssl_context: ssl.SSLContext, limits: httpx.Limits, local_address: str | None, retries: int
    ) -> None:
        self._ssl_context = ssl_context
        self._max = limits.max_connections
        self._expiry = limits.keepalive_expiry
        self._local_address = local_address
        self._retries = retries
        #: Idle connections per origin, the last released at the end.
        self._idle: dict[_Key, list[HTTP11Connection]] = {}
        #: Connections handed out, with their origin's key.
        self._busy: dict[HTTP11Connection, _Key] = {}
        #: Connections that exist or are being made (idle, busy, and places handed to a waiter to make one).
        self._count = 0
        self._waiters: collections.deque[_Waiter] = collections.deque()
        self._closed = False

    @property
    def connections(self) -> list[HTTP11Connection]:
        """The pool's connections, idle and busy (as ``httpcore.AsyncConnectionPool.connections``)."""
        return [conn for idle in self._idle.values() for conn in idle] + list(self._busy)

    async def handle_async_request(self, request: httpcore.Request) -> httpcore.Response:
        url = request.url
        if url.scheme not in (b"http", b"https"):
            raise httpcore.UnsupportedProtocol(f"Request URL has an unsupported protocol '{url.scheme.decode()}://'.")
        if not url.host:
            raise httpcore.UnsupportedProtocol("Request URL is missing a hostname.")
        origin = url.origin
        connection: httpcore.AsyncConnectionInterface
        if getattr(httpcore.AsyncHTTPConnection.handle_async_request, "__module__", "").startswith("httpcore."):
            timeouts = Deadline.of(request.extensions).timeouts(request.extensions, httpcore.PoolTimeout)
            connection = await self._acquire(origin, (origin.scheme, origin.host, origin.port), timeouts.get("pool"))
        else:  # a mocking tool (``respx.mock()``) replaced it: one outside the pool, so that the tool sees the call
            connection = httpcore.AsyncHTTPConnection(
                origin, ssl_context=self._ssl_context, retries=self._retries, local_address=self._local_address
            )
        try:
            response = await connection.handle_async_request(request)
        except BaseException:
            await self._release(connection)  # (the connection has closed itself)
            raise
        response.stream = _PooledStream(response.stream, connection, self)
        return response

    async def _acquire(self, origin: httpcore.Origin, key: _Key, timeout: float | None) -> HTTP11Connection:
        if self._closed:
            raise RuntimeError("the connection pool is closed")
        idle = self._idle.get(key)
        # the oldest idle connections are never handed out while newer ones are: expire them here
        while idle and idle[0].has_expired():
            await self._discard(idle.pop(0))
        while idle:
            connection = idle.pop()
            if not connection.has_expired():  # expired, or closed by the server while idle
                self._busy[connection] = key
                return connection
            await self._discard(connection)
        if (self._max is None or self._count < self._max) or await self._evict_idle():
            self._count += 1
            return self._new(origin, key)
        return await self._wait(origin, key, timeout)

    def _new(self, origin: httpcore.Origin, key: _Key) -> HTTP11Connection:
        connection = HTTP11Connection(origin, self._ssl_context, self._expiry, self._local_address, self._retries)
        self._busy[connection] = key
        return connection

    async def _evict_idle(self) -> bool:
        """At the limit, close the oldest idle connection of some other origin to make room (whether one was)."""
        for idle in self._idle.values():
            if idle:
                await self._discard(idle.pop(0))
                return True
        return False

    async def _wait(self, origin: httpcore.Origin, key: _Key, timeout: float | None) -> HTTP11Connection:
        waiter = _Waiter(key, asyncio.get_running_loop().create_future())
        self._waiters.append(waiter)
        try:
            async with asyncio.timeout(timeout):
                handed = await waiter.future
        except BaseException as exc:
            future = waiter.future
            if future.done() and not future.cancelled():
                if future.exception() is None:
                    # handed over in the same round as the timeout or cancellation: pass it on
                    handed = future.result()
                    if handed is None:
                        self._place_freed()
                    else:
                        await self._release(handed)
            else:
                future.cancel()
                with contextlib.suppress(ValueError):  # already dropped from the queue as done
                    self._waiters.remove(waiter)
            if isinstance(exc, TimeoutError):
                raise httpcore.PoolTimeout("timed out waiting for a connection from the pool") from None
            raise
        return self._new(origin, key) if handed is None else handed  # None: a place freed, to make one in

    def _next_waiter(self) -> _Waiter | None:
        waiters = self._waiters
        while waiters:
            waiter = waiters.popleft()
            if not waiter.future.done():
                return waiter
        return None

    def _place_freed(self) -> None:
        """A connection's place in the count is free: to the first waiter, to make one, else counted down."""
        if (waiter := self._next_waiter()) is None:
            self._count -= 1
        else:
            waiter.future.set_result(None)

    async def _release(self, connection: httpcore.AsyncConnectionInterface) -> None:
        """Back from a request: to the first waiter, to the idle list, or closed when it cannot serve again.

        The bookkeeping is done before anything is awaited, so a cancellation cannot leave it half done.
        """
        # the pool was closed meanwhile, or the connection is not the pool's
        if not isinstance(connection, HTTP11Connection) or (key := self._busy.pop(connection, None)) is None:
            await connection.aclose()
            return
        if connection.is_idle() and not connection.is_closed():
            waiter = self._next_waiter()
            if waiter is None:
                self._idle.setdefault(key, []).append(connection)
                return
            if waiter.key == key:
                self._busy[connection] = key
                waiter.future.set_result(connection)
                return
            waiter.future.set_result(None)  # the first waiter wants another origin: it gets this one's place
        else:
            self._place_freed()
        await connection.aclose()

    async def _discard(self, connection: HTTP11Connection) -> None:
        self._count -= 1
        await connection.aclose()

    async def aclose(self) -> None:
        """Close every connection; requests still waiting for one fail with ``httpcore.ConnectError``."""
        self._closed = True
        connections = self.connections
        self._idle.clear()
        self._busy.clear()
        self._count = 0
        while waiter := self._next_waiter():
            waiter.future.set_exception(httpcore.ConnectError("the connection pool was closed"))
        for connection in connections:
            await connection.aclose()

    async def __aenter__(self) -> ConnectionPool:
        return self

    async def __aexit__(self, *exc_info: object) -> None:
        await self.aclose()


#: An origin as a dictionary key (``httpcore.Origin`` is not hashable): scheme, host, port.
_Key = tuple[bytes, bytes, int]


class _Waiter(typing.NamedTuple):
    key: _Key
    future: asyncio.Future[HTTP11Connection | None]


@dataclasses.dataclass(slots=True, eq=False)
class _PooledStream:
    """A response's body; closing it gives the connection back to the pool (closes it, outside one)."""

    _stream: Any
    _connection: httpcore.AsyncConnectionInterface
    _pool: ConnectionPool
    _closed: bool = False

    def __aiter__(self) -> AsyncIterator[bytes]:
        return typing.cast(AsyncIterator[bytes], self._stream.__aiter__())

    async def aclose(self) -> None:
        if self._closed:
            return
        self._closed = True
        try:
            if hasattr(self._stream, "aclose"):
                await self._stream.aclose()
        finally:
            # idle again only when the exchange was finished; cut short (cancelled), it is closed
            await self._pool._release(self._connection)
