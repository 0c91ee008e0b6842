"""Authentication strategies: ``httpx.Auth`` objects for the client's own ``httpx.AsyncClient``.

:class:`PasswordAuth` implements the interface's token request (Keycloak password grant with a
confidential client). Token requests are yielded through the same httpx client as API requests, so they
share its transport, TLS settings, proxies and mocks.
"""

from __future__ import annotations

import logging
import threading
import time
from collections.abc import AsyncGenerator, Callable, Generator
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Final, Literal, TypedDict, Unpack
from urllib.parse import quote

import httpx

from ._json import loads
from ._per_loop import PerLoop
from ._tracing import token_span
from .errors import AuthenticationError, RequestTimeout, TransportError, is_html

if TYPE_CHECKING:  # imported at first use: importing the SDK, or a sync program, never loads asyncio
    import asyncio
    import concurrent.futures

__all__ = ["CLIENT_IDS", "BearerToken", "ClientKind", "PasswordAuth", "SessionAuth"]

logger = logging.getLogger("printmgmt.auth")

ClientKind = Literal["graphical", "operator", "cli"]

#: Default client ids (``<service>-<client_kind>``) of the three registered clients of a SEAL deployment.
CLIENT_IDS: Final[dict[str, str]] = {
    "graphical": "seal-plossysadmin",
    "operator": "seal-opcli",
    "cli": "seal-plossyscli",
}

#: Back-off after a failed token request: the first retry is allowed this many seconds later, doubling up to
#: :data:`BACKOFF_MAX` (a refused password retried by every caller would trip Keycloak's brute-force lockout).
BACKOFF_INITIAL = 1.0
BACKOFF_MAX = 30.0

#: Renew this long before ``expires_in`` runs out, at most (a tenth of the lifetime for short tokens).
DEFAULT_LEEWAY = 30.0


@dataclass(slots=True)
class _Tokens:
    """Current tokens and when they stop being usable (monotonic seconds)."""

    access: str | None = None
    access_until: float = 0.0
    refresh: str | None = None
    refresh_until: float | None = None  # None: the server gave no lifetime; try it

    def __repr__(self) -> str:  # never show token values
        return f"_Tokens(access={'set' if self.access else None}, refresh={'set' if self.refresh else None})"


class BearerToken(httpx.Auth):
    """A fixed bearer token obtained elsewhere (like the SEAL CLIs' ``--bearer``)."""

    def __init__(self, token: str) -> None:
        if not isinstance(token, str) or not token:
            raise ValueError("BearerToken needs a non-empty token string")
        self._token = token

    def __repr__(self) -> str:
        return "BearerToken(token='***')"

    def auth_flow(self, request: httpx.Request) -> Generator[httpx.Request, httpx.Response, None]:
        request.headers["Authorization"] = f"Bearer {self._token}"
        yield request


class PasswordAuth(httpx.Auth):
    """OAuth 2.0 password grant against the deployment's Keycloak realm.

    The token URL is ``{auth_url}/realms/{realm}/protocol/openid-connect/token`` (any path on ``auth_url``,
    such as a legacy ``/auth`` prefix, is kept), or ``token_url`` as given. ``client_id`` defaults to the
    id of ``client_kind`` (see :data:`CLIENT_IDS`).

    The access token is reused until shortly before ``expires_in``; then it is renewed with the refresh
    token, or with a new password grant when that is refused or expired. A 401 from the API drops the token
    and retries that request once.

    One token request per acquisition, whatever the number of callers: the first caller that needs a token
    sends the request (through the client, as part of its own request's auth flow); the others await its
    outcome on a shared future, each within its own timeout, and get the same token or the same failure.
    Nothing is locked across network I/O. After a refusal (the identity provider answered, but gave no
    token), later calls fail at once with that refusal for a back-off that doubles from
    :data:`BACKOFF_INITIAL` to :data:`BACKOFF_MAX` seconds and ends with the next success; a provider that
    could not be reached is tried again by the next call, paced by the client's retry policy.
    """

    def __init__(
        self,
        *,
        username: str,
        password: str,
        client_secret: str,
        client_id: str | None = None,
        client_kind: ClientKind = "cli",
        auth_url: str | None = None,
        realm: str = "SEAL",
        token_url: str | None = None,
        leeway: float = DEFAULT_LEEWAY,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        if token_url is None:
            if not auth_url:
                raise ValueError("PasswordAuth needs auth_url (with realm) or token_url")
            _check_url("auth_url", auth_url)
            if not isinstance(realm, str) or not realm:
                raise ValueError("realm must be a non-empty string")
            token_url = f"{auth_url.rstrip('/')}/realms/{quote(realm, safe='')}/protocol/openid-connect/token"
        else:
            _check_url("token_url", token_url)
        if client_id is None:
            if client_kind not in CLIENT_IDS:
                raise ValueError(f"client_kind must be one of {sorted(CLIENT_IDS)}, not {client_kind!r}")
            client_id = CLIENT_IDS[client_kind]
        for name, value in (("username", username), ("password", password), ("client_secret", client_secret)):
            if not isinstance(value, str) or not value:
                raise ValueError(f"PasswordAuth needs a non-empty {name}")
        if leeway < 0:
            raise ValueError("leeway must not be negative")
        self.token_url = token_url
        self.client_id = client_id
        self.username = username
        self._password = password
        self._client_secret = client_secret
        self._leeway = leeway
        self._clock = clock
        self._tokens = _Tokens()
        self._flights = PerLoop(_Flights)
        # the sync client's threads: one acquisition in flight, guarded by a lock held only to check-and-set it
        self._thread_flight: concurrent.futures.Future[str] | None = None
        self._thread_lock = threading.Lock()
        self._backoff = _Backoff()
        #: Number of token requests sent (password and refresh grants); useful in tests and metrics.
        self.token_requests = 0

    def __repr__(self) -> str:
        return (
            f"PasswordAuth(token_url={self.token_url!r}, client_id={self.client_id!r}, "
            f"username={self.username!r}, password='***', client_secret='***')"
        )

    # -- token state (sans I/O) --------------------------------------------------------------------

    def _usable_access(self) -> str | None:
        tokens = self._tokens
        if tokens.access is not None and self._clock() < tokens.access_until:
            return tokens.access
        return None

    def _grant_request(self, fields: dict[str, str], api_request: httpx.Request) -> httpx.Request:
        self.token_requests += 1
        data = {"client_id": self.client_id, "client_secret": self._client_secret, **fields}
        headers = {"Accept": "application/json"}
        if user_agent := api_request.headers.get("User-Agent"):
            headers["User-Agent"] = user_agent
        extensions: dict[str, Any] = {"printmgmt_token_request": True}
        # A request built outside AsyncClient.build_request has no timeouts at all: take the client's from
        # the API request, or a silent identity provider stalls every caller queued on the lock forever.
        if "timeout" in api_request.extensions:
            extensions["timeout"] = api_request.extensions["timeout"]
        return httpx.Request("POST", self.token_url, data=data, headers=headers, extensions=extensions)

    def _acquire(self, api_request: httpx.Request) -> Generator[httpx.Request, httpx.Response, str]:
        """Yield token requests until a token is stored; return the access token.

        At most two requests: a refresh grant (when a refresh token is usable) and a password grant.
        """
        tokens = self._tokens
        if tokens.refresh is not None and (tokens.refresh_until is None or self._clock() < tokens.refresh_until):
            response = yield self._grant_request(
                {"grant_type": "refresh_token", "refresh_token": tokens.refresh}, api_request
            )
            if response.is_success:
                try:
                    return self._store(response, keep_refresh=True)
                except AuthenticationError:
                    logger.warning("refresh grant answered without a usable token; logging in again")
            else:
                logger.info("refresh token refused (%s); logging in again", response.status_code)
            tokens.refresh = None
        response = yield self._grant_request(self._password_fields(), api_request)
        if not response.is_success:
            raise _refusal(response, self.token_url)
        return self._store(response)

    def _password_fields(self) -> dict[str, str]:
        """The form of a password grant (what to do once no refresh token is usable)."""
        return {"grant_type": "password", "username": self.username, "password": self._password}

    def _rotated(self, refresh_token: str) -> None:
        """A new refresh token was stored (a hook: :class:`SessionAuth` keeps it)."""

    @property
    def refresh_token(self) -> str | None:
        """The current refresh token, to keep a session beyond this process (``printmgmt login``); a secret."""
        return self._tokens.refresh

    def _store(self, response: httpx.Response, *, keep_refresh: bool = False) -> str:
        try:
            body = loads(response.content)
        except ValueError:
            body = None
        access = body.get("access_token") if isinstance(body, dict) else None
        if not isinstance(access, str) or not access:
            raise AuthenticationError(
                f"token endpoint {self.token_url} answered {response.status_code} without an access_token"
                + _html_hint(response),
                status_code=response.status_code,
            )
        assert isinstance(body, dict)
        now = self._clock()
        lifetime = _seconds(body.get("expires_in"), default=60.0)
        tokens = self._tokens
        tokens.access = access
        tokens.access_until = now + lifetime - _margin(self._leeway, lifetime)
        refresh = body.get("refresh_token")
        if isinstance(refresh, str) and refresh:
            if refresh != tokens.refresh:
                self._rotated(refresh)
            tokens.refresh = refresh
            refresh_lifetime = _seconds(body.get("refresh_expires_in"), default=0.0)
            # Keycloak sends refresh_expires_in=0 for tokens that do not expire
            tokens.refresh_until = (
                now + refresh_lifetime - _margin(self._leeway, refresh_lifetime) if refresh_lifetime else None
            )
        elif not keep_refresh:
            tokens.refresh = tokens.refresh_until = None
        # else: a refresh answer without a new refresh token leaves the old one in force (RFC 6749, 6)
        logger.debug("token acquired for %s, valid for %.0f s", self.username, lifetime)
        return access

    # -- the httpx flow ----------------------------------------------------------------------------

    def sync_auth_flow(self, request: httpx.Request) -> Generator[httpx.Request, httpx.Response, None]:
        """The sync client's flow: as ``async_auth_flow``, with threads in place of tasks.

        One thread fetches the token; the others wait on its outcome (a future, within their own time
        bound). The lock guards only the check-and-set of the flight, never the token request itself.
        """
        rejected: str | None = None
        for _attempt in range(2):
            if rejected is not None and self._tokens.access == rejected:
                self._tokens.access = None
            access = self._usable_access()
            while access is None:
                with self._thread_lock:
                    flight = self._thread_flight
                    leading = flight is None
                    if flight is None and (access := self._usable_access()) is None:
                        self._backoff.check(self._clock(), self.token_url)
                        flight = self._thread_flight = _thread_future()
                if flight is None:
                    continue  # another thread stored a token meanwhile
                if not leading:
                    access = _wait_for_flight(flight, _wait_bound(request), self.token_url)
                    continue
                span = token_span(self.token_url, self.client_id)
                try:
                    acquisition = self._acquire(request)
                    token_request = next(acquisition)
                    while True:
                        token_response = yield token_request
                        token_response.read()
                        try:
                            token_request = acquisition.send(token_response)
                        except StopIteration as done:
                            access = done.value
                            break
                except BaseException as exc:
                    span.end(exc)
                    with self._thread_lock:
                        self._thread_flight = None
                    flight.set_exception(self._shared_failure(exc))
                    raise
                span.end()
                with self._thread_lock:
                    self._thread_flight = None
                self._backoff.reset()
                flight.set_result(access)
            request.headers["Authorization"] = f"Bearer {access}"
            response = yield request
            if response.status_code != 401 or rejected is not None:
                return
            response.read()  # the 401's connection goes back to the pool before the token request below
            logger.info("401 from %s %s; renewing the token and retrying once", request.method, request.url.path)
            rejected = access

    async def async_auth_flow(self, request: httpx.Request) -> AsyncGenerator[httpx.Request, httpx.Response]:
        rejected: str | None = None  # the token a 401 answered, if any
        for _attempt in range(2):
            if rejected is not None and self._tokens.access == rejected:
                self._tokens.access = None  # compare-and-clear: a token renewed meanwhile stays
            access = self._usable_access()
            while access is None:
                flights = self._flights.get()
                if flights.current is not None:
                    # another caller is fetching the token: share its outcome, within our own time bound
                    access = await _await_flight(flights.current, _wait_bound(request), self.token_url)
                    continue
                self._backoff.check(self._clock(), self.token_url)
                flight = flights.current = _loop_future()
                span = token_span(self.token_url, self.client_id)
                try:
                    acquisition = self._acquire(request)
                    token_request = next(acquisition)
                    while True:
                        token_response = yield token_request
                        await token_response.aread()
                        try:
                            token_request = acquisition.send(token_response)
                        except StopIteration as done:
                            access = done.value
                            break
                except BaseException as exc:
                    flights.current = None
                    span.end(exc)
                    _settle_failed(flight, self._failed(exc, request))
                    raise
                span.end()
                flights.current = None
                self._backoff.reset()
                flight.set_result(access)
            request.headers["Authorization"] = f"Bearer {access}"
            response = yield request
            if response.status_code != 401 or rejected is not None:
                return
            # read the 401 now: an unread response holds its pooled connection, and with every connection
            # held by a 401 the token request below could never get one
            await response.aread()
            logger.info("401 from %s %s; renewing the token and retrying once", request.method, request.url.path)
            rejected = access

    def _failed(self, exc: BaseException, request: httpx.Request) -> BaseException:
        """What the callers waiting on a failed acquisition get (and remember it for the back-off)."""
        import asyncio

        task = asyncio.current_task()
        if isinstance(exc, GeneratorExit | asyncio.CancelledError) and task is not None and task.cancelling():
            return _LeaderGone()  # the fetching caller was cancelled: a waiter fetches instead
        return self._shared_failure(exc)

    def _shared_failure(self, exc: BaseException) -> BaseException:
        if isinstance(exc, GeneratorExit):
            # httpx closes this flow when sending the token request failed; it gives the fetching caller the
            # error itself, but not this flow, so the waiters get its gist
            shared: BaseException = TransportError(
                f"token request failed: POST {self.token_url} could not be completed (the identity provider "
                "could not be reached or did not answer in time; the first caller has the details)",
                method="POST",
                url=self.token_url,
            )
            return shared  # the retry policy paces new attempts of an unreachable provider
        if isinstance(exc, AuthenticationError):
            # the provider answered and refused: the same request would be refused again (and a wrong password
            # retried by every caller trips Keycloak's brute-force lockout), so later calls back off
            self._backoff.failed(self._clock(), exc)
            return exc
        return AuthenticationError(f"token request failed: {type(exc).__name__}")


class SignInOptions(TypedDict, total=False):
    """Where and as which client a :class:`SessionAuth` signs in (:class:`PasswordAuth`'s keywords)."""

    client_id: str | None
    client_kind: ClientKind
    auth_url: str | None
    realm: str
    token_url: str | None
    leeway: float
    clock: Callable[[], float]


class SessionAuth(PasswordAuth):
    """Tokens from a refresh token kept from an earlier sign-in (``printmgmt login``), without the password.

    Each access token is renewed with the refresh token; each new refresh token the identity provider
    rotates in is passed to ``on_refresh`` (to keep it where the old one was). When the refresh token is
    refused or expired, the session has ended: :class:`~printmgmt.errors.AuthenticationError` says to sign
    in again. Otherwise as :class:`PasswordAuth` (one token request per acquisition, back-off after refusals).
    """

    def __init__(
        self,
        *,
        refresh_token: str,
        username: str,
        client_secret: str,
        on_refresh: Callable[[str], object] | None = None,
        **where: Unpack[SignInOptions],
    ) -> None:
        """``where``: the identity provider and client, as for :class:`PasswordAuth` (``auth_url`` and
        ``realm``, or ``token_url``; ``client_id`` or ``client_kind``; ``leeway``, ``clock``)."""
        if not isinstance(refresh_token, str) or not refresh_token:
            raise ValueError("SessionAuth needs a non-empty refresh_token")
        # the password is never sent: _password_fields refuses instead
        super().__init__(username=username, password="-", client_secret=client_secret, **where)
        self._tokens.refresh = refresh_token
        self._on_refresh = on_refresh

    def __repr__(self) -> str:
        return (
            f"SessionAuth(token_url={self.token_url!r}, client_id={self.client_id!r}, "
            f"username={self.username!r}, refresh_token='***', client_secret='***')"
        )

    def revocation_request(self) -> httpx.Request:
        """The request that ends this session at the identity provider (RFC 7009, Keycloak's ``.../revoke``
        beside the token endpoint); send it without auth. ``printmgmt logout`` does."""
        data = {
            "token": self._tokens.refresh or "",
            "token_type_hint": "refresh_token",
            "client_id": self.client_id,
            "client_secret": self._client_secret,
        }
        url = self.token_url.removesuffix("/token") + "/revoke"
        return httpx.Request("POST", url, data=data, headers={"Accept": "application/json"})

    def _password_fields(self) -> dict[str, str]:
        raise AuthenticationError(
            f"the session of {self.username} at {self.token_url} has ended (its refresh token was refused or "
            "has expired): sign in again (printmgmt login)"
        )

    def _rotated(self, refresh_token: str) -> None:
        if self._on_refresh is not None:
            self._on_refresh(refresh_token)


class _Flights:
    """The token acquisition in flight in one event loop, if any (futures must not cross loops)."""

    __slots__ = ("current",)

    def __init__(self) -> None:
        self.current: asyncio.Future[str] | None = None


class _LeaderGone(Exception):
    """The caller fetching the token was cancelled; a waiter fetches it instead."""


class _Backoff:
    """After a refused token request, the next one waits (doubling from :data:`BACKOFF_INITIAL`); calls in
    between fail at once with what the failure said."""

    __slots__ = ("delay", "error", "until")

    def __init__(self) -> None:
        self.reset()

    def reset(self) -> None:
        self.delay = 0.0
        self.until = 0.0
        self.error: AuthenticationError | None = None

    def failed(self, now: float, error: AuthenticationError) -> None:
        self.delay = min(BACKOFF_MAX, self.delay * 2 or BACKOFF_INITIAL)
        self.until = now + self.delay
        self.error = error

    def check(self, now: float, token_url: str) -> None:
        if self.error is None or now >= self.until:
            return
        last = self.error
        raise AuthenticationError(
            f"{last} (no new token request to {token_url} for another {self.until - now:.1f} s)",
            status_code=last.status_code,
            error=last.error,
            error_description=last.error_description,
        )


def _wait_bound(request: httpx.Request) -> float | None:
    """How long a caller waits for another caller's token request: the longest of its own timeouts."""
    timeouts = request.extensions.get("timeout")
    if not isinstance(timeouts, dict):
        return None
    values = [value for value in timeouts.values() if value is not None]
    return max(values) if values and len(values) == len(timeouts) else None


async def _await_flight(flight: asyncio.Future[str], bound: float | None, token_url: str) -> str | None:
    """The token ``flight`` brings, or None when its caller was cancelled (then the waiter fetches it)."""
    import asyncio

    try:
        async with asyncio.timeout(bound):
            return await asyncio.shield(flight)
    except _LeaderGone:
        return None
    except TimeoutError:
        raise RequestTimeout(
            f"timed out after {bound} s waiting for the token request to {token_url}", method="POST", url=token_url
        ) from None


def _wait_for_flight(flight: concurrent.futures.Future[str], bound: float | None, token_url: str) -> str:
    """The token another thread's ``flight`` brings (its failure is raised here too)."""
    try:
        return flight.result(timeout=bound)
    except TimeoutError:  # concurrent.futures.TimeoutError is TimeoutError since Python 3.11
        raise RequestTimeout(
            f"timed out after {bound} s waiting for the token request to {token_url}", method="POST", url=token_url
        ) from None


def _loop_future() -> asyncio.Future[str]:
    import asyncio

    return asyncio.get_running_loop().create_future()


def _thread_future() -> concurrent.futures.Future[str]:
    import concurrent.futures

    return concurrent.futures.Future()


def _settle_failed(flight: asyncio.Future[str], error: BaseException) -> None:
    flight.set_exception(error)
    flight.exception()  # marks it retrieved: with no waiter, asyncio would log "never retrieved"


def _check_url(name: str, value: object) -> None:
    # checked here: a URL without scheme would only fail at the first request, as a transport error
    if not isinstance(value, str) or not value.startswith(("http://", "https://")):
        raise ValueError(f"{name} must be an http:// or https:// URL, not {value!r}")


def _margin(leeway: float, lifetime: float) -> float:
    """How long before its end a token is renewed: a tenth of its lifetime, at most ``leeway``, and at least
    a second (Keycloak counts ``exp`` from ``iat`` rounded down to the second) unless the token is that short."""
    return min(leeway, max(1.0, lifetime / 10), lifetime / 2)


def _seconds(value: Any, *, default: float) -> float:
    if isinstance(value, bool) or not isinstance(value, int | float) or value < 0:
        return default
    return float(value)


def _html_hint(response: httpx.Response) -> str:
    if is_html(response.text):
        # a proxy's or a web server's page, not Keycloak's JSON: the URL is most likely wrong
        return " (an HTML page, not the identity provider's JSON: check auth_url and realm, or token_url)"
    return ""


def _refusal(response: httpx.Response, token_url: str) -> AuthenticationError:
    error = description = None
    try:
        body = loads(response.content)
    except ValueError:
        body = None
    if isinstance(body, dict):
        raw_error, raw_description = body.get("error"), body.get("error_description")
        error = str(raw_error) if raw_error is not None else None
        description = str(raw_description)[:300] if raw_description is not None else None
    message = f"token request refused: {response.status_code}"
    if error:
        message += f" {error}"
    if description:
        message += f": {description}"
    message += f" (POST {token_url})" + _html_hint(response)
    return AuthenticationError(message, status_code=response.status_code, error=error, error_description=description)
