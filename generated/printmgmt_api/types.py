"""Contains some shared types for properties"""

from collections.abc import Callable, Mapping, MutableMapping
from enum import Enum
from http import HTTPStatus
from itertools import islice
from typing import IO, Any, BinaryIO, Generic, Literal, TypeVar

from attrs import define
from attrs import fields as _attrs_fields

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


# Short reprs of the models (templates/types.py.jinja): unset fields left out, enums as their value, long strings, lists and
# mappings cut, lists of models counted, unknown fields last as one **{...}.
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


#: Views the SDK registers for people (``"repr"``: a model's short repr, ``"html"``: its notebook view); each
#: returns None for a model it has no view of. This package imports nothing of the SDK, so the SDK fills this in.
VIEWS: dict[str, Callable[[Any], "str | None"]] = {}


def model_repr(model: Any) -> str:
    view = VIEWS.get("repr")
    short = view(model) if view is not None else None
    if short is not None:
        return short
    return f"{type(model).__name__}({', '.join(label + _repr_value(value) for label, value in _repr_items(model))})"


def model_repr_html(model: Any) -> str | None:
    """Jupyter's HTML view of a model, when the SDK has registered one (None: Jupyter shows the text)."""
    view = VIEWS.get("html")
    return view(model) if view is not None else None


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
