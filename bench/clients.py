"""The clients compared per call: the SDK on its default and on httpx's stock transport, raw httpx on each,
raw aiohttp (the floor).

Each opens as an async context manager yielding ``call()``, one ``GET /v3/jobs/{id}`` whose body is parsed
(a ``Job`` for the SDK, a ``dict`` for the raw clients). Every client gets the same pool size (100
connections, httpx's default and aiohttp's), the same timeouts and the same bearer token header.
"""

from __future__ import annotations

from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any, Final, Literal, get_args

import aiohttp
import httpx

from printmgmt import Job, PrintClient

__all__ = [
    "KINDS",
    "Call",
    "Kind",
    "labels",
    "open_client",
    "sdk_default_transport",
]

Kind = Literal["sdk", "sdk_stock", "httpx", "httpx_pool", "aiohttp"]
Call = Callable[[], Awaitable[object]]

KINDS: Final[tuple[Kind, ...]] = get_args(Kind)
TOKEN: Final = "bench-token"
_LIMITS: Final = httpx.Limits(max_connections=100, max_keepalive_connections=20)
#: The SDK's default timeouts, for the raw clients too (httpx's 5 s pool timeout trips at concurrency 256).
_TIMEOUT: Final = httpx.Timeout(30.0, connect=10.0)
_NOWHERE: Final = "http://127.0.0.1:1"


def _transport_of(client: PrintClient) -> Any:
    # the private attribute is read only to report and check which network layer the SDK really uses; a named
    # transport is made per event loop (PerLoopTransport), so report what its factory makes
    transport = getattr(client.http, "_transport", None)
    factory = getattr(transport, "factory", None)
    return factory() if callable(factory) else transport


def _name(obj: Any) -> str:
    return f"{type(obj).__module__}.{type(obj).__qualname__}"


def sdk_default_transport() -> str:
    """The transport class ``PrintClient`` uses when given none."""
    return _name(_transport_of(PrintClient(_NOWHERE, auth=TOKEN, retries=0)))


def labels() -> dict[Kind, str]:
    """What each kind is, for the report."""
    return {
        "sdk": "SDK, default transport",
        "sdk_stock": "SDK on httpx's stock transport (httpcore's pool)",
        "httpx": "raw httpx, default transport",
        "httpx_pool": "raw httpx on the SDK's default transport (printmgmt._pool.PooledTransport)",
        "aiohttp": "raw aiohttp",
    }


def _sdk(base_url: str, kind: Kind) -> PrintClient:
    if kind == "sdk_stock":
        return PrintClient(base_url, auth=TOKEN, retries=0, transport=httpx.AsyncHTTPTransport(limits=_LIMITS))
    return PrintClient(base_url, auth=TOKEN, retries=0)


def _raw_transport(kind: Kind) -> httpx.AsyncBaseTransport | None:
    if kind == "httpx_pool":
        from printmgmt._pool import PooledTransport

        return PooledTransport(limits=_LIMITS)
    return None


@asynccontextmanager
async def open_client(kind: Kind, base_url: str, job_id: str) -> AsyncIterator[Call]:
    """A ready ``call()`` for ``kind``; the client is closed on exit."""
    path = f"/v3/jobs/{job_id}"
    headers = {"Authorization": f"Bearer {TOKEN}"}
    if kind in ("sdk", "sdk_stock"):
        async with _sdk(base_url, kind) as client:
            jobs = client.jobs

            async def sdk_call() -> Job:
                return await jobs.get(job_id)

            yield sdk_call
    elif kind == "aiohttp":
        connector = aiohttp.TCPConnector(limit=_LIMITS.max_connections or 0)
        timeout = aiohttp.ClientTimeout(total=_TIMEOUT.read, sock_connect=_TIMEOUT.connect)
        async with aiohttp.ClientSession(
            base_url=base_url, headers=headers, connector=connector, timeout=timeout
        ) as session:

            async def aiohttp_call() -> object:
                async with session.get(path) as response:
                    return await response.json()

            yield aiohttp_call
    else:
        async with httpx.AsyncClient(
            base_url=base_url, headers=headers, limits=_LIMITS, transport=_raw_transport(kind), timeout=_TIMEOUT
        ) as http:

            async def httpx_call() -> object:
                return (await http.get(path)).json()

            yield httpx_call
