"""What every call shares, async or sync: the per-call options, the httpx arguments they make, and its logs."""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping
from typing import IO, Any, Literal, TypedDict, TypeVar

import httpx

from printmgmt_api.operations import Request

from ._deadline import DeadlineExceeded
from ._headers import check_headers
from .errors import UNDECODABLE

logger = logging.getLogger("printmgmt")

E = TypeVar("E", bound=BaseException)


#: Largest error body read from a streamed download before raising (bytes).
ERROR_BODY_LIMIT = 64 * 1024


class NotGiven:
    """The type of :data:`~printmgmt.NOT_GIVEN`: an argument left out, as opposed to one given as ``None``."""

    __slots__ = ()

    def __bool__(self) -> Literal[False]:
        return False

    def __repr__(self) -> str:
        return "NOT_GIVEN"


#: "The client's default": ``timeout=NOT_GIVEN`` uses the client's timeout, ``timeout=None`` none (as in httpx).
NOT_GIVEN = NotGiven()

#: Seconds or an ``httpx.Timeout``, for each connect, read, write and wait for a connection, as in httpx (a body
#: trickling in never trips it: a ``deadline`` bounds the whole call); ``None``: no timeout.
Timeout = float | httpx.Timeout | None


class ReadOptions(TypedDict, total=False):
    """What a wait passes to each of its reads (its own ``timeout`` is the whole wait's)."""

    #: Query parameters added to (and overriding) the operation's own.
    extra_query: Mapping[str, Any]
    #: Headers added to (and overriding) the operation's own.
    extra_headers: Mapping[str, str]


class CallOptions(ReadOptions, total=False):
    """What every facade method accepts besides its own arguments (``**options``).

    The interface document shows no bodies and few parameters, so what the SDK sends is partly a guess:
    these let a caller change it without waiting for a release (Stainless' convention).
    """

    #: For this call only, per operation as in httpx (seconds or an ``httpx.Timeout``); ``None``: no timeout.
    #: Left out or :data:`~printmgmt.NOT_GIVEN`: the client's.
    timeout: Timeout | NotGiven
    #: Seconds the whole call may take, attempts, waits and reading the body (then
    #: :class:`~printmgmt.errors.RequestTimeout`); ``None``: unbounded; left out: ``PrintClient(deadline=...)``.
    deadline: float | NotGiven | None
    #: Fields merged over the JSON body the SDK would send (or the JSON body, for an operation without one).
    extra_body: Mapping[str, Any]
    #: The JSON body to send instead of the one the SDK builds (a guessed shape, replaced whole).
    replace_body: Any


def request_kwargs(request: Request[Any], options: CallOptions) -> dict[str, Any]:
    """httpx ``request()`` arguments of ``request`` (a copy: a retry sends the same), changed by ``options``."""
    kwargs = dict(request.kwargs)
    if extra_query := options.get("extra_query"):
        kwargs["params"] = {**kwargs.get("params", {}), **extra_query}
    if extra_headers := options.get("extra_headers"):
        check_headers(extra_headers, "extra_headers=")
        kwargs["headers"] = {**kwargs.get("headers", {}), **extra_headers}
    if "replace_body" in options:
        kwargs["json"] = options["replace_body"]
    if extra_body := options.get("extra_body"):
        body = kwargs.get("json")
        if body is not None and not isinstance(body, Mapping):
            raise TypeError("extra_body merges into a JSON object body; use replace_body for another shape")
        kwargs["json"] = {**(body or {}), **extra_body}
    return kwargs


class _SendWatch:
    """httpcore's ``trace`` of how far an attempt's sending got (``traced``: a caller's transport may not report)."""

    __slots__ = ("broke", "traced", "whole")

    def __init__(self, traced: bool) -> None:
        self.traced = traced
        #: Sending failed part way (httpcore then reads on, as a server may answer early, and reports the read).
        self.broke = False
        self.whole = False

    def _saw(self, event: str) -> None:
        if event.endswith(".send_request_body.complete"):
            self.whole = True
        elif event.endswith((".send_request_headers.failed", ".send_request_body.failed")):
            self.broke = True

    def explain(self, exc: E) -> E | httpx.WriteError:
        """``exc``, or a ``WriteError`` caused by it when sending broke first; a deadline notes whether it was sent."""
        if isinstance(exc, DeadlineExceeded) and self.traced and not self.whole:
            exc.before_sending = True
        if not self.broke or not isinstance(exc, httpx.ReadError | httpx.RemoteProtocolError):
            return exc
        broke = httpx.WriteError(f"the request could not be sent whole, then: {exc}", request=exc.request)
        broke.__cause__ = exc
        return broke


class AsyncSendWatch(_SendWatch):
    async def __call__(self, event: str, info: Mapping[str, Any]) -> None:  # httpcore awaits an async one
        self._saw(event)


class SyncSendWatch(_SendWatch):
    def __call__(self, event: str, info: Mapping[str, Any]) -> None:
        self._saw(event)


def traces(http: httpx.AsyncClient | httpx.Client) -> bool:
    """Whether every transport of ``http`` reports its sending to a ``trace`` (a caller's own may not)."""
    from ._per_loop import PerLoopTransport

    reporting = (httpx.AsyncHTTPTransport, httpx.HTTPTransport, PerLoopTransport)
    # httpx keeps the client's transports in private attributes (tests/wheel/shims.py checks them)
    transports = [http._transport, *http._mounts.values()]
    return all(transport is None or isinstance(transport, reporting) for transport in transports)


def answer_without_body(
    response: httpx.Response, content: bytes = b"", extensions: Mapping[str, Any] | None = None
) -> httpx.Response:
    """A read copy of ``response`` holding ``content`` as its body (already decoded: no ``Content-Encoding``)."""
    headers = [(k, v) for k, v in response.headers.items() if k.lower() != "content-encoding"]
    return httpx.Response(
        response.status_code, headers=headers, content=content, request=response.request, extensions=extensions or {}
    )


def undecodable_answer(response: httpx.Response, exc: httpx.DecodingError) -> httpx.Response:
    """``response`` without the body its ``Content-Encoding`` could not decode, the failure in its extensions."""
    encoding = response.headers.get("Content-Encoding", "")
    said = f"its body is not in its declared Content-Encoding {encoding!r} ({exc})"
    return answer_without_body(response, extensions={UNDECODABLE: said})


class Sink:
    """Where a download is written; a retried download starts it again from where it began."""

    __slots__ = ("_file", "_start", "written")

    def __init__(self, file: IO[bytes]) -> None:
        self._file = file
        self._start = file.tell() if file.seekable() else None
        self.written = 0

    def write(self, chunk: bytes) -> None:
        self._file.write(chunk)
        self.written += len(chunk)

    def rewind(self) -> bool:
        """Truncate what an interrupted attempt wrote; ``False``: an unseekable file was written to (no retry)."""
        if not self.written:
            return True
        if self._start is None:
            return False
        self._file.seek(self._start)
        self._file.truncate()
        self.written = 0
        return True


def absolute_url(base_url: httpx.URL, url: str) -> httpx.URL | str:
    """``url`` joined to ``base_url`` and parsed once (httpx parses twice); all but a plain path is left to httpx."""
    if url[:1] != "/" or url[:2] == "//" or "#" in url or not base_url.scheme or base_url.query:
        return url
    prefix = str(base_url)  # the path of a bare origin, "/", is not written out
    return httpx.URL((prefix if prefix.endswith("/") else prefix + "/") + url[1:])


def log_response(name: str, response: httpx.Response, started: float, attempt: int) -> None:
    if logger.isEnabledFor(logging.DEBUG):
        request = response.request
        # the path only: query strings may carry user or document names
        logger.debug(
            "%s %s %s -> %s in %.1f ms (attempt %d)",
            name,
            request.method,
            request.url.path,
            response.status_code,
            (time.perf_counter() - started) * 1000,
            attempt,
        )


def log_retry(name: str, failure: str, attempt: int, attempts: int, delay: float) -> None:
    logger.info("%s: attempt %d of %d failed (%s); retrying in %.2f s", name, attempt, attempts, failure, delay)
