"""One HTTP/1.1 connection for the SDK's pool: an asyncio protocol whose answers are read by httptools' parser.

httpcore's own connection parses with h11, in Python, behind anyio's locks, streams and cancel scopes: about
a third of a call's CPU on the SDK's default path (``BENCHMARKS.md``). Here the event loop hands each arrival
straight to llhttp (in C, through httptools), so when a response's head is read its body is usually in hand
too. The class implements httpcore's public connection interface: it takes ``httpcore.Request``\\ s, gives
``httpcore.Response``\\ s, raises httpcore's errors (which httpx maps to its own), and reports its phases under
httpcore's event names to the ``trace`` extension and to the ``httpcore.connection`` and ``httpcore.http11``
loggers, as httpcore does.

It serves what the pool serves: HTTP/1.1 over TCP, with TLS. Responses carry no ``network_stream``, and a
``101 Switching Protocols`` answer ends the connection: no upgraded stream is handed out.
"""

from __future__ import annotations

import asyncio
import collections
import logging
import re
import ssl
import time
import typing
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

import httpcore
import httptools

__all__ = ["HTTP11Connection"]

#: Body bytes buffered from the server past which the socket is not read until the caller has taken some.
_HIGH_WATER = 256 * 1024
#: A response head longer than this is refused (h11's limit too).
_MAX_HEAD = 100 * 1024
#: Retried connection attempts wait 0 s, then 0.5 s, 1 s, 2 s... (httpcore's back-off).
_BACKOFF = 0.5

#: A header name, and a header value, as h11 lets them be sent (to tell what is wrong in a refused head).
_TOKEN = re.compile(rb"[!#$%&'*+\-.^_`|~0-9A-Za-z]+")
_FIELD = re.compile(rb"[^\x00-\x08\x0a-\x1f\x7f]*")

_LOGS = {"connection": logging.getLogger("httpcore.connection"), "http11": logging.getLogger("httpcore.http11")}
#: httpcore's ``trace`` extension: a callable awaited with each event's name and details.
Trace = Callable[[str, Mapping[str, Any]], Awaitable[None]]

_NEW, _ACTIVE, _IDLE, _CLOSED = "NEW", "ACTIVE", "IDLE", "CLOSED"


class _NoBody(Exception):
    """Raised from the parser's callback to stop it at the end of a HEAD response's head."""


class HTTP11Connection(httpcore.AsyncConnectionInterface, asyncio.Protocol):
    """An HTTP/1.1 connection to ``origin``, opened by its first request, one request at a time."""

    def __init__(
        self,
        origin: httpcore.Origin,
        *,
        ssl_context: ssl.SSLContext,
        keepalive_expiry: float | None = None,
        local_address: str | None = None,
        retries: int = 0,
    ) -> None:
        self._origin = origin
        self._ssl_context = ssl_context
        self._keepalive_expiry = keepalive_expiry
        self._local_address = local_address
        self._retries = retries
        self._state = _NEW
        self._requests = 0
        self._expire_at: float | None = None
        self._loop: asyncio.AbstractEventLoop | None = None
        self._transport: asyncio.Transport | None = None
        self._parser: httptools.HttpResponseParser | None = None
        #: Set by the event loop's callbacks: the server's close (or the connection's loss), and its error.
        self._eof = False
        self._lost: BaseException | None = None
        #: Something arrived that no request asked for: the connection is not used again.
        self._stray = False
        self._waiter: asyncio.Future[None] | None = None
        self._drained: asyncio.Future[None] | None = None
        self._paused_reading = False
        self._paused_writing = False
        # the exchange in progress
        self._head_only = False
        self._sent_whole = False
        self._interim = False
        self._head_done = False
        self._head_bytes = 0
        self._complete = False
        self._keep_alive = False
        self._failure: httpcore.RemoteProtocolError | None = None
        self._status = 0
        self._reason = b""
        self._version = "1.1"
        self._headers: list[tuple[bytes, bytes]] = []
        self._chunks: collections.deque[bytes] = collections.deque()
        self._buffered = 0

    # -- httpcore's connection interface

    async def handle_async_request(self, request: httpcore.Request) -> httpcore.Response:
        if request.url.origin != self._origin:
            raise RuntimeError(f"Attempted to send request to {request.url.origin} on connection to {self._origin}")
        if self._state is not _NEW and self._state is not _IDLE:
            raise httpcore.ConnectionNotAvailable()
        self._state = _ACTIVE
        self._expire_at = None
        self._requests += 1
        timeouts = request.extensions.get("timeout", {})
        trace: Trace | None = request.extensions.get("trace")
        if _LOGS["http11"].isEnabledFor(logging.DEBUG) or _LOGS["connection"].isEnabledFor(logging.DEBUG):
            trace = _Trace(trace)
        try:
            head, length = _head(request)  # refused before a connection is made for it
            if self._transport is None:
                await self._connect(request, timeouts.get("connect"), trace)
            self._begin(request.method == b"HEAD")
            await self._send(request, head, length, timeouts.get("write"), trace)
            await self._receive_head(request, timeouts.get("read"), trace)
        except BaseException:
            self._close()
            async with _Traced(trace, "http11.response_closed", {}):
                pass
            raise
        version = b"HTTP/1.1" if self._version == "1.1" else b"HTTP/" + self._version.encode()
        return httpcore.Response(
            self._status,
            headers=self._headers,
            content=_Body(self, request, timeouts.get("read"), trace),
            extensions={"http_version": version, "reason_phrase": self._reason},
        )

    async def aclose(self) -> None:
        self._close()

    def info(self) -> str:
        return f"{str(self._origin)!r}, HTTP/1.1, {self._state}, Request Count: {self._requests}"

    def __repr__(self) -> str:
        return f"<{type(self).__name__} [{str(self._origin)!r}, {self._state}, Request Count: {self._requests}]>"

    def can_handle_request(self, origin: httpcore.Origin) -> bool:
        return origin == self._origin

    def is_available(self) -> bool:
        return self._state is _IDLE

    def has_expired(self) -> bool:
        """Idle past its keep-alive, or something arrived while idle (the server's close, or bytes no request
        asked for): either way it cannot serve another request."""
        if self._state is not _IDLE:
            return False
        return self._eof or self._stray or (self._expire_at is not None and time.monotonic() > self._expire_at)

    def is_idle(self) -> bool:
        return self._state is _IDLE

    def is_closed(self) -> bool:
        return self._state is _CLOSED

    # -- opening

    async def _connect(self, request: httpcore.Request, timeout: float | None, trace: Trace | None) -> None:
        attempts = 0
        while True:
            try:
                await self._open(request, timeout, trace)
                return
            except (httpcore.ConnectError, httpcore.ConnectTimeout):
                if attempts >= self._retries:
                    raise
            delay = 0.0 if attempts == 0 else _BACKOFF * 2 ** (attempts - 1)
            attempts += 1
            if trace is not None:
                await trace("connection.retry.started", {"request": request})
            await asyncio.sleep(delay)

    async def _open(self, request: httpcore.Request, timeout: float | None, trace: Trace | None) -> None:
        host, port = self._origin.host.decode("ascii"), self._origin.port
        self._loop = loop = asyncio.get_running_loop()
        # what a failed attempt's socket reported on its way out is not this one's
        self._transport, self._eof, self._lost = None, False, None
        local = (self._local_address, 0) if self._local_address else None
        kwargs = {"host": host, "port": port, "local_address": self._local_address, "timeout": timeout}
        async with _Traced(trace, "connection.connect_tcp", kwargs):
            try:
                async with asyncio.timeout(timeout):
                    await loop.create_connection(lambda: self, host, port, local_addr=local)
            except TimeoutError:
                raise httpcore.ConnectTimeout(f"timed out connecting to {host}:{port}") from None
            except OSError as exc:
                raise httpcore.ConnectError(str(exc) or type(exc).__name__) from exc
        if self._origin.scheme != b"https":
            return
        context = self._ssl_context
        context.set_alpn_protocols(["http/1.1"])
        server_hostname = request.extensions.get("sni_hostname") or host
        kwargs = {"ssl_context": context, "server_hostname": server_hostname, "timeout": timeout}
        async with _Traced(trace, "connection.start_tls", kwargs):
            raw = self._transport
            assert raw is not None
            try:
                async with asyncio.timeout(timeout):
                    tls = await loop.start_tls(raw, self, context, server_hostname=server_hostname)
            except BaseException as exc:
                raw.abort()
                self._transport = None
                if isinstance(exc, TimeoutError):
                    raise httpcore.ConnectTimeout("timed out in the TLS handshake") from None
                if isinstance(exc, OSError):  # ssl.SSLError included
                    raise httpcore.ConnectError(str(exc) or type(exc).__name__) from exc
                raise
            if tls is None:
                raise httpcore.ConnectError("the server closed the connection during the TLS handshake")
            self._transport = tls

    # -- sending

    def _begin(self, head_only: bool) -> None:
        if self._parser is None:
            self._parser = httptools.HttpResponseParser(self)
            # bare LF line ends, as h11 reads them
            self._parser.set_dangerous_leniencies(lenient_optional_cr_before_lf=True)
        self._head_only = head_only
        self._sent_whole = self._interim = self._head_done = self._complete = False
        self._head_bytes = 0
        self._reason = b""
        self._headers = []

    async def _send(
        self, request: httpcore.Request, head: bytes, length: int | None, timeout: float | None, trace: Trace | None
    ) -> None:
        """The request, its head and the first piece of its body in one write; a ``WriteError`` is reported to
        ``trace`` and swallowed, as httpcore does: the server may have answered before it stopped reading."""
        phase = "http11.send_request_headers"
        try:
            if trace is not None:
                await trace(phase + ".started", {"request": request})
            chunked = length is None
            body = typing.cast(typing.AsyncIterable[bytes], request.stream).__aiter__()
            sent = 0
            first = True
            while True:
                try:
                    chunk = await body.__anext__()
                except StopAsyncIteration:
                    break
                if not chunk:
                    continue
                sent += len(chunk)
                if length is not None and sent > length:
                    raise httpcore.LocalProtocolError("Too much data for declared Content-Length")
                if chunked:
                    chunk = b"%x\r\n%b\r\n" % (len(chunk), chunk)
                if first:
                    first = False
                    chunk = head + chunk
                await self._write(chunk, timeout)
                if phase != "http11.send_request_body":
                    phase = await _next_phase(trace, phase, request)
            if length is not None and sent < length:
                raise httpcore.LocalProtocolError("Too little data for declared Content-Length")
            end = b"0\r\n\r\n" if chunked else b""
            if first or end:
                await self._write(head + end if first else end, timeout)
            if phase != "http11.send_request_body":
                phase = await _next_phase(trace, phase, request)
            self._sent_whole = True
            if trace is not None:
                await trace(phase + ".complete", {"return_value": None})
        except BaseException as exc:
            if trace is not None:
                await trace(phase + ".failed", {"exception": exc})
            if not isinstance(exc, httpcore.WriteError):
                raise

    async def _write(self, data: bytes, timeout: float | None) -> None:
        transport = self._transport
        assert transport is not None
        # as anyio's streams do for httpcore: even an empty write fails on a connection known to be closed
        if self._lost is not None or transport.is_closing():
            raise httpcore.WriteError(str(self._lost or "the connection is closed"))
        transport.write(data)
        if transport.is_closing():  # the send itself failed (reset, broken pipe): asyncio closed it
            raise httpcore.WriteError("the connection broke while sending")
        if self._paused_writing:
            self._drained = future = self._loop_of().create_future()
            if not await self._until(future, timeout):
                raise httpcore.WriteTimeout("timed out writing to the server")
            if self._lost is not None:
                raise httpcore.WriteError(str(self._lost) or type(self._lost).__name__)

    # -- receiving

    async def _receive_head(self, request: httpcore.Request, timeout: float | None, trace: Trace | None) -> None:
        async with _Traced(trace, "http11.receive_response_headers", {"request": request}):
            while not self._head_done:
                if self._failure is not None:
                    raise self._failure
                if self._eof:
                    if isinstance(self._lost, OSError):
                        raise httpcore.ReadError(str(self._lost) or type(self._lost).__name__)
                    raise httpcore.RemoteProtocolError("Server disconnected without sending a response.")
                await self._wait(timeout)

    async def _next_chunk(self, timeout: float | None) -> bytes | None:
        """The body's next bytes (what arrived since the last call, joined), ``None`` at its end."""
        chunks = self._chunks
        while True:
            if chunks:
                data = chunks.popleft() if len(chunks) == 1 else b"".join(chunks)
                self._emptied()
                return data
            if self._complete:
                return None
            if self._failure is not None:
                raise self._failure
            if self._eof:
                if self._lost is None and self._delimited_by_close():
                    self._complete = True
                    return None
                if isinstance(self._lost, OSError):
                    raise httpcore.ReadError(str(self._lost) or type(self._lost).__name__)
                raise httpcore.RemoteProtocolError("peer closed connection without sending complete message body")
            await self._wait(timeout)

    def _emptied(self) -> None:
        """Nothing of the body is held any more: the socket is read again if it was paused."""
        self._chunks.clear()
        self._buffered = 0
        if self._paused_reading and self._transport is not None:
            self._paused_reading = False
            self._transport.resume_reading()

    def _delimited_by_close(self) -> bool:
        """Whether the response's body ends where the connection does (neither a length nor chunks)."""
        names = {name.lower(): value for name, value in self._headers}
        return b"content-length" not in names and not names.get(b"transfer-encoding", b"").lower().endswith(b"chunked")

    def _response_closed(self) -> None:
        """The response is closed: the connection serves again only after a whole exchange it can go on from."""
        if (
            self._complete
            and self._sent_whole
            and self._keep_alive
            and not self._stray
            and not self._eof
            and self._state is _ACTIVE
        ):
            self._state = _IDLE
            self._emptied()  # a whole body the caller did not read
            if self._keepalive_expiry is not None:
                self._expire_at = time.monotonic() + self._keepalive_expiry
        else:
            self._close()

    def _close(self) -> None:
        self._state = _CLOSED
        self._parser = None
        if self._transport is not None:
            # at once, without waiting on the peer: closing never suspends, so a cancelled caller still closes
            self._transport.abort()

    # -- waiting on the event loop

    def _loop_of(self) -> asyncio.AbstractEventLoop:
        assert self._loop is not None
        return self._loop

    async def _wait(self, timeout: float | None) -> None:
        self._waiter = future = self._loop_of().create_future()
        if not await self._until(future, timeout):
            raise httpcore.ReadTimeout("timed out reading from the server")

    async def _until(self, future: asyncio.Future[None], timeout: float | None) -> bool:
        """Await ``future``; ``False`` when ``timeout`` seconds passed first (a timer, not a cancellation)."""
        if timeout is None:
            await future
            return True
        timer = self._loop_of().call_later(timeout, _time_out, future)
        try:
            await future
        except TimeoutError:
            return False
        finally:
            timer.cancel()
        return True

    def _wake(self) -> None:
        waiter, self._waiter = self._waiter, None
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    # -- asyncio's protocol callbacks

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self._transport = typing.cast(asyncio.Transport, transport)

    def data_received(self, data: bytes) -> None:
        parser = self._parser
        if parser is None or self._state is not _ACTIVE or self._complete:
            self._stray = True  # nothing may arrive between exchanges
            return
        try:
            parser.feed_data(data)
        except httptools.HttpParserUpgrade:
            self._keep_alive = False  # a 101 ends the exchange and the connection
        except httptools.HttpParserError as exc:
            if self._head_only and self._complete:
                self._parser = None  # stopped after a HEAD response's head: a new parser for the next
            elif not self._complete:
                self._failure = httpcore.RemoteProtocolError(str(exc) or type(exc).__name__)
            else:
                self._stray = True
        if not self._head_done:
            self._head_bytes += len(data)
            if self._head_bytes > _MAX_HEAD and self._failure is None:
                self._failure = httpcore.RemoteProtocolError("the response head is too long")
        self._wake()

    def eof_received(self) -> bool:
        self._eof = True
        self._wake()
        return False  # the transport closes itself

    def connection_lost(self, exc: Exception | None) -> None:
        self._eof = True
        self._lost = exc
        self._wake()
        drained, self._drained = self._drained, None
        if drained is not None and not drained.done():
            drained.set_result(None)

    def pause_writing(self) -> None:
        self._paused_writing = True

    def resume_writing(self) -> None:
        self._paused_writing = False
        drained, self._drained = self._drained, None
        if drained is not None and not drained.done():
            drained.set_result(None)

    # -- httptools' parser callbacks

    def on_message_begin(self) -> None:
        if self._complete:
            self._stray = True  # a second answer to one request

    def on_status(self, status: bytes) -> None:
        self._reason += status

    def on_header(self, name: bytes, value: bytes) -> None:
        self._headers.append((name, value.rstrip(b" \t")))

    def on_headers_complete(self) -> None:
        parser = self._parser
        assert parser is not None
        status = parser.get_status_code()
        if 100 <= status < 200 and status != 101:  # an interim answer: the real one follows
            self._interim = True
            self._reason = b""
            self._headers = []
            return
        self._status = status
        self._keep_alive = parser.should_keep_alive()
        self._version = parser.get_http_version()
        self._head_done = True
        if self._head_only:
            self._complete = True
            raise _NoBody

    def on_body(self, body: bytes) -> None:
        self._chunks.append(body)
        self._buffered += len(body)
        if self._buffered > _HIGH_WATER and not self._paused_reading and self._transport is not None:
            self._paused_reading = True
            self._transport.pause_reading()

    def on_message_complete(self) -> None:
        if self._interim:
            self._interim = False
        else:
            self._complete = True


class _Body:
    """A response's body as httpcore gives it: iterate for the bytes, close to end the exchange."""

    __slots__ = ("_closed", "_connection", "_request", "_started", "_timeout", "_trace")

    def __init__(
        self, connection: HTTP11Connection, request: httpcore.Request, timeout: float | None, trace: Trace | None
    ) -> None:
        self._connection = connection
        self._request = request
        self._timeout = timeout
        self._trace = trace
        self._started = False
        self._closed = False

    def __aiter__(self) -> _Body:
        return self

    async def __anext__(self) -> bytes:
        trace = self._trace
        if trace is not None and not self._started:
            self._started = True
            await trace("http11.receive_response_body.started", {"request": self._request})
        try:
            chunk = await self._connection._next_chunk(self._timeout)
        except BaseException as exc:
            if trace is not None:
                await trace("http11.receive_response_body.failed", {"exception": exc})
            await self.aclose()
            raise
        if chunk is None:
            if trace is not None:
                await trace("http11.receive_response_body.complete", {"return_value": None})
            raise StopAsyncIteration
        return chunk

    async def aclose(self) -> None:
        if self._closed:
            return
        self._closed = True
        async with _Traced(self._trace, "http11.response_closed", {}):
            self._connection._response_closed()


class _Trace:
    """A request's phases for httpcore's loggers, and for the ``trace`` extension's callable when there is one."""

    __slots__ = ("_extension",)

    def __init__(self, extension: Trace | None) -> None:
        self._extension = extension

    async def __call__(self, event: str, info: Mapping[str, Any]) -> None:
        if self._extension is not None:
            await self._extension(event, info)
        area, name = event.split(".", 1)
        log = _LOGS[area]
        if log.isEnabledFor(logging.DEBUG):
            quiet = not info or ("return_value" in info and info["return_value"] is None)
            log.debug(name if quiet else name + " " + " ".join(f"{key}={value!r}" for key, value in info.items()))


class _Traced:
    """httpcore's trace events around one phase: ``<name>.started``, then ``.complete`` or ``.failed``."""

    __slots__ = ("_info", "_name", "_trace")

    def __init__(self, trace: Trace | None, name: str, info: Mapping[str, Any]) -> None:
        self._trace = trace
        self._name = name
        self._info = info

    async def __aenter__(self) -> None:
        if self._trace is not None:
            await self._trace(self._name + ".started", self._info)

    async def __aexit__(self, kind: type[BaseException] | None, exc: BaseException | None, _: object) -> None:
        if self._trace is not None:
            if exc is None:
                await self._trace(self._name + ".complete", {"return_value": None})
            else:
                await self._trace(self._name + ".failed", {"exception": exc})


async def _next_phase(trace: Trace | None, phase: str, request: httpcore.Request) -> str:
    """The request's head is out: its phase is complete and the body's begins."""
    if trace is not None:
        await trace(phase + ".complete", {"return_value": None})
        await trace("http11.send_request_body.started", {"request": request})
    return "http11.send_request_body"


def _time_out(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_exception(TimeoutError())


def _head(request: httpcore.Request) -> tuple[bytes, int | None]:
    """The request's head, checked, and its body's length (``None``: sent in chunks)."""
    parts = [request.method, b" ", request.url.target, b" HTTP/1.1\r\n"]
    length: int | None = 0
    for name, value in request.headers:
        parts += (name, b": ", value, b"\r\n")
        size = len(name)
        if size == 14 and name.lower() == b"content-length" and length is not None:
            try:
                length = int(value)
            except ValueError:
                raise httpcore.LocalProtocolError("Illegal Content-Length header value") from None
        elif size == 17 and name.lower() == b"transfer-encoding" and value.lower() == b"chunked":
            length = None
    parts.append(b"\r\n")
    head = b"".join(parts)
    # a line break or NUL of its own in any part would let a header (or a request) be smuggled in: the head
    # holds exactly the line ends put there just above
    lines = len(request.headers) + 2
    if head.count(b"\n") != lines or head.count(b"\r") != lines or b"\0" in head:
        raise httpcore.LocalProtocolError(_illegal(request))
    return head, length


def _illegal(request: httpcore.Request) -> str:
    """What is wrong in a request head (never a header's value: it may be a secret)."""
    for name, value in request.headers:
        if not _TOKEN.fullmatch(name):
            return f"Illegal header name {name!r}"
        if not _FIELD.fullmatch(value):
            return f"Illegal header value (header {name.decode('ascii', 'replace')!r})"
    return "Illegal request method or target"
