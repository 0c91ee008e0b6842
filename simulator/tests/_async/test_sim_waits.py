"""Waiting for jobs against the simulator's state machine: jobs move as its clock is moved."""

from __future__ import annotations

import itertools

import pytest
from printmgmt_sim.pytest_plugin import PrintServer
from printmgmt_sim.variants import parse_variant

from printmgmt import JobStatus, odata
from printmgmt.errors import JobFailed, NotFound, StatusUnreachable, WaitTimeout
from printmgmt.waiting import FINAL

from .helpers import Ticker, job_in

pytestmark = pytest.mark.print_server(jobs=300)

GET_JOB = "GET /v3/jobs/{id}"


async def moving_jobs(print_server: PrintServer, count: int) -> list[str]:
    """Ids of jobs the simulator moves on by itself as its clock runs."""
    moving = odata.or_(*(odata.field("status") == status for status in ("Added", "WaitProcessing", "Processing")))
    page = await print_server.client.jobs.list(filter=moving, orderby="_id", top=count)
    assert len(page) == count
    return [job.id for job in page]


def gets_of(print_server: PrintServer, job_id: str) -> int:
    return print_server.sim.traffic.count(f"GET /v3/jobs/{job_id}")


async def test_wait_for_returns_the_job_in_its_final_status(print_server: PrintServer) -> None:
    client = print_server.client
    added = await job_in(client, "Added")
    print_server.sim.traffic.reset()
    with Ticker(print_server.sim, step=30):
        job = await client.jobs.wait_for(added.id, until=FINAL, fail_on=(), poll=0.02, max_poll=0.05, timeout=20)
    assert job.id == added.id
    assert job.status in FINAL
    assert gets_of(print_server, added.id) > 1  # it polled while the job moved


async def test_a_failure_status_raises_job_failed_with_the_job(print_server: PrintServer) -> None:
    client = print_server.client
    added = await job_in(client, "Added")
    await client.jobs.cancel(added.id)
    with pytest.raises(JobFailed) as failed:
        await client.jobs.wait_for(added.id, poll=0.02, timeout=5)
    assert failed.value.job.id == added.id
    assert failed.value.job.status == JobStatus.CANCELED


async def test_a_status_a_job_can_no_longer_reach_ends_the_wait_at_once(print_server: PrintServer) -> None:
    client = print_server.client
    done, waiting = await job_in(client, "Processed"), await job_in(client, "WaitProcessing")
    print_server.sim.traffic.reset()
    with pytest.raises(StatusUnreachable) as one:
        await client.jobs.wait_for(done.id, until="Paused", poll=0.02, timeout=300)
    assert one.value.status == "Processed" and gets_of(print_server, done.id) == 1
    with pytest.raises(StatusUnreachable) as many:  # the other job could still get there: no matter
        await client.jobs.wait_for_many([waiting.id, done.id], until="Paused", poll=0.02, timeout=300)
    assert many.value.job.id == done.id and [job.id for job in many.value.jobs] == [waiting.id, done.id]
    assert print_server.sim.traffic.count("GET /v3/jobs/") == 1  # one round


async def test_a_timeout_carries_the_last_job_seen(print_server: PrintServer) -> None:
    client = print_server.client
    paused = await job_in(client, "Paused")  # the clock is frozen: it stays paused
    print_server.sim.traffic.reset()
    with pytest.raises(WaitTimeout) as timed_out:
        await client.jobs.wait_for(paused.id, poll=0.02, max_poll=0.05, timeout=0.3)
    assert isinstance(timed_out.value, TimeoutError)
    assert timed_out.value.job is not None and timed_out.value.job.status == "Paused"
    assert "last seen: Paused" in str(timed_out.value)
    assert 2 <= gets_of(print_server, paused.id) <= 30  # polled until the deadline, backing off


async def test_waiting_for_a_job_that_does_not_exist_is_not_found(print_server: PrintServer) -> None:
    with pytest.raises(NotFound):
        await print_server.client.jobs.wait_for("no-such-job", poll=0.02, timeout=5)


async def test_watch_yields_each_change_until_a_final_status(print_server: PrintServer) -> None:
    client = print_server.client
    added = await job_in(client, "Added")
    seen = []
    with Ticker(print_server.sim, step=5):
        async for job in client.jobs.watch(added.id, poll=0.02, max_poll=0.05, timeout=20):
            seen.append(job)
    assert seen[0].status == "Added"
    assert seen[-1].status in FINAL
    assert len(seen) >= 3
    documents = [job.to_dict() for job in seen]
    assert all(before != after for before, after in itertools.pairwise(documents))


async def test_waiting_for_many_jobs_polls_with_one_list_request_per_round(print_server: PrintServer) -> None:
    client = print_server.client
    ids = await moving_jobs(print_server, 6)
    print_server.sim.traffic.reset()
    with Ticker(print_server.sim, step=30):
        jobs = await client.jobs.wait_for_many(ids, until=FINAL, fail_on=(), poll=0.02, max_poll=0.05, timeout=20)
    assert [job.id for job in jobs] == ids
    assert all(job.status in FINAL for job in jobs)
    requests = print_server.sim.traffic.snapshot()["requests"]
    assert requests.get("GET /v3/jobs/", 0) >= 1
    per_job = [route for route in requests if route.startswith("GET /v3/jobs/") and route != "GET /v3/jobs/"]
    assert not per_job, requests  # one filtered list per round, no request per job


@pytest.mark.print_server(jobs=300, variants=parse_variant("job_ids=string"))
async def test_waiting_for_many_jobs_stored_with_string_keys_reads_them_one_by_one(print_server: PrintServer) -> None:
    # keys stored as strings: the server's filter turns each 24-hex literal into an ObjectId, which no key equals
    sim, client = print_server.sim, print_server.client
    ids = await moving_jobs(print_server, 6)
    assert (await client.jobs.list(filter=odata.field("_id") == ids[0])).items == []  # the variant's premise
    sim.traffic.reset()
    with Ticker(sim, step=30):
        jobs = await client.jobs.wait_for_many(ids, until=FINAL, fail_on=(), poll=0.02, max_poll=0.05, timeout=20)
    assert [job.id for job in jobs] == ids
    assert all(job.status in FINAL for job in jobs)
    # the filter was tried once, found none of the jobs known to exist; from then on each job is read alone
    assert sim.traffic.count("GET /v3/jobs/") == 1
    assert all(gets_of(print_server, job_id) >= 1 for job_id in ids)


async def test_waiting_for_many_raises_job_failed_with_every_job(print_server: PrintServer) -> None:
    client = print_server.client
    ids = await moving_jobs(print_server, 3)
    await client.jobs.cancel(ids[1])
    with Ticker(print_server.sim, step=30), pytest.raises(JobFailed) as failed:
        await client.jobs.wait_for_many(ids, until=FINAL - {"Canceled"}, poll=0.02, max_poll=0.05, timeout=20)
    assert failed.value.job.id == ids[1]
    assert [job.id for job in failed.value.jobs] == ids
