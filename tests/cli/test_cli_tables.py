"""Command-line tables for people: headers, one-line times, no trailing padding off a terminal, --columns,
and shell completion of printer names."""

from __future__ import annotations

import csv
import io
import re

from cli_helpers import Invoke
from printmgmt_cli.app import app
from printmgmt_cli.output import header
from printmgmt_sim import Simulator
from typer.testing import CliRunner


def test_tables_have_headers_for_people_and_times_on_one_line(cli: Invoke) -> None:
    result = cli("jobs", "list", "-n", "5", "--orderby", "_id")
    assert result.exit_code == 0, result.stderr
    heading = next(line for line in result.stdout.splitlines() if "ID" in line)
    assert [cell.strip() for cell in heading.strip("┃│ ").split("┃")] == [
        "ID", "Status", "Printer", "User", "Job name", "Checkin time (UTC)",
    ]  # fmt: skip
    times = re.findall(r"\d{4}-\d\d-\d\d \d\d:\d\d:\d\dZ", result.stdout)
    assert len(times) == 5  # each whole on its row's line


def test_no_trailing_padding_when_not_on_a_terminal(cli: Invoke) -> None:
    for args in (("jobs", "list", "-n", "5"), ("printers", "list", "-n", "3"), ("jobs", "get", "x")):
        result = cli(*args)
        lines = result.stdout.splitlines()
        assert all(line == line.rstrip() for line in lines), args


def test_columns_chooses_what_is_shown_without_changing_what_is_fetched(cli: Invoke, sim: Simulator) -> None:
    table = cli("jobs", "list", "-n", "3", "--columns", "_id,current/jobName,status")
    assert table.exit_code == 0, table.stderr
    heading = next(line for line in table.stdout.splitlines() if "ID" in line)
    assert [cell.strip() for cell in heading.strip("┃│ ").split("┃")] == ["ID", "Job name", "Status"]
    rows = list(csv.reader(io.StringIO(cli("jobs", "list", "-n", "3", "-c", "status,_id", "-o", "csv").stdout)))
    assert rows[0] == ["status", "_id"]  # CSV keeps the wire paths
    assert len(rows) == 4 and all(row[1] for row in rows[1:])


def test_headers_for_any_path() -> None:
    assert header("runtime/lastPrintedJobTime") == "Last printed job time (UTC)"
    assert header("_id") == "ID"
    assert header("orig/copies") == "Copies"


def test_printer_names_complete_from_the_server(cli: Invoke, sim: Simulator) -> None:
    env = {**sim.env("admin", "graphical"), "_PRINTMGMT_COMPLETE": "complete_zsh"}
    names = sorted(doc["_id"] for doc in sim.store.printers() if doc["_id"].startswith("PRT-B"))
    assert names
    for command in ("printers pause PRT-B", "printers get PRT-B", "printers redirect PRT-B"):
        result = CliRunner().invoke(
            app, [], env={**env, "_TYPER_COMPLETE_ARGS": f"printmgmt {command}"}, prog_name="printmgmt"
        )
        completed = re.findall(r"PRT-B[\w-]*", result.stdout)
        assert sorted(set(completed)) == names, (command, result.stdout)


def test_completion_without_a_server_completes_nothing_quietly() -> None:
    env = {"_PRINTMGMT_COMPLETE": "complete_zsh", "_TYPER_COMPLETE_ARGS": "printmgmt printers pause P",
           "PRINTMGMT_BASE_URL": "http://127.0.0.1:9", "PRINTMGMT_TOKEN": "t"}  # fmt: skip
    result = CliRunner().invoke(app, [], env=env, prog_name="printmgmt")
    assert "PRT" not in result.stdout and "Traceback" not in result.stdout + (result.stderr or "")
