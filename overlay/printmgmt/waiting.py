"""Waiting for jobs over a polling-only API (docs/waiting.md): which statuses end a wait, how often to poll, when
to give up. The loops are the clients' (``jobs.wait_for``...)."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from random import uniform
from time import monotonic
from typing import TYPE_CHECKING, Any

from .errors import JobFailed, StatusUnreachable, WaitTimeout

if TYPE_CHECKING:
    from printmgmt_api.models import Job

__all__ = ["DONE", "FAILED", "FINAL", "MANY_BATCH", "Statuses", "Waiter", "fingerprint", "status_of", "status_set"]

#: A job's work is done.
DONE: frozenset[str] = frozenset({"Processed"})
#: A job ended without being done.
FAILED: frozenset[str] = frozenset({"Error", "Canceled"})
#: Statuses a job does not leave by itself.
FINAL: frozenset[str] = DONE | FAILED

#: One status or several, as strings or ``JobStatus`` members (both compare as the wire value).
Statuses = str | Iterable[str]

#: Batch size of one filtered list request while waiting for many jobs (keeps URLs short).
MANY_BATCH = 50


def status_set(statuses: Statuses, name: str) -> frozenset[str]:
    """``statuses`` as a set of wire values; a single string is one status."""
    values = [statuses] if isinstance(statuses, str) else list(statuses)
    if not all(isinstance(value, str) and value for value in values):
        raise TypeError(f"{name} must be job statuses (strings or JobStatus), not {statuses!r}")
    return frozenset(str(getattr(value, "value", value)) for value in values)


def status_of(job: Job) -> str | None:
    return str(getattr(job.status, "value", job.status)) if isinstance(job.status, str) else None


def fingerprint(job: Job) -> Any:
    """What counts as a change of a watched job: its whole document as the server sent it."""
    return job.to_dict()


class Waiter:
    """One wait: the statuses that end it, the poll schedule and the deadline (monotonic seconds)."""

    def __init__(
        self,
        *,
        until: Statuses,
        fail_on: Statuses,
        timeout: float | None,
        poll: float,
        max_poll: float,
        clock: Callable[[], float] | None = None,
    ) -> None:
        if not poll > 0 or not max_poll >= poll:
            raise ValueError(f"poll must be > 0 and max_poll >= poll, not poll={poll!r}, max_poll={max_poll!r}")
        if timeout is not None and not timeout >= 0:
            raise ValueError(f"timeout must be >= 0 seconds or None, not {timeout!r}")
        self.until = status_set(until, "until")
        self.fail_on = status_set(fail_on, "fail_on") - self.until
        self.timeout = timeout
        self._poll = self._first = poll
        self._max = max_poll
        self._clock = clock or monotonic
        self._deadline = None if timeout is None else self._clock() + timeout

    def ended(self, job: Job, what: str) -> bool:
        """Whether ``job`` ends the wait (its status is in ``until``); raises when it cannot (``fail_on``...)."""
        status = status_of(job)
        if status in self.fail_on:
            raise JobFailed(f"{what} ended as {status}", job=job)
        if status in self.until:
            return True
        self.check_reachable(job, what)
        return False

    def check_reachable(self, job: Job, what: str, jobs: Sequence[Job] = ()) -> None:
        """Raise :class:`StatusUnreachable` when ``job`` ended (:data:`FINAL`) neither in ``until`` nor ``fail_on``."""
        status = status_of(job)
        if status in FINAL - self.until - self.fail_on:
            wanted = " or ".join(sorted(self.until))
            raise StatusUnreachable(
                f"{what} ended as {status} and can no longer reach {wanted}",
                job=job,
                status=status,
                until=self.until,
                jobs=jobs,
            )

    def changed(self) -> None:
        """The job changed: poll soon again."""
        self._poll = self._first

    def next_delay(self, last: Job | None, what: str, jobs: Sequence[Job] = (), pending: Sequence[Job] = ()) -> float:
        """Seconds until the next poll, within the deadline; raises :class:`WaitTimeout` once it has passed
        (``what`` names the jobs that have not ended; ``pending`` are they, if several, ``jobs`` all of them)."""
        delay = self._poll * uniform(0.9, 1.1)  # jitter, not cryptography
        self._poll = min(self._poll * 1.5, self._max)
        if self._deadline is None:
            return delay
        left = self._deadline - self._clock()
        if left <= 0:
            seen = _last_seen(pending or ([last] if last is not None else []))
            raise WaitTimeout(
                f"{what} did not end within {self.timeout} s{seen}",
                timeout=self.timeout or 0.0,
                job=last,
                jobs=jobs,
                pending=pending,
            )
        return min(delay, left)


def _last_seen(jobs: Sequence[Job]) -> str:
    """`` (last seen: 2 Paused, 1 Added)``, or ``""`` when no status was seen."""
    counts = Counter(status for job in jobs if (status := status_of(job)))
    seen = list(counts) if len(jobs) == 1 else [f"{n} {status}" for status, n in sorted(counts.items())]
    return f" (last seen: {', '.join(seen)})" if counts else ""
