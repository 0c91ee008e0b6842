"""Several ids at once: the SDK's bulk actions, one row per id, exit 4 when only some were done."""

from __future__ import annotations

import json

from cli_helpers import Invoke, job_in, status_of
from printmgmt_sim import Simulator


def test_partial_failure_exits_4_with_one_outcome_per_id_in_order(cli: Invoke, sim: Simulator) -> None:
    waiting = [job_in(sim, "WaitProcessing", i) for i in range(3)]
    paused, printing = job_in(sim, "Paused"), job_in(sim, "Processing")
    ids = [waiting[0], paused, waiting[1], "no-such-job", printing, waiting[2]]
    result = cli("jobs", "pause", *ids, "-o", "json", "-j", "3")
    assert result.exit_code == 4, result.stderr
    outcomes = json.loads(result.stdout)
    assert [o["key"] for o in outcomes] == ids
    assert [o["status"] for o in outcomes] == ["done", "refused", "done", "failed", "refused", "done"]
    assert outcomes[1]["message"] == "Job is already paused."
    assert "being printed" in outcomes[4]["message"]
    assert "404" in outcomes[3]["message"]
    assert outcomes[0]["result"]["status"] == "Paused"
    assert all(status_of(sim, job_id) == "Paused" for job_id in waiting)
    assert result.stderr.strip().splitlines()[-1] == "pause: 3 done, 2 refused, 1 failed"


def test_all_done_exits_0_and_renders_a_table(cli: Invoke, sim: Simulator) -> None:
    ids = [job_in(sim, "Paused", i) for i in range(4)]
    result = cli("jobs", "resume", *ids)
    assert result.exit_code == 0, result.stderr
    assert all(job_id in result.stdout for job_id in ids) and "Job resumed by seal-admin" in result.stdout
    assert all(status_of(sim, job_id) != "Paused" for job_id in ids)


def test_nothing_done_exits_1(cli: Invoke, sim: Simulator) -> None:
    printed = [job_in(sim, "Processed", i) for i in range(2)]
    result = cli("jobs", "cancel", *printed, "-o", "jsonl")
    assert result.exit_code == 1
    assert [json.loads(line)["status"] for line in result.stdout.splitlines()] == ["refused", "refused"]


def test_ids_from_stdin_and_the_progress_bar_on_stderr(cli: Invoke, sim: Simulator) -> None:
    ids = [job_in(sim, "Processed", i) for i in range(5)]
    result = cli(
        "jobs", "delete", "-", "--yes", "-o", "csv", input="\n".join(ids) + "\n\n", env={"TTY_COMPATIBLE": "1"}
    )
    assert result.exit_code == 0, result.stderr
    assert "delete 5 jobs" in result.stderr and "5/5" in result.stderr
    assert result.stdout.splitlines()[0] == "key,status,message"
    assert all(sim.store.job(job_id) is None for job_id in ids)


def test_bulk_with_refused_credentials_exits_3(cli: Invoke, sim: Simulator) -> None:
    ids = [job_in(sim, "Paused", i) for i in range(2)]
    result = cli("jobs", "resume", *ids, "-o", "json", env={"PRINTMGMT_PASSWORD": "wrong"})
    assert result.exit_code == 3
    assert {o["status"] for o in json.loads(result.stdout)} == {"failed"}
    assert all(status_of(sim, job_id) == "Paused" for job_id in ids)


def test_an_unusable_id_stops_the_batch_before_any_request(cli: Invoke, sim: Simulator) -> None:
    job_id = job_in(sim, "Paused")
    result = cli("jobs", "resume", job_id, "..")
    assert result.exit_code == 2
    assert status_of(sim, job_id) == "Paused"
