"""OpenTelemetry spans: one per SDK operation, one per token acquisition (extra ``printmgmt[otel]``; what they
record: docs/configuration.md). Without opentelemetry-api, or with no SDK configured, an operation costs one
cached lookup and a no-op ``with``; a span that is not recording (a sampler said no) is dropped at once."""

from __future__ import annotations

import functools
from collections.abc import Mapping
from types import TracebackType
from typing import TYPE_CHECKING, Any

import httpx

from ._version import __version__

if TYPE_CHECKING:
    from opentelemetry.trace import Span

    from printmgmt_api.operations import OperationSpec

__all__ = ["NO_SPAN", "OperationSpan", "operation_span", "token_span"]


@functools.cache
def _api() -> tuple[Any, Any] | None:
    """opentelemetry's ``trace`` and the SDK's tracer; None without opentelemetry-api."""
    try:
        from opentelemetry import trace
    except ImportError:
        return None
    return trace, trace.get_tracer("printmgmt", __version__)


class OperationSpan:
    """A recording span: an operation's (current while it runs, so transport spans nest under it), or a token's."""

    __slots__ = ("_scope", "_span")

    def __init__(self, span: Span) -> None:
        from opentelemetry import trace

        self._span = span
        self._scope = trace.use_span(span, end_on_exit=True, record_exception=True, set_status_on_exception=False)

    def __enter__(self) -> OperationSpan:
        self._scope.__enter__()
        return self

    def __exit__(
        self, exc_type: type[BaseException] | None, exc: BaseException | None, tb: TracebackType | None
    ) -> None:
        if exc is not None:
            self._failed(exc)
            self._outcome(getattr(exc, "status_code", None), getattr(exc, "attempts", 1))
        self._scope.__exit__(exc_type, exc, tb)

    def answered(self, response: httpx.Response, attempt: int) -> None:
        """The operation's final answer (a 2xx), after ``attempt`` attempts."""
        self._outcome(response.status_code, attempt)

    def _outcome(self, status: object, attempts: object) -> None:
        if isinstance(status, int):
            self._span.set_attribute("http.response.status_code", status)
        if isinstance(attempts, int) and attempts > 1:
            self._span.set_attribute("http.request.resend_count", attempts - 1)

    def end(self, error: BaseException | None = None) -> None:
        if error is not None:
            self._failed(error)
        self._span.end()

    def _failed(self, error: BaseException) -> None:
        from opentelemetry.trace import Status, StatusCode

        self._span.set_attribute("error.type", type(error).__name__)
        self._span.set_status(Status(StatusCode.ERROR, type(error).__name__))


class _NoSpan:
    """What :func:`operation_span` and :func:`token_span` give when nothing is recorded: every method a no-op."""

    __slots__ = ()

    def __enter__(self) -> _NoSpan:
        return self

    def __exit__(self, *exc_info: object) -> None:
        return None

    def answered(self, response: httpx.Response, attempt: int) -> None:
        return None

    def end(self, error: BaseException | None = None) -> None:
        return None


NO_SPAN = _NoSpan()


def _recording(name: str, attributes: Mapping[str, Any]) -> OperationSpan | _NoSpan:
    """A span started now, or :data:`NO_SPAN` when nothing would record it."""
    api = _api()
    # no SDK configured (the API's proxy provider): its spans would record nothing, so none is started
    if api is None or isinstance(api[0].get_tracer_provider(), api[0].ProxyTracerProvider):
        return NO_SPAN
    span = api[1].start_span(name, kind=api[0].SpanKind.INTERNAL)
    if not span.is_recording():
        span.end()
        return NO_SPAN
    span.set_attributes({key: value for key, value in attributes.items() if value is not None})
    return OperationSpan(span)


def operation_span(
    spec: OperationSpec, url: str | httpx.URL, target: str | None, base_url: httpx.URL
) -> OperationSpan | _NoSpan:
    """``with operation_span(...) as span:`` around one operation (all its attempts)."""
    server = base_url if not str(url).startswith(("http://", "https://")) else httpx.URL(str(url))
    return _recording(
        f"printmgmt {spec.name}",
        {
            "http.request.method": spec.method.upper(),
            "url.template": spec.path,
            "server.address": server.host,
            "server.port": server.port or (443 if server.scheme == "https" else 80),
            "printmgmt.operation": spec.name,
            "printmgmt.operation_id": spec.id,
            "printmgmt.target": target,
        },
    )


def token_span(token_url: str, client_id: str) -> OperationSpan | _NoSpan:
    """A span for acquiring a token from ``token_url`` (never a credential in its attributes)."""
    url = httpx.URL(token_url)
    return _recording(
        "printmgmt token",
        {
            "http.request.method": "POST",
            "url.full": str(url.copy_with(query=None)),
            "server.address": url.host,
            "oauth.client_id": client_id,
        },
    )
