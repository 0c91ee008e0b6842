"""Scenario 7: what tracing costs per SDK call: OpenTelemetry absent, installed but not configured, recording.

Each setup runs in a fresh interpreter (the global tracer provider can be set once per process), making
``client.jobs.get(id)`` calls on an in-memory transport (no network), setups interleaved per run. The
figure is the client's CPU time per call; ratios are against the run without OpenTelemetry.
"""

from __future__ import annotations

import json
import subprocess
import sys
import textwrap
from pathlib import Path
from typing import Any

from ..context import Context
from ..stats import ratio, summarize

__all__ = ["run"]

SETUPS = {
    "opentelemetry absent": "import sys; sys.modules['opentelemetry'] = None",
    "installed, no SDK configured": "",
    "SDK recording (in-memory exporter)": """
from opentelemetry import trace
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
provider = TracerProvider()
provider.add_span_processor(SimpleSpanProcessor(InMemorySpanExporter()))
trace.set_tracer_provider(provider)
""",
}

_CALLS = """
import asyncio, json, time
import httpx
from printmgmt import PrintClient

BODY = {body!r}

async def main(calls):
    transport = httpx.MockTransport(lambda request: httpx.Response(200, content=BODY))
    async with PrintClient("http://bench.invalid", auth="t", retries=0, transport=transport) as client:
        for _ in range(200):
            await client.jobs.get("j1")
        started = time.process_time()
        for _ in range(calls):
            await client.jobs.get("j1")
        return (time.process_time() - started) / calls * 1e6

print(json.dumps(asyncio.run(main({calls}))))
"""


def _one(setup: str, body: bytes, calls: int) -> float:
    code = textwrap.dedent(setup) + "\n" + _CALLS.format(body=body, calls=calls)
    root = Path(__file__).resolve().parents[2]
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, cwd=root)
    value: float = json.loads(done.stdout)
    return value


def run(context: Context) -> dict[str, Any]:
    body = context.fixtures.job_file.read_bytes()
    runs = 2 if context.quick else 7
    calls = 1000 if context.quick else 5000
    figures: dict[str, list[float]] = {name: [] for name in SETUPS}
    for _ in range(runs):
        for name, setup in SETUPS.items():
            figures[name].append(_one(setup, body, calls))
    baseline = figures["opentelemetry absent"]
    context.log("tracing: done")
    return {
        "calls": calls,
        "runs": runs,
        "cpu_us_per_call": {name: summarize(values) for name, values in figures.items()},
        "ratio_to_absent": {name: ratio(values, baseline) for name, values in figures.items()},
    }
