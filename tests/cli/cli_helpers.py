"""Helpers of the command-line tests."""

from __future__ import annotations

from collections.abc import Callable

from printmgmt_sim import Simulator
from typer.testing import Result

#: The ``cli`` fixture: ``cli(*args, role="admin", env=None, input=None) -> Result``.
Invoke = Callable[..., Result]


def job_in(sim: Simulator, status: str, index: int = 0) -> str:
    """The id of a seeded job in ``status``."""
    return sim.store.jobs_in_status(status)[index][1]


def status_of(sim: Simulator, job_id: str) -> str:
    record = sim.store.job(job_id)
    assert record is not None
    return record.status


def error_line(result: Result) -> str:
    """The one line a failed command writes on stderr (and check that it is one line, no traceback)."""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1, result.stderr
    assert lines[0].startswith("error: ")
    return lines[0]
