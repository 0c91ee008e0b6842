"""``printmgmt jobs wait``: waiting for jobs as the simulator's clock moves."""

from __future__ import annotations

import json
import threading

from cli_helpers import Invoke, job_in
from printmgmt_sim import Simulator


def advancing(sim: Simulator, step: float) -> tuple[threading.Event, threading.Thread]:
    stop = threading.Event()

    def tick() -> None:
        while not stop.wait(0.05):
            sim.advance(step)

    thread = threading.Thread(target=tick, daemon=True)
    thread.start()
    return stop, thread


def test_wait_until_final_statuses_exits_0_with_one_row_per_job(cli: Invoke, sim: Simulator) -> None:
    ids = [job_in(sim, status) for status in ("Added", "WaitProcessing", "Processing")]
    stop, thread = advancing(sim, 30)
    try:
        result = cli(
            "jobs", "wait", *ids, "--until", "Processed", "--until", "Error", "--fail-on", "Canceled",
            "--poll", "0.05", "--timeout", "30", "-o", "json",
        )  # fmt: skip
    finally:
        stop.set()
        thread.join()
    assert result.exit_code == 0, result.stderr
    jobs = json.loads(result.stdout)
    assert [job["_id"] for job in jobs] == ids
    assert {job["status"] for job in jobs} <= {"Processed", "Error"}
    assert "wait: done" in result.stderr


def test_a_failed_job_exits_1_and_names_the_status(cli: Invoke, sim: Simulator) -> None:
    canceled = job_in(sim, "Canceled")
    result = cli("jobs", "wait", canceled, "--poll", "0.05", "--timeout", "5", "-o", "json")
    assert result.exit_code == 1
    assert json.loads(result.stdout)[0]["status"] == "Canceled"
    assert "ended as Canceled" in result.stderr


def test_a_timeout_exits_1_with_the_jobs_as_last_seen(cli: Invoke, sim: Simulator) -> None:
    paused = job_in(sim, "Paused")  # the clock is frozen: it stays paused
    result = cli("jobs", "wait", paused, "--poll", "0.05", "--timeout", "0.3", "-o", "csv")
    assert result.exit_code == 1
    assert result.stdout.splitlines()[1].startswith(f"{paused},Paused,")
    assert "did not end within 0.3 s" in result.stderr


def test_a_wait_for_a_status_out_of_reach_ends_at_once_naming_the_status(cli: Invoke, sim: Simulator) -> None:
    done = job_in(sim, "Processed")
    result = cli("jobs", "wait", done, "--until", "Paused", "--timeout", "300", "-o", "csv")
    assert result.exit_code == 1
    assert f"wait: job '{done}' ended as Processed and can no longer reach Paused" in result.stderr
    assert result.stdout.splitlines()[1].startswith(f"{done},Processed,")
    # one round: no polling (the clock is frozen, so a loop would last the whole timeout)
    reads = sim.traffic.snapshot()["requests"]
    assert reads.get("GET /v3/jobs/", 0) + reads.get(f"GET /v3/jobs/{done}", 0) == 1


def test_a_timeout_counts_only_the_jobs_that_did_not_end(cli: Invoke, sim: Simulator) -> None:
    done, paused = job_in(sim, "Processed"), job_in(sim, "Paused")
    result = cli("jobs", "wait", done, paused, "--poll", "0.05", "--timeout", "0.3", "-o", "json")
    assert result.exit_code == 1
    assert [job["status"] for job in json.loads(result.stdout)] == ["Processed", "Paused"]
    said = " ".join(result.stderr.split())
    assert "wait: 1 of 2 jobs did not end within 0.3 s (last seen: Paused); 1 ended (1 Processed)" in said
