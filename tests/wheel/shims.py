"""Run by tests/wheel/smoke.py in an installed wheel's environment: what the SDK relies on in httpx beyond its
documented API (the cookie client, the default transport's pool) still holds for the versions installed there
(the newest the range allows, then its lowest)."""

from __future__ import annotations

import asyncio
import contextlib
import importlib.metadata

import httpx

import printmgmt
from printmgmt._network import LeanCookies
from printmgmt.sync import PrintClient as SyncPrintClient

VERSIONS = {"httpx": importlib.metadata.version("httpx")}


def sticky(request: httpx.Request) -> httpx.Response:
    if request.url.path == "/v3/auth/userroles" and "sticky=1" in request.headers.get("Cookie", ""):
        return httpx.Response(200, json={"user": "u", "roles": []})
    return httpx.Response(200, json={"user": "u", "roles": []}, headers={"Set-Cookie": "sticky=1; Path=/"})


async def cookies_kept() -> None:
    # httpx reads and writes the client's cookies only through its ``cookies`` property (the cookie client's
    # store replaces httpx's own): a cookie set by one answer goes with the next request
    async with printmgmt.PrintClient("https://print.test", auth="t", transport=httpx.MockTransport(sticky)) as client:
        assert isinstance(client.http.cookies, LeanCookies), VERSIONS
        await client.auth.user_roles()
        assert client.http.cookies.get("sticky") == "1", VERSIONS
        sent = client.http.build_request("GET", "/v3/auth/userroles")
        assert "sticky=1" in sent.headers.get("Cookie", ""), VERSIONS
    with SyncPrintClient("https://print.test", auth="t", transport=httpx.MockTransport(sticky)) as sync_client:
        assert isinstance(sync_client.http.cookies, LeanCookies), VERSIONS
        sync_client.auth.user_roles()
        assert sync_client.http.cookies.get("sticky") == "1", VERSIONS


asyncio.run(cookies_kept())


def transports_seen() -> None:
    """httpx keeps a client's transport and its mounts in ``_transport`` and ``_mounts``, which tell whether
    a failure's phase can be read from the ``trace`` extension (printmgmt._call.traces)."""
    from printmgmt._call import traces

    mock = httpx.MockTransport(sticky)
    assert traces(httpx.Client()) and traces(httpx.AsyncClient()), VERSIONS
    assert not traces(httpx.Client(transport=mock)), VERSIONS
    assert not traces(httpx.AsyncClient(mounts={"http://": mock})), VERSIONS


transports_seen()


async def sent_through_the_pool() -> None:
    """httpx.AsyncHTTPTransport sends through its ``_pool``, which the default transport replaces with its own."""
    from printmgmt._pool import ConnectionPool, PooledTransport

    hung_up = asyncio.Event()

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        with contextlib.suppress(asyncio.IncompleteReadError, ConnectionError):
            while True:
                await reader.readuntil(b"\r\n\r\n")
                writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
                await writer.drain()
        writer.close()
        hung_up.set()

    server = await asyncio.start_server(serve, "127.0.0.1", 0)
    port = server.sockets[0].getsockname()[1]
    transport = PooledTransport()
    pool = transport._pool
    assert isinstance(pool, ConnectionPool), (type(pool), VERSIONS)
    async with server:
        async with httpx.AsyncClient(transport=transport) as client:
            for _ in range(2):
                assert (await client.get(f"http://127.0.0.1:{port}/")).text == "ok", VERSIONS
            # both requests went through the pool, over one connection
            assert len(pool.connections) == 1, VERSIONS
        assert pool.connections == [], VERSIONS  # closing the client closed the pool
        await asyncio.wait_for(hung_up.wait(), 5)


asyncio.run(sent_through_the_pool())


def h11_under_the_sync_stream() -> None:
    """The sync client's transport finds h11's connection under httpx's response stream (httpcore's pool
    stream, its request's connection, the HTTP/1.1 connection): it closes a connection with bytes left over;
    and its connections are opened through its own network backend, which bounds them by the deadline."""
    import socket
    import threading

    from printmgmt._http11 import close_if_strays
    from printmgmt._sync_wire import GuardedTransport, _Stream

    listener = socket.create_server(("127.0.0.1", 0))

    def serve() -> None:
        conn, _ = listener.accept()
        conn.recv(65536)
        conn.sendall(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
        conn.close()

    threading.Thread(target=serve, daemon=True).start()
    with httpx.Client(transport=GuardedTransport()) as client, listener:
        url = f"http://127.0.0.1:{listener.getsockname()[1]}/"
        with client.stream("GET", url) as response:
            response.read()
            guarded = response.stream._stream  # type: ignore[union-attr]  # httpx wraps the transport's stream
            assert close_if_strays(guarded._stream._httpcore_stream), VERSIONS
            # the pool opened its connection through the transport's backend (httpcore's _network_backend)
            assert isinstance(response.extensions["network_stream"], _Stream), VERSIONS


h11_under_the_sync_stream()


async def h11_under_the_async_stream() -> None:
    """Where the default transport falls back to httpcore's async pool (a proxy, socket options), the same
    private names lead from its response stream to h11's connection."""
    from printmgmt._http11 import close_if_strays
    from printmgmt._pool import PooledTransport, _StrictStream

    async def serve(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.readuntil(b"\r\n\r\n")
        writer.write(b"HTTP/1.1 200 OK\r\nContent-Length: 2\r\n\r\nok")
        await writer.drain()
        writer.close()

    server = await asyncio.start_server(serve, "127.0.0.1", 0)
    async with server, httpx.AsyncClient(transport=PooledTransport(socket_options=[])) as client:
        url = f"http://127.0.0.1:{server.sockets[0].getsockname()[1]}/"
        async with client.stream("GET", url) as response:
            await response.aread()
            # httpx wraps the transport's stream, which wraps httpcore's
            strict = response.stream._stream._httpcore_stream  # type: ignore[union-attr]
            assert isinstance(strict, _StrictStream) and close_if_strays(strict._stream), VERSIONS


asyncio.run(h11_under_the_async_stream())

print(f"shims hold for {', '.join(f'{name} {version}' for name, version in VERSIONS.items())}")
