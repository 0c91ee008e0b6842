"""The single path every operation takes: a generated ``Request`` → httpx (with retries) → status check → parser.

Each generated endpoint module publishes ``request(...) -> Request[T]`` (method, URL, parameters, body) and its
``OPERATION`` (the spec's ``x-printmgmt`` declaration, how the 2xx body is read and its
parser). :meth:`Invoker.invoke` sends any of them: the retry loop decides from the declaration's
repeatability, every non-2xx answer becomes an :class:`~printmgmt.errors.ApiError` before anything is
parsed, and a 2xx answer is read as the operation declares (:mod:`printmgmt._answers`). Nothing here knows
one operation from another.
"""

from __future__ import annotations

import contextlib
import time
from collections.abc import AsyncIterator
from typing import IO, Any, TypeVar, Unpack

import httpx
from httpx import USE_CLIENT_DEFAULT

from printmgmt_api.types import Operation, Request

from .. import _display  # noqa: F401  (the models' short reprs and notebook views, registered on import)
from .._answers import parse, parse_page, parse_written
from .._call import (
    ERROR_BODY_LIMIT,
    CallOptions,
    Timeout,
    failed_transport,
    log_response,
    log_retry,
    request_kwargs,
)
from .._compat import UseClientDefault
from .._concurrency import async_sleep
from .._querycheck import CheckQuery, check_mode
from .._tracing import Traced, operation_span
from ..errors import PrintMgmtError, error_for_response
from ..retry import Repeatability, RetryPolicy
from .admission import Admission

__all__ = ["CallOptions", "Invoker", "Timeout"]

T = TypeVar("T")
M = TypeVar("M")

#: How the retry loop waits unless the policy says otherwise (tests of this package replace it).
_sleep = async_sleep


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
        check_query: CheckQuery = "strict",
    ) -> None:
        self.http = http
        #: How raw query options are read before sending (:mod:`printmgmt._querycheck`).
        self.check_query = check_mode(check_query)
        self.retry = retry or RetryPolicy()
        self.timeout = timeout
        self.admission = admission or Admission(None)
        #: The OAuth client the token is requested for (``client 'seal-plossyscli' (kind cli)``), named by 403s.
        self.client = client

    def derive(self, *, retry: RetryPolicy | None, timeout: Timeout, check_query: CheckQuery | None = None) -> Invoker:
        """A copy with other defaults, sharing the connection pool."""
        return Invoker(
            self.http,
            retry=retry or self.retry,
            timeout=self.timeout if timeout is None else timeout,
            admission=self.admission,
            client=self.client,
            check_query=check_query or self.check_query,
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
        kwargs = request_kwargs(request, options)
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
        kwargs = request_kwargs(request, options)
        kwargs["timeout"] = self._timeout(options.get("timeout"))
        with operation_span(operation.spec, kwargs["url"], target, self.http.base_url) as span:
            async with self._stream(operation, kwargs, target=target) as response:
                span.answered(response, 1)
                written = 0
                try:
                    async for chunk in response.aiter_bytes(chunk_size):
                        sink.write(chunk)
                        written += len(chunk)
                except (httpx.HTTPError, RuntimeError) as exc:
                    raise failed_transport(exc, operation, kwargs) from exc
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
        request_kwargs["timeout"] = self._timeout(timeout)
        with operation_span(operation.spec, request_kwargs["url"], target, self.http.base_url) as span:
            return await self._attempts(operation, request_kwargs, target, span)

    async def _attempts(
        self, operation: Operation[Any], request_kwargs: dict[str, Any], target: str | None, span: Traced
    ) -> httpx.Response:
        policy = self.retry
        name = operation.spec.name
        repeatability = Repeatability(operation.spec.repeat)
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
                    raise failed_transport(exc, operation, request_kwargs, attempt) from exc
                log_retry(name, type(exc).__name__, attempt, policy.attempts, delay)
            else:
                if response.is_success:
                    span.answered(response, attempt)
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
                log_retry(name, str(response.status_code), attempt, policy.attempts, delay)
            await (policy.sleep or _sleep)(delay)
            attempt += 1

    async def _attempt(self, name: str, request_kwargs: dict[str, Any], number: int) -> httpx.Response:
        """Send once."""
        started = time.perf_counter()
        async with self.admission(self._pool_timeout(request_kwargs["timeout"])):
            response = await self.http.request(**request_kwargs)
        log_response(name, response, started, number)
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
                log_response(name, response, started, 1)
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
            raise failed_transport(exc, operation, request_kwargs) from exc
