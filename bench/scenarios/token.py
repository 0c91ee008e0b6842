"""Scenario 5: 1,000 concurrent ``client.jobs.get`` on an expired token vs a valid one, on the simulator.

The simulator (with its identity provider) runs in its own process. ``PasswordAuth`` decides renewal
from ``expires_in`` on its clock, which it takes as a parameter: the bench moves that clock past the
token's lifetime instead of sleeping through it, so the client holds an expired token and must renew it
(a refresh grant) before any of the 1,000 calls can go out. Token grants are counted by the identity
provider itself and by ``PasswordAuth.token_requests``.
"""

from __future__ import annotations

import asyncio
import time
from typing import Any

from printmgmt import PasswordAuth, PrintClient

from ..context import Context
from ..sim_process import SimHandle, run_simulator
from ..stats import ratio, summarize

__all__ = ["run"]

ACCESS_TTL = 300
CALLS = 1000


class _Clock:
    """``time.monotonic`` plus an offset the bench can move forward."""

    def __init__(self) -> None:
        self.offset = 0.0

    def __call__(self) -> float:
        return time.monotonic() + self.offset


async def _round(sim: SimHandle, expired_first: bool, calls: int) -> dict[str, Any]:
    info, clock = sim.info, _Clock()
    auth = PasswordAuth(
        auth_url=info["auth_url"],
        realm=info["realm"],
        client_id=info["client_id"],
        client_secret=info["client_secret"],
        username=info["username"],
        password=info["password"],
        clock=clock,
    )
    out: dict[str, Any] = {}
    async with PrintClient(info["base_url"], auth=auth, retries=0) as client:
        job_id = (await client.jobs.list(top=1))[0].id
        # warm-up: open the pool's connections so that both bursts start from the same state
        await asyncio.gather(*(client.jobs.get(job_id) for _ in range(100)))
        for case in ("expired", "valid") if expired_first else ("valid", "expired"):
            if case == "expired":
                clock.offset += ACCESS_TTL + 1
            grants, sent = sim.token_grants(), auth.token_requests
            started = time.perf_counter()
            jobs = await asyncio.gather(*(client.jobs.get(job_id) for _ in range(calls)))
            wall = time.perf_counter() - started
            if len(jobs) != calls or any(job.id != job_id for job in jobs):
                raise AssertionError("a call returned another job")
            out[case] = {
                "wall_s": wall,
                "token_requests_server": sim.token_grants() - grants,
                "token_requests_client": auth.token_requests - sent,
            }
    return out


def run(context: Context) -> dict[str, Any]:
    """``repeats`` rounds, each with a fresh client, alternating which case goes first."""
    rounds: list[dict[str, Any]] = []
    with run_simulator(context.server_cpus, jobs=50, speed=0, access_ttl=ACCESS_TTL) as sim:
        for index in range(context.repeats):
            rounds.append(asyncio.run(_round(sim, expired_first=index % 2 == 1, calls=CALLS)))
            context.log(f"token: round {index + 1}/{context.repeats}: {rounds[-1]}")
    valid = [r["valid"]["wall_s"] for r in rounds]
    expired = [r["expired"]["wall_s"] for r in rounds]
    return {
        "server": "simulator in its own process (uvicorn, starlette, SQLite), jobs=50, speed=0",
        "calls": CALLS,
        "access_ttl_s": ACCESS_TTL,
        "method": "PasswordAuth clock moved past expires_in between the bursts (client-side expiry)",
        "valid_wall_s": summarize(valid),
        "expired_wall_s": summarize(expired),
        "ratio_expired_to_valid": ratio(expired, valid),
        "token_requests_expired_server": [r["expired"]["token_requests_server"] for r in rounds],
        "token_requests_expired_client": [r["expired"]["token_requests_client"] for r in rounds],
        "token_requests_valid_server": [r["valid"]["token_requests_server"] for r in rounds],
    }
