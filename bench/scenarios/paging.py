"""Scenario 3: ``client.jobs.iterate()`` over 100,000 jobs, sequential vs prefetch, and its peak memory.

The canned server makes the pages (distinct ``_id`` values, ``$top``/``$skip`` honoured, ``totalCount``)
and waits 20 ms before every answer without blocking other connections, standing in for a server's
latency. The simulator is not used here: 100,000 jobs in its SQLite store would make the server the
bottleneck. Peak memory is measured in a fresh child process (``tracemalloc`` peak while iterating).
"""

from __future__ import annotations

import argparse
import asyncio
import inspect
import json
import subprocess
import sys
import time
import tracemalloc
from pathlib import Path
from typing import Any

from printmgmt import PrintClient
from printmgmt.sync import PrintClient as SyncPrintClient

from ..canned_server import serve
from ..context import Context
from ..stats import ratio, summarize

__all__ = ["prefetch_default", "run"]

DELAY = 0.02
#: Used when ``iterate()``'s own default is not a positive number.
FALLBACK_PREFETCH = 4
TOKEN = "bench-token"


def prefetch_default() -> int | None:
    """The default of ``jobs.iterate(prefetch=)``, or None when ``iterate()`` has no such parameter."""
    client = PrintClient("http://127.0.0.1:1", auth=TOKEN, retries=0)
    parameter = inspect.signature(client.jobs.iterate).parameters.get("prefetch")
    if parameter is None:
        return None
    default = parameter.default
    return default if isinstance(default, int) and not isinstance(default, bool) else 0


def _iterate_kwargs(page_size: int, prefetch: int | None) -> dict[str, Any]:
    kwargs: dict[str, Any] = {"page_size": page_size}
    if prefetch is not None:
        kwargs["prefetch"] = prefetch
    return kwargs


class _InOrder:
    """Checks that an iteration yields every job once, in ``_id`` order."""

    def __init__(self) -> None:
        self.count, self.last = 0, ""

    def check(self, job_id: str) -> None:
        if job_id <= self.last:
            raise AssertionError(f"items out of order at {self.count}: {job_id} after {self.last}")
        self.count, self.last = self.count + 1, job_id

    def done(self, total: int) -> None:
        if self.count != total:
            raise AssertionError(f"iterate() yielded {self.count} jobs, the server has {total}")


async def _iterate(base_url: str, total: int, page_size: int, prefetch: int | None) -> tuple[float, float]:
    """Wall and client CPU seconds of one whole iteration; checks count and order of the items."""
    async with PrintClient(base_url, auth=TOKEN, retries=0) as client:
        cpu, wall = time.process_time(), time.perf_counter()
        order = _InOrder()
        async for job in client.jobs.iterate(**_iterate_kwargs(page_size, prefetch)):
            order.check(job.id)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    order.done(total)
    return wall, cpu


def _iterate_sync(base_url: str, total: int, page_size: int, prefetch: int) -> tuple[float, float]:
    """As :func:`_iterate` on the sync client (prefetch on threads; CPU time counts every thread)."""
    with SyncPrintClient(base_url, auth=TOKEN, retries=0) as client:
        cpu, wall = time.process_time(), time.perf_counter()
        order = _InOrder()
        for job in client.jobs.iterate(page_size=page_size, prefetch=prefetch):
            order.check(job.id)
        wall, cpu = time.perf_counter() - wall, time.process_time() - cpu
    order.done(total)
    return wall, cpu


def _modes() -> list[tuple[str, int | None]]:
    """(name, prefetch) pairs: sequential, and the SDK's default prefetch when ``iterate()`` has one."""
    default = prefetch_default()
    if default is None:
        return [("sequential", None)]
    prefetch = default if default > 0 else FALLBACK_PREFETCH
    return [("sequential", 0), (f"prefetch={prefetch}", prefetch)]


def _memory(context: Context, total: int, page_size: int, prefetch: int | None) -> dict[str, Any]:
    """tracemalloc peak of one iteration in a fresh child process (nothing else allocated there)."""
    with serve(context.fixtures.job_file, total=total, cpus=context.server_cpus) as server:
        command = [sys.executable, "-m", "bench.scenarios.paging", server.url, str(total), str(page_size)]
        if prefetch is not None:
            command.append(f"--prefetch={prefetch}")
        root = Path(__file__).resolve().parents[2]
        done = subprocess.run(command, capture_output=True, text=True, cwd=root, check=True, timeout=600)
    result: dict[str, Any] = json.loads(done.stdout)
    return result


def run(context: Context) -> dict[str, Any]:
    """Time every (page size, mode), ``repeats`` rounds interleaved; then the memory of 10k vs 100k jobs."""
    total = 5_000 if context.quick else 100_000
    rounds = 1 if context.quick else min(context.repeats, 3)
    modes = _modes()
    page_sizes = (100, 1000)
    walls: dict[str, list[float]] = {}
    cpus: dict[str, list[float]] = {}
    with serve(context.fixtures.job_file, total=total, delay=DELAY, cpus=context.server_cpus) as server:
        for round_ in range(rounds):
            for page_size in page_sizes:
                for name, prefetch in modes if round_ % 2 == 0 else modes[::-1]:
                    key = f"page_size={page_size} {name}"
                    wall, cpu = asyncio.run(_iterate(server.url, total, page_size, prefetch))
                    walls.setdefault(key, []).append(wall)
                    cpus.setdefault(key, []).append(cpu)
                    context.log(f"paging: {key}: {wall:.1f} s wall, {cpu:.1f} s CPU")
                if len(modes) > 1:  # the sync client: prefetch on threads, or not at all
                    for name, prefetch in modes:
                        key = f"page_size={page_size} sync {name}"
                        wall, cpu = _iterate_sync(server.url, total, page_size, prefetch or 0)
                        walls.setdefault(key, []).append(wall)
                        cpus.setdefault(key, []).append(cpu)
                        context.log(f"paging: {key}: {wall:.1f} s wall, {cpu:.1f} s CPU")
    figures = {
        key: {
            "wall_s": summarize(walls[key]),
            "client_cpu_s": summarize(cpus[key]),
            "jobs_per_s": summarize([total / w for w in walls[key]]),
        }
        for key in walls
    }
    speedups: dict[str, Any] = {}
    sync_speedups: dict[str, Any] = {}
    if len(modes) > 1:
        for page_size in page_sizes:
            sequential = walls[f"page_size={page_size} sequential"]
            concurrent = walls[f"page_size={page_size} {modes[1][0]}"]
            speedups[str(page_size)] = ratio(sequential, concurrent)
            sync_speedups[str(page_size)] = ratio(
                walls[f"page_size={page_size} sync sequential"], walls[f"page_size={page_size} sync {modes[1][0]}"]
            )
    memory_page_size = 1000
    memory_totals = (5_000, 10_000) if context.quick else (10_000, 100_000)
    memory: dict[str, Any] = {}
    for name, prefetch in modes:
        peaks = {str(n): _memory(context, n, memory_page_size, prefetch) for n in memory_totals}
        small, large = (peaks[str(n)]["peak_bytes"] for n in memory_totals)
        memory[name] = {"peaks": peaks, "ratio": large / small}
        context.log(
            f"paging memory {name}: {small / 1e6:.1f} MB for {memory_totals[0]} jobs, "
            f"{large / 1e6:.1f} MB for {memory_totals[1]}"
        )
    return {
        "server": "canned server (own process), pages made from one simulator job with distinct _id values",
        "delay_s": DELAY,
        "total_jobs": total,
        "rounds": rounds,
        "prefetch_supported": len(modes) > 1,
        "prefetch": modes[1][1] if len(modes) > 1 else None,
        "prefetch_default": prefetch_default(),
        "figures": figures,
        "speedup_sequential_over_prefetch": speedups,
        "sync_speedup_sequential_over_prefetch": sync_speedups,
        "memory": {
            "method": "tracemalloc peak in a fresh child process, around the iteration only",
            "page_size": memory_page_size,
            "totals": list(memory_totals),
            "modes": memory,
        },
    }


async def _measure_memory(base_url: str, total: int, page_size: int, prefetch: int | None) -> dict[str, Any]:
    async with PrintClient(base_url, auth=TOKEN, retries=0) as client:
        await client.jobs.get("warm-up")  # imports and the connection are not part of the iteration's peak
        tracemalloc.start()
        baseline = tracemalloc.get_traced_memory()[0]
        count = 0
        async for _job in client.jobs.iterate(**_iterate_kwargs(page_size, prefetch)):
            count += 1
        peak = tracemalloc.get_traced_memory()[1]
        tracemalloc.stop()
    if count != total:
        raise AssertionError(f"iterate() yielded {count} jobs, the server has {total}")
    return {"jobs": count, "peak_bytes": peak - baseline}


def main() -> None:
    parser = argparse.ArgumentParser(description="peak memory of one jobs.iterate() (JSON on stdout)")
    parser.add_argument("url")
    parser.add_argument("total", type=int)
    parser.add_argument("page_size", type=int)
    parser.add_argument("--prefetch", type=int, default=None)
    args = parser.parse_args()
    print(json.dumps(asyncio.run(_measure_memory(args.url, args.total, args.page_size, args.prefetch))))


if __name__ == "__main__":
    main()
