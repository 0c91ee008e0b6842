"""PasswordAuth against an OAuth2 server nobody on this project wrote (oauth2-mock-server behind a
Keycloak-shaped wrapper), with API calls going to ``prism mock openapi.yaml``.

The identity provider signs RS256 JWTs, checks the client secret and the password, and rotates refresh
tokens (each works once). Tokens the SDK sends are verified against the realm's published keys.
"""

from __future__ import annotations

import asyncio
import ssl
import time
from collections.abc import AsyncIterator
from contextlib import asynccontextmanager
from typing import Any
from urllib.parse import parse_qs, quote_plus

import httpx
import pytest
from fake_clock import FakeClock
from joserfc import jwt
from joserfc.jwk import KeySet
from prism_watch import Exchange, Traffic, verdict
from referee_servers import Idp, Server

from printmgmt import PasswordAuth, PrintClient
from printmgmt.errors import AuthenticationError, Unauthorized

SSL_CONTEXT = ssl.create_default_context()


def password_auth(idp: Idp, **overrides: Any) -> PasswordAuth:
    settings: dict[str, Any] = {
        "auth_url": idp.auth_url,
        "realm": idp.realm,
        "client_secret": idp.client_secret,
        "username": idp.username,
        "password": idp.password,
        **overrides,
    }
    return PasswordAuth(**settings)


@asynccontextmanager
async def api_client(
    prism: Server, auth: PasswordAuth, headers: dict[str, str] | None = None
) -> AsyncIterator[tuple[PrintClient, Traffic]]:
    async with PrintClient(prism.url, auth=auth, headers=headers, verify=SSL_CONTEXT) as client:
        yield client, Traffic().attach(client.http)


def form(exchange: Exchange) -> dict[str, str]:
    return {k: v[0] for k, v in parse_qs(exchange.request_body.decode(), keep_blank_values=True).items()}


def grants(traffic: Traffic, idp: Idp) -> list[tuple[str, int]]:
    """(grant_type, status) of every token request, in order."""
    exchanges = traffic.to(idp.server.url)
    assert all(str(e.url) == idp.token_url and e.method == "POST" for e in exchanges)
    return [(form(e)["grant_type"], e.status) for e in exchanges]


def bearer_tokens(traffic: Traffic, prism: Server) -> list[str]:
    """The access token of every API request, after checking Prism flagged none of them."""
    exchanges = traffic.to(prism.url)
    problems = verdict(exchanges)
    assert not problems, "\n".join(problems)
    tokens = []
    for exchange in exchanges:
        scheme, _, token = exchange.request_headers["Authorization"].partition(" ")
        assert scheme == "Bearer" and token
        tokens.append(token)
    return tokens


async def verified_claims(idp: Idp, token: str) -> dict[str, Any]:
    """The claims of an access token whose signature the realm's published keys confirm."""
    async with httpx.AsyncClient(trust_env=False) as http:
        keys = (await http.get(idp.jwks_url)).raise_for_status().json()
    claims: dict[str, Any] = jwt.decode(token, KeySet.import_key_set(keys), algorithms=["RS256"]).claims
    assert claims["iss"] == idp.issuer
    assert claims["typ"] == "Bearer"
    assert claims["azp"] == idp.client_id
    assert claims["sub"] == claims["preferred_username"] == idp.username
    assert claims["exp"] - claims["iat"] == idp.access_ttl
    return claims


async def test_password_grant_then_api_calls_carry_the_token(prism: Server, idp: Idp) -> None:
    auth = password_auth(idp, clock=FakeClock())
    async with api_client(prism, auth) as (client, traffic):
        await client.auth.user_roles()
        await client.jobs.list(top=1)

    assert grants(traffic, idp) == [("password", 200)]
    [token_exchange] = traffic.to(idp.server.url)
    # the form is decoded by a server we did not write: secrets with &, =, +, % and spaces arrive intact
    assert form(token_exchange) == {
        "grant_type": "password",
        "client_id": idp.client_id,
        "client_secret": idp.client_secret,
        "username": idp.username,
        "password": idp.password,
    }
    assert token_exchange.request_headers["Content-Type"] == "application/x-www-form-urlencoded"
    reply = httpx.Response(200, content=token_exchange.body).json()
    assert reply["expires_in"] == 300 and reply["refresh_expires_in"] == 1800

    first, second = bearer_tokens(traffic, prism)
    assert first == second == reply["access_token"]
    claims = await verified_claims(idp, first)
    assert claims["exp"] > time.time()
    assert auth.token_requests == 1


async def test_concurrent_calls_share_one_token_request(prism: Server, idp: Idp) -> None:
    auth = password_auth(idp, clock=FakeClock())
    async with api_client(prism, auth) as (client, traffic):
        await asyncio.gather(*(client.jobs.get(f"j{i}") for i in range(10)))
    assert grants(traffic, idp) == [("password", 200)]
    tokens = bearer_tokens(traffic, prism)
    assert len(tokens) == 10 and len(set(tokens)) == 1


async def test_token_is_refreshed_shortly_before_expires_in(prism: Server, idp: Idp) -> None:
    """The SDK reads the server's expires_in (300 s): reused until 30 s before, then refreshed; the
    server rotates the refresh token, so the old one is dead afterwards."""
    clock = FakeClock()
    auth = password_auth(idp, clock=clock)
    async with api_client(prism, auth) as (client, traffic):
        await client.jobs.metadata()
        clock.advance(269)
        await client.jobs.metadata()
        assert grants(traffic, idp) == [("password", 200)]
        clock.advance(2)
        await client.jobs.metadata()

    assert grants(traffic, idp) == [("password", 200), ("refresh_token", 200)]
    login, refresh = traffic.to(idp.server.url)
    old_refresh_token = httpx.Response(200, content=login.body).json()["refresh_token"]
    assert form(refresh) == {
        "grant_type": "refresh_token",
        "refresh_token": old_refresh_token,
        "client_id": idp.client_id,
        "client_secret": idp.client_secret,
    }
    first, second, third = bearer_tokens(traffic, prism)
    assert first == second != third
    await verified_claims(idp, third)  # the refreshed token is still the user's

    async with httpx.AsyncClient(trust_env=False) as http:
        reuse = await http.post(
            idp.token_url,
            data={
                "grant_type": "refresh_token",
                "refresh_token": old_refresh_token,
                "client_id": idp.client_id,
                "client_secret": idp.client_secret,
            },
        )
    assert (reuse.status_code, reuse.json()["error"]) == (400, "invalid_grant")


@pytest.mark.slow
async def test_expired_token_is_refreshed_in_real_time(prism: Server, legacy_idp: Idp) -> None:
    """Real clock, 2 s tokens, legacy ``/auth`` URLs: after the lifetime the SDK refreshes before sending."""
    auth = password_auth(legacy_idp)
    assert auth.token_url == f"{legacy_idp.server.url}/auth/realms/SEAL/protocol/openid-connect/token"
    async with api_client(prism, auth) as (client, traffic):
        await client.printers.get("p1")
        await asyncio.sleep(legacy_idp.access_ttl)
        await client.printers.get("p1")
        sent_at = time.time()

    assert grants(traffic, legacy_idp) == [("password", 200), ("refresh_token", 200)]
    first, second = bearer_tokens(traffic, prism)
    assert first != second
    old, new = await verified_claims(legacy_idp, first), await verified_claims(legacy_idp, second)
    assert old["exp"] <= sent_at < new["exp"], "the second request must carry a token the server still accepts"


async def test_reused_refresh_token_is_refused_then_password_grant(prism: Server, idp: Idp) -> None:
    """Someone else used the SDK's refresh token (rotation made it invalid): the refresh is refused with
    400 invalid_grant and the SDK signs in again with the password."""
    clock = FakeClock()
    auth = password_auth(idp, clock=clock)
    async with api_client(prism, auth) as (client, traffic):
        await client.flows.list()
        [login] = traffic.to(idp.server.url)
        stolen = httpx.Response(200, content=login.body).json()["refresh_token"]
        async with httpx.AsyncClient(trust_env=False) as http:
            used_elsewhere = await http.post(
                idp.token_url,
                data={"grant_type": "refresh_token", "refresh_token": stolen},
                # HTTP Basic client authentication, form-encoded as RFC 6749 2.3.1 asks
                auth=(quote_plus(idp.client_id), quote_plus(idp.client_secret)),
            )
        assert used_elsewhere.status_code == 200
        clock.advance(301)
        await client.flows.list()

    assert grants(traffic, idp) == [("password", 200), ("refresh_token", 400), ("password", 200)]
    refused = traffic.to(idp.server.url)[1]
    assert form(refused)["refresh_token"] == stolen
    assert httpx.Response(400, content=refused.body).json()["error"] == "invalid_grant"
    first, second = bearer_tokens(traffic, prism)
    assert first != second
    await verified_claims(idp, second)
    assert auth.token_requests == 3


@pytest.mark.parametrize(
    ("override", "status", "error"),
    [
        pytest.param({"password": "wrong"}, 401, "invalid_grant", id="wrong-password"),
        pytest.param({"username": "nobody"}, 401, "invalid_grant", id="unknown-user"),
        pytest.param({"client_secret": "wrong"}, 401, "unauthorized_client", id="wrong-client-secret"),
        pytest.param({"client_kind": "operator"}, 401, "unauthorized_client", id="client-not-registered"),
        pytest.param({"realm": "NOPE"}, 404, "Realm does not exist", id="unknown-realm"),
    ],
)
async def test_rejected_credentials_raise_authentication_error(
    prism: Server, idp: Idp, override: dict[str, str], status: int, error: str
) -> None:
    auth = password_auth(idp, **override)
    async with api_client(prism, auth) as (client, traffic):
        with pytest.raises(AuthenticationError) as raised:
            await client.auth.user_roles()
    refusal = raised.value
    assert (refusal.status_code, refusal.error) == (status, error)
    assert [e.status for e in traffic.to(idp.server.url)] == [status]
    assert not traffic.to(prism.url), "no API request without a token"
    for secret in (idp.password, idp.client_secret, "wrong"):
        assert secret not in str(refusal) and secret not in repr(auth)


async def test_api_401_renews_the_token_and_retries_once(prism: Server, idp: Idp) -> None:
    """Prism answers 401 (``Prefer: code=401``) whatever the token: one renewal, one retry, then Unauthorized."""
    auth = password_auth(idp, clock=FakeClock())
    async with api_client(prism, auth, headers={"Prefer": "code=401"}) as (client, traffic):
        with pytest.raises(Unauthorized) as raised:
            await client.jobs.pause("j1")
    assert raised.value.status_code == 401
    assert grants(traffic, idp) == [("password", 200), ("refresh_token", 200)]
    first, second = bearer_tokens(traffic, prism)
    assert first != second
    for token in (first, second):
        await verified_claims(idp, token)


async def test_from_env_signs_in_against_the_realm(prism: Server, idp: Idp) -> None:
    environ = {
        "PRINTMGMT_BASE_URL": prism.url,
        "PRINTMGMT_AUTH_URL": idp.auth_url,
        "PRINTMGMT_REALM": idp.realm,
        "PRINTMGMT_USERNAME": idp.username,
        "PRINTMGMT_PASSWORD": idp.password,
        "PRINTMGMT_CLIENT_SECRET": idp.client_secret,
    }
    async with PrintClient.from_env(environ, verify=SSL_CONTEXT) as client:
        traffic = Traffic().attach(client.http)
        roles = await client.auth.user_roles()
    assert roles.user == "seal-admin"  # the spec's example
    assert grants(traffic, idp) == [("password", 200)]
    [token] = bearer_tokens(traffic, prism)
    await verified_claims(idp, token)
