"""Contains some shared types for properties"""

import html
import json
from collections.abc import Callable, Iterable, Mapping, MutableMapping, Sequence
from enum import Enum
from http import HTTPStatus
from itertools import islice
from typing import IO, Any, BinaryIO, Generic, Literal, TypeVar

from attrs import define
from attrs import fields as _attrs_fields

from .field_catalog import epoch_ms_text, is_epoch_ms
from .operations import OperationSpec


class Unset:
    def __bool__(self) -> Literal[False]:
        return False


UNSET: Unset = Unset()

# The types that `httpx.Client(files=)` can accept, copied from that library.
FileContent = IO[bytes] | bytes | str
FileTypes = (
    # (filename, file (or bytes), content_type)
    tuple[str | None, FileContent, str | None]
    # (filename, file (or bytes), content_type, headers)
    | tuple[str | None, FileContent, str | None, Mapping[str, str]]
)
RequestFiles = list[tuple[str, FileTypes]]


@define
class File:
    """Contains information for file uploads"""

    payload: BinaryIO
    file_name: str | None = None
    mime_type: str | None = None

    def to_tuple(self) -> FileTypes:
        """Return a tuple representation that httpx will accept for multipart/form-data"""
        return self.file_name, self.payload, self.mime_type


T = TypeVar("T")


@define
class Response(Generic[T]):
    """A response from an endpoint"""

    status_code: HTTPStatus
    content: bytes
    headers: MutableMapping[str, str]
    parsed: T | None


__all__ = ["UNSET", "File", "FileTypes", "Operation", "Request", "RequestFiles", "Response", "Unset"]


# Reprs of the models without a short form (x-printmgmt-repr) and IPython's text view: unset fields left out,
# enums as their value, long strings, lists and mappings cut, lists of models counted, unknown fields last as one
# **{...}.
_REPR_ITEMS = 4
_REPR_TEXT = 60


def _repr_value(value: Any, depth: int = 0) -> str:
    if isinstance(value, Enum):
        # a string enum shows its string: the known spelling for a known value sent in another case
        value = str.__str__(value) if isinstance(value, str) else value.value
    if isinstance(value, str):
        return repr(value if len(value) <= _REPR_TEXT else value[: _REPR_TEXT - 1] + "\u2026")
    if isinstance(value, list):
        if not value:
            return "[]"
        kinds = {type(item).__name__ for item in value}
        if any(hasattr(item, "__attrs_attrs__") or isinstance(item, (dict, list)) for item in value):
            return f"[<{len(value)} {kinds.pop() if len(kinds) == 1 else 'items'}>]"
        if depth >= 2:
            return f"[<{len(value)} items>]"
        shown = [_repr_value(item, depth + 1) for item in value[:_REPR_ITEMS]]
        if len(value) > _REPR_ITEMS:
            shown.append(f"\u2026 +{len(value) - _REPR_ITEMS}")
        return "[" + ", ".join(shown) + "]"
    if isinstance(value, dict):
        if not value:
            return "{}"
        if depth >= 2:
            return f"{{<{len(value)} keys>}}"
        shown = [f"{key!r}: {_repr_value(item, depth + 1)}" for key, item in islice(value.items(), _REPR_ITEMS)]
        if len(value) > _REPR_ITEMS:
            shown.append(f"\u2026 +{len(value) - _REPR_ITEMS}")
        return "{" + ", ".join(shown) + "}"
    return repr(value)


def _repr_items(model: Any) -> list[tuple[str, Any]]:
    items = [
        (attribute.name + "=", getattr(model, attribute.name))
        for attribute in _attrs_fields(type(model))
        if attribute.name != "additional_properties" and not isinstance(getattr(model, attribute.name), Unset)
    ]
    if getattr(model, "additional_properties", None):
        items.append(("**", model.additional_properties))
    return items


# What a person looks at first. A job or a printer is summed up by the wire paths of its schema's
# x-printmgmt-summary (key, status, where, when), its short repr by the fewer of x-printmgmt-repr; another model by
# its fields of one value. Times show as UTC dates, and the whole document stays one click away (an HTML
# <details> holding its JSON). A table of many models stays small whatever their number (a notebook keeps every
# output): the rows of the first items, the raw documents of fewer still, each cut to a bound.
_GENERIC_COLUMNS = 6
_ROWS = 50
_RAW_DOCUMENTS = 3
_RAW_CHARACTERS = 10_000
_CELL_CHARACTERS = 200
_MISSING: Any = object()


def _value_at(document: Mapping[str, Any], path: str) -> Any:
    value: Any = document
    for part in path.split("/"):
        if not isinstance(value, Mapping) or part not in value:
            return _MISSING
        value = value[part]
    return value


def _field_at(model: Any, path: str) -> Any:
    """The value at a wire path as the model reads it (a status in its known spelling; the wire value for a
    field the model does not declare), or ``_MISSING``."""
    value: Any = model
    parts = path.split("/")
    for index, part in enumerate(parts):
        names = {wire: name for name, wire in getattr(type(value), "WIRE_NAMES", {}).items()}
        if part not in names:  # not declared: as sent
            return _value_at(_document(value), "/".join(parts[index:])) if hasattr(value, "to_dict") else _MISSING
        value = getattr(value, names[part])
        if isinstance(value, Unset):
            return _MISSING
    if isinstance(value, Enum):
        return str.__str__(value) if isinstance(value, str) else value.value
    return value


def _scalar(value: Any) -> bool:
    return isinstance(value, str | int | float | bool) or value is None


def _summary_paths(cls: Any, documents: Iterable[Mapping[str, Any]]) -> list[str]:
    summary: tuple[str, ...] = getattr(cls, "SUMMARY", ())
    if summary:
        return list(summary)
    paths: dict[str, None] = {}
    for document in documents:
        for key, value in document.items():
            if _scalar(value) or (isinstance(value, list) and all(_scalar(item) for item in value)):
                paths.setdefault(key)
    declared = list(getattr(cls, "WIRE_NAMES", {}).values())
    # the declared fields first, in the spec's order; then the ones the spec does not know
    ordered = sorted(paths, key=lambda path: declared.index(path) if path in declared else len(declared))
    return ordered[:_GENERIC_COLUMNS]


def _text(path: str, value: Any) -> str:
    """Times as UTC dates (none for 0, as sent when not a date), lists joined, objects as JSON."""
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


def _leaves(document: Mapping[str, Any]) -> list[str]:
    leaves = []
    for key, value in document.items():
        if isinstance(value, Mapping) and value:
            leaves += [f"{key}/{leaf}" for leaf in _leaves(value)]
        else:
            leaves.append(key)
    return leaves


def _short_repr(model: Any, paths: tuple[str, ...]) -> str:
    """``Job(id='677b…', status='Error', printer_name='PRT-MUC-01', checkin_time=2025-01-06 08:00:00Z, …)``: the
    fields a person looks for, ``…`` when the document holds more."""
    shown = []
    for path in paths:
        value = _field_at(model, path)
        shown_value = _text(path, value)
        if not shown_value and (is_epoch_ms(path) or value is _MISSING or value is None):
            continue  # absent, or a time of 0 (the server's "never")
        if not is_epoch_ms(path) or isinstance(value, str):  # text, and a time sent as text
            shown_value = repr(shown_value)
        shown.append(f"{_label(path)}={shown_value}")
    if len(_leaves(_document(model))) > len(shown):
        shown.append("\u2026")
    return f"{type(model).__name__}({', '.join(shown)})"


def model_repr(model: Any) -> str:
    paths: tuple[str, ...] = getattr(type(model), "REPR_PATHS", ())
    if paths:
        return _short_repr(model, paths)
    return f"{type(model).__name__}({', '.join(label + _repr_value(value) for label, value in _repr_items(model))})"


def html_table(headers: Sequence[str], rows: Iterable[Sequence[str]]) -> str:
    """An HTML table: ``headers`` escaped here, ``rows`` of cells already escaped."""
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


def model_repr_html(model: Any) -> str:
    """Jupyter's view of a model: its summary fields as a two-column table, the whole document under a
    ``<details>``."""
    document = _document(model)
    paths = _summary_paths(type(model), [document])
    rows = [
        (html.escape(_header(path)), html.escape(_text(path, _field_at(model, path))))
        for path in paths
        if _field_at(model, path) is not _MISSING
    ]
    name = html.escape(type(model).__name__)
    return f"<div><strong>{name}</strong>{html_table(('field', 'value'), rows)}{_raw(document)}</div>"


def models_html(items: Sequence[Any], caption: str) -> str:
    """Jupyter's view of models of one kind (a page's items): ``caption``, then one row per model with its
    summary fields, the first documents under a ``<details>``."""
    shown = items[:_ROWS]
    documents = [_document(item) for item in shown]
    paths = _summary_paths(type(items[0]) if items else None, documents)
    rows = [[html.escape(_cut(_text(path, _field_at(item, path)))) for path in paths] for item in shown]
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
    return f"<div>{html.escape(caption)}{html_table([_header(path) for path in paths], rows)}{raw}</div>"


def model_repr_pretty(model: Any, p: Any, cycle: bool) -> None:
    name = type(model).__name__
    if cycle:
        p.text(name + "(...)")
        return
    with p.group(len(name) + 1, name + "(", ")"):
        for index, (label, value) in enumerate(_repr_items(model)):
            if index:
                p.text(",")
                p.breakable()
            if hasattr(value, "_repr_pretty_"):
                with p.indent(len(label)):
                    p.text(label)
                    p.pretty(value)
            else:
                p.text(label + _repr_value(value))


#: What a generated parser raises on a value of another shape; a model's optional field catches these and reads as
#: unset (the wire value is kept), so one odd field never fails a document. ``KeyFieldError`` is not among them.
LENIENT_ERRORS = (TypeError, ValueError, KeyError, AttributeError, IndexError)


class KeyFieldError(Exception):
    """A document's key (a required string field, such as ``_id``) is missing, empty or not a string.

    Not a ``ValueError``: the generated union parsers read ``ValueError`` as "try the next shape", and a bad
    key must not turn a list of jobs into some other shape."""


def require_key(value: Any, name: str, fallback: str | None = None) -> str:
    """``value`` when it is a non-empty string. Keys feed every later call (paths, filters), so a key of
    another type is refused here, while every other field is read leniently."""
    if isinstance(value, str) and value:
        return value
    if value is None:
        also = f" (and so is {fallback!r})" if fallback else ""
        raise KeyFieldError(f"the key field {name!r} is missing or null{also}")
    if isinstance(value, str):
        raise KeyFieldError(f"the key field {name!r} is an empty string")
    raise KeyFieldError(
        f"the key field {name!r} must be a non-empty string, not {type(value).__name__} ({value!r:.60})"
    )


def read_key(document: dict[str, Any], name: str, fallback: str | None = None, *, pop: bool = False) -> str:
    """A document's key: ``name``, or ``fallback`` when ``name`` is missing or null (a key guessed where the
    server may use another, ``x-printmgmt-key-fallback`` in the spec: a flow keyed by ``_id``), checked by
    :func:`require_key`. ``pop`` takes ``name`` out of ``document``; the fallback stays in it, as sent."""
    value = document.pop(name, None) if pop else document.get(name)
    if value is None and fallback is not None:
        value = document.get(fallback)
    return require_key(value, name, fallback)


_R = TypeVar("_R")


@define(frozen=True, slots=True)
class Operation(Generic[_R]):
    """One operation: its declaration in the spec and how its 2xx answer is read (``body``: how to decode it;
    ``parse_ok``: the decoded body to the typed result)."""

    spec: OperationSpec
    body: Literal["json", "text", "bytes"]
    parse_ok: Callable[[Any], _R]


@define(frozen=True, slots=True)
class Request(Generic[_R]):
    """A request built by an endpoint module's ``request(...)``: httpx ``request()`` arguments (method, url,
    params, json, headers), and the operation that reads its answer."""

    operation: Operation[_R]
    kwargs: dict[str, Any]
