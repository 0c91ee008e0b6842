"""The single path every operation takes: a generated ``Request`` → httpx (with retries) → status check → parser.

Each generated endpoint module publishes ``request(...) -> Request[T]`` (method, URL, parameters, body) and its
``OPERATION`` (the spec's ``x-printmgmt`` declaration, documented statuses, how the 2xx body is read and its
parser). :meth:`Invoker.invoke` sends any of them: the retry loop decides from the declaration's
repeatability, every non-2xx answer becomes an :class:`~printmgmt.errors.ApiError` before anything is
parsed, and a 2xx answer is read as the operation declares (:mod:`printmgmt._answers`). Nothing here knows
one operation from another.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import AsyncIterator, Mapping
from typing import IO, Any, TypedDict, TypeVar, Unpack

import httpx
from httpx import USE_CLIENT_DEFAULT
from httpx._client import UseClientDefault

from printmgmt_api.types import Operation, Request

from ._answers import parse, parse_page, parse_written
from .admission import Admission
from .errors import PrintMgmtError, error_for_response, transport_error
from .retry import Repeatability, RetryPolicy

__all__ = ["CallOptions", "Invoker", "Timeout"]

logger = logging.getLogger("printmgmt")

T = TypeVar("T")
M = TypeVar("M")

#: How the retry loop waits unless the policy says otherwise (tests of this package replace it).
_sleep = asyncio.sleep

#: Largest error body read from a streamed download before raising (bytes).
ERROR_BODY_LIMIT = 64 * 1024

#: A per-call timeout: seconds or an ``httpx.Timeout``; ``None`` keeps the client's
#: (``httpx.Timeout(None)`` disables timeouts).
Timeout = float | httpx.Timeout | None


class CallOptions(TypedDict, total=False):
    """What every facade method accepts besides its own arguments (``**options``).

    The interface document shows no bodies and few parameters, so what the SDK sends is partly a guess:
    these let a caller change it without waiting for a release (Stainless' convention).
    """

    #: For this call only (see :data:`Timeout`).
    timeout: Timeout
    #: Query parameters added to (and overriding) the operation's own.
    extra_query: Mapping[str, Any]
    #: Headers added to (and overriding) the operation's own.
    extra_headers: Mapping[str, str]
    #: Fields merged over the JSON body the SDK would send (or the JSON body, for an operation without one).
    extra_body: Mapping[str, Any]
    #: The JSON body to send instead of the one the SDK builds (a guessed shape, replaced whole).
    replace_body: Any


class Invoker:
    """Sends requests over the client's ``httpx.AsyncClient`` with the retry policy; maps every outcome."""

    def __init__(
        self,
        http: httpx.AsyncClient,
        *,
        retry: RetryPolicy | None = None,
        timeout: float | httpx.Timeout | UseClientDefault = USE_CLIENT_DEFAULT,
        admission: Admission | None = None,
        client: str | None = None,
    ) -> None:
        self.http = http
        self.retry = retry or RetryPolicy()
        self.timeout = timeout
        self.admission = admission or Admission(None)
        #: The OAuth client the token is requested for (``client 'seal-plossyscli' (kind cli)``), named by 403s.
        self.client = client

    def derive(self, *, retry: RetryPolicy | None, timeout: Timeout) -> Invoker:
        """A copy with other defaults, sharing the connection pool."""
        return Invoker(
            self.http,
            retry=retry or self.retry,
            timeout=self.timeout if timeout is None else timeout,
            admission=self.admission,
            client=self.client,
        )

    async def invoke(self, request: Request[T], *, target: str | None = None, **options: Unpack[CallOptions]) -> T:
        """Send ``request`` (changed by ``options``) and return its parsed 2xx body."""
        response = await self.invoke_raw(request, target=target, **options)
        return parse(request.operation, response)

    async def invoke_page(
        self, request: Request[Any], item: type[M], *, target: str | None = None, **options: Unpack[CallOptions]
    ) -> tuple[list[M], int | None]:
        """Send a list request; return its items (decoded on access) and the total the page reports."""
        response = await self.invoke_raw(request, target=target, **options)
        return parse_page(request.operation, response, item)

    async def invoke_written(
        self, request: Request[T], *, target: str | None = None, **options: Unpack[CallOptions]
    ) -> T | None:
        """Send a write; return the written object when the 2xx answer holds it, else None (see
        :func:`~printmgmt._answers.parse_written`)."""
        response = await self.invoke_raw(request, target=target, **options)
        return parse_written(request.operation, response)

    async def invoke_raw(
        self, request: Request[Any], *, target: str | None = None, **options: Unpack[CallOptions]
    ) -> httpx.Response:
        """Send ``request`` (changed by ``options``) and return the (read) 2xx response without parsing it."""
        kwargs = _kwargs(request, options)
        return await self._send(request.operation, kwargs, target=target, timeout=options.get("timeout"))

    async def download(
        self,
        request: Request[Any],
        *,
        sink: IO[bytes],
        target: str | None = None,
        chunk_size: int = 64 * 1024,
        **options: Unpack[CallOptions],
    ) -> int:
        """Stream the 2xx body of ``request`` into ``sink`` without holding it in memory; return bytes written."""
        operation = request.operation
        kwargs = _kwargs(request, options)
        kwargs["timeout"] = self._timeout(options.get("timeout"))
        async with self._stream(operation, kwargs, target=target) as response:
            written = 0
            try:
                async for chunk in response.aiter_bytes(chunk_size):
                    sink.write(chunk)
                    written += len(chunk)
            except (httpx.HTTPError, RuntimeError) as exc:
                raise _transport_error(exc, operation, kwargs) from exc
            return written

    # -- internals ---------------------------------------------------------------------------------

    def _timeout(self, timeout: Timeout) -> float | httpx.Timeout | UseClientDefault:
        return self.timeout if timeout is None else timeout

    def _pool_timeout(self, timeout: float | httpx.Timeout | UseClientDefault) -> float | None:
        return self.http.timeout.pool if isinstance(timeout, UseClientDefault) else httpx.Timeout(timeout).pool

    async def _send(
        self,
        operation: Operation[Any],
        request_kwargs: dict[str, Any],
        *,
        target: str | None,
        timeout: Timeout,
    ) -> httpx.Response:
        policy = self.retry
        name = operation.spec.name
        repeatability = Repeatability(operation.spec.repeat)
        request_kwargs["timeout"] = self._timeout(timeout)
        attempt = 1
        while True:
            try:
                response = await self._attempt(name, request_kwargs, attempt)
            except PrintMgmtError:
                raise
            except (httpx.HTTPError, RuntimeError) as exc:
                # RuntimeError: the HTTP stack's own state errors (a closed client, a closed event loop)
                delay = policy.delay(attempt, exc, repeatability) if isinstance(exc, httpx.HTTPError) else None
                if delay is None:
                    raise _transport_error(exc, operation, request_kwargs, attempt) from exc
                _log_retry(name, type(exc).__name__, attempt, policy.attempts, delay)
            else:
                if response.is_success:
                    return response
                delay = policy.delay(attempt, response, repeatability)
                if delay is None:
                    raise error_for_response(
                        response,
                        operation=name,
                        target=target,
                        attempts=attempt,
                        area=operation.spec.area,
                        client=self.client,
                    )
                _log_retry(name, str(response.status_code), attempt, policy.attempts, delay)
            await (policy.sleep or _sleep)(delay)
            attempt += 1

    async def _attempt(self, name: str, request_kwargs: dict[str, Any], number: int) -> httpx.Response:
        """Send once."""
        started = time.perf_counter()
        async with self.admission(self._pool_timeout(request_kwargs["timeout"])):
            response = await self.http.request(**request_kwargs)
        _log(name, response, started, number)
        return response

    @contextlib.asynccontextmanager
    async def _stream(
        self, operation: Operation[Any], request_kwargs: dict[str, Any], *, target: str | None
    ) -> AsyncIterator[httpx.Response]:
        started = time.perf_counter()
        name = operation.spec.name
        try:
            async with (
                self.admission(self._pool_timeout(request_kwargs["timeout"])),
                self.http.stream(**request_kwargs) as response,
            ):
                _log(name, response, started, 1)
                if not response.is_success:
                    body = bytearray()
                    async for chunk in response.aiter_bytes():
                        body += chunk
                        if len(body) >= ERROR_BODY_LIMIT:
                            break
                    # a read copy of the answer holding only the bounded excerpt (already decoded)
                    headers = [(k, v) for k, v in response.headers.items() if k.lower() != "content-encoding"]
                    excerpt = httpx.Response(
                        response.status_code, headers=headers, content=bytes(body), request=response.request
                    )
                    raise error_for_response(
                        excerpt, operation=name, target=target, area=operation.spec.area, client=self.client
                    )
                yield response
        except PrintMgmtError:
            raise
        except (httpx.HTTPError, RuntimeError) as exc:
            raise _transport_error(exc, operation, request_kwargs) from exc


def _kwargs(request: Request[Any], options: CallOptions) -> dict[str, Any]:
    """httpx ``request()`` arguments of ``request`` (a copy: a retry sends the same), changed by ``options``."""
    kwargs = dict(request.kwargs)
    if extra_query := options.get("extra_query"):
        kwargs["params"] = {**kwargs.get("params", {}), **extra_query}
    if extra_headers := options.get("extra_headers"):
        kwargs["headers"] = {**kwargs.get("headers", {}), **extra_headers}
    if "replace_body" in options:
        kwargs["json"] = options["replace_body"]
    if extra_body := options.get("extra_body"):
        body = kwargs.get("json")
        if body is not None and not isinstance(body, Mapping):
            raise TypeError("extra_body merges into a JSON object body; use replace_body for another shape")
        kwargs["json"] = {**(body or {}), **extra_body}
    return kwargs


def _transport_error(
    exc: httpx.HTTPError | RuntimeError, operation: Operation[Any], request_kwargs: Mapping[str, Any], attempts: int = 1
) -> PrintMgmtError:
    return transport_error(
        exc,
        operation=operation.spec.name,
        method=str(request_kwargs.get("method", "")).upper(),
        url=str(request_kwargs.get("url", "")),
        attempts=attempts,
    )


def _log(name: str, response: httpx.Response, started: float, attempt: int) -> None:
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


def _log_retry(name: str, failure: str, attempt: int, attempts: int, delay: float) -> None:
    logger.info("%s: attempt %d of %d failed (%s); retrying in %.2f s", name, attempt, attempts, failure, delay)
