"""Scenario 8: the simulator's answer to a filtered list of 5,000 jobs, against its former SQLite path.

Both sides answer the same query strings over the same 5,000 seeded job documents, in one process, round by
round: the engine path (:func:`printmgmt_sim.listquery.read`, then :meth:`printmgmt_sim.store.Store.find`
with MongoDB's rules on the store's documents) against the former one (``odata-query``'s grammar compiled to
SQLite, kept in :mod:`bench.sqlite_baseline`). Each answer is cold: the store's per-query cache is emptied
before every call, as after any write. The figure is CPU time per answer, including ``json.dumps`` of the page.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from typing import Any

from printmgmt_sim.listquery import read
from printmgmt_sim.seed import seed_store
from printmgmt_sim.settings import Settings
from printmgmt_sim.store import Store

from ..context import Context
from ..sqlite_baseline import SqliteJobs
from ..stats import ratio, summarize

__all__ = ["QUERIES", "run"]

JOBS = 5000
#: Typical filtered lists (each OData-reading and server-reading alike, so both sides find the same jobs).
QUERIES: dict[str, dict[str, str]] = {
    "status, newest first, 100": {
        "$filter": "status eq 'Error'",
        "$orderby": "current/checkinTime desc",
        "$top": "100",
    },
    "printer and statuses, count": {
        "$filter": "current/printerName eq 'printer1' and (status eq 'Error' or status eq 'Paused')",
        "$inlinecount": "allpages",
        "$top": "50",
    },
    "startswith, select": {
        "$filter": "startswith(current/userName,'a') eq true",
        "$select": "status,current/printerName",
        "$top": "100",
    },
    "through stages, by time": {
        "$filter": "stages/any(st: st/createdBy eq 'checkin') and current/copies gt 1",
        "$orderby": "current/checkinTime",
        "$top": "100",
    },
}


def _cpu_ms(answer: Callable[[], object], calls: int) -> float:
    started = time.process_time()
    for _ in range(calls):
        answer()
    return (time.process_time() - started) / calls * 1000


def run(context: Context) -> dict[str, Any]:
    store = Store()
    seed_store(store, Settings(jobs=JOBS, seed=1))
    docs, total = store.find("jobs")
    assert total == JOBS
    former = SqliteJobs(docs)
    rounds = 2 if context.quick else max(context.repeats, 5)
    calls = 2 if context.quick else 5

    def engine(items: list[tuple[str, str]]) -> Callable[[], object]:
        def answer() -> object:
            store.version += 1  # cold: as after a write
            query, count = read(items)
            page, found = store.find("jobs", query)
            return json.dumps({"results": page, "totalCount": found} if count else page)

        return answer

    def sqlite(items: list[tuple[str, str]]) -> Callable[[], object]:
        count = dict(items).get("$inlinecount") == "allpages"

        def answer() -> object:
            page, found = former.answer(items)
            return json.dumps({"results": page, "totalCount": found} if count else page)

        return answer

    figures: dict[str, dict[str, list[float]]] = {name: {"engine": [], "sqlite": []} for name in QUERIES}
    for name, options in QUERIES.items():
        items = list(options.items())
        new, old = store.find("jobs", read(items)[0]), former.answer(items)
        if [d["_id"] for d in new[0]] != [d["_id"] for d in old[0]] or new[1] != old[1]:
            raise AssertionError(f"{name}: the two paths find different jobs")
        engine(items)(), sqlite(items)()  # warm both (imports, compiled patterns, the store's documents)
    for _ in range(rounds):
        for name, options in QUERIES.items():
            items = list(options.items())
            figures[name]["engine"].append(_cpu_ms(engine(items), calls))
            figures[name]["sqlite"].append(_cpu_ms(sqlite(items), calls))
    former.close()
    store.close()
    context.log("simlist: done")
    return {
        "jobs": JOBS,
        "rounds": rounds,
        "calls": calls,
        "cpu_ms_per_answer": {
            name: {side: summarize(values) for side, values in sides.items()} for name, sides in figures.items()
        },
        "ratio_engine_to_sqlite": {name: ratio(sides["engine"], sides["sqlite"]) for name, sides in figures.items()},
    }
