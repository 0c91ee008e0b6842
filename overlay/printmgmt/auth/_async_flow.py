"""The single-flight token driver: one caller sends the token requests of an acquisition, the callers that
need a token meanwhile share its outcome, each within its own time bound; nothing is locked across I/O."""

from __future__ import annotations

from collections.abc import AsyncGenerator

import httpx

from .._deadline import DEADLINE, Deadline
from .._tracing import token_span
from ..errors import RequestTimeout
from ._flights import AsyncFlights
from ._tokens import TokenState, logger

__all__ = ["async_token_flow"]


async def async_token_flow(
    state: TokenState, flights: AsyncFlights[str], request: httpx.Request
) -> AsyncGenerator[httpx.Request, httpx.Response]:
    """httpx's auth flow for ``request``: a bearer token from ``state`` (acquired once for all callers), and
    after a 401 one retry with a renewed token."""
    rejected: str | None = None  # the token a 401 answered, if any
    deadline = Deadline.of(request.extensions)  # signing in is part of the call
    for _attempt in range(2):
        if rejected is not None:
            state.reject(rejected)  # compare-and-clear: a token renewed meanwhile stays
        access = state.usable_access()
        while access is None:
            state.check_backoff()  # after a refusal, fail at once while the back-off lasts
            flight = flights.join()
            if not flight.leading:
                # another caller is fetching the token: share its outcome, within our own time bound
                deadline.during = f" while waiting for another call's sign-in (POST {state.token_url})"
                bound = deadline.within(_wait_bound(request))
                try:
                    access = await flight.outcome(bound)
                except TimeoutError:
                    if deadline.passed():
                        raise deadline.exceeded() from None
                    raise RequestTimeout(
                        f"timed out after {bound} s waiting for the token request to {state.token_url}",
                        method="POST",
                        url=state.token_url,
                    ) from None
                continue
            # a token may have been stored between our look and our joining (threads)
            if (access := state.usable_access()) is not None:
                flight.succeed(access)
                break
            span = token_span(state.token_url, state.client_id)
            deadline.during = f" while signing in (POST {state.token_url})"
            try:
                acquisition = state.acquire(request)
                token_request = next(acquisition)
                while True:
                    # the transport asks the deadline; a caller's own transport gets timeouts within it
                    token_request.extensions |= {
                        DEADLINE: deadline,
                        "timeout": deadline.timeouts(token_request.extensions),
                    }
                    token_response = yield token_request
                    deadline.watch(token_response)
                    await token_response.aread()
                    try:
                        token_request = acquisition.send(token_response)
                    except StopIteration as done:
                        access = done.value
                        break
            except BaseException as exc:
                span.end(exc)
                if deadline.passed():  # our deadline, not the sign-in's failure: the waiters carry on
                    flight.hand_over()
                else:
                    flight.fail(exc, state.shared_failure)
                raise
            span.end()
            state.succeeded()
            flight.succeed(access)
        deadline.during = ""
        request.headers["Authorization"] = f"Bearer {access}"
        response = yield request
        if response.status_code != 401 or rejected is not None:
            return
        # read the 401 now: an unread response holds its pooled connection, and with every connection held by
        # a 401 the token request below could never get one
        await response.aread()
        logger.info("401 from %s %s; renewing the token and retrying once", request.method, request.url.path)
        rejected = access


def _wait_bound(request: httpx.Request) -> float | None:
    """How long a caller waits for another caller's token request: the longest of its own timeouts."""
    timeouts = request.extensions.get("timeout")
    if not isinstance(timeouts, dict):
        return None
    values = [value for value in timeouts.values() if value is not None]
    return max(values) if values and len(values) == len(timeouts) else None
