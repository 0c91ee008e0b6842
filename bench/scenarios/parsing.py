"""Scenario 4: turning a 1,000-job page into models, against ``json.loads`` alone.

The page is a real simulator answer (1,000 varied jobs). Each way is timed on the same bytes, ways
interleaved per run; then ``JobCollection.from_dict`` is profiled to show where its time goes.
"""

from __future__ import annotations

import asyncio
import cProfile
import gc
import json
import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any

import httpx
import orjson

from printmgmt import Page, PrintClient
from printmgmt_api.models import JobAttributes, JobCollection

from ..context import Context
from ..profiling import by_package, new_profile, top
from ..stats import ratio, summarize

__all__ = ["SDK_LIST", "SDK_LIST_READ", "run"]

_PROFILED = 3
SDK_LIST = "SDK jobs.list(top=1000) on an in-memory transport"
SDK_LIST_READ = "SDK jobs.list(top=1000), then id, status and printer of each job"


@contextmanager
def _sdk_list(body: bytes) -> Iterator[Callable[[], object]]:
    """``client.jobs.list(top=1000, count=True)`` on a transport answering ``body`` at once (no network)."""

    def handler(request: httpx.Request) -> httpx.Response:
        return httpx.Response(200, content=body, headers={"Content-Type": "application/json"})

    loop = asyncio.new_event_loop()
    client = PrintClient("http://bench.invalid", auth="bench-token", retries=0, transport=httpx.MockTransport(handler))
    try:
        yield lambda: loop.run_until_complete(client.jobs.list(top=1000, count=True))
    finally:
        loop.run_until_complete(client.aclose())
        loop.close()


@contextmanager
def _sdk_list_read(body: bytes) -> Iterator[Callable[[], object]]:
    """As :func:`_sdk_list`, then reading what a listing shows of each job: models decode on access."""
    with _sdk_list(body) as listing:

        def read() -> object:
            page = listing()
            assert isinstance(page, Page)
            shown = []
            for job in page:
                current = job.current
                printer = current.printer_name if isinstance(current, JobAttributes) else None
                shown.append((job.id, job.status, printer))
            return shown

        yield read


def run(context: Context) -> dict[str, Any]:
    """Time each way per run (``runs`` runs), then profile ``from_dict``."""
    body = context.fixtures.page_file.read_bytes()
    data = json.loads(body)
    with _sdk_list(body) as sdk_list, _sdk_list_read(body) as sdk_list_read:
        times, profile = _measure(context, body, data, sdk_list, sdk_list_read)
    baseline = times["json.loads"]
    context.log("parsing: done")
    return {
        "page_bytes": len(body),
        "jobs": len(data["results"]),
        "runs": len(baseline),
        "figures_ms": {name: summarize(values) for name, values in times.items()},
        "ratio_to_json_loads": {name: ratio(values, baseline) for name, values in times.items()},
        # the yardstick: the C decoder alone is the floor a list() call can approach
        "ratio_to_orjson_loads": {name: ratio(values, times["orjson.loads"]) for name, values in times.items()},
        "from_dict_profile": {
            "note": f"cProfile of JobCollection.from_dict on the decoded page, per page ({_PROFILED} runs)",
            "top_self": top(profile, "tottime", per=_PROFILED),
            "top_cumulative": top(profile, "cumulative", per=_PROFILED),
            "self_time_by_package": by_package(profile),
        },
    }


def _measure(
    context: Context,
    body: bytes,
    data: Any,
    sdk_list: Callable[[], object],
    sdk_list_read: Callable[[], object],
) -> tuple[dict[str, list[float]], cProfile.Profile]:
    ways: dict[str, Callable[[], object]] = {
        "json.loads": lambda: json.loads(body),
        "orjson.loads": lambda: orjson.loads(body),
        "json.loads + JobCollection.from_dict": lambda: JobCollection.from_dict(json.loads(body)),
        "orjson.loads + JobCollection.from_dict": lambda: JobCollection.from_dict(orjson.loads(body)),
        "JobCollection.from_dict alone (already decoded)": lambda: JobCollection.from_dict(data),
        SDK_LIST: sdk_list,
        SDK_LIST_READ: sdk_list_read,
    }
    runs = 3 if context.quick else 5 * context.repeats
    for way in ways.values():
        way()  # warm-up: first-call imports and caches
    times: dict[str, list[float]] = {name: [] for name in ways}
    for _ in range(runs):
        for name, way in ways.items():
            gc.collect()
            started = time.perf_counter()
            way()
            times[name].append((time.perf_counter() - started) * 1e3)
    profile = new_profile()
    profile.enable()
    for _ in range(_PROFILED):
        JobCollection.from_dict(data)
    profile.disable()
    return times, profile
