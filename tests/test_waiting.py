"""Waiting for jobs (unit): the poll schedule, the deadline, the statuses that end a wait."""

from __future__ import annotations

from collections.abc import Iterator

import httpx
import pytest
import respx

import printmgmt._async.resources.jobs as async_jobs
from printmgmt import PrintClient
from printmgmt.errors import JobFailed, StatusUnreachable, WaitTimeout
from printmgmt.waiting import Waiter, status_set

BASE = "https://print.test"


class Clock:
    """A monotonic clock moved only by the waiter's own sleeps."""

    def __init__(self) -> None:
        self.now = 0.0
        self.sleeps: list[float] = []

    def __call__(self) -> float:
        return self.now

    async def sleep(self, seconds: float) -> None:
        self.sleeps.append(seconds)
        self.now += seconds


@pytest.fixture
def clock(monkeypatch: pytest.MonkeyPatch) -> Clock:
    fake = Clock()
    monkeypatch.setattr(async_jobs, "async_sleep", fake.sleep)
    monkeypatch.setattr("printmgmt.waiting.monotonic", fake)
    return fake


@pytest.fixture
def router() -> Iterator[respx.MockRouter]:
    with respx.mock(base_url=BASE, assert_all_mocked=True) as mock:
        yield mock


def job(status: str, **extra: object) -> dict[str, object]:
    return {"_id": "j1", "status": status, **extra}


async def test_the_poll_backs_off_while_nothing_changes_and_starts_again_on_a_change(
    router: respx.MockRouter, clock: Clock
) -> None:
    answers = [job("Added")] * 4 + [job("Processing")] * 3 + [job("Processed")]
    router.get("/v3/jobs/j1").mock(side_effect=[httpx.Response(200, json=body) for body in answers])
    async with PrintClient(BASE, auth="t") as client:
        done = await client.jobs.wait_for("j1", poll=1.0, max_poll=3.0, timeout=None)
    assert done.status == "Processed"
    # 1.5 times longer per unchanged poll up to max_poll, back to `poll` when the job changed; ±10 % jitter
    expected = [1.0, 1.5, 2.25, 3.0, 1.0, 1.5, 2.25]
    assert len(clock.sleeps) == len(expected)
    assert all(0.9 * e <= s <= 1.1 * e for s, e in zip(clock.sleeps, expected, strict=True)), clock.sleeps


async def test_the_deadline_raises_wait_timeout_with_the_last_job(
    router: respx.MockRouter, clock: Clock, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr("printmgmt.waiting.uniform", lambda low, high: 1.0)  # no jitter: exact poll times
    route = router.get("/v3/jobs/j1").respond(200, json=job("Paused"))
    async with PrintClient(BASE, auth="t") as client:
        with pytest.raises(WaitTimeout) as timed_out:
            await client.jobs.wait_for("j1", poll=1.0, max_poll=1.0, timeout=5.0)
    assert timed_out.value.job is not None and timed_out.value.job.status == "Paused"
    assert timed_out.value.timeout == 5.0
    assert clock.now == pytest.approx(5.0)  # the last sleep was cut to the deadline
    assert route.call_count == 6  # at 0, 1, 2, 3, 4 and at the deadline


async def test_fail_on_raises_and_until_wins_over_fail_on(router: respx.MockRouter, clock: Clock) -> None:
    router.get("/v3/jobs/j1").respond(200, json=job("Error"))
    async with PrintClient(BASE, auth="t") as client:
        with pytest.raises(JobFailed, match="ended as Error") as failed:
            await client.jobs.wait_for("j1")
        assert failed.value.job.id == "j1"
        assert (await client.jobs.wait_for("j1", until="Error")).status == "Error"


async def test_an_unknown_status_is_waited_through_not_rejected(router: respx.MockRouter, clock: Clock) -> None:
    answers = [job("job-quarantined"), job("Processed")]
    router.get("/v3/jobs/j1").mock(side_effect=[httpx.Response(200, json=body) for body in answers])
    async with PrintClient(BASE, auth="t") as client:
        assert (await client.jobs.wait_for("j1", poll=0.5)).status == "Processed"


async def test_wait_for_many_polls_one_filtered_list_per_round(router: respx.MockRouter, clock: Clock) -> None:
    rounds = [
        [{"_id": "a", "status": "Added"}, {"_id": "b", "status": "Processed"}],
        [{"_id": "a", "status": "Processed"}, {"_id": "b", "status": "Processed"}],
    ]
    lists = router.get("/v3/jobs/").mock(
        side_effect=[httpx.Response(200, json={"results": r, "totalCount": 2}) for r in rounds]
    )
    async with PrintClient(BASE, auth="t") as client:
        jobs = await client.jobs.wait_for_many(["b", "a"], poll=0.5)
    assert [j.id for j in jobs] == ["b", "a"]
    assert lists.call_count == 2
    first = lists.calls[0].request.url.params["$filter"]
    assert first == "_id eq 'b' or _id eq 'a'"
    assert lists.calls[1].request.url.params["$filter"] == "_id eq 'a'"  # only what is still pending


HEX_IDS = ["67725342cfddd0c58b71cce6", "67725342cfddd0c58b71cce7"]


def one_by_one(router: respx.MockRouter, statuses: dict[str, list[str]]) -> dict[str, respx.Route]:
    """GET /v3/jobs/<id> answering each job's statuses in turn."""
    return {
        key: router.get(f"/v3/jobs/{key}").mock(
            side_effect=[httpx.Response(200, json={"_id": key, "status": status}) for status in answers]
        )
        for key, answers in statuses.items()
    }


@pytest.mark.parametrize(
    "answer",
    [
        # keys stored as strings: the server's filter turns each 24-hex literal into an ObjectId, finds nothing
        httpx.Response(200, json={"results": [], "totalCount": 0}),
        # a server whose driver refuses the ObjectId literal
        httpx.Response(400, text="Bad Request"),
    ],
)
async def test_wait_for_many_reads_one_by_one_when_the_id_filter_does_not_find_the_jobs(
    router: respx.MockRouter, clock: Clock, answer: httpx.Response
) -> None:
    lists = router.get("/v3/jobs/").mock(return_value=answer)
    gets = one_by_one(router, {HEX_IDS[0]: ["Added", "Processing", "Processed"], HEX_IDS[1]: ["Processed"]})
    async with PrintClient(BASE, auth="t") as client:
        jobs = await client.jobs.wait_for_many(HEX_IDS, poll=0.5)
    assert [(j.id, j.status) for j in jobs] == [(HEX_IDS[0], "Processed"), (HEX_IDS[1], "Processed")]
    # the filter was tried once; each round then read the jobs still pending, each alone
    assert lists.call_count == 1
    assert (gets[HEX_IDS[0]].call_count, gets[HEX_IDS[1]].call_count) == (3, 1)


async def test_wait_for_many_rereads_a_job_the_filter_misses_in_a_later_round(
    router: respx.MockRouter, clock: Clock
) -> None:
    # the filter finds one job of two (string keys next to ObjectId keys): the other is read alone, every round
    found = {"results": [{"_id": "job-a", "status": "Processing"}], "totalCount": 1}
    lists = router.get("/v3/jobs/").respond(200, json=found)
    gets = one_by_one(router, {"job-a": ["Processing", "Processed"], HEX_IDS[0]: ["Added", "Added", "Processed"]})
    async with PrintClient(BASE, auth="t") as client:
        jobs = await client.jobs.wait_for_many(["job-a", HEX_IDS[0]], poll=0.5)
    assert [j.status for j in jobs] == ["Processed", "Processed"]
    assert lists.call_count == 1
    assert (gets["job-a"].call_count, gets[HEX_IDS[0]].call_count) == (2, 3)


def test_arguments_are_checked_before_any_request() -> None:
    with pytest.raises(ValueError, match="poll"):
        Waiter(until="Processed", fail_on=(), timeout=1, poll=0, max_poll=1)
    with pytest.raises(ValueError, match="timeout"):
        Waiter(until="Processed", fail_on=(), timeout=-1, poll=1, max_poll=1)
    with pytest.raises(TypeError, match="until"):
        status_set([1], "until")  # type: ignore[list-item]
    assert status_set("Processed", "until") == {"Processed"}


async def test_a_wait_for_a_status_a_job_can_no_longer_reach_ends_at_once(
    router: respx.MockRouter, clock: Clock
) -> None:
    route = router.get("/v3/jobs/j1").respond(200, json=job("Processed"))
    async with PrintClient(BASE, auth="t") as client:
        with pytest.raises(StatusUnreachable, match="job 'j1' ended as Processed and can no longer reach Paused") as e:
            await client.jobs.wait_for("j1", until="Paused", timeout=300)
        assert e.value.status == "Processed" and e.value.until == ["Paused"] and e.value.job.id == "j1"
        assert isinstance(e.value, JobFailed)  # a wait that failed, as any caller of wait_for catches it
        with pytest.raises(StatusUnreachable, match="ended as Processed"):
            [seen async for seen in client.jobs.watch("j1", until="Paused")]
    assert route.call_count == 2 and clock.sleeps == []  # one read each, no poll


async def test_wait_for_many_ends_at_once_when_one_job_can_no_longer_reach_the_status(
    router: respx.MockRouter, clock: Clock
) -> None:
    answer = {"results": [{"_id": "a", "status": "Canceled"}, {"_id": "b", "status": "Added"}], "totalCount": 2}
    lists = router.get("/v3/jobs/").respond(200, json=answer)
    async with PrintClient(BASE, auth="t") as client:
        with pytest.raises(StatusUnreachable, match="job 'a' ended as Canceled and can no longer reach Paused") as e:
            await client.jobs.wait_for_many(["a", "b"], until="Paused", fail_on=(), timeout=300)
    assert e.value.status == "Canceled" and [j.status for j in e.value.jobs] == ["Canceled", "Added"]
    assert lists.call_count == 1 and clock.sleeps == []


async def test_a_wait_timeout_counts_only_the_jobs_that_did_not_end(router: respx.MockRouter, clock: Clock) -> None:
    rows = [
        {"_id": "a", "status": "Processed"},
        {"_id": "b", "status": "WaitProcessing"},
        {"_id": "c", "status": "Paused"},
    ]
    router.get("/v3/jobs/").respond(200, json={"results": rows, "totalCount": 3})
    async with PrintClient(BASE, auth="t") as client:
        with pytest.raises(WaitTimeout) as late:
            await client.jobs.wait_for_many(["a", "b", "c"], timeout=5)
    assert str(late.value) == "2 of 3 jobs did not end within 5 s (last seen: 1 Paused, 1 WaitProcessing)"
    assert [j.id for j in late.value.pending] == ["b", "c"] and len(late.value.jobs) == 3
