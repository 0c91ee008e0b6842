"""New jobs checking in on their own, so that a running simulator lives: printers print, queues fill and empty,
statistics change.

``Settings.arrivals_per_hour`` jobs an hour on average over a day, shaped like an office day (UTC): few at
night, a peak in the morning and one after lunch (:data:`DAILY_SHAPE`). Now and then a batch (a payroll or
label run) sends many jobs to one printer within seconds, which fills its queue for a while. Printers are
picked unevenly, as in an office: the first ones are busier.

Arrivals are decided per minute of simulated time by a generator seeded with the run's seed and the
minute, so a run is reproducible however often the clock is read. New jobs start in ``Added`` and follow
:mod:`~printmgmt_sim.lifecycle`.
"""

from __future__ import annotations

import itertools
import math
import random
from dataclasses import dataclass
from typing import Final

from .draws import Draws
from .lifecycle import sync_printers
from .seed import job_logs, seeded_job
from .settings import Settings
from .store import Store

__all__ = ["DAILY_SHAPE", "Arrivals"]

#: Relative arrivals per hour of the day (UTC), 0 to 23; scaled so that a day's mean is ``arrivals_per_hour``.
DAILY_SHAPE: Final = (
    0.1, 0.1, 0.1, 0.1, 0.1, 0.2, 0.5, 1.2, 2.2, 2.4, 2.2, 1.8,
    1.2, 1.8, 2.2, 2.0, 1.6, 1.0, 0.6, 0.4, 0.3, 0.2, 0.1, 0.1,
)  # fmt: skip
_SCALE: Final = len(DAILY_SHAPE) / sum(DAILY_SHAPE)
_MINUTE_MS: Final = 60_000
#: Share of submissions that are a batch, and a batch's size.
_BATCH_SHARE: Final = 0.02
_BATCH_SIZE: Final = (8, 30)
#: A clock that jumped further than this catches up with the last part only (bounded work per request).
_CATCH_UP_MS: Final = 86_400_000


def rate_per_minute(settings: Settings, minute: int) -> float:
    """Mean arrivals in the simulated ``minute`` (minutes since the epoch)."""
    hour = (minute // 60) % 24
    return settings.arrivals_per_hour / 60 * DAILY_SHAPE[hour] * _SCALE


def _poisson(rng: random.Random, mean: float) -> int:
    """A Poisson-distributed count (Knuth's method: means here are small)."""
    if mean <= 0:
        return 0
    limit, count, product = math.exp(-mean), 0, rng.random()
    while product > limit:
        count += 1
        product *= rng.random()
    return count


@dataclass(frozen=True, slots=True)
class _Planned:
    """A job due to check in: when, where, and the seed of its document."""

    at_ms: int
    printer: str
    key: str


class Arrivals:
    """Checks in the jobs due between the last call and now (see the module)."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings
        #: Jobs up to this time (exclusive) have arrived.
        self.until_ms = settings.start_ms
        self._serial = settings.jobs
        self._printers: list[str] = []
        self._cumulative: list[float] = []
        #: The plans of the minutes still being arrived in (a plan is made once).
        self._plans: dict[int, list[_Planned]] = {}

    def _plan(self, minute: int) -> list[_Planned]:
        """The arrivals of one simulated minute, the same on every call."""
        if (known := self._plans.get(minute)) is not None:
            return known
        rng = random.Random(f"{self.settings.seed}:arrivals:{minute}")
        planned: list[_Planned] = []
        for submission in range(_poisson(rng, rate_per_minute(self.settings, minute))):
            at = minute * _MINUTE_MS + rng.randrange(_MINUTE_MS)
            printer = rng.choices(self._printers, cum_weights=self._cumulative)[0]
            size = rng.randint(*_BATCH_SIZE) if rng.random() < _BATCH_SHARE else 1
            planned += [
                _Planned(at + index * rng.randint(200, 2_000), printer, f"{minute}:{submission}:{index}")
                for index in range(size)
            ]
        self._plans[minute] = planned
        return planned

    def advance(self, store: Store, now_ms: int) -> int:
        """Check in the jobs due by ``now_ms``; return how many."""
        if self.settings.arrivals_per_hour <= 0 or now_ms <= self.until_ms:
            return 0
        start = max(self.until_ms, now_ms - _CATCH_UP_MS)
        if not self._printers:  # the printers of the seeded deployment, busiest first
            self._printers = [printer["_id"] for printer in store.printers()]
            self._cumulative = list(itertools.accumulate(1 / (1 + i) ** 0.7 for i in range(len(self._printers))))
        # from the minute before: a batch planned then may still be arriving
        minutes = range(start // _MINUTE_MS - 1, now_ms // _MINUTE_MS + 1)
        due = sorted((job for minute in minutes for job in self._plan(minute)), key=lambda job: job.at_ms)
        for minute in [minute for minute in self._plans if minute < minutes[-1] - 1]:
            del self._plans[minute]
        due = [job for job in due if start <= job.at_ms < now_ms + 1 and store.printer(job.printer) is not None]
        self.until_ms = now_ms + 1
        if not due:
            return 0
        records = []
        for job in due:
            draws = Draws(self.settings.seed, "arrival", job.key)
            records.append(seeded_job(draws, self._serial, "Added", job.printer, job.at_ms, job.at_ms))
            self._serial += 1
        with store.lock, store.transaction():
            store.insert_jobs(record for record, _ in records)
            store.log_many(("job", record.id, list(job_logs(record, path))) for record, path in records)
            sync_printers(store, {job.printer for job in due})
        return len(records)
