"""What the generated models call at run time (``templates/model.py.jinja``): their reprs and notebook views, and
the one strict read of a document's key. It imports nothing else of printmgmt, so ``printmgmt_api`` loads alone."""

from __future__ import annotations

import html
import json
from collections.abc import Iterable, Mapping, Sequence
from enum import Enum
from itertools import islice
from typing import Any

from attrs import fields

from printmgmt_api.field_catalog import epoch_ms_text, is_epoch_ms
from printmgmt_api.types import Unset

_ITEMS, _TEXT, _CELL = 4, 60, 200  # the items of a list or mapping a repr shows; the characters of a text, a cell
_COLUMNS, _ROWS, _RAW_DOCUMENTS, _RAW_CHARACTERS = 6, 50, 3, 10_000
_MISSING: Any = object()
_SCALARS = (str, int, float, bool, type(None))


def _plain(value: Any) -> Any:
    # a string enum shows its string: the known spelling for a known value sent in another case
    return (str.__str__(value) if isinstance(value, str) else value.value) if isinstance(value, Enum) else value


def _cut(text: str, limit: int) -> str:
    return text if len(text) <= limit else text[: limit - 1] + "\u2026"


def _repr_value(value: Any, depth: int = 0) -> str:
    value = _plain(value)
    if isinstance(value, str):
        return repr(_cut(value, _TEXT))
    if not isinstance(value, list | dict) or not value:
        return repr(value)
    is_list = isinstance(value, list)
    if is_list and any(hasattr(item, "__attrs_attrs__") or isinstance(item, dict | list) for item in value):
        kinds = {type(item).__name__ for item in value}
        return f"[<{len(value)} {kinds.pop() if len(kinds) == 1 else 'items'}>]"
    if depth >= 2:
        return f"[<{len(value)} items>]" if is_list else f"{{<{len(value)} keys>}}"
    if isinstance(value, dict):
        shown = [f"{key!r}: {_repr_value(item, depth + 1)}" for key, item in islice(value.items(), _ITEMS)]
    else:
        shown = [_repr_value(item, depth + 1) for item in value[:_ITEMS]]
    if len(value) > _ITEMS:
        shown.append(f"\u2026 +{len(value) - _ITEMS}")
    return ("[" if is_list else "{") + ", ".join(shown) + ("]" if is_list else "}")


def _repr_items(model: Any) -> list[tuple[str, Any]]:
    items = [(f"{field.name}=", getattr(model, field.name)) for field in fields(type(model))]
    items = [item for item in items if item[0] != "additional_properties=" and not isinstance(item[1], Unset)]
    return items + ([("**", model.additional_properties)] if getattr(model, "additional_properties", None) else [])


def _document(model: Any) -> dict[str, Any]:
    document = model.to_dict()
    return document if isinstance(document, dict) else {}


def _field_at(model: Any, path: str) -> Any:
    """The value at a wire path as the model reads it (as sent where the model declares no field), or ``_MISSING``."""
    value: Any = model
    parts = path.split("/")
    for index, part in enumerate(parts):
        names = {wire: name for name, wire in getattr(type(value), "WIRE_NAMES", {}).items()}
        if part not in names:  # not declared: as sent
            value = _document(value) if hasattr(value, "to_dict") else _MISSING
            for key in parts[index:]:
                value = value[key] if isinstance(value, Mapping) and key in value else _MISSING
            return value
        value = getattr(value, names[part])
        if isinstance(value, Unset):
            return _MISSING
    return _plain(value)


def _summary_paths(cls: Any, documents: Iterable[Mapping[str, Any]]) -> list[str]:
    """``SUMMARY``; else the fields of one value (or a list of them), the declared ones first in the spec's order."""
    if summary := getattr(cls, "SUMMARY", ()):
        return list(summary)
    paths = {
        key: None
        for document in documents
        for key, value in document.items()
        if isinstance(value, _SCALARS) or (isinstance(value, list) and all(isinstance(v, _SCALARS) for v in value))
    }
    declared = list(getattr(cls, "WIRE_NAMES", {}).values())
    return sorted(paths, key=lambda path: declared.index(path) if path in declared else len(declared))[:_COLUMNS]


def _text(path: str, value: Any) -> str:
    """Times as UTC dates (none for 0, as sent when not a date), lists joined, objects as JSON."""
    if value is _MISSING or value is None:
        return ""
    if is_epoch_ms(path):
        return epoch_ms_text(value)
    if isinstance(value, list) and all(isinstance(item, _SCALARS) for item in value):
        return ", ".join(str(item) for item in value)
    return json.dumps(value, ensure_ascii=False) if isinstance(value, dict | list) else str(value)


def _label(path: str) -> str:
    """``current/checkinTime`` -> ``checkin_time``, ``_id`` -> ``id``: the Python field's name."""
    return "".join(f"_{char.lower()}" if char.isupper() else char for char in path.rsplit("/", 1)[-1].lstrip("_"))


def _leaves(document: Mapping[str, Any]) -> int:
    return sum(_leaves(value) if isinstance(value, Mapping) and value else 1 for value in document.values())


def model_repr(model: Any) -> str:
    """``Job(id='677b…', status='Error', checkin_time=2025-01-06 08:00:00Z, …)`` for a model with ``REPR_PATHS``
    (``…`` when the document holds more), else every set field."""
    paths: tuple[str, ...] = getattr(type(model), "REPR_PATHS", ())
    shown = [] if paths else [label + _repr_value(value) for label, value in _repr_items(model)]
    for path in paths:
        value = _field_at(model, path)
        text = _text(path, value)
        if text or not (is_epoch_ms(path) or value is _MISSING or value is None):  # not absent, nor a time of 0
            shown.append(f"{_label(path)}={text if is_epoch_ms(path) and not isinstance(value, str) else repr(text)}")
    if paths and _leaves(_document(model)) > len(shown):
        shown.append("\u2026")
    return f"{type(model).__name__}({', '.join(shown)})"


def model_repr_pretty(model: Any, p: Any, cycle: bool) -> None:
    """IPython's view: every set field, one a line when they do not fit."""
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


def html_table(headers: Sequence[str], rows: Iterable[Sequence[str]]) -> str:
    """An HTML table: ``headers`` escaped here, ``rows`` of cells already escaped."""
    head = "".join(f"<th>{html.escape(header)}</th>" for header in headers)
    body = "".join("<tr>" + "".join(f"<td>{cell}</td>" for cell in row) + "</tr>" for row in rows)
    return f'<table class="printmgmt"><thead><tr>{head}</tr></thead><tbody>{body}</tbody></table>'


def _raw(document: Any, summary: str = "raw document", limit: int | None = None) -> str:
    dumped = json.dumps(document, indent=2, ensure_ascii=False)
    if limit is not None and len(dumped) > limit:
        dumped = dumped[:limit] + f"\n\u2026 ({len(dumped) - limit:,} more characters)"
    return f"<details><summary>{html.escape(summary)}</summary><pre>{html.escape(dumped)}</pre></details>"


def _header(path: str) -> str:
    return _label(path).replace("_", " ") + (" (UTC)" if is_epoch_ms(path) else "")


def model_repr_html(model: Any) -> str:
    """Jupyter's view of a model: its summary fields as a two-column table, the whole document under a
    ``<details>``."""
    document = _document(model)
    values = {path: _field_at(model, path) for path in _summary_paths(type(model), [document])}
    rows = [(html.escape(_header(p)), html.escape(_text(p, v))) for p, v in values.items() if v is not _MISSING]
    name = html.escape(type(model).__name__)
    return f"<div><strong>{name}</strong>{html_table(('field', 'value'), rows)}{_raw(document)}</div>"


def models_html(items: Sequence[Any], caption: str) -> str:
    """Jupyter's view of models of one kind (a page's items): ``caption``, then one row per model with its
    summary fields, the first documents under a ``<details>``."""
    shown = items[:_ROWS]
    documents = [_document(item) for item in shown]
    paths = _summary_paths(type(items[0]) if items else None, documents)
    rows = [[html.escape(_cut(_text(path, _field_at(item, path)), _CELL)) for path in paths] for item in shown]
    if len(items) > len(shown):
        more = f"\u2026 {len(items) - len(shown)} more rows: page[i], or page.to_pandas() for all"
        rows.append([html.escape(more), *([""] * (len(paths) - 1))])
    few = documents[:_RAW_DOCUMENTS]
    label = f"raw documents ({len(few)} of {len(items)}; one item's: page[i])" if len(items) > len(few) else ""
    raw = _raw(few, label or f"raw documents ({len(few)})", _RAW_CHARACTERS * len(few)) if few else ""
    return f"<div>{html.escape(caption)}{html_table([_header(path) for path in paths], rows)}{raw}</div>"


#: What a generated parser raises on a value of another shape: an optional field then reads as unset.
LENIENT_ERRORS = (TypeError, ValueError, KeyError, AttributeError, IndexError)


class KeyFieldError(Exception):
    """A document's key (a required string field, such as ``_id``) is missing, empty or not a string. Not a
    ``ValueError``, which the generated union parsers read as "try the next shape"."""


def read_key(document: dict[str, Any], name: str, fallback: str | None = None, *, pop: bool = False) -> str:
    """A document's key: ``name``, or ``fallback`` when ``name`` is missing or null (``x-printmgmt-key-fallback``),
    refused unless a non-empty string: keys feed every later call (paths, filters), while every other field is
    read leniently. ``pop`` takes ``name`` out of ``document``; the fallback stays in it, as sent."""
    value = document.pop(name, None) if pop else document.get(name)
    if value is None and fallback is not None:
        value = document.get(fallback)
    if isinstance(value, str) and value:
        return value
    why = f"must be a non-empty string, not {type(value).__name__} ({value!r:.60})"
    if value is None:
        why = "is missing or null" + (f" (and so is {fallback!r})" if fallback else "")
    raise KeyFieldError(f"the key field {name!r} {'is an empty string' if isinstance(value, str) else why}")
