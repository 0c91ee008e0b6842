"""The simulator lives at speed 1: new jobs keep arriving (more in office hours), printers print, queues fill
and empty, statistics change; and its start-up banner says how to sign in. The clock's real time is a fake
moved by the tests: nothing sleeps."""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest
from printmgmt_sim import ClientCredentials, Settings, Simulator, UserCredentials
from printmgmt_sim.__main__ import _parser, banner
from printmgmt_sim.backend import Backend
from printmgmt_sim.clock import SimClock
from printmgmt_sim.reports import job_count, printer_count
from printmgmt_sim.settings import DEFAULT_CLIENTS, DEFAULT_USERS

HOUR = 3600.0


class FakeMonotonic:
    def __init__(self) -> None:
        self.now = 100.0

    def __call__(self) -> float:
        return self.now


def running(**settings: object) -> tuple[Backend, FakeMonotonic]:
    """A backend at speed 1 whose real time is a fake (the clock starts Monday 08:00 UTC)."""
    backend = Backend(Settings(jobs=0, printers=8, seed=3, **settings), "http://sim.test")  # type: ignore[arg-type]
    real = FakeMonotonic()
    backend.clock = SimClock(backend.settings.start_ms, backend.settings.speed, monotonic=real)
    return backend, real


def run_for(
    backend: Backend, real: FakeMonotonic, seconds: float, step: float = 10.0
) -> list[dict[str, dict[str, Any]]]:
    """Let ``seconds`` of real time pass, the server answering a request every ``step``; the printers as seen."""
    seen: list[dict[str, dict[str, Any]]] = []
    for _ in range(int(seconds / step)):
        real.now += step
        backend.advance()
        seen.append({p["_id"]: dict(p["runtime"]) for p in backend.store.printers()})
    return seen


def total(backend: Backend) -> int:
    return int(job_count(backend.store, {})["total"])


def test_new_jobs_keep_arriving_at_speed_1() -> None:
    backend, real = running(arrivals_per_hour=360)
    assert total(backend) == 0
    totals = []
    for _ in range(4):  # four times ten minutes of a Monday morning
        run_for(backend, real, 600)
        totals.append(total(backend))
    assert totals == sorted(totals) and len(set(totals)) == 4  # more every ten minutes
    assert 240 * 0.5 < totals[-1] < 240 * 4  # the morning is busier than the day's mean, within reason
    statuses = Counter[str](job_count(backend.store, {})["byStatus"]).most_common()
    assert statuses[0][0] == "Processed"  # they went through their life, most were printed


def test_printers_print_and_queues_fill_and_empty() -> None:
    backend, real = running(arrivals_per_hour=300)
    seen = run_for(backend, real, HOUR)
    queued = Counter[str]()
    for moment in seen:
        for name, runtime in moment.items():
            queued[name] = max(queued[name], int(runtime.get("queuedJobs", 0)))
    paused = {name for name, runtime in seen[0].items() if runtime["status"] == "paused"}
    assert paused  # a paused printer's queue only grows: the others are watched
    busiest = next(name for name, _ in queued.most_common() if name not in paused)
    lengths = [int(moment[busiest].get("queuedJobs", 0)) for moment in seen]
    assert max(lengths) >= 5, lengths  # a batch filled its queue...
    peak = lengths.index(max(lengths))
    assert 0 in lengths[peak:]  # ...and it emptied again
    printing = {name for moment in seen for name, runtime in moment.items() if runtime["status"] == "printing"}
    assert len(printing) >= 4
    last_printed = [seen[-1][name].get("lastPrintedJobTime", 0) for name in seen[-1] if name not in paused]
    assert all(time > backend.settings.start_ms for time in last_printed)
    assert printer_count(backend.store)["byStatus"]  # statistics answer from the same state


def test_printers_keep_printing_between_requests_far_apart() -> None:
    backend, real = running(arrivals_per_hour=300)
    seen = run_for(backend, real, HOUR, step=600)  # someone looks every ten minutes
    paused = {name for name, runtime in seen[0].items() if runtime["status"] == "paused"}
    waiting = sum(int(runtime.get("queuedJobs", 0)) for name, runtime in seen[-1].items() if name not in paused)
    statuses = job_count(backend.store, {})["byStatus"]
    assert statuses["Processed"] > 0.8 * total(backend) - sum(int(seen[-1][name]["queuedJobs"]) for name in paused)
    assert waiting < 10, seen[-1]


def test_the_day_has_a_shape_office_hours_busier_than_the_night() -> None:
    morning, real = running(arrivals_per_hour=200)
    run_for(morning, real, HOUR, step=60)
    night, real = running(arrivals_per_hour=200)
    real.now += 18 * HOUR  # 02:00 the next day
    night.arrivals.until_ms = night.clock.now_ms()  # count from the night on
    run_for(night, real, HOUR, step=60)
    assert total(morning) > 5 * max(total(night), 1)


def test_arrivals_are_reproducible_and_do_not_depend_on_how_often_the_clock_is_read() -> None:
    often, real = running(arrivals_per_hour=600)
    run_for(often, real, 900, step=10)
    seldom, real_seldom = running(arrivals_per_hour=600)
    run_for(seldom, real_seldom, 900, step=450)
    assert total(often) == total(seldom) > 0
    assert ids(often) == ids(seldom)
    again, real_again = running(arrivals_per_hour=600)
    run_for(again, real_again, 900, step=9)
    assert ids(again) == ids(often)


def ids(backend: Backend) -> list[str]:
    statuses = job_count(backend.store, {})["byStatus"]
    return sorted(job_id for status in statuses for _, job_id in backend.store.jobs_in_status(status))


def test_no_arrivals_when_switched_off_or_the_clock_is_frozen() -> None:
    off, real = running(arrivals_per_hour=0)
    run_for(off, real, HOUR, step=60)
    assert total(off) == 0
    frozen, real = running(arrivals_per_hour=600, speed=0)
    run_for(frozen, real, HOUR, step=60)
    assert total(frozen) == 0
    with pytest.raises(ValueError, match="arrivals_per_hour"):
        Settings(arrivals_per_hour=-1)


def test_the_start_up_banner_says_how_to_sign_in() -> None:
    with Simulator(jobs=0, speed=0) as sim:
        text = banner(sim, "sim.env")
        plain = banner(sim, None)
    for user in DEFAULT_USERS:
        assert user.username in text and repr(user.password) in text
    for client in DEFAULT_CLIENTS:
        assert client.client_id in text and repr(client.secret) in text
        assert f"--client-kind {client.kind}" in text
    assert "sim.env" in text and "set -a; . sim.env; set +a" in text
    assert "--env-file FILE" in plain
    own = Settings(users=(UserCredentials("me", "hunter2", ("admin",)),), clients=(ClientCredentials("c", "s3cr3t"),))
    with Simulator(own, jobs=0, speed=0) as sim:
        mine = banner(sim, None)
    assert "me " in mine and "hunter2" not in mine and "s3cr3t" not in mine  # configured credentials stay unsaid
    assert _parser().parse_args(["--arrivals", "90"]).arrivals == 90
    assert "360 new jobs an hour" in banner_of_defaults()


def banner_of_defaults() -> str:
    with Simulator(jobs=0, speed=0, arrivals_per_hour=Settings().arrivals_per_hour) as sim:
        return banner(sim, None)
