"""Small helpers shared by the tests."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from typing import TypeVar

import httpx
from printmgmt_sim import Simulator

from printmgmt import PrintClient, RetryPolicy
from printmgmt._per_loop import PerLoopTransport

T = TypeVar("T")


async def bounded(awaitable: Awaitable[T], seconds: float = 10.0) -> T:
    """``awaitable``, failing the test instead of hanging when it takes longer than ``seconds``."""
    return await asyncio.wait_for(awaitable, seconds)


def port_of(url: str) -> int:
    port = httpx.URL(url).port
    assert port is not None
    return port


def established_to(port: int) -> int:
    """TCP connections in state ESTABLISHED from this machine to local ``port`` (client side), read from
    ``/proc/net/tcp`` and ``/proc/net/tcp6``: independent of the simulator's and httpx's own bookkeeping."""
    count = 0
    for table in ("/proc/net/tcp", "/proc/net/tcp6"):
        try:
            with open(table) as lines:
                next(lines)  # header
                for line in lines:
                    fields = line.split()
                    remote, state = fields[2], fields[3]
                    if state == "01" and int(remote.rsplit(":", 1)[1], 16) == port:
                        count += 1
        except FileNotFoundError:
            continue
    return count


async def eventually(condition: Callable[[], bool], seconds: float = 3.0) -> bool:
    """Poll ``condition`` until it holds or ``seconds`` pass; return its last value."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        await asyncio.sleep(0.01)
    return True


def loop_transport(client: PrintClient) -> httpx.AsyncBaseTransport | None:
    """The transport the client made for the running event loop (None before its first request)."""
    transport = client.http._transport
    assert isinstance(transport, PerLoopTransport)
    return transport.current()


async def close_and_check(sim: Simulator, *clients: PrintClient) -> None:
    """Close ``clients`` and assert that no connection to ``sim`` is left open, seen from three sides:
    httpx's pool, the kernel's socket table and the server's own count (each the moment it settles)."""
    for client in clients:
        transport = loop_transport(client)
        await client.aclose()
        assert client.http.is_closed
        if transport is not None:
            assert transport._pool.connections == []  # type: ignore[attr-defined]
    port = port_of(sim.base_url)
    assert await eventually(lambda: established_to(port) == 0), f"{established_to(port)} sockets still open"
    assert await eventually(lambda: sim.traffic.open_connections == 0), sim.traffic.snapshot()


async def drained(sim: Simulator, seconds: float = 5.0) -> None:
    """Wait until the server has finished every request (delayed ones included)."""
    assert await eventually(lambda: sim.traffic.in_flight == 0, seconds), sim.traffic.snapshot()


def no_wait(seconds: float) -> None:
    """A retry policy's sleep hook that does not wait: retries keep their attempt counts and delays."""


#: Three attempts that do not wait between them (for clients a test makes itself).
NO_WAITS = RetryPolicy(sleep=no_wait)
