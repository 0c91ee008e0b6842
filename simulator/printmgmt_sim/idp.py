"""A Keycloak-compatible identity provider for one realm: the token endpoint, discovery and keys.

Served by the same app as the API, under ``{auth_prefix}/realms/{realm}/``:

- ``POST .../protocol/openid-connect/token`` (form-encoded): ``grant_type=password`` (``username``,
  ``password``) and ``grant_type=refresh_token`` (``refresh_token``); the confidential client
  authenticates with ``client_id``/``client_secret`` form fields or HTTP Basic.
- ``POST .../protocol/openid-connect/revoke`` (RFC 7009, form-encoded ``token``, the client authenticated as
  above): a refresh token's session ends (its access tokens answer 401 from then on); 200 for any token.
- ``GET .../.well-known/openid-configuration`` and ``GET .../protocol/openid-connect/certs`` (JWKS).

Access tokens are RS256 JWTs shaped like Keycloak's (``iss``, ``sub``, ``azp``, ``typ: Bearer``,
``preferred_username``, ``realm_access.roles``, ``scope``...), valid ``access_ttl`` seconds. One
signing key serves every simulator of a process: a token of another simulator fails on its issuer, a
token signed elsewhere on its signature. Refresh tokens are opaque, valid ``refresh_ttl`` seconds and
rotate: each works once.

Refusals, as Keycloak words them (status, ``error``, ``error_description``)::

    unknown realm                       404  Realm does not exist    Realm does not exist
    missing grant_type or parameter     400  invalid_request         Missing form parameter: <name>
    unknown client                      401  invalid_client          Invalid client or Invalid client credentials
    wrong client secret                 401  unauthorized_client     Invalid client or Invalid client credentials
    wrong user or password              401  invalid_grant           Invalid user credentials
    unknown or already used refresh     400  invalid_grant           Invalid refresh token
    expired refresh token               400  invalid_grant           Token is not active
    refresh token of another client     400  invalid_grant           Invalid refresh token. Token client and
                                                                     authorized client don't match
    client_credentials grant            400  unauthorized_client     Client not enabled to retrieve service account
    any other grant type                400  unsupported_grant_type  Unsupported grant_type

Secrets, passwords and tokens are never logged.
"""

from __future__ import annotations

import base64
import binascii
import logging
import math
import secrets
import threading
import time
import uuid
from collections import Counter
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final
from urllib.parse import parse_qsl, quote, unquote_plus

from joserfc import jwt
from joserfc.jwk import RSAKey
from starlette.requests import Request
from starlette.responses import JSONResponse, Response
from starlette.routing import Route

from .paths import path_param
from .settings import ClientCredentials, UserCredentials

__all__ = ["IdentityProvider", "InvalidToken", "Principal"]

logger = logging.getLogger("printmgmt_sim.idp")

_INVALID_CLIENT: Final = "Invalid client or Invalid client credentials"
_NO_STORE: Final = {"Cache-Control": "no-store", "Pragma": "no-cache"}


@dataclass(frozen=True, slots=True)
class Principal:
    """Who an access token speaks for."""

    username: str
    roles: tuple[str, ...]
    client_id: str
    expires_at: int


class InvalidToken(Exception):
    """The bearer token is malformed, foreign, expired or not an access token."""


@dataclass(slots=True)
class _Session:
    username: str
    client_id: str
    session_id: str
    expires_at: float


class _Refusal(Exception):
    def __init__(self, status: int, error: str, description: str) -> None:
        super().__init__(description)
        self.status = status
        self.body = {"error": error, "error_description": description}


class IdentityProvider:
    """The realm: its users, clients, signing key and live refresh tokens."""

    def __init__(
        self,
        *,
        realm: str,
        base_url: str,
        prefix: str,
        users: Iterable[UserCredentials],
        clients: Iterable[ClientCredentials],
        access_ttl: int,
        refresh_ttl: int,
        announced_ttl: int | None = None,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.realm = realm
        self.prefix = prefix
        self.issuer = f"{base_url.rstrip('/')}{prefix}/realms/{quote(realm, safe='')}"
        self.access_ttl = access_ttl
        self.refresh_ttl = refresh_ttl
        #: The ``expires_in`` sent with access tokens: ``access_ttl`` unless set (a longer value makes
        #: tokens expire before the client expects, as with clock skew or a lifetime cut server-side).
        self.announced_ttl = access_ttl if announced_ttl is None else announced_ttl
        self._users = {user.username: user for user in users}
        self._clients = {client.client_id: client for client in clients}
        self._clock = clock
        self._key = _signing_key()
        self._sessions: dict[str, _Session] = {}
        self._issued: set[str] = set()  # session ids of every token issued
        self._revoked: set[str] = set()
        self._lock = threading.Lock()
        #: Tokens issued per grant type and refusals per error, for tests and benchmarks.
        self.counts: Counter[str] = Counter()
        #: ``(time.monotonic(), grant type)`` of every token grant, in order.
        self.grants: list[tuple[float, str]] = []

    def reset(self) -> None:
        """Forget every refresh token, the counts and the grant times."""
        with self._lock:
            self._sessions.clear()
            self.grants.clear()
        self.counts.clear()

    def revoke(self) -> None:
        """Revoke every session so far (like Keycloak's "sign out all sessions"): their access tokens
        answer 401 and their refresh tokens are refused."""
        with self._lock:
            self._revoked |= self._issued
            self._sessions.clear()

    # -- tokens ------------------------------------------------------------------------------------

    def grant(self, form: Mapping[str, str], authorization: str | None = None) -> tuple[int, dict[str, Any]]:
        """Answer a token request: ``(status, JSON body)``."""
        try:
            client = self._client(form, authorization)
            grant_type = form.get("grant_type")
            if not grant_type:
                raise _Refusal(400, "invalid_request", "Missing form parameter: grant_type")
            if grant_type == "password":
                username = self._password_grant(form)
                session = uuid.uuid4().hex
            elif grant_type == "refresh_token":
                username, session = self._refresh_grant(form, client)
            elif grant_type == "client_credentials":
                raise _Refusal(400, "unauthorized_client", "Client not enabled to retrieve service account")
            else:
                raise _Refusal(400, "unsupported_grant_type", "Unsupported grant_type")
        except _Refusal as refusal:
            self.counts[f"refused:{refusal.body['error']}"] += 1
            return refusal.status, refusal.body
        self.counts[grant_type] += 1
        with self._lock:
            self.grants.append((time.monotonic(), grant_type))
        logger.debug("issued tokens for %s to %s (%s grant)", username, client.client_id, grant_type)
        return 200, self._tokens(username, client.client_id, session)

    def revoke_token(self, form: Mapping[str, str], authorization: str | None = None) -> tuple[int, dict[str, Any]]:
        """Answer a revocation request (RFC 7009): end the session of a refresh token of the calling client."""
        try:
            client = self._client(form, authorization)
            token = form.get("token")
            if not token:
                raise _Refusal(400, "invalid_request", "Missing form parameter: token")
        except _Refusal as refusal:
            self.counts[f"refused:{refusal.body['error']}"] += 1
            return refusal.status, refusal.body
        with self._lock:
            session = self._sessions.get(token)
            if session is not None and session.client_id == client.client_id:  # RFC 7009: another's is ignored
                del self._sessions[token]
                self._revoked.add(session.session_id)
        self.counts["revoke"] += 1
        return 200, {}

    def issue(self, username: str, client_id: str, *, ttl: float | None = None) -> str:
        """An access token for ``username`` (for tests: a negative ``ttl`` gives an expired token)."""
        return self._access_token(username, client_id, uuid.uuid4().hex, self.access_ttl if ttl is None else ttl)

    def verify(self, token: str) -> Principal:
        """The principal of a valid access token of this realm; :class:`InvalidToken` otherwise."""
        try:
            claims = jwt.decode(token, self._key, algorithms=["RS256"]).claims
        except Exception as exc:  # joserfc raises several types for garbage, wrong keys and bad JSON
            raise InvalidToken("the token is malformed or not signed by this realm") from exc
        if claims.get("iss") != self.issuer or claims.get("typ") != "Bearer":
            raise InvalidToken("the token is not an access token of this realm")
        expires = claims.get("exp")
        if not isinstance(expires, int | float) or expires <= self._clock():
            raise InvalidToken("the token has expired")
        if claims.get("sid") in self._revoked:
            raise InvalidToken("the token's session has been revoked")
        username = claims.get("preferred_username")
        user = self._users.get(username) if isinstance(username, str) else None
        client_id = claims.get("azp")
        if user is None or client_id not in self._clients:
            raise InvalidToken("the token's user or client is unknown")
        return Principal(user.username, user.roles, str(client_id), int(expires))

    def _client(self, form: Mapping[str, str], authorization: str | None) -> ClientCredentials:
        client_id, secret = form.get("client_id"), form.get("client_secret")
        if authorization and authorization[:6].lower() == "basic ":
            try:
                pair = base64.b64decode(authorization[6:].strip(), validate=True).decode()
            except (binascii.Error, UnicodeDecodeError) as exc:
                raise _Refusal(401, "invalid_client", _INVALID_CLIENT) from exc
            raw_id, _, raw_secret = pair.partition(":")
            client_id, secret = unquote_plus(raw_id), unquote_plus(raw_secret)
        if not client_id:
            raise _Refusal(400, "invalid_request", "Missing form parameter: client_id")
        client = self._clients.get(client_id)
        if client is None:
            raise _Refusal(401, "invalid_client", _INVALID_CLIENT)
        if not secret or not secrets.compare_digest(secret.encode(), client.secret.encode()):
            raise _Refusal(401, "unauthorized_client", _INVALID_CLIENT)
        return client

    def _password_grant(self, form: Mapping[str, str]) -> str:
        for name in ("username", "password"):
            if not form.get(name):
                raise _Refusal(400, "invalid_request", f"Missing form parameter: {name}")
        user = self._users.get(form["username"])
        if user is None or not secrets.compare_digest(form["password"].encode(), user.password.encode()):
            raise _Refusal(401, "invalid_grant", "Invalid user credentials")
        return user.username

    def _refresh_grant(self, form: Mapping[str, str], client: ClientCredentials) -> tuple[str, str]:
        token = form.get("refresh_token")
        if not token:
            raise _Refusal(400, "invalid_request", "Missing form parameter: refresh_token")
        with self._lock:
            session = self._sessions.pop(token, None)  # rotation: a refresh token works once
        if session is None:
            raise _Refusal(400, "invalid_grant", "Invalid refresh token")
        if session.expires_at <= self._clock():
            raise _Refusal(400, "invalid_grant", "Token is not active")
        if session.client_id != client.client_id:
            raise _Refusal(
                400, "invalid_grant", "Invalid refresh token. Token client and authorized client don't match"
            )
        return session.username, session.session_id

    def _tokens(self, username: str, client_id: str, session_id: str) -> dict[str, Any]:
        refresh = secrets.token_urlsafe(32)
        now = self._clock()
        with self._lock:
            self._sessions = {key: s for key, s in self._sessions.items() if s.expires_at > now}
            self._sessions[refresh] = _Session(username, client_id, session_id, now + self.refresh_ttl)
        return {
            "access_token": self._access_token(username, client_id, session_id, self.access_ttl),
            "expires_in": self.announced_ttl,
            "refresh_expires_in": self.refresh_ttl,
            "refresh_token": refresh,
            "token_type": "Bearer",
            "not-before-policy": 0,
            "session_state": session_id,
            "scope": "profile email",
        }

    def _access_token(self, username: str, client_id: str, session_id: str, ttl: float) -> str:
        now = self._clock()
        with self._lock:
            self._issued.add(session_id)
        user = self._users[username]
        claims = {
            "exp": math.ceil(now + ttl),
            "iat": math.floor(now),
            "jti": str(uuid.uuid4()),
            "iss": self.issuer,
            "aud": "account",
            "sub": str(uuid.uuid5(uuid.NAMESPACE_URL, f"{self.issuer}/users/{username}")),
            "typ": "Bearer",
            "azp": client_id,
            "session_state": session_id,
            "sid": session_id,
            "acr": "1",
            "realm_access": {
                "roles": [*user.roles, "offline_access", "uma_authorization", f"default-roles-{self.realm.lower()}"]
            },
            "resource_access": {"account": {"roles": ["manage-account", "view-profile"]}},
            "scope": "profile email",
            "email_verified": False,
            "preferred_username": username,
        }
        return jwt.encode({"alg": "RS256", "typ": "JWT", "kid": self._key.kid}, claims, self._key)

    # -- discovery ---------------------------------------------------------------------------------

    def discovery(self) -> dict[str, Any]:
        endpoints = f"{self.issuer}/protocol/openid-connect"
        return {
            "issuer": self.issuer,
            "token_endpoint": f"{endpoints}/token",
            "revocation_endpoint": f"{endpoints}/revoke",
            "jwks_uri": f"{endpoints}/certs",
            "grant_types_supported": ["password", "refresh_token"],
            "response_types_supported": ["token"],
            "subject_types_supported": ["public"],
            "id_token_signing_alg_values_supported": ["RS256"],
            "token_endpoint_auth_methods_supported": ["client_secret_basic", "client_secret_post"],
            "scopes_supported": ["profile", "email"],
        }

    def jwks(self) -> dict[str, Any]:
        return {"keys": [self._key.as_dict(private=False)]}

    # -- HTTP --------------------------------------------------------------------------------------

    def routes(self) -> list[Route]:
        base = f"{self.prefix}/realms/{{realm}}"
        return [
            Route(f"{base}/protocol/openid-connect/token", self._token_endpoint, methods=["POST"]),
            Route(f"{base}/protocol/openid-connect/revoke", self._revoke_endpoint, methods=["POST"]),
            Route(f"{base}/.well-known/openid-configuration", self._discovery_endpoint, methods=["GET"]),
            Route(f"{base}/protocol/openid-connect/certs", self._jwks_endpoint, methods=["GET"]),
        ]

    def _realm_known(self, request: Request) -> bool:
        return path_param(request, "realm") == self.realm

    async def _token_endpoint(self, request: Request) -> Response:
        if not self._realm_known(request):
            return _no_realm()
        form = dict(parse_qsl((await request.body()).decode("utf-8", "replace"), keep_blank_values=True))
        status, body = self.grant(form, request.headers.get("authorization"))
        return JSONResponse(body, status_code=status, headers=_NO_STORE)

    async def _revoke_endpoint(self, request: Request) -> Response:
        if not self._realm_known(request):
            return _no_realm()
        form = dict(parse_qsl((await request.body()).decode("utf-8", "replace"), keep_blank_values=True))
        status, body = self.revoke_token(form, request.headers.get("authorization"))
        return JSONResponse(body, status_code=status, headers=_NO_STORE)

    async def _discovery_endpoint(self, request: Request) -> Response:
        return JSONResponse(self.discovery()) if self._realm_known(request) else _no_realm()

    async def _jwks_endpoint(self, request: Request) -> Response:
        return JSONResponse(self.jwks()) if self._realm_known(request) else _no_realm()


_KEY_LOCK: Final = threading.Lock()
_KEYS: list[RSAKey] = []


def _signing_key() -> RSAKey:
    """The process's RS256 realm key: generating one costs ~0.1 s, and realms are told apart by issuer."""
    with _KEY_LOCK:
        if not _KEYS:
            _KEYS.append(RSAKey.generate_key(2048, parameters={"kid": uuid.uuid4().hex, "use": "sig", "alg": "RS256"}))
        return _KEYS[0]


def _no_realm() -> Response:
    return JSONResponse({"error": "Realm does not exist", "error_description": "Realm does not exist"}, 404)
