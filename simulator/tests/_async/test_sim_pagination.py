"""iterate() over more than 10,000 jobs yields each exactly once, with and without a filter."""

from __future__ import annotations

from typing import Any

import pytest
from printmgmt_sim import Simulator, Variants, run_simulator
from printmgmt_sim.pytest_plugin import PrintServer

from printmgmt import odata
from printmgmt.errors import PagingError

JOBS = 12_000


def stored_jobs(sim: Simulator) -> list[dict[str, Any]]:
    docs, total = sim.store.find("jobs")
    assert total == JOBS
    return docs


@pytest.mark.print_server(jobs=JOBS)
async def test_iterate_everything(print_server: PrintServer) -> None:
    seen = [job.id async for job in print_server.client.jobs.iterate(page_size=500)]
    assert len(seen) == len(set(seen)) == JOBS
    assert set(seen) == {doc["_id"] for doc in stored_jobs(print_server.sim)}
    assert seen == sorted(seen)  # iterate() orders by _id unless told otherwise


@pytest.mark.print_server(jobs=JOBS)
async def test_iterate_with_a_filter_and_an_order(print_server: PrintServer) -> None:
    expected = {
        doc["_id"] for doc in stored_jobs(print_server.sim) if doc["status"] != "Error" or doc["current"]["copies"] > 2
    }
    assert len(expected) >= 10_000
    query = (odata.field("status") != "Error") | (odata.field("current/copies") > 2)
    pager = print_server.client.jobs.iterate(filter=query, orderby="current/checkinTime desc", page_size=700)
    seen: list[str] = []
    times: list[int] = []
    async for job in pager:
        seen.append(job.id)
        assert job.current and isinstance(job.current.checkin_time, int)
        times.append(job.current.checkin_time)
    assert len(seen) == len(set(seen)) == len(expected)
    assert set(seen) == expected
    assert times == sorted(times, reverse=True)


@pytest.mark.print_server(jobs=1_000, max_top=90)
async def test_iterate_survives_a_server_side_page_cap(print_server: PrintServer) -> None:
    pages = [page async for page in print_server.client.jobs.iterate(page_size=250).by_page()]
    assert {len(page) for page in pages[:-1]} == {90}
    ids = [job.id for page in pages for job in page]
    assert len(ids) == len(set(ids)) == 1_000


PAGED = 23


@pytest.mark.parametrize("prefetch", [0, 3])
@pytest.mark.parametrize("count_form", ["string", "float", "none"])
async def test_a_capped_server_loses_no_job_whatever_its_total(count_form: str, prefetch: int) -> None:
    variants = Variants(count_form=count_form)  # type: ignore[arg-type]
    async with (
        run_simulator(jobs=PAGED, max_top=10, speed=0, variants=variants) as sim,
        sim.client("admin") as client,
    ):
        page = await client.jobs.list(count=True, top=5)
        assert page.total == (None if count_form == "none" else PAGED)
        ids = [job.id async for job in client.jobs.iterate(page_size=50, prefetch=prefetch)]
    assert len(ids) == len(set(ids)) == PAGED


@pytest.mark.parametrize("prefetch", [0, 3])
@pytest.mark.parametrize("count_form", ["usual", "none"])
async def test_a_proxy_stripping_skip_raises_instead_of_repeating(count_form: str, prefetch: int) -> None:
    variants = Variants(skip="ignored", count_form=count_form)  # type: ignore[arg-type]
    async with (
        run_simulator(jobs=PAGED, speed=0, variants=variants) as sim,
        sim.client("admin") as client,
    ):
        seen: list[str] = []
        with pytest.raises(PagingError, match=r"skip=10 .*ignores \$skip"):
            async for job in client.jobs.iterate(page_size=10, prefetch=prefetch):
                seen.append(job.id)
    assert len(seen) == len(set(seen)) == 10
