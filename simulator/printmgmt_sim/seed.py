"""Reproducible demo data: printers, jobs in every documented status, flows, configuration and logs.

The same seed and sizes always give the same documents (ids included). Resting jobs (processed,
canceled, failed, paused) checked in during the 7 days before the clock's start; active jobs in the last
15 minutes, with their next automatic step a little after the start.
"""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Final

from .lifecycle import first_due, status_entry, sync_printers
from .model import RESTING, SERVICE_OF, Doc, add_stage, new_job, new_printer
from .settings import Settings
from .store import JobRecord, Store

__all__ = ["job_logs", "seed_store", "seeded_job"]

_DAY_MS: Final = 86_400_000

#: Share of seeded jobs per status (``Processing`` is added per idle printer).
_STATUS_WEIGHTS: Final = {
    "Processed": 62,
    "Error": 8,
    "Canceled": 6,
    "Paused": 4,
    "WaitProcessing": 5,
    "Postponed": 2,
    "Accounting": 1,
    "Added": 1,
    "WaitPreProcessing": 4,
    "PreProcessing": 2,
    "PostponedPreProcessing": 1,
    "ProcessingRemote": 1,
}
#: The statuses a job passed through to reach each status (after check-in).
_PATHS: Final = {
    "Added": (),
    "WaitPreProcessing": ("WaitPreProcessing",),
    "PreProcessing": ("WaitPreProcessing", "PreProcessing"),
    "PostponedPreProcessing": ("WaitPreProcessing", "PreProcessing", "PostponedPreProcessing"),
    "ProcessingRemote": ("WaitPreProcessing", "PreProcessing", "ProcessingRemote"),
    "WaitProcessing": ("WaitPreProcessing", "PreProcessing", "WaitProcessing"),
    "Processing": ("WaitPreProcessing", "PreProcessing", "WaitProcessing", "Processing"),
    "Postponed": ("WaitPreProcessing", "PreProcessing", "WaitProcessing", "Processing", "Postponed"),
    "Accounting": ("WaitPreProcessing", "PreProcessing", "WaitProcessing", "Processing", "Accounting"),
    "Processed": (
        "WaitPreProcessing",
        "PreProcessing",
        "WaitProcessing",
        "Processing",
        "Accounting",
        "Processed",
    ),
}
_CONVERTED: Final = frozenset({"WaitProcessing", "Processing", "Postponed", "Accounting", "Processed"})
_SITES: Final = ("BER", "HAM", "MUC", "FRA", "CGN", "STR")
_MODELS: Final = (
    ("LaserJet M607", "HP"),
    ("Color LaserJet M751", "HP"),
    ("imageRUNNER C5840i", "Canon"),
    ("bizhub C450i", "Konica Minolta"),
    ("MX-M3071", "Sharp"),
    ("TASKalfa 4054ci", "Kyocera"),
    ("DesignJet T1700", "HP"),
)
_OWNERS: Final = (
    "tol",
    "jdoe",
    "amueller",
    "bschmidt",
    "cschneider",
    "dfischer",
    "eweber",
    "fmeyer",
    "gwagner",
    "hbecker",
    "ischulz",
    "jhoffmann",
    "kkoch",
    "lrichter",
    "mklein",
    "nwolf",
    "oschroeder",
    "pneumann",
    "qschwarz",
    "rzimmermann",
    "sbraun",
    "tkrueger",
    "uhofmann",
    "vhartmann",
    "sapbatch",
    "svc-erp",
)
_JOB_NAMES: Final = (
    "Invoice {n}",
    "Delivery note {n}",
    "Report Q{q} {year}",
    "Payslip {month}",
    "Label batch {n}",
    "Contract {n}",
    "Inventory list {n}",
    "Letter to O'Brien",
    "Meeting notes {n}",
    "Picking list {n}",
)
_MONTHS: Final = ("January", "February", "March", "April", "May", "June", "July", "August", "September")
_FORMATS: Final = (
    ("application/pdf", "pdf", 60),
    ("application/postscript", "ps", 20),
    ("application/vnd.hp-pcl", "pcl", 10),
    ("text/plain", "txt", 10),
)
_CHECKINS: Final = (("lpr", "lp"), ("ipp", "Microsoft Word"), ("rest", "easyPRIMA"), ("sap", "SAP R/3"))
_MAIN_FLOW: Final = """def main(job) {
  await preconvert(job);
  await format(job);
  await render(job);
  await postconvert(job);
}
"""
_FLOWS: Final = (
    ("main", "standard", _MAIN_FLOW),
    ("preconvert", "standard", "def preconvert(job) {\n  // detect the input format\n}\n"),
    ("format", "standard", "def format(job) {\n  // page size, orientation, copies\n}\n"),
    ("render", "standard", "def render(job) {\n  // convert to the printer's language\n}\n"),
    ("postconvert", "standard", "def postconvert(job) {\n  // accounting data\n}\n"),
    (
        "before_render",
        "custom",
        "def before_render(job) {\n  job.current.copies = Math.max(1, job.current.copies);\n}\n",
    ),
)
_CONFIG: Final = {
    "any": {"LOG_LEVEL": "info", "AUTH_CLOCK_TOLERANCE": "30", "ID_PROVIDER_NAME": "seal-keycloak"},
    "seal-rest": {"PORT": "8080", "TLS_DIR": "/opt/seal/etc/tls"},
    "seal-controller": {"PRINTER_MONITOR_MODE": "NEVER"},
    "seal-housekeeper": {"CANCELED_LIFETIME": "24h", "PROCESSED_LIFETIME": "24h", "ERROR_LIFETIME": "3d"},
}


def seed_store(store: Store, settings: Settings) -> None:
    """Fill an empty store with the demo deployment described by ``settings``."""
    rng = random.Random(settings.seed)
    start = settings.start_ms
    printers = list(_printers(rng, settings.printers))
    with store.transaction():
        for printer in printers:
            store.save_printer(printer)
        store.log_many(_printer_logs(printers, start))
        for name, kind, source in _FLOWS:
            store.save_flow({"name": name, "type": kind, "source": source})
        store.set_config(_CONFIG)
        jobs = list(_jobs(rng, settings, printers))
        store.insert_jobs(record for record, _ in jobs)
        store.log_many(("job", record.id, list(job_logs(record, path))) for record, path in jobs)
        sync_printers(store)


def _printers(rng: random.Random, count: int) -> Iterator[Doc]:
    names = ["printer1", "Lobby Color 1"]
    names += [f"PRT-{_SITES[i % len(_SITES)]}-{i // len(_SITES) + 1:02d}" for i in range(count - len(names))]
    for index, name in enumerate(names[:count]):
        model, maker = _MODELS[rng.randrange(len(_MODELS))]
        host = name.lower().replace(" ", "-")
        connection = (
            f"socket://{host}:9100",
            f"ipp://{host}.corp.example:631/ipp/print",
            f"lpr://{host}.corp.example/queue",
        )[index % 3]
        printer = new_printer(name, connection=connection, model=model, manufacturer=maker)
        if index in (5, 11):
            printer["runtime"]["status"] = "paused"
        if index == 7:
            printer["runtime"]["message"] = "Toner low: order a new cartridge"
        if index == 0:
            printer["config"]["nativeQueue"] = False
        yield printer


def _printer_logs(printers: list[Doc], start: int) -> Iterator[tuple[str, str, list[tuple[int, Doc]]]]:
    for printer in printers:
        entries = [(start - 30 * _DAY_MS, {"level": "info", "message": "Printer imported by easyPRIMA"})]
        if printer["runtime"]["status"] == "paused":
            entries.append((start - _DAY_MS, {"level": "info", "message": "Printer paused by seal-admin"}))
        yield "printer", printer["_id"], entries


def _jobs(rng: random.Random, settings: Settings, printers: list[Doc]) -> Iterator[tuple[JobRecord, tuple[str, ...]]]:
    start = settings.start_ms
    names = [p["_id"] for p in printers]
    idle = [p["_id"] for p in printers if p["runtime"]["status"] == "idle"]
    statuses = list(_STATUS_WEIGHTS)
    weights = list(_STATUS_WEIGHTS.values())
    # one printing job on some idle printers, then the rest by weight; oldest check-in first
    planned = [("Processing", printer) for printer in idle[: min(len(idle) // 3, settings.jobs)]]
    planned += [(rng.choices(statuses, weights)[0], rng.choice(names)) for _ in range(settings.jobs - len(planned))]
    times = []
    for status, _ in planned:
        if status not in RESTING:
            times.append(start - rng.randint(1_000, 15 * 60_000))
        else:
            times.append(start - rng.randint(15 * 60_000, 7 * _DAY_MS))
    order = sorted(range(len(planned)), key=lambda i: times[i])
    for serial, i in enumerate(order):
        status, printer = planned[i]
        yield seeded_job(rng, serial, status, printer, times[i], start)


def seeded_job(
    rng: random.Random, serial: int, status: str, printer: str, checkin: int, start: int
) -> tuple[JobRecord, tuple[str, ...]]:
    """A seeded job in ``status`` and the statuses it passed through."""
    mime, ext = rng.choices([(mime, ext) for mime, ext, _ in _FORMATS], [weight for *_, weight in _FORMATS])[0]
    checkin_type, creator = _CHECKINS[rng.randrange(len(_CHECKINS))]
    template = _JOB_NAMES[rng.randrange(len(_JOB_NAMES))]
    job_name = template.format(n=1000 + serial, q=rng.randint(1, 4), year=2024, month=rng.choice(_MONTHS))
    base = job_name.lower().replace(" ", "-").replace("'", "")
    doc = new_job(
        rng,
        checkin_ms=checkin,
        user=rng.choice(_OWNERS),
        job_name=job_name,
        file_name=f"docs/{base}.{ext}",
        printer=printer,
        status=status,
        mime_type=mime,
        checkin_type=checkin_type,
        source_host=f"ws-{rng.randint(1, 240):03d}.corp.example",
        creator=creator,
        copies=rng.choice((1, 1, 1, 1, 2, 3)),
        file_size=rng.randint(2_000, 4_000_000),
        pages=rng.randint(1, 24),
    )
    resume: str | None = None
    path: tuple[str, ...]
    if status in ("Error", "Canceled", "Paused"):
        stop = rng.choice(("PreProcessing", "WaitProcessing", "Processing"))
        path = (*_PATHS[stop], status)
        if status == "Paused":
            resume = "WaitPreProcessing" if stop == "PreProcessing" else "WaitProcessing"
    else:
        path = _PATHS[status]
    converted = any(step in _CONVERTED for step in path)
    if converted and mime != "application/postscript":
        add_stage(rng, doc, created_by="convert-pdf2ps", mime_type="application/postscript", at_ms=checkin + 2_500)
    record = JobRecord(doc, due_ms=first_due(status, start, rng), steps=len(path), resume_status=resume)
    return record, path


def job_logs(record: JobRecord, path: tuple[str, ...]) -> Iterator[tuple[int, Doc]]:
    current = record.doc["current"]
    time = current["checkinTime"]
    yield (
        time,
        {
            "level": "info",
            "message": f"Job checked in from {current['sourceHost']} via {current['checkinType']}"
            f" ({current['fileName']}, {current['fileSize']} bytes)",
            "service": SERVICE_OF["Added"],
            "status": "Added",
        },
    )
    for status in path:
        time += 1_500
        message = None
        if status == "Error":
            message = "Printer did not answer: connection refused"
        elif status == "Processed":
            message = f"Job printed on {current['printerName']} ({current['pagesFromFileContent']} pages)"
        elif status in ("Paused", "Canceled"):
            message = f"Job {status.lower()} by {current['userName']}"
        yield time, status_entry(status, message=message)
