"""What a person looks at first: the short repr of a job or printer and the HTML views of models, pages and bulk
results in Jupyter (``_repr_html_``).

A document is summed up by its :data:`SUMMARY` paths: its key, its status, where and when. The generated
models call the views registered here (``printmgmt_api.types.VIEWS``; the generated package imports nothing of
the SDK), which happens when the SDK's request path loads. Times are shown as UTC dates, and the whole
document stays one click away (an HTML ``<details>`` holding its JSON).
"""

from __future__ import annotations

import html
import json
from collections.abc import Iterable, Mapping, Sequence
from enum import Enum
from typing import Any, Final

from printmgmt_api.types import VIEWS, Unset

from .fields import epoch_ms_text, is_epoch_ms

__all__ = ["SUMMARY", "bulk_html", "field_at", "model_html", "page_html", "short_repr", "summary_paths", "value_at"]

#: The fields that sum a document up, by model, as wire paths: key, status, where, when. The short repr, the
#: HTML views and ``to_pandas()``'s first columns show these. Other models are summed up by their fields of
#: one value (strings, numbers) or a list of such values, in the document's order.
SUMMARY: Final[Mapping[str, tuple[str, ...]]] = {
    "Job": ("_id", "status", "current/printerName", "current/jobName", "current/checkinTime"),
    "Printer": ("_id", "runtime/status", "runtime/queuedJobs", "runtime/redirectedTo", "runtime/lastPrintedJobTime"),
}
#: The fields a short repr shows: a job's key, status, printer and check-in time.
_REPR: Final[Mapping[str, tuple[str, ...]]] = {
    "Job": ("_id", "status", "current/printerName", "current/checkinTime"),
    "Printer": ("_id", "runtime/status", "runtime/queuedJobs"),
}
#: Columns of a page's table beyond the summary are not shown: the raw documents are one click away.
_GENERIC_COLUMNS: Final = 6
#: A page's view stays small whatever its size (a notebook keeps every output): the rows of the first items, the
#: raw documents of fewer still, each cut to a bound; one item's whole document is ``page[i]``'s view.
_ROWS: Final = 50
_RAW_DOCUMENTS: Final = 3
_RAW_CHARACTERS: Final = 10_000
_CELL_CHARACTERS: Final = 200
_MISSING: Final[Any] = object()


def value_at(document: Mapping[str, Any], path: str) -> Any:
    """The value at a wire path (``current/printerName``), or a marker object when absent."""
    value: Any = document
    for part in path.split("/"):
        if not isinstance(value, Mapping) or part not in value:
            return _MISSING
        value = value[part]
    return value


def field_at(model: Any, path: str) -> Any:
    """The value at a wire path as the model reads it (a status in its known spelling; the wire value for a
    field the model does not declare), or a marker object when absent."""
    value: Any = model
    parts = path.split("/")
    for index, part in enumerate(parts):
        names = {wire: name for name, wire in getattr(type(value), "WIRE_NAMES", {}).items()}
        if part not in names:  # not declared: as sent
            return value_at(_document(value), "/".join(parts[index:])) if hasattr(value, "to_dict") else _MISSING
        value = getattr(value, names[part])
        if isinstance(value, Unset):
            return _MISSING
    if isinstance(value, Enum):
        return str.__str__(value) if isinstance(value, str) else value.value
    return value


def _scalar(value: Any) -> bool:
    return isinstance(value, str | int | float | bool) or value is None


def summary_paths(name: str, documents: Iterable[Mapping[str, Any]]) -> list[str]:
    """The summary of the model called ``name``, or for another model the fields of one value (or a list of
    them) found in ``documents``, at most a few."""
    if name in SUMMARY:
        return list(SUMMARY[name])
    paths: dict[str, None] = {}
    for document in documents:
        for key, value in document.items():
            if _scalar(value) or (isinstance(value, list) and all(_scalar(item) for item in value)):
                paths.setdefault(key)
    declared = list(getattr(type_of(name), "WIRE_NAMES", {}).values())
    # the declared fields first, in the spec's order; then the ones the SDK does not know
    ordered = sorted(paths, key=lambda path: declared.index(path) if path in declared else len(declared))
    return ordered[:_GENERIC_COLUMNS]


def type_of(name: str) -> type[Any] | None:
    """The generated model called ``name``, if any."""
    import printmgmt_api.models as models

    found = getattr(models, name, None)
    return found if isinstance(found, type) else None


def text(path: str, value: Any) -> str:
    """A value as a person reads it: times as UTC dates (none for 0, as sent when not a date), lists joined,
    objects as JSON."""
    if value is _MISSING or value is None:
        return ""
    if is_epoch_ms(path):
        return epoch_ms_text(value)
    if isinstance(value, list) and all(_scalar(item) for item in value):
        return ", ".join(str(item) for item in value)
    if isinstance(value, dict | list):
        return json.dumps(value, ensure_ascii=False)
    return str(value)


def _label(path: str) -> str:
    """``current/checkinTime`` -> ``checkin_time``, ``_id`` -> ``id``: the Python field's name."""
    last = path.rsplit("/", 1)[-1].lstrip("_")
    return "".join(f"_{char.lower()}" if char.isupper() else char for char in last)


def _document(model: Any) -> dict[str, Any]:
    document = model.to_dict()
    return document if isinstance(document, dict) else {}


def short_repr(model: Any) -> str | None:
    """``Job(id='677b…', status='Error', printer_name='PRT-MUC-01', checkin_time=2025-01-06 08:00:00Z, …)``: the
    fields a person looks for, ``…`` when the document holds more; ``None`` for models without a short form."""
    paths = _REPR.get(type(model).__name__)
    if paths is None:
        return None
    document = _document(model)
    shown = []
    for path in paths:
        value = field_at(model, path)
        shown_value = text(path, value)
        if not shown_value and (is_epoch_ms(path) or value is _MISSING or value is None):
            continue  # absent, or a time of 0 (the server's "never")
        if not is_epoch_ms(path) or isinstance(value, str):  # text, and a time sent as text
            shown_value = repr(shown_value)
        shown.append(f"{_label(path)}={shown_value}")
    if len(_leaves(document)) > len(shown):
        shown.append("\u2026")
    return f"{type(model).__name__}({', '.join(shown)})"


def _leaves(document: Mapping[str, Any]) -> list[str]:
    leaves = []
    for key, value in document.items():
        if isinstance(value, Mapping) and value:
            leaves += [f"{key}/{leaf}" for leaf in _leaves(value)]
        else:
            leaves.append(key)
    return leaves


def _table(headers: Sequence[str], rows: Iterable[Sequence[str]]) -> str:
    head = "".join(f"<th>{html.escape(header)}</th>" for header in headers)
    body = "".join("<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>" for row in rows)
    return f'<table class="printmgmt"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


def _raw(document: Any, summary: str = "raw document", *, limit: int | None = None) -> str:
    dumped = json.dumps(document, indent=2, ensure_ascii=False)
    if limit is not None and len(dumped) > limit:
        dumped = dumped[:limit] + f"\n\u2026 ({len(dumped) - limit:,} more characters)"
    return f"<details><summary>{html.escape(summary)}</summary><pre>{html.escape(dumped)}</pre></details>"


def _cut(value: str) -> str:
    return value if len(value) <= _CELL_CHARACTERS else value[: _CELL_CHARACTERS - 1] + "\u2026"


def _header(path: str) -> str:
    label = _label(path).replace("_", " ")
    return f"{label} (UTC)" if is_epoch_ms(path) else label


def model_html(model: Any) -> str:
    """A model in a notebook: its summary fields as a two-column table, the whole document under a
    ``<details>``."""
    document = _document(model)
    paths = summary_paths(type(model).__name__, [document])
    rows = [
        (html.escape(_header(path)), html.escape(text(path, field_at(model, path))))
        for path in paths
        if field_at(model, path) is not _MISSING
    ]
    name = html.escape(type(model).__name__)
    return f"<div><strong>{name}</strong>{_table(('field', 'value'), rows)}{_raw(document)}</div>"


def _rows_html(items: Sequence[Any], caption: str) -> str:
    shown = items[:_ROWS]
    documents = [_document(item) for item in shown]
    name = type(items[0]).__name__ if items else ""
    paths = summary_paths(name, documents)
    rows = [[html.escape(_cut(text(path, field_at(item, path)))) for path in paths] for item in shown]
    if len(items) > len(shown):
        more = f"\u2026 {len(items) - len(shown)} more rows: page[i], or page.to_pandas() for all"
        rows.append([html.escape(more), *([""] * (len(paths) - 1))])
    raw = ""
    if documents:
        few = documents[:_RAW_DOCUMENTS]
        label = (
            f"raw documents ({len(few)} of {len(items)}; one item's: page[i])"
            if len(items) > len(few)
            else (f"raw documents ({len(few)})")
        )
        raw = _raw(few, label, limit=_RAW_CHARACTERS * len(few))
    return f"<div>{html.escape(caption)}{_table([_header(path) for path in paths], rows)}{raw}</div>"


def page_html(page: Any) -> str:
    """A page in a notebook: one row per item with its summary fields, the documents under a ``<details>``."""
    of = f" of {page.total}" if page.total is not None else ""
    first = page.skip + 1 if page.items else page.skip
    return _rows_html(page.items, f"Page: items {first}\u2013{page.next_skip}{of}")


def bulk_html(result: Any) -> str:
    """A bulk result in a notebook: the counts, then one row per key with its outcome and the server's reason."""
    counts = ", ".join(f"{len(getattr(result, status))} {status}" for status in ("done", "refused", "failed"))
    rows = [
        (html.escape(outcome.key), html.escape(outcome.status.value), html.escape(outcome.reason or ""))
        for outcome in result
    ]
    return f"<div>BulkResult: {html.escape(counts)}{_table(('key', 'status', 'reason'), rows)}</div>"


VIEWS.update(repr=short_repr, html=model_html)
