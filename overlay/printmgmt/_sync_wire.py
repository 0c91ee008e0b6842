"""The sync client's transport: httpx's own (httpcore's pool, h11 reading), stricter where httpx would cross
answers or hang."""

from __future__ import annotations

import contextvars
import dataclasses
from collections.abc import Iterable, Iterator
from typing import Any

import httpcore
import httpx

from ._deadline import Deadline
from ._http11 import close_if_strays

__all__ = ["GuardedTransport"]


#: Most bytes read before an answer's head is complete, 1xx answers included (h11's 100 KiB, plus a read).
HEAD_LIMIT = 256 * 1024


class GuardedTransport(httpx.HTTPTransport):
    """``httpx.HTTPTransport`` (its arguments but ``uds``) whose connections are closed after bytes beyond a complete
    answer (h11 would hand them to the next request), whose answer heads, 1xx answers included, are bounded in size,
    and whose every socket operation ends by the call's ``deadline`` (a head dripped a byte at a time resets httpx's
    per-read timeout)."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        # httpcore's pool (or proxy pool) connects through this backend (private: tests/wheel/shims.py checks it)
        pool: Any = self._pool
        pool._network_backend = _Backend(pool._network_backend)

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        call = _Call(Deadline.of(request.extensions))
        token = _CALL.set(call)
        try:
            response = super().handle_request(request)
        finally:
            _CALL.reset(token)
        call.heading = False
        assert isinstance(response.stream, httpx.SyncByteStream)
        response.stream = _Guarded(response.stream, call)
        return response


@dataclasses.dataclass(slots=True)
class _Call:
    """One request's bounds, seen by the network streams of its connection while it runs."""

    deadline: Deadline
    #: Whether the answer's head is still being read, and how many bytes have been.
    heading: bool = True
    head: int = 0


#: The request the current thread's transport is handling (httpcore reads and writes in the caller's thread).
_CALL: contextvars.ContextVar[_Call | None] = contextvars.ContextVar("printmgmt_sync_call", default=None)


def _bound(timeout: float | None, expired: type[Exception]) -> float | None:
    call = _CALL.get()
    return timeout if call is None else call.deadline.within(timeout, expired)


@dataclasses.dataclass(eq=False)
class _Stream(httpcore.NetworkStream):
    """A connection's stream that keeps each operation within its request's bounds."""

    _stream: httpcore.NetworkStream

    def read(self, max_bytes: int, timeout: float | None = None) -> bytes:
        data = self._stream.read(max_bytes, _bound(timeout, httpcore.ReadTimeout))
        if (call := _CALL.get()) is not None and call.heading:
            call.head += len(data)
            if call.head > HEAD_LIMIT:
                raise httpcore.RemoteProtocolError(
                    f"the answer's head, with the 1xx answers before it, is over {HEAD_LIMIT} bytes"
                )
        return data

    def write(self, buffer: bytes, timeout: float | None = None) -> None:
        self._stream.write(buffer, _bound(timeout, httpcore.WriteTimeout))

    def close(self) -> None:
        self._stream.close()

    def start_tls(
        self, ssl_context: Any, server_hostname: str | None = None, timeout: float | None = None
    ) -> httpcore.NetworkStream:
        bounded = _bound(timeout, httpcore.ConnectTimeout)
        return _Stream(self._stream.start_tls(ssl_context, server_hostname, bounded))

    def get_extra_info(self, info: str) -> Any:
        return self._stream.get_extra_info(info)


@dataclasses.dataclass(eq=False)
class _Backend(httpcore.NetworkBackend):
    _backend: httpcore.NetworkBackend

    def connect_tcp(
        self,
        host: str,
        port: int,
        timeout: float | None = None,
        local_address: str | None = None,
        socket_options: Iterable[Any] | None = None,
    ) -> httpcore.NetworkStream:
        bounded = _bound(timeout, httpcore.ConnectTimeout)
        return _Stream(self._backend.connect_tcp(host, port, bounded, local_address, socket_options))


@dataclasses.dataclass(eq=False)
class _Guarded(httpx.SyncByteStream):
    """A response body read within its request's bounds that, when closed, closes its connection if bytes
    beyond the answer arrived with it."""

    _stream: httpx.SyncByteStream
    _call: _Call

    def __iter__(self) -> Iterator[bytes]:
        parts = iter(self._stream)
        while True:
            token = _CALL.set(self._call)
            try:
                part = next(parts, None)
            finally:
                _CALL.reset(token)
            if part is None:
                return
            yield part

    def close(self) -> None:
        close_if_strays(getattr(self._stream, "_httpcore_stream", None))
        self._stream.close()
