"""transport= picks the network layer; a failure says alike on every client whether the request was sent."""

from __future__ import annotations

import asyncio
import socket
import ssl
from collections.abc import Iterator
from typing import Any

import httpx
import pytest
from raw_http import Exchange, RawServer, before_body, raw_server

from printmgmt import PrintClient
from printmgmt._per_loop import PerLoopTransport
from printmgmt.errors import ConfigurationError, OutcomeUnknown, PrintMgmtError, RequestNotSent
from printmgmt.sync import PrintClient as SyncPrintClient

BASE_URL = "https://print.test:8080"
# loading the CA store once for the module
SSL_CONTEXT = ssl.create_default_context()


async def test_transport_by_name(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("PRINTMGMT_TRANSPORT", raising=False)

    def made(client: PrintClient) -> httpx.AsyncBaseTransport:
        # a named transport is made once per event loop (PerLoopTransport)
        transport = client.http._transport
        assert isinstance(transport, PerLoopTransport)
        return transport.factory()

    async with PrintClient(BASE_URL, transport="httpx", verify=SSL_CONTEXT) as client:
        assert isinstance(made(client), httpx.AsyncHTTPTransport)
    async with PrintClient(BASE_URL, verify=SSL_CONTEXT) as client:  # the default
        assert isinstance(made(client), httpx.AsyncHTTPTransport)
    monkeypatch.setenv("PRINTMGMT_TRANSPORT", "curl")
    async with PrintClient(BASE_URL, verify=SSL_CONTEXT) as client:  # the constructor ignores the environment
        assert isinstance(made(client), httpx.AsyncHTTPTransport)
    mock = httpx.MockTransport(lambda request: httpx.Response(200))
    async with PrintClient(BASE_URL, transport=mock) as client:  # an object wins over the environment
        assert client.http._transport is mock


@pytest.mark.parametrize("name", ["aiohttp", "curl"])
@pytest.mark.parametrize("make", [PrintClient, SyncPrintClient], ids=["async", "sync"])
def test_other_transport_names_are_refused_with_what_to_use(make: Any, name: str) -> None:
    offered = rf"transport='{name}' is not offered .*: use the default, the SDK's own 'httpx'"
    with pytest.raises(ConfigurationError, match=offered):
        make(BASE_URL, transport=name)


def test_from_env_reads_the_transport_and_refuses_another() -> None:
    env = {"PRINTMGMT_BASE_URL": BASE_URL, "PRINTMGMT_TOKEN": "t", "PRINTMGMT_TRANSPORT": "aiohttp"}
    with pytest.raises(ConfigurationError, match=r"transport='aiohttp' is not offered.*httpx transport object"):
        PrintClient.from_env(env)


def test_the_default_transport_trusts_httpx_s_ca_store(monkeypatch: pytest.MonkeyPatch) -> None:
    """httpx's rule: SSL_CERT_FILE / SSL_CERT_DIR when set, else certifi's bundle (not the system store)."""
    import certifi

    monkeypatch.delenv("SSL_CERT_FILE", raising=False)
    monkeypatch.delenv("SSL_CERT_DIR", raising=False)
    made = PrintClient(BASE_URL).http._transport
    assert isinstance(made, PerLoopTransport)
    context = made.factory()._pool._ssl_context  # type: ignore[attr-defined]
    assert isinstance(context, ssl.SSLContext)
    reference = ssl.create_default_context(cafile=certifi.where())
    assert context.cert_store_stats()["x509_ca"] == reference.cert_store_stats()["x509_ca"] > 0


# -- the transport matrix: what a failure says about the request's fate, alike on every client -------------

#: The start of an answer: the server had read the whole request when it reset the connection.
STATUS_LINE_START = b"HTTP/1.1 20"
#: A body too large for the socket buffers: the client is still sending it when the server resets.
LARGE = {"note": "x" * (16 * 1024 * 1024)}


def reset_after_reading(exchange: Exchange) -> None:
    exchange.reset(STATUS_LINE_START)


@before_body
def reset_before_reading_the_body(exchange: Exchange) -> None:
    exchange.reset()


@pytest.fixture
def breaking() -> Iterator[RawServer]:
    routes = {"/v3/jobs/j1/pause": reset_after_reading, "/v3/jobs/j1/move": reset_before_reading_the_body}
    with raw_server(routes) as server:
        yield server


def call_on(client: str, url: str, action: str) -> PrintMgmtError:
    """Run ``action`` (``pause``: bodyless; ``move``: a large body) on ``client`` and return what it raised."""

    def act(jobs: Any) -> Any:
        if action == "pause":
            return jobs.pause("j1")
        return jobs.move("j1", printer="p2", extra_body=LARGE)

    if client == "sync":
        with SyncPrintClient(url, auth="t", retries=0) as sync_client, pytest.raises(PrintMgmtError) as caught:
            act(sync_client.jobs)
        return caught.value

    async def run() -> PrintMgmtError:
        async with PrintClient(url, auth="t", transport=client, retries=0) as async_client:  # type: ignore[arg-type]
            with pytest.raises(PrintMgmtError) as raised:
                await act(async_client.jobs)
            return raised.value

    return asyncio.run(run())


CLIENTS = ["httpx", "sync"]


@pytest.mark.parametrize("client", CLIENTS)
def test_a_reset_after_the_whole_request_was_sent_says_the_outcome_is_unknown(breaking: RawServer, client: str) -> None:
    error = call_on(client, breaking.url, "pause")
    assert type(error) is OutcomeUnknown
    assert "outcome unknown: the server got the whole request and may have acted on it" in str(error)
    assert type(error.__cause__) in (httpx.ReadError, httpx.RemoteProtocolError)
    assert breaking.seen["/v3/jobs/j1/pause"] == 1  # and an action is not sent again


# The sync client only: on httpx's async transport, when the reset has arrived but asyncio has not yet run its
# connection_lost, asyncio's transport drops what is written without a word and anyio reports the write as done;
# httpcore then reads, and the failure reads as after sending (OutcomeUnknown: the safe side).
def test_a_reset_before_the_whole_request_was_sent_says_it_was_not_sent(breaking: RawServer) -> None:
    error = call_on("sync", breaking.url, "move")
    assert type(error) is RequestNotSent
    assert "the connection broke while sending the request" in str(error)
    assert "not sent: the server did not get the whole request" in str(error)
    assert type(error.__cause__) is httpx.WriteError


@pytest.mark.parametrize("client", CLIENTS)
def test_a_refused_connection_says_it_was_not_sent(client: str) -> None:
    with socket.socket() as probe:  # a port nothing listens on
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    error = call_on(client, f"http://127.0.0.1:{port}", "pause")
    assert type(error) is RequestNotSent
    assert "could not connect to the server" in str(error) and "not sent" in str(error)
