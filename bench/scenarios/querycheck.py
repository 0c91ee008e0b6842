"""Scenario 9: what reading a raw ``$filter`` before sending costs per ``client.jobs.list(filter=...)`` call.

``client.jobs.list(filter=<raw string>, top=100)`` on an in-memory transport answering the first 100 jobs of
the captured page (``iterate``'s page size; no network: the client's own CPU only), in modes taking turns
every three calls (one of each filter): ``check_query="off"`` (the baseline, with the same strings and with a
new one each call); ``"strict"`` with a string no cache has seen in every call, whose form (its literal
shape) was read before: a loop formatting values into one filter (numbers; and, in a mode of its own, quoted
texts); the same with no form shared (the cost of
a filter typed for the first time: its literal shape, looked up and not found, then the server's grammar, the
translation into the query document, the members and the groupings, all read once by
:func:`printmgmt.server.read_option`); and ``"strict"`` with the
same strings again (a loop, a pager, a poll: the cached verdict). The figure is the median of the client's
CPU time per call in a run; ratios are against ``off`` in the same run.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import json
import pkgutil
import random
import statistics
import time
from typing import Any, NamedTuple
from unittest import mock

import httpx

from printmgmt import PrintClient
from printmgmt.server import CheckQuery

from ..context import Context
from ..stats import ratio, summarize

__all__ = ["FILTERS", "MODES", "PAGE", "Mode", "run"]

#: Jobs in the answer (and ``$top``): ``iterate()``'s page size.
PAGE = 100

#: Raw filters as people type them: a plain comparison, and/or with parentheses, a lambda. ``{n}`` makes each
#: string of the "new string" mode one no cache has seen (the reader's own caches included).
FILTERS = (
    "status eq 'Error' and current/copies ne {n}",
    "status eq 'Error' and (current/printerName eq 'PRT-MUC-01' or current/copies gt {n})",
    "stages/any(st: st/createdBy eq 'checkin') and current/checkinTime ge {n}",
)
#: The same forms with a new quoted text in place of the number (``{w}``: its digits as letters): strings that
#: differ from earlier ones in more than their numbers, as a loop over names or ids sends.
WORDED = (
    "status eq '{w}' and current/copies ne 5",
    "status eq 'Error' and (current/printerName eq 'PRT-{w}' or current/copies gt 5)",
    "stages/any(st: st/createdBy eq '{w}') and current/checkinTime ge 5",
)
_LETTERS = str.maketrans("0123456789", "abcdefghij")
#: Calls in a row in one mode before the next mode's turn: one of each filter, so that the load of a shared
#: machine (and the collector's pauses) falls on every mode alike.
CHUNK = len(FILTERS)


class Mode(NamedTuple):
    check: CheckQuery
    #: a string no cache has seen in every call
    afresh: bool
    #: whether the check may know the string's form (off: each string read in full, as a new form)
    shapes: bool = True
    #: a new quoted text each call instead of a new number
    worded: bool = False


MODES: dict[str, Mode] = {
    "off (baseline)": Mode("off", afresh=False),
    "off, a new string each call": Mode("off", afresh=True),
    "strict, a new string each call": Mode("strict", afresh=True),
    "strict, a new quoted text each call": Mode("strict", afresh=True, worded=True),
    "strict, a new string each call, no form shared": Mode("strict", afresh=True, shapes=False),
    "strict, the same string again": Mode("strict", afresh=False),
}


async def _cpu(client: PrintClient, mode: Mode, calls: int, first: int) -> list[float]:
    """CPU seconds of each of ``calls`` list calls in one mode; afresh, strings are numbered from ``first`` on."""
    templates = WORDED if mode.worded else FILTERS
    texts = [template.format(n=1, w="b") for template in templates]
    spent = []
    with _forms(mode):
        if not mode.afresh:  # read once before the clock starts: what a loop sends again
            for text in texts:
                await client.jobs.list(filter=text, top=PAGE, check_query=mode.check)
        for number in range(calls):
            value = first + number
            text = templates[number % len(templates)].format(n=value, w=str(value).translate(_LETTERS))
            text = text if mode.afresh else texts[number % len(templates)]
            started = time.process_time_ns()
            await client.jobs.list(filter=text, top=PAGE, check_query=mode.check)
            spent.append((time.process_time_ns() - started) / 1e9)
    return spent


def _forms(mode: Mode) -> contextlib.AbstractContextManager[object]:
    if mode.shapes:
        return contextlib.nullcontext()
    # each string's shape is worked out as for any text (none is looked up: the shapes known are others'), then
    # made one no earlier string has: the check pays what a filter of a form it never saw costs, the shape's
    # cache miss included
    shape = pkgutil.resolve_name(_SHAPE)
    forms = contextlib.ExitStack()
    forms.enter_context(mock.patch(_SHAPE, lambda text: f"{shape(text)} {next(_NEW)}"))
    forms.enter_context(mock.patch(_SHAPES, {}))
    return forms


_SHAPE = "printmgmt.server._verdict.literal_shape"
_SHAPES = "printmgmt.server._lexer._SHAPES"
_NEW = itertools.count()


async def _rounds(body: bytes, runs: int, chunks: int) -> dict[str, list[float]]:
    """CPU µs per call of each mode, per run; modes alternate every ``CHUNK`` calls, so that the load of a
    shared machine falls on all of them alike."""
    transport = httpx.MockTransport(lambda request: httpx.Response(200, content=body))
    figures: dict[str, list[float]] = {label: [] for label in MODES}
    async with PrintClient("http://bench.invalid", auth="t", retries=0, transport=transport) as client:
        counter = itertools.count(10_000, CHUNK)
        order, labels = random.Random(9), list(MODES)
        for mode in MODES.values():  # warm: imports, the reader's tables
            await _cpu(client, mode, CHUNK, next(counter))
        for _ in range(runs):
            spent: dict[str, list[float]] = {label: [] for label in MODES}
            for _ in range(chunks):
                # in a new order each time: the collector runs every so many allocations, and a fixed order
                # would have it pause in the same mode's turn again and again
                for label in order.sample(labels, len(labels)):
                    spent[label] += await _cpu(client, MODES[label], CHUNK, next(counter))
            for label, seconds in spent.items():
                # the typical call: a collector's pause or another process's burst lands on a few calls
                figures[label].append(statistics.median(seconds) * 1e6)
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
    chunks = 50 if context.quick else 400
    figures = asyncio.run(_rounds(body, runs, chunks))
    baseline = figures["off (baseline)"]
    context.log("querycheck: done")
    return {
        "calls": chunks * CHUNK,
        "runs": runs,
        "filters": [template.format(n="N") for template in FILTERS],
        "worded_filters": [template.format(w="W") for template in WORDED],
        "page_bytes": len(body),
        "page_jobs": PAGE,
        "cpu_us_per_call": {label: summarize(values) for label, values in figures.items()},
        "ratio_to_off": {label: ratio(values, baseline) for label, values in figures.items()},
    }
