"""Scenario 1: per-call cost of ``client.jobs.get`` against raw httpx and aiohttp.

All clients call the canned server (its own process, its own CPU). Per round and concurrency, every
client is opened and warmed up (connections open), then the clients take turns in short time slices,
``concurrency`` tasks sharing one client per slice: load from elsewhere on the machine then falls on all
clients alike instead of on whichever ran when it came. Client CPU is ``time.process_time()`` of this
process over a client's slices; latency is per call as the caller sees it (queueing included).
"""

from __future__ import annotations

import asyncio
import gc
import time
from contextlib import AsyncExitStack
from dataclasses import asdict, dataclass, field
from typing import Any

from ..canned_server import CannedServer, serve
from ..clients import KINDS, Call, Kind, labels, open_client, sdk_default_transport
from ..context import Context
from ..stats import percentile, ratio, summarize

__all__ = ["CONCURRENCY", "run"]

CONCURRENCY = (1, 16, 64, 256)


@dataclass(frozen=True, slots=True)
class Point:
    """One client's calls in one round."""

    calls: int
    cpu_us: float
    p50_ms: float
    p99_ms: float
    calls_per_s: float
    server_cpu_share: float | None


@dataclass(slots=True)
class _Tally:
    """What a client's slices add up to."""

    latencies: list[float] = field(default_factory=list)
    cpu: float = 0.0
    wall: float = 0.0
    server_cpu: float | None = 0.0

    def point(self) -> Point:
        calls = len(self.latencies)
        self.latencies.sort()
        return Point(
            calls=calls,
            cpu_us=self.cpu / calls * 1e6,
            p50_ms=percentile(self.latencies, 0.5) * 1e3,
            p99_ms=percentile(self.latencies, 0.99) * 1e3,
            calls_per_s=calls / self.wall,
            server_cpu_share=None if self.server_cpu is None else self.server_cpu / self.wall,
        )


async def _slice(call: Call, concurrency: int, seconds: float, tally: _Tally, server: CannedServer) -> None:
    # a fixed duration rather than a fixed count: the slowest client would otherwise set the run time
    deadline = time.perf_counter() + seconds
    latencies = tally.latencies

    async def worker() -> None:
        # at least one call each: under load a task may first run after the deadline
        while True:
            started = time.perf_counter()
            await call()
            latencies.append(time.perf_counter() - started)
            if time.perf_counter() >= deadline:
                break

    gc.collect()
    server_cpu = server.cpu_seconds()
    cpu, wall = time.process_time(), time.perf_counter()
    await asyncio.gather(*(worker() for _ in range(concurrency)))
    tally.cpu += time.process_time() - cpu
    tally.wall += time.perf_counter() - wall
    server_after = server.cpu_seconds()
    if server_cpu is None or server_after is None or tally.server_cpu is None:
        tally.server_cpu = None
    else:
        tally.server_cpu += server_after - server_cpu


async def _round(
    kinds: tuple[Kind, ...], server: CannedServer, job_id: str, concurrency: int, slices: int, seconds: float
) -> dict[Kind, Point]:
    async with AsyncExitStack() as stack:
        calls = {kind: await stack.enter_async_context(open_client(kind, server.url, job_id)) for kind in kinds}
        for call in calls.values():
            # warm-up: open the pool's connections and fill caches before anything is timed
            await asyncio.gather(*(call() for _ in range(max(concurrency, 50))))
        tallies = {kind: _Tally() for kind in kinds}
        for index in range(slices):
            # rotate who goes first, so that no client always follows the same one
            for kind in kinds[index % len(kinds) :] + kinds[: index % len(kinds)]:
                await _slice(calls[kind], concurrency, seconds, tallies[kind], server)
        return {kind: tally.point() for kind, tally in tallies.items()}


def _ratios(points: dict[Kind, dict[int, list[Point]]], over: Kind, under: Kind) -> dict[str, Any]:
    out: dict[str, Any] = {}
    for concurrency in points[over]:
        if concurrency not in points.get(under, {}):
            continue
        top, bottom = points[over][concurrency], points[under][concurrency]
        out[str(concurrency)] = {
            "cpu_us": ratio([p.cpu_us for p in top], [p.cpu_us for p in bottom]),
            "calls_per_s": ratio([p.calls_per_s for p in top], [p.calls_per_s for p in bottom]),
            "p50_ms": ratio([p.p50_ms for p in top], [p.p50_ms for p in bottom]),
            "p99_ms": ratio([p.p99_ms for p in top], [p.p99_ms for p in bottom]),
        }
    return out


def run(context: Context, kinds: tuple[Kind, ...] = KINDS) -> dict[str, Any]:
    """Measure every kind at every concurrency, ``context.repeats`` rounds, kinds interleaved per round."""
    slices, seconds = (2, 0.2) if context.quick else (4, 0.3)
    concurrencies = (1, 16, 256) if context.quick else CONCURRENCY
    points: dict[Kind, dict[int, list[Point]]] = {kind: {c: [] for c in concurrencies} for kind in kinds}
    with serve(context.fixtures.job_file, cpus=context.server_cpus) as server:
        for round_ in range(context.repeats):
            for concurrency in concurrencies:
                measured = asyncio.run(_round(kinds, server, context.fixtures.job_id, concurrency, slices, seconds))
                for kind, point in measured.items():
                    points[kind][concurrency].append(point)
            context.log(f"per-call: round {round_ + 1}/{context.repeats} done")
    figures = {
        kind: {
            str(c): {
                name: summarize([getattr(p, name) for p in runs])
                for name in ("cpu_us", "p50_ms", "p99_ms", "calls_per_s", "calls")
            }
            for c, runs in by_concurrency.items()
        }
        for kind, by_concurrency in points.items()
    }
    shares = [p.server_cpu_share for by_c in points.values() for runs in by_c.values() for p in runs]
    known = [s for s in shares if s is not None]
    pairs = [
        ("sdk", "httpx"),
        ("sdk", "httpx_pool"),
        ("sdk", "aiohttp"),
        ("sdk", "sdk_stock"),
        ("sdk_stock", "httpx"),
        ("sdk_stock", "aiohttp"),
        ("httpx_pool", "aiohttp"),
        ("httpx_pool", "httpx"),
        ("httpx", "aiohttp"),
        ("aiohttp", "httpx"),
    ]
    return {
        "slices_per_round": slices,
        "seconds_per_slice": seconds,
        "concurrency": list(concurrencies),
        "labels": {kind: labels()[kind] for kind in kinds},
        "sdk_default_transport": sdk_default_transport(),
        "job_body_bytes": context.fixtures.job_bytes,
        "server_cpu_share_max": max(known) if known else None,
        "figures": figures,
        "ratios": {f"{a}/{b}": _ratios(points, a, b) for a, b in pairs if a in points and b in points},
        "raw_points": {
            kind: {str(c): [asdict(p) for p in runs] for c, runs in by_c.items()} for kind, by_c in points.items()
        },
    }
