"""Integration tests of the simulator: the public SDK against it over real HTTP on 127.0.0.1."""

from __future__ import annotations

import sys
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any

import httpx
import pytest
import pytest_asyncio

from printmgmt.retry import RetryPolicy

try:
    import printmgmt_sim  # noqa: F401  (installed with printmgmt[sim])
except ImportError:  # a plain checkout: the package sits beside these tests
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

# the SDK suite's table of facade calls (tests/facade_table.py) drives this suite's call of every operation too
sys.path.append(str(Path(__file__).resolve().parents[2] / "tests"))

# a no-op once the pytest11 entry point "printmgmt_sim.pytest_plugin" is installed
pytest_plugins = ["printmgmt_sim.pytest_plugin"]

from printmgmt_sim.pytest_plugin import PrintServer, SyncPrintServer  # noqa: E402  (after the path above)
from sim_helpers import no_wait  # noqa: E402

if TYPE_CHECKING:
    from printmgmt_sim import Simulator


def _without_waits(kwargs: dict[str, Any]) -> dict[str, Any]:
    """Client options whose retries keep their real attempt counts and delays but do not wait (the policy's
    sleep hook), unless the test gives its own policy."""
    if "retry" in kwargs:
        return kwargs
    attempts = RetryPolicy.from_retries(kwargs.pop("retries", 2)).attempts
    return {**kwargs, "retry": RetryPolicy(attempts=attempts, sleep=no_wait)}


class _Server(PrintServer):
    def _make(self, role: str, kind: str, **kwargs: Any) -> Any:
        return super()._make(role, kind, **_without_waits(kwargs))


class _SyncServer(SyncPrintServer):
    def _make(self, role: str, kind: str, **kwargs: Any) -> Any:
        return super()._make(role, kind, **_without_waits(kwargs))


@pytest_asyncio.fixture
async def print_server(print_simulator: Simulator) -> AsyncIterator[PrintServer]:
    """The plugin's fixture, with clients whose retries do not wait."""
    server = _Server(print_simulator)
    try:
        yield server
    finally:
        await server.aclose()


@pytest.fixture
def sync_print_server(print_simulator: Simulator) -> Iterator[SyncPrintServer]:
    """The plugin's fixture, with clients whose retries do not wait."""
    server = _SyncServer(print_simulator)
    try:
        yield server
    finally:
        server.close()


@pytest.fixture
def http(print_simulator: Simulator) -> Iterator[httpx.Client]:
    """Plain HTTP to the simulator with its token, for what the SDK would not send."""
    headers = {"Authorization": f"Bearer {print_simulator.token()}"}
    with httpx.Client(base_url=print_simulator.base_url, headers=headers, timeout=10) as client:
        yield client
