"""Where the SDK's per-call CPU goes: cProfile of sequential ``client.jobs.get`` calls on the canned server,
and of the same calls made with raw httpx on the same transport, to name what the SDK adds."""

from __future__ import annotations

import asyncio
import cProfile
import time
from typing import Any

from ..canned_server import serve
from ..clients import Kind, open_client
from ..context import Context
from ..profiling import by_package, extra_self_time, new_profile, top

__all__ = ["run"]

#: The SDK and the raw httpx client beside it.
PAIRS: tuple[tuple[Kind, Kind], ...] = (("sdk", "httpx"),)


async def _profile(kind: Kind, url: str, job_id: str, calls: int) -> tuple[cProfile.Profile, float]:
    async with open_client(kind, url, job_id) as call:
        for _ in range(50):
            await call()
        profile = new_profile()
        cpu = time.process_time()
        profile.enable()
        for _ in range(calls):
            await call()
        profile.disable()
        return profile, (time.process_time() - cpu) / calls * 1e6


def run(context: Context) -> dict[str, Any]:
    """Profile each pair (the profiler inflates the time; the shares and differences are what count)."""
    calls = 300 if context.quick else 2000
    out: dict[str, Any] = {"calls": calls}
    with serve(context.fixtures.job_file, cpus=context.server_cpus) as server:
        for sdk_kind, raw_kind in PAIRS:
            sdk, sdk_us = asyncio.run(_profile(sdk_kind, server.url, context.fixtures.job_id, calls))
            raw, raw_us = asyncio.run(_profile(raw_kind, server.url, context.fixtures.job_id, calls))
            extra, only_sdk_us = extra_self_time(sdk, calls, raw, calls)
            out[sdk_kind] = {
                "cpu_us_per_call_under_profiler": sdk_us,
                "baseline": raw_kind,
                "baseline_cpu_us_per_call_under_profiler": raw_us,
                "top_cumulative": top(sdk, "cumulative", per=calls),
                "top_self": top(sdk, "tottime", per=calls),
                "self_time_by_package": by_package(sdk),
                "extra_over_baseline": extra,
                "only_in_sdk_self_us": only_sdk_us,
            }
            context.log(f"profile: {sdk_kind} vs {raw_kind} done")
    return out
