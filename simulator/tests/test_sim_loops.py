"""One client used from successive event loops (two ``asyncio.run``, re-run notebook cells): every call works,
no connection crosses loops, and ``aclose()`` from a later loop works too."""

from __future__ import annotations

import asyncio
import gc
import warnings
from collections.abc import Iterator

import pytest
from printmgmt_sim import Simulator
from sim_helpers import established_to, port_of

from printmgmt import PrintClient, odata
from printmgmt.errors import TransportError


@pytest.fixture
def sim() -> Iterator[Simulator]:
    with Simulator(jobs=200) as simulator:
        yield simulator


def test_successive_event_loops_share_one_client(sim: Simulator) -> None:
    client = sim.client("admin")

    async def pause_one() -> str:
        page = await client.jobs.list(filter=odata.field("status") == "WaitProcessing", top=1)
        job = page.items[0]
        await client.jobs.pause(job.id)
        return job.id

    paused = [asyncio.run(pause_one()) for _ in range(3)]
    assert len(set(paused)) == 3

    async def status(job_id: str) -> object:
        return (await client.jobs.get(job_id)).status

    assert {str(asyncio.run(status(job_id))) for job_id in paused} == {"Paused"}
    with warnings.catch_warnings():
        warnings.simplefilter("error", ResourceWarning)
        asyncio.run(client.aclose())  # from yet another loop
        gc.collect()
    assert established_to(port_of(sim.base_url)) == 0


def test_a_client_made_in_one_loop_works_in_another(sim: Simulator) -> None:
    async def make() -> PrintClient:
        client = sim.client("admin")
        await client.version_info()
        return client

    client = asyncio.run(make())

    async def use() -> str:
        try:
            return (await client.version_info()).name or ""
        finally:
            await client.aclose()

    assert asyncio.run(use()) == "seal-rest"
    gc.collect()
    assert established_to(port_of(sim.base_url)) == 0


def test_a_closed_client_raises_a_typed_error(sim: Simulator) -> None:
    client = sim.client("admin")

    async def use_after_close() -> None:
        await client.version_info()
        await client.aclose()
        with pytest.raises(TransportError, match="closed") as caught:
            await client.version_info()
        assert isinstance(caught.value.__cause__, RuntimeError)

    asyncio.run(use_after_close())
