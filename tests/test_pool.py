"""The default transport's connection pool over real sockets on 127.0.0.1: its own rules (one request per
connection at a time, waiters first come first served, never more connections than allowed), keep-alive,
TLS, cancellation at each phase, event loops and threads, and the mocking tools users put in front of it."""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import random
import ssl
import threading
from collections.abc import AsyncIterator, Awaitable, Callable, Generator
from dataclasses import dataclass, field

import httpx
import pytest
import respx
import trustme
from pytest_httpx import HTTPXMock

from printmgmt import PrintClient
from printmgmt._network import async_named_transport
from printmgmt._per_loop import PerLoopTransport
from printmgmt._pool import ConnectionPool, PooledTransport

#: What the server does with a request, by path: ``/hold`` waits for ``Server.go``, ``/slow`` sleeps a little,
#: ``/stall-body`` sends half its body and waits, ``/close`` answers and closes the connection.
Answer = Callable[["Served"], Awaitable[None]]


@dataclass
class Served:
    """One connection as the server saw it."""

    number: int
    writer: asyncio.StreamWriter
    requests: list[str] = field(default_factory=list)
    in_flight: int = 0
    most_in_flight: int = 0
    closed: asyncio.Event = field(default_factory=asyncio.Event)
    hung_up: asyncio.Event = field(default_factory=asyncio.Event)


class Server:
    """An HTTP/1.1 server on a free loopback port that reads requests as they come (so a second request on a
    busy connection is seen at once) and answers them in order."""

    def __init__(self) -> None:
        self.connections: list[Served] = []
        self.go = asyncio.Event()
        self.tls: ssl.SSLContext | None = None
        self.server_names: list[str | None] = []
        self.port = 0
        self.most_open = 0
        self.received = 0
        self._arrived = asyncio.Condition()
        self._server: asyncio.Server | None = None
        self._numbers = itertools.count(1)

    @property
    def open(self) -> int:
        return sum(not c.closed.is_set() for c in self.connections)

    async def has_received(self, count: int = 1) -> None:
        """Until ``count`` requests have arrived in all."""
        async with self._arrived:
            await self._arrived.wait_for(lambda: self.received >= count)

    def url(self, path: str) -> str:
        return f"{'https' if self.tls else 'http'}://{'localhost' if self.tls else '127.0.0.1'}:{self.port}{path}"

    async def start(self) -> None:
        self._server = await asyncio.start_server(self._serve, "127.0.0.1", 0, ssl=self.tls)
        self.port = self._server.sockets[0].getsockname()[1]

    async def stop(self) -> None:
        assert self._server is not None
        self._server.close()
        for connection in self.connections:
            connection.writer.close()
        for connection in self.connections:
            await asyncio.wait_for(connection.closed.wait(), 5)

    async def _serve(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        served = Served(next(self._numbers), writer)
        self.connections.append(served)
        self.most_open = max(self.most_open, self.open)
        pending: asyncio.Queue[tuple[str, int] | None] = asyncio.Queue()

        async def read() -> None:
            try:
                while True:
                    head = await reader.readuntil(b"\r\n\r\n")
                    path = head.split(b" ", 2)[1].decode()
                    lengths = [line.split(b":")[1] for line in head.lower().split(b"\r\n") if b"content-length" in line]
                    await reader.readexactly(int(lengths[0]) if lengths else 0)
                    served.requests.append(path)
                    async with self._arrived:
                        self.received += 1
                        self._arrived.notify_all()
                    served.in_flight += 1
                    served.most_in_flight = max(served.most_in_flight, served.in_flight)
                    await pending.put((path, served.number))
            except (asyncio.IncompleteReadError, ConnectionError):
                pass
            finally:
                served.hung_up.set()
                await pending.put(None)

        reading = asyncio.create_task(read())
        try:
            while (item := await pending.get()) is not None:
                path, _ = item
                await self._answer(path, served)
                served.in_flight -= 1
                if path.startswith("/close"):
                    break
        except ConnectionError:
            pass
        finally:
            reading.cancel()
            writer.close()
            served.closed.set()

    async def _answer(self, path: str, served: Served) -> None:
        writer = served.writer
        body = f"{path} on {served.number}".encode()
        if path.startswith("/hold"):
            await self.go.wait()
        elif path.startswith("/slow"):
            await asyncio.sleep(random.uniform(0, 0.01))
        elif path.startswith("/big"):
            body = b"x" * (5 * 1024 * 1024)  # more than the reader buffers before it stops reading the socket
        elif path.startswith("/stall-body"):
            writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 1000\r\n\r\nhalf")
            await writer.drain()
            await served.hung_up.wait()  # the rest never comes
            return
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: %d\r\n\r\n%s" % (len(body), body))
        await writer.drain()


@pytest.fixture
async def server() -> AsyncIterator[Server]:
    started = Server()
    await started.start()
    yield started
    await started.stop()


def pooled(max_connections: int | None = 100, keepalive_expiry: float = 5.0, **options: object) -> httpx.AsyncClient:
    limits = httpx.Limits(max_connections=max_connections, keepalive_expiry=keepalive_expiry)
    transport = PooledTransport(limits=limits, **options)  # type: ignore[arg-type]
    assert transport.pooled
    return httpx.AsyncClient(transport=transport, timeout=10)


def pool_of(client: httpx.AsyncClient) -> ConnectionPool:
    return pool_of_transport(client._transport)


def pool_of_transport(transport: httpx.AsyncBaseTransport | None) -> ConnectionPool:
    assert isinstance(transport, PooledTransport)
    pool = transport._pool
    assert isinstance(pool, ConnectionPool)
    return pool


async def settled() -> None:
    """Let the event loop deliver closes (a few rounds; nothing here waits on time)."""
    for _ in range(5):
        await asyncio.sleep(0)


# -- the pool's own rules


async def test_no_connection_serves_two_requests_at_once(server: Server) -> None:
    async with pooled(max_connections=4) as client:

        async def call(path: str) -> httpx.Response:
            await asyncio.sleep(random.uniform(0, 0.5))  # some find idle connections, some wait
            return await client.get(server.url(path))

        paths = [f"/slow/{n}" for n in range(200)]
        answers = await asyncio.gather(*(call(path) for path in paths))
    # each answer is its own request's (a shared connection would cross them or fail in httpcore)
    assert [a.text.split(" on ")[0] for a in answers] == paths
    assert max(c.most_in_flight for c in server.connections) == 1
    assert len(server.connections) <= 4


async def test_never_more_connections_than_allowed_across_origins(server: Server) -> None:
    other = Server()
    await other.start()
    try:
        async with pooled(max_connections=3) as client:
            pool = pool_of(client)
            most = 0

            async def call(target: Server, n: int) -> None:
                nonlocal most
                await client.get(target.url(f"/slow/{n}"))
                most = max(most, len(pool.connections))

            await asyncio.gather(*(call(server if n % 3 else other, n) for n in range(200)))
            await settled()
            assert most <= 3
            assert server.most_open + other.most_open >= 2  # both origins were served
            assert server.open + other.open <= 3
            assert max(server.most_open, other.most_open) <= 3
    finally:
        await other.stop()


async def test_waiters_are_served_first_come_first_served(server: Server) -> None:
    other = Server()
    await other.start()
    try:
        async with pooled(max_connections=1) as client:
            holding = asyncio.create_task(client.get(server.url("/hold")))
            await server.has_received(1)
            done: list[str] = []

            async def call(target: Server, name: str) -> None:
                await client.get(target.url(f"/{name}"))
                done.append(name)

            # a waiter for another origin is served in its turn, not after every waiter for the held one
            order = [(server, "a1"), (other, "b1"), (server, "a2"), (server, "a3"), (other, "b2"), (server, "a4")]
            waiting = []
            for target, name in order:
                waiting.append(asyncio.create_task(call(target, name)))
                await asyncio.sleep(0.005)  # queued in this order
            server.go.set()
            await asyncio.gather(holding, *waiting)
            assert done == [name for _, name in order]
    finally:
        await other.stop()


async def test_idle_connections_are_reused_last_in_first_out(server: Server) -> None:
    async with pooled() as client:
        # two connections, the second released last
        first = asyncio.create_task(client.get(server.url("/hold/first")))
        second = asyncio.create_task(client.get(server.url("/slow/second")))
        await second
        server.go.set()
        await first
        assert (await client.get(server.url("/next"))).text == "/next on 1"
        assert len(server.connections) == 2


async def test_a_pool_timeout_frees_the_waiters_place(server: Server) -> None:
    async with pooled(max_connections=1) as client:
        holding = asyncio.create_task(client.get(server.url("/hold")))
        await asyncio.sleep(0.02)
        with pytest.raises(httpx.PoolTimeout):
            await client.get(server.url("/late"), timeout=httpx.Timeout(10, pool=0.05))
        server.go.set()
        await holding
        assert (await client.get(server.url("/after"))).text == "/after on 1"


# -- keep-alive


async def test_an_expired_idle_connection_is_replaced(server: Server) -> None:
    async with pooled(keepalive_expiry=0.05) as client:
        await client.get(server.url("/one"))
        await asyncio.sleep(0.15)
        assert (await client.get(server.url("/two"))).text == "/two on 2"
        await settled()
        assert server.connections[0].closed.is_set()  # the expired one was closed, not leaked
        assert len(pool_of(client).connections) == 1


async def test_an_idle_connection_the_server_closed_is_not_reused(server: Server) -> None:
    async with pooled() as client:
        assert (await client.get(server.url("/close"))).status_code == 200
        await server.connections[0].closed.wait()
        await settled()
        # the server's close arrived while idle: a new connection, no error from the dead one
        assert (await client.get(server.url("/again"))).text == "/again on 2"


async def test_a_large_body_read_slowly_arrives_whole_and_the_connection_is_reused(server: Server) -> None:
    async with pooled() as client:
        received = 0
        async with client.stream("GET", server.url("/big")) as response:
            async for chunk in response.aiter_raw():
                received += len(chunk)
                await asyncio.sleep(0.001)  # the server sends faster than this reads: reading pauses, resumes
        assert received == 5 * 1024 * 1024
        assert (await client.get(server.url("/after"))).text == "/after on 1"


# -- cancellation at each phase: nothing leaks, and the next request gets its own answer


async def _cancel_when(task: asyncio.Task[object], ready: Awaitable[object]) -> None:
    await asyncio.wait_for(ready, 5)
    task.cancel()
    with contextlib.suppress(asyncio.CancelledError):
        await task


async def _next_request_is_clean(client: httpx.AsyncClient, server: Server) -> None:
    await settled()
    pool = pool_of(client)
    assert len(pool.connections) <= 1
    answer = await client.get(server.url("/next"))
    assert answer.text.startswith("/next on ")
    await settled()
    assert server.open == len(pool.connections) == 1


async def test_cancelled_while_waiting_for_a_connection(server: Server) -> None:
    async with pooled(max_connections=1) as client:
        holding = asyncio.create_task(client.get(server.url("/hold")))
        await asyncio.sleep(0.02)
        waiting: asyncio.Task[object] = asyncio.create_task(client.get(server.url("/never")))
        await asyncio.sleep(0.01)
        await _cancel_when(waiting, asyncio.sleep(0))
        server.go.set()
        await holding
        await _next_request_is_clean(client, server)
        assert [r for c in server.connections for r in c.requests] == ["/hold", "/next"]


async def test_a_connection_handed_to_a_waiter_cancelled_meanwhile_is_passed_on(server: Server) -> None:
    async with pooled(max_connections=1) as client:
        after: asyncio.Task[httpx.Response] | None = None
        async with client.stream("GET", server.url("/one")) as response:
            waiting: asyncio.Task[object] = asyncio.create_task(client.get(server.url("/never")))
            await asyncio.sleep(0.01)  # queued for the only connection
            after = asyncio.create_task(client.get(server.url("/after")))
            await asyncio.sleep(0.01)
            await response.aread()
        # closing handed the connection to the first waiter, which has not run yet
        waiting.cancel()
        with contextlib.suppress(asyncio.CancelledError):
            await waiting
        assert (await asyncio.wait_for(after, 5)).text == "/after on 1"
        await _next_request_is_clean(client, server)


async def test_cancelled_while_waiting_for_the_answer(server: Server) -> None:
    async with pooled(max_connections=1) as client:
        task: asyncio.Task[object] = asyncio.create_task(client.get(server.url("/hold")))
        await _cancel_when(task, server.has_received(1))
        server.go.set()  # the late answer must not be read as the next request's
        await server.connections[0].closed.wait()
        await _next_request_is_clean(client, server)


async def test_cancelled_while_reading_the_body(server: Server) -> None:
    async with pooled(max_connections=1) as client:
        task: asyncio.Task[object] = asyncio.create_task(client.get(server.url("/stall-body")))
        await _cancel_when(task, server.has_received(1))
        await server.connections[0].closed.wait()
        await _next_request_is_clean(client, server)


async def test_cancelled_while_sending_the_body(server: Server) -> None:
    async with pooled(max_connections=1) as client:
        stalled = asyncio.Event()

        async def body() -> AsyncIterator[bytes]:
            yield b"x" * 1000
            stalled.set()
            await asyncio.sleep(3600)
            yield b"never"

        task: asyncio.Task[object] = asyncio.create_task(client.post(server.url("/upload"), content=body()))
        await _cancel_when(task, stalled.wait())
        await _next_request_is_clean(client, server)


async def test_cancelled_while_closing_the_response(server: Server) -> None:
    async with pooled(max_connections=1) as client:
        async with client.stream("GET", server.url("/one")) as response:
            closing = asyncio.create_task(response.aclose())
            await asyncio.sleep(0)  # started: inside httpcore's close, at its lock
            closing.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await closing
        await _next_request_is_clean(client, server)


async def test_cancelled_in_the_tls_handshake() -> None:
    # a server that accepts and never answers the handshake
    accepted = asyncio.Event()
    hung_up = asyncio.Event()

    async def silent(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        accepted.set()
        await reader.read()  # returns at the client's close
        hung_up.set()
        writer.close()

    listener = await asyncio.start_server(silent, "127.0.0.1", 0)
    port = listener.sockets[0].getsockname()[1]
    async with listener, pooled(max_connections=1) as client:
        task: asyncio.Task[object] = asyncio.create_task(client.get(f"https://127.0.0.1:{port}/"))
        await _cancel_when(task, accepted.wait())
        await asyncio.wait_for(hung_up.wait(), 5)  # the half-made connection was closed
        assert pool_of(client).connections == []


# -- TLS


@pytest.fixture(scope="module")
def ca() -> trustme.CA:
    return trustme.CA()


@pytest.fixture
async def tls_server(ca: trustme.CA) -> AsyncIterator[Server]:
    started = Server()
    started.tls = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ca.issue_cert("localhost").configure_cert(started.tls)
    started.tls.sni_callback = lambda _, name, __: started.server_names.append(name)
    await started.start()
    yield started
    await started.stop()


def trusting(ca: trustme.CA) -> ssl.SSLContext:
    context = ssl.create_default_context()
    ca.configure_trust(context)
    return context


async def test_tls_verifies_the_server_and_sends_sni(tls_server: Server, ca: trustme.CA) -> None:
    async with pooled(verify=trusting(ca)) as client:
        assert (await client.get(tls_server.url("/a"))).text == "/a on 1"
        assert (await client.get(tls_server.url("/b"))).text == "/b on 1"  # kept alive over TLS
    assert tls_server.server_names == ["localhost"]
    async with pooled(verify=ssl.create_default_context()) as client:
        with pytest.raises(httpx.ConnectError, match="CERTIFICATE_VERIFY_FAILED"):
            await client.get(tls_server.url("/untrusted"))
        assert pool_of(client).connections == []


async def test_tls_client_certificates(tls_server: Server, ca: trustme.CA) -> None:
    assert tls_server.tls is not None
    tls_server.tls.verify_mode = ssl.CERT_REQUIRED
    ca.configure_trust(tls_server.tls)
    without = trusting(ca)
    async with pooled(verify=without) as client:
        with pytest.raises((httpx.ConnectError, httpx.ReadError, httpx.RemoteProtocolError)):
            await client.get(tls_server.url("/anonymous"))
    with_cert = trusting(ca)
    ca.issue_cert("client@print.test").configure_cert(with_cert)
    async with pooled(verify=with_cert) as client:
        assert (await client.get(tls_server.url("/known"))).status_code == 200


# -- event loops and threads


def test_one_client_in_several_event_loops_and_threads() -> None:
    transport = async_named_transport(None, ssl.create_default_context(), httpx.Limits(max_connections=4))
    assert isinstance(transport, PerLoopTransport)
    client = httpx.AsyncClient(transport=transport, timeout=10)
    failures: list[BaseException] = []

    async def session() -> None:
        server = Server()
        await server.start()
        try:
            answers = await asyncio.gather(*(client.get(server.url(f"/slow/{n}")) for n in range(40)))
            assert [a.status_code for a in answers] == [200] * 40
            assert server.most_open <= 4
            pool = transport.current()
            assert isinstance(pool, PooledTransport) and pool.pooled
        finally:
            await server.stop()

    def in_thread() -> None:
        try:
            for _ in range(3):  # successive loops in the same thread
                asyncio.run(session())
        except BaseException as exc:
            failures.append(exc)

    threads = [threading.Thread(target=in_thread) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join(60)
    assert failures == []


# -- what users put in front of the default transport still sees every call


@pytest.fixture
def default_client() -> Generator[PrintClient, None, None]:
    client = PrintClient("http://print.test", auth="t")
    made = client.http._transport
    assert isinstance(made, PerLoopTransport)
    made_transport = made.factory()
    assert isinstance(made_transport, PooledTransport) and made_transport.pooled
    yield client


JOB = {"_id": "j1", "status": "Error"}


async def test_respx_mock_default_mode_intercepts(default_client: PrintClient) -> None:
    with respx.mock(assert_all_mocked=True) as router:
        route = router.get("http://print.test/v3/jobs/j1").respond(json=JOB)
        async with default_client as client:
            assert (await client.jobs.get("j1")).id == "j1"
            assert (await client.jobs.get("j1")).id == "j1"
    assert route.call_count == 2


async def test_respx_mock_using_httpx_intercepts(default_client: PrintClient) -> None:
    with respx.mock(using="httpx", assert_all_mocked=True) as router:
        route = router.get("http://print.test/v3/jobs/j1").respond(json=JOB)
        async with default_client as client:
            assert (await client.jobs.get("j1")).id == "j1"
    assert route.call_count == 1


async def test_respx_passes_a_call_on_to_the_server_over_the_default_transport(server: Server) -> None:
    async with PrintClient(f"http://127.0.0.1:{server.port}", auth="t", retries=0) as client:
        with respx.mock(assert_all_mocked=True) as router:
            route = router.get(server.url("/v3/")).pass_through()
            answer = await client.http.get("/v3/")
        assert answer.text == "/v3/ on 1" and route.call_count == 1
        assert (await client.http.get("/v3/after")).text == "/v3/after on 2"  # unmocked: through the pool again
        transport = client.http._transport
        assert isinstance(transport, PerLoopTransport)
        assert len(pool_of_transport(transport.current()).connections) == 1


async def test_pytest_httpx_intercepts(default_client: PrintClient, httpx_mock: HTTPXMock) -> None:
    httpx_mock.add_response(url="http://print.test/v3/jobs/j1", json=JOB)
    async with default_client as client:
        assert (await client.jobs.get("j1")).id == "j1"
    assert httpx_mock.get_request() is not None


async def test_auth_and_event_hooks_shape_calls_over_the_pool(server: Server) -> None:
    class Stamp(httpx.Auth):
        def auth_flow(self, request: httpx.Request) -> Generator[httpx.Request, httpx.Response, None]:
            request.url = request.url.copy_with(path=request.url.path + "/stamped")
            yield request

    seen: list[int] = []

    async def hook(response: httpx.Response) -> None:
        seen.append(response.status_code)

    async with PrintClient(f"http://127.0.0.1:{server.port}", auth=Stamp(), retries=0) as client:
        client.http.event_hooks["response"].append(hook)
        answer = await client.http.get("/v3/version")
        assert answer.text == "/v3/version/stamped on 1"
        transport = client.http._transport
        assert isinstance(transport, PerLoopTransport)
        assert isinstance(transport.current(), PooledTransport)
    assert seen == [200]


def test_the_stock_pool_serves_what_this_pool_does_not() -> None:
    assert not PooledTransport(uds="/tmp/printmgmt.sock").pooled
    assert not PooledTransport(proxy="http://127.0.0.1:3128").pooled
    assert not PooledTransport(socket_options=[(6, 1, 1)]).pooled
    assert PooledTransport(local_address="127.0.0.1").pooled


async def test_closing_the_pool_fails_its_waiters(server: Server) -> None:
    async with pooled(max_connections=1) as client:
        holding = asyncio.create_task(client.get(server.url("/hold")))
        await server.has_received(1)
        waiting = asyncio.create_task(client.get(server.url("/never")))
        await asyncio.sleep(0.01)
        await pool_of(client).aclose()
        with pytest.raises(httpx.ConnectError, match="pool was closed"):
            await waiting
        with pytest.raises(httpx.HTTPError):
            await holding  # its connection was closed under it
        assert pool_of(client).connections == []
        server.go.set()
