"""The simulator's state in SQLite: job, printer and flow documents as JSON, the configuration, and logs.

Documents are stored whole (``doc``, JSON). A few job fields are copied into columns (status, printer, owner,
check-in time) for statistics and queues, and the job's place in its automatic life (``due_ms``, ``steps``,
``resume_status``) lives in columns so it never shows in the API's documents.

List queries (:meth:`Store.find`) run on a copy of the job and printer documents as MongoDB holds them (see
:mod:`printmgmt_sim.engine`): job keys are ObjectIds (``job_ids=objectid``) or the same hex text as
strings (``job_ids=string``); the JSON documents always carry the hex text, as ``JSON.stringify`` of an
ObjectID writes it. The copy is built on first use and kept in step with every write.

One connection, guarded by a re-entrant lock: the server thread and test code may both use a store.
"""

from __future__ import annotations

import json
import re
import sqlite3
import threading
from collections import OrderedDict
from collections.abc import Iterable, Iterator, Mapping, Sequence
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any, Final, Literal

from bson import ObjectId
from printmgmt_cli.profile import JobIds

from .engine import Find, matcher, order, project, window
from .model import Doc

__all__ = ["Collection", "JobIds", "JobRecord", "Store"]

Collection = Literal["jobs", "printers"]
#: How job keys are stored for queries: MongoDB's default ObjectIds, or strings.

_SCHEMA: Final = """
CREATE TABLE jobs (
    rowid INTEGER PRIMARY KEY,
    id TEXT NOT NULL UNIQUE,
    status TEXT,
    printer TEXT,
    user_name TEXT,
    checkin_ms INTEGER,
    doc TEXT NOT NULL,
    due_ms INTEGER,
    steps INTEGER NOT NULL DEFAULT 0,
    resume_status TEXT
);
CREATE INDEX jobs_due ON jobs (due_ms) WHERE due_ms IS NOT NULL;
CREATE INDEX jobs_printer_status ON jobs (printer, status);
CREATE TABLE printers (rowid INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, doc TEXT NOT NULL);
CREATE TABLE flows (rowid INTEGER PRIMARY KEY, id TEXT NOT NULL UNIQUE, doc TEXT NOT NULL);
CREATE TABLE config (one INTEGER PRIMARY KEY CHECK (one = 1), doc TEXT NOT NULL);
CREATE TABLE events (
    seq INTEGER PRIMARY KEY,
    kind TEXT NOT NULL,
    target TEXT NOT NULL,
    time_ms INTEGER NOT NULL,
    entries TEXT NOT NULL
);
CREATE INDEX events_target ON events (kind, target, seq);
"""

_EVERYTHING: Final = Find()
_HEX24: Final = re.compile(r"[0-9a-fA-F]{24}")
#: How many distinct list queries keep their ordered match list between writes.
_CACHE_SIZE: Final = 16


@dataclass(slots=True)
class JobRecord:
    """A job document plus its simulator-only lifecycle state."""

    doc: Doc
    due_ms: int | None = None
    steps: int = 0
    resume_status: str | None = None

    @property
    def id(self) -> str:
        return str(self.doc["_id"])

    @property
    def status(self) -> str:
        return str(self.doc.get("status", ""))

    @property
    def printer(self) -> str:
        return str(self.doc.get("current", {}).get("printerName", ""))

    def _row(self) -> tuple[Any, ...]:
        current = self.doc.get("current", {})
        return (
            self.id,
            self.status,
            self.printer,
            current.get("userName"),
            current.get("checkinTime"),
            _dumps(self.doc),
            self.due_ms,
            self.steps,
            self.resume_status,
        )


class Store:
    """All state of one simulator."""

    def __init__(self, database: str = ":memory:") -> None:
        self.lock = threading.RLock()
        self._db = sqlite3.connect(database, check_same_thread=False, isolation_level=None)
        self._db.executescript(_SCHEMA)
        #: Increases with every write; list-query caches are only valid for one version.
        self.version = 0
        self._cache: OrderedDict[tuple[Any, ...], list[str]] = OrderedDict()
        self._cache_version = -1
        #: The documents as the query engine sees them, by key in natural order (built on first use).
        self._mirrors: dict[Collection, dict[str, Doc]] = {}
        self._job_ids = JobIds.OBJECTID

    def close(self) -> None:
        with self.lock:
            self._db.close()

    @contextmanager
    def transaction(self) -> Iterator[None]:
        """Group writes (atomic, and much faster for bulk inserts)."""
        with self.lock:
            if self._db.in_transaction:
                yield
                return
            self._db.execute("BEGIN")
            try:
                yield
            except BaseException:
                self._db.execute("ROLLBACK")
                self._mirrors.clear()
                raise
            self._db.execute("COMMIT")

    def _write(self, sql: str, params: Iterable[Any] = ()) -> int:
        with self.lock:
            self.version += 1
            return self._db.execute(sql, tuple(params)).rowcount

    # -- jobs --------------------------------------------------------------------------------------

    _JOB_COLUMNS: Final = "doc, due_ms, steps, resume_status"

    def job(self, job_id: str) -> JobRecord | None:
        with self.lock:
            row = self._db.execute(f"SELECT {self._JOB_COLUMNS} FROM jobs WHERE id = ?", (job_id,)).fetchone()
        return _job(row) if row else None

    def save_job(self, record: JobRecord) -> None:
        """Insert or replace a job (by ``_id``), keeping its row position when it exists."""
        row = record._row()
        self._mirror_put("jobs", record.id, row[5])
        self._write(
            "INSERT INTO jobs (id, status, printer, user_name, checkin_ms, doc, due_ms, steps, resume_status)"
            " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) ON CONFLICT (id) DO UPDATE SET status = excluded.status,"
            " printer = excluded.printer, user_name = excluded.user_name, checkin_ms = excluded.checkin_ms,"
            " doc = excluded.doc, due_ms = excluded.due_ms, steps = excluded.steps,"
            " resume_status = excluded.resume_status",
            row,
        )

    def insert_jobs(self, records: Iterable[JobRecord]) -> None:
        with self.transaction():
            self.version += 1
            rows = [record._row() for record in records]
            self._db.executemany(
                "INSERT INTO jobs (id, status, printer, user_name, checkin_ms, doc, due_ms, steps, resume_status)"
                " VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                rows,
            )
            for row in rows:
                self._mirror_put("jobs", row[0], row[5])

    def delete_job(self, job_id: str) -> bool:
        with self.transaction():
            self._write("DELETE FROM events WHERE kind = 'job' AND target = ?", (job_id,))
            self._mirrors.get("jobs", {}).pop(job_id, None)
            return self._write("DELETE FROM jobs WHERE id = ?", (job_id,)) > 0

    def due_jobs(self, now_ms: int, limit: int) -> list[JobRecord]:
        """Jobs whose next automatic step is due, earliest first."""
        with self.lock:
            rows = self._db.execute(
                f"SELECT {self._JOB_COLUMNS} FROM jobs WHERE due_ms <= ? ORDER BY due_ms, rowid LIMIT ?",
                (now_ms, limit),
            ).fetchall()
        return [_job(row) for row in rows]

    def jobs_where(self, *, printer: str, statuses: Iterable[str]) -> list[JobRecord]:
        """The jobs of ``printer`` in any of ``statuses``, oldest first."""
        wanted = list(statuses)
        marks = ", ".join("?" * len(wanted))
        with self.lock:
            rows = self._db.execute(
                f"SELECT {self._JOB_COLUMNS} FROM jobs WHERE printer = ? AND status IN ({marks}) ORDER BY rowid",
                (printer, *wanted),
            ).fetchall()
        return [_job(row) for row in rows]

    def jobs_in_status(self, status: str) -> list[tuple[str, str]]:
        """``(printer, job id)`` of every job in ``status``, oldest first."""
        with self.lock:
            rows = self._db.execute(
                "SELECT printer, id FROM jobs WHERE status = ? ORDER BY rowid", (status,)
            ).fetchall()
        return [(str(printer), str(job_id)) for printer, job_id in rows]

    def printing_until(self) -> dict[str, int]:
        """For each printer printing a job, when that job's printing step is due (epoch ms)."""
        with self.lock:
            rows = self._db.execute("SELECT printer, due_ms FROM jobs WHERE status = 'Processing'").fetchall()
        return {str(printer): int(due) if due is not None else 0 for printer, due in rows}

    def count_jobs(
        self, group_by: Literal["status", "printer"], where: str = "1", params: Iterable[Any] = ()
    ) -> dict[str, int]:
        """Job counts grouped by a column; ``where`` is SQL over the job columns."""
        with self.lock:
            rows = self._db.execute(
                f"SELECT {group_by}, count(*) FROM jobs WHERE {where} GROUP BY {group_by}", tuple(params)
            ).fetchall()
        return {str(key): int(count) for key, count in rows if key is not None}

    def job_times(self, where: str = "1", params: Iterable[Any] = ()) -> list[int]:
        """Check-in times (epoch ms) of the jobs matching ``where``."""
        with self.lock:
            rows = self._db.execute(
                f"SELECT checkin_ms FROM jobs WHERE checkin_ms IS NOT NULL AND {where}", tuple(params)
            ).fetchall()
        return [int(row[0]) for row in rows]

    # -- printers and flows (small collections of plain documents) ---------------------------------

    def printer(self, name: str) -> Doc | None:
        return self._get("printers", name)

    def printers(self) -> list[Doc]:
        return self._all("printers")

    def save_printer(self, doc: Doc) -> None:
        self._put("printers", doc["_id"], doc)

    def delete_printer(self, name: str) -> bool:
        with self.transaction():
            self._write("DELETE FROM events WHERE kind = 'printer' AND target = ?", (name,))
            self._mirrors.get("printers", {}).pop(name, None)
            return self._write("DELETE FROM printers WHERE id = ?", (name,)) > 0

    def flow(self, name: str) -> Doc | None:
        return self._get("flows", name)

    def flows(self) -> list[Doc]:
        return self._all("flows")

    def save_flow(self, doc: Doc) -> None:
        self._put("flows", doc["name"], doc)

    def delete_flow(self, name: str) -> bool:
        return self._write("DELETE FROM flows WHERE id = ?", (name,)) > 0

    def _get(self, table: str, key: str) -> Doc | None:
        with self.lock:
            row = self._db.execute(f"SELECT doc FROM {table} WHERE id = ?", (key,)).fetchone()
        return json.loads(row[0]) if row else None

    def _all(self, table: str) -> list[Doc]:
        with self.lock:
            rows = self._db.execute(f"SELECT doc FROM {table} ORDER BY rowid").fetchall()
        return [json.loads(row[0]) for row in rows]

    def _put(self, table: Literal["printers", "flows"], key: str, doc: Doc) -> None:
        text = _dumps(doc)
        if table == "printers":
            self._mirror_put(table, key, text)
        self._write(
            f"INSERT INTO {table} (id, doc) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET doc = excluded.doc",
            (key, text),
        )

    # -- configuration -----------------------------------------------------------------------------

    def config(self) -> Doc:
        with self.lock:
            row = self._db.execute("SELECT doc FROM config").fetchone()
        return json.loads(row[0]) if row else {}

    def set_config(self, doc: Mapping[str, Any]) -> None:
        self._write(
            "INSERT INTO config (one, doc) VALUES (1, ?) ON CONFLICT (one) DO UPDATE SET doc = excluded.doc",
            (_dumps(dict(doc)),),
        )

    # -- logs --------------------------------------------------------------------------------------

    def log(self, kind: Literal["job", "printer"], target: str, time_ms: int, entry: Mapping[str, Any]) -> None:
        """Append a log entry (``{level, message, ...}``, stamped with ``time``) of a job or printer."""
        self.log_many([(kind, target, [(time_ms, entry)])])

    def log_many(self, batches: Iterable[tuple[str, str, Sequence[tuple[int, Mapping[str, Any]]]]]) -> None:
        """Append ``(kind, target, [(time_ms, entry), ...])`` batches; a batch is stored as one row."""
        with self.lock:
            self._db.executemany(
                "INSERT INTO events (kind, target, time_ms, entries) VALUES (?, ?, ?, ?)",
                (
                    (kind, target, entries[0][0], _dumps([{"time": time, **entry} for time, entry in entries]))
                    for kind, target, entries in batches
                    if entries
                ),
            )

    def logs(self, kind: Literal["job", "printer"], target: str) -> list[Doc]:
        """The log entries of a job or printer, oldest first."""
        with self.lock:
            rows = self._db.execute(
                "SELECT entries FROM events WHERE kind = ? AND target = ? ORDER BY time_ms, seq", (kind, target)
            ).fetchall()
        entries = [entry for row in rows for entry in json.loads(row[0])]
        entries.sort(key=lambda entry: entry.get("time", 0))
        return entries

    # -- list queries ------------------------------------------------------------------------------

    def find(
        self,
        collection: Collection,
        query: Find = _EVERYTHING,
        *,
        job_ids: JobIds = JobIds.OBJECTID,
        cap: int | None = None,
    ) -> tuple[list[Doc], int]:
        """One window of the documents ``query`` finds (MongoDB's rules), and how many it finds in total.

        ``cap`` limits the window like a server-side page limit. The ordered match list is cached until the
        next write, so paging through a large result matches and sorts once. Raises
        :class:`~printmgmt_sim.engine.QueryRejected` where MongoDB refuses the query.
        """
        key = (collection, job_ids, repr(query.filter), tuple(query.sort))
        with self.lock:
            if self._cache_version != self.version:
                self._cache.clear()
                self._cache_version = self.version
            ids = self._cache.get(key)
            if ids is None:
                match = matcher(query.filter, max_depth=query.max_depth)
                found = [(doc_id, doc) for doc_id, doc in self._mirror(collection, job_ids).items() if match(doc)]
                ids = order(found, query.sort) if query.sort else [doc_id for doc_id, _ in found]
                self._cache[key] = ids
                if len(self._cache) > _CACHE_SIZE:
                    self._cache.popitem(last=False)
            else:
                self._cache.move_to_end(key)
            page = ids[window(len(ids), query.skip, query.limit, cap)]
            rows = self._db.execute(
                f"SELECT id, doc FROM {collection} WHERE id IN (SELECT value FROM json_each(?))", (json.dumps(page),)
            ).fetchall()
        by_id = dict(rows)
        docs = [json.loads(by_id[doc_id]) for doc_id in page if doc_id in by_id]
        if query.projection is not None:
            docs = [project(doc, query.projection) for doc in docs]
        return docs, len(ids)

    def _mirror(self, collection: Collection, job_ids: JobIds) -> dict[str, Doc]:
        if job_ids != self._job_ids:
            self._mirrors.pop("jobs", None)
            self._job_ids = job_ids
        mirror = self._mirrors.get(collection)
        if mirror is None:
            rows = self._db.execute(f"SELECT id, doc FROM {collection} ORDER BY rowid").fetchall()
            mirror = self._mirrors[collection] = {key: self._engine_doc(collection, text) for key, text in rows}
        return mirror

    def _mirror_put(self, collection: Collection, key: str, text: str) -> None:
        with self.lock:
            mirror = self._mirrors.get(collection)
            if mirror is not None:
                mirror[key] = self._engine_doc(collection, text)

    def _engine_doc(self, collection: Collection, text: str) -> Doc:
        doc: Doc = json.loads(text)
        key = doc.get("_id")
        if collection == "jobs" and self._job_ids == JobIds.OBJECTID and isinstance(key, str) and _HEX24.fullmatch(key):
            doc["_id"] = ObjectId(key)
        return doc


def _job(row: tuple[Any, ...]) -> JobRecord:
    doc, due_ms, steps, resume_status = row
    return JobRecord(json.loads(doc), due_ms=due_ms, steps=steps, resume_status=resume_status)


_ENCODER: Final = json.JSONEncoder(ensure_ascii=False, separators=(",", ":"))


def _dumps(doc: Any) -> str:
    return _ENCODER.encode(doc)
