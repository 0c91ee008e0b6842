"""The token cache, the grants that fill it, and the back-off after refusals: everything of a sign-in but the
waiting. An acquisition is a generator that yields token requests and is sent their answers (no I/O here)."""

from __future__ import annotations

import logging
from collections.abc import Callable, Generator
from dataclasses import InitVar, dataclass, field
from typing import Any, Final, Protocol

import httpx

from .._json import loads
from ..errors import TOKEN_REQUEST, AuthenticationError, TransportError, is_html

__all__ = [
    "BACKOFF_INITIAL",
    "BACKOFF_MAX",
    "DEFAULT_LEEWAY",
    "DEFAULT_LIFETIME",
    "MAX_LIFETIME",
    "MIN_REUSE",
    "PasswordSignIn",
    "SessionEnded",
    "SignIn",
    "TokenState",
    "Tokens",
]

logger = logging.getLogger("printmgmt.auth")

#: Back-off after a failed token request: the first retry is allowed this many seconds later, doubling up to
#: :data:`BACKOFF_MAX` (a refused password retried by every caller would trip Keycloak's brute-force lockout).
BACKOFF_INITIAL = 1.0
BACKOFF_MAX = 30.0

#: Renew this long before ``expires_in`` runs out, at most (a tenth of the lifetime for short tokens).
DEFAULT_LEEWAY = 30.0

#: The lifetime of a token whose answer gives no usable ``expires_in`` (missing, 0, negative, not a number).
DEFAULT_LIFETIME = 60.0
#: The longest lifetime taken from ``expires_in`` (a day); a token revoked before then is renewed after its 401.
MAX_LIFETIME = 86400.0
#: Each token is reused at least this long, whatever ``expires_in`` says (one refused before is renewed after its 401).
MIN_REUSE = 0.5


@dataclass(slots=True)
class Tokens:
    """Current tokens and when they stop being usable (monotonic seconds)."""

    access: str | None = None
    access_until: float = 0.0
    refresh: str | None = None
    refresh_until: float | None = None  # None: the server gave no lifetime; try it

    def __repr__(self) -> str:  # never show token values
        return f"Tokens(access={'set' if self.access else None}, refresh={'set' if self.refresh else None})"


class SignIn(Protocol):
    """Once no refresh token is usable: the form of a grant, or an ``AuthenticationError`` saying why there is none."""

    def fields(self, state: TokenState) -> dict[str, str]: ...


@dataclass(frozen=True, slots=True)
class PasswordSignIn:
    """The password grant (of the state's user)."""

    password: str = field(repr=False)

    def __repr__(self) -> str:
        return "PasswordSignIn(password='***')"

    def fields(self, state: TokenState) -> dict[str, str]:
        return {"grant_type": "password", "username": state.username, "password": self.password}


@dataclass(frozen=True, slots=True)
class SessionEnded:
    """No way to sign in again: the stored session's refresh token was the only credential."""

    def fields(self, state: TokenState) -> dict[str, str]:
        raise AuthenticationError(
            f"the session of {state.username} at {state.token_url} has ended (its refresh token was refused or "
            "has expired): sign in again (printmgmt login)"
        )


@dataclass(kw_only=True, repr=False, eq=False)
class TokenState:
    """One sign-in's tokens, how to renew them (refresh grant, then ``sign_in``) and the back-off."""

    token_url: str
    client_id: str
    client_secret: str
    username: str
    sign_in: SignIn
    refresh_token: InitVar[str | None] = None
    on_refresh: Callable[[str], object] | None = None
    leeway: float
    clock: Callable[[], float]
    tokens: Tokens = field(init=False)
    token_requests: int = field(default=0, init=False)
    # after a refusal, calls fail at once with it until the back-off (doubling from BACKOFF_INITIAL) ends
    _refusal: AuthenticationError | None = field(default=None, init=False)
    _backoff: float = field(default=0.0, init=False)
    _backoff_until: float = field(default=0.0, init=False)

    def __post_init__(self, refresh_token: str | None) -> None:
        if self.leeway < 0:
            raise ValueError("leeway must not be negative")
        self.tokens = Tokens(refresh=refresh_token)

    def __repr__(self) -> str:
        return f"TokenState(token_url={self.token_url!r}, client_id={self.client_id!r}, tokens={self.tokens!r})"

    def usable_access(self) -> str | None:
        """The access token, unless it is missing or about to expire."""
        tokens = self.tokens
        if tokens.access is not None and self.clock() < tokens.access_until:
            return tokens.access
        return None

    def reject(self, access: str) -> None:
        """The API answered 401 to ``access``: drop it, unless another caller renewed it meanwhile."""
        if self.tokens.access == access:
            self.tokens.access = None

    def check_backoff(self) -> None:
        """Raise the last refusal while its back-off lasts."""
        last, now = self._refusal, self.clock()
        if last is not None and now < self._backoff_until:
            raise AuthenticationError(
                f"{last} (no new token request to {self.token_url} for another {self._backoff_until - now:.1f} s)",
                status_code=last.status_code,
                error=last.error,
                error_description=last.error_description,
            )

    def succeeded(self) -> None:
        self._refusal = None
        self._backoff = 0.0

    def acquire(self, api_request: httpx.Request) -> Generator[httpx.Request, httpx.Response, str]:
        """Yield token requests (a refresh grant, then the sign-in's) until a token is stored; return it."""
        tokens = self.tokens
        if tokens.refresh is not None and (tokens.refresh_until is None or self.clock() < tokens.refresh_until):
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
        response = yield self._grant_request(self.sign_in.fields(self), api_request)
        if not response.is_success:
            raise _refusal(response, self.token_url, self.client_id)
        return self._store(response)

    def revocation_request(self) -> httpx.Request:
        data = {
            "token": self.tokens.refresh or "",
            "token_type_hint": "refresh_token",
            "client_id": self.client_id,
            "client_secret": self.client_secret,
        }
        url = self.token_url.removesuffix("/token") + "/revoke"
        return httpx.Request("POST", url, data=data, headers={"Accept": "application/json"})

    def shared_failure(self, exc: BaseException) -> BaseException:
        """What the callers waiting on a failed acquisition get (a refusal also starts the back-off)."""
        if isinstance(exc, GeneratorExit):
            # httpx closes the flow when sending the token request failed and gives the error to its caller only
            return TransportError(
                f"token request failed: POST {self.token_url} could not be completed (the identity provider "
                "could not be reached or did not answer in time; the first caller has the details)",
                method="POST",
                url=self.token_url,
            )
        if isinstance(exc, AuthenticationError):
            # the provider answered and refused: the same request would be refused again (see BACKOFF_INITIAL)
            self._backoff = min(BACKOFF_MAX, self._backoff * 2 or BACKOFF_INITIAL)
            self._backoff_until = self.clock() + self._backoff
            self._refusal = exc
            return exc
        return AuthenticationError(f"token request failed: {type(exc).__name__}")

    def _grant_request(self, fields: dict[str, str], api_request: httpx.Request) -> httpx.Request:
        self.token_requests += 1
        data = {"client_id": self.client_id, "client_secret": self.client_secret, **fields}
        headers = {"Accept": "application/json"}
        if user_agent := api_request.headers.get("User-Agent"):
            headers["User-Agent"] = user_agent
        extensions: dict[str, Any] = {TOKEN_REQUEST: True}
        # the client's timeouts (a request built outside build_request has none): a silent provider stalls no one
        if "timeout" in api_request.extensions:
            extensions["timeout"] = api_request.extensions["timeout"]
        return httpx.Request("POST", self.token_url, data=data, headers=headers, extensions=extensions)

    def _store(self, response: httpx.Response, *, keep_refresh: bool = False) -> str:
        body = _json_object(response)
        access = body.get("access_token")
        if not isinstance(access, str) or not access:
            raise AuthenticationError(
                f"token endpoint {self.token_url} answered {response.status_code} without an access_token"
                + _html_hint(response),
                status_code=response.status_code,
            )
        now = self.clock()
        lifetime = _seconds(body.get("expires_in"), default=DEFAULT_LIFETIME)
        tokens = self.tokens
        tokens.access = access
        tokens.access_until = now + max(MIN_REUSE, lifetime - _margin(self.leeway, lifetime))
        refresh = body.get("refresh_token")
        if isinstance(refresh, str) and refresh:
            if refresh != tokens.refresh and self.on_refresh is not None:
                self.on_refresh(refresh)
            tokens.refresh = refresh
            refresh_lifetime = _seconds(body.get("refresh_expires_in"), default=0.0)
            # Keycloak sends refresh_expires_in=0 for tokens that do not expire
            tokens.refresh_until = (
                now + refresh_lifetime - _margin(self.leeway, refresh_lifetime) if refresh_lifetime else None
            )
        elif not keep_refresh:
            tokens.refresh = tokens.refresh_until = None
        # else: a refresh answer without a new refresh token leaves the old one in force (RFC 6749, 6)
        logger.debug("token acquired for %s, valid for %.0f s", self.username, lifetime)
        return access


def _margin(leeway: float, lifetime: float) -> float:
    """How long before its end a token is renewed: a tenth of its lifetime, at most ``leeway``, and at least
    a second (Keycloak counts ``exp`` from ``iat`` rounded down to the second) unless the token is that short."""
    return min(leeway, max(1.0, lifetime / 10), lifetime / 2)


def _seconds(value: Any, *, default: float) -> float:
    """A positive number (or one in a string) up to :data:`MAX_LIFETIME`; else ``default`` (0, NaN, a bool...)."""
    if isinstance(value, str):
        try:
            value = float(value)
        except ValueError:
            return default
    if isinstance(value, bool) or not isinstance(value, int | float) or not value > 0:
        return default
    return float(min(value, MAX_LIFETIME))  # compared before converting: an integer beyond a float's range


def _json_object(response: httpx.Response) -> dict[str, Any]:
    """The answer's JSON object, or an empty one (another JSON value, or no JSON)."""
    try:
        body = loads(response.content)
    except ValueError:
        return {}
    return body if isinstance(body, dict) else {}


def _html_hint(response: httpx.Response) -> str:
    if is_html(response.text):
        return " (an HTML page, not the identity provider's JSON: check auth_url and realm, or token_url)"
    if response.status_code == 404:
        return " (no token endpoint there: check auth_url and realm, or token_url)"
    return ""


#: The token endpoint's errors for a client id and secret that do not belong together (OAuth 2.0, Keycloak).
CLIENT_REFUSALS: Final = frozenset({"unauthorized_client", "invalid_client"})
#: The end of such a refusal's message; ``{}`` is the client id.
CLIENT_SECRET_HINT: Final = "; client_secret must be the secret of the client {!r} (each client has its own)"


def _refusal(response: httpx.Response, token_url: str, client_id: str) -> AuthenticationError:
    body = _json_object(response)
    raw_error, raw_description = body.get("error"), body.get("error_description")
    error = str(raw_error) if raw_error is not None else None
    description = str(raw_description)[:300] if raw_description is not None else None
    message = f"token request refused: {response.status_code}"
    if error:
        message += f" {error}"
    if description and description != error:  # Keycloak's unknown realm says it twice
        message += f": {description}"
    message += f" (POST {token_url})" + _html_hint(response)
    if error in CLIENT_REFUSALS:  # a client kind changed without its secret lands here
        message += CLIENT_SECRET_HINT.format(client_id)
    return AuthenticationError(message, status_code=response.status_code, error=error, error_description=description)
