"""The ``printmgmt`` command line, run in-process (typer's test runner) against the simulator."""

from __future__ import annotations

import os
from collections.abc import Mapping
from pathlib import Path

import pytest
import trustme
from cli_helpers import Invoke
from printmgmt_cli.app import app
from printmgmt_sim import Simulator
from typer.testing import CliRunner, Result


@pytest.fixture(scope="session")
def ca_bundle(tmp_path_factory: pytest.TempPathFactory) -> str:
    """A one-certificate CA bundle: loading it is ~100x faster than the system store on every client."""
    path = tmp_path_factory.mktemp("ca") / "ca.pem"
    trustme.CA().cert_pem.write_to_path(str(path))
    return str(path)


@pytest.fixture
def sim(print_simulator: Simulator) -> Simulator:
    """The plugin's simulator: clock frozen (speed=0), 300 seeded jobs, fresh for each test."""
    return print_simulator


@pytest.fixture
def profiles(tmp_path: Path) -> Path:
    """The profile file the invocations use (absent until a test writes it)."""
    return tmp_path / "profiles.toml"


@pytest.fixture
def cli(sim: Simulator, profiles: Path, ca_bundle: str) -> Invoke:
    """``cli(*args, role=..., kind=..., env=..., input=...)``: run ``printmgmt`` with the simulator's ``PRINTMGMT_*``
    (the user with ``role`` through the client of ``kind``).

    Only the given variables are set: any ``PRINTMGMT_*`` (and ``COLUMNS``) of the developer's environment is
    removed, and ``PRINTMGMT_CONFIG`` points into the test's temporary directory. ``role=None`` sets no credentials.
    """

    def invoke(
        *args: str,
        role: str | None = "admin",
        kind: str = "cli",
        env: Mapping[str, str | None] | None = None,
        input: str | None = None,
    ) -> Result:
        # COLUMNS fits piped tables to a width: a run's own must not reach the tests (they set theirs)
        environ: dict[str, str | None] = {key: None for key in os.environ if key.startswith("PRINTMGMT_")}
        environ["COLUMNS"] = None
        environ |= {"PRINTMGMT_CONFIG": str(profiles), "PRINTMGMT_CA_BUNDLE": ca_bundle}
        environ.update(sim.env(role, kind) if role else {"PRINTMGMT_BASE_URL": sim.base_url})
        environ.update(env or {})
        return CliRunner().invoke(app, list(args), env=environ, input=input, catch_exceptions=False)

    return invoke
