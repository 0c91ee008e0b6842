"""An httpx transport over aiohttp's connection pool: ``PrintClient(..., transport="aiohttp")``.

httpx keeps doing everything above the wire (auth flow, redirects off, decoding, timeouts per request);
aiohttp sends and receives, with its C-accelerated HTTP parser, which costs less CPU per call than
httpcore on a busy client. Needs the extra ``printmgmt[aiohttp]``.

Written here rather than taken from ``httpx-aiohttp`` because the retry policy depends on telling a
connection that was never made from one that dropped after the request went out: that package maps
aiohttp's ``ClientConnectionError`` family (which includes a server disconnecting mid-answer) to
``httpx.ConnectTimeout``, which would make a dropped ``POST`` look safe to send again.
"""

from __future__ import annotations

import asyncio
import ssl
from collections.abc import AsyncIterator, Awaitable, Callable, Iterator
from contextlib import contextmanager
from typing import Any

import aiohttp
import httpx
from multidict import CIMultiDict, CIMultiDictProxy

from ._deadline import Deadline
from .errors import ConfigurationError

__all__ = ["AiohttpTransport"]

_CHUNK = 64 * 1024


class AiohttpTransport(httpx.AsyncBaseTransport):
    """Sends httpx requests with aiohttp: one ``aiohttp.ClientSession``, made on first use, in the event loop
    of that use (as an ``httpx.AsyncHTTPTransport``, it serves one loop; ``PrintClient(transport="aiohttp")``
    makes one per loop).

    ``verify`` is ``True``, ``False`` or an ``ssl.SSLContext``; ``limits.max_connections`` bounds the pool and
    ``limits.keepalive_expiry`` how long an idle connection is kept. Every request goes through ``proxy`` when
    given (an HTTP or HTTPS proxy: aiohttp has no SOCKS; HTTPS through ``CONNECT``).
    """

    def __init__(
        self,
        *,
        verify: bool | ssl.SSLContext = True,
        limits: httpx.Limits | None = None,
        proxy: httpx.Proxy | None = None,
    ) -> None:
        self._ssl: bool | ssl.SSLContext = ssl.create_default_context() if verify is True else verify
        self._limits = limits or httpx.Limits(max_connections=100, max_keepalive_connections=20)
        self._proxy = _proxy_options(proxy)
        # aiohttp sends proxy_headers with a CONNECT only; a request forwarded in plain HTTP carries them itself
        self._forwarded_headers = list(self._proxy.get("proxy_headers", {}).items())
        self._session: aiohttp.ClientSession | None = None

    def _new_session(self) -> aiohttp.ClientSession:
        connector = _GuardedConnector(
            limit=self._limits.max_connections or 0,
            keepalive_timeout=self._limits.keepalive_expiry if self._limits.keepalive_expiry is not None else 15.0,
            ssl=self._ssl,
        )
        # httpx sets Host, Accept, Accept-Encoding, Connection and User-Agent itself, and decodes bodies itself
        return aiohttp.ClientSession(
            connector=connector,
            auto_decompress=False,
            skip_auto_headers=("User-Agent", "Accept-Encoding"),
            middlewares=(_no_silent_resend,),
            response_class=_Response,
        )

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        timeout = Deadline.of(request.extensions).timeouts(request.extensions, httpx.PoolTimeout)
        try:
            data: Any = request.content or None
        except httpx.RequestNotRead:
            data = request.stream
        headers = [(k.decode("latin-1"), v.decode("latin-1")) for k, v in request.headers.raw]
        if self._forwarded_headers and request.url.scheme == "http":
            headers += self._forwarded_headers
        upload = aiohttp.UploadTracker()  # whether the whole request went out, when the connection breaks
        try:
            with _mapped(request, sent=lambda: _sent_whole(upload)):
                if self._session is None:
                    self._session = self._new_session()
                response = await self._session.request(
                    request.method,
                    str(request.url),
                    headers=headers,
                    data=data,
                    allow_redirects=False,
                    compress=False,
                    timeout=aiohttp.ClientTimeout(
                        total=None,
                        connect=timeout.get("pool"),
                        sock_connect=timeout.get("connect"),
                        sock_read=timeout.get("read"),
                    ),
                    upload_tracker=upload,
                    **self._proxy,
                )
        finally:  # also when cancelled (a call's deadline): how far sending got is known only here
            await _report_sent(request, upload)
        if codings := _transfer_codings(response):
            response.close()  # the body's framing cannot be trusted: neither is the connection
            raise httpx.RemoteProtocolError(
                f"the answer's Transfer-Encoding is {codings!r}: only chunked alone is read (as httpx reads it)",
                request=request,
            )
        extensions: dict[str, Any] = {"http_version": b"HTTP/1.1"}
        if response.reason:
            extensions["reason_phrase"] = response.reason.encode("latin-1", "replace")
        return httpx.Response(
            status_code=response.status,
            headers=response.raw_headers,
            stream=_ResponseStream(request, response),
            request=request,
            extensions=extensions,
        )

    async def aclose(self) -> None:
        session, self._session = self._session, None
        if session is not None and not session.closed:
            await session.close()


def _proxy_options(proxy: httpx.Proxy | None) -> dict[str, Any]:
    """aiohttp's request arguments that send through ``proxy`` (its credentials as a ``Proxy-Authorization``)."""
    if proxy is None:
        return {}
    if proxy.url.scheme not in ("http", "https"):
        raise ConfigurationError(
            f"transport='aiohttp' cannot go through a {proxy.url.scheme}:// proxy ({proxy.url.host}): aiohttp speaks "
            "to HTTP and HTTPS proxies only; use the default transport, or an HTTP proxy"
        )
    if proxy.ssl_context is not None:
        raise ConfigurationError("transport='aiohttp' cannot take a proxy's own ssl_context; use the default transport")
    headers = dict(proxy.headers)
    if proxy.auth is not None:
        headers["Proxy-Authorization"] = aiohttp.encode_basic_auth(*proxy.auth)  # UTF-8, as httpx encodes it
    return {"proxy": str(proxy.url), "proxy_headers": headers}


class _GuardedConnector(aiohttp.TCPConnector):
    """aiohttp's pool, which never hands out a connection that read bytes while it idled: aiohttp parses them
    as the answer to the next request sent on it (a server, or a middlebox, can smuggle an answer so), or drops
    the start of one with the parser it replaces; either way the connection is not the server's to trust."""

    def _release(self, key: Any, protocol: Any, *, should_close: bool = False) -> None:
        super()._release(key, protocol, should_close=should_close)
        if protocol.transport is not None and not protocol.should_close:  # kept in the pool: watch it idle
            received = protocol.data_received

            def while_idle(data: bytes) -> None:
                if data:  # aiohttp calls it without data to resume decompressing
                    protocol.printmgmt_idle_bytes = True
                received(data)

            protocol.data_received = while_idle

    async def connect(self, req: aiohttp.ClientRequest, traces: list[Any], timeout: aiohttp.ClientTimeout) -> Any:
        while True:
            connection = await super().connect(req, traces, timeout)
            protocol = connection.protocol
            if protocol is not None and "data_received" in vars(protocol):
                del protocol.data_received  # busy again: the class's own reading
            # should_close: a parsed answer or unparsed bytes wait in the connection (aiohttp's own test when a
            # response is released; tests/wheel/shims.py checks it); printmgmt_idle_bytes: part of one does
            if protocol is None or not (protocol.should_close or vars(protocol).pop("printmgmt_idle_bytes", False)):
                return connection
            connection.close()


#: Most bytes of 1xx answers read before the final answer's head (as the sync client bounds a head with them).
INTERIM_LIMIT = 256 * 1024


class _Response(aiohttp.ClientResponse):
    """aiohttp's response, whose head is read with 1xx answers bounded: aiohttp's read timeout stops at the
    end of a 1xx answer (its empty body ends it) and aiohttp reads any number of them, so each read after one
    is bounded by the read timeout here, and their total size like an over-long head."""

    async def start(self, connection: aiohttp.connector.Connection) -> aiohttp.ClientResponse:
        protocol = connection.protocol
        if protocol is None:
            return await super().start(connection)
        read = protocol.read
        interim = 0

        async def bounded() -> Any:
            nonlocal interim
            if not interim:
                message, payload = await read()
            else:
                try:
                    async with asyncio.timeout(protocol.read_timeout):
                        message, payload = await read()
                except TimeoutError:
                    raise aiohttp.SocketTimeoutError("timed out reading the answer after a 1xx answer") from None
            if 100 <= message.code <= 199 and message.code != 101:
                interim += 32 + len(message.reason) + sum(len(k) + len(v) + 4 for k, v in message.raw_headers)
                if interim > INTERIM_LIMIT:
                    raise aiohttp.ClientResponseError(
                        self.request_info,
                        (),
                        status=message.code,
                        message=f"over {INTERIM_LIMIT} bytes of 1xx answers before the answer's head",
                    )
            return message, payload

        protocol.read = bounded  # type: ignore[method-assign]
        try:
            return await super().start(connection)
        finally:
            del protocol.read  # the class's own again, for the connection's next request


class _Dropped(Exception):
    """A connection dropped while aiohttp sent a request or waited for its answer: aiohttp's ``error``, carried
    past aiohttp's own resend (not chained: the error goes on as it was raised)."""

    def __init__(self, error: aiohttp.ClientError) -> None:
        super().__init__(error)
        self.error = error


async def _no_silent_resend(
    request: aiohttp.ClientRequest, handler: Callable[[aiohttp.ClientRequest], Awaitable[aiohttp.ClientResponse]]
) -> aiohttp.ClientResponse:
    """aiohttp sends a GET, PUT or DELETE again, silently, when a reused connection drops; it does so only for
    the errors it raises itself, so this middleware hands them on as another. The retry policy decides about
    a resend (a PUT is an action here), and counts it."""
    try:
        return await handler(request)
    except (aiohttp.ClientOSError, aiohttp.ServerDisconnectedError) as exc:
        dropped = _Dropped(exc)
    raise dropped  # outside the except block: the wrapper chains to nothing, so no chain loops back


class _ResponseStream(httpx.AsyncByteStream):
    def __init__(self, request: httpx.Request, response: aiohttp.ClientResponse) -> None:
        self._request = request
        self._response = response

    async def __aiter__(self) -> AsyncIterator[bytes]:
        with _mapped(self._request, sent=lambda: True):
            async for chunk in self._response.content.iter_chunked(_CHUNK):
                yield chunk

    async def aclose(self) -> None:
        # back to the pool when the body was read whole; closed otherwise
        self._response.release()


def _transfer_codings(response: aiohttp.ClientResponse) -> str | None:
    """The answer's transfer codings when they are other than ``chunked`` alone (aiohttp would hand the body
    still coded, a compressed download written as the file), else ``None``."""
    codings = ", ".join(response.headers.getall("Transfer-Encoding", ()))
    if not codings or [part.strip().lower() for part in codings.split(",")] == ["chunked"]:
        return None
    return codings


async def _report_sent(request: httpx.Request, upload: aiohttp.UploadTracker) -> None:
    """Tell the request's ``trace`` extension, as httpcore does, that the whole request went out."""
    trace = request.extensions.get("trace")
    if trace is not None and _sent_whole(upload):
        await trace("http11.send_request_body.complete", {"request": request})


def _sent_whole(upload: aiohttp.UploadTracker) -> bool:
    """Whether aiohttp handed the whole request (head and body) to the connection."""
    done = upload.upload_complete
    return done.done() and not done.cancelled() and done.exception() is None


@contextmanager
def _mapped(request: httpx.Request, *, sent: Callable[[], bool]) -> Iterator[None]:
    """aiohttp's exceptions as the httpx ones httpcore raises at the same point (others pass as they are), so
    that the retry policy and the error classes read both transports alike; ``sent()``: whether the whole
    request had gone out when it failed."""
    try:
        yield
    except BaseException as raised:
        exc = raised.error if isinstance(raised, _Dropped) else raised
        _scrub(exc)
        mapped = _as_httpx(exc, request, sent=sent())
        if mapped is None:
            raise
        raise mapped from exc


def _as_httpx(exc: BaseException, request: httpx.Request, *, sent: bool) -> httpx.TransportError | None:
    """Only a failure to connect (or to get a pooled connection in time), or to send the whole request, means
    the server did not get it; a break after it was sent whole may follow its being acted on (httpcore: a
    ``WriteError`` while sending, a ``ReadError`` or ``RemoteProtocolError`` after)."""
    if isinstance(exc, aiohttp.ConnectionTimeoutError):  # the connect timeout, which also covers the pool wait
        return httpx.ConnectTimeout(str(exc) or "timed out connecting", request=request)
    if isinstance(exc, aiohttp.SocketTimeoutError):
        return httpx.ReadTimeout(str(exc) or "timed out reading the answer", request=request)
    if isinstance(exc, aiohttp.ServerTimeoutError):
        return httpx.ReadTimeout(str(exc) or "timed out", request=request)
    if isinstance(exc, aiohttp.ClientConnectorError):  # includes certificate and TLS handshake failures
        return httpx.ConnectError(str(exc), request=request)
    if isinstance(exc, aiohttp.InvalidURL):
        return httpx.UnsupportedProtocol(str(exc), request=request)
    if isinstance(exc, aiohttp.ClientPayloadError):
        return httpx.ReadError(str(exc), request=request)
    if not sent and isinstance(exc, aiohttp.ClientError | OSError):
        # a reset or a close before the whole request went out
        return httpx.WriteError(str(exc) or type(exc).__name__, request=request)
    if isinstance(exc, aiohttp.ServerDisconnectedError | aiohttp.ClientResponseError):
        return httpx.RemoteProtocolError(str(exc) or "the server closed the connection", request=request)
    if isinstance(exc, aiohttp.ClientError | OSError):
        # a connection reset and the like, after the request went out: whether it was acted on is unknown
        return httpx.ReadError(str(exc) or type(exc).__name__, request=request)
    return None


#: Request headers aiohttp keeps on some exceptions (``request_info``) that must not outlive the request.
_SECRET_HEADERS = frozenset({"authorization", "proxy-authorization", "cookie"})


def _scrub(exc: BaseException) -> None:
    """Mask credentials in the ``request_info`` of ``exc`` and of every exception chained to it.

    aiohttp's response errors keep the request's headers, bearer token included, and show them in their
    ``repr``; the mapped httpx error keeps them as ``__cause__``, so without this the token would sit in
    every traceback of a broken answer.
    """
    seen: set[int] = set()
    pending: list[BaseException] = [exc]
    while pending:
        current = pending.pop()
        if id(current) in seen:
            continue
        seen.add(id(current))
        info = getattr(current, "request_info", None)
        if isinstance(info, aiohttp.RequestInfo) and any(k.lower() in _SECRET_HEADERS for k in info.headers):
            headers = CIMultiDict(
                (k, "[redacted]" if k.lower() in _SECRET_HEADERS else v) for k, v in info.headers.items()
            )
            masked = info._replace(headers=CIMultiDictProxy(headers))
            current.request_info = masked  # type: ignore[attr-defined]
            current.args = tuple(masked if arg is info else arg for arg in current.args)
        pending += [e for e in (current.__cause__, current.__context__) if e is not None]
