"""When a failed request is sent again, and how long to wait first (docs/configuration.md, "Retries").

The server has no idempotency keys, so the decision follows the operation's :class:`Repeatability`, not its method.
"""

from __future__ import annotations

import contextlib
import enum
import random
import ssl
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from email.utils import parsedate_to_datetime

import httpx

__all__ = ["Failure", "Repeatability", "RetryPolicy"]


class Repeatability(enum.Enum):
    """How safe an operation is to send twice."""

    #: a read without side effects (GET)
    SAFE = "safe"
    #: repeating has the same effect as doing it once (DELETE, full replacement of a printer or the config)
    IDEMPOTENT = "idempotent"
    #: an action whose replay may answer 412 for work already done (pause, cancel, move...)
    ACTION = "action"
    #: a replay would act twice (POST, repeat, createTestJob)
    NEVER = "never"


_AFTER_SEND_OK = frozenset({Repeatability.SAFE, Repeatability.IDEMPOTENT})
_REFUSED_OK = _AFTER_SEND_OK | {Repeatability.ACTION}
#: The statuses retried, and for which operations: 502/504 may come after the server acted, 429/503 refused.
_RETRYABLE = {429: _REFUSED_OK, 503: _REFUSED_OK, 502: _AFTER_SEND_OK, 504: _AFTER_SEND_OK}

# nothing was sent: always safe to try again
_NOT_SENT = (httpx.ConnectError, httpx.ConnectTimeout, httpx.PoolTimeout)
# the request may have reached the server
_MAYBE_SENT = (httpx.ReadTimeout, httpx.WriteTimeout, httpx.ReadError, httpx.WriteError, httpx.RemoteProtocolError)


#: What an attempt ended with: an answer (a non-2xx response) or the exception that replaced one.
Failure = httpx.Response | BaseException


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    """How many attempts an operation gets and how long to wait between them.

    ``attempts`` counts every try, so ``attempts=1`` (``retries=0`` on the client) never retries.
    """

    attempts: int = 3
    wait_initial: float = 0.5
    wait_max: float = 8.0
    wait_jitter: float = 0.5
    retry_after_cap: float = 60.0
    #: How the wait between attempts is made (``None``: ``asyncio.sleep``, or ``time.sleep`` in the sync client);
    #: a plain function serves both (a test passes a no-op), and the async client awaits what it returns.
    sleep: Callable[[float], object] | None = field(default=None, compare=False, repr=False)

    def __post_init__(self) -> None:
        if isinstance(self.attempts, bool) or not isinstance(self.attempts, int) or self.attempts < 1:
            raise ValueError(f"attempts must be an int >= 1, not {self.attempts!r}")
        for name in ("wait_initial", "wait_max", "wait_jitter", "retry_after_cap"):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} must not be negative")

    @classmethod
    def from_retries(cls, retries: int) -> RetryPolicy:
        """A policy with ``retries`` retries after the first attempt."""
        if isinstance(retries, bool) or not isinstance(retries, int) or retries < 0:
            raise ValueError(f"retries must be an int >= 0, not {retries!r}")
        return cls(attempts=retries + 1)

    def is_retryable_status(self, status_code: int, repeatability: Repeatability) -> bool:
        return repeatability in _RETRYABLE.get(status_code, ())

    def delay(self, attempt: int, failure: Failure, repeatability: Repeatability) -> float | None:
        """Seconds to wait before attempt ``attempt + 1`` (``Retry-After`` up to the cap, else exponential with
        jitter), or ``None`` to stop and raise ``failure``."""
        if attempt >= self.attempts:
            return None
        if isinstance(failure, httpx.Response):
            if not self.is_retryable_status(failure.status_code, repeatability):
                return None
            retry_after = _retry_after(failure)
            if retry_after is not None:
                return retry_after if retry_after <= self.retry_after_cap else None
        elif isinstance(failure, _NOT_SENT):
            if _is_tls_failure(failure):
                return None
        elif not (isinstance(failure, _MAYBE_SENT) and repeatability in _AFTER_SEND_OK):
            return None
        return self.backoff(attempt)

    def backoff(self, attempt: int) -> float:
        """The exponential wait after attempt ``attempt`` (1 for the first), with jitter."""
        return min(self.wait_max, self.wait_initial * 2.0 ** (attempt - 1)) + random.uniform(0, self.wait_jitter)


def _is_tls_failure(exc: BaseException) -> bool:
    """Whether a connect error came from the TLS handshake (an untrusted certificate, a wrong host name)."""
    seen: set[int] = set()
    current: BaseException | None = exc
    while current is not None and id(current) not in seen:
        if isinstance(current, ssl.SSLError | ssl.CertificateError):
            return True
        seen.add(id(current))
        current = current.__cause__ or current.__context__
    return "CERTIFICATE_VERIFY_FAILED" in str(exc)


def _retry_after(response: httpx.Response) -> float | None:
    """Seconds from a ``Retry-After`` header (delta-seconds or HTTP date), or ``None``."""
    value = response.headers.get("Retry-After", "").strip()
    with contextlib.suppress(ValueError):
        return max(0.0, float(value))
    try:
        when = parsedate_to_datetime(value)
    except (TypeError, ValueError):
        return None
    return max(0.0, when.timestamp() - time.time())
