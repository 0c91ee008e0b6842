"""Calibrating the twin: ``printmgmt doctor --write-profile`` against a simulator with non-default answers, a
second simulator from that profile, and a doctor run against the second that matches the first, finding for
finding. Also how a profile is read (``Simulator(profile=...)``, ``printmgmt-sim --profile``, the pytest
option) and what it says where the probes cannot decide."""

from __future__ import annotations

import dataclasses
import json
import os
import subprocess
import sys
import tomllib
from pathlib import Path
from typing import Any

import httpx
import pytest
from printmgmt_cli.app import app
from printmgmt_cli.profile import (
    LIMITS,
    MAX_TOP,
    PROFILE_SETTINGS,
    AuthErrors,
    BadBodies,
    CountForm,
    JobIds,
    ListReads,
    ListShape,
    Nulls,
    OpenReads,
    Skip,
    StatusForm,
    TopZero,
    UnknownRoutes,
)
from printmgmt_sim import Settings, Simulator, Variants
from printmgmt_sim.profile import load_profile
from typer.testing import CliRunner

from printmgmt.models import JobStatus

#: The data both simulators hold: a profile carries behaviour, not data.
DATA: dict[str, Any] = {"jobs": 30, "printers": 3, "speed": 0, "seed": 7}

ROUND_TRIPS = [
    pytest.param(
        {
            "max_top": 10,
            "variants": Variants(
                list_shape=ListShape.VALUE,
                count_form=CountForm.STRING,
                auth_errors=AuthErrors.TEXT,
                unknown_routes=UnknownRoutes.EXPRESS,
                bad_bodies=BadBodies.BAD_REQUEST,
                nulls=Nulls.ON,
                top_zero=TopZero.NOTHING,
            ),
        },
        id="value-string-capped-text-errors",
    ),
    pytest.param(
        {
            "variants": Variants(
                list_shape=ListShape.VERBOSE,
                count_form=CountForm.FLOAT,
                status_form=StatusForm.PREFIXED,
                open_reads=OpenReads.ARRAY,
            ),
            "max_depth": 60,
            "max_header_size": 12 * 1024,
        },
        id="verbose-float-prefixed-limits",
    ),
    pytest.param(
        {
            "variants": Variants(
                list_shape=ListShape.RESULTS,
                count_form=CountForm.NONE,
                skip=Skip.IGNORED,
                list_reads=ListReads.TEXT,
                job_ids=JobIds.STRING,
            )
        },
        id="results-no-count-skip-ignored-string-keys",
    ),
]


def doctor(sim: Simulator, tmp_path: Path, *args: str) -> dict[str, Any]:
    """``printmgmt doctor -o json`` against ``sim`` through the command line, in-process."""
    environ: dict[str, str | None] = {key: None for key in os.environ if key.startswith("PRINTMGMT_")}
    environ |= {"PRINTMGMT_CONFIG": str(tmp_path / "config.toml"), **sim.env("admin", "graphical")}
    result = CliRunner().invoke(
        app, ["doctor", "-o", "json", "--exit-zero", *args], env=environ, catch_exceptions=False
    )
    assert result.exit_code == 0, result.output
    report: dict[str, Any] = json.loads(result.stdout)
    return report


def findings(report: dict[str, Any]) -> list[tuple[str, str, str]]:
    return [(f["id"], f["verdict"], f["observed"]) for f in report["findings"]]


@pytest.mark.parametrize("answers", ROUND_TRIPS)
@pytest.mark.parametrize("suffix", [".toml", ".json"])
def test_a_profile_round_trips_finding_for_finding(tmp_path: Path, answers: dict[str, Any], suffix: str) -> None:
    profile = tmp_path / f"server{suffix}"
    with Simulator(**DATA, **answers) as first:
        probed = doctor(first, tmp_path, "--write-profile", str(profile))
    with Simulator(**DATA, profile=profile) as second:
        assert second.settings.variants == answers["variants"]
        assert second.settings.max_top == answers.get("max_top")
        for name, default in LIMITS.items():
            assert getattr(second.settings, name) == answers.get(name, default)
        again = doctor(second, tmp_path)
    assert findings(again) == findings(probed)
    assert probed["summary"].get("differs", 0) > 0  # the first simulator was not the spec's guess


def test_a_profile_states_every_setting_and_unknown_where_nothing_decided(tmp_path: Path) -> None:
    profile = tmp_path / "server.toml"
    with Simulator(**DATA) as sim:
        doctor(sim, tmp_path, "--write-profile", str(profile))
        listed = httpx.get(f"{sim.base_url}/v3/jobs/", headers={"Authorization": f"Bearer {sim.token()}"})
        keys = [job["_id"] for job in listed.json()]
    assert keys and not [key for key in keys if key in profile.read_text()]  # behaviour, not data
    written = tomllib.loads(profile.read_text())
    assert list(written["settings"]) == list(PROFILE_SETTINGS)
    assert written["settings"]["write_answer"] == "unknown"  # the doctor never writes
    assert written["settings"]["max_top"] == "none" and written["settings"]["list_shape"] == "middleware"
    assert written["statuses"] and set(written["statuses"]) <= {*JobStatus, "Printing", "Deleted"}
    assert written["observed"]["list-shape"]
    # an unknown keeps the simulator's default
    assert load_profile({"settings": {"nulls": "unknown", "skip": "ignored"}})["variants"] == Variants(
        skip=Skip.IGNORED
    )


def test_the_profile_names_exactly_the_simulator_s_settings() -> None:
    numbers = {MAX_TOP, *LIMITS}
    assert set(PROFILE_SETTINGS) == {field.name for field in dataclasses.fields(Variants)} | numbers
    assert numbers <= {field.name for field in dataclasses.fields(Settings)}


def test_a_bad_profile_is_a_clear_error(tmp_path: Path) -> None:
    with pytest.raises(ValueError, match="list_shape must be one of"):
        load_profile({"settings": {"list_shape": "xml"}})
    with pytest.raises(ValueError, match="max_top must be a positive integer"):
        load_profile({"settings": {"max_top": 0}})
    broken = tmp_path / "broken.toml"
    broken.write_text("settings = [")
    with pytest.raises(ValueError, match="not a profile"):
        load_profile(broken)
    with pytest.warns(UserWarning, match="not one this version knows"):
        assert load_profile({"settings": {"future_setting": "x"}})["variants"] == Variants()


def test_the_command_lines_show_the_profile_options() -> None:
    assert "--write-profile" in CliRunner().invoke(app, ["doctor", "--help"], env={"COLUMNS": "200"}).stdout
    sim_help = subprocess.run(
        [sys.executable, "-m", "printmgmt_sim", "--help"], capture_output=True, text=True, check=True
    ).stdout
    assert "--profile FILE" in sim_help


def test_a_test_suite_runs_as_the_profiled_server(tmp_path: Path) -> None:
    profile = tmp_path / "production.json"
    profile.write_text(json.dumps({"settings": {"list_shape": "value", "max_top": 7, "nulls": "unknown"}}))
    (tmp_path / "test_as_production.py").write_text(
        "import pytest\n"
        "def test_the_option(print_simulator):\n"
        "    assert print_simulator.settings.variants.list_shape == 'value'\n"
        "    assert print_simulator.settings.max_top == 7\n"
        "@pytest.mark.print_server(profile=None)\n"
        "def test_a_marker_wins(print_simulator):\n"
        "    assert print_simulator.settings.variants.list_shape == 'middleware'\n"
    )
    done = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:randomly", "--print-server-profile", str(profile)],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert "2 passed" in done.stdout
