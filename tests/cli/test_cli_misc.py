"""whoami, stats, help, version, the console script, and what ``import printmgmt`` leaves out."""

from __future__ import annotations

import functools
import json
import os
import subprocess
import sys
from pathlib import Path

from cli_helpers import Invoke
from printmgmt_sim import Simulator

import printmgmt


def test_whoami(cli: Invoke) -> None:
    admin = json.loads(cli("whoami", "-o", "json").stdout)
    assert (admin["user"], admin["roles"]) == ("seal-admin", ["admin"])
    table = cli("whoami", role="readonly")
    assert table.exit_code == 0 and "seal-readonly" in table.stdout and "readonly" in table.stdout


def test_stats_overview_and_job_counts(cli: Invoke, sim: Simulator) -> None:
    stats = functools.partial(cli, "stats", kind="graphical")  # the client whose roles see the dashboard
    overview = json.loads(stats("-o", "json").stdout)
    assert overview["jobs"]["total"] == 300 and overview["printers"]["total"] == 36
    assert "jobs/byStatus/Paused" in stats().stdout
    paused = len(sim.store.jobs_in_status("Paused"))
    counts = json.loads(stats("jobs", "--status", "Paused,Error", "-o", "json").stdout)
    assert counts["byStatus"]["Paused"] == paused and counts["total"] == paused + len(sim.store.jobs_in_status("Error"))
    passed = json.loads(stats("jobs", "--param", "printerName=printer1", "-o", "json").stdout)
    assert passed["total"] == sum(sim.store.count_jobs("status", "printer = ?", ["printer1"]).values()) > 0
    assert stats("jobs", "--param", "no-equals-sign").exit_code == 2
    for own in ("timeout", "deadline"):  # the SDK call's keywords, which would never reach the server
        refused = stats("jobs", "--param", f"{own}=5")
        assert refused.exit_code == 2 and f"'{own}' is the call's own option" in refused.output


def test_stats_through_a_client_without_the_dashboard_say_so(cli: Invoke) -> None:
    refused = cli("stats", "jobs")  # the default client kind, cli: no dashboard area in the simulated deployment
    assert refused.exit_code != 0
    assert "area 'dashboard'" in refused.output and "client kind 'cli'" in refused.output
    # in command-line words, not Python's, and said once
    assert "--client-kind graphical" in refused.output and "client_kind=" not in refused.output
    assert "each client kind has its own client secret" in refused.output
    assert "Forbidden: Forbidden" not in refused.output


def test_stats_series_and_printers(cli: Invoke) -> None:
    stats = functools.partial(cli, "stats", kind="graphical")  # the client whose roles see the dashboard
    series = json.loads(stats("series", "--interval", "day", "--until", "2025-01-06T08:00:00Z", "-o", "json").stdout)
    assert series["interval"] == "day" and series["to"] == 1736150400000
    assert sum(point["count"] for point in series["series"]) > 0
    rows = stats("series", "--interval", "day", "-o", "csv").stdout.splitlines()
    assert rows[0] == "time,count" and len(rows) == len(series["series"]) + 1
    assert "2025-01-05 08:00:00Z" in stats("series", "--interval", "day", "--until", "1736150400000").stdout
    assert json.loads(stats("printers", "-o", "json").stdout)["byStatus"]["paused"] == 2
    assert stats("series", "--since", "yesterday").exit_code == 2


def test_help_lists_the_commands_and_exit_codes(cli: Invoke) -> None:
    top = cli("--help")
    assert top.exit_code == 0
    for command in ("jobs", "printers", "stats", "whoami", "config"):
        assert command in top.stdout
    assert "3 authentication error, 4 bulk action partly done" in " ".join(top.stdout.split())
    jobs = cli("jobs", "--help").stdout
    for command in ("list", "get", "pause", "resume", "cancel", "repeat", "move", "delete", "logfile"):
        assert f" {command} " in jobs


def test_console_script_and_module(sim: Simulator, tmp_path: Path) -> None:
    env = {key: value for key, value in os.environ.items() if not key.startswith("PRINTMGMT_")}
    env |= sim.env("admin") | {"PRINTMGMT_CONFIG": str(tmp_path / "none.toml")}
    script = Path(sys.executable).with_name("printmgmt")
    command = [str(script)] if script.exists() else [sys.executable, "-m", "printmgmt_cli"]
    done = subprocess.run([*command, "whoami", "-o", "json"], env=env, capture_output=True, text=True, timeout=30)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["user"] == "seal-admin"
    version = subprocess.run([sys.executable, "-m", "printmgmt_cli", "--version"], capture_output=True, text=True)
    assert version.stdout.strip() == f"printmgmt {printmgmt.__version__}"


def loaded(code: str, modules: tuple[str, ...]) -> list[str]:
    probe = f"{code}; import sys; print([m for m in {modules!r} if m in sys.modules])"
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True, check=True)
    return list(json.loads(done.stdout.replace("'", '"')))


def test_import_printmgmt_does_not_load_the_command_line() -> None:
    assert loaded("import printmgmt", ("typer", "printmgmt_cli")) == []


def test_the_command_line_loads_the_client_only_to_run_a_command() -> None:
    # --help and usage errors stay fast: httpx and the generated client (its types and models, attrs) load when a
    # command runs; the generated field catalogue (plain data and the time fields' formatting) loads with the CLI
    modules = ("httpx", "printmgmt.client", "printmgmt_api.types", "printmgmt_api.models", "attrs")
    assert loaded("import printmgmt_cli.app", modules) == []


def test_since_and_until_convert_to_exact_epoch_ms() -> None:
    from printmgmt_cli.stats import epoch_ms

    # float arithmetic would give ...892 here (the odata module's exact conversion is used)
    assert epoch_ms("2004-05-29T15:36:20.893Z") == 1085844980893
    assert epoch_ms("2004-05-29T15:36:20.893") == 1085844980893  # naive: UTC
    assert epoch_ms("1085844980893") == 1085844980893


def test_doctor_reports_as_json_and_as_a_table(cli: Invoke) -> None:
    report = json.loads(cli("doctor", "-o", "json", kind="graphical").stdout)
    assert report["summary"].get("differs", 0) == 0 and report["client"].startswith("client 'seal-plossysadmin'")
    assert {"list-shape", "nulls", "regex", "datetime", "401-body"} <= {f["id"] for f in report["findings"]}
    table = cli("doctor")  # the cli client: statistics answer 403, which the report shows as unknown
    assert table.exit_code == 0
    assert "shape:getJobCount" in table.stdout and "unknown" in table.stdout and "403" in table.stdout
