"""Rendering: tables (rich), JSON, JSON Lines and CSV on stdout; progress and messages on stderr.

Records are the server's documents (``model.to_dict()``). Columns are field paths as OData writes them
(``current/printerName``). JSON and CSV carry the server's values unchanged (times in epoch ms); tables
show times as UTC.
"""

from __future__ import annotations

import csv
import enum
import json
import re
import sys
from collections.abc import Iterable, Mapping, Sequence
from typing import Any, Final, Protocol, TextIO

from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from ..fields import is_epoch_ms

__all__ = [
    "Format",
    "Writer",
    "cell",
    "columns_for",
    "err_console",
    "header",
    "lookup",
    "message",
    "open_writer",
    "out_console",
    "print_table",
    "progress",
    "write_one",
]

Record = Mapping[str, Any]


class Format(enum.StrEnum):
    """Output formats."""

    table = "table"
    json = "json"
    jsonl = "jsonl"
    csv = "csv"


def out_console() -> Console:
    """A console on the current stdout (created per use: tests and pipes replace ``sys.stdout``).

    Off a terminal, tables get their natural width instead of 80 columns: nothing is cut.
    """
    console = Console(file=sys.stdout)
    if not console.is_terminal:
        console.width = 10_000
    return console


def err_console() -> Console:
    """A console on the current stderr."""
    return Console(file=sys.stderr)


def message(text: str, *, style: str | None = None) -> None:
    """One line on stderr; ``text`` is printed literally (no rich markup)."""
    err_console().print(Text(text, style=style or ""), soft_wrap=True)


def lookup(record: Record, path: str) -> Any:
    """The value at ``path`` (``a/b/c``) in ``record``, ``None`` when absent."""
    value: Any = record
    for part in path.split("/"):
        if not isinstance(value, Mapping):
            return None
        value = value.get(part)
    return value


def _is_time(path: str) -> bool:
    # the spec's epoch-ms fields, and the bounds of a statistics series (which the spec does not describe)
    return is_epoch_ms(path) or path.rsplit("/", 1)[-1] in ("from", "to")


def cell(path: str, value: Any, *, human: bool) -> str:
    """The text of one value: lists joined, objects as JSON, times as UTC when ``human``."""
    if value is None:
        return ""
    if human and _is_time(path) and isinstance(value, int) and not isinstance(value, bool) and value > 0:
        from ..models import to_datetime  # loaded with the SDK by the time a table is drawn

        return f"{to_datetime(value):%Y-%m-%d %H:%M:%SZ}"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list) and all(isinstance(item, str | int | float) for item in value):
        return ", ".join(str(item) for item in value)
    if isinstance(value, dict | list):
        return json.dumps(value, ensure_ascii=False, separators=(",", ":"))
    return str(value)


def columns_for(select: str | None, default: Sequence[str], columns: str | None = None) -> list[str]:
    """Columns of a listing: the ``--columns`` paths, else ``_id`` and the ``--select`` paths, else ``default``."""
    if columns:
        return [path.strip() for path in columns.split(",") if path.strip()]
    if not select:
        return list(default)
    chosen = [path.strip() for path in select.split(",") if path.strip()]
    return ["_id", *(path for path in chosen if path != "_id")]


#: Headers for people of the columns the commands show by default (others: see :func:`header`).
HEADERS: Final[Mapping[str, str]] = {
    "_id": "ID",
    "current/printerName": "Printer",
    "current/userName": "User",
    "current/jobName": "Job name",
    "runtime/queuedJobs": "Queued",
    "runtime/redirectedTo": "Redirected to",
}


def header(path: str) -> str:
    """A table header for people: ``current/checkinTime`` is ``Checkin time (UTC)``, ``runtime/status``
    ``Status``; CSV and JSON keep the wire paths (they are what ``--select`` and ``--columns`` take)."""
    if path in HEADERS:
        return HEADERS[path]
    last = path.rsplit("/", 1)[-1].lstrip("_")
    words = re.sub(r"(?<=[a-z0-9])(?=[A-Z])", " ", last).lower() or path
    text = words[0].upper() + words[1:]
    return f"{text} (UTC)" if _is_time(path) else text


def _flatten(record: Record, prefix: str = "") -> Iterable[tuple[str, Any]]:
    for key, value in record.items():
        path = f"{prefix}{key}"
        if isinstance(value, Mapping) and value:
            yield from _flatten(value, f"{path}/")
        else:
            yield path, value


class Writer(Protocol):
    """Writes records one at a time to stdout."""

    def write(self, record: Record) -> None: ...
    def note(self, text: str) -> None:
        """Say something about the records (a table's caption; other formats leave it out)."""

    def close(self) -> None: ...


class _Stream:
    """Base of the formats that write each record at once."""

    def note(self, text: str) -> None:
        pass


class _JsonArray(_Stream):
    """One JSON array, streamed one record per line; left unterminated if the listing fails."""

    def __init__(self, out: TextIO) -> None:
        self._out, self._count = out, 0

    def write(self, record: Record) -> None:
        self._out.write(("[\n  " if self._count == 0 else ",\n  ") + json.dumps(record, ensure_ascii=False))
        self._count += 1

    def close(self) -> None:
        self._out.write("\n]\n" if self._count else "[]\n")


class _JsonLines(_Stream):
    def __init__(self, out: TextIO) -> None:
        self._out = out

    def write(self, record: Record) -> None:
        self._out.write(json.dumps(record, ensure_ascii=False) + "\n")

    def close(self) -> None:
        self._out.flush()


class _Csv(_Stream):
    """CSV with a header row, written with the first record (or at the end): not before the first answer."""

    def __init__(self, out: TextIO, columns: Sequence[str]) -> None:
        self._columns = columns
        self._csv = csv.writer(out, lineterminator="\n")
        self._header = False

    def write(self, record: Record) -> None:
        self._write_header()
        self._csv.writerow([cell(path, lookup(record, path), human=False) for path in self._columns])

    def _write_header(self) -> None:
        if not self._header:
            self._csv.writerow(self._columns)
            self._header = True

    def close(self) -> None:
        self._write_header()


class _Table:
    """A rich table: rows are collected and the table printed when closed. Times stay on one line; off a
    terminal the lines carry no trailing padding (pipes, files, ``grep``)."""

    def __init__(self, columns: Sequence[str]) -> None:
        self._columns = columns
        self._table = Table(header_style="bold", caption_justify="left")
        for path in columns:
            self._table.add_column(header(path), no_wrap=_is_time(path))
        self._empty = True

    def write(self, record: Record) -> None:
        row = [cell(path, lookup(record, path), human=True) for path in self._columns]
        key = self._table.columns[0]  # the id: never shortened, so that it can be copied
        key.min_width = max(key.min_width or 0, len(row[0]))
        key.no_wrap = True
        self._table.add_row(*(Text(text) for text in row))
        self._empty = False

    def note(self, text: str) -> None:
        self._table.caption = text

    def close(self) -> None:
        if self._empty:
            message("no results")
        else:
            print_table(self._table)


def print_table(table: Table) -> None:
    """``table`` on stdout; off a terminal without the padding rich adds to the end of each line."""
    console = out_console()
    if console.is_terminal:
        console.print(table)
        return
    with console.capture() as captured:
        console.print(table)
    sys.stdout.write("".join(line.rstrip() + "\n" for line in captured.get().splitlines()))


def open_writer(fmt: Format, columns: Sequence[str]) -> Writer:
    """A writer of ``fmt`` on the current stdout."""
    if fmt is Format.json:
        return _JsonArray(sys.stdout)
    if fmt is Format.jsonl:
        return _JsonLines(sys.stdout)
    if fmt is Format.csv:
        return _Csv(sys.stdout, columns)
    return _Table(columns)


def write_one(record: Record, fmt: Format) -> None:
    """One document: a two-column field/value table, a JSON object, one JSON line or a one-row CSV."""
    if fmt is Format.json:
        sys.stdout.write(json.dumps(record, ensure_ascii=False, indent=2) + "\n")
    elif fmt is Format.table:
        table = Table("field", "value", show_header=False, box=None)
        for path, value in _flatten(record):
            table.add_row(Text(path, style="bold"), Text(cell(path, value, human=True)))
        print_table(table)
    else:
        writer = open_writer(fmt, [path for path, _ in _flatten(record)])
        writer.write(record)
        writer.close()


def progress() -> Progress:
    """A progress bar on stderr (drawn only on a terminal, removed when done)."""
    console = err_console()
    return Progress(
        TextColumn("{task.description}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=console,
        transient=True,
        disable=not console.is_terminal,
    )
