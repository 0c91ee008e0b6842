"""Helpers of the twinned suite (a sync twin is generated with it)."""

from __future__ import annotations

import threading
from typing import TypeVar

from printmgmt_sim import Simulator

from printmgmt import odata
from printmgmt._concurrency import async_sleep
from printmgmt.client import PrintClient
from printmgmt.models import Job, Unset

T = TypeVar("T")


async def job_in(client: PrintClient, status: str, *, skip: int = 0) -> Job:
    """A job currently in ``status`` (the ``skip``-th by id)."""
    page = await client.jobs.list(filter=odata.field("status") == status, orderby="_id", top=1, skip=skip)
    assert page.items, f"no job in status {status}"
    return page.items[0]


def known(value: T | Unset) -> T:
    """``value``, a field the simulator always sends, typed without ``Unset`` (where an assert cannot narrow)."""
    assert not isinstance(value, Unset), "a field the simulator always sends is missing"
    return value


async def pause(seconds: float) -> None:
    """Let the simulator's clock run (real seconds)."""
    await async_sleep(seconds)


class Ticker:
    """Moves the simulator's clock ``step`` simulated seconds every ``every`` real seconds on a thread of its
    own while the test waits (``with Ticker(sim, 30): ...``): the waiter under test runs unchanged."""

    def __init__(self, sim: Simulator, step: float, every: float = 0.05, *, times: int = 1000) -> None:
        self._sim, self._step, self._every, self._times = sim, step, every, times
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, daemon=True, name="sim-ticker")

    def _run(self) -> None:
        for _ in range(self._times):
            if self._stop.wait(self._every):
                return
            self._sim.advance(self._step)

    def __enter__(self) -> Ticker:
        self._thread.start()
        return self

    def __exit__(self, *exc_info: object) -> None:
        self._stop.set()
        self._thread.join(timeout=5)
