"""The warnings `make contract` expects, each left out where the run is set up and nowhere else: the line the
simulator logs for schemathesis' NUL-byte probe, and the two warnings the state actions' made-up keys cause;
any other warning schemathesis shows fails the run."""

from __future__ import annotations

import importlib.util
import logging
import socket
from pathlib import Path
from typing import Any

import pytest
from printmgmt_sim import Simulator
from schemathesis.config import SchemathesisConfig
from schemathesis.core.warnings import SchemathesisWarning

#: ``simulator/run_schemathesis.py``, the script ``make contract`` runs (a script, not a module of a package).
_spec = importlib.util.spec_from_file_location(
    "run_schemathesis", Path(__file__).resolve().parents[1] / "run_schemathesis.py"
)
assert _spec is not None and _spec.loader is not None
RUN: Any = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(RUN)

PROBE_LINE = "Invalid HTTP request received."


def nul_byte_request(sim: Simulator) -> bytes:
    """What schemathesis' probe sends (a NUL byte in a header value); the simulator's answer."""
    host, port = sim.base_url.removeprefix("http://").split(":")
    with socket.create_connection((host, int(port)), timeout=5) as connection:
        connection.sendall(b"GET /v3/ HTTP/1.1\r\nHost: x\r\nX-Probe: a\x00b\r\n\r\n")
        return connection.recv(4096)


def test_the_probe_is_refused_and_its_log_line_left_out_by_the_contract_run(
    print_simulator: Simulator, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="uvicorn.error"):
        assert nul_byte_request(print_simulator).startswith(b"HTTP/1.1 400")
    logged = [record for record in caplog.records if record.getMessage() == PROBE_LINE]
    assert logged, "the simulator logs the refused request: the line the contract run leaves out"
    assert not RUN.ProbeRefused().filter(logged[0])
    other = logging.LogRecord("uvicorn.error", logging.WARNING, __file__, 1, "something else", None, None)
    assert RUN.ProbeRefused().filter(other)


def test_every_warning_schemathesis_shows_fails_the_contract_run_but_those_expected_where_expected() -> None:
    project = SchemathesisConfig.from_path(str(RUN.CONFIG)).projects.default
    assert project.warnings.fail_on == project.warnings.display
    assert SchemathesisWarning.MISSING_AUTH in project.warnings.fail_on  # the token sees every area
    expected = {SchemathesisWarning.MISSING_TEST_DATA, SchemathesisWarning.VALIDATION_MISMATCH}
    excepted = [operation.warnings for operation in project.operations.operations if operation.warnings]
    assert len(excepted) == 1
    assert set(project.warnings.display) - set(excepted[0].display) == expected
    assert excepted[0].fail_on == excepted[0].display
