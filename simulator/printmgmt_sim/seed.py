"""Reproducible demo data: printers, jobs in every documented status, flows, configuration and logs.

The same seed and sizes always give the same documents (ids included), and each field of each document draws
from its own stream (:mod:`~printmgmt_sim.draws`): a field added to the spec leaves every other value as it
was. Resting jobs (processed, canceled, failed, paused) checked in during the 7 days before the clock's start;
active jobs in the last 15 minutes, with their next automatic step a little after the start.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

from printmgmt.models import JobStatus as S

from .draws import Draws
from .lifecycle import first_due, status_entry, sync_printers
from .model import RESTING, SERVICE_OF, Doc, add_stage, new_job, new_printer
from .settings import Settings
from .store import JobRecord, Store

__all__ = ["job_logs", "seed_store", "seeded_job"]

_DAY_MS: Final = 86_400_000

#: Share of seeded jobs per status (``Processing`` is added per idle printer), dealt out in turn.
_STATUS_WEIGHTS: Final[dict[str, int]] = {
    S.PROCESSED: 62,
    S.ERROR: 8,
    S.CANCELED: 6,
    S.PAUSED: 4,
    S.WAITPROCESSING: 5,
    S.POSTPONED: 2,
    S.ACCOUNTING: 1,
    S.ADDED: 1,
    S.WAITPREPROCESSING: 4,
    S.PREPROCESSING: 2,
    S.POSTPONEDPREPROCESSING: 1,
    S.PROCESSINGREMOTE: 1,
}
#: The statuses a job passed through to reach each status (after check-in).
_PATHS: Final[dict[str, tuple[str, ...]]] = {
    S.ADDED: (),
    S.WAITPREPROCESSING: (S.WAITPREPROCESSING,),
    S.PREPROCESSING: (S.WAITPREPROCESSING, S.PREPROCESSING),
    S.POSTPONEDPREPROCESSING: (S.WAITPREPROCESSING, S.PREPROCESSING, S.POSTPONEDPREPROCESSING),
    S.PROCESSINGREMOTE: (S.WAITPREPROCESSING, S.PREPROCESSING, S.PROCESSINGREMOTE),
    S.WAITPROCESSING: (S.WAITPREPROCESSING, S.PREPROCESSING, S.WAITPROCESSING),
    S.PROCESSING: (S.WAITPREPROCESSING, S.PREPROCESSING, S.WAITPROCESSING, S.PROCESSING),
    S.POSTPONED: (S.WAITPREPROCESSING, S.PREPROCESSING, S.WAITPROCESSING, S.PROCESSING, S.POSTPONED),
    S.ACCOUNTING: (S.WAITPREPROCESSING, S.PREPROCESSING, S.WAITPROCESSING, S.PROCESSING, S.ACCOUNTING),
    S.PROCESSED: (
        S.WAITPREPROCESSING,
        S.PREPROCESSING,
        S.WAITPROCESSING,
        S.PROCESSING,
        S.ACCOUNTING,
        S.PROCESSED,
    ),
}
_CONVERTED: Final = frozenset({S.WAITPROCESSING, S.PROCESSING, S.POSTPONED, S.ACCOUNTING, S.PROCESSED})
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
    start = settings.start_ms
    printers = list(_printers(settings.seed, settings.printers, start))
    with store.transaction():
        for printer in printers:
            store.save_printer(printer)
        store.log_many(_printer_logs(printers, start))
        for name, kind, source in _FLOWS:
            store.save_flow({"name": name, "type": kind, "source": source})
        store.set_config(_CONFIG)
        jobs = list(_jobs(settings, printers))
        store.insert_jobs(record for record, _ in jobs)
        store.log_many(("job", record.id, list(job_logs(record, path))) for record, path in jobs)
        sync_printers(store)


def _printers(seed: int, count: int, start: int) -> Iterator[Doc]:
    names = ["printer1", "Lobby Color 1"]
    names += [f"PRT-{_SITES[i % len(_SITES)]}-{i // len(_SITES) + 1:02d}" for i in range(count - len(names))]
    for index, name in enumerate(names[:count]):
        draws = Draws(seed, "printer", index)
        model, maker = _MODELS[draws("config/type").randrange(len(_MODELS))]
        host = name.lower().replace(" ", "-")
        connection = (
            f"socket://{host}:9100",
            f"ipp://{host}.corp.example:631/ipp/print",
            f"lpr://{host}.corp.example/queue",
        )[index % 3]
        printer = new_printer(name, draws, time_ms=start, connection=connection, model=model, manufacturer=maker)
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


def _jobs(settings: Settings, printers: list[Doc]) -> Iterator[tuple[JobRecord, tuple[str, ...]]]:
    start = settings.start_ms
    plans = [Draws(settings.seed, "plan", i) for i in range(settings.jobs)]
    names = [p["_id"] for p in printers]
    idle = [p["_id"] for p in printers if p["runtime"]["status"] == "idle"]
    # one printing job on some idle printers, then the rest in their shares; oldest check-in first
    planned: list[tuple[str, str]] = [(S.PROCESSING, printer) for printer in idle[: min(len(idle) // 3, settings.jobs)]]
    shares = _in_shares(_STATUS_WEIGHTS)
    planned += [(next(shares), plans[i]("printer").choice(names)) for i in range(len(planned), settings.jobs)]
    times = []
    for i, (status, _) in enumerate(planned):
        ago = (1_000, 15 * 60_000) if status not in RESTING else (15 * 60_000, 7 * _DAY_MS)
        times.append(start - plans[i]("checkinTime").randint(*ago))
    order = sorted(range(len(planned)), key=lambda i: times[i])
    for serial, i in enumerate(order):
        status, printer = planned[i]
        yield seeded_job(Draws(settings.seed, "job", serial), serial, status, printer, times[i], start)


def _in_shares(weights: dict[str, int]) -> Iterator[str]:
    """The keys of ``weights`` in their shares at every length (smooth weighted round robin): even a small seed has
    a job in each status its share allows."""
    credit = dict.fromkeys(weights, 0)
    total = sum(weights.values())
    while True:
        for key, weight in weights.items():
            credit[key] += weight
        chosen = max(credit, key=credit.__getitem__)
        credit[chosen] -= total
        yield chosen


def seeded_job(
    draws: Draws, serial: int, status: str, printer: str, checkin: int, start: int
) -> tuple[JobRecord, tuple[str, ...]]:
    """A seeded job in ``status`` and the statuses it passed through; ``draws`` are its streams."""
    formats = draws("fileFormat")
    mime, ext = formats.choices([(mime, ext) for mime, ext, _ in _FORMATS], [weight for *_, weight in _FORMATS])[0]
    checkin_type, creator = _CHECKINS[draws("checkinType").randrange(len(_CHECKINS))]
    names = draws("jobName")
    template = _JOB_NAMES[names.randrange(len(_JOB_NAMES))]
    job_name = template.format(n=1000 + serial, q=names.randint(1, 4), year=2024, month=names.choice(_MONTHS))
    base = job_name.lower().replace(" ", "-").replace("'", "")
    doc = new_job(
        draws,
        checkin_ms=checkin,
        user=draws("userName").choice(_OWNERS),
        job_name=job_name,
        file_name=f"docs/{base}.{ext}",
        printer=printer,
        status=status,
        mime_type=mime,
        checkin_type=checkin_type,
        source_host=f"ws-{draws('sourceHost').randint(1, 240):03d}.corp.example",
        creator=creator,
        copies=draws("copies").choice((1, 1, 1, 1, 2, 3)),
        file_size=draws("fileSize").randint(2_000, 4_000_000),
        pages=draws("pagesFromFileContent").randint(1, 24),
    )
    resume: str | None = None
    path: tuple[str, ...]
    if status in (S.ERROR, S.CANCELED, S.PAUSED):
        stop = draws("path").choice((S.PREPROCESSING, S.WAITPROCESSING, S.PROCESSING))
        path = (*_PATHS[stop], status)
        if status == S.PAUSED:
            resume = S.WAITPREPROCESSING if stop == S.PREPROCESSING else S.WAITPROCESSING
    else:
        path = _PATHS[status]
    converted = any(step in _CONVERTED for step in path)
    if converted and mime != "application/postscript":
        stage = draws("stages")
        add_stage(stage, doc, created_by="convert-pdf2ps", mime_type="application/postscript", at_ms=checkin + 2_500)
    record = JobRecord(doc, due_ms=first_due(status, start, draws("due")), steps=len(path), resume_status=resume)
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
            "service": SERVICE_OF[S.ADDED],
            "status": S.ADDED,
        },
    )
    for status in path:
        time += 1_500
        message = None
        if status == S.ERROR:
            message = "Printer did not answer: connection refused"
        elif status == S.PROCESSED:
            message = f"Job printed on {current['printerName']} ({current['pagesFromFileContent']} pages)"
        elif status in (S.PAUSED, S.CANCELED):
            message = f"Job {status.lower()} by {current['userName']}"
        yield time, status_entry(status, message=message)
