"""Proxies as httpx honours them: ``proxy=``, and with ``trust_env`` (the default) ``HTTP_PROXY``,
``HTTPS_PROXY``, ``ALL_PROXY`` and ``NO_PROXY``, for every call and the token request, on the default transport
and the sync client; a proxy a transport cannot go through is refused when the client is built. Each case goes
through a real proxy on 127.0.0.1 that counts what passes (tests/loopback_proxy.py)."""

from __future__ import annotations

import os
import socket
import ssl
from collections.abc import Iterator
from typing import Any
from unittest import mock

import httpx
import pytest
import trustme
from httpx._utils import get_environment_proxies  # the referee: httpx keeps its reading private
from hypothesis import given, settings
from hypothesis import strategies as st
from loopback_proxy import CountingProxy, loopback_proxy
from raw_http import TOKEN_PATH, Handler, RawServer, raw_server, token, version_info
from test_secret_chains import every_text

from printmgmt import PasswordAuth, PrintClient
from printmgmt._network import environment_proxies
from printmgmt.errors import ConfigurationError, PrintMgmtError
from printmgmt.sync import PrintClient as SyncPrintClient

#: Every variable that can name a proxy or an exception from one (urllib reads both cases; lower case wins).
PROXY_VARIABLES = [
    name for base in ("http_proxy", "https_proxy", "all_proxy", "no_proxy") for name in (base, base.upper())
]
KINDS = ["httpx", "sync"]
ROUTES = {"/v3/": version_info, TOKEN_PATH: token()}


@pytest.fixture(autouse=True)
def no_proxy_in_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    for name in PROXY_VARIABLES:
        monkeypatch.delenv(name, raising=False)


@pytest.fixture
def proxy() -> Iterator[CountingProxy]:
    with loopback_proxy() as started:
        yield started


@pytest.fixture
def api() -> Iterator[RawServer]:
    with raw_server(ROUTES) as started:
        yield started


@pytest.fixture
def idp() -> Iterator[RawServer]:
    """The identity provider, apart from the API: a proxy must see its own traffic."""
    with raw_server(ROUTES) as started:
        yield started


def password_auth(idp: RawServer, host: str = "127.0.0.1") -> PasswordAuth:
    return PasswordAuth(
        username="u", password="p", client_secret="s", token_url=idp.url.replace("127.0.0.1", host) + TOKEN_PATH
    )


async def version(kind: str, base_url: str, auth: Any, **options: Any) -> Any:
    """``GET /v3/`` with a client of ``kind`` (signing in first)."""
    if kind == "sync":
        with SyncPrintClient(base_url, auth=auth, retries=0, **options) as sync_client:
            return sync_client.version_info().additional_properties
    async with PrintClient(base_url, auth=auth, transport=kind, retries=0, **options) as client:  # type: ignore[arg-type]
        return (await client.version_info()).additional_properties


def forwarded(server: RawServer, path: str, method: str = "GET") -> str:
    return f"{method} {server.url}{path}"


TOKEN_POST = ("POST", TOKEN_PATH)


@pytest.mark.parametrize("kind", KINDS)
async def test_http_proxy_carries_every_call_and_the_token_request(
    kind: str, proxy: CountingProxy, api: RawServer, idp: RawServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HTTP_PROXY", proxy.url)
    assert await version(kind, api.url, password_auth(idp)) == {"api": "v3"}
    assert proxy.targets() == [forwarded(idp, TOKEN_PATH, "POST"), forwarded(api, "/v3/")]
    assert api.seen == {"/v3/": 1} and idp.seen == {TOKEN_PATH: 1}


@pytest.fixture(scope="module")
def ca() -> trustme.CA:
    return trustme.CA()


def trusting(ca: trustme.CA) -> ssl.SSLContext:
    context = ssl.create_default_context()
    ca.configure_trust(context)
    return context


@pytest.fixture
def tls_servers(ca: trustme.CA) -> Iterator[tuple[RawServer, RawServer]]:
    context = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ca.issue_cert("127.0.0.1").configure_cert(context)
    with raw_server(ROUTES, tls=context) as api, raw_server(ROUTES, tls=context) as idp:
        yield api, idp


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("variable", ["HTTPS_PROXY", "https_proxy", "ALL_PROXY"])
async def test_https_goes_through_connect(
    kind: str,
    variable: str,
    proxy: CountingProxy,
    tls_servers: tuple[RawServer, RawServer],
    ca: trustme.CA,
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    api, idp = tls_servers
    monkeypatch.setenv(variable, proxy.url)
    assert await version(kind, api.url, password_auth(idp), verify=trusting(ca)) == {"api": "v3"}
    hosts = [url.removeprefix("https://") for url in (idp.url, api.url)]
    assert proxy.targets() == [f"CONNECT {host}" for host in hosts]  # one tunnel per origin; the rest is TLS
    assert api.seen == {"/v3/": 1} and idp.seen == {TOKEN_PATH: 1}


@pytest.mark.parametrize("kind", KINDS)
async def test_no_proxy_excludes_its_hosts(
    kind: str, proxy: CountingProxy, api: RawServer, idp: RawServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HTTP_PROXY", proxy.url)
    monkeypatch.setenv("NO_PROXY", "example.test, localhost")
    # the API as localhost (direct), the identity provider as 127.0.0.1 (through the proxy)
    assert await version(kind, api.url.replace("127.0.0.1", "localhost"), password_auth(idp)) == {"api": "v3"}
    assert proxy.targets() == [forwarded(idp, TOKEN_PATH, "POST")]
    assert api.seen == {"/v3/": 1}


@pytest.mark.parametrize("kind", KINDS)
async def test_trust_env_false_ignores_the_environment(
    kind: str, proxy: CountingProxy, api: RawServer, idp: RawServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HTTP_PROXY", proxy.url)
    monkeypatch.setenv("ALL_PROXY", proxy.url)
    assert await version(kind, api.url, password_auth(idp), trust_env=False) == {"api": "v3"}
    assert proxy.passed == []
    assert api.seen == {"/v3/": 1} and idp.seen == {TOKEN_PATH: 1}


@pytest.mark.parametrize("kind", KINDS)
async def test_proxy_given_wins_over_the_environment(
    kind: str, proxy: CountingProxy, api: RawServer, idp: RawServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    with loopback_proxy() as other:
        monkeypatch.setenv("HTTP_PROXY", other.url)
        monkeypatch.setenv("NO_PROXY", "127.0.0.1")  # as in httpx, proxy= is for every URL
        given = proxy.url.replace("http://", "http://user:pw@")
        assert await version(kind, api.url, password_auth(idp), proxy=given) == {"api": "v3"}
        assert other.passed == []
    assert proxy.targets() == [forwarded(idp, TOKEN_PATH, "POST"), forwarded(api, "/v3/")]
    assert {seen.authorization for seen in proxy.passed} == {"Basic dXNlcjpwdw=="}  # user:pw


@pytest.mark.parametrize("kind", KINDS)
async def test_proxy_credentials_go_with_the_connect(
    kind: str, proxy: CountingProxy, tls_servers: tuple[RawServer, RawServer], ca: trustme.CA
) -> None:
    api, idp = tls_servers
    given = httpx.Proxy(proxy.url.replace("http://", "http://user:pw@"))
    assert await version(kind, api.url, password_auth(idp), verify=trusting(ca), proxy=given) == {"api": "v3"}
    assert [seen.method for seen in proxy.passed] == ["CONNECT", "CONNECT"]
    assert {seen.authorization for seen in proxy.passed} == {"Basic dXNlcjpwdw=="}


class _Breaking(dict[str, Handler]):
    """Routes that answer every path, whatever the target's form, with ``answer``."""

    def __init__(self, answer: Handler) -> None:
        super().__init__()
        self.answer = answer

    def get(self, key: str, default: Any = None) -> Handler:
        return self.answer


BREAKS: dict[str, Handler] = {
    "reset": lambda exchange: exchange.reset(),
    # an answer the client cannot read: its error must not carry the request's headers
    "garbage": lambda exchange: exchange.conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: x\r\n\r\n"),
}


def _closed_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port: int = probe.getsockname()[1]
    return port


@pytest.mark.parametrize("kind", KINDS)
@pytest.mark.parametrize("failure", ["refused", *BREAKS])
async def test_the_proxy_password_is_not_shown(kind: str, failure: str) -> None:
    secret, encoded = "s3cret", "dXNlcjpzM2NyZXQ="  # user:s3cret, as a Proxy-Authorization carries it
    with raw_server(_Breaking(BREAKS.get(failure, BREAKS["reset"]))) as breaking:
        where = f"http://127.0.0.1:{_closed_port()}" if failure == "refused" else breaking.url
        given = where.replace("http://", f"http://user:{secret}@")
        with pytest.raises(PrintMgmtError) as failed:
            await version(kind, "http://print.test", "t", proxy=given)
        assert bool(breaking.seen) == (failure != "refused")
    texts = [*every_text(failed.value), repr(PrintClient("http://print.test", proxy=given))]
    assert not [text for text in texts if secret in text or encoded in text]


@pytest.mark.parametrize("how", ["proxy=", "ALL_PROXY"])
def test_a_proxy_the_transport_cannot_use_is_refused_when_the_client_is_built(
    how: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    socks = "socks5://127.0.0.1:1080"
    options: dict[str, Any] = {"proxy": socks} if how == "proxy=" else {}
    if how == "ALL_PROXY":
        monkeypatch.setenv("ALL_PROXY", socks)
    # the default transport goes through SOCKS with httpx's own pool, which needs socksio (not installed here)
    for make in (PrintClient, SyncPrintClient):
        with pytest.raises(ImportError, match="socksio"):
            make("http://127.0.0.1:1", **options)


def test_proxy_beside_a_transport_object_or_an_http_client_is_refused() -> None:
    transport = httpx.MockTransport(lambda request: httpx.Response(200))
    with pytest.raises(ConfigurationError, match="a transport object is used as it is"):
        PrintClient("http://127.0.0.1:1", transport=transport, proxy="http://127.0.0.1:2")
    with pytest.raises(ConfigurationError, match="give your http_client its proxy"):
        SyncPrintClient("http://127.0.0.1:1", http_client=httpx.Client(), proxy="http://127.0.0.1:2")


def test_an_unusable_proxy_url_is_a_configuration_error(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("HTTPS_PROXY", "ftp://user:s3cret@proxy.test:21")
    with pytest.raises(ConfigurationError, match=r"unusable proxy setting in the environment \(HTTP_PROXY") as refused:
        PrintClient("https://print.test")
    assert "s3cret" not in str(refused.value)


# The environment as httpx reads it, generated: every variable in both cases, proxy URLs with and without a
# scheme, and NO_PROXY lists of every kind of entry curl's rules tell apart.
_URLS = st.sampled_from(["http://p.test:3128", "p.test:3128", "https://u:pw@p.test", "socks5://s.test:1080", ""])
_NO_PROXY_HOSTS = st.sampled_from(
    [
        "*",
        "localhost",
        "LOCALHOST",
        "example.com",
        ".example.com",
        "10.0.0.1",
        "192.168.0.0/16",
        "::1",
        "fe80::1/64",
        "[::1]",
        "http://only.test",
        "all://*.wild.test",
        " spaced.test ",
        "",
        "1.2.3",
        "xn--bcher-kva.example",
    ]
)
_ENVIRONMENTS = st.dictionaries(
    st.sampled_from([*PROXY_VARIABLES, "REQUEST_METHOD", "FTP_PROXY"]),
    st.one_of(_URLS, st.lists(_NO_PROXY_HOSTS, max_size=4).map(",".join)),
    max_size=6,
)


@settings(max_examples=int(os.environ.get("PRINTMGMT_PROXY_EXAMPLES", "1000")), deadline=None)
@given(environment=_ENVIRONMENTS)
def test_the_environment_is_read_as_httpx_reads_it(environment: dict[str, str]) -> None:
    with mock.patch.dict(os.environ, environment, clear=True):
        assert environment_proxies() == get_environment_proxies()


# proxies where proxies go and exceptions where exceptions go, so that most examples route some URLs each way
# (SOCKS needs socksio, which is not installed)
_ROUTED_ENVIRONMENTS = st.builds(
    lambda proxies, exceptions: {**proxies, **exceptions},
    st.dictionaries(
        st.sampled_from([name for name in PROXY_VARIABLES if "no_" not in name.lower()]),
        _URLS.filter(lambda url: "socks" not in url),
        max_size=3,
    ),
    st.dictionaries(st.sampled_from(["NO_PROXY", "no_proxy"]), st.lists(_NO_PROXY_HOSTS, max_size=3).map(",".join)),
)

#: One context for every client made here: loading the CA store is most of making a client.
_CONTEXT = ssl.create_default_context()
_HOSTS = [
    "localhost",
    "example.com",
    "a.example.com",
    "wwwexample.com",
    "10.0.0.1",
    "192.168.3.4",
    "[::1]",
    "only.test",
]


def _route(client: httpx.Client, url: str) -> str:
    """Where ``client`` sends ``url``: ``direct``, or the proxy's URL."""
    transport = client._transport_for_url(httpx.URL(url))
    if transport is client._transport:
        return "direct"
    proxy_url = transport._pool._proxy_url  # type: ignore[attr-defined]  # httpcore's proxy pool
    return f"{proxy_url.scheme.decode()}://{proxy_url.host.decode()}:{proxy_url.port}"


@settings(max_examples=int(os.environ.get("PRINTMGMT_PROXY_EXAMPLES", "1000")) // 2, deadline=None)
@given(
    environment=_ROUTED_ENVIRONMENTS,
    url=st.tuples(st.sampled_from(["http", "https"]), st.sampled_from(_HOSTS)).map("{0[0]}://{0[1]}/v3/".format),
)
def test_each_url_goes_where_httpx_sends_it(environment: dict[str, str], url: str) -> None:
    """The whole route (the reading, then httpx's matching of the mounts), against httpx's own client: the
    sync client's transports are httpx's, so both routes read the same way."""
    with mock.patch.dict(os.environ, environment, clear=True):
        try:
            stock = httpx.Client(verify=_CONTEXT)
        except (ValueError, httpx.InvalidURL):  # a proxy URL or a NO_PROXY entry httpx cannot read
            with pytest.raises(ConfigurationError, match="unusable proxy setting"):
                SyncPrintClient("http://print.test", verify=_CONTEXT)
            return
        with stock, SyncPrintClient("http://print.test", verify=_CONTEXT) as ours:
            assert _route(ours.http, url) == _route(stock, url)


@pytest.mark.parametrize("kind", KINDS)
async def test_trust_env_false_ignores_ssl_cert_file_too(
    kind: str, tls_servers: tuple[RawServer, RawServer], ca: trustme.CA, tmp_path: Any, monkeypatch: pytest.MonkeyPatch
) -> None:
    api, _ = tls_servers
    bundle = tmp_path / "ca.pem"
    ca.cert_pem.write_to_path(str(bundle))
    monkeypatch.setenv("SSL_CERT_FILE", str(bundle))
    assert await version(kind, api.url, "t") == {"api": "v3"}  # verify=True trusts the environment's CA file
    with pytest.raises(PrintMgmtError, match="CERTIFICATE_VERIFY_FAILED"):
        await version(kind, api.url, "t", trust_env=False)
