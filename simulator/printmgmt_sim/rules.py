"""What the actions on jobs and printers do, and when they are refused with 412 Precondition Failed.

The interface shows no rules; these follow the product's statuses and the SDK's documented
expectations (pausing a paused job fails, a finished job cannot be canceled, ...).

Jobs (``PUT /v3/jobs/{id}/<action>``)::

    action  allowed when                          then                              412 when
    ------  ------------------------------------  --------------------------------  ----------------------------
    pause   Added, WaitPreProcessing,             Paused (remembering whether it    Paused ("already paused");
            PreProcessing, PostponedPre-          was converted yet)                Processing, Accounting
            Processing, ProcessingRemote,                                           ("being printed"); Error,
            WaitProcessing, Postponed                                               Processed, Canceled ("ended")
    resume  Paused                                WaitPreProcessing if paused       any other status
                                                  before conversion, else           ("not paused")
                                                  WaitProcessing
    cancel  any status but Accounting,            Canceled                          Accounting, Processed
            Processed, Canceled                                                     ("already printed");
                                                                                    Canceled ("already canceled")
    repeat  Processed, Canceled, Error            WaitProcessing (same job, a       any other status, Paused
                                                  ``repeat`` stage added)           included ("still active")
    move    the target printer exists and is      ``current.printerName`` set;      the target is missing, empty
            not the job's printer; any status     Error and Postponed jobs go       or unknown, or is the job's
            but Processing, Accounting,           back to WaitProcessing            printer; the job is printing
            Processed, Canceled                                                     or finished

``DELETE`` removes a job and its log in any status; ``tempfiles`` marks its stage files as kept
(``keepTempFiles: true``) in any status.

Printers (``PUT /v3/printers/{name}/<action>``)::

    action    allowed when                        then                              412 when
    --------  ----------------------------------  --------------------------------  ----------------------------
    pause     ``runtime.status`` is not paused    ``paused``: the printing job      already paused
                                                  finishes, the queue waits
    resume    ``runtime.status`` is paused        ``idle`` (``printing`` while a    not paused
                                                  job prints)
    redirect  the target exists, is not the       ``runtime.redirectedTo`` set;     the target is missing, empty
              printer itself and does not lead    waiting jobs (WaitProcessing,     or unknown; the printer
              back to it through its own          Postponed) and later arrivals     itself; a redirect loop
              redirects                           go to the target

``message`` sets or clears ``runtime.message``; ``runtime`` merges fields into ``runtime`` (an empty
``redirectedTo`` ends a redirect); ``checkPhysical`` stores device data in ``physical``;
``createTestJob`` adds a ``Test page`` job for the printer (or its redirect target). ``POST`` and
``PUT`` store a printer document (``POST`` with an existing name replaces it, like an import);
``DELETE`` removes the printer but not its jobs. None of these has a precondition.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from typing import Any, Final

from printmgmt.models import JobStatus as S

from .draws import Draws
from .lifecycle import first_due, job_rng, redirect_target, status_entry, sync_printers, wake
from .model import Doc, add_stage, new_job, set_current
from .store import JobRecord, Store

__all__ = ["Env", "RuleViolation"]

_PAUSABLE: Final = frozenset(
    {
        S.ADDED,
        S.WAITPREPROCESSING,
        S.PREPROCESSING,
        S.POSTPONEDPREPROCESSING,
        S.PROCESSINGREMOTE,
        S.WAITPROCESSING,
        S.POSTPONED,
    }
)
_PRINTING: Final = frozenset({S.PROCESSING, S.ACCOUNTING})
_ENDED: Final = frozenset({S.ERROR, S.PROCESSED, S.CANCELED})
_REPEATABLE: Final = frozenset({S.PROCESSED, S.CANCELED, S.ERROR})
_UNMOVABLE: Final = frozenset({S.PROCESSING, S.ACCOUNTING, S.PROCESSED, S.CANCELED})
_BEFORE_CONVERSION: Final = frozenset({S.ADDED, S.WAITPREPROCESSING, S.PREPROCESSING, S.POSTPONEDPREPROCESSING})


class RuleViolation(Exception):
    """The action's precondition does not hold (412 Precondition Failed)."""

    def __init__(self, message: str, **metadata: Any) -> None:
        super().__init__(message)
        self.message = message
        self.metadata = metadata


@dataclass(frozen=True, slots=True)
class Env:
    """What an action works with: the state, the simulated time, the run's seed and who acts."""

    store: Store
    now_ms: int
    seed: int
    actor: str

    # -- jobs --------------------------------------------------------------------------------------

    def pause_job(self, job: JobRecord) -> Doc:
        status = job.status
        if status == S.PAUSED:
            raise RuleViolation("Job is already paused.", status=status)
        if status in _PRINTING:
            raise RuleViolation("Job is being printed and cannot be paused.", status=status)
        if status not in _PAUSABLE:
            raise RuleViolation(f"Job has ended (status {status}) and cannot be paused.", status=status)
        job.resume_status = S.WAITPREPROCESSING if status in _BEFORE_CONVERSION else S.WAITPROCESSING
        return self._change(job, S.PAUSED, f"Job paused by {self.actor}")

    def resume_job(self, job: JobRecord) -> Doc:
        if job.status != S.PAUSED:
            raise RuleViolation(f"Job is not paused (status {job.status}).", status=job.status)
        target = job.resume_status or S.WAITPROCESSING
        job.resume_status = None
        return self._change(job, target, f"Job resumed by {self.actor}")

    def cancel_job(self, job: JobRecord) -> Doc:
        if job.status == S.CANCELED:
            raise RuleViolation("Job is already canceled.", status=job.status)
        if job.status in (S.ACCOUNTING, S.PROCESSED):
            raise RuleViolation(f"Job has already been printed (status {job.status}).", status=job.status)
        job.resume_status = None
        return self._change(job, S.CANCELED, f"Job canceled by {self.actor}")

    def repeat_job(self, job: JobRecord) -> Doc:
        if job.status not in _REPEATABLE:
            raise RuleViolation(
                f"Job is still active (status {job.status}); only ended jobs can be repeated.", status=job.status
            )
        fmt = str(job.doc.get("current", {}).get("fileFormat", "application/octet-stream"))
        add_stage(job_rng(self.seed, job), job.doc, created_by="repeat", mime_type=fmt, at_ms=self.now_ms)
        return self._change(job, S.WAITPROCESSING, f"Job repeated by {self.actor}")

    def move_job(self, job: JobRecord, printer: str) -> Doc:
        if self.store.printer(printer) is None:
            raise RuleViolation(f"Printer '{printer}' does not exist.", printerName=printer)
        if printer == job.printer:
            raise RuleViolation(f"Job is already on printer '{printer}'.", printerName=printer)
        if job.status in _UNMOVABLE:
            state = "is being printed" if job.status in _PRINTING else "has finished"
            raise RuleViolation(f"Job {state} (status {job.status}) and cannot be moved.", status=job.status)
        previous = job.printer
        set_current(job.doc, printerName=printer)
        message = f"Job moved from {previous} to {printer} by {self.actor}"
        if job.status in (S.ERROR, S.POSTPONED):
            return self._change(job, S.WAITPROCESSING, message, also=previous)
        if job.status == S.WAITPROCESSING:
            job.due_ms = first_due(S.WAITPROCESSING, self.now_ms, job_rng(self.seed, job))
        self._save(job, message, also=previous)
        return {"message": message, "status": job.status}

    def delete_job(self, job: JobRecord) -> Doc:
        self.store.delete_job(job.id)
        sync_printers(self.store, {job.printer})
        return {"message": f"Job {job.id} deleted."}

    def keep_tempfiles(self, job: JobRecord) -> Doc:
        job.doc["keepTempFiles"] = True
        self._save(job, f"Temporary files kept on request of {self.actor}")
        return {"message": f"The temporary files of job {job.id} are kept.", "status": job.status}

    def _change(self, job: JobRecord, status: str, message: str, *, also: str | None = None) -> Doc:
        job.doc["status"] = status
        job.steps += 1
        job.due_ms = first_due(status, self.now_ms, job_rng(self.seed, job))
        self._save(job, message, status=status, also=also)
        return {"message": message, "status": status}

    def _save(self, job: JobRecord, message: str, *, status: str | None = None, also: str | None = None) -> None:
        self.store.save_job(job)
        entry = status_entry(status, message=message) if status else {"level": "info", "message": message}
        self.store.log("job", job.id, self.now_ms, entry)
        sync_printers(self.store, {job.printer} | ({also} if also else set()))

    # -- printers ----------------------------------------------------------------------------------

    def store_printer(self, body: Doc, name: str) -> Doc:
        """Create or replace printer ``name``; runtime fields the body leaves out are kept or defaulted."""
        existing = self.store.printer(name)
        runtime: Doc = {"status": "idle", "currentPrintingJob": "", "lastPrintedJobTime": 0, "queuedJobs": 0}
        if existing is not None:
            runtime.update(existing.get("runtime", {}))
        runtime.update(body.get("runtime", {}))
        doc = {**body, "_id": name, "config": {"printer": name, **body.get("config", {})}, "runtime": runtime}
        doc.setdefault("physical", existing.get("physical", {}) if existing else {})
        self._printer_changed(doc, f"Printer {'replaced' if existing else 'created'} by {self.actor}")
        return self.store.printer(name) or doc

    def delete_printer(self, printer: Doc) -> Doc:
        """Remove a printer; its jobs stay (they wait until moved), as MongoDB does not cascade."""
        self.store.delete_printer(printer["_id"])
        return {"message": f"Printer {printer['_id']} deleted."}

    def pause_printer(self, printer: Doc) -> Doc:
        runtime = printer.setdefault("runtime", {})
        if runtime.get("status") == "paused":
            raise RuleViolation("Printer is already paused.", status="paused")
        runtime["status"] = "paused"
        return self._printer_changed(printer, f"Printer paused by {self.actor}")

    def resume_printer(self, printer: Doc) -> Doc:
        runtime = printer.setdefault("runtime", {})
        if runtime.get("status") != "paused":
            raise RuleViolation(
                f"Printer is not paused (status {runtime.get('status')}).", status=runtime.get("status")
            )
        runtime["status"] = "printing" if runtime.get("currentPrintingJob") else "idle"
        return self._printer_changed(printer, f"Printer resumed by {self.actor}")

    def redirect_printer(self, printer: Doc, target: str) -> Doc:
        name = printer["_id"]
        if target == name:
            raise RuleViolation("A printer cannot be redirected to itself.", printerName=target)
        if self.store.printer(target) is None:
            raise RuleViolation(f"Printer '{target}' does not exist.", printerName=target)
        if redirect_target(self.store, target) == name:
            raise RuleViolation(f"Printer '{target}' redirects back to '{name}'.", printerName=target)
        printer.setdefault("runtime", {})["redirectedTo"] = target
        moved = 0
        for job in self.store.jobs_where(printer=name, statuses=(S.WAITPROCESSING, S.POSTPONED)):
            set_current(job.doc, printerName=target)
            if job.due_ms is None:
                job.due_ms = self.now_ms
            self.store.save_job(job)
            self.store.log("job", job.id, self.now_ms, {"level": "info", "message": f"Job redirected to {target}"})
            moved += 1
        sync_printers(self.store, {target})
        return self._printer_changed(printer, f"Printer redirected to {target} by {self.actor} ({moved} jobs moved)")

    def set_message(self, printer: Doc, text: str) -> Doc:
        printer.setdefault("runtime", {})["message"] = text
        return self._printer_changed(printer, f"Operator message set by {self.actor}")

    def clear_message(self, printer: Doc) -> Doc:
        printer.setdefault("runtime", {}).pop("message", None)
        return self._printer_changed(printer, f"Operator message cleared by {self.actor}")

    def update_runtime(self, printer: Doc, changes: Doc) -> Doc:
        runtime = printer.setdefault("runtime", {})
        runtime.update(changes)
        if runtime.get("redirectedTo") == "":
            del runtime["redirectedTo"]
        return self._printer_changed(
            printer, f"Runtime changed by {self.actor}: {', '.join(sorted(changes)) or 'nothing'}"
        )

    def check_physical(self, printer: Doc) -> Doc:
        config = printer.get("config", {})
        kind = config.get("type", {}) if isinstance(config.get("type"), dict) else {}
        digest = hashlib.sha256(str(printer["_id"]).encode()).digest()
        status = printer.get("runtime", {}).get("status", "idle")
        printer["physical"] = {
            "printer-name": printer["_id"],
            "printer-make-and-model": f"{kind.get('manufacturer', 'Generic')} {kind.get('model', 'Printer')}".strip(),
            "printer-state": {"idle": "idle", "printing": "processing"}.get(status, "stopped"),
            "printer-is-accepting-jobs": status in ("idle", "printing"),
            "marker-names": ["Black"],
            "marker-levels": [digest[0] * 100 // 255],
            "media-ready": ["iso_a4_210x297mm"],
            "checkedAt": self.now_ms,
        }
        self._printer_changed(printer, f"Device checked by {self.actor}")
        return {"message": f"Printer {printer['_id']} checked.", "status": printer["physical"]["printer-state"]}

    def create_test_job(self, printer: Doc) -> Doc:
        target = redirect_target(self.store, printer["_id"])
        draws = Draws(self.seed, "testjob", target, self.now_ms, self.store.version)
        doc = new_job(
            draws,
            checkin_ms=self.now_ms,
            user=self.actor,
            job_name="Test page",
            file_name="testpage.ps",
            printer=target,
            status=S.WAITPROCESSING,
            mime_type="application/postscript",
            checkin_type="rest",
            source_host="seal-rest",
            creator="seal-rest",
            file_size=4_096,
        )
        job = JobRecord(doc, due_ms=first_due(S.WAITPROCESSING, self.now_ms, draws("due")), steps=1)
        self.store.save_job(job)
        self.store.log(
            "job", job.id, self.now_ms, status_entry(S.WAITPROCESSING, message=f"Test job created by {self.actor}")
        )
        sync_printers(self.store, {target})
        self.store.log(
            "printer", printer["_id"], self.now_ms, {"level": "info", "message": f"Test job {job.id} created"}
        )
        return {"message": f"Test job {job.id} created.", "status": S.WAITPROCESSING, "jobId": job.id}

    def _printer_changed(self, printer: Doc, message: str) -> Doc:
        self.store.save_printer(printer)
        wake(self.store, printer["_id"], self.now_ms)
        self.store.log("printer", printer["_id"], self.now_ms, {"level": "info", "message": message})
        sync_printers(self.store, {printer["_id"]})
        status = (self.store.printer(printer["_id"]) or printer).get("runtime", {}).get("status")
        return {"message": message, "status": status} if isinstance(status, str) else {"message": message}
