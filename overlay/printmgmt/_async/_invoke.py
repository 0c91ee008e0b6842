"""The single path every operation takes: a generated ``Request`` → httpx (with retries) → status check → parser."""

from __future__ import annotations

import time
from collections.abc import AsyncGenerator
from typing import IO, Any, TypeVar, Unpack

import httpx

from printmgmt_api.operations import Operation, Request

from .._answers import parse, parse_page, parse_written
from .._call import (
    ERROR_BODY_LIMIT,
    NOT_GIVEN,
    AsyncSendWatch,
    CallOptions,
    NotGiven,
    Sink,
    Timeout,
    absolute_url,
    answer_without_body,
    log_response,
    log_retry,
    request_kwargs,
    traces,
    undecodable_answer,
)
from .._concurrency import AsyncSemaphore, async_pause
from .._deadline import DEADLINE, AsyncTimeLimit, Deadline, DeadlineExceeded
from .._tracing import operation_span
from ..errors import (
    UNDECODABLE,
    PrintMgmtError,
    error_for_response,
    invalid_response,
    may_have_acted,
    outcome_unknown_after,
    transport_error,
)
from ..retry import Repeatability, RetryPolicy

__all__ = ["Admission", "CallOptions", "Invoker", "Timeout"]

T = TypeVar("T")
M = TypeVar("M")


class Invoker:
    """Sends requests over ``http`` with the retry policy, mapping every outcome; ``timeout`` (NOT_GIVEN: ``http``'s)
    bounds each operation of an attempt, as in httpx, ``deadline`` (seconds, ``None``: unbounded) a whole call."""

    def __init__(
        self,
        http: httpx.AsyncClient,
        *,
        retry: RetryPolicy,
        timeout: Timeout | NotGiven = NOT_GIVEN,
        deadline: float | None = None,
        admission: Admission,
        client: str | None = None,
    ) -> None:
        Deadline(deadline)  # checked now, not at the first call
        self.http = http
        self.retry = retry
        self.timeout = timeout
        self.deadline = deadline
        self.admission = admission
        #: The OAuth client the token is requested for (``client 'seal-plossyscli' (kind cli)``), named by 403s.
        self.client = client
        #: Whether the client's transports report how far sending got (see :class:`~printmgmt._call.AsyncSendWatch`).
        self.traced = traces(http)

    def derive(
        self, *, retry: RetryPolicy | None, timeout: Timeout | NotGiven, deadline: float | NotGiven | None
    ) -> Invoker:
        """A copy with other defaults (those given), sharing the connection pool."""
        return Invoker(
            self.http,
            retry=retry or self.retry,
            timeout=self.timeout if isinstance(timeout, NotGiven) else timeout,
            deadline=self.deadline if isinstance(deadline, NotGiven) else deadline,
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
        """Send a write; return the written object when the 2xx answer holds it, else None."""
        response = await self.invoke_raw(request, target=target, **options)
        return parse_written(request.operation, response)

    async def download(
        self, request: Request[Any], *, sink: IO[bytes], target: str | None = None, **options: Unpack[CallOptions]
    ) -> int:
        """Stream the 2xx body of ``request`` into ``sink``; return bytes written. A retry truncates ``sink`` back
        to where it began (a sink that cannot seek is not retried once written to)."""
        into = Sink(sink)
        await self.invoke_raw(request, target=target, sink=into, **options)
        return into.written

    async def invoke_raw(
        self,
        request: Request[Any],
        *,
        target: str | None = None,
        sink: Sink | None = None,
        **options: Unpack[CallOptions],
    ) -> httpx.Response:
        """Send ``request`` (changed by ``options``) and return the (read) 2xx response without parsing it, its
        body streamed into ``sink`` if given: attempts until a 2xx answer, a final failure, or the deadline."""
        operation = request.operation
        kwargs = request_kwargs(request, options)
        given = options.get("timeout", NOT_GIVEN)
        chosen = self.timeout if isinstance(given, NotGiven) else given
        timeout = self.http.timeout if isinstance(chosen, NotGiven) else httpx.Timeout(chosen)
        deadline_given = options.get("deadline", NOT_GIVEN)
        deadline = Deadline(self.deadline if isinstance(deadline_given, NotGiven) else deadline_given)
        name = operation.spec.name
        repeatability = Repeatability(operation.spec.repeat)
        if deadline.seconds is not None:  # the auth flow and the transports ask it
            kwargs["extensions"] = {**kwargs.get("extensions", {}), DEADLINE: deadline}
        base_url = self.http.base_url
        sent = {**kwargs, "url": absolute_url(base_url, kwargs["url"])}
        with operation_span(operation.spec, kwargs["url"], target, base_url) as span:
            attempt = 1
            # the first attempt that may have reached the server and been acted on (a read acts on nothing)
            reached: int | None = None
            acts = repeatability is not Repeatability.SAFE
            while True:
                sending = AsyncSendWatch(self.traced)
                try:
                    sent["timeout"] = deadline.cap(timeout)
                    sent["extensions"] = {**kwargs.get("extensions", {}), "trace": sending}
                    response = await self._attempt(operation, sent, attempt, deadline, sink)
                except PrintMgmtError:
                    raise
                except (httpx.HTTPError, RuntimeError) as raised:
                    # RuntimeError: the HTTP stack's own state errors (a closed client, a closed event loop)
                    exc = sending.explain(deadline.explain(raised))
                    if reached is None and acts and may_have_acted(exc):
                        reached = attempt
                    retryable = isinstance(exc, httpx.HTTPError) and not isinstance(exc, DeadlineExceeded)
                    delay = self.retry.delay(attempt, exc, repeatability) if retryable else None
                    if delay is None or not deadline.allows(delay) or (sink is not None and not sink.rewind()):
                        method, url = str(kwargs.get("method", "")).upper(), str(kwargs.get("url", ""))
                        raise transport_error(
                            exc, operation=name, method=method, url=url, attempts=attempt, reached=reached
                        ) from exc
                    log_retry(name, type(exc).__name__, attempt, self.retry.attempts, delay)
                else:
                    if response.is_success:
                        if problem := response.extensions.get(UNDECODABLE):
                            raise invalid_response(response, operation=name, problem=problem)
                        span.answered(response, attempt)
                        return response
                    if reached is None and acts and may_have_acted(response):
                        reached = attempt
                    delay = self.retry.delay(attempt, response, repeatability)
                    if delay is None or not deadline.allows(delay):
                        answer = error_for_response(
                            response,
                            operation=name,
                            target=target,
                            attempts=attempt,
                            area=operation.spec.area,
                            client=self.client,
                        )
                        if reached is not None and reached < attempt and not may_have_acted(response):
                            raise outcome_unknown_after(answer, reached) from answer
                        raise answer
                    log_retry(name, str(response.status_code), attempt, self.retry.attempts, delay)
                await async_pause(delay, self.retry.sleep)
                attempt += 1

    async def _attempt(
        self, operation: Operation[Any], sent: dict[str, Any], number: int, deadline: Deadline, sink: Sink | None
    ) -> httpx.Response:
        """Send once and read the answer: whole, into ``sink`` (a 2xx download), or a bounded excerpt."""
        started = time.perf_counter()
        async with AsyncTimeLimit(deadline) as limit, self.admission(sent["timeout"].pool):
            deadline.watch, deadline.during = limit.watch, ""
            async with self.http.stream(**sent) as response:
                streamed = response
                if deadline.seconds is not None:
                    limit.watch(response)
                    response.stream = _Bounded(response, deadline)
                try:
                    if sink is None:
                        await response.aread()
                    elif response.is_success:
                        async for chunk in response.aiter_bytes():  # as the network gives them: nothing held back
                            sink.write(chunk)
                    else:  # an error answer to a download: read a bounded excerpt
                        body = bytearray()
                        async for chunk in response.aiter_bytes():
                            body += chunk
                            if len(body) >= ERROR_BODY_LIMIT:
                                break
                        response = answer_without_body(response, bytes(body))
                except httpx.DecodingError as exc:  # the answer stands; only its body is lost
                    response = undecodable_answer(streamed, exc)
        # httpx's body stream refers back to its response: with that cycle cut once the body is read and the
        # connection given back, a call's objects are freed as it ends, not by the garbage collector
        streamed.stream = _READ
        log_response(operation.spec.name, response, started, number)
        return response


#: The stream of a response whose body was read (or streamed into a sink) and closed.
_READ = httpx.ByteStream(b"")


class _Bounded(httpx.AsyncByteStream):
    """A response body that ends in :class:`DeadlineExceeded` when a part arrives after the call's deadline (a
    body trickling in never trips the per-read timeout)."""

    def __init__(self, response: httpx.Response, deadline: Deadline) -> None:
        assert isinstance(response.stream, httpx.AsyncByteStream)
        self._stream = response.stream
        self._deadline = deadline

    async def __aiter__(self) -> AsyncGenerator[bytes, None]:
        async for chunk in self._stream:
            self._deadline.check()
            yield chunk

    async def aclose(self) -> None:
        await self._stream.aclose()


class Admission:
    """Lets at most ``limit`` (the pool's size; ``None``: no limit) requests into httpx at once, first come first
    served, within the pool timeout. They queue here, before a token is put on them: in the pool a request could
    wait past its token's life, and httpcore wakes every waiter for each free connection."""

    def __init__(self, limit: int | None) -> None:
        self._semaphore = AsyncSemaphore(limit) if limit else None

    def __call__(self, pool_timeout: float | None) -> _Slot:
        """``async with admission(pool_timeout):`` holds one of the ``limit`` places."""
        return _Slot(self._semaphore, pool_timeout)


class _Slot:
    """A place held in an :class:`Admission` (a class, not a generator: this runs for every request)."""

    __slots__ = ("_held", "_semaphore", "_timeout")

    def __init__(self, semaphore: AsyncSemaphore | None, pool_timeout: float | None) -> None:
        self._semaphore = semaphore
        self._timeout = pool_timeout
        self._held: AsyncSemaphore | None = None

    async def __aenter__(self) -> None:
        if self._semaphore is not None:
            self._held = await self._semaphore.acquire(self._timeout)

    async def __aexit__(self, *exc_info: object) -> None:
        if self._held is not None:
            self._held.release()
