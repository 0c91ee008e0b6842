"""Jobs move through the statuses over simulated time; printers' runtime follows."""

from __future__ import annotations

from collections import Counter

import pytest
from printmgmt_sim.backend import Backend
from printmgmt_sim.model import JOB_STATUSES
from printmgmt_sim.pytest_plugin import PrintServer
from printmgmt_sim.settings import Settings

from printmgmt import odata

from .helpers import job_in, known, pause

pytestmark = pytest.mark.print_server(jobs=500)


def statuses(backend: Backend) -> dict[str, str]:
    docs, _ = backend.store.find("jobs")
    return {doc["_id"]: doc["status"] for doc in docs}


def test_seeded_data_cover_every_status_and_are_reproducible() -> None:
    first, second = Backend(Settings(jobs=800), "http://a"), Backend(Settings(jobs=800), "http://b")
    assert statuses(first) == statuses(second)
    assert set(statuses(first).values()) == set(JOB_STATUSES)
    assert statuses(Backend(Settings(jobs=800, seed=2), "http://c")) != statuses(first)


def test_progress_is_reproducible() -> None:
    runs = []
    for _ in range(2):
        backend = Backend(Settings(jobs=300, speed=0), "http://x")
        for _step in range(4):
            backend.clock.advance(15)
            while backend.advance():
                pass
        runs.append(statuses(backend))
    assert runs[0] == runs[1]


async def test_a_frozen_clock_changes_nothing(print_server: PrintServer) -> None:
    before = await print_server.client.statistics.job_count()
    await pause(0.3)
    assert await print_server.client.statistics.job_count() == before


async def test_jobs_advance_with_time(print_server: PrintServer) -> None:
    client = print_server.client
    added = await job_in(client, "Added")
    before = (await client.statistics.job_count())["byStatus"]
    changed = print_server.sim.advance(120)
    after = (await client.statistics.job_count())["byStatus"]
    assert changed > 0
    assert sum(after.values()) == sum(before.values())
    assert after["Added"] == 0 and after["Processed"] > before["Processed"]
    assert after["Error"] >= before["Error"] and after["Canceled"] == before["Canceled"]
    moved = await client.jobs.get(added.id)
    assert moved.status != "Added"
    logged = [entry["status"] for entry in await client.jobs.logs(added.id) if "status" in entry.additional_properties]
    assert logged[:2] == ["Added", "WaitPreProcessing"]


async def test_a_paused_printer_holds_its_queue(print_server: PrintServer) -> None:
    client = print_server.client
    busiest = await client.printers.list(filter="runtime/status ne 'paused'", orderby="runtime/queuedJobs desc", top=1)
    name = busiest[0].id
    await client.printers.pause(name)
    on_printer = odata.field("current/printerName") == name
    waiting = await client.jobs.list(filter=on_printer & (odata.field("status") == "WaitProcessing"), count=True)
    print_server.sim.advance(300)
    assert not await client.jobs.list(filter=on_printer & (odata.field("status") == "Processing"), top=1)
    held = await client.jobs.list(filter=on_printer & (odata.field("status") == "WaitProcessing"), count=True)
    assert held.total is not None and waiting.total is not None and held.total >= waiting.total > 0
    runtime = (await client.printers.get(name)).runtime
    assert runtime and runtime.queued_jobs == held.total
    await client.printers.resume(name)
    print_server.sim.advance(300)
    drained = await client.jobs.list(filter=on_printer & (odata.field("status") == "WaitProcessing"), count=True)
    assert drained.total == 0


async def test_printers_print_one_job_at_a_time(print_server: PrintServer) -> None:
    client = print_server.client
    for seconds in (3, 7, 11):
        print_server.sim.advance(seconds)
        printing = [job async for job in client.jobs.iterate(filter=odata.field("status") == "Processing")]
        per_printer = Counter(known(job.current).printer_name for job in printing)
        assert per_printer and max(per_printer.values()) == 1
        waiting = Counter(
            [
                known(job.current).printer_name
                async for job in client.jobs.iterate(filter=odata.field("status") == "WaitProcessing")
            ]
        )
        async for printer in client.printers.iterate():
            runtime = printer.runtime
            assert runtime and runtime.queued_jobs == waiting.get(printer.id, 0)
            current = next((job.id for job in printing if known(job.current).printer_name == printer.id), "")
            assert runtime.current_printing_job == current
            if runtime.status != "paused":
                assert runtime.status == ("printing" if current else "idle")


# new jobs keep arriving: the seeded ones are all done within the first request's catching up at this speed
@pytest.mark.print_server(jobs=300, speed=200, arrivals_per_hour=720)
async def test_a_running_clock_moves_jobs_by_itself(print_server: PrintServer) -> None:
    before = (await print_server.client.statistics.job_count())["byStatus"]
    await pause(0.4)  # 80 simulated seconds
    after = (await print_server.client.statistics.job_count())["byStatus"]
    assert after != before and after["Processed"] > before["Processed"]
