"""Every action rule of printmgmt_sim.rules, allowed and refused (412), through the public SDK."""

from __future__ import annotations

from collections.abc import Awaitable, Callable

import pytest
from printmgmt_sim.pytest_plugin import PrintServer

from printmgmt.client import PrintClient
from printmgmt.errors import PreconditionFailed

from .helpers import job_in

pytestmark = pytest.mark.print_server(jobs=600)

PAUSABLE = [
    "Added",
    "WaitPreProcessing",
    "PreProcessing",
    "PostponedPreProcessing",
    "ProcessingRemote",
    "WaitProcessing",
    "Postponed",
]


async def status_of(client: PrintClient, job_id: str) -> str:
    return str((await client.jobs.get(job_id)).status)


async def refused(call: Callable[[], Awaitable[object]], *, message: str) -> PreconditionFailed:
    with pytest.raises(PreconditionFailed) as caught:
        await call()
    assert caught.value.code == "ERR_PRECONDITION_FAILED"
    assert message in (caught.value.message or "")
    return caught.value


# -- jobs ---------------------------------------------------------------------------------------------


@pytest.mark.parametrize("status", PAUSABLE)
async def test_pause_and_resume_an_active_job(print_server: PrintServer, status: str) -> None:
    client = print_server.client
    job = await job_in(client, status)
    result = await client.jobs.pause(job.id)
    assert (result.status, await status_of(client, job.id)) == ("Paused", "Paused")
    await refused(lambda: client.jobs.pause(job.id), message="already paused")
    await client.jobs.resume(job.id)
    converted = status not in ("Added", "WaitPreProcessing", "PreProcessing", "PostponedPreProcessing")
    assert await status_of(client, job.id) == ("WaitProcessing" if converted else "WaitPreProcessing")
    await refused(lambda: client.jobs.resume(job.id), message="not paused")


@pytest.mark.parametrize(
    ("status", "message"),
    [
        ("Processing", "being printed"),
        ("Accounting", "being printed"),
        ("Error", "ended"),
        ("Processed", "ended"),
        ("Canceled", "ended"),
    ],
)
async def test_pause_is_refused_for_printing_and_ended_jobs(
    print_server: PrintServer, status: str, message: str
) -> None:
    job = await job_in(print_server.client, status)
    await refused(lambda: print_server.client.jobs.pause(job.id), message=message)
    assert await status_of(print_server.client, job.id) == status


@pytest.mark.parametrize("status", ["WaitProcessing", "Error", "Processing", "Accounting", "Processed", "Canceled"])
async def test_resume_is_refused_unless_paused(print_server: PrintServer, status: str) -> None:
    job = await job_in(print_server.client, status)
    await refused(lambda: print_server.client.jobs.resume(job.id), message="not paused")


@pytest.mark.parametrize("status", ["Added", "WaitProcessing", "Processing", "Paused", "Error", "Postponed"])
async def test_cancel_an_unfinished_job(print_server: PrintServer, status: str) -> None:
    job = await job_in(print_server.client, status)
    assert (await print_server.client.jobs.cancel(job.id)).status == "Canceled"
    await refused(lambda: print_server.client.jobs.cancel(job.id), message="already canceled")


@pytest.mark.parametrize("status", ["Accounting", "Processed"])
async def test_cancel_is_refused_once_printed(print_server: PrintServer, status: str) -> None:
    job = await job_in(print_server.client, status)
    await refused(lambda: print_server.client.jobs.cancel(job.id), message="already been printed")
    assert await status_of(print_server.client, job.id) == status


@pytest.mark.parametrize("status", ["Processed", "Canceled", "Error"])
async def test_repeat_an_ended_job(print_server: PrintServer, status: str) -> None:
    client = print_server.client
    job = await job_in(client, status)
    assert (await client.jobs.repeat(job.id)).status == "WaitProcessing"
    repeated = await client.jobs.get(job.id)
    assert repeated.stages and repeated.stages[-1].created_by == "repeat"
    await refused(lambda: client.jobs.repeat(job.id), message="still active")


@pytest.mark.parametrize("status", ["Paused", "WaitProcessing", "Processing", "Added", "Accounting"])
async def test_repeat_is_refused_while_active(print_server: PrintServer, status: str) -> None:
    job = await job_in(print_server.client, status)
    await refused(lambda: print_server.client.jobs.repeat(job.id), message="still active")


async def test_move_a_job(print_server: PrintServer) -> None:
    client = print_server.client
    job = await job_in(client, "WaitProcessing")
    assert job.current
    origin = job.current.printer_name
    target = "printer1" if origin != "printer1" else "PRT-BER-01"
    await client.jobs.move(job.id, printer=target)
    moved = await client.jobs.get(job.id)
    assert moved.current and moved.orig and moved.lc_current
    assert (moved.current.printer_name, moved.orig.printer_name, moved.lc_current.printer_name) == (
        target,
        origin,
        target.lower(),
    )
    await refused(lambda: client.jobs.move(job.id, printer=target), message="already on printer")
    await refused(lambda: client.jobs.move(job.id, printer="no-such-printer"), message="does not exist")


async def test_moving_a_failed_job_queues_it_again(print_server: PrintServer) -> None:
    client = print_server.client
    job = await job_in(client, "Error")
    assert job.current
    target = "printer1" if job.current.printer_name != "printer1" else "PRT-BER-01"
    assert (await client.jobs.move(job.id, printer=target)).status == "WaitProcessing"


@pytest.mark.parametrize(
    ("status", "message"),
    [("Processing", "being printed"), ("Processed", "has finished"), ("Canceled", "has finished")],
)
async def test_move_is_refused_for_printing_and_finished_jobs(
    print_server: PrintServer, status: str, message: str
) -> None:
    client = print_server.client
    job = await job_in(client, status)
    assert job.current
    target = "printer1" if job.current.printer_name != "printer1" else "PRT-BER-01"
    await refused(lambda: client.jobs.move(job.id, printer=target), message=message)
    current = (await client.jobs.get(job.id)).current
    assert current and current.printer_name == job.current.printer_name


# -- printers -----------------------------------------------------------------------------------------


async def test_pause_and_resume_a_printer(print_server: PrintServer) -> None:
    client = print_server.client
    await client.printers.pause("PRT-BER-01")
    runtime = (await client.printers.get("PRT-BER-01")).runtime
    assert runtime and runtime.status == "paused"
    error = await refused(lambda: client.printers.pause("PRT-BER-01"), message="already paused")
    assert (error.action, error.target_kind, error.target) == ("pause", "printer", "PRT-BER-01")
    await client.printers.resume("PRT-BER-01")
    runtime = (await client.printers.get("PRT-BER-01")).runtime
    assert runtime and runtime.status in ("idle", "printing")
    await refused(lambda: client.printers.resume("PRT-BER-01"), message="not paused")


async def test_redirect_a_printer(print_server: PrintServer) -> None:
    client = print_server.client
    waiting = [
        job.id
        async for job in client.jobs.iterate(
            filter="current/printerName eq 'PRT-HAM-01' and status eq 'WaitProcessing'"
        )
    ]
    await client.printers.redirect("PRT-HAM-01", to="PRT-MUC-01")
    runtime = (await client.printers.get("PRT-HAM-01")).runtime
    assert runtime and runtime.redirected_to == "PRT-MUC-01"
    for job_id in waiting:
        current = (await client.jobs.get(job_id)).current
        assert current and current.printer_name == "PRT-MUC-01"
    await refused(lambda: client.printers.redirect("PRT-HAM-01", to="PRT-HAM-01"), message="itself")
    await refused(lambda: client.printers.redirect("PRT-HAM-01", to="nowhere"), message="does not exist")
    await refused(lambda: client.printers.redirect("PRT-MUC-01", to="PRT-HAM-01"), message="redirects back")
    # a longer loop is refused too; ending a redirect through runtime makes the way free again
    await client.printers.redirect("PRT-MUC-01", to="PRT-FRA-01")
    await refused(lambda: client.printers.redirect("PRT-FRA-01", to="PRT-HAM-01"), message="redirects back")
    await client.printers.update_runtime("PRT-HAM-01", {"redirectedTo": ""})
    runtime = (await client.printers.get("PRT-HAM-01")).runtime
    assert runtime and not runtime.redirected_to
    await client.printers.redirect("PRT-FRA-01", to="PRT-HAM-01")


async def test_test_jobs_follow_a_redirect(print_server: PrintServer) -> None:
    client = print_server.client
    await client.printers.redirect("PRT-CGN-01", to="PRT-STR-01")
    result = await client.printers.create_test_job("PRT-CGN-01")
    job = await client.jobs.get(result["jobId"])
    assert job.current
    assert (job.current.printer_name, job.current.job_name, job.status) == ("PRT-STR-01", "Test page", "WaitProcessing")
