"""Scenario 8: what reading a raw ``$filter`` before sending costs per ``client.jobs.list(filter=...)`` call.

``client.jobs.list(filter=<raw string>, top=100)`` on an in-memory transport answering the first 100 jobs of
the captured page (``iterate``'s page size; no network: the client's own CPU only), in three modes taking turns
every few calls: ``check_query="off"`` (the baseline), ``"strict"`` with a string no cache has seen in every
call (the cost of a string not seen before) and ``"strict"`` with the same strings again (a loop, a pager, a
poll: the cached verdict). The figure is the client's CPU time per call; ratios are against ``off`` in the
same run.
"""

from __future__ import annotations

import asyncio
import itertools
import json
import time
from typing import Any

import httpx

from printmgmt import PrintClient
from printmgmt._querycheck import CheckQuery

from ..context import Context
from ..stats import ratio, summarize

__all__ = ["FILTERS", "MODES", "PAGE", "run"]

#: Jobs in the answer (and ``$top``): ``iterate()``'s page size.
PAGE = 100
#: Calls in a row in one mode before the next mode's turn (a multiple of the filters: each gets its share).
CHUNK = 3 * 10

#: Raw filters as people type them: a plain comparison, and/or with parentheses, a lambda. ``{n}`` makes each
#: string of the "new string" mode one no cache has seen (the reader's own caches included).
FILTERS = (
    "status eq 'Error' and current/copies ne {n}",
    "status eq 'Error' and (current/printerName eq 'PRT-MUC-01' or current/copies gt {n})",
    "stages/any(st: st/createdBy eq 'checkin') and current/checkinTime ge {n}",
)
#: Label -> (check_query, read afresh each call).
MODES: dict[str, tuple[CheckQuery, bool]] = {
    "off (baseline)": ("off", False),
    "strict, a new string each call": ("strict", True),
    "strict, the same string again": ("strict", False),
}


async def _cpu(client: PrintClient, mode: CheckQuery, afresh: bool, calls: int, first: int) -> float:
    """CPU seconds of ``calls`` list calls in one mode; ``afresh``: strings numbered from ``first`` on."""
    texts = [template.format(n=1) for template in FILTERS]
    if not afresh:  # read once before the clock starts: what a loop sends again
        for text in texts:
            await client.jobs.list(filter=text, top=PAGE, check_query=mode)
    started = time.process_time()
    for number in range(calls):
        template = FILTERS[number % len(FILTERS)]
        text = template.format(n=first + number) if afresh else texts[number % len(FILTERS)]
        await client.jobs.list(filter=text, top=PAGE, check_query=mode)
    return time.process_time() - started


async def _rounds(body: bytes, runs: int, chunks: int) -> dict[str, list[float]]:
    """CPU µs per call of each mode, per run; modes alternate every ``CHUNK`` calls, so that the load of a
    shared machine falls on all of them alike."""
    transport = httpx.MockTransport(lambda request: httpx.Response(200, content=body))
    figures: dict[str, list[float]] = {label: [] for label in MODES}
    async with PrintClient("http://bench.invalid", auth="t", retries=0, transport=transport) as client:
        counter = itertools.count(10_000, CHUNK)
        for mode, afresh in MODES.values():  # warm: imports, the reader's tables
            await _cpu(client, mode, afresh, CHUNK, next(counter))
        for _ in range(runs):
            spent = dict.fromkeys(MODES, 0.0)
            for _ in range(chunks):
                for label, (mode, afresh) in MODES.items():
                    spent[label] += await _cpu(client, mode, afresh, CHUNK, next(counter))
            for label, seconds in spent.items():
                figures[label].append(seconds / (chunks * CHUNK) * 1e6)
    return figures


def _page_of(captured: bytes, size: int) -> bytes:
    """The first ``size`` jobs of a captured list answer, in the shape it has."""
    page = json.loads(captured)
    if isinstance(page, list):
        return json.dumps(page[:size]).encode()
    return json.dumps({**page, "results": page["results"][:size]}).encode()


def run(context: Context) -> dict[str, Any]:
    body = _page_of(context.fixtures.page_file.read_bytes(), PAGE)
    runs = 2 if context.quick else 7
    chunks = 5 if context.quick else 40
    figures = asyncio.run(_rounds(body, runs, chunks))
    baseline = figures["off (baseline)"]
    context.log("querycheck: done")
    return {
        "calls": chunks * CHUNK,
        "runs": runs,
        "filters": [template.format(n="N") for template in FILTERS],
        "page_bytes": len(body),
        "page_jobs": PAGE,
        "cpu_us_per_call": {label: summarize(values) for label, values in figures.items()},
        "ratio_to_off": {label: ratio(values, baseline) for label, values in figures.items()},
    }
