"""Tokens that expire during a run: the SDK renews them and no call fails."""

from __future__ import annotations

import asyncio
import time

import pytest
from _async.helpers import job_in
from printmgmt_sim.pytest_plugin import PrintServer


@pytest.mark.parametrize(
    "refresh",
    [
        pytest.param(True, marks=pytest.mark.print_server(jobs=200, access_ttl=1, refresh_ttl=2), id="refreshed"),
        pytest.param(
            False, marks=pytest.mark.print_server(jobs=200, access_ttl=1, refresh_ttl=1), id="signed-in-again"
        ),
    ],
)
async def test_short_lifetimes_during_a_run(print_server: PrintServer, refresh: bool) -> None:
    """Access tokens live 1 s; refresh tokens 2 s (so the SDK refreshes) or 1 s (so it signs in again)."""
    client = print_server.client
    calls = 0
    async with print_server.sim.client() as other:
        deadline = time.monotonic() + 3.2
        while time.monotonic() < deadline:
            # sequential and concurrent calls, reads and writes, while tokens keep expiring
            job = await job_in(client, "WaitProcessing")
            await client.jobs.pause(job.id)
            await client.jobs.resume(job.id)
            await asyncio.gather(*(other.printers.get("printer1") for _ in range(5)), client.statistics.job_count())
            calls += 9
            await asyncio.sleep(0.15)
    counts = print_server.sim.backend.idp.counts
    assert calls > 80
    renewals = counts["refresh_token"] if refresh else counts["password"] - 2
    assert renewals >= 4  # each of the two clients renewed its token about every 0.9 s
    assert counts["password" if refresh else "refresh_token"] == (2 if refresh else 0)
    assert not [name for name in counts if name.startswith("refused")]


@pytest.mark.print_server(jobs=20, access_ttl=60)
async def test_revoked_sessions_are_renewed_and_the_call_retried(print_server: PrintServer) -> None:
    client = print_server.client
    await client.version_info()
    print_server.sim.revoke_tokens()  # the next call gets 401 with a token the client thinks is fine
    assert (await client.version_info()).name == "seal-rest"
    counts = print_server.sim.backend.idp.counts
    assert counts["refused:invalid_grant"] == 1  # the revoked refresh token...
    assert counts["password"] == 2  # ...then a new sign-in, and the call went through
