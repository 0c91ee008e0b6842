"""Fault knobs: off by default, each one seen by the SDK as the failure it is."""

from __future__ import annotations

import time

import httpx
import pytest
from printmgmt_sim import Faults
from printmgmt_sim.pytest_plugin import PrintServer
from sim_helpers import NO_WAITS

from printmgmt.errors import InvalidResponse, RequestTimeout, ServerError, TransportError

pytestmark = pytest.mark.print_server(jobs=50)


async def test_no_faults_by_default(print_server: PrintServer) -> None:
    assert print_server.sim.faults == Faults()
    for _ in range(20):
        await print_server.client.jobs.list(top=5)


async def test_server_errors_with_retry_after(print_server: PrintServer) -> None:
    print_server.sim.faults.error_rate = 1.0
    print_server.sim.faults.retry_after = 7
    seen = set()
    for _ in range(12):
        with pytest.raises(ServerError) as caught:
            await print_server.client.printers.get("printer1")
        seen.add(caught.value.status_code)
        assert caught.value.headers["retry-after"] == "7"
    assert seen == {500, 503}


async def test_dropped_connections(print_server: PrintServer) -> None:
    await print_server.client.version_info()  # signs in: the identity provider is not affected
    print_server.sim.faults.drop_rate = 1.0
    with pytest.raises(TransportError) as caught:
        await print_server.client.version_info()
    assert isinstance(caught.value.__cause__, httpx.RemoteProtocolError | httpx.ReadError)


async def test_truncated_bodies(print_server: PrintServer) -> None:
    await print_server.client.version_info()
    print_server.sim.faults.truncate_rate = 1.0
    with pytest.raises(TransportError):
        await print_server.client.jobs.list(top=20)


async def test_malformed_bodies(print_server: PrintServer) -> None:
    await print_server.client.version_info()
    print_server.sim.faults.malform_rate = 1.0
    with pytest.raises(InvalidResponse):
        await print_server.client.jobs.list(top=20)


async def test_latency(print_server: PrintServer) -> None:
    await print_server.client.version_info()
    print_server.sim.faults.latency = 0.3
    started = time.perf_counter()
    await print_server.client.version_info()
    assert time.perf_counter() - started >= 0.3
    async with print_server.sim.client(timeout=0.1, retry=NO_WAITS) as impatient:
        with pytest.raises(RequestTimeout):
            await impatient.version_info()


async def test_a_share_of_requests_fails_reproducibly(print_server: PrintServer) -> None:
    async def outcomes() -> list[bool]:
        print_server.sim.faults.restore({**print_server.sim.faults.snapshot(), "error_rate": 0.3, "seed": 5})
        results = []
        for _ in range(40):
            try:
                await print_server.client.jobs.list(top=1)
                results.append(True)
            except ServerError:
                results.append(False)
        return results

    await print_server.client.version_info()
    first = await outcomes()
    assert 0 < first.count(False) < 40
    assert await outcomes() == first


@pytest.mark.print_server(jobs=50, faults=Faults(error_rate=1.0, include_idp=True))
async def test_faults_configured_at_start_may_include_the_identity_provider(print_server: PrintServer) -> None:
    from printmgmt.errors import AuthenticationError

    with pytest.raises(AuthenticationError):
        await print_server.client.version_info()
