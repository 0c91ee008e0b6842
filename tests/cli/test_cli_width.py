"""Every command read in a real terminal of 80, 120 and 200 columns, and piped: ids, statuses, printers and
verdicts whole, free text wrapped or cut with a visible "…", every column left out named; the doctor's report
verdict first with its exit code; help that never cuts a word."""

from __future__ import annotations

import json
from itertools import pairwise, takewhile
from pathlib import Path
from typing import Any

import pytest
import typer
from cli_helpers import Invoke, in_terminal, job_in, shown_whole_or_cut, table_rows, terminal_env
from printmgmt_cli.app import app
from printmgmt_cli.profile import AuthErrors, StatusForm
from printmgmt_sim import Simulator, Variants
from typer.testing import CliRunner

WIDTHS = [80, 120, 200]
FIVE = "_id,status,current/checkinTime,current/jobName,current/userName"
#: A server that differs from the SDK's guesses: statuses spelled otherwise, 401/403 bodies as text.
DIFFERING = pytest.mark.print_server(variants=Variants(status_form=StatusForm.PREFIXED, auth_errors=AuthErrors.TEXT))


def words(text: str) -> str:
    return " ".join(text.split())


def shown(
    sim: Simulator, profiles: Path, ca_bundle: str, args: list[str], width: int, *, code: int = 0
) -> tuple[str, list[str]]:
    """What ``printmgmt *args`` shows in a terminal ``width`` wide, and its lines (checked to fit)."""
    exit_code, screen = in_terminal(args, terminal_env(sim, profiles, ca_bundle), columns=width)
    assert exit_code == code, screen
    lines = screen.splitlines()
    assert max(len(line) for line in lines) <= width, screen
    return screen, lines


def jobs_of(cli: Invoke, *args: str) -> list[dict[str, Any]]:
    result = cli("jobs", "list", *args, "-o", "json")
    assert result.exit_code == 0, result.stderr
    found: list[dict[str, Any]] = json.loads(result.stdout)
    return found


# -- jobs list -------------------------------------------------------------------------------------------


@pytest.mark.parametrize("width", WIDTHS)
def test_the_job_list_is_one_line_per_job_newest_first(
    cli: Invoke, sim: Simulator, profiles: Path, ca_bundle: str, width: int
) -> None:
    records = jobs_of(cli, "-n", "30")
    times = [record["current"]["checkinTime"] for record in records]
    assert times == sorted(times, reverse=True) and len(set(times)) > 1  # newest first without --orderby
    screen, _ = shown(sim, profiles, ca_bundle, ["jobs", "list", "-n", "30"], width)
    headers, rows, caption = table_rows(screen)
    assert len(rows) == 30  # one line per job, in the JSON's order
    for record, row in zip(records, rows, strict=True):
        cells = dict(zip(headers, row, strict=True))
        assert cells["ID"] == record["_id"] and cells["Status"] == record["status"]
        assert cells["Printer"] == record["current"]["printerName"]
        assert shown_whole_or_cut(cells["Job name"], record["current"]["jobName"])
        if "User" in cells:
            assert cells["User"] == record["current"]["userName"]
    assert "jobs 1-30 of 300, newest first" in caption
    assert ("…" in screen) == ("… marks text cut short (--wide shows everything)" in caption)
    left_out = {"ID", "Status", "Printer", "User", "Job name", "Checkin time (UTC)"} - set(headers)
    if left_out:
        assert "not shown for want of room: " in caption
        assert {name.strip() for name in caption.split("room: ")[1].split(";")[0].split(",")} == left_out
    if width == 80:
        assert headers == ["ID", "Status", "Printer", "Job name"]
    if width == 200:
        assert "…" not in screen and "Copies" in headers  # room to spare: nothing cut, the extras shown


def test_wide_shows_every_column_and_every_cell_whole(
    cli: Invoke, sim: Simulator, profiles: Path, ca_bundle: str
) -> None:
    records = jobs_of(cli, "-n", "10")
    code, screen = in_terminal(["jobs", "list", "-n", "10", "--wide"], terminal_env(sim, profiles, ca_bundle))
    assert code == 0, screen
    lines = [line for line in screen.splitlines() if "│" in line]
    assert len(lines) == 10 and max(len(line) for line in lines) > 80  # longer than the terminal: it wraps them
    for record, line in zip(records, lines, strict=True):
        cells = [cell.strip() for cell in line.split("│")]
        assert record["_id"] == cells[0] and record["current"]["jobName"] in cells
        assert record["current"]["fileFormat"] in cells  # an extra column too
    assert "…" not in screen


@pytest.mark.parametrize("width", WIDTHS)
def test_five_columns_show_what_fits_and_name_the_rest(
    cli: Invoke, sim: Simulator, profiles: Path, ca_bundle: str, width: int
) -> None:
    records = jobs_of(cli, "-n", "20")
    screen, _ = shown(sim, profiles, ca_bundle, ["jobs", "list", "-n", "20", "-c", FIVE], width)
    headers, rows, caption = table_rows(screen)
    asked = ["ID", "Status", "Checkin time (UTC)", "Job name", "User"]
    assert headers == [name for name in asked if name in headers][: len(headers)]  # in the order asked
    left_out = [name for name in asked if name not in headers]
    if left_out:
        assert f"not shown for want of room: {', '.join(left_out)}" in caption
    else:
        assert "not shown" not in caption
    assert headers[:2] == ["ID", "Status"]
    starts = [index for index, row in enumerate(rows) if row[0]]
    assert [rows[index][0] for index in starts] == [record["_id"] for record in records]  # ids whole, in order
    for record, start, end in zip(records, starts, [*starts[1:], len(rows)], strict=True):
        lines = rows[start:end]  # a job's lines: a wrapped cell continues below
        cells = {name: words(" ".join(line[column] for line in lines)) for column, name in enumerate(headers)}
        assert cells["Status"] == record["status"]
        if "Job name" in cells:
            assert shown_whole_or_cut(cells["Job name"], record["current"]["jobName"])
        if "User" in cells:
            assert cells["User"] == record["current"]["userName"]
        if "Checkin time (UTC)" in cells:
            assert len(cells["Checkin time (UTC)"]) == len("2025-01-06 07:59:33Z")  # wrapped at its space
    assert ("…" in screen) == ("… marks text cut short" in caption)
    if width == 80:
        assert left_out == ["User"]
    if width == 200:
        assert not left_out and "…" not in screen


def test_a_pipe_gets_every_column_whole(cli: Invoke) -> None:
    records = jobs_of(cli, "-n", "20")
    for args in ([], ["-c", FIVE]):
        result = cli("jobs", "list", "-n", "20", *args)
        headers, rows, caption = table_rows(result.stdout)
        assert len(rows) == 20 and "…" not in result.stdout and "not shown" not in caption
        for record, row in zip(records, rows, strict=True):
            cells = dict(zip(headers, row, strict=True))
            assert cells["Job name"] == record["current"]["jobName"]
            assert cells["User"] == record["current"]["userName"]


def test_a_pipe_follows_columns_when_it_is_set(cli: Invoke) -> None:
    """``printmgmt jobs list | less`` with ``COLUMNS=60``: the table fits 60 columns, and what it cuts or leaves
    out is said, as on a terminal of that width."""
    result = cli("jobs", "list", "-n", "20", env={"COLUMNS": "60"})
    lines = result.stdout.splitlines()
    assert max(len(line) for line in lines) <= 60, result.stdout
    headers, rows, caption = table_rows(result.stdout)
    assert len(rows) == 20 and "ID" in headers and "Status" in headers
    assert "not shown for want of room" in caption
    assert ("…" in "".join(" ".join(row) for row in rows)) == ("… marks text cut short" in caption)


def test_one_job_in_80_columns_shows_every_value_whole(
    cli: Invoke, sim: Simulator, profiles: Path, ca_bundle: str
) -> None:
    """``jobs get``: no value is cut; a long one (the stages) is wrapped over lines beside its field."""
    job_id = job_in(sim, "Processed")
    document = json.loads(cli("jobs", "get", job_id, "-o", "json").stdout)
    assert len(json.dumps(document["stages"])) > 80
    screen, lines = shown(sim, profiles, ca_bundle, ["jobs", "get", job_id], 80)
    assert "…" not in screen
    start = next(index for index, line in enumerate(lines) if line.split()[:1] == ["stages"])
    # the field's line, then those that continue its value (indented past the field column)
    block = [lines[start], *takewhile(lambda line: line.startswith(" " * 10), lines[start + 1 :])]
    shown_value = "".join(line.strip() for line in block).removeprefix("stages")
    whole = json.dumps(document["stages"], ensure_ascii=False, separators=(",", ":"))
    assert shown_value.replace(" ", "") == whole.replace(" ", "")


def test_list_all_as_a_table_ends_with_its_count(cli: Invoke) -> None:
    result = cli("jobs", "list", "--all", "--page-size", "70")
    _, rows, caption = table_rows(result.stdout)
    assert len(rows) == 300 and caption == "300 jobs, newest first"
    result = cli("printers", "list", "--all", "--skip", "2")
    _, rows, caption = table_rows(result.stdout)
    assert caption == f"{len(rows)} printers after the first 2"


def test_an_explicit_order_is_kept_and_not_called_newest_first(cli: Invoke) -> None:
    result = cli("jobs", "list", "-n", "5", "--orderby", "_id")
    _, rows, caption = table_rows(result.stdout)
    assert [row[0] for row in rows] == sorted(row[0] for row in rows)
    assert "newest first" not in caption


def test_list_all_is_newest_first_too(cli: Invoke) -> None:
    result = cli("jobs", "list", "--all", "--page-size", "70", "-c", "_id,current/checkinTime", "-o", "csv")
    times = [int(line.split(",")[1]) for line in result.stdout.splitlines()[1:]]
    assert len(times) == 300 and times == sorted(times, reverse=True)


# -- jobs wait and bulk actions ----------------------------------------------------------------------------


@pytest.mark.parametrize("width", WIDTHS)
def test_a_wait_in_a_terminal(sim: Simulator, profiles: Path, ca_bundle: str, width: int) -> None:
    ids = [job_in(sim, "Processed", index) for index in range(3)]
    screen, _ = shown(sim, profiles, ca_bundle, ["jobs", "wait", *ids, "--timeout", "5"], width)
    headers, rows, _ = table_rows(screen)
    assert headers == ["ID", "Status", "Printer", "Job name"]
    assert [row[0] for row in rows if row[0]] == ids and {row[1] for row in rows if row[0]} == {"Processed"}
    for key in ids:
        record = sim.store.job(key)
        assert record is not None
        assert record.doc["current"]["printerName"] in {row[2] for row in rows}
    assert "wait: done (3 Processed)" in words(screen)


@pytest.mark.parametrize("width", WIDTHS)
def test_a_bulk_action_in_a_terminal(sim: Simulator, profiles: Path, ca_bundle: str, width: int) -> None:
    ids = [job_in(sim, "Processed", index) for index in range(3)]  # ended: each pause is refused with a reason
    screen, _ = shown(sim, profiles, ca_bundle, ["jobs", "pause", *ids], width, code=1)
    headers, rows, after = table_rows(screen)
    assert headers == ["Key", "Status", "Message"]
    starts = [index for index, row in enumerate(rows) if row[0]]
    assert [rows[index][0] for index in starts] == ids and {rows[index][1] for index in starts} == {"refused"}
    for start, end in zip(starts, [*starts[1:], len(rows)], strict=True):
        reason = words(" ".join(row[2] for row in rows[start:end]))  # the reason wrapped, every word whole
        assert reason and "…" not in reason and reason.split()[-1].endswith(".")
    assert "pause: 0 done, 3 refused, 0 failed" in after


@pytest.mark.parametrize("width", WIDTHS)
def test_the_printer_list_in_a_terminal(
    cli: Invoke, sim: Simulator, profiles: Path, ca_bundle: str, width: int
) -> None:
    records = json.loads(cli("printers", "list", "-o", "json").stdout)
    screen, _ = shown(sim, profiles, ca_bundle, ["printers", "list"], width)
    headers, rows, caption = table_rows(screen)
    starts = [row for row in rows if row[0]]
    assert [row[0] for row in starts] == [record["_id"] for record in records]  # every name whole
    assert [row[1] for row in starts] == [record["runtime"]["status"] for record in records]
    left_out = {"ID", "Status", "Queued", "Redirected to", "Message"} - set(headers)
    assert all(name in caption.split("room: ")[-1] for name in left_out)
    assert "…" not in screen


# -- doctor ------------------------------------------------------------------------------------------------


def report_of(cli: Invoke) -> dict[str, Any]:
    result = cli("doctor", "-o", "json", "--exit-zero")
    assert result.exit_code == 0, result.stderr
    found: dict[str, Any] = json.loads(result.stdout)
    return found


def check_report(text: str, report: dict[str, Any]) -> None:
    """Each finding under its verdict and id, those that differ first, then the unknown, then the matches;
    every text of a finding that does not match whole (wrapped at most), and each match's observation."""
    lines = text.splitlines()
    assert "…" not in text
    flat = words(text)
    places = []
    for finding in report["findings"]:
        start = f"{finding['verdict']}  {finding['id']}"
        # the id whole: a space or the end of the line after it
        place = next(index for index, line in enumerate(lines) if f"{line} ".startswith(f"{start} "))
        places.append((("differs", "unknown", "matches").index(finding["verdict"]), place))
        assert words(finding["observed"]) in flat
        if finding["verdict"] != "matches":
            for key in ("question", "guess", "advice"):
                assert words(finding[key]) in flat
    assert [place for _, place in sorted(places)] == sorted(place for _, place in places)


@DIFFERING
@pytest.mark.parametrize("width", WIDTHS)
def test_the_doctor_reads_verdict_first_at_any_width(
    cli: Invoke, sim: Simulator, profiles: Path, ca_bundle: str, width: int
) -> None:
    report = report_of(cli)
    differ = report["summary"]["differs"]
    assert differ >= 3
    screen, lines = shown(sim, profiles, ca_bundle, ["doctor"], width, code=5)
    assert words(lines[0] + " " + lines[1]).startswith(f"doctor: {sim.base_url} through client")
    assert f"{differ} differs" in words(screen)
    check_report(screen, report)
    assert f"doctor: the server differs from {differ} guesses: exit 5 (--exit-zero keeps 0)" in words(screen)


@DIFFERING
def test_the_doctor_piped_is_whole_and_exits_5_unless_told_otherwise(cli: Invoke) -> None:
    report = report_of(cli)
    piped = cli("doctor")
    assert piped.exit_code == 5
    check_report(piped.stdout, report)
    lines = piped.stdout.splitlines()
    for finding in report["findings"]:  # off a terminal nothing wraps: a match is one line
        if finding["verdict"] == "matches":
            assert any(line.startswith("matches  ") and line.endswith(finding["observed"]) for line in lines)
    assert "exit 5" in piped.stderr
    quiet = cli("doctor", "--exit-zero")
    assert quiet.exit_code == 0 and quiet.stdout == piped.stdout and "exit 5" not in quiet.stderr
    for fmt in ("json", "csv", "jsonl"):
        assert cli("doctor", "-o", fmt).exit_code == 5


def test_the_doctor_exits_0_when_every_guess_holds(cli: Invoke) -> None:
    result = cli("doctor", kind="graphical")
    assert result.exit_code == 0, result.stderr
    assert "differs" not in result.stdout and "matches  list-shape" in result.stdout


def test_write_profile_keeps_an_existing_file_unless_force(cli: Invoke, sim: Simulator, tmp_path: Path) -> None:
    profile = tmp_path / "server.toml"
    profile.write_text("# mine\n")
    before = sim.traffic.snapshot()["requests"]
    refused = cli("doctor", "--write-profile", str(profile))
    assert refused.exit_code == 2
    assert f"{profile} exists; pass --force to replace it" in words(refused.stderr)
    assert profile.read_text() == "# mine\n"
    assert sim.traffic.snapshot()["requests"] == before  # refused before probing
    forced = cli("doctor", "--write-profile", str(profile), "--force")
    assert forced.exit_code == 0, forced.stderr
    assert "[settings]" in profile.read_text()


# -- help ----------------------------------------------------------------------------------------------------


def command_paths() -> list[list[str]]:
    """Every command and group of ``printmgmt``, as the words that name it."""
    found: list[list[str]] = []

    def walk(command: Any, path: list[str]) -> None:
        found.append(path)
        for name, sub in getattr(command, "commands", {}).items():
            walk(sub, [*path, name])

    walk(typer.main.get_command(app), [])
    return found


@pytest.mark.parametrize("width", WIDTHS)
def test_no_help_cuts_a_word(width: int) -> None:
    paths = command_paths()
    assert ["jobs", "list"] in paths and ["doctor"] in paths and len(paths) > 20
    for path in paths:
        result = CliRunner().invoke(app, [*path, "--help"], env={"COLUMNS": str(width)})
        assert result.exit_code == 0, path
        lines = result.stdout.splitlines()
        assert max(len(line) for line in lines) <= width, path
        assert "…" not in result.stdout, (path, [line for line in lines if "…" in line])


def test_jobs_list_help_in_an_80_column_terminal(sim: Simulator, profiles: Path, ca_bundle: str) -> None:
    screen, _ = shown(sim, profiles, ca_bundle, ["jobs", "list", "--help"], 80)
    flat = words(screen.replace("│", " "))
    assert "…" not in screen
    for example in ("current/printerName", "current/jobName", "current/checkinTime"):
        assert f" {example}" in flat
    assert "Newest first (by current/checkinTime) unless --orderby says otherwise." in flat
    assert "--wide" in flat


def test_wait_help_says_job_ids() -> None:
    result = CliRunner().invoke(app, ["jobs", "wait", "--help"], env={"COLUMNS": "120"})
    assert "One or more job ids" in result.stdout and "printer names" not in result.stdout


@pytest.mark.parametrize(
    "path", [["login"], ["jobs", "wait"], ["config", "init"], ["config", "show"], ["printmgmt"]], ids=" ".join
)
def test_help_paragraphs_break_only_where_the_terminal_ends(
    sim: Simulator, profiles: Path, ca_bundle: str, path: list[str]
) -> None:
    """In an 80-column terminal a help paragraph's line ends only where the next word would not fit."""
    args = [*path[1:], "--help"] if path == ["printmgmt"] else [*path, "--help"]
    _, lines = shown(sim, profiles, ca_bundle, args, 80)
    start = next(index for index, line in enumerate(lines) if "Usage:" in line) + 1
    text = lines[start : next(index for index, line in enumerate(lines) if line.startswith("╭"))]
    paragraphs: list[list[str]] = [[]]
    for line in text:
        if line.strip():
            paragraphs[-1].append(line.rstrip())
        else:
            paragraphs.append([])
    assert sum(len(paragraph) for paragraph in paragraphs) >= 2
    for paragraph in paragraphs:
        for line, after in pairwise(paragraph):
            assert len(line) + 1 + len(after.split()[0]) > 79, (line, after)  # the next word did not fit


def test_usage_placeholders_are_one_style() -> None:
    """Every argument in a usage line: its name in capitals, in braces when required, brackets when not, ``...``
    when it takes several."""
    import re

    import click

    seen = set()
    for path in command_paths():
        command: Any = typer.main.get_command(app)
        for name in path:
            command = command.commands[name]
        pieces = command.collect_usage_pieces(click.Context(command, info_name=" ".join(path)))
        for piece in pieces[1:]:  # after [OPTIONS]
            if piece != "COMMAND [ARGS]...":  # a group's
                assert re.fullmatch(r"\{[A-Z_]+(\.\.\.)?\}|\[[A-Z_]+(\.\.\.)?\]", piece), (path, piece)
                seen.add(piece)
    assert {"{JOB_ID}", "{JOB_ID...}", "{NAME}", "{NAME...}", "[TEXT]"} <= seen
