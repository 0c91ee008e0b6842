"""Any byte after a complete answer closes the connection, on the default transport and the sync client: a second
answer in the same read, or one the server writes while the connection idles, is never read as the next
call's answer. Real sockets on 127.0.0.1 with a server that smuggles an answer."""

from __future__ import annotations

import asyncio
import json
import ssl
import threading
from collections.abc import Callable
from typing import Any

import pytest
import trustme
from loopback_proxy import loopback_proxy
from raw_http import Exchange, head_of, raw_server

from printmgmt import PrintClient
from printmgmt.errors import NotFound
from printmgmt.sync import PrintClient as SyncPrintClient

SMUGGLED = json.dumps({"_id": "SMUGGLED"}).encode()
SECOND = head_of(200, len(SMUGGLED)) + SMUGGLED


def own_answer(exchange: Exchange) -> None:
    exchange.send(200, {"_id": exchange.path.rsplit("/", 1)[1]})


def in_the_same_read(exchange: Exchange) -> None:
    """A 404 and a second answer in one write."""
    exchange.conn.sendall(head_of(404, 0) + SECOND)


def while_idle(exchange: Exchange) -> None:
    """A 404, then, once the client has had time to put the connection back, a second answer."""
    exchange.conn.sendall(head_of(404, 0))
    threading.Timer(0.2, lambda: exchange.conn.sendall(SECOND)).start()


def second_call(
    client: str,
    smuggle: Callable[[Exchange], None],
    answer: Callable[[Exchange], None] = own_answer,
    tls: ssl.SSLContext | None = None,
    **options: Any,
) -> str:
    """The id the second call reads (answered by ``answer``) after the first was answered by ``smuggle``."""
    routes = {"/v3/jobs/j1": smuggle, "/v3/jobs/j2": answer}
    with raw_server(routes, tls=tls) as server:
        if client == "sync":
            with SyncPrintClient(server.url, auth="t", retries=0, **options) as sync_client:
                with pytest.raises(NotFound):
                    sync_client.jobs.get("j1")
                threading.Event().wait(0.4)
                return str(sync_client.jobs.get("j2").id)

        async def run() -> str:
            async with PrintClient(server.url, auth="t", transport=client, retries=0, **options) as async_client:  # type: ignore[arg-type]
                with pytest.raises(NotFound):
                    await async_client.jobs.get("j1")
                await asyncio.sleep(0.4)
                return str((await async_client.jobs.get("j2")).id)

        return asyncio.run(run())


@pytest.mark.parametrize("client", ["httpx", "sync"])
@pytest.mark.parametrize("smuggle", [in_the_same_read, while_idle])
def test_a_smuggled_answer_never_reaches_the_next_call(client: str, smuggle: Callable[[Exchange], None]) -> None:
    assert second_call(client, smuggle) == "j2"


@pytest.mark.parametrize("client", ["httpx", "sync"])
@pytest.mark.parametrize("smuggle", [in_the_same_read, while_idle])
def test_a_smuggled_answer_never_reaches_the_next_call_through_a_proxy_tunnel(
    client: str, smuggle: Callable[[Exchange], None]
) -> None:
    """HTTPS through a proxy's CONNECT tunnel: the proxy passes every byte on, so the connection under the
    tunnel is held to the same rule as a direct one."""
    ca = trustme.CA()
    server_side = ssl.create_default_context(ssl.Purpose.CLIENT_AUTH)
    ca.issue_cert("127.0.0.1").configure_cert(server_side)
    client_side = ssl.create_default_context()
    ca.configure_trust(client_side)
    with loopback_proxy() as proxy:
        assert second_call(client, smuggle, tls=server_side, verify=client_side, proxy=proxy.url) == "j2"
        assert [seen.method for seen in proxy.passed][:1] == ["CONNECT"]


@pytest.mark.parametrize("client", ["httpx", "sync"])
def test_a_connection_that_read_part_of_an_answer_while_idle_serves_no_other_call(client: str) -> None:
    """Bytes that arrive while a connection idles, even the start of an answer no parser has finished, mean
    the connection is closed: the next call goes out on a new one."""
    connections: list[object] = []

    def partial_while_idle(exchange: Exchange) -> None:
        connections.append(exchange.conn)
        exchange.conn.sendall(head_of(404, 0))
        threading.Timer(0.2, lambda: exchange.conn.sendall(b"HTTP/1.1 200 OK\r\nX-Half: ")).start()

    def answer(exchange: Exchange) -> None:
        connections.append(exchange.conn)
        own_answer(exchange)

    assert second_call(client, partial_while_idle, answer) == "j2"
    first, second = connections
    assert first is not second, "the call was sent on the connection that read bytes while idle"
