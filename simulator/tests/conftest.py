"""Integration tests of the simulator: the public SDK against it over real HTTP on 127.0.0.1."""

from __future__ import annotations

import asyncio
import os
import sys
from pathlib import Path

import pytest

import printmgmt._async._invoke
import printmgmt._config
import printmgmt._sync._invoke

try:
    import printmgmt_sim  # noqa: F401  (installed with printmgmt[sim])
except ImportError:  # a plain checkout: the package sits beside these tests
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

# a no-op once the pytest11 entry point "printmgmt_sim.pytest_plugin" is installed
pytest_plugins = ["printmgmt_sim.pytest_plugin"]


@pytest.fixture(autouse=True)
def transport_under_test(monkeypatch: pytest.MonkeyPatch) -> None:
    """make sim-test runs this suite twice: PRINTMGMT_TRANSPORT=aiohttp makes every client of it use aiohttp.
    (The test infrastructure reads the variable; PrintClient's constructor never reads the environment.)"""
    if transport := os.environ.get("PRINTMGMT_TRANSPORT"):
        monkeypatch.setattr(printmgmt._config, "DEFAULT_TRANSPORT", transport)


@pytest.fixture(autouse=True)
def no_retry_waits(monkeypatch: pytest.MonkeyPatch) -> None:
    """Retries keep their real attempt counts but do not wait (a test that needs the real waits passes
    ``RetryPolicy(sleep=asyncio.sleep)``)."""

    async def no_wait(seconds: float) -> None:
        await asyncio.sleep(0)

    monkeypatch.setattr(printmgmt._async._invoke, "_sleep", no_wait)
    monkeypatch.setattr(printmgmt._sync._invoke, "_sleep", lambda seconds: None)
