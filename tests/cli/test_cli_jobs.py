"""``printmgmt jobs``: listings in every format, get, each action and its 412."""

from __future__ import annotations

import csv
import io
import json
import re
from pathlib import Path

import pytest
from cli_helpers import Invoke, error_line, job_in, status_of
from printmgmt_sim import Simulator

# -- list -------------------------------------------------------------------------------------------


def test_list_json_is_the_servers_page(cli: Invoke, sim: Simulator) -> None:
    result = cli("jobs", "list", "--filter", "status eq 'Error'", "--orderby", "_id desc", "--top", "5", "-o", "json")
    assert result.exit_code == 0, result.stderr
    jobs = json.loads(result.stdout)
    errors = sorted((job_id for _, job_id in sim.store.jobs_in_status("Error")), reverse=True)
    assert [job["_id"] for job in jobs] == errors[:5]
    assert {job["status"] for job in jobs} == {"Error"}
    assert isinstance(jobs[0]["current"]["checkinTime"], int)  # the server's epoch ms, unchanged


def test_list_skip_and_select(cli: Invoke) -> None:
    first = json.loads(cli("jobs", "list", "--orderby", "_id", "-n", "4", "-o", "json").stdout)
    page = json.loads(
        cli("jobs", "list", "--orderby", "_id", "-n", "2", "--skip", "2", "-s", "status", "-o", "json").stdout
    )
    assert [job["_id"] for job in page] == [job["_id"] for job in first[2:]]
    assert all(set(job) == {"_id", "status"} for job in page)


def test_list_csv_has_the_selected_columns(cli: Invoke, sim: Simulator) -> None:
    result = cli("jobs", "list", "-f", "status eq 'Paused'", "-s", "status,current/printerName", "-o", "csv")
    assert result.exit_code == 0, result.stderr
    rows = list(csv.reader(io.StringIO(result.stdout)))
    assert rows[0] == ["_id", "status", "current/printerName"]
    paused = {job_id: printer for printer, job_id in sim.store.jobs_in_status("Paused")}
    assert {row[0]: row[2] for row in rows[1:]} == paused
    assert {row[1] for row in rows[1:]} == {"Paused"}


def test_list_table_shows_whole_ids_utc_times_and_the_total(cli: Invoke, sim: Simulator) -> None:
    result = cli("jobs", "list", "-n", "3", "--orderby", "_id")
    assert result.exit_code == 0, result.stderr
    ids = sorted(
        job_id for status in ("Error", "Paused", "Processed") for _, job_id in sim.store.jobs_in_status(status)
    )
    assert "Printer" in result.stdout and "current/printerName" not in result.stdout  # headers for people
    assert "jobs 1-3 of 300" in result.stdout
    assert re.search(r" \d\d:\d\d:\d\dZ$", result.stdout, re.M)  # checkinTime as 2025-01-05 10:11:12Z
    rows = [line.split("│") for line in result.stdout.splitlines() if "│" in line]
    assert len(rows) == 3 and all(len(row[0].strip()) == 24 for row in rows)
    assert any(job_id in result.stdout for job_id in ids)


def test_list_default_is_one_page_of_50(cli: Invoke) -> None:
    assert len(json.loads(cli("jobs", "list", "-o", "json").stdout)) == 50


@pytest.mark.parametrize("fmt", ["json", "jsonl", "csv"])
def test_list_all_streams_every_job(cli: Invoke, fmt: str) -> None:
    result = cli("jobs", "list", "--all", "--page-size", "70", "-s", "status", "--orderby", "_id", "-o", fmt)
    assert result.exit_code == 0, result.stderr
    if fmt == "json":
        ids = [job["_id"] for job in json.loads(result.stdout)]
    elif fmt == "jsonl":
        ids = [json.loads(line)["_id"] for line in result.stdout.splitlines()]
    else:
        ids = [row["_id"] for row in csv.DictReader(io.StringIO(result.stdout))]
    assert len(ids) == len(set(ids)) == 300
    assert ids == sorted(ids)


def test_list_all_draws_its_progress_on_stderr_only(cli: Invoke) -> None:
    # TTY_COMPATIBLE makes rich treat the captured streams as terminals, so the bar is drawn
    result = cli("jobs", "list", "--all", "--page-size", "100", "-o", "jsonl", env={"TTY_COMPATIBLE": "1"})
    assert result.exit_code == 0, result.stderr
    assert "300/300" in result.stderr
    assert len([json.loads(line) for line in result.stdout.splitlines()]) == 300


def test_list_all_with_skip_starts_there(cli: Invoke) -> None:
    result = cli("jobs", "list", "--all", "--skip", "290", "--page-size", "4", "-o", "jsonl")
    assert len(result.stdout.splitlines()) == 10


def test_bad_filter_is_an_api_error_with_a_hint(cli: Invoke) -> None:
    result = cli("jobs", "list", "--filter", "status eq", "--check-query", "off")
    assert result.exit_code == 1
    assert "400 Bad Request" in error_line(result) and "--filter" in error_line(result)
    assert "printmgmt.odata" not in error_line(result)  # the command line's words, not the SDK's Python hint


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (
            ("--filter", "status EQ 'Error'"),
            "error: --filter: keywords are lower case: EQ -> eq (at position 7: EQ 'Error')",
        ),
        (("--filter", "status eq 'Error' "), "error: --filter: a blank may not end"),
        (("--orderby", "status DESC"), "error: --orderby: keywords are lower case: DESC -> desc (at position 7"),
        (("--select", "_id,x"), "error: --select: names have at least two characters"),
        # read otherwise than OData: refused with the parentheses most likely meant
        (
            ("--filter", "status eq 'Error' and current/copies eq 1 or current/copies eq 3"),
            "write (status eq 'Error' and current/copies eq 1) or current/copies eq 3",
        ),
        (
            ("--filter", "not (status eq 'Error') and current/copies eq 1"),
            "write (not (status eq 'Error')) and current/copies eq 1",
        ),
        (("--select", "_id,current.printerName"), "error: --select: the server keeps only the name before a dot"),
    ],
)
def test_query_options_are_read_before_anything_is_sent(cli: Invoke, args: tuple[str, ...], expected: str) -> None:
    # no credentials: a command that got as far as signing in would exit 3; these stop before, as usage errors
    result = cli("jobs", "list", *args, role=None)
    assert result.exit_code == 2, result.stderr
    assert expected in error_line(result)


def test_a_misread_filter_is_sent_as_written_with_check_query_syntax(cli: Invoke, sim: Simulator) -> None:
    text = "status eq 'Error' and current/copies eq 1 or current/copies eq 3"
    result = cli("jobs", "list", "--filter", text, "--check-query", "syntax", "-o", "json", "--top", "500")
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout)  # the server's answer, whatever its reading


@pytest.mark.parametrize("pages", [(), ("--all",)])
def test_an_unknown_field_is_a_warning_line_not_an_error(cli: Invoke, pages: tuple[str, ...]) -> None:
    result = cli("jobs", "list", "--filter", "stauts eq 'Error'", "-o", "json", *pages)
    assert result.exit_code == 0, result.stderr
    assert json.loads(result.stdout) == []  # the server keeps fields it does not know: nothing has one
    assert result.stderr.strip().splitlines() == [
        "warning: --filter: stauts is not a field of jobs in the spec (did you mean status or stages?); sent as written"
    ]


def test_a_case_insensitive_match_is_a_warning_line_naming_the_option(cli: Invoke) -> None:
    result = cli("jobs", "list", "--filter", "startswith(status,'error') eq true", "-o", "json")
    assert result.exit_code == 0, result.stderr
    assert result.stderr.strip().splitlines() == [
        "warning: --filter: startswith ignores case on this server (OData's is case-exact) (at position 0); "
        "sent as written"
    ]


def test_top_and_all_exclude_each_other(cli: Invoke) -> None:
    result = cli("jobs", "list", "--all", "--top", "5")
    assert result.exit_code == 2
    assert "--page-size" in result.stderr


# -- get, logfile ----------------------------------------------------------------------------------


def test_get_json_and_table(cli: Invoke, sim: Simulator) -> None:
    job_id = job_in(sim, "Paused")
    job = json.loads(cli("jobs", "get", job_id, "-o", "json").stdout)
    assert (job["_id"], job["status"]) == (job_id, "Paused")
    table = cli("jobs", "get", job_id).stdout
    assert "current/printerName" in table and job["current"]["printerName"] in table


def test_get_unknown_job_is_404(cli: Invoke) -> None:
    result = cli("jobs", "get", "no-such-job")
    assert result.exit_code == 1
    assert "404 Not Found" in error_line(result)


def test_get_with_an_unusable_id_is_a_usage_error(cli: Invoke) -> None:
    result = cli("jobs", "get", "..")
    assert result.exit_code == 2
    assert "invalid argument" in error_line(result)


def test_logfile_to_stdout_and_to_a_file(cli: Invoke, sim: Simulator, tmp_path: Path) -> None:
    job_id = job_in(sim, "Processed")
    shown = cli("jobs", "logfile", job_id)
    assert shown.exit_code == 0 and "Job checked in from" in shown.stdout
    target = tmp_path / "job.log"
    saved = cli("jobs", "logfile", job_id, "--to", str(target))
    assert saved.exit_code == 0 and target.read_text() == shown.stdout
    assert f"written to {target}" in saved.stderr


# -- actions --------------------------------------------------------------------------------------


def test_pause_then_pause_again_is_refused_with_the_reason(cli: Invoke, sim: Simulator) -> None:
    job_id = job_in(sim, "WaitProcessing")
    done = cli("jobs", "pause", job_id)
    assert done.exit_code == 0, done.stderr
    assert done.stdout.startswith(f"{job_id}: Job paused by seal-admin")
    assert status_of(sim, job_id) == "Paused"
    refused = cli("jobs", "pause", job_id)
    assert refused.exit_code == 1
    assert "412 Precondition Failed: Job is already paused." in error_line(refused)
    assert refused.stdout == ""


def test_resume(cli: Invoke, sim: Simulator) -> None:
    job_id = job_in(sim, "Paused")
    result = cli("jobs", "resume", job_id, "-o", "json")
    assert result.exit_code == 0
    [outcome] = json.loads(result.stdout)
    assert (outcome["key"], outcome["status"], outcome["result"]["status"]) == (job_id, "done", status_of(sim, job_id))
    assert "not paused" in error_line(cli("jobs", "resume", job_id))


def test_cancel_and_its_refusal(cli: Invoke, sim: Simulator) -> None:
    active, printed = job_in(sim, "WaitProcessing"), job_in(sim, "Processed")
    assert cli("jobs", "cancel", active).exit_code == 0
    assert status_of(sim, active) == "Canceled"
    refused = cli("jobs", "cancel", printed)
    assert refused.exit_code == 1 and "already been printed" in error_line(refused)


def test_repeat_and_its_refusal(cli: Invoke, sim: Simulator) -> None:
    ended, active = job_in(sim, "Error"), job_in(sim, "WaitProcessing")
    assert cli("jobs", "repeat", ended).exit_code == 0
    assert status_of(sim, ended) == "WaitProcessing"
    refused = cli("jobs", "repeat", active)
    assert refused.exit_code == 1 and "still active" in error_line(refused)
    assert cli("jobs", "repeat", ended, active).exit_code == 2  # one job at a time


def test_move_and_its_refusal(cli: Invoke, sim: Simulator) -> None:
    job_id = job_in(sim, "Paused")
    job = sim.store.job(job_id)
    assert job is not None
    target = next(p["_id"] for p in sim.store.printers() if p["_id"] != job.printer)
    assert cli("jobs", "move", job_id, "--printer", target).exit_code == 0
    moved = sim.store.job(job_id)
    assert moved is not None and moved.printer == target
    refused = cli("jobs", "move", job_id, "--printer", "no-such-printer")
    assert refused.exit_code == 1 and "Printer 'no-such-printer' does not exist." in error_line(refused)
    assert cli("jobs", "move", job_id).exit_code == 2  # --printer is required


def test_delete_needs_yes_off_a_terminal(cli: Invoke, sim: Simulator) -> None:
    job_id = job_in(sim, "Processed")
    refused = cli("jobs", "delete", job_id)
    assert refused.exit_code == 2 and "--yes" in refused.stderr
    assert sim.store.job(job_id) is not None
    assert cli("jobs", "delete", job_id, "--yes").exit_code == 0
    assert sim.store.job(job_id) is None
    assert "404" in error_line(cli("jobs", "delete", job_id, "-y"))


def test_readonly_user_gets_the_missing_permission(cli: Invoke, sim: Simulator) -> None:
    result = cli("jobs", "pause", job_in(sim, "WaitProcessing"), role="readonly")
    assert result.exit_code == 1
    assert "403 Forbidden" in error_line(result) and "seal-readonly may not" in error_line(result)
