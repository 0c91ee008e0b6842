"""The single path every operation takes: generated request → httpx → status check → generated parser.

The facade never calls the generated ``asyncio_detailed`` functions. Those parse the body before anything
looks at the status, so a documented status with a plain-text body escapes as ``JSONDecodeError`` and a
non-IANA status as ``ValueError``. Instead we take the generated module's request builder (``_get_kwargs``)
and parser (``_parse_response``), send the request ourselves, turn every non-2xx answer into an
:class:`~printmgmt.errors.ApiError` first, and only then parse, mapping parser failures to
:class:`~printmgmt.errors.InvalidResponse`.
"""

from __future__ import annotations

import asyncio
import contextlib
import functools
import importlib
import json
import logging
import time
from collections.abc import AsyncIterator, Mapping
from types import ModuleType
from typing import IO, Any, TypeVar

import httpx
from httpx import USE_CLIENT_DEFAULT
from httpx._client import UseClientDefault

from printmgmt_api import AuthenticatedClient
from printmgmt_api.operations import OPERATIONS, OperationSpec
from printmgmt_api.types import KeyFieldError

from ._json import loads
from ._per_loop import PerLoop
from .errors import (
    PrintMgmtError,
    RequestTimeout,
    TransportError,
    error_for_response,
    invalid_response,
)
from .retry import Repeatability, RetryPolicy

__all__ = ["Admission", "Invoker", "Operation"]

logger = logging.getLogger("printmgmt")

T = TypeVar("T")

#: How the retry loop waits unless the policy says otherwise (tests of this package replace it).
_sleep = asyncio.sleep

#: Largest error body read from a streamed download before raising (bytes).
ERROR_BODY_LIMIT = 64 * 1024


class Operation:
    """One operation of the spec, as ``openapi.yaml`` declares it (``x-printmgmt``, in the generated
    ``printmgmt_api.operations`` table): its name in errors and logs (``jobs.pause``), how safe it is to repeat,
    and its generated endpoint module.

    The module is imported on first use: 43 endpoint modules at import time would cost every script and
    command-line start for operations it never calls.
    """

    __slots__ = ("_module", "name", "repeatability", "spec")

    def __init__(self, operation_id: str) -> None:
        self.spec: OperationSpec = OPERATIONS[operation_id]
        self.name = self.spec.name
        self.repeatability = Repeatability(self.spec.repeat)
        self._module: ModuleType | None = None

    @property
    def module(self) -> ModuleType:
        if self._module is None:
            self._module = importlib.import_module(f"printmgmt_api.api.{self.spec.module}")
        return self._module

    def request_kwargs(
        self, *path: str, extra_params: Mapping[str, Any] | None = None, **kwargs: Any
    ) -> dict[str, Any]:
        built: dict[str, Any] = self.module._get_kwargs(*path, **kwargs)
        if extra_params:
            built["params"] = {**extra_params, **built.get("params", {})}
        return built


#: A per-call timeout: seconds or an ``httpx.Timeout``; ``None`` keeps the client's
#: (``httpx.Timeout(None)`` disables timeouts).
Timeout = float | httpx.Timeout | None


class Invoker:
    """Sends operations over the client's ``httpx.AsyncClient`` with the retry policy; maps every outcome."""

    def __init__(
        self,
        http: httpx.AsyncClient,
        api: AuthenticatedClient,
        *,
        retry: RetryPolicy | None = None,
        timeout: float | httpx.Timeout | UseClientDefault = USE_CLIENT_DEFAULT,
        admission: Admission | None = None,
    ) -> None:
        self.http = http
        self.api = api
        self.retry = retry or RetryPolicy()
        self.timeout = timeout
        self.admission = admission or Admission(None)

    def derive(self, *, retry: RetryPolicy | None, timeout: Timeout) -> Invoker:
        """A copy with other defaults, sharing the connection pool."""
        return Invoker(
            self.http,
            self.api,
            retry=retry or self.retry,
            timeout=self.timeout if timeout is None else timeout,
            admission=self.admission,
        )

    async def call(
        self,
        operation: Operation,
        *path: str,
        expect: type[T] | tuple[type[Any], ...],
        target: str | None = None,
        extra_params: Mapping[str, Any] | None = None,
        timeout: Timeout = None,
        **kwargs: Any,
    ) -> T:
        """Send ``operation`` and return its parsed 2xx body, which must be an instance of ``expect``."""
        request_kwargs = operation.request_kwargs(*path, extra_params=extra_params, **kwargs)
        response = await self._send(operation, request_kwargs, target=target, timeout=timeout)
        return self._parse(operation, response, expect)

    async def call_raw(
        self,
        operation: Operation,
        *path: str,
        target: str | None = None,
        timeout: Timeout = None,
        **kwargs: Any,
    ) -> httpx.Response:
        """Send ``operation`` and return the (read) 2xx response without parsing it."""
        request_kwargs = operation.request_kwargs(*path, **kwargs)
        return await self._send(operation, request_kwargs, target=target, timeout=timeout)

    async def download(
        self,
        operation: Operation,
        *path: str,
        sink: IO[bytes],
        target: str | None = None,
        chunk_size: int = 64 * 1024,
        timeout: Timeout = None,
    ) -> int:
        """Stream the 2xx body of ``operation`` into ``sink`` without holding it in memory; return bytes written."""
        request_kwargs = operation.request_kwargs(*path)
        request_kwargs["timeout"] = self._timeout(timeout)
        async with self._stream(operation, request_kwargs, target=target) as response:
            written = 0
            try:
                async for chunk in response.aiter_bytes(chunk_size):
                    sink.write(chunk)
                    written += len(chunk)
            except (httpx.HTTPError, RuntimeError) as exc:
                raise _transport_error(exc, operation, request_kwargs) from exc
            return written

    # -- internals ---------------------------------------------------------------------------------

    def _timeout(self, timeout: Timeout) -> float | httpx.Timeout | UseClientDefault:
        return self.timeout if timeout is None else timeout

    def _pool_timeout(self, timeout: float | httpx.Timeout | UseClientDefault) -> float | None:
        return self.http.timeout.pool if isinstance(timeout, UseClientDefault) else httpx.Timeout(timeout).pool

    async def _send(
        self,
        operation: Operation,
        request_kwargs: dict[str, Any],
        *,
        target: str | None,
        timeout: Timeout,
    ) -> httpx.Response:
        policy = self.retry
        repeatability = operation.repeatability
        request_kwargs["timeout"] = self._timeout(timeout)
        attempt = 1
        while True:
            try:
                response = await self._attempt(operation, request_kwargs, attempt)
            except PrintMgmtError:
                raise
            except (httpx.HTTPError, RuntimeError) as exc:
                # RuntimeError: the HTTP stack's own state errors (a closed client, a closed event loop)
                delay = policy.delay(attempt, exc, repeatability) if isinstance(exc, httpx.HTTPError) else None
                if delay is None:
                    raise _transport_error(exc, operation, request_kwargs, attempt) from exc
                _log_retry(operation, type(exc).__name__, attempt, policy.attempts, delay)
            else:
                if response.is_success:
                    return response
                delay = policy.delay(attempt, response, repeatability)
                if delay is None:
                    raise error_for_response(response, operation=operation.name, target=target, attempts=attempt)
                _log_retry(operation, str(response.status_code), attempt, policy.attempts, delay)
            await (policy.sleep or _sleep)(delay)
            attempt += 1

    async def _attempt(self, operation: Operation, request_kwargs: dict[str, Any], number: int) -> httpx.Response:
        """Send once."""
        started = time.perf_counter()
        async with self.admission(self._pool_timeout(request_kwargs["timeout"])):
            response = await self.http.request(**request_kwargs)
        _log(operation, response, started, number)
        return response

    @contextlib.asynccontextmanager
    async def _stream(
        self, operation: Operation, request_kwargs: dict[str, Any], *, target: str | None
    ) -> AsyncIterator[httpx.Response]:
        started = time.perf_counter()
        try:
            async with (
                self.admission(self._pool_timeout(request_kwargs["timeout"])),
                self.http.stream(**request_kwargs) as response,
            ):
                _log(operation, response, started, 1)
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
                    raise error_for_response(excerpt, operation=operation.name, target=target)
                yield response
        except PrintMgmtError:
            raise
        except (httpx.HTTPError, RuntimeError) as exc:
            raise _transport_error(exc, operation, request_kwargs) from exc

    def _parse(self, operation: Operation, response: httpx.Response, expect: type[T] | tuple[type[Any], ...]) -> T:
        # the generated parser reads the body with response.json(); give this response the SDK's decoder
        response.json = functools.partial(loads, response.content)  # type: ignore[method-assign]
        try:
            parsed = operation.module._parse_response(client=self.api, response=response)
        except json.JSONDecodeError as exc:
            raise invalid_response(response, operation=operation.name, problem=f"not valid JSON ({exc})") from exc
        except (ValueError, TypeError, KeyError, AttributeError, IndexError, KeyFieldError) as exc:
            # the generated from_dict raises these on shapes that do not match the spec
            detail = f"{type(exc).__name__}: {exc}" if str(exc) else type(exc).__name__
            raise invalid_response(
                response, operation=operation.name, problem=f"does not match the declared schema ({detail})"
            ) from exc
        if not isinstance(parsed, expect):
            wanted = " or ".join(t.__name__ for t in (expect if isinstance(expect, tuple) else (expect,)))
            raise invalid_response(
                response,
                operation=operation.name,
                problem=f"expected {wanted}, got {type(parsed).__name__}",
            )
        return parsed


class Admission:
    """Lets at most ``limit`` requests into httpx at once, first come first served (``None``: no limit).

    ``limit`` is the pool's ``max_connections``, so requests queue here, before the auth flow puts a token
    on them, rather than in httpcore's pool after it. There a request could wait longer than its token had
    left (then get 401, and its one retry could expire the same way), and waits are unfair: httpcore wakes
    every waiter for each free connection. The pool timeout applies to the wait here (``httpx.PoolTimeout``).
    One semaphore per event loop, as notebooks and scripts may run several loops over one client.
    """

    def __init__(self, limit: int | None) -> None:
        self.limit = limit
        self._semaphores = PerLoop(lambda: asyncio.Semaphore(limit or 1))

    def __call__(self, pool_timeout: float | None) -> _Slot:
        """``async with admission(pool_timeout):`` holds one of the ``limit`` places."""
        return _Slot(self, pool_timeout)

    async def _acquire(self, pool_timeout: float | None) -> asyncio.Semaphore | None:
        if self.limit is None:
            return None
        semaphore = self._semaphores.get()
        if not semaphore.locked():  # a free place, nobody waiting: taken at once, no timer needed
            await semaphore.acquire()
            return semaphore
        try:
            async with asyncio.timeout(pool_timeout):
                await semaphore.acquire()
        except TimeoutError:
            raise httpx.PoolTimeout(f"no free connection within {pool_timeout} s") from None
        return semaphore


class _Slot:
    """A place held in an :class:`Admission` (a small class: this runs for every request)."""

    __slots__ = ("_admission", "_semaphore", "_timeout")

    def __init__(self, admission: Admission, pool_timeout: float | None) -> None:
        self._admission = admission
        self._timeout = pool_timeout
        self._semaphore: asyncio.Semaphore | None = None

    async def __aenter__(self) -> None:
        self._semaphore = await self._admission._acquire(self._timeout)

    async def __aexit__(self, *exc_info: object) -> None:
        if self._semaphore is not None:
            self._semaphore.release()


_TRANSPORT_FAILURES: tuple[tuple[type[Exception], str], ...] = (
    (httpx.ConnectTimeout, "timed out connecting to the server"),
    (httpx.ReadTimeout, "timed out waiting for the answer"),
    (httpx.WriteTimeout, "timed out sending the request"),
    (httpx.PoolTimeout, "timed out waiting for a free connection"),
    (httpx.ConnectError, "could not connect to the server"),
    (httpx.RemoteProtocolError, "the server closed the connection or answered with broken HTTP"),
    (httpx.ReadError, "the connection broke while reading the answer"),
    (httpx.WriteError, "the connection broke while sending the request"),
    (RuntimeError, "the HTTP client could not send it (closed, or used from an event loop that has ended)"),
)


def _transport_error(
    exc: httpx.HTTPError | RuntimeError, operation: Operation, request_kwargs: Mapping[str, Any], attempts: int = 1
) -> TransportError:
    method = str(request_kwargs.get("method", "")).upper()
    url = str(request_kwargs.get("url", ""))
    if isinstance(exc, httpx.HTTPError):
        with contextlib.suppress(RuntimeError):  # raised when the error came before a request existed
            # the request that failed: the API request, or the token request the auth flow sent for it
            method, url = exc.request.method, str(exc.request.url)
    cls = RequestTimeout if isinstance(exc, httpx.TimeoutException) else TransportError
    what = type(exc).__name__
    detail = str(exc)
    # say what happened in words; keep the exception's name and its own text when that adds something
    said = next((text for kind, text in _TRANSPORT_FAILURES if isinstance(exc, kind)), "the request failed")
    extra = f": {detail}" if detail and detail != what else ""
    tries = f" after {attempts} attempts" if attempts > 1 else ""
    return cls(
        f"{operation.name}: {method} {url} failed{tries}: {said} ({what}{extra})",
        method=method,
        url=url,
        attempts=max(attempts, 1),
    )


def _log(operation: Operation, response: httpx.Response, started: float, attempt: int) -> None:
    if logger.isEnabledFor(logging.DEBUG):
        request = response.request
        # the path only: query strings may carry user or document names
        logger.debug(
            "%s %s %s -> %s in %.1f ms (attempt %d)",
            operation.name,
            request.method,
            request.url.path,
            response.status_code,
            (time.perf_counter() - started) * 1000,
            attempt,
        )


def _log_retry(operation: Operation, failure: str, attempt: int, attempts: int, delay: float) -> None:
    logger.info(
        "%s: attempt %d of %d failed (%s); retrying in %.2f s", operation.name, attempt, attempts, failure, delay
    )
