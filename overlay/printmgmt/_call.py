"""What every call shares, async or sync: the per-call options, the httpx arguments they make, and its logs."""

from __future__ import annotations

import logging
import time
from collections.abc import Mapping
from typing import Any, TypedDict

import httpx

from printmgmt_api.types import Operation, Request

from .errors import PrintMgmtError, transport_error

__all__ = [
    "ERROR_BODY_LIMIT",
    "CallOptions",
    "ReadOptions",
    "Timeout",
    "failed_transport",
    "log_response",
    "log_retry",
    "request_kwargs",
]

logger = logging.getLogger("printmgmt")


#: Largest error body read from a streamed download before raising (bytes).
ERROR_BODY_LIMIT = 64 * 1024

#: A per-call timeout: seconds or an ``httpx.Timeout``; ``None`` keeps the client's
#: (``httpx.Timeout(None)`` disables timeouts).
Timeout = float | httpx.Timeout | None


class ReadOptions(TypedDict, total=False):
    """What a wait passes to each of its reads (its own ``timeout`` is the whole wait's)."""

    #: Query parameters added to (and overriding) the operation's own.
    extra_query: Mapping[str, Any]
    #: Headers added to (and overriding) the operation's own.
    extra_headers: Mapping[str, str]


class CallOptions(TypedDict, total=False):
    """What every facade method accepts besides its own arguments (``**options``).

    The interface document shows no bodies and few parameters, so what the SDK sends is partly a guess:
    these let a caller change it without waiting for a release (Stainless' convention).
    """

    #: For this call only: seconds or an ``httpx.Timeout``; ``None`` keeps the client's.
    timeout: Timeout
    #: Query parameters added to (and overriding) the operation's own.
    extra_query: Mapping[str, Any]
    #: Headers added to (and overriding) the operation's own.
    extra_headers: Mapping[str, str]
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
        kwargs["headers"] = {**kwargs.get("headers", {}), **extra_headers}
    if "replace_body" in options:
        kwargs["json"] = options["replace_body"]
    if extra_body := options.get("extra_body"):
        body = kwargs.get("json")
        if body is not None and not isinstance(body, Mapping):
            raise TypeError("extra_body merges into a JSON object body; use replace_body for another shape")
        kwargs["json"] = {**(body or {}), **extra_body}
    return kwargs


def failed_transport(
    exc: httpx.HTTPError | RuntimeError, operation: Operation[Any], request_kwargs: Mapping[str, Any], attempts: int = 1
) -> PrintMgmtError:
    return transport_error(
        exc,
        operation=operation.spec.name,
        method=str(request_kwargs.get("method", "")).upper(),
        url=str(request_kwargs.get("url", "")),
        attempts=attempts,
    )


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
