"""Authentication strategies: ``httpx.Auth`` objects for the client's own ``httpx.AsyncClient`` / ``httpx.Client``.

:class:`PasswordAuth` implements the interface's token request (Keycloak password grant with a confidential
client); :class:`SessionAuth` renews a session kept from an earlier sign-in. Token requests are yielded
through the same httpx client as API requests, so they share its transport, TLS settings, proxies and mocks.
"""

from __future__ import annotations

import time
from collections.abc import AsyncGenerator, Callable, Generator, Mapping
from typing import TypedDict, Unpack

import httpx

from .._headers import check_header
from ..errors import ConfigurationError
from ..settings import CLIENT_IDS, DEFAULTS, ClientKind, check_url
from ..settings import token_url as realm_token_url
from ._async_flow import async_token_flow
from ._flights import AsyncFlights, SyncFlights
from ._sync_flow import sync_token_flow
from ._tokens import (
    BACKOFF_INITIAL,
    BACKOFF_MAX,
    CLIENT_REFUSALS,
    CLIENT_SECRET_HINT,
    DEFAULT_LEEWAY,
    PasswordSignIn,
    SessionEnded,
    SignIn,
    TokenState,
)

__all__ = [
    "BACKOFF_INITIAL",
    "BACKOFF_MAX",
    "CLIENT_IDS",
    "CLIENT_REFUSALS",
    "CLIENT_SECRET_HINT",
    "DEFAULT_LEEWAY",
    "BearerToken",
    "ClientKind",
    "PasswordAuth",
    "SessionAuth",
    "SignInOptions",
    "TokenAuth",
]


class BearerToken(httpx.Auth):
    """A fixed bearer token obtained elsewhere (like the SEAL CLIs' ``--bearer``)."""

    def __init__(self, token: str) -> None:
        if not isinstance(token, str) or not token:
            raise ValueError("BearerToken needs a non-empty token string")
        check_header("Authorization", f"Bearer {token}", "BearerToken")
        self._token = token

    def __repr__(self) -> str:
        return "BearerToken(token='***')"

    def auth_flow(self, request: httpx.Request) -> Generator[httpx.Request, httpx.Response, None]:
        request.headers["Authorization"] = f"Bearer {self._token}"
        yield request


class SignInOptions(TypedDict, total=False):
    """Where and as which client to sign in: ``auth_url`` and ``realm``, or ``token_url``; ``client_id``, or
    ``client_kind``; ``leeway``; ``clock``."""

    client_id: str | None
    client_kind: ClientKind
    auth_url: str | None
    realm: str
    token_url: str | None
    leeway: float
    clock: Callable[[], float]


class TokenAuth(httpx.Auth):
    """Bearer tokens from the deployment's Keycloak realm, renewed as they expire (the base of
    :class:`PasswordAuth` and :class:`SessionAuth`).

    The token URL is ``{auth_url}/realms/{realm}/protocol/openid-connect/token`` (any path on ``auth_url``,
    such as a legacy ``/auth`` prefix, is kept), or ``token_url`` as given. ``client_id`` defaults to the
    id of ``client_kind`` (see :data:`CLIENT_IDS`).

    The access token is reused until shortly before ``expires_in``; then it is renewed with the refresh
    token, or by signing in again when that is refused or expired. A 401 from the API drops the token and
    retries that request once.

    One token request per acquisition, whatever the number of callers (tasks or threads): the first caller
    that needs a token sends the request (through the client, as part of its own request's auth flow); the
    others await its outcome, each within its own timeout, and get the same token or the same failure.
    Nothing is locked across network I/O. After a refusal (the identity provider answered, but gave no
    token), later calls fail at once with that refusal for a back-off that doubles from
    :data:`BACKOFF_INITIAL` to :data:`BACKOFF_MAX` seconds and ends with the next success; a provider that
    could not be reached is tried again by the next call, paced by the client's retry policy.
    """

    def __init__(
        self,
        *,
        username: str,
        client_secret: str,
        sign_in: SignIn,
        refresh_token: str | None = None,
        on_refresh: Callable[[str], object] | None = None,
        client_id: str | None = None,
        client_kind: ClientKind = "cli",
        auth_url: str | None = None,
        realm: str = "SEAL",
        token_url: str | None = None,
        leeway: float = DEFAULT_LEEWAY,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        """``sign_in``: how to get tokens when no refresh token is usable; ``on_refresh`` is given each new
        refresh token the identity provider rotates in."""
        if token_url is None:
            if not auth_url:
                raise ValueError(f"{type(self).__name__} needs auth_url (with realm) or token_url")
            check_url("auth_url", auth_url)
            if not isinstance(realm, str) or not realm:
                raise ValueError("realm must be a non-empty string")
            token_url = realm_token_url(auth_url, realm)
        else:
            check_url("token_url", token_url)
        if client_id is None:
            if client_kind not in CLIENT_IDS:
                raise ValueError(f"client_kind must be one of {sorted(CLIENT_IDS)}, not {client_kind!r}")
            client_id = CLIENT_IDS[client_kind]
        for name, value in (("username", username), ("client_secret", client_secret)):
            if not isinstance(value, str) or not value:
                raise ValueError(f"{type(self).__name__} needs a non-empty {name}")
        self._state = TokenState(
            token_url=token_url,
            client_id=client_id,
            client_secret=client_secret,
            username=username,
            sign_in=sign_in,
            refresh_token=refresh_token,
            on_refresh=on_refresh,
            leeway=leeway,
            clock=clock,
        )
        self._async_flights: AsyncFlights[str] = AsyncFlights()
        self._sync_flights: SyncFlights[str] = SyncFlights()

    def __repr__(self) -> str:
        return (
            f"{type(self).__name__}(token_url={self.token_url!r}, client_id={self.client_id!r}, "
            f"username={self.username!r}, sign_in={self._state.sign_in!r}, client_secret='***')"
        )

    @property
    def token_url(self) -> str:
        """The identity provider's token endpoint."""
        return self._state.token_url

    @property
    def client_id(self) -> str:
        """The OAuth client tokens are requested for."""
        return self._state.client_id

    @property
    def username(self) -> str:
        return self._state.username

    @property
    def token_requests(self) -> int:
        """Number of token requests sent (password and refresh grants); useful in tests and metrics."""
        return self._state.token_requests

    @property
    def refresh_token(self) -> str | None:
        """The current refresh token, to keep a session beyond this process (``printmgmt login``); a secret."""
        return self._state.tokens.refresh

    def sync_auth_flow(self, request: httpx.Request) -> Generator[httpx.Request, httpx.Response, None]:
        return sync_token_flow(self._state, self._sync_flights, request)

    def async_auth_flow(self, request: httpx.Request) -> AsyncGenerator[httpx.Request, httpx.Response]:
        return async_token_flow(self._state, self._async_flights, request)


class PasswordAuth(TokenAuth):
    """OAuth 2.0 password grant against the deployment's Keycloak realm; tokens renewed as :class:`TokenAuth`
    says (refresh grant, then the password again)."""

    def __init__(self, *, username: str, password: str, client_secret: str, **where: Unpack[SignInOptions]) -> None:
        """``where``: the identity provider and client (:class:`SignInOptions`)."""
        if not isinstance(password, str) or not password:
            raise ValueError("PasswordAuth needs a non-empty password")
        super().__init__(username=username, client_secret=client_secret, sign_in=PasswordSignIn(password), **where)


class SessionAuth(TokenAuth):
    """Tokens from a refresh token kept from an earlier sign-in (``printmgmt login``).

    Each access token is renewed with the refresh token; each new refresh token the identity provider
    rotates in is passed to ``on_refresh`` (to keep it where the old one was). When the refresh token is
    refused or expired, the session has ended: with ``password``, a password grant signs in again;
    without, :class:`~printmgmt.errors.AuthenticationError` says to sign in again. Otherwise as
    :class:`TokenAuth` (one token request per acquisition, back-off after refusals).
    """

    def __init__(
        self,
        *,
        refresh_token: str,
        username: str,
        client_secret: str,
        on_refresh: Callable[[str], object] | None = None,
        password: str | None = None,
        **where: Unpack[SignInOptions],
    ) -> None:
        """``where``: the identity provider and client (:class:`SignInOptions`)."""
        if not isinstance(refresh_token, str) or not refresh_token:
            raise ValueError("SessionAuth needs a non-empty refresh_token")
        if password is not None and (not isinstance(password, str) or not password):
            raise ValueError("SessionAuth's password, when given, must be a non-empty string")
        sign_in: SignIn = SessionEnded() if password is None else PasswordSignIn(password)
        super().__init__(
            username=username,
            client_secret=client_secret,
            sign_in=sign_in,
            refresh_token=refresh_token,
            on_refresh=on_refresh,
            **where,
        )

    def revocation_request(self) -> httpx.Request:
        """The request that ends this session at the identity provider (RFC 7009, Keycloak's ``.../revoke``
        beside the token endpoint); send it without auth. ``printmgmt logout`` does."""
        return self._state.revocation_request()


def auth_from_settings(env: Mapping[str, str]) -> httpx.Auth | None:
    """The sign-in the settings ``env`` name (:func:`~printmgmt.settings.read_environment`), if any."""
    if token := env.get("token"):
        return BearerToken(token)
    username = env.get("username")
    if username is None:
        return None
    kind: ClientKind = env.get("client_kind") or DEFAULTS["client_kind"]  # type: ignore[assignment]  # PasswordAuth checks it
    missing = [f"PRINTMGMT_{name.upper()}" for name in ("password", "client_secret") if name not in env]
    if "token_url" not in env and "auth_url" not in env:
        missing.append("PRINTMGMT_AUTH_URL or PRINTMGMT_TOKEN_URL")
    if missing:
        raise ConfigurationError("PRINTMGMT_USERNAME is set but not " + ", ".join(missing))
    return PasswordAuth(
        username=username,
        password=env["password"],
        client_secret=env["client_secret"],
        client_id=env.get("client_id"),
        client_kind=kind,
        auth_url=env.get("auth_url"),
        realm=env.get("realm") or DEFAULTS["realm"],
        token_url=env.get("token_url"),
    )


def client_of(auth: httpx.Auth | None) -> str | None:
    """The OAuth client a token is requested for, as 403 errors name it."""
    client_id = getattr(auth, "client_id", None)
    if not isinstance(client_id, str):
        return None
    kind = next((kind for kind, known in CLIENT_IDS.items() if known == client_id), None)
    return f"client {client_id!r}" + (f" (client kind {kind!r})" if kind else "")
