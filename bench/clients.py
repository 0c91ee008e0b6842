"""The clients compared per call: the SDK on each transport, raw httpx on each transport, raw aiohttp.

Each opens as an async context manager yielding ``call()``, one ``GET /v3/jobs/{id}`` whose body is parsed
(a ``Job`` for the SDK, a ``dict`` for the raw clients). Every client gets the same pool size (100
connections, httpx's default and aiohttp's), the same timeouts and the same bearer token header.

"The same transport" as the SDK on aiohttp is the transport class the SDK really uses there:
``PrintClient(transport="aiohttp")`` when the SDK has it, else ``httpx_aiohttp.AiohttpTransport`` passed in.
"""

from __future__ import annotations

import inspect
import re
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from typing import Any, Final, Literal, get_args

import aiohttp
import httpx
import httpx_aiohttp

from printmgmt import Job, PrintClient

__all__ = [
    "KINDS",
    "Call",
    "Kind",
    "aiohttp_selection",
    "labels",
    "open_client",
    "sdk_aiohttp_transport",
    "sdk_default_transport",
]

Kind = Literal[
    "sdk",
    "sdk_stock",
    "sdk_aiohttp",
    "httpx",
    "httpx_pool",
    "httpx_aiohttp",
    "httpx_aiohttp_direct",
    "httpx_aiohttp_pkg",
    "aiohttp",
]
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


def _named_transports() -> bool:
    """Whether ``PrintClient(transport=...)`` takes a name such as ``"aiohttp"``."""
    text = str(inspect.signature(PrintClient.__init__).parameters["transport"].annotation)
    return bool("aiohttp" in text or "Literal" in text or "TransportName" in text or re.search(r"\bstr\b", text))


def aiohttp_selection() -> str:
    """How the SDK is put on aiohttp in this run."""
    if _named_transports():
        return 'PrintClient(..., transport="aiohttp")'
    return 'PrintClient(..., transport=httpx_aiohttp.AiohttpTransport()) (fallback: no transport="aiohttp" yet)'


def sdk_aiohttp_transport() -> type[httpx.AsyncBaseTransport]:
    """The transport class under the SDK on aiohttp."""
    if _named_transports():
        name: Any = "aiohttp"  # Any: older SDKs declare no transport names
        cls: type[httpx.AsyncBaseTransport] = type(
            _transport_of(PrintClient(_NOWHERE, auth=TOKEN, retries=0, transport=name))
        )
        return cls
    return httpx_aiohttp.AiohttpTransport


def labels() -> dict[Kind, str]:
    """What each kind is, for the report."""
    same = sdk_aiohttp_transport()
    return {
        "sdk": "SDK, default transport",
        "sdk_stock": "SDK on httpx's stock transport (httpcore's pool)",
        "sdk_aiohttp": "SDK, aiohttp transport",
        "httpx": "raw httpx, default transport",
        "httpx_pool": "raw httpx on the SDK's default transport (printmgmt._pool.PooledTransport)",
        "httpx_aiohttp": f"raw httpx on the SDK's aiohttp transport ({same.__module__}.{same.__qualname__})",
        "httpx_aiohttp_direct": "httpx.Request sent straight to the SDK's aiohttp transport (no AsyncClient.send): "
        "the floor of any path that keeps httpx's request and response objects",
        "httpx_aiohttp_pkg": "raw httpx on httpx-aiohttp's AiohttpTransport",
        "aiohttp": "raw aiohttp",
    }


def _sdk(base_url: str, kind: Kind) -> PrintClient:
    if kind == "sdk_stock":
        return PrintClient(base_url, auth=TOKEN, retries=0, transport=httpx.AsyncHTTPTransport(limits=_LIMITS))
    if kind == "sdk_aiohttp":
        transport: Any = "aiohttp" if _named_transports() else httpx_aiohttp.AiohttpTransport(limits=_LIMITS)
        client = PrintClient(base_url, auth=TOKEN, retries=0, transport=transport)
        if "aiohttp" not in _name(_transport_of(client)).lower():
            raise RuntimeError(f"the SDK is not on aiohttp: {_name(_transport_of(client))}")
        return client
    client = PrintClient(base_url, auth=TOKEN, retries=0)
    if "aiohttp" in _name(_transport_of(client)).lower():
        # the default became aiohttp: put the SDK back on httpx's own transport for the httpx comparison
        transport = "httpx" if _named_transports() else httpx.AsyncHTTPTransport(limits=_LIMITS)
        client = PrintClient(base_url, auth=TOKEN, retries=0, transport=transport)
    return client


def _raw_transport(kind: Kind) -> httpx.AsyncBaseTransport | None:
    if kind in ("httpx_aiohttp", "httpx_aiohttp_direct"):
        cls: Any = sdk_aiohttp_transport()  # both aiohttp transports take limits=
        transport: httpx.AsyncBaseTransport = cls(limits=_LIMITS)
        return transport
    if kind == "httpx_aiohttp_pkg":
        return httpx_aiohttp.AiohttpTransport(limits=_LIMITS)
    if kind == "httpx_pool":
        from printmgmt._pool import PooledTransport

        return PooledTransport(limits=_LIMITS)
    return None


@asynccontextmanager
async def open_client(kind: Kind, base_url: str, job_id: str) -> AsyncIterator[Call]:
    """A ready ``call()`` for ``kind``; the client is closed on exit."""
    path = f"/v3/jobs/{job_id}"
    headers = {"Authorization": f"Bearer {TOKEN}"}
    if kind in ("sdk", "sdk_stock", "sdk_aiohttp"):
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
    elif kind == "httpx_aiohttp_direct":
        transport = _raw_transport(kind)
        assert transport is not None
        url = f"{base_url}{path}"
        async with transport:

            async def direct_call() -> object:
                request = httpx.Request("GET", url, headers=headers, extensions={"timeout": _TIMEOUT.as_dict()})
                response = await transport.handle_async_request(request)
                try:
                    await response.aread()
                finally:
                    await response.aclose()
                return response.json()

            yield direct_call
    else:
        async with httpx.AsyncClient(
            base_url=base_url, headers=headers, limits=_LIMITS, transport=_raw_transport(kind), timeout=_TIMEOUT
        ) as http:

            async def httpx_call() -> object:
                return (await http.get(path)).json()

            yield httpx_call
