"""The command line in the terminal a person has: tables fitted to 80 and 120 columns, typos refused with
the nearest name, the session's store said before any prompt, Ctrl-C as one line."""

from __future__ import annotations

import io
import json
import os
import re
import sys
from collections.abc import Iterator
from typing import Any

import keyring
import keyring.errors
import pytest
import typer
from cli_helpers import Invoke, in_terminal, job_in, shown_whole_or_cut, table_rows, terminal_env
from keyring.backend import KeyringBackend
from printmgmt_cli import actions, jobs, logincmd, printers, runner, waits
from printmgmt_cli.choices import job_statuses
from printmgmt_cli.output import Column, cell, header, lookup, table_of
from printmgmt_sim import Simulator
from rich.console import Console

NO_PASSWORD = {"PRINTMGMT_PASSWORD": None, "PRINTMGMT_CLIENT_SECRET": None}


def one_job_per_status(cli: Invoke) -> list[dict[str, Any]]:
    """A job in each status the seeded data has, the longest statuses and names included."""
    found = json.loads(cli("jobs", "list", "-n", "300", "-o", "json").stdout)
    by_status = {job["status"]: job for job in found}
    assert "PostponedPreProcessing" in by_status and len(by_status) >= 10
    return list(by_status.values())


def rendered(columns: tuple[Column, ...], records: list[dict[str, Any]], width: int) -> str:
    rows = [{c.path: cell(c.path, lookup(record, c.path), human=True) for c in columns} for record in records]
    console = Console(width=width, file=io.StringIO(), color_system=None)
    console.print(table_of(columns, rows, width))
    return console.file.getvalue()  # type: ignore[attr-defined, no-any-return]


def headers_of(table: str) -> list[str]:
    heading = next(line for line in table.splitlines() if "ID" in line or "Key" in line)
    return [part.strip() for part in heading.strip("┃ ").split("┃")]


@pytest.mark.parametrize("width", [80, 120])
def test_job_tables_fit_the_terminal_one_line_per_job_with_ids_and_statuses_whole(cli: Invoke, width: int) -> None:
    records = one_job_per_status(cli)
    table = rendered(jobs.COLUMNS, records, width)
    assert max(len(line) for line in table.splitlines()) <= width
    shown, rows, caption = table_rows(table)
    assert len(rows) == len(records)  # one line per job
    for record, row in zip(records, rows, strict=True):
        cells = dict(zip(shown, row, strict=True))
        assert cells["ID"] == record["_id"] and cells["Status"] == record["status"]
        assert cells["Printer"] == record["current"]["printerName"]
        assert shown_whole_or_cut(cells["Job name"], record["current"]["jobName"])
    assert ("…" in table) == ("… marks text cut short" in caption)
    if width == 80:
        assert shown == ["ID", "Status", "Printer", "Job name"]
        assert "not shown for want of room: User, Checkin time (UTC)" in caption
    else:
        assert shown == ["ID", "Status", "Printer", "User", "Job name", "Checkin time (UTC)"]
        assert "not shown" not in table


def test_a_wide_terminal_adds_columns_and_a_pipe_keeps_the_default_ones(cli: Invoke) -> None:
    records = one_job_per_status(cli)
    wide = headers_of(rendered(jobs.COLUMNS, records, 200))
    assert wide == ["ID", "Status", "Printer", "User", "Job name", "Checkin time (UTC)", "Copies", "File format"]
    piped = cli("jobs", "list", "-n", "3")  # not a terminal: the default columns, nothing cut
    assert headers_of(piped.stdout) == ["ID", "Status", "Printer", "User", "Job name", "Checkin time (UTC)"]


def test_long_text_wraps_instead_of_being_cut(cli: Invoke, sim: Simulator) -> None:
    printer = sim.store.printers()[3]["_id"]
    long = "Toner low on tray 2, paper jam cleared at 9:40; call facilities before noon please"
    assert cli("printers", "message", printer, long).exit_code == 0
    found = json.loads(cli("printers", "list", "-n", "10", "-o", "json").stdout)
    table = rendered(printers.COLUMNS, found, 80)
    assert max(len(line) for line in table.splitlines()) <= 80 and "…" not in table
    assert (
        " ".join(word for line in table.splitlines() for word in line.strip("│ ").split("│")[-1].split()).find(
            "call facilities before noon please"
        )
        >= 0
    )


@pytest.mark.parametrize("columns", [waits.COLUMNS, actions._COLUMNS], ids=["jobs wait", "bulk results"])
def test_other_lists_fit_80_columns(cli: Invoke, columns: tuple[Column, ...]) -> None:
    records = [
        {**job, "key": job["_id"], "message": "Job has ended (status Processed) and cannot be paused."}
        for job in one_job_per_status(cli)
    ]
    table = rendered(columns, records, 80)
    assert max(len(line) for line in table.splitlines()) <= 80 and "…" not in table
    assert headers_of(table) == [header(column.path) for column in columns]


def test_a_real_terminal_of_80_columns(sim: Simulator, profiles: Any, ca_bundle: str) -> None:
    env = terminal_env(sim, profiles, ca_bundle)
    code, screen = in_terminal(["jobs", "list", "-n", "40", "--orderby", "status desc"], env, columns=80)
    assert code == 0, screen
    lines = screen.splitlines()
    assert max(len(line) for line in lines) <= 80
    _, rows, caption = table_rows(screen)
    assert len(rows) == 40 and all(re.fullmatch(r"[0-9a-f]{24}", row[0]) for row in rows)  # whole ids, one line each
    statuses = {row[1] for row in rows}
    assert statuses and statuses <= set(job_statuses())  # whole statuses
    assert ("…" in screen) == ("… marks text cut short" in caption)


# -- choices checked against what exists ----------------------------------------------------------------


@pytest.mark.parametrize(
    ("args", "says"),
    [
        (("jobs", "list", "--columns", "_id,nosuch/field"), "no job field 'nosuch/field'"),
        (("jobs", "list", "-c", "_id,current/jobname"), "did you mean current/jobName"),
        (("printers", "list", "-c", "runtime/queued"), "did you mean runtime/queuedJobs"),
        (("jobs", "wait", "--until", "Done", "--timeout", "300", "x"), "no job status 'Done'"),
        (("jobs", "wait", "--until", "processed", "x"), "did you mean Processed?"),
        (("jobs", "wait", "--fail-on", "Error,Cancelled", "x"), "did you mean Canceled"),
        (("stats", "jobs", "--status", "Eror"), "did you mean Error?"),
    ],
)
def test_typos_exit_2_with_the_nearest_name(cli: Invoke, sim: Simulator, args: tuple[str, ...], says: str) -> None:
    before = sim.traffic.snapshot()["requests"]
    result = cli(*args)
    assert result.exit_code == 2, result.output
    assert says in " ".join(result.output.replace("│", " ").split())
    assert sim.traffic.snapshot()["requests"] == before  # refused before anything was sent


def test_known_names_still_work(cli: Invoke, sim: Simulator) -> None:
    shown = cli("jobs", "list", "-n", "2", "-c", "_id,physical/x,current/copies", "-o", "csv")
    assert shown.exit_code == 2  # a printer's field is not a job's
    assert cli("printers", "list", "-n", "2", "-c", "_id,physical/model", "-o", "csv").exit_code == 0
    done = job_in(sim, "Processed")
    waited = cli("jobs", "wait", done, "--until", "Processed,Accounting", "--fail-on", "Error", "-o", "json")
    assert waited.exit_code == 0, waited.output


# -- login: which store, said before asking -------------------------------------------------------------


class BrokenKeyring(KeyringBackend):
    """A keyring backend that fails on every use (a locked or broken OS store)."""

    priority = 1

    def get_password(self, service: str, username: str) -> str | None:
        raise keyring.errors.KeyringLocked("locked")

    def set_password(self, service: str, username: str, password: str) -> None:
        raise keyring.errors.KeyringLocked("locked")

    def delete_password(self, service: str, username: str) -> None:
        raise keyring.errors.KeyringLocked("locked")


@pytest.fixture
def events(monkeypatch: pytest.MonkeyPatch, sim: Simulator) -> list[str]:
    """What login said and asked, in order; the prompts answer with the simulator's secrets."""
    said: list[str] = []
    env = sim.env("admin", "cli")  # the cli fixture's client
    answers = {"Password": env["PRINTMGMT_PASSWORD"], "Client secret": env["PRINTMGMT_CLIENT_SECRET"]}
    original = logincmd.message  # type: ignore[attr-defined]  # the name logincmd calls, patched below

    def message(text: str, *, style: str | None = None) -> None:
        said.append(f"said: {text}")
        original(text, style=style)

    def ask(label: str) -> str:
        said.append(f"asked: {label}")
        return next(value for key, value in answers.items() if label.startswith(key))

    monkeypatch.setattr(logincmd, "message", message)
    monkeypatch.setattr(runner, "_ask", ask)
    monkeypatch.setattr(runner, "interactive", lambda: True)
    return said


@pytest.fixture(params=["absent", "broken"])
def no_keyring(request: pytest.FixtureRequest, monkeypatch: pytest.MonkeyPatch) -> Iterator[str]:
    if request.param == "absent":
        monkeypatch.setitem(sys.modules, "keyring", None)  # import keyring raises ImportError
        yield "the keyring package is not installed"
        return
    previous = keyring.get_keyring()
    keyring.set_keyring(BrokenKeyring())  # type: ignore[no-untyped-call]  # keyring's base class is untyped
    yield "the OS keyring does not answer (KeyringLocked)"
    keyring.set_keyring(previous)


def test_login_without_a_working_keyring_says_so_before_asking_and_keeps_a_file(
    cli: Invoke, events: list[str], no_keyring: str, profiles: Any
) -> None:
    result = cli("login", env=NO_PASSWORD)
    assert result.exit_code == 0, result.output
    assert events[0].startswith(f"said: {no_keyring}")
    assert f"the session will be kept in {profiles.with_name('sessions.json')}" in events[0]
    assert "--store keyring" in events[0]
    assert [event.split(" for")[0].split(" of")[0] for event in events[1:3]] == [
        "asked: Password",
        "asked: Client secret",
    ]
    assert json.loads(profiles.with_name("sessions.json").read_text())  # the session is there
    assert cli("whoami", env=NO_PASSWORD).exit_code == 0


def test_login_insisting_on_a_missing_keyring_stops_before_asking(
    cli: Invoke, events: list[str], no_keyring: str
) -> None:
    result = cli("login", "--store", "keyring", env=NO_PASSWORD)
    assert result.exit_code == 2
    assert not [event for event in events if event.startswith("asked")]
    assert no_keyring in result.stderr and "--store file keeps the session in" in result.stderr


def test_login_with_a_working_keyring_says_where_and_how_to_choose_the_file(
    cli: Invoke, events: list[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    from test_cli_login import MemoryKeyring

    previous = keyring.get_keyring()
    keyring.set_keyring(MemoryKeyring())
    try:
        assert cli("login", env=NO_PASSWORD).exit_code == 0
    finally:
        keyring.set_keyring(previous)
    assert events[0].startswith("said: the session will be kept in the OS keyring (--store file: in ")
    assert events[1].startswith("asked: Password")


# -- Ctrl-C ------------------------------------------------------------------------------------------------


def test_ctrl_c_at_a_prompt_is_one_line_and_exit_130(cli: Invoke, monkeypatch: pytest.MonkeyPatch) -> None:
    def interrupted(label: str) -> str:
        raise typer.Abort()  # what click's prompt raises for Ctrl-C

    monkeypatch.setattr(runner, "_ask", interrupted)
    monkeypatch.setattr(runner, "interactive", lambda: True)
    result = cli("jobs", "list", env=NO_PASSWORD)
    assert result.exit_code == 130
    assert result.stderr.strip() == "interrupted"


def test_ctrl_c_in_a_real_terminal(sim: Simulator, profiles: Any, ca_bundle: str) -> None:
    env = {k: v for k, v in os.environ.items() if not k.startswith("PRINTMGMT_")}
    env |= {k: v for k, v in sim.env().items() if k not in NO_PASSWORD}
    env |= {"PRINTMGMT_CONFIG": str(profiles), "PRINTMGMT_CA_BUNDLE": ca_bundle, "TERM": "xterm"}
    env["PYTHON_KEYRING_BACKEND"] = "keyring.backends.fail.Keyring"  # no OS keyring: the file is chosen
    code, screen = in_terminal(["login"], env, answer=("Password for", b"\x03"))
    assert code == 130, screen
    lines = [line for line in screen.splitlines() if line.strip()]
    assert lines[0].startswith("no OS keyring was found") and "the session will be kept in" in lines[0]
    assert lines[-1] == "interrupted"
    assert "Abort" not in screen and "Traceback" not in screen


# -- hints in the command line's words ----------------------------------------------------------------------


def test_a_base_url_ending_in_v3_is_explained_with_the_option(cli: Invoke, sim: Simulator) -> None:
    result = cli("jobs", "get", "x", env={"PRINTMGMT_BASE_URL": f"{sim.base_url}/v3"})
    assert result.exit_code == 1
    line = result.stderr.strip()
    assert "--base-url (PRINTMGMT_BASE_URL or the profile's base_url) ends in /v3" in line
    assert "the SDK" not in line and len(line.splitlines()) == 1


def test_help_names_the_exit_code_of_ctrl_c(cli: Invoke) -> None:
    assert "130 interrupted (Ctrl-C)" in " ".join(cli("--help").stdout.split())


@pytest.mark.parametrize("width", range(14, 24))
def test_a_wrapping_column_never_splits_a_word(width: int) -> None:
    columns = (Column("key", rank=0), Column("current/userName", rank=1, wraps=True))
    records = [{"key": "a", "current": {"userName": "rzimmermann"}}, {"key": "b", "current": {"userName": "eweber"}}]
    table = rendered(columns, records, width)
    assert max(len(line) for line in table.splitlines()) <= width
    shown, rows, caption = table_rows(table)
    if shown == ["Key", "User"]:
        assert [row[1] for row in rows] == ["rzimmermann", "eweber"]  # each whole on its line
    else:
        # the caption as wide as the terminal: not folded into the one narrow column
        assert shown == ["Key"] and caption == "not shown for want of room: User (-o csv or json shows everything)"
