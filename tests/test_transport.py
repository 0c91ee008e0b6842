"""transport= picks the network layer; the aiohttp transport's errors keep the retry policy's distinctions."""

from __future__ import annotations

import ssl
import sys

import aiohttp
import httpx
import pytest
import respx
from aiohttp.client_reqrep import ConnectionKey

from printmgmt import PrintClient
from printmgmt._per_loop import PerLoopTransport
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
    reference = ssl.create_default_context(cafile=certifi.where())
    assert context.cert_store_stats()["x509_ca"] == reference.cert_store_stats()["x509_ca"] > 0
