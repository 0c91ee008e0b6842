"""transport= picks the network layer; the aiohttp transport's errors keep the retry policy's distinctions."""

from __future__ import annotations

import asyncio
import socket
import ssl
import sys
from collections.abc import Iterator
from typing import Any

import aiohttp
import httpx
import pytest
import respx
from aiohttp.client_reqrep import ConnectionKey
from raw_http import Exchange, RawServer, before_body, raw_server

from printmgmt import PrintClient
from printmgmt._per_loop import PerLoopTransport
from printmgmt.errors import OutcomeUnknown, PrintMgmtError, RequestNotSent
from printmgmt.sync import PrintClient as SyncPrintClient
from printmgmt.transports import AiohttpTransport, _mapped

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

    async with PrintClient(BASE_URL, transport="aiohttp", verify=SSL_CONTEXT) as client:
        assert isinstance(made(client), AiohttpTransport)
    async with PrintClient(BASE_URL, transport="httpx", verify=SSL_CONTEXT) as client:
        assert isinstance(made(client), httpx.AsyncHTTPTransport)
    async with PrintClient(BASE_URL, verify=SSL_CONTEXT) as client:  # the default
        assert isinstance(made(client), httpx.AsyncHTTPTransport)
    monkeypatch.setenv("PRINTMGMT_TRANSPORT", "aiohttp")
    async with PrintClient(BASE_URL, verify=SSL_CONTEXT) as client:  # the constructor ignores the environment
        assert isinstance(made(client), httpx.AsyncHTTPTransport)
    env = {"PRINTMGMT_BASE_URL": BASE_URL, "PRINTMGMT_TOKEN": "t", "PRINTMGMT_TRANSPORT": "aiohttp"}
    async with PrintClient.from_env(env, verify=SSL_CONTEXT) as client:  # from_env reads it
        assert isinstance(made(client), AiohttpTransport)
    mock = httpx.MockTransport(lambda request: httpx.Response(200))
    async with PrintClient(BASE_URL, transport=mock) as client:  # an object wins over the environment
        assert client.http._transport is mock


def test_unknown_transport_names_are_refused() -> None:
    with pytest.raises(ValueError, match="transport must be one of httpx, aiohttp"):
        PrintClient(BASE_URL, transport="curl")  # type: ignore[arg-type]


def test_aiohttp_missing_says_which_extra(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setitem(sys.modules, "aiohttp", None)
    monkeypatch.delitem(sys.modules, "printmgmt.transports")
    with pytest.raises(ImportError, match=r"printmgmt\[aiohttp\]"):
        PrintClient(BASE_URL, transport="aiohttp")


_KEY = ConnectionKey("print.test", 8080, False, True, None, None, None)


@pytest.mark.parametrize(
    ("raised", "sent", "expected"),
    [
        # nothing reached the server: safe to send again for any operation
        (aiohttp.ConnectionTimeoutError("pool or connect"), False, httpx.ConnectTimeout),
        (aiohttp.ClientConnectorError(_KEY, OSError(111, "refused")), False, httpx.ConnectError),
        # not sent whole: not acted on (the retry policy still counts a broken write as maybe sent)
        (aiohttp.ServerDisconnectedError(), False, httpx.WriteError),
        (aiohttp.ClientOSError(104, "reset"), False, httpx.WriteError),
        # the request may have been acted on: only repeatable operations may be sent again
        (aiohttp.SocketTimeoutError("read"), False, httpx.ReadTimeout),
        (aiohttp.ServerDisconnectedError(), True, httpx.RemoteProtocolError),
        (aiohttp.ClientPayloadError("cut"), True, httpx.ReadError),
        (aiohttp.ClientOSError(104, "reset"), True, httpx.ReadError),
        (ConnectionResetError(104, "reset"), True, httpx.ReadError),
    ],
)
def test_aiohttp_errors_map_to_what_the_retry_policy_reads(
    raised: Exception, sent: bool, expected: type[httpx.TransportError]
) -> None:
    request = httpx.Request("PUT", f"{BASE_URL}/v3/jobs/j1/pause")
    with pytest.raises(httpx.TransportError) as caught, _mapped(request, sent=lambda: sent):
        raise raised
    assert type(caught.value) is expected
    assert caught.value.__cause__ is raised
    assert caught.value.request is request


async def test_the_aiohttp_transport_is_mockable_with_respx_using_httpx() -> None:
    with respx.mock(base_url=BASE_URL, using="httpx", assert_all_mocked=True) as router:
        route = router.get("/v3/jobs/j1").respond(json={"_id": "j1", "status": "Error"})
        async with PrintClient(BASE_URL, auth="t", transport="aiohttp", verify=SSL_CONTEXT) as client:
            job = await client.jobs.get("j1")
    assert job.id == "j1" and route.call_count == 1
    assert route.calls[0].request.headers["Authorization"] == "Bearer t"


@pytest.mark.parametrize("transport", ["httpx", "aiohttp"])
def test_both_transports_trust_the_same_ca_store(transport: str, monkeypatch: pytest.MonkeyPatch) -> None:
    """httpx's rule on both: SSL_CERT_FILE / SSL_CERT_DIR when set, else certifi's bundle (not the system store)."""
    import certifi

    monkeypatch.delenv("SSL_CERT_FILE", raising=False)
    monkeypatch.delenv("SSL_CERT_DIR", raising=False)
    client = PrintClient(BASE_URL, transport=transport)  # type: ignore[arg-type]
    made = client.http._transport
    assert isinstance(made, PerLoopTransport)
    inner = made.factory()
    context = inner._ssl if isinstance(inner, AiohttpTransport) else inner._pool._ssl_context  # type: ignore[attr-defined]
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


CLIENTS = ["httpx", "aiohttp", "sync"]


@pytest.mark.parametrize("client", CLIENTS)
def test_a_reset_after_the_whole_request_was_sent_says_the_outcome_is_unknown(breaking: RawServer, client: str) -> None:
    error = call_on(client, breaking.url, "pause")
    assert type(error) is OutcomeUnknown
    assert "outcome unknown: the server got the whole request and may have acted on it" in str(error)
    assert type(error.__cause__) in (httpx.ReadError, httpx.RemoteProtocolError)
    assert breaking.seen["/v3/jobs/j1/pause"] == 1  # and an action is not sent again


# Not on httpx's async transport: when the reset has arrived but asyncio has not yet run its connection_lost,
# asyncio's transport drops what is written without a word and anyio reports the write as done; httpcore then
# reads, and the failure reads as after sending (OutcomeUnknown: the safe side).
@pytest.mark.parametrize("client", ["aiohttp", "sync"])
@pytest.mark.filterwarnings("ignore:Sending a large body directly:ResourceWarning")  # aiohttp's, on LARGE
def test_a_reset_before_the_whole_request_was_sent_says_it_was_not_sent(breaking: RawServer, client: str) -> None:
    error = call_on(client, breaking.url, "move")
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
