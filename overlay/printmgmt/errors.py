"""Exceptions raised by printmgmt.

Every failure reaches the caller as a :class:`PrintMgmtError` subclass::

    PrintMgmtError
    ├── TransportError          the request did not get an answer (connection, TLS, protocol)
    │   ├── RequestNotSent      ... and the server did not get it whole: it was not acted on
    │   ├── OutcomeUnknown      ... after the server got it whole: it may have been acted on
    │   └── RequestTimeout      ... because a timeout expired
    │       ├── SendTimeout     ... before it was sent whole (also a RequestNotSent)
    │       └── AnswerTimeout   ... waiting for the answer (also an OutcomeUnknown)
    ├── AuthenticationError     the token endpoint refused or answered nonsense
    ├── ConfigurationError      settings a client cannot be built from (also a ValueError)
    ├── JobFailed               a job waited for reached a failure status (jobs.wait_for)
    │   └── StatusUnreachable   ... or ended in a status other than the one waited for
    ├── WaitTimeout             a wait for jobs ran out of time (also a TimeoutError)
    ├── InvalidQuery            a $filter/$orderby/$select refused before sending (also a ValueError)
    ├── InvalidHeader           a header HTTP/1.1 cannot carry, refused before sending (also a ValueError)
    ├── InvalidResponse         a 2xx answer whose body cannot be read as declared
    ├── PagingError             pages that would lose or repeat items (a server or proxy ignoring $skip)
    └── ApiError                any non-2xx answer of the API
        ├── BadRequest          400
        ├── Unauthorized        401 (after one token renewal and retry)
        ├── Forbidden           403
        ├── NotFound            404
        ├── PreconditionFailed  412: the action is not allowed in the resource's current state
        └── ServerError         5xx

Warnings: :class:`UnknownFieldWarning` (a query names a field the spec does not know), :class:`QueryMeaningWarning`
(the server reads part of a filter otherwise than OData, in a way that may be what was meant).

Messages never contain credentials or tokens. This module imports httpx only when it reads a failure.
"""

from __future__ import annotations

import contextlib
import functools
import html as htmllib
import os
import re
import sys
import traceback
from collections.abc import Iterable, Mapping, Sequence
from http import HTTPStatus
from typing import TYPE_CHECKING, Any

from ._json import loads

if TYPE_CHECKING:  # printmgmt.server's check raises these errors and promises the standard library only
    import httpx

    from printmgmt_api.models import Job

__all__ = [
    "AnswerTimeout",
    "ApiError",
    "AuthenticationError",
    "BadRequest",
    "ConfigurationError",
    "Forbidden",
    "InvalidHeader",
    "InvalidQuery",
    "InvalidResponse",
    "JobFailed",
    "NotFound",
    "OutcomeUnknown",
    "PagingError",
    "PreconditionFailed",
    "PrintMgmtError",
    "QueryMeaningWarning",
    "RequestNotSent",
    "RequestTimeout",
    "SendTimeout",
    "ServerError",
    "StatusUnreachable",
    "Target",
    "TransportError",
    "Unauthorized",
    "UnknownFieldWarning",
    "WaitTimeout",
]

#: How much of a server body an exception keeps (characters).
BODY_EXCERPT_LIMIT = 500


class PrintMgmtError(Exception):
    """Base class of every error printmgmt raises.

    ``resume_skip`` is set on an error that interrupted ``iterate()``: the ``start=`` to resume from.
    """

    resume_skip: int | None = None

    def _render_traceback_(self) -> list[str]:
        """IPython's traceback: the message, the caller's frames (not the SDK's) and the cause in one line."""
        package = os.path.dirname(os.path.abspath(__file__)) + os.sep
        shell = getattr(sys.modules.get("IPython"), "__file__", None)
        hidden = (package, os.path.dirname(shell) + os.sep) if shell else (package,)
        frames = traceback.extract_tb(self.__traceback__)
        caller = [frame for frame in frames if not os.path.abspath(frame.filename).startswith(hidden)]
        lines = [*traceback.format_exception_only(type(self), self)]
        if caller:
            lines += ["Traceback (most recent call last):\n", *traceback.format_list(caller)]
        if len(caller) < len(frames):
            lines.append(f"  ... {len(frames) - len(caller)} frames inside printmgmt (and IPython)\n")
        cause = self.__cause__ or (None if self.__suppress_context__ else self.__context__)
        if cause is not None:
            lines.append(
                f"caused by {type(cause).__module__}.{type(cause).__qualname__}: {cause} (the whole chain: __cause__)\n"
            )
        return "".join(lines).splitlines()


class TransportError(PrintMgmtError):
    """The request got no HTTP answer. The httpx exception is kept as ``__cause__``."""

    def __init__(
        self,
        message: str,
        *,
        method: str | None = None,
        url: str | None = None,
        attempts: int = 1,
        reached: int | None = None,
    ) -> None:
        super().__init__(message)
        self.method, self.url = method, url
        #: How many times the request was sent (retries included).
        self.attempts = attempts
        #: The first attempt (from 1) that may have reached the server and been acted on; ``None``: none may have.
        self.reached = reached


class RequestNotSent(TransportError):
    """The server did not get the whole request: it was not acted on, and sending it again is safe."""


class OutcomeUnknown(TransportError):
    """The connection broke after the whole request was sent (on attempt ``reached``): the server may have acted
    on it; read the resource before sending it again."""


class RequestTimeout(TransportError):
    """A connect, read, write or pool timeout expired, or the call's ``deadline`` passed."""


class SendTimeout(RequestTimeout, RequestNotSent):
    """Timed out before the request was sent whole (connecting, waiting for a connection, sending, signing in)."""


class AnswerTimeout(RequestTimeout, OutcomeUnknown):
    """Timed out waiting for the answer to a request sent whole."""


class ConfigurationError(PrintMgmtError, ValueError):
    """Settings a client cannot be built from: a missing or malformed ``PRINTMGMT_*`` variable, a URL without a
    scheme or with credentials in it."""


class JobFailed(PrintMgmtError):
    """A job waited for reached a failure status (``Error``, ``Canceled`` unless ``fail_on`` says otherwise).

    ``job`` is the job as last read (``e.job.stages``); ``jobs``, for ``wait_for_many``, every job's final state.
    """

    def __init__(self, message: str, *, job: Job, jobs: Sequence[Job] = ()) -> None:
        super().__init__(message)
        self.job, self.jobs = job, list(jobs)


class StatusUnreachable(JobFailed):
    """A job waited for ended in a status neither waited for nor a failure, so it can no longer reach one waited
    for. ``status`` is the status it reached, ``until`` the statuses waited for (sorted)."""

    def __init__(self, message: str, *, job: Job, status: str, until: Iterable[str], jobs: Sequence[Job] = ()) -> None:
        super().__init__(message, job=job, jobs=jobs)
        self.status, self.until = status, sorted(until)


class WaitTimeout(PrintMgmtError, TimeoutError):
    """A wait for jobs did not end within its ``timeout``; ``job`` is the job as last seen (``None``: never
    read), ``jobs`` for ``wait_for_many`` each job as last seen, ``pending`` those of them that had not ended."""

    def __init__(
        self,
        message: str,
        *,
        timeout: float,
        job: Job | None = None,
        jobs: Sequence[Job] = (),
        pending: Sequence[Job] = (),
    ) -> None:
        super().__init__(message)
        self.timeout, self.job, self.jobs, self.pending = timeout, job, list(jobs), list(pending)


class PagingError(PrintMgmtError):
    """Paging would lose or repeat items: the page at ``$skip`` ``skip`` brought nothing new (a server or a proxy
    that ignores ``$skip``)."""

    def __init__(self, message: str, *, skip: int) -> None:
        super().__init__(message)
        self.skip = skip


class InvalidQuery(PrintMgmtError, ValueError):
    """A query option the server would refuse, or read otherwise than OData does, found before any request.

    ``option`` is the query option (``$filter``, ``$orderby``, ``$select``), ``text`` what was given,
    ``position`` the 0-based index of the problem (``None``: the whole text), ``reason`` the problem in words.
    ``rewrite``, for a filter the server groups otherwise than OData or a dotted name, is the text with the
    parentheses (or slashes) that give OData's meaning; else ``None``.
    """

    def __init__(
        self, *, option: str, text: str, position: int | None, reason: str, rewrite: str | None = None
    ) -> None:
        where = ""
        if position is not None:
            excerpt = text[position : position + 24] + ("…" if len(text) > position + 24 else "")
            where = f" (at position {position}: {excerpt})"
        super().__init__(f"{option}: {reason}{where}")
        self.option, self.text, self.position, self.reason, self.rewrite = option, text, position, reason, rewrite


class InvalidHeader(PrintMgmtError, ValueError):
    """A header name or value that HTTP/1.1 cannot carry (h11's rules), refused before anything is sent.

    ``name`` is the name as given (cut before the first character a name cannot hold: what follows may be a
    credential), ``where`` where it was given (``headers=``), ``reason`` the problem. The value is never shown.
    """

    def __init__(self, *, name: str, where: str, reason: str) -> None:
        super().__init__(f"{where}: {reason}")
        self.name, self.where, self.reason = name, where, reason


class UnknownFieldWarning(UserWarning):
    """A query names a field the spec's model does not have (``stauts``). The server keeps fields the spec
    does not know, so the query is sent as written; ``suggestions`` are the nearest known names."""

    def __init__(self, *, option: str, path: str, collection: str, suggestions: Sequence[str]) -> None:
        hint = f" (did you mean {' or '.join(suggestions)}?)" if suggestions else ""
        super().__init__(f"{option}: {path} is not a field of {collection} in the spec{hint}; sent as written")
        self.option, self.path, self.collection, self.suggestions = option, path, collection, list(suggestions)


class QueryMeaningWarning(UserWarning):
    """The server reads part of a filter otherwise than OData, in a way that may be what was meant (its
    ``startswith`` ignores case); the filter is sent as written. ``position`` is where, ``reason`` says how,
    ``kind`` names the reading for code (``"case"``: a text function's match ignores case)."""

    def __init__(self, *, option: str, text: str, position: int, reason: str, kind: str = "") -> None:
        super().__init__(f"{option}: {reason} (at position {position}); sent as written")
        self.option, self.text, self.position, self.reason, self.kind = option, text, position, reason, kind


class AuthenticationError(PrintMgmtError):
    """The identity provider refused to issue a token, or answered with something that is not a token;
    ``error`` and ``error_description`` are the OAuth 2.0 fields of the refusal when it sent them."""

    def __init__(
        self,
        message: str,
        *,
        status_code: int | None = None,
        error: str | None = None,
        error_description: str | None = None,
    ) -> None:
        super().__init__(message)
        self.status_code, self.error, self.error_description = status_code, error, error_description


class _ResponseError(PrintMgmtError):
    """Shared fields of errors that carry an HTTP answer."""

    def __init__(
        self,
        message: str,
        *,
        status_code: int,
        method: str,
        url: str,
        operation: str,
        body: str,
        raw_body: str | None = None,
        headers: Mapping[str, str] | None = None,
        attempts: int = 1,
    ) -> None:
        super().__init__(message)
        #: How many times the request was sent (retries included).
        self.attempts = attempts
        self.status_code, self.method, self.url, self.operation = status_code, method, url, operation
        #: The start of the response body (at most ``BODY_EXCERPT_LIMIT`` characters); ``raw_body`` all of it.
        self.body = body
        self.raw_body = raw_body if raw_body is not None else body
        self.headers: Mapping[str, str] = dict(headers or {})


class InvalidResponse(_ResponseError):
    """A successful status whose body does not match the interface (broken JSON, wrong types...)."""


class Target(str):
    """What an operation acts on, as messages, logs and spans name it (``job 'abc'``), with its ``kind``
    (``job``) and ``key`` (``abc``) apart. A ``str``, so it travels the request path as the text it names."""

    kind: str
    key: str

    def __new__(cls, kind: str, key: str) -> Target:
        target = super().__new__(cls, f"{kind} {key!r}")
        target.kind, target.key = kind, key
        return target


class ApiError(_ResponseError):
    """The API answered with a status outside 2xx.

    ``str(error)`` tells the whole story (``jobs.pause on job 'abc' refused: 412 Precondition Failed: job is
    paused [E412]``). ``code``, ``message`` (the server's own words alone, or ``None``) and ``metadata`` come
    from a JSON error body; for a plain-text body ``message`` is an excerpt of that text.
    """

    def __init__(
        self,
        message: str,
        *,
        code: str | None = None,
        server_message: str | None = None,
        metadata: Mapping[str, Any] | None = None,
        target: str | None = None,
        **context: Any,  # the response fields of _ResponseError
    ) -> None:
        super().__init__(message, **context)
        self.code, self.message = code, server_message
        self.metadata: Mapping[str, Any] = dict(metadata or {})
        #: The key of what the operation acted on (a job's id, a printer's name), and its kind (``job``).
        self.target = target.key if isinstance(target, Target) else target
        self.target_kind = target.kind if isinstance(target, Target) else None
        #: What a user can do about a common mistake (already the end of ``str(error)``), or "".
        self.hint = ""


class BadRequest(ApiError):
    """400: the request was rejected (bad body, an unparsable ``$filter`` or an unknown ``$`` key)."""


class Unauthorized(ApiError):
    """401: not authenticated, even after one token renewal."""


class Forbidden(ApiError):
    """403: the caller's roles do not permit the operation. ``area`` is the operation's permission area
    (``jobs``, ``dashboard``), ``client`` the client the token was requested for (``None``: not known)."""

    area: str | None = None
    client: str | None = None


class NotFound(ApiError):
    """404: the target does not exist."""


class PreconditionFailed(ApiError):
    """412: the action (``action``: ``pause``) is not allowed in the target's current state (a paused job)."""

    @property
    def action(self) -> str:
        return self.operation.rpartition(".")[2]


class ServerError(ApiError):
    """5xx: the server failed."""


_BY_STATUS: dict[int, type[ApiError]] = {
    400: BadRequest,
    401: Unauthorized,
    403: Forbidden,
    404: NotFound,
    412: PreconditionFailed,
}


def _excerpt(text: str) -> str:
    return text if len(text) <= BODY_EXCERPT_LIMIT else text[:BODY_EXCERPT_LIMIT] + "…"


def is_html(text: str) -> bool:
    """Whether a body is an HTML page (a proxy's, a sign-in page, Express's default error page)."""
    return text[:200].lstrip().lower().startswith(("<!doctype html", "<html", "<head", "<body", "<pre", "<h1"))


def _error_fields(response: httpx.Response) -> tuple[str | None, str | None, Mapping[str, Any] | None]:
    """``code``, ``message`` and ``metadata`` of an error body (an HTML page's words without markup)."""
    text = response.text.strip()
    if not text:
        return None, None, None
    try:
        data = loads(text)
    except ValueError:
        if is_html(text):
            text = re.sub(r"<(script|style|head)\b.*?</\1>", " ", text, flags=re.I | re.S)
            text = " ".join(htmllib.unescape(re.sub(r"<[^>]+>", " ", text)).split())
        return None, _excerpt(text), None
    if not isinstance(data, dict):
        return None, _excerpt(text), None
    code, message = _said(data)
    if isinstance(message, Mapping) and "value" in message:  # OData v2: {"lang": "en-US", "value": "..."}
        message = message["value"]
    metadata = data.get("metadata")
    return (
        str(code) if code is not None and code != "" else None,
        _excerpt(str(message)) if message is not None else None,
        metadata if isinstance(metadata, dict) else None,
    )


def _said(data: Mapping[str, Any]) -> tuple[Any, Any]:
    """The code and the words of a JSON error body: SEAL's ``{code, message, metadata}``; OData's ``{"error"|
    "odata.error": {"code", "message"}}``; OAuth's ``{"error", "error_description"}``; ``{"error": "..."}``;
    RFC 7807's ``{"title", "detail"}``."""
    inner = data.get("error", data.get("odata.error"))
    if isinstance(inner, Mapping):
        return inner.get("code"), inner.get("message")
    if "message" in data:
        return data.get("code"), data["message"]
    if isinstance(data.get("error_description"), str):
        return inner, data["error_description"]
    if isinstance(inner, str):
        return data.get("code"), inner
    if isinstance(data.get("detail"), str) or isinstance(data.get("title"), str):
        return data.get("code"), data.get("detail") or data.get("title")
    return data.get("code"), None


def response_context(response: httpx.Response) -> dict[str, Any]:
    """The keyword arguments every response-carrying error shares (no credential header)."""
    request = response.request
    secret = {"authorization", "set-cookie", "cookie", "proxy-authorization"}
    return {
        "status_code": response.status_code,
        "method": request.method,
        "url": str(request.url),
        "body": _excerpt(response.text),
        "raw_body": response.text,
        "headers": {k: v for k, v in response.headers.items() if k.lower() not in secret},
    }


def error_for_response(
    response: httpx.Response,
    *,
    operation: str,
    target: str | None = None,
    attempts: int = 1,
    area: str | None = None,
    client: str | None = None,
) -> ApiError:
    """The :class:`ApiError` subclass for a non-2xx ``response`` read whole; ``area`` and ``client`` explain a 403."""
    status = response.status_code
    cls = _BY_STATUS.get(status) or (ServerError if 500 <= status <= 599 else ApiError)
    code, server_message, metadata = _error_fields(response)
    what = f"{operation} on {target}" if target else operation
    verb = "refused" if cls is PreconditionFailed else "failed"
    try:
        reason = HTTPStatus(status).phrase
    except ValueError:
        reason = "Unknown Status"
    message = f"{what} {verb}: {status} {reason}"
    if said := _unlabelled(server_message, reason):
        message += f": {said}"
    if code:
        message += f" [{code}]"
    if attempts > 1:
        message += f" (after {attempts} attempts)"
    if undecodable := response.extensions.get(UNDECODABLE):
        message += f"; {undecodable}"
    hint = ""
    with contextlib.suppress(RuntimeError):  # a response built without its request (tests) names no URL
        request = response.request
        hint = _hint(status, request)
        message += f" ({request.method} {request.url.path})" + hint
    if cls is Forbidden and (area or client):
        # the server grants each client's roles areas (ALLOWED_OIDC_CLIENTS): say which pair was refused
        message += " (" + ", ".join(part for part in (area and f"area {area!r}", client) if part) + ")"
        if area == "dashboard" and "(client kind 'graphical')" not in (client or ""):  # else: the user's roles
            hint = DASHBOARD_HINT
            message += hint
    error = cls(
        message,
        attempts=attempts,
        operation=operation,
        code=code,
        server_message=server_message,
        metadata=metadata,
        target=target,
        **response_context(response),
    )
    error.hint = hint
    if isinstance(error, Forbidden):
        error.area, error.client = area, client
    return error


#: The end of a 404 whose path starts /v3/v3/ (``ApiError.hint``).
BASE_URL_HINT = "; the base URL ends in /v3: give the server's root (https://host:port), the SDK adds /v3"
#: The end of a 403 on a statistics operation (``ApiError.hint``).
DASHBOARD_HINT = (
    "; statistics are usually granted to the graphical client only: set client_kind='graphical' "
    "(PRINTMGMT_CLIENT_KIND=graphical) and client_secret to that client's own secret (PRINTMGMT_CLIENT_SECRET)"
)


def _unlabelled(server_message: str | None, label: str) -> str | None:
    """The server's message without the status's words before it (``Forbidden: no access``); None if nothing more."""
    if not server_message:
        return None
    text = server_message.strip()
    if text.rstrip(".").lower() == label.lower():
        return None
    head, sep, rest = text.partition(":")
    return rest.strip() if sep and head.strip().lower() == label.lower() and rest.strip() else text


def _hint(status: int, request: httpx.Request) -> str:
    """What a user can do about a common misconfiguration, seen from the request."""
    if status == 404 and request.url.path.startswith("/v3/v3/"):
        return BASE_URL_HINT
    sent = [name for name in ("$filter", "$orderby", "$select") if name in request.url.params]
    if status == 400 and sent:
        return (
            f"; check the OData syntax of {', '.join(sent)} (printmgmt.odata builds filters the server reads: "
            "odata.field('status') == 'Error')"
        )
    return ""


#: The extension of a response whose body was not in its declared ``Content-Encoding``: what failed.
UNDECODABLE = "printmgmt_undecodable"


def invalid_response(response: httpx.Response, *, operation: str, problem: str) -> InvalidResponse:
    """An :class:`InvalidResponse` for a 2xx ``response`` that could not be read."""
    return InvalidResponse(
        f"{operation}: the server's {response.status_code} answer could not be read: {problem}",
        operation=operation,
        **response_context(response),
    )


class DeadlineMark(Exception):
    """Marks a passed call ``deadline`` (a :class:`RequestTimeout`, never retried); ``before_sending``: signing in."""

    before_sending: bool = False


@functools.cache
def _failures() -> tuple[
    tuple[type[BaseException], ...], tuple[type[BaseException], ...], dict[type[BaseException], str]
]:
    """httpx's errors of a request the server did not get whole, of one it did, and each error in words."""
    import httpx

    not_sent = (httpx.ConnectError, httpx.ConnectTimeout, httpx.PoolTimeout, httpx.WriteError, httpx.WriteTimeout)
    sent = (httpx.ReadError, httpx.ReadTimeout, httpx.RemoteProtocolError)
    said: dict[type[BaseException], str] = {
        httpx.ConnectTimeout: "timed out connecting to the server",
        httpx.ReadTimeout: "timed out waiting for the answer",
        httpx.WriteTimeout: "timed out sending the request",
        httpx.PoolTimeout: "timed out waiting for a free connection",
        httpx.ConnectError: "could not connect to the server",
        httpx.RemoteProtocolError: "the server closed the connection or answered with broken HTTP",
        httpx.ReadError: "the connection broke while reading the answer",
        httpx.WriteError: "the connection broke while sending the request",
        RuntimeError: "the HTTP client could not send it (closed, or used from an event loop that has ended)",
    }
    return not_sent, sent, said


def _reached(attempt: int) -> str:
    return f"; outcome unknown: attempt {attempt} may have reached the server and been acted on"


def transport_error(
    exc: httpx.HTTPError | RuntimeError,
    *,
    operation: str,
    method: str,
    url: str,
    attempts: int = 1,
    reached: int | None = None,
) -> TransportError:
    """The :class:`TransportError` (or :class:`RequestTimeout`) for an exception of the HTTP stack, in words;
    ``reached``: the first attempt that may have reached the server (:func:`may_have_acted`), which makes the
    error an :class:`OutcomeUnknown` whatever ``exc`` says of the last one."""
    import httpx

    if isinstance(exc, httpx.HTTPError):
        with contextlib.suppress(RuntimeError):  # raised when the error came before a request existed
            # the request that failed: the API request, or the token request the auth flow sent for it
            method, url = exc.request.method, str(exc.request.url)
    cls = _transport_class(exc)
    # the query string (filter values, ids) stays out of the message, which ends up in logs
    where = str(httpx.URL(url).copy_with(query=None, fragment=None))
    what = type(exc).__name__
    detail = str(exc)
    said = next((text for kind, text in _failures()[2].items() if isinstance(exc, kind)), "the request failed")
    extra = f": {detail}" if detail and detail != what else ""
    if isinstance(exc, DeadlineMark):  # its text says it all, and what was under way (the cause's name)
        said, what, extra = detail, type(exc.__cause__ or exc).__name__, ""
    tries = f" after {attempts} attempts" if attempts > 1 else ""
    known = ""
    if issubclass(cls, RequestNotSent):
        known = "; not sent: the server did not get the whole request"
    elif issubclass(cls, OutcomeUnknown):
        known = "; outcome unknown: the server got the whole request and may have acted on it"
    if reached is None and issubclass(cls, OutcomeUnknown):
        reached = attempts
    elif reached is not None and reached < attempts:
        if not issubclass(cls, OutcomeUnknown):
            cls = AnswerTimeout if issubclass(cls, RequestTimeout) else OutcomeUnknown
        known = _reached(reached)
    return cls(
        f"{operation}: {method} {where} failed{tries}: {said} ({what}{extra}){known}",
        method=method,
        url=url,
        attempts=max(attempts, 1),
        reached=reached,
    )


def outcome_unknown_after(answer: ApiError, reached: int) -> OutcomeUnknown:
    """The error of a call whose attempt ``reached`` may have been acted on: the last ``answer`` may describe what
    that attempt did (a 404 to a ``DELETE`` that had deleted), so it is the ``__cause__``, not the outcome."""
    return OutcomeUnknown(
        f"{answer}{_reached(reached)}", method=answer.method, url=answer.url, attempts=answer.attempts, reached=reached
    )


def may_have_acted(failure: httpx.Response | BaseException) -> bool:
    """Whether the server may have acted on the attempt that ended in ``failure``: it got the whole request
    and no answer came back, or a gateway answered that the server's own answer did not reach it."""
    if not isinstance(failure, BaseException):
        return failure.status_code in (502, 504)
    return issubclass(_transport_class(failure), OutcomeUnknown)


#: The request extension that marks a token request (a failure of it means the call's own was not sent).
TOKEN_REQUEST = "printmgmt_token_request"


def _transport_class(exc: BaseException) -> type[TransportError]:
    """The error class of a failure: whether the server got the whole request, and whether a timeout ended it."""
    import httpx

    not_sent, sent_whole, _ = _failures()
    timeout = isinstance(exc, httpx.TimeoutException)
    of_token_request = False
    with contextlib.suppress(RuntimeError):  # an httpx error raised before a request existed
        of_token_request = isinstance(exc, httpx.HTTPError) and TOKEN_REQUEST in exc.request.extensions
    if isinstance(exc, DeadlineMark):
        # what the deadline ended: signing in (the call's own request not sent yet), or what its cause says
        sent = not exc.before_sending and not isinstance(exc.__cause__, not_sent)
    elif of_token_request or isinstance(exc, (*not_sent, RuntimeError)):
        sent = False  # a token request's failure: the call's own request was not sent yet
    elif isinstance(exc, sent_whole):
        sent = True
    else:
        return RequestTimeout if timeout else TransportError
    if sent:
        return AnswerTimeout if timeout else OutcomeUnknown
    return SendTimeout if timeout else RequestNotSent
