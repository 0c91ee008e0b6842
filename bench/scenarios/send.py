"""Scenario 10: what ``AsyncClient.send`` costs on the SDK's path, against handing the same built request
straight to the transport (the saving of any path that skips httpx's client).

Both run on the SDK's own ``httpx.AsyncClient`` (its auth, cookie store and event hooks), over a transport
that answers at once from memory, so that only the client's work is measured; rounds alternate the two.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

import httpx

from printmgmt import PrintClient

from ..context import Context
from ..stats import summarize

__all__ = ["run"]

BODY = b'{"_id": "j1", "status": "Error"}'


class _Answering(httpx.AsyncBaseTransport):
    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, content=BODY, request=request)


async def _rounds(calls: int, rounds: int) -> dict[str, list[float]]:
    transport = _Answering()
    url = httpx.URL("http://print.test/v3/jobs/j1")
    measured: dict[str, list[float]] = {"send": [], "transport": []}
    async with PrintClient("http://print.test", auth="t", transport=transport) as client:
        http = client.http

        async def through_send() -> None:
            response = await http.send(http.build_request("GET", url), stream=True)
            await response.aread()
            await response.aclose()

        async def straight() -> None:
            request = http.build_request("GET", url)
            request.headers["Authorization"] = "Bearer t"  # what the auth flow adds on the other path
            response = await transport.handle_async_request(request)
            await response.aread()
            await response.aclose()

        for _ in range(rounds):
            for name, call in (("send", through_send), ("transport", straight)):
                started = time.process_time()
                for _ in range(calls):
                    await call()
                measured[name].append((time.process_time() - started) / calls * 1e6)
    return measured


def run(context: Context) -> dict[str, Any]:
    calls = 500 if context.quick else 3000
    measured = asyncio.run(_rounds(calls, context.repeats))
    saved = [s - t for s, t in zip(measured["send"], measured["transport"], strict=True)]
    return {
        "calls_per_round": calls,
        "cpu_us_per_call": {name: summarize(values) for name, values in measured.items()},
        "saved_us_per_call": summarize(saved),
    }
