"""How jobs move through the documented statuses on their own, and the printer runtime that follows.

The real transition diagram is only published as an image; this one is inferred from the status table
(which service acts in which status) and keeps the documented facts: jobs start in ``WaitPreProcessing``
(``Added`` first on current versions), and ``Error``, ``Processed``, ``Canceled`` and ``Paused`` are
resting states that only a user action leaves.

=========================  ==========================================  =========  ==========================
from                       to                                          after      sometimes instead
=========================  ==========================================  =========  ==========================
Added                      WaitPreProcessing                           1 s
WaitPreProcessing          PreProcessing                               2 s
PreProcessing              WaitProcessing (a conversion stage added)   4 s        4 % Error,
                                                                                  3 % PostponedPreProcessing
PostponedPreProcessing     WaitPreProcessing                           30 s
ProcessingRemote           WaitProcessing                              8 s
WaitProcessing             Processing                                  2 s        waits while its printer is
                                                                                  missing, paused or busy
Processing                 Accounting                                  6 s        3 % Error, 3 % Postponed
Postponed                  WaitProcessing                              30 s
Accounting                 Processed                                   1 s
=========================  ==========================================  =========  ==========================

Times are simulated seconds (see :class:`~printmgmt_sim.clock.SimClock`). A printer prints one job at a
time: a waiting job starts when the job before it is done. A job waiting for a redirected printer moves
to the redirect target; one waiting for a paused, missing or otherwise stopped printer rests until the
printer is resumed, stored or redirected (:func:`wake`). Branches are drawn from a
generator seeded with the run's seed, the job id and its step count, so a run is reproducible.

Printers' ``runtime`` follows the jobs: ``status`` is ``printing`` while a job prints (unless the
printer is ``paused``), ``currentPrintingJob`` names that job, ``queuedJobs`` counts its
``WaitProcessing`` jobs and ``lastPrintedJobTime`` is set when a job leaves ``Processing``. A printer
whose status is anything but ``idle`` or ``printing`` (``paused``, or a value set through ``PUT
runtime``) takes no new jobs and keeps its status.
"""

from __future__ import annotations

import random
from dataclasses import dataclass
from typing import Final

from printmgmt.models import JobStatus as S

from .model import SERVICE_OF, Doc, add_stage, set_current
from .store import JobRecord, Store

__all__ = [
    "STEPS",
    "Step",
    "advance",
    "first_due",
    "job_rng",
    "redirect_target",
    "status_entry",
    "sync_printers",
    "wake",
]


@dataclass(frozen=True, slots=True)
class Step:
    """What a service does with a job in one status: after ``seconds``, move it to ``to`` (or a branch)."""

    seconds: float
    to: str
    branches: tuple[tuple[float, str], ...] = ()


STEPS: Final[dict[str, Step]] = {
    S.ADDED: Step(1, S.WAITPREPROCESSING),
    S.WAITPREPROCESSING: Step(2, S.PREPROCESSING),
    S.PREPROCESSING: Step(4, S.WAITPROCESSING, ((0.04, S.ERROR), (0.03, S.POSTPONEDPREPROCESSING))),
    S.POSTPONEDPREPROCESSING: Step(30, S.WAITPREPROCESSING),
    S.PROCESSINGREMOTE: Step(8, S.WAITPROCESSING),
    S.WAITPROCESSING: Step(2, S.PROCESSING),
    S.PROCESSING: Step(6, S.ACCOUNTING, ((0.03, S.ERROR), (0.03, S.POSTPONED))),
    S.POSTPONED: Step(30, S.WAITPROCESSING),
    S.ACCOUNTING: Step(1, S.PROCESSED),
}

#: Printer statuses in which a printer takes jobs; any other (``paused``, or one set through ``runtime``) stops it.
_READY: Final = frozenset({"idle", "printing"})
#: Most transitions done by one call of :func:`advance` (a long jump of the clock catches up over calls).
_BATCH: Final = 5000

_ERRORS: Final[dict[str, str]] = {
    S.PREPROCESSING: "Conversion failed: the document could not be rendered",
    S.PROCESSING: "Printer did not answer: connection refused",
}


def job_rng(seed: int, record: JobRecord) -> random.Random:
    """The generator deciding a job's next step (same seed, same job, same step: same choice)."""
    return random.Random(f"{seed}:{record.id}:{record.steps}")


def first_due(status: str, since_ms: int, rng: random.Random | None = None) -> int | None:
    """When a job that entered ``status`` at ``since_ms`` takes its next step (None for resting states)."""
    step = STEPS.get(status)
    if step is None:
        return None
    fraction = rng.uniform(0.3, 1.0) if rng is not None else 1.0
    return since_ms + int(step.seconds * 1000 * fraction)


def status_entry(status: str, *, message: str | None = None, level: str = "info") -> Doc:
    """A log entry for a job that changed to ``status``."""
    return {
        "level": "error" if status == S.ERROR else level,
        "message": message or f"Job status changed to {status}",
        "service": SERVICE_OF.get(status, "seal-rest"),
        "status": status,
    }


def redirect_target(store: Store, name: str, *, hops: int = 10) -> str:
    """Where jobs for printer ``name`` end up, following ``runtime.redirectedTo``."""
    seen = {name}
    for _ in range(hops):
        printer = store.printer(name)
        target = printer.get("runtime", {}).get("redirectedTo") if printer else None
        if not isinstance(target, str) or not target or target in seen or store.printer(target) is None:
            return name
        seen.add(target)
        name = target
    return name


def advance(store: Store, now_ms: int, seed: int) -> int:
    """Apply every automatic step due by ``now_ms``; return how many jobs changed."""
    changed = 0
    with store.lock:
        busy = store.printing_until()
        touched: set[str] = set()
        for record in store.due_jobs(now_ms, _BATCH):
            due = record.due_ms if record.due_ms is not None else now_ms
            if _step(store, record, due, now_ms, seed, busy, touched):
                changed += 1
        if touched:
            sync_printers(store, touched)
    return changed


def _step(
    store: Store, record: JobRecord, due: int, now_ms: int, seed: int, busy: dict[str, int], touched: set[str]
) -> bool:
    status = record.status
    step = STEPS.get(status)
    if step is None:  # a resting job with a stale due time
        record.due_ms = None
        store.save_job(record)
        return False
    rng = job_rng(seed, record)
    doc = record.doc
    if status == S.WAITPROCESSING:
        printer_name = redirect_target(store, record.printer)
        if printer_name != record.printer:
            touched.add(record.printer)
            set_current(doc, printerName=printer_name)
        printer = store.printer(printer_name)
        if printer is None or printer.get("runtime", {}).get("status", "idle") not in _READY:
            record.due_ms = None  # rests until the printer is back: see wake()
            store.save_job(record)
            return False
        if printer_name in busy:
            record.due_ms = max(busy[printer_name], due) + 1  # right after the printing job
            store.save_job(record)
            return False
    target = step.to
    roll = rng.random()
    for probability, branch in step.branches:
        if roll < probability:
            target = branch
            break
        roll -= probability
    doc["status"] = target
    record.steps += 1
    record.due_ms = first_due(target, due, rng)
    if target == S.PROCESSING and record.due_ms is not None:
        busy[record.printer] = record.due_ms
    entries = [status_entry(target, message=_ERRORS.get(status) if target == S.ERROR else None)]
    if status == S.PREPROCESSING and target == S.WAITPROCESSING:
        fmt = doc.get("current", {}).get("fileFormat")
        if fmt != "application/postscript":
            add_stage(rng, doc, created_by="convert-pdf2ps", mime_type="application/postscript", at_ms=due)
    if status == S.PROCESSING:
        busy.pop(record.printer, None)
        printer = store.printer(record.printer)
        if printer is not None:
            printer.setdefault("runtime", {})["lastPrintedJobTime"] = due
            store.save_printer(printer)
            if target == S.ACCOUNTING:
                name = doc.get("current", {}).get("jobName", "")
                store.log(
                    "printer", record.printer, due, {"level": "info", "message": f"Printed job {record.id} ({name})"}
                )
    touched.add(record.printer)
    store.save_job(record)
    store.log_many([("job", record.id, [(due, entry) for entry in entries])])
    return True


def wake(store: Store, printer: str, now_ms: int) -> None:
    """Let the jobs resting in ``WaitProcessing`` for ``printer`` try again now."""
    for job in store.jobs_where(printer=printer, statuses=(S.WAITPROCESSING,)):
        if job.due_ms is None:
            job.due_ms = now_ms
            store.save_job(job)


def sync_printers(store: Store, names: set[str] | None = None) -> None:
    """Bring printers' ``runtime`` (status, current job, queue length) in line with their jobs."""
    with store.lock:
        queued = store.count_jobs("printer", "status = 'WaitProcessing'")
        printing = dict(store.jobs_in_status(S.PROCESSING))
        for printer in store.printers():
            name = printer["_id"]
            if names is not None and name not in names:
                continue
            runtime = printer.setdefault("runtime", {})
            before = dict(runtime)
            current = printing.get(name, "")
            runtime["currentPrintingJob"] = current
            runtime["queuedJobs"] = queued.get(name, 0)
            if runtime.get("status", "idle") in _READY:
                runtime["status"] = "printing" if current else "idle"
            if runtime != before:
                store.save_printer(printer)
