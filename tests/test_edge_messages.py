"""Errors that say what went wrong and what to do: an expired deadline names the deadline, a base URL without
a scheme gets a ConfigurationError with the fix, a wrong realm or a host without an identity provider points
at auth_url and the realm. Real sockets, both transports and the sync client."""

from __future__ import annotations

import asyncio
from collections.abc import Iterator

import pytest
from raw_http import TOKEN_PATH, Exchange, RawServer, raw_server

from printmgmt import PasswordAuth, PrintClient
from printmgmt.errors import AuthenticationError, ConfigurationError, PrintMgmtError, RequestTimeout
from printmgmt.sync import PrintClient as SyncPrintClient

CLIENTS = ["httpx", "sync"]


def silent(exchange: Exchange) -> None:
    exchange.stopping.wait(30)  # reads the request, never answers


def unknown_realm(exchange: Exchange) -> None:
    exchange.send(404, {"error": "Realm does not exist", "error_description": "Realm does not exist"})


def no_identity_provider(exchange: Exchange) -> None:
    exchange.send(404, {"message": "Cannot POST"})


@pytest.fixture
def server() -> Iterator[RawServer]:
    routes = {
        "/v3/": silent,
        TOKEN_PATH: unknown_realm,
        "/realms/NONE/protocol/openid-connect/token": no_identity_provider,
    }
    with raw_server(routes) as served:
        yield served


def failure(client: str, url: str, auth: PasswordAuth | str, deadline: float | None = None) -> PrintMgmtError:
    if client == "sync":
        with SyncPrintClient(url, auth=auth, retries=0) as sync_client, pytest.raises(PrintMgmtError) as caught:
            sync_client.version_info(deadline=deadline, timeout=10.0)
        return caught.value

    async def run() -> PrintMgmtError:
        async with PrintClient(url, auth=auth, transport=client, retries=0) as async_client:  # type: ignore[arg-type]
            with pytest.raises(PrintMgmtError) as raised:
                await async_client.version_info(deadline=deadline, timeout=10.0)
            return raised.value

    return asyncio.run(run())


@pytest.mark.parametrize("client", CLIENTS)
def test_an_expired_deadline_names_the_deadline(server: RawServer, client: str) -> None:
    error = failure(client, server.url, "t", deadline=0.5)
    assert isinstance(error, RequestTimeout)
    assert "the call's deadline of 0.5 s passed" in str(error)


@pytest.mark.parametrize("client", CLIENTS)
def test_a_wrong_realm_says_so_once_and_points_at_auth_url_and_realm(server: RawServer, client: str) -> None:
    auth = PasswordAuth(auth_url=server.url, username="ann", password="pw", client_secret="cs")
    error = failure(client, server.url, auth)
    assert isinstance(error, AuthenticationError)
    assert str(error).count("Realm does not exist") == 1
    assert "check auth_url and realm, or token_url" in str(error)


@pytest.mark.parametrize("client", CLIENTS)
def test_a_host_without_an_identity_provider_points_at_auth_url_and_realm(server: RawServer, client: str) -> None:
    auth = PasswordAuth(auth_url=server.url, realm="NONE", username="ann", password="pw", client_secret="cs")
    error = failure(client, server.url, auth)
    assert isinstance(error, AuthenticationError) and error.status_code == 404
    assert "no token endpoint there: check auth_url and realm, or token_url" in str(error)


@pytest.mark.parametrize("make", [PrintClient, SyncPrintClient])
def test_a_base_url_without_a_scheme_is_a_configuration_error_with_the_fix(make: type) -> None:
    with pytest.raises(ConfigurationError, match=r"add the scheme, https://printserver:8080 \(or http://"):
        make("printserver:8080")
