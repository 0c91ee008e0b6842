"""Each transport asks the call's deadline, carried by the request, for its timeouts: a request with a deadline
and no timeouts of its own ends by then on the SDK's pool (waiting for a connection, reading) and the sync
client's wire. Real sockets on 127.0.0.1; the server answers after a few seconds, so a
transport that does not ask gets that answer instead of the timeout (no timing in the assertions)."""

from __future__ import annotations

import asyncio

import httpx
import pytest
from raw_http import Exchange, raw_server

from printmgmt._deadline import DEADLINE, Deadline
from printmgmt._network import async_named_transport
from printmgmt._sync_wire import GuardedTransport

ANSWER = b"HTTP/1.1 200 OK\r\nContent-Type: application/json\r\nContent-Length: 2\r\n\r\n{}"


def late(exchange: Exchange) -> None:
    """The answer after 3 s (at once when the server stops)."""
    exchange.stopping.wait(3)
    exchange.conn.sendall(ANSWER)


def _request(url: str, deadline: float | None) -> httpx.Request:
    # no timeout extension at all: only the deadline can bound the request
    extensions = {} if deadline is None else {DEADLINE: Deadline(deadline)}
    return httpx.Request("GET", url, extensions=extensions)


async def test_a_read_ends_at_the_deadline() -> None:
    with raw_server({"/late": late}) as server:
        transport = async_named_transport("httpx", False, httpx.Limits(max_connections=2))
        try:
            with pytest.raises(httpx.TimeoutException):
                await transport.handle_async_request(_request(f"{server.url}/late", 0.3))
        finally:
            await transport.aclose()


async def test_the_wait_for_a_connection_ends_at_the_deadline() -> None:
    with raw_server({"/late": late}) as server:
        transport = async_named_transport("httpx", False, httpx.Limits(max_connections=1))
        try:
            # the only connection is busy with a request without a deadline
            busy = asyncio.ensure_future(transport.handle_async_request(_request(f"{server.url}/late", None)))
            await asyncio.sleep(0.2)
            assert not busy.done()
            # a pool that does not ask the deadline waits for the busy connection as long as it stays out
            with pytest.raises(httpx.PoolTimeout):
                async with asyncio.timeout(10):
                    await transport.handle_async_request(_request(f"{server.url}/late", 0.3))
        finally:
            busy.cancel()
            await transport.aclose()


def test_the_sync_wire_reads_until_the_deadline() -> None:
    with (
        raw_server({"/late": late}) as server,
        GuardedTransport() as transport,
        pytest.raises(httpx.TimeoutException),
    ):
        transport.handle_request(_request(f"{server.url}/late", 0.3))
