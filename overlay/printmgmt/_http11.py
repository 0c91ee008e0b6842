"""One HTTP/1.1 connection for the SDK's pool: an asyncio protocol that reads each answer as it arrives.

It reads as h11 reads (``tests/test_http11_referee.py`` holds it to h11), stricter where h11 would let an
answer be smuggled or misread (docs/configuration.md, "Stricter than httpx"), and it speaks httpcore's
connection interface: its requests, responses, errors, ``trace`` events and loggers. Why not httpcore's own
connection: anyio's locks, streams and cancel scopes cost a third of a call's CPU (``BENCHMARKS.md``).

What arriving bytes and the server's close do, by :class:`Phase` (``data_received``, ``_at_eof``):

============  ==================================================  =================================================
phase         bytes arriving                                      the server's close
============  ==================================================  =================================================
IDLE, DONE    never read: STALE, SPENT                            STALE, SPENT
HEAD          the head: 1xx answers back to HEAD, then LENGTH,    FAILED: no answer
              CHUNK_SIZE, UNTIL_CLOSE, or the answer is DONE
LENGTH        body bytes, up to the declared length: then DONE    FAILED: the body is cut short
CHUNK_SIZE    a chunk-size line: CHUNK_DATA, or TRAILERS after 0  FAILED
CHUNK_DATA    the chunk's bytes, then CHUNK_END (its CRLF)        FAILED
TRAILERS      trailer fields, checked and dropped: DONE           FAILED
UNTIL_CLOSE   body bytes                                          SPENT: the body ends here
others        ignored                                             unchanged
============  ==================================================  =================================================

A DONE answer gives its connection back (IDLE) once the response is closed; SPENT or FAILED closes it.
"""

from __future__ import annotations

import asyncio
import collections
import contextlib
import dataclasses
import enum
import logging
import re
import ssl
import time
import typing
from collections.abc import Awaitable, Callable, Mapping
from typing import Any

import h11
import httpcore

from ._deadline import Deadline

__all__ = ["HTTP11Connection", "Phase", "close_if_strays"]

#: Body bytes buffered from the server past which the socket is not read until the caller has taken some.
_HIGH_WATER = 256 * 1024
#: The most body bytes handed to the caller in one piece (httpcore's read size: a piece is decoded whole).
_PIECE = 64 * 1024
#: Bytes of heads (interim ones included), a chunk-size line or trailers past which the answer is refused.
_MAX_HEAD = 100 * 1024
#: Interim (1xx) answers past which the answer is refused: an endless run of them ends fast.
_MAX_INTERIM = 32
#: Retried connection attempts wait 0 s, then 0.5 s, 1 s, 2 s... (httpcore's back-off).
_BACKOFF = 0.5

#: A field name's bytes (RFC 9110 token), to strip from a name: what is left is not allowed.
_TOKEN_BYTES = b"!#$%&'*+-.^_`|~0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
#: Where a head (or a trailer section) ends: an empty line, with or without its CR (h11's rule).
_BLANK_LINE = re.compile(rb"\n\r?\n")
#: The status line without its CR, as h11 reads it (the reason phrase, and its space, optional).
_STATUS_LINE = re.compile(rb"HTTP/([0-9]\.[0-9]) ([0-9]{3})(?: ([^\x00\n\r\x0b\x0c]*))?")
#: A chunk-size line with its CRLF: the size, an extension of anything but line ends, blanks (h11's grammar).
_CHUNK_LINE = re.compile(rb"([0-9A-Fa-f]{1,20})(;[^\n]*)?[ \t]*\r\n")
#: Control characters, never in a chunk extension (RFC 9112 §7.1.1) or a header value sent.
_CONTROL = re.compile(rb"[\x00-\x08\x0a-\x1f\x7f]")

_LOGS = {"connection": logging.getLogger("httpcore.connection"), "http11": logging.getLogger("httpcore.http11")}
#: httpcore's ``trace`` extension: a callable awaited with each event's name and details.
Trace = Callable[[str, Mapping[str, Any]], Awaitable[None]]


#: Where a connection is; the module's table says what arriving bytes and the server's close do in each.
Phase = enum.Enum(
    "Phase", "NEW IDLE STALE HEAD LENGTH CHUNK_SIZE CHUNK_DATA CHUNK_END TRAILERS UNTIL_CLOSE DONE SPENT FAILED CLOSED"
)
NEW, IDLE, STALE, HEAD, LENGTH, CHUNK_SIZE, CHUNK_DATA = list(Phase)[:7]
CHUNK_END, TRAILERS, UNTIL_CLOSE, DONE, SPENT, FAILED, CLOSED = list(Phase)[7:]
#: An answer is being read: the caller waits for more, and the server's close ends or breaks it.
_READING = frozenset({HEAD, LENGTH, CHUNK_SIZE, CHUNK_DATA, CHUNK_END, TRAILERS, UNTIL_CLOSE})
#: Where an idle connection, or a whole answer's, goes when anything arrives (bytes or the server's close).
_UNREAD = {IDLE: STALE, DONE: SPENT}
#: The phases of httpcore's connection states, for ``info()`` and ``repr()``.
_HTTPCORE_STATE: dict[Phase, str] = {NEW: "NEW", IDLE: "IDLE", STALE: "IDLE", CLOSED: "CLOSED"}


class _Broken(Exception):
    """An answer that cannot be read: raised by a phase's reader, kept as the exchange's error."""


class HTTP11Connection(httpcore.AsyncConnectionInterface, asyncio.Protocol):
    """An HTTP/1.1 connection to ``origin``, opened by its first request, one request at a time."""

    def __init__(
        self,
        origin: httpcore.Origin,
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
        self._phase = NEW
        self._requests = 0
        self._expire_at: float | None = None
        self._loop: asyncio.AbstractEventLoop  # the running loop, set as each request begins
        self._transport: asyncio.Transport | None = None
        #: What the event loop reported on the way out (an ``OSError`` for a reset).
        self._lost: BaseException | None = None
        #: The exchange's error once FAILED.
        self._failure: httpcore.RemoteProtocolError | httpcore.ReadError | None = None
        self._waiter: asyncio.Future[None] | None = None
        self._drained: asyncio.Future[None] | None = None
        self._paused_reading = False
        self._paused_writing = False
        self._head_only = False
        self._sent_whole = False
        #: The start of the phase's unit that came in earlier arrivals (a head, a chunk-size line, trailers).
        self._pending = bytearray()
        self._head_bytes = 0
        self._interim = 0
        #: Bytes left: of the body (LENGTH), of the chunk (CHUNK_DATA), of the CRLF after it (CHUNK_END).
        self._remaining = 0
        self._keep_alive = False
        self._status = 0
        self._reason = b""
        self._version = b"1.1"
        self._headers: list[tuple[bytes, bytes]] = []
        self._chunks: collections.deque[bytes] = collections.deque()
        self._buffered = 0

    # -- httpcore's connection interface

    async def handle_async_request(self, request: httpcore.Request) -> httpcore.Response:
        if request.url.origin != self._origin:
            raise RuntimeError(f"Attempted to send request to {request.url.origin} on connection to {self._origin}")
        if self._phase is not NEW and self._phase is not IDLE:
            raise httpcore.ConnectionNotAvailable()
        self._begin(request.method == b"HEAD")
        # asked as the connection takes the request: the time a call spent waiting for it is gone
        timeouts = Deadline.of(request.extensions).timeouts(request.extensions, httpcore.PoolTimeout)
        trace: Trace | None = request.extensions.get("trace")
        if _LOGS["http11"].isEnabledFor(logging.DEBUG) or _LOGS["connection"].isEnabledFor(logging.DEBUG):
            trace = _Trace(trace)
        try:
            head, length = _head(request)  # refused before a connection is made for it
            if self._transport is None:
                await self._connect(request, timeouts.get("connect"), trace)
            await self._send(request, head, length, timeouts.get("write"), trace)
            await self._receive_head(request, timeouts.get("read"), trace)
        except BaseException:
            self._close()
            async with _Traced(trace, "http11.response_closed", {}):
                pass
            raise
        return httpcore.Response(
            self._status,
            headers=self._headers,
            content=_Body(self, request, timeouts.get("read"), trace),
            extensions={"http_version": b"HTTP/" + self._version, "reason_phrase": self._reason},
        )

    async def aclose(self) -> None:
        self._close()

    def info(self) -> str:
        return f"{str(self._origin)!r}, HTTP/1.1, {self._state()}, Request Count: {self._requests}"

    def __repr__(self) -> str:
        return f"<{type(self).__name__} [{str(self._origin)!r}, {self._state()}, Request Count: {self._requests}]>"

    def _state(self) -> str:
        return _HTTPCORE_STATE.get(self._phase, "ACTIVE")

    def can_handle_request(self, origin: httpcore.Origin) -> bool:
        return origin == self._origin

    def is_available(self) -> bool:
        return self._phase is IDLE

    def has_expired(self) -> bool:
        """Idle past its keep-alive, or something arrived while idle: it cannot serve another request."""
        if self._phase is STALE:
            return True
        return self._phase is IDLE and self._expire_at is not None and time.monotonic() > self._expire_at

    def is_idle(self) -> bool:
        return self._phase is IDLE or self._phase is STALE

    def is_closed(self) -> bool:
        return self._phase is CLOSED

    # -- opening

    async def _connect(self, request: httpcore.Request, timeout: float | None, trace: Trace | None) -> None:
        for attempt in range(self._retries + 1):
            try:
                await self._open(request, timeout, trace)
                return
            except (httpcore.ConnectError, httpcore.ConnectTimeout):
                if attempt == self._retries:
                    raise
            if trace is not None:
                await trace("connection.retry.started", {"request": request})
            await asyncio.sleep(0.0 if attempt == 0 else _BACKOFF * 2 ** (attempt - 1))

    async def _open(self, request: httpcore.Request, timeout: float | None, trace: Trace | None) -> None:
        host, port = self._origin.host.decode("ascii"), self._origin.port
        loop = self._loop
        # what a failed attempt's socket reported on its way out is not this one's
        self._transport, self._lost, self._phase, self._failure = None, None, HEAD, None
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
        """A new exchange: from here on, arriving bytes are its answer's head."""
        self._phase = HEAD
        self._loop = asyncio.get_running_loop()
        self._expire_at = None
        self._requests += 1
        self._head_only = head_only
        self._sent_whole = False
        self._pending = bytearray()
        self._head_bytes = self._interim = 0
        self._failure = None

    async def _send(
        self, request: httpcore.Request, head: bytes, length: int | None, timeout: float | None, trace: Trace | None
    ) -> None:
        """The request (its head and first body piece in one write); a ``WriteError`` is swallowed, as httpcore
        does: the server may have answered before it stopped reading."""
        phase = "http11.send_request_headers"
        try:
            if trace is not None:
                await trace(phase + ".started", {"request": request})
            chunked = length is None
            sent = 0
            first = True
            async for chunk in typing.cast(typing.AsyncIterable[bytes], request.stream):
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
            self._drained = future = self._loop.create_future()
            if not await self._until(future, timeout):
                raise httpcore.WriteTimeout("timed out writing to the server")
            if self._lost is not None:
                raise httpcore.WriteError(str(self._lost) or type(self._lost).__name__)

    # -- receiving (what the caller waits for)

    async def _receive_head(self, request: httpcore.Request, timeout: float | None, trace: Trace | None) -> None:
        async with _Traced(trace, "http11.receive_response_headers", {"request": request}):
            while self._phase is HEAD:
                await self._wait(timeout)
            self._raise_if_broken()

    async def _next_chunk(self, timeout: float | None) -> bytes | None:
        """The body's next piece (as it arrived, at most :data:`_PIECE` bytes), ``None`` at its end."""
        chunks = self._chunks
        while True:
            if chunks:
                piece = chunks.popleft()
                self._buffered -= len(piece)
                if not chunks:
                    self._emptied()
                return piece
            if self._phase is DONE or self._phase is SPENT:
                return None
            self._raise_if_broken()
            await self._wait(timeout)

    def _raise_if_broken(self) -> None:
        if self._phase is FAILED:
            assert self._failure is not None
            raise self._failure
        if self._phase is CLOSED:
            raise httpcore.ReadError("the connection was closed")

    def _emptied(self) -> None:
        """Nothing of the body is held any more: the socket is read again if it was paused."""
        self._chunks.clear()
        self._buffered = 0
        if self._paused_reading and self._transport is not None:
            self._paused_reading = False
            self._transport.resume_reading()

    def _response_closed(self) -> None:
        """The response is closed: the connection serves again only after a whole exchange it can go on from."""
        if self._phase is DONE and self._sent_whole:
            self._phase = IDLE
            self._emptied()  # a whole body the caller did not read
            self._headers = []
            if self._keepalive_expiry is not None:
                self._expire_at = time.monotonic() + self._keepalive_expiry
        else:
            self._close()

    def _close(self) -> None:
        self._phase = CLOSED
        self._chunks.clear()
        self._pending = bytearray()
        if self._transport is not None:
            # at once, without waiting on the peer: closing never suspends, so a cancelled caller still closes
            self._transport.abort()

    # -- waiting on the event loop

    async def _wait(self, timeout: float | None) -> None:
        self._waiter = future = self._loop.create_future()
        if not await self._until(future, timeout):
            raise httpcore.ReadTimeout("timed out reading from the server")

    async def _until(self, future: asyncio.Future[None], timeout: float | None) -> bool:
        """Await ``future``; ``False`` when ``timeout`` seconds passed first (a timer, not a cancellation)."""
        if timeout is None:
            await future
            return True
        timer = self._loop.call_later(timeout, _time_out, future)
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

    # -- asyncio's protocol callbacks: the phases' transitions

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self._transport = typing.cast(asyncio.Transport, transport)

    def data_received(self, data: bytes) -> None:
        """Read ``data`` phase by phase: each reader takes what its phase reads and says which phase is next."""
        at = 0
        try:
            while at < len(data):
                self._phase, at = _READERS[self._phase](self, data, at)
        except _Broken as exc:
            self._fail(httpcore.RemoteProtocolError(str(exc)))
        self._wake()

    def eof_received(self) -> bool:
        self._at_eof(None)
        return False  # the transport closes itself

    def connection_lost(self, exc: Exception | None) -> None:
        self._lost = exc
        self._at_eof(exc)
        self.resume_writing()  # a writer waiting for the drain wakes to the loss

    def _at_eof(self, exc: Exception | None) -> None:
        """The server closed the connection (or it broke, ``exc``): where that ends the answer, and how."""
        phase = self._phase
        if phase not in _READING:
            self._phase = _UNREAD.get(phase, phase)
        elif isinstance(exc, OSError):
            self._fail(httpcore.ReadError(str(exc) or type(exc).__name__))
        elif phase is HEAD:
            self._fail(httpcore.RemoteProtocolError("Server disconnected without sending a response."))
        elif phase is UNTIL_CLOSE:
            self._phase = SPENT
        else:
            self._fail(httpcore.RemoteProtocolError("peer closed connection without sending complete message body"))
        self._wake()

    def _fail(self, error: httpcore.RemoteProtocolError | httpcore.ReadError) -> None:
        self._phase = FAILED
        self._failure = error
        self._pending = bytearray()

    def pause_writing(self) -> None:
        self._paused_writing = True

    def resume_writing(self) -> None:
        self._paused_writing = False
        drained, self._drained = self._drained, None
        if drained is not None and not drained.done():
            drained.set_result(None)

    # -- the phases' readers: each reads ``data`` from ``at``, and returns the next phase and where it stopped

    def _read_nothing(self, data: bytes, at: int) -> tuple[Phase, int]:
        """Nothing may arrive between exchanges or after an answer: what does is not read."""
        return _UNREAD.get(self._phase, self._phase), len(data)

    def _read_head(self, data: bytes, at: int) -> tuple[Phase, int]:
        unit = self._unit(data, at)
        if not b"HTTP/".startswith(unit.buffer[unit.start : unit.start + 5]):
            raise _Broken(f"illegal status line: {_excerpt(bytes(unit.buffer[unit.start : unit.start + 60]))}")
        found = _BLANK_LINE.search(unit.buffer, unit.search)
        if found is None:
            return HEAD, self._keep(unit, data, at, "the response head is too long")
        head, at = self._take(unit, found.end(), at)
        self._head_bytes += len(head)
        lines = _lines(head)
        status_line = _STATUS_LINE.fullmatch(lines[0])
        if status_line is None:
            raise _Broken(f"illegal status line: {_excerpt(lines[0])}")
        version, code, reason = status_line.groups()
        status = int(code)
        if status < 100:
            raise _Broken(f"illegal status code {status}")
        self._reason = reason or b""
        self._headers, length, chunked, close = _fields(head, lines[1:])
        if status < 200:  # an interim answer: the real one follows
            if status == 101:
                raise _Broken("101 Switching Protocols: no protocol switch was asked for")
            self._interim += 1
            if self._interim > _MAX_INTERIM or self._head_bytes > _MAX_HEAD:
                raise _Broken(f"more than {_MAX_INTERIM} interim (1xx) answers or {_MAX_HEAD} bytes of heads")
            return HEAD, at
        self._status, self._version = status, version
        before_1_1 = version < b"1.1"
        if chunked and (length is not None or before_1_1):
            # RFC 9112 §6.3: both "ought to be handled as an error"; §6.1: in HTTP/1.0, faulty framing
            raise _Broken("Transfer-Encoding with Content-Length, or in an HTTP/1.0 answer: ambiguous framing")
        self._keep_alive = not (close or before_1_1)
        if self._head_only or status == 204 or status == 304:
            return self._complete(), at
        if chunked:
            return CHUNK_SIZE, at
        if length is None:
            self._keep_alive = False
            return UNTIL_CLOSE, at
        if length == 0:
            return self._complete(), at
        self._remaining = length
        return LENGTH, at

    def _read_length(self, data: bytes, at: int) -> tuple[Phase, int]:
        taken = self._body(data, at, self._remaining)
        self._remaining -= taken
        return (LENGTH if self._remaining else self._complete()), at + taken

    def _read_chunk_size(self, data: bytes, at: int) -> tuple[Phase, int]:
        unit = self._unit(data, at)
        end = unit.buffer.find(b"\r\n", max(unit.start, unit.search - 1))
        if end < 0:
            return CHUNK_SIZE, self._keep(unit, data, at, "a chunk-size line is too long")
        line, at = self._take(unit, end + 2, at)
        matched = _CHUNK_LINE.fullmatch(line)
        if matched is None:
            raise _Broken(f"illegal chunk header: {_excerpt(line)}")
        extension = matched.group(2)
        if extension and _CONTROL.search(extension):
            raise _Broken("a control character in a chunk extension")
        self._remaining = int(matched.group(1), 16)
        return (CHUNK_DATA if self._remaining else TRAILERS), at

    def _read_chunk_data(self, data: bytes, at: int) -> tuple[Phase, int]:
        taken = self._body(data, at, self._remaining)
        self._remaining -= taken
        if self._remaining:
            return CHUNK_DATA, at + taken
        self._remaining = 2  # the chunk's CRLF
        return CHUNK_END, at + taken

    def _read_chunk_end(self, data: bytes, at: int) -> tuple[Phase, int]:
        expected = b"\r\n"[2 - self._remaining :]
        got = data[at : at + len(expected)]
        if not expected.startswith(got):
            raise _Broken(f"malformed chunk footer: {got!r} (expected {expected!r})")
        self._remaining -= len(got)
        return (CHUNK_END if self._remaining else CHUNK_SIZE), at + len(got)

    def _read_trailers(self, data: bytes, at: int) -> tuple[Phase, int]:
        unit = self._unit(data, at)
        first = unit.buffer[unit.start : unit.start + 2]
        empty = 1 if first[:1] == b"\n" else 2 if first == b"\r\n" else 0
        if empty:  # no trailer fields: the empty line ends the body
            _, at = self._take(unit, unit.start + empty, at)
            return self._complete(), at
        found = _BLANK_LINE.search(unit.buffer, unit.search)
        if found is None:
            return TRAILERS, self._keep(unit, data, at, "the trailer section is too long")
        section, at = self._take(unit, found.end(), at)
        # checked as a head's fields are, then dropped: a trailer never acts as a header
        _fields(section, _lines(section))
        return self._complete(), at

    def _read_until_close(self, data: bytes, at: int) -> tuple[Phase, int]:
        return UNTIL_CLOSE, at + self._body(data, at, len(data) - at)

    def _complete(self) -> Phase:
        """The answer is whole: DONE when the connection may serve again, SPENT when it may not."""
        return DONE if self._keep_alive else SPENT

    # a unit (a head, a chunk-size line, trailers) may come in pieces: a bytearray keeps a dripped head linear

    def _unit(self, data: bytes, at: int) -> _Unit:
        """The unit read so far: in ``data`` from ``at``, or ``data`` added to what is pending."""
        pending = self._pending
        if not pending:
            return _Unit(data, at, at, 0)
        before = len(pending)
        pending += memoryview(data)[at:]
        return _Unit(pending, 0, max(0, before - 2), before)

    def _keep(self, unit: _Unit, data: bytes, at: int, too_long: str) -> int:
        """No end yet: the unit waits for more (all of ``data`` is read), unless it is already too long."""
        if len(unit.buffer) - unit.start > _MAX_HEAD:
            raise _Broken(too_long)
        if unit.buffer is data:
            self._pending = bytearray(memoryview(data)[at:])
        return len(data)

    def _take(self, unit: _Unit, end: int, at: int) -> tuple[bytes, int]:
        """The unit, which ends at ``end`` in its buffer, and where ``data`` goes on after it."""
        if not unit.before:
            return bytes(unit.buffer[unit.start : end]), end  # (a slice of bytes is bytes already: no copy)
        taken = bytes(unit.buffer[:end])
        self._pending = bytearray()
        return taken, at + end - unit.before

    def _body(self, data: bytes, at: int, wanted: int) -> int:
        """Up to ``wanted`` body bytes from ``data`` at ``at``, in pieces of at most :data:`_PIECE`; how many."""
        end = min(len(data), at + wanted)
        chunks = self._chunks
        if at == 0 and end == len(data) and end <= _PIECE:
            chunks.append(data)
        else:
            chunks.extend(data[start : min(end, start + _PIECE)] for start in range(at, end, _PIECE))
        self._buffered += end - at
        if self._buffered > _HIGH_WATER and not self._paused_reading and self._transport is not None:
            self._paused_reading = True
            self._transport.pause_reading()
        return end - at


class _Unit(typing.NamedTuple):
    """A unit's bytes in ``buffer`` from ``start``, where its end is sought from, how many came before."""

    buffer: bytes | bytearray
    start: int
    search: int
    before: int


_READERS: dict[Phase, Callable[[HTTP11Connection, bytes, int], tuple[Phase, int]]] = {
    **dict.fromkeys(Phase, HTTP11Connection._read_nothing),
    HEAD: HTTP11Connection._read_head,
    LENGTH: HTTP11Connection._read_length,
    CHUNK_SIZE: HTTP11Connection._read_chunk_size,
    CHUNK_DATA: HTTP11Connection._read_chunk_data,
    CHUNK_END: HTTP11Connection._read_chunk_end,
    TRAILERS: HTTP11Connection._read_trailers,
    UNTIL_CLOSE: HTTP11Connection._read_until_close,
}


# -- reading a head


def _lines(head: bytes) -> list[bytes]:
    """A head's lines without their line ends (CRLF or LF); NUL, VT, FF or a CR not before an LF is refused."""
    if b"\0" in head or b"\x0b" in head or b"\x0c" in head or head.count(b"\r") != head.count(b"\r\n"):
        raise _Broken(f"illegal characters in the response head: {_excerpt(head)}")
    lines = head.split(b"\n")
    del lines[-2:]
    return [line[:-1] if line[-1:] == b"\r" else line for line in lines]


def _fields(section: bytes, lines: list[bytes]) -> tuple[list[tuple[bytes, bytes]], int | None, bool, bool]:
    """The lines of a head (or a trailer section, ``section``) as fields, checked and normalized as h11 does:
    tokens for names, one length however often repeated, no transfer coding but ``chunked`` (lowercased); with
    the ``Content-Length`` (or ``None``), whether chunked, whether ``Connection: close``."""
    if b"\n " in section or b"\n\t" in section or section[:1] == b" " or section[:1] == b"\t":
        lines = _unfolded(lines)
    fields: list[tuple[bytes, bytes]] = []
    length: bytes | None = None
    chunked = close = False
    for line in lines:
        name, colon, value = line.partition(b":")
        if not colon or not name or name.translate(None, _TOKEN_BYTES):
            raise _Broken(f"illegal header line: {_excerpt(line)}")
        value = value.strip(b" \t")
        size = len(name)
        if size == 14 and name.lower() == b"content-length":
            if not value.isdigit():  # a list, each the same: one length
                lengths = {part.strip() for part in value.split(b",")}
                if len(lengths) != 1:
                    raise _Broken("conflicting Content-Length headers")
                value = lengths.pop()
                if not value.isdigit():
                    raise _Broken("bad Content-Length")
            if len(value) > 20:
                raise _Broken("bad Content-Length")
            if length is not None:
                if value != length:
                    raise _Broken("conflicting Content-Length headers")
                continue  # the same again: h11 keeps one
            length = value
        elif size == 17 and name.lower() == b"transfer-encoding":
            if chunked:
                raise _Broken("multiple Transfer-Encoding headers")
            value = value.lower()
            if value != b"chunked":
                raise _Broken("Only Transfer-Encoding: chunked is supported")
            chunked = True
        elif size == 10 and not close and name.lower() == b"connection":
            close = b"close" in [part.strip() for part in value.lower().split(b",")]
        fields.append((name, value))
    return fields, None if length is None else int(length), chunked, close


def _unfolded(lines: list[bytes]) -> list[bytes]:
    """Lines that start with blanks joined to the line before with one space (obs-fold, which RFC 9112 §5.2
    says a user agent must accept), as h11 joins them."""
    joined: list[bytes] = []
    for line in lines:
        if line[:1] == b" " or line[:1] == b"\t":
            if not joined:
                raise _Broken("continuation line at start of headers")
            joined[-1] += b" " + line.lstrip(b" \t")
        else:
            joined.append(line)
    return joined


def _excerpt(data: bytes) -> str:
    return repr(data[:60]) + ("..." if len(data) > 60 else "")


@dataclasses.dataclass(slots=True, eq=False)
class _Body:
    """A response's body as httpcore gives it: iterate for the bytes, close to end the exchange."""

    _connection: HTTP11Connection
    _request: httpcore.Request
    _timeout: float | None
    _trace: Trace | None
    _started: bool = False
    _closed: bool = False

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


@dataclasses.dataclass(slots=True, eq=False)
class _Trace:
    """A request's phases for httpcore's loggers, and for the ``trace`` extension's callable when there is one."""

    _extension: Trace | None

    async def __call__(self, event: str, info: Mapping[str, Any]) -> None:
        if self._extension is not None:
            await self._extension(event, info)
        area, name = event.split(".", 1)
        log = _LOGS[area]
        if log.isEnabledFor(logging.DEBUG):
            quiet = not info or ("return_value" in info and info["return_value"] is None)
            log.debug(name if quiet else name + " " + " ".join(f"{key}={value!r}" for key, value in info.items()))


@dataclasses.dataclass(slots=True, eq=False)
class _Traced:
    """httpcore's trace events around one phase: ``<name>.started``, then ``.complete`` or ``.failed``."""

    _trace: Trace | None
    _name: str
    _info: Mapping[str, Any]

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
    # a line break or NUL of its own in any part would smuggle in a header (or a request)
    lines = len(request.headers) + 2
    if head.count(b"\n") != lines or head.count(b"\r") != lines or b"\0" in head:
        raise httpcore.LocalProtocolError(_illegal(request))
    return head, length


def _illegal(request: httpcore.Request) -> str:
    """What is wrong in a request head (never a header's value: it may be a secret)."""
    for name, value in request.headers:
        if not name or name.translate(None, _TOKEN_BYTES):
            return f"Illegal header name {name!r}"
        if _CONTROL.search(value):
            return f"Illegal header value (header {name.decode('ascii', 'replace')!r})"
    return "Illegal request method or target"


def close_if_strays(stream: object) -> bool:
    """Whether ``stream`` (an httpcore pool's response stream) has an h11 connection; if bytes arrived after its
    complete answer, mark it failed, so httpcore closes it rather than hand those bytes to the next request.

    It reaches h11 through httpcore's private attributes (tests/wheel/shims.py checks them).
    """
    found: Any = getattr(getattr(stream, "_pool_request", None), "connection", None)
    for _ in range(4):
        state = getattr(found, "_h11_state", None)
        if isinstance(state, h11.Connection):
            if state.their_state is h11.DONE and state.trailing_data[0]:
                with contextlib.suppress(h11.LocalProtocolError):
                    state.send_failed()
            return True
        found = getattr(found, "_connection", None)
    return False
