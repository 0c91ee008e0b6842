"""The sync client's transport: httpx's own (httpcore's pool and connection, h11 reading), stricter where
httpx would cross answers or hang.

- Any byte after a complete answer closes its connection: h11 keeps bytes that arrived with an answer (a
  second answer in the same read) for the connection's next cycle, which httpcore would hand, as its
  answer, to the next request. (Bytes that arrive while a connection idles are httpcore's own concern: it
  drops a connection that is readable when idle.)
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator
from typing import Any

import h11
import httpx

__all__ = ["GuardedTransport"]


class GuardedTransport(httpx.HTTPTransport):
    """``httpx.HTTPTransport`` (the same arguments) whose connections are never reused after stray bytes."""

    def handle_request(self, request: httpx.Request) -> httpx.Response:
        response = super().handle_request(request)
        assert isinstance(response.stream, httpx.SyncByteStream)
        response.stream = _Guarded(response.stream)
        return response


class _Guarded(httpx.SyncByteStream):
    """A response body that, when closed, closes its connection if bytes beyond the answer arrived with it."""

    def __init__(self, stream: httpx.SyncByteStream) -> None:
        self._stream = stream

    def __iter__(self) -> Iterator[bytes]:
        yield from self._stream

    def close(self) -> None:
        state = _h11_state(self._stream)
        if state is not None and state.their_state is h11.DONE and state.trailing_data[0]:
            # an answer already complete with bytes after it: marking our side failed makes httpcore close the
            # connection as the response closes, before the pool can give it to another request
            with contextlib.suppress(h11.LocalProtocolError):
                state.send_failed()
        self._stream.close()


def _h11_state(stream: object) -> h11.Connection | None:
    """The h11 connection under an httpx response stream (httpcore's private attributes: tests/wheel/shims.py
    checks them): the pool's stream, its request's connection, the HTTP/1.1 connection under it."""
    found: Any = getattr(getattr(getattr(stream, "_httpcore_stream", None), "_pool_request", None), "connection", None)
    for _ in range(4):  # a proxy's connection wraps the HTTP/1.1 one
        state = getattr(found, "_h11_state", None)
        if isinstance(state, h11.Connection):
            return state
        found = getattr(found, "_connection", None)
    return None
