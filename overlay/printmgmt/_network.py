"""httpcore's network backend over asyncio's transports and protocols, for the SDK's connection pool.

httpcore's own backend for asyncio goes through anyio's streams; this one reads straight from a protocol's
buffer, times a read with one ``call_later`` rather than a cancel scope, and tells whether an idle
connection was closed by the server from what the event loop already delivered (no socket poll). Errors
are httpcore's, as its own backends raise them, so httpx maps them alike.
"""

from __future__ import annotations

import asyncio
import ssl
import typing
from collections.abc import Iterable
from typing import Any

import httpcore

__all__ = ["AsyncioBackend"]

#: Bytes buffered from the server past which the socket is not read until the caller has taken some.
_HIGH_WATER = 256 * 1024

#: A ``setsockopt`` argument tuple, as httpcore types it.
SocketOption = tuple[int, int, int] | tuple[int, int, bytes | bytearray] | tuple[int, int, None, int]


class AsyncioBackend(httpcore.AsyncNetworkBackend):
    """TCP connections, with TLS started on them, as ``httpcore.AsyncNetworkStream``\\ s (no Unix sockets)."""

    async def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[SocketOption] | None = None,
    ) -> httpcore.AsyncNetworkStream:
        if socket_options:
            raise httpcore.UnsupportedProtocol("socket options need httpx's own transport")
        loop = asyncio.get_running_loop()
        try:
            async with asyncio.timeout(timeout):
                transport, protocol = await loop.create_connection(
                    lambda: _Protocol(loop), host, port, local_addr=(local_address, 0) if local_address else None
                )
        except TimeoutError:
            raise httpcore.ConnectTimeout(f"timed out connecting to {host}:{port}") from None
        except OSError as exc:
            raise httpcore.ConnectError(str(exc) or type(exc).__name__) from exc
        return _Stream(transport, protocol)

    async def connect_unix_socket(
        self, path: str, timeout: float | None = None, socket_options: Iterable[SocketOption] | None = None
    ) -> httpcore.AsyncNetworkStream:
        raise httpcore.UnsupportedProtocol("Unix sockets need httpx's own transport")

    async def sleep(self, seconds: float) -> None:
        await asyncio.sleep(seconds)


class _Protocol(asyncio.Protocol):
    """What the event loop delivers for one connection, until the stream reads it."""

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self.loop = loop
        self.transport: asyncio.Transport | None = None
        self.buffer = bytearray()
        self.eof = False
        self.error: BaseException | None = None
        self.reader: asyncio.Future[None] | None = None
        self.writer: asyncio.Future[None] | None = None
        self.paused_reading = False
        self.paused_writing = False

    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = typing.cast(asyncio.Transport, transport)

    def data_received(self, data: bytes) -> None:
        self.buffer += data
        if len(self.buffer) > _HIGH_WATER and self.transport is not None and not self.paused_reading:
            self.paused_reading = True
            self.transport.pause_reading()
        self._wake_reader()

    def eof_received(self) -> bool:
        self.eof = True
        self._wake_reader()
        return False  # the transport closes itself

    def connection_lost(self, exc: Exception | None) -> None:
        self.eof = True
        self.error = exc
        self._wake_reader()
        writer, self.writer = self.writer, None
        if writer is not None and not writer.done():
            writer.set_result(None)

    def pause_writing(self) -> None:
        self.paused_writing = True

    def resume_writing(self) -> None:
        self.paused_writing = False
        writer, self.writer = self.writer, None
        if writer is not None and not writer.done():
            writer.set_result(None)

    def _wake_reader(self) -> None:
        reader, self.reader = self.reader, None
        if reader is not None and not reader.done():
            reader.set_result(None)


def _time_out(future: asyncio.Future[None]) -> None:
    if not future.done():
        future.set_exception(TimeoutError())


async def _wait(protocol: _Protocol, future: asyncio.Future[None], timeout: float | None) -> None:
    """Await ``future``; ``TimeoutError`` after ``timeout`` seconds (a timer, not a cancellation)."""
    if timeout is None:
        await future
        return
    timer = protocol.loop.call_later(timeout, _time_out, future)
    try:
        await future
    finally:
        timer.cancel()


class _Stream(httpcore.AsyncNetworkStream):
    __slots__ = ("_protocol", "_transport")

    def __init__(self, transport: asyncio.Transport, protocol: _Protocol) -> None:
        self._transport = transport
        self._protocol = protocol

    async def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        protocol = self._protocol
        if not protocol.buffer and not protocol.eof:
            protocol.reader = future = protocol.loop.create_future()
            try:
                await _wait(protocol, future, timeout)
            except TimeoutError:
                raise httpcore.ReadTimeout("timed out reading from the server") from None
        buffer = protocol.buffer
        if buffer:
            data = bytes(buffer[:max_bytes])
            del buffer[:max_bytes]
            if protocol.paused_reading and len(buffer) <= _HIGH_WATER // 4:
                protocol.paused_reading = False
                self._transport.resume_reading()
            return data
        if protocol.error is not None:
            raise httpcore.ReadError(str(protocol.error) or type(protocol.error).__name__) from protocol.error
        return b""

    async def write(self, buffer: bytes, timeout: float | None = None) -> None:
        # as anyio's streams do for httpcore: even an empty write fails on a connection known to be closed
        protocol = self._protocol
        if protocol.error is not None or self._transport.is_closing():
            raise httpcore.WriteError(str(protocol.error or "the connection is closed"))
        if not buffer:
            return
        self._transport.write(buffer)
        if self._transport.is_closing():  # the send itself failed (reset, broken pipe): asyncio closed it
            raise httpcore.WriteError("the connection broke while sending")
        if protocol.paused_writing:
            protocol.writer = future = protocol.loop.create_future()
            try:
                await _wait(protocol, future, timeout)
            except TimeoutError:
                raise httpcore.WriteTimeout("timed out writing to the server") from None
            if protocol.error is not None:
                raise httpcore.WriteError(str(protocol.error) or type(protocol.error).__name__) from protocol.error

    async def aclose(self) -> None:
        # at once, without waiting on the peer: closing never suspends, so a cancelled caller still closes
        self._transport.abort()

    async def start_tls(
        self, ssl_context: ssl.SSLContext, server_hostname: str | None = None, timeout: float | None = None
    ) -> httpcore.AsyncNetworkStream:
        loop = self._protocol.loop
        try:
            async with asyncio.timeout(timeout):
                transport = await loop.start_tls(
                    self._transport, self._protocol, ssl_context, server_hostname=server_hostname
                )
        except BaseException as exc:
            self._transport.abort()
            if isinstance(exc, TimeoutError):
                raise httpcore.ConnectTimeout("timed out in the TLS handshake") from None
            if isinstance(exc, OSError):  # ssl.SSLError included
                raise httpcore.ConnectError(str(exc) or type(exc).__name__) from exc
            raise
        if transport is None:  # the connection closed during the handshake
            raise httpcore.ConnectError("the server closed the connection during the TLS handshake")
        self._protocol.transport = transport  # flow control now goes through TLS
        return _Stream(transport, self._protocol)

    def get_extra_info(self, info: str) -> Any:
        if info == "is_readable":
            # idle, anything that arrived (data or the server's close) means the connection cannot be reused
            protocol = self._protocol
            return bool(protocol.buffer) or protocol.eof
        name = {"ssl_object": "ssl_object", "client_addr": "sockname", "server_addr": "peername"}.get(info, info)
        return self._transport.get_extra_info(name)
