"""Rendering: tables (rich), JSON, JSON Lines and CSV on stdout; progress and messages on stderr.

Records are the server's documents (``model.to_dict()``). Columns are field paths as OData writes them
(``current/printerName``). JSON and CSV carry the server's values unchanged (times in epoch ms); tables
show times as UTC.
"""

from __future__ import annotations

import csv
import enum
import json
import os
import re
import sys
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Final, TextIO

from rich.console import Console, Group, RenderableType
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table
from rich.text import Text

from printmgmt.fields import epoch_ms_text, is_epoch_ms

__all__ = [
    "Column",
    "Format",
    "Writer",
    "cell",
    "columns_for",
    "err_console",
    "fit",
    "header",
    "lookup",
    "message",
    "open_writer",
    "out_console",
    "print_table",
    "progress",
    "table_of",
    "widths",
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

    Off a terminal, tables get their natural width instead of 80 columns (nothing is cut), unless ``COLUMNS``
    is set: then they fit that width, as on a terminal of that size.
    """
    console = Console(file=sys.stdout)
    if not console.is_terminal and fitted_width(console) is None:
        console.width = 10_000
    return console


def fitted_width(console: Console) -> int | None:
    """The width output is fitted to: a terminal's, or ``COLUMNS`` when set (rich reads it); None for a pipe
    without ``COLUMNS`` (natural width)."""
    if console.is_terminal:
        return console.width
    columns = os.environ.get("COLUMNS", "")
    return console.width if columns.isdigit() and int(columns) > 0 else None


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
    """The text of one value: lists joined, objects as JSON, times as UTC when ``human`` (and JSON with a space
    after each comma and colon, where a table wraps it)."""
    if value is None:
        return ""
    if human and _is_time(path) and isinstance(value, int | float) and not isinstance(value, bool):
        return epoch_ms_text(value)  # none for 0, as sent when it cannot be a date
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, list) and all(isinstance(item, str | int | float) for item in value):
        return ", ".join(str(item) for item in value)
    if isinstance(value, dict | list):
        return json.dumps(value, ensure_ascii=False, separators=(", ", ": ") if human else (",", ":"))
    return str(value)


@dataclass(frozen=True, slots=True)
class Column:
    """A column of a table for people.

    ``rank``: who stays when the terminal is narrow (0 first; columns are dropped from the highest rank).
    ``wraps``: long text (a message), which wraps over several lines and gets the room the others leave.
    ``cut``: long text kept on one line (a job name in a list meant to be scanned), cut short with "…" when
    the room is short. Any other column (an id, a status, a printer's name, a time) is shown whole or not at
    all, and a column left out is named in the caption. ``extra``: only on a terminal with room to spare (or
    ``--wide``), not in pipes.
    """

    path: str
    rank: int = 0
    wraps: bool = False
    extra: bool = False
    cut: bool = False

    @property
    def flexible(self) -> bool:
        """Whether the column gives up room: it wraps or is cut."""
        return self.wraps or self.cut


#: The narrowest a wrapping or cut column is squeezed to before a column of a higher rank is dropped instead.
WRAP_MIN: Final = 10
#: The longest word a wrapping column keeps whole (longer ones, such as a URL, are folded over lines).
WORD_MAX: Final = 30
#: What rich adds per column (a space each side, a border between columns) and once per table (one border
#: fewer than columns: tables have no outer edge, which leaves two more columns to the cells).
_PER_COLUMN: Final = 3
_PER_TABLE: Final = -1
#: The last parts of the paths whose values are never wrapped nor cut (keys, statuses, printers' names).
WHOLE: Final = frozenset({"_id", "id", "key", "refId", "status", "printerName", "redirectedTo", "currentPrintingJob"})


def columns_for(select: str | None, default: Sequence[Column], columns: Sequence[str] | None = None) -> list[Column]:
    """Columns of a listing: the ``--columns`` paths, else ``_id`` and the ``--select`` paths, else ``default``.

    Chosen columns rank in the order given (the first stays longest on a narrow terminal); one that
    ``default`` cuts is cut, any other wraps (a time on two lines) unless it is a key, a status or a
    printer's name (:data:`WHOLE`)."""
    if columns:
        chosen = list(columns)
    elif select:
        paths = [path.strip() for path in select.split(",") if path.strip()]
        chosen = ["_id", *(path for path in paths if path != "_id")]
    else:
        return list(default)
    known = {column.path: column for column in default}

    def column(rank: int, path: str) -> Column:
        cut = path in known and known[path].cut
        return Column(path, rank=rank, cut=cut, wraps=not cut and path.rsplit("/", 1)[-1] not in WHOLE)

    return [column(rank, path) for rank, path in enumerate(chosen)]


def _natural(column: Column, texts: Sequence[str]) -> int:
    return max([len(header(column.path)), *(len(text) for text in texts)])


def _needed(column: Column, texts: Sequence[str]) -> int:
    """The width ``column`` needs: its widest cell or header; when it is cut, at most :data:`WRAP_MIN`; when
    it wraps, its longest word too (up to :data:`WORD_MAX`), so that words wrap whole."""
    natural = _natural(column, texts)
    if column.cut:
        return min(natural, WRAP_MIN)
    if column.wraps:
        longest = max((len(word) for text in texts for word in text.split()), default=0)
        return min(natural, max(WRAP_MIN, min(longest, WORD_MAX)))
    return natural


def fit(columns: Sequence[Column], rows: Sequence[Mapping[str, str]], width: int | None) -> list[Column]:
    """The columns to show of ``rows`` (cell texts by path) in ``width`` terminal columns: by rank, as many
    as fit whole (flexible ones at :data:`WRAP_MIN`), in their declared order. ``width=None`` (not a
    terminal): every column but the extras, at natural width."""
    if width is None:
        return [column for column in columns if not column.extra]
    chosen: set[int] = set()
    # squeezed: how much the flexible columns chosen were narrowed; an extra comes only if they need not be
    used, squeezed, dropped = _PER_TABLE, 0, False
    for index in sorted(range(len(columns)), key=lambda i: columns[i].rank):
        column = columns[index]
        texts = [row[column.path] for row in rows]
        need = _needed(column, texts) + _PER_COLUMN
        if column.extra and (dropped or used + need + squeezed > width):
            continue
        if used + need <= width:
            chosen.add(index)
            used += need
            if column.flexible:
                squeezed += _natural(column, texts) + _PER_COLUMN - need
        else:
            dropped = True
    return [column for index, column in enumerate(columns) if index in chosen]


def widths(columns: Sequence[Column], rows: Sequence[Mapping[str, str]], width: int) -> dict[str, int]:
    """The width of each of ``columns`` (as :func:`fit` chose them) in ``width`` terminal columns: the others
    their natural width, the flexible ones what they need and a share of what is left, up to their natural
    width (those that lack least served first)."""
    texts = {column.path: [row[column.path] for row in rows] for column in columns}
    natural = {column.path: _natural(column, texts[column.path]) for column in columns}
    found = {column.path: _needed(column, texts[column.path]) for column in columns}
    room = width - _PER_TABLE - _PER_COLUMN * len(columns) - sum(found.values())
    flexible = sorted((column for column in columns if column.flexible), key=lambda c: natural[c.path] - found[c.path])
    for left, column in zip(range(len(flexible), 0, -1), flexible, strict=True):
        more = max(min(natural[column.path] - found[column.path], room // left), 0)
        found[column.path] += more
        room -= more
    return found


def table_of(
    columns: Sequence[Column],
    rows: Sequence[Mapping[str, str]],
    width: int | None,
    *,
    wide: bool | None = None,
    note: str | None = None,
) -> RenderableType:
    """A rich table of ``rows`` (cell texts by path) fitted to ``width`` (see :func:`fit`): ids, statuses,
    names and times whole, long text wrapped or cut with "…"; below it a caption of ``note`` and of what is
    not shown or cut, as wide as the terminal (not the table, which may be narrow).

    ``width=None``: every column at its natural width (a pipe, or ``--wide`` when ``wide`` is True: the extras
    too). ``wide=False``: the command has ``--wide``, which the caption then points to."""
    shown = list(columns) if width is None and wide else fit(columns, rows, width)
    sizes = None if width is None else widths(shown, rows, width)
    table = Table(header_style="bold", show_edge=False)
    cut_short = False
    for column in shown:
        if sizes is None:
            table.add_column(header(column.path), no_wrap=True)
            continue
        size = sizes[column.path]
        if column.cut:
            table.add_column(header(column.path), width=size, no_wrap=True, overflow="ellipsis")
            cut_short = cut_short or any(len(row[column.path]) > size for row in rows)
        else:
            table.add_column(header(column.path), width=size, no_wrap=not column.wraps, overflow="fold")
    for row in rows:
        table.add_row(*(Text(row[column.path]) for column in shown))
    notes = []
    hidden = [header(column.path) for column in columns if column not in shown and not column.extra]
    if hidden:
        notes.append(f"not shown for want of room: {', '.join(hidden)}")
    if cut_short:
        notes.append("… marks text cut short")
    if notes:
        notes[-1] += " (--wide shows everything)" if wide is False else " (-o csv or json shows everything)"
    caption = "; ".join([note, *notes] if note else notes)
    return Group(table, Text(caption, style="table.caption")) if caption else table


#: Headers for people of the columns the commands show by default (others: see :func:`header`).
HEADERS: Final[Mapping[str, str]] = {
    "_id": "ID",
    "current/printerName": "Printer",
    "current/copies": "Copies",
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
    text = words[:1].upper() + words[1:]  # a field may be named "" or "_"
    return f"{text} (UTC)" if _is_time(path) else text


def _flatten(record: Record, prefix: str = "") -> Iterable[tuple[str, Any]]:
    for key, value in record.items():
        path = f"{prefix}{key}"
        if isinstance(value, Mapping) and value:
            yield from _flatten(value, f"{path}/")
        else:
            yield path, value


class Writer:
    """Writes records one at a time to stdout."""

    def write(self, record: Record) -> None:
        raise NotImplementedError

    def note(self, text: str) -> None:
        """Say something about the records (a table's caption; other formats leave it out)."""

    def close(self) -> None:
        raise NotImplementedError


class _JsonArray(Writer):
    """One JSON array, streamed one record per line; left unterminated if the listing fails."""

    def __init__(self, out: TextIO) -> None:
        self._out, self._count = out, 0

    def write(self, record: Record) -> None:
        self._out.write(("[\n  " if self._count == 0 else ",\n  ") + json.dumps(record, ensure_ascii=False))
        self._count += 1

    def close(self) -> None:
        self._out.write("\n]\n" if self._count else "[]\n")


class _JsonLines(Writer):
    def __init__(self, out: TextIO) -> None:
        self._out = out

    def write(self, record: Record) -> None:
        self._out.write(json.dumps(record, ensure_ascii=False) + "\n")

    def close(self) -> None:
        self._out.flush()


class _Csv(Writer):
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


class _Table(Writer):
    """A table for people: rows are collected and the table, fitted to the terminal, printed when closed.

    ``wide``: as for :func:`table_of`; True shows every column whole whatever the terminal's width."""

    def __init__(self, columns: Sequence[Column], wide: bool | None) -> None:
        self._columns = columns
        self._wide = wide
        self._rows: list[dict[str, str]] = []
        self._note: str | None = None

    def write(self, record: Record) -> None:
        self._rows.append({c.path: cell(c.path, lookup(record, c.path), human=True) for c in self._columns})

    def note(self, text: str) -> None:
        self._note = text

    def close(self) -> None:
        if not self._rows:
            message("no results")
            return
        width = None if self._wide else fitted_width(out_console())
        table = table_of(self._columns, self._rows, width, wide=self._wide, note=self._note)
        print_table(table, whole=bool(self._wide))


def print_table(table: RenderableType, *, whole: bool = False) -> None:
    """``table`` (or any renderable) on stdout, fitted to :func:`fitted_width`; off a terminal without the
    padding rich adds to the end of each line; ``whole`` (or a pipe without ``COLUMNS``): lines as long as they
    need, which a terminal wraps."""
    console = out_console()
    if console.is_terminal and not whole:
        console.print(table)
        return
    if whole or fitted_width(console) is None:
        console.width = 10_000
    with console.capture() as captured:
        console.print(table)
    sys.stdout.write("".join(_TRAILING.sub(r"\1", line) + "\n" for line in captured.get().splitlines()))


#: The spaces at the end of a line, before any style codes that close it (kept: the terminal needs them).
_TRAILING: Final = re.compile(r"\s+((?:\x1b\[[0-9;]*m)*)$")


def open_writer(fmt: Format, columns: Sequence[Column | str], *, wide: bool | None = None) -> Writer:
    """A writer of ``fmt`` on the current stdout; CSV has every column but the extras, a table those that fit
    (``wide``: see :func:`table_of`)."""
    specs = [column if isinstance(column, Column) else Column(column) for column in columns]
    if fmt is Format.json:
        return _JsonArray(sys.stdout)
    if fmt is Format.jsonl:
        return _JsonLines(sys.stdout)
    if fmt is Format.csv:
        return _Csv(sys.stdout, [column.path for column in specs if not column.extra])
    return _Table(specs, wide)


def write_one(record: Record, fmt: Format) -> None:
    """One document: a two-column field/value table, a JSON object, one JSON line or a one-row CSV."""
    if fmt is Format.json:
        sys.stdout.write(json.dumps(record, ensure_ascii=False, indent=2) + "\n")
    elif fmt is Format.table:
        table = Table(show_header=False, box=None)
        table.add_column("field", no_wrap=True)
        # a long value (a job's stages as JSON) is folded over lines, never cut: the whole document is there
        table.add_column("value", overflow="fold")
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
