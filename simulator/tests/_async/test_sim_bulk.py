"""Bulk actions over real HTTP: the simulator's 412 rules show up as refused outcomes with their reasons."""

from __future__ import annotations

import pytest
from printmgmt_sim.pytest_plugin import PrintServer

from printmgmt import NotFound, OutcomeStatus, odata

pytestmark = pytest.mark.print_server(jobs=300)


async def test_cancel_many_mixes_done_refused_and_failed(print_server: PrintServer) -> None:
    client = print_server.client
    field = odata.field("status")
    open_jobs = (await client.jobs.list(filter=(field == "Added") | (field == "WaitProcessing"), top=3)).items
    printed = (await client.jobs.list(filter=field == "Processed", top=2)).items
    assert len(open_jobs) == 3 and len(printed) == 2
    ids = [open_jobs[0].id, printed[0].id, "no-such-job", open_jobs[1].id, printed[1].id, open_jobs[2].id]
    seen: list[str] = []

    result = await client.jobs.cancel_many(ids, concurrency=4, on_outcome=lambda outcome: seen.append(outcome.key))

    assert [outcome.key for outcome in result] == ids
    assert [outcome.status for outcome in result] == [
        OutcomeStatus.DONE,
        OutcomeStatus.REFUSED,
        OutcomeStatus.FAILED,
        OutcomeStatus.DONE,
        OutcomeStatus.REFUSED,
        OutcomeStatus.DONE,
    ]
    assert all("already been printed" in (outcome.reason or "") for outcome in result.refused)
    assert isinstance(result[2].error, NotFound)
    assert sorted(seen) == sorted(ids)
    for job in open_jobs:  # the server really did it
        assert str((await client.jobs.get(job.id)).status) == "Canceled"
    # a second pass: everything is refused now, nothing is done twice
    again = await client.jobs.cancel_many([job.id for job in open_jobs])
    assert [outcome.status for outcome in again] == [OutcomeStatus.REFUSED] * 3
    assert all("already canceled" in (outcome.reason or "") for outcome in again)


async def test_pause_and_resume_many_printers(print_server: PrintServer) -> None:
    client = print_server.client
    names = [printer.id for printer in (await client.printers.list(top=4)).items]
    paused = await client.printers.pause_many(names)
    assert paused.ok, paused
    assert [outcome.status for outcome in await client.printers.pause_many(names[:2])] == [OutcomeStatus.REFUSED] * 2
    resumed = await client.printers.resume_many(names, concurrency=2)
    assert resumed.ok, resumed
