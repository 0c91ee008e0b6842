"""A call's time and its downloads over real HTTP: ``timeout`` per operation as in httpx (``None`` disables
it), ``deadline`` for the whole call, and downloads retried as every other read."""

from __future__ import annotations

import io
import time
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from printmgmt_sim.pytest_plugin import PrintServer, SyncPrintServer
from sim_helpers import bounded, drained

from printmgmt.errors import RequestTimeout, TransportError
from printmgmt_api.api.jobs import list_jobs

pytestmark = pytest.mark.print_server(jobs=20)

#: Seconds between the bytes of a trickling answer.
TRICKLE = 0.2


@pytest.fixture(autouse=True)
async def settled(print_server: PrintServer) -> AsyncIterator[None]:
    """Let the server finish what a client gave up on before the next test."""
    yield
    print_server.sim.faults.reset()
    await drained(print_server.sim, 10.0)


async def _a_job_and_its_logfile(server: PrintServer) -> tuple[str, str]:
    job = (await server.client.jobs.list(top=1)).items[0]
    text = await server.client.jobs.logfile(job.id)
    assert len(text) > 20  # half of it arrives before the cut
    return job.id, text


async def test_a_download_cut_once_is_retried_and_complete(print_server: PrintServer, tmp_path: Path) -> None:
    job_id, text = await _a_job_and_its_logfile(print_server)
    faults = print_server.sim.faults
    faults.truncate_next = 1
    path = tmp_path / "job.log"
    written = await bounded(print_server.client.jobs.logfile(job_id, to=path))
    assert faults.truncate_next == 0  # the first answer was cut
    assert (written, path.read_text()) == (len(text.encode()), text)
    assert not (tmp_path / "job.log.part").exists()


async def test_a_retried_download_starts_again_where_the_file_stood(print_server: PrintServer) -> None:
    job_id, text = await _a_job_and_its_logfile(print_server)
    sink = io.BytesIO()
    sink.write(b"kept: ")
    print_server.sim.faults.truncate_next = 1
    written = await bounded(print_server.client.jobs.logfile(job_id, to=sink))
    assert sink.getvalue() == b"kept: " + text.encode()
    assert written == len(text.encode())


async def test_a_download_cut_more_often_than_its_attempts_fails(print_server: PrintServer, tmp_path: Path) -> None:
    job_id, _ = await _a_job_and_its_logfile(print_server)
    print_server.sim.faults.truncate_next = 3  # the client's three attempts
    with pytest.raises(TransportError) as caught:
        await bounded(print_server.client.jobs.logfile(job_id, to=tmp_path / "job.log"))
    assert caught.value.attempts == 3
    assert not (tmp_path / "job.log").exists()
    assert not (tmp_path / "job.log.part").exists()


async def test_timeout_none_disables_the_clients_timeout(print_server: PrintServer) -> None:
    client = print_server.client_as("admin", timeout=0.2, retries=0)
    await bounded(client.version_info())  # signed in: the latency below delays the API only
    print_server.sim.faults.latency = 0.6
    with pytest.raises(RequestTimeout):
        await bounded(client.version_info())
    assert (await bounded(client.version_info(timeout=None)))["api"] == "v3"
    assert (await bounded(client.with_options(timeout=None).version_info()))["api"] == "v3"


async def _trickled(server: PrintServer) -> float:
    """Seconds the answer of ``jobs.list(top=5)`` takes once it trickles in (switched on here)."""
    size = len((await server.client.request_raw(list_jobs.request(top=5))).content)
    server.sim.faults.trickle = TRICKLE
    return size * TRICKLE


async def test_a_deadline_ends_an_answer_that_trickles_in(print_server: PrintServer) -> None:
    whole = await _trickled(print_server)
    assert whole > 60  # a per-read timeout never trips: each byte comes within TRICKLE
    started = time.monotonic()
    with pytest.raises(RequestTimeout, match="deadline of 1 s"):
        await bounded(print_server.client.jobs.list(top=5, timeout=5.0, deadline=1.0), 30)
    assert time.monotonic() - started < whole / 4  # ended by the deadline, long before the answer would


async def test_a_clients_deadline_bounds_each_of_its_calls(print_server: PrintServer) -> None:
    whole = await _trickled(print_server)
    bounded_client = print_server.client.with_options(deadline=1.0)
    started = time.monotonic()
    with pytest.raises(RequestTimeout, match="deadline"):
        await bounded(bounded_client.jobs.list(top=5), 30)
    assert time.monotonic() - started < whole / 4


def test_the_sync_clients_deadline_ends_an_answer_that_trickles_in(sync_print_server: SyncPrintServer) -> None:
    client = sync_print_server.client
    size = len(client.request_raw(list_jobs.request(top=5)).content)
    sync_print_server.sim.faults.trickle = TRICKLE
    started = time.monotonic()
    try:
        with pytest.raises(RequestTimeout, match="deadline"):
            client.jobs.list(top=5, deadline=1.0)
        assert time.monotonic() - started < size * TRICKLE / 4
    finally:
        sync_print_server.sim.faults.reset()
