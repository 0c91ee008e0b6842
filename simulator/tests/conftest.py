"""Integration tests of the simulator: the public SDK against it over real HTTP on 127.0.0.1."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from pathlib import Path

import pytest
import stamina

try:
    import printmgmt_sim  # noqa: F401  (installed with printmgmt[sim])
except ImportError:  # a plain checkout: the package sits beside these tests
    sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

# a no-op once the pytest11 entry point "printmgmt_sim.pytest_plugin" is installed
pytest_plugins = ["printmgmt_sim.pytest_plugin"]


@pytest.fixture(autouse=True, scope="session")
def no_retry_waits() -> Iterator[None]:
    # stamina's test mode: the SDK keeps its real attempt counts but does not sleep between them
    with stamina.set_testing(True, attempts=1000, cap=True):
        yield
