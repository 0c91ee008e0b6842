"""Request bodies: read as JSON and checked against ``openapi.yaml``'s schemas (lenient like the spec).

Unknown fields are kept; the declared fields must have the declared types (an integral float counts as
an integer, as in JSON Schema). A check returns the value to use or raises :class:`BodyError`.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Mapping
from typing import Any, Final

from .model import Doc

__all__ = ["BodyCheck", "BodyError", "config", "flow", "parse", "printer", "printer_message", "runtime", "target"]

BodyCheck = Callable[[Any], Any]


class BodyError(ValueError):
    """The request body does not match the operation's schema."""


class _Int64(int):
    """Marks an ``integer`` field of ``format: int64``."""


_INT64_RANGE: Final = range(-(2**63), 2**63)

_PRINTER_CONFIG: Final[dict[str, type]] = {
    "printer": str,
    "connection": str,
    "server": str,
    "ppd": str,
    "rotation": str,
    "alignment": str,
    "tolerance": str,
    "webUrl": str,
    "nativeQueue": bool,
}
_PRINTER_RUNTIME: Final[dict[str, type]] = {
    "status": str,
    "currentPrintingJob": str,
    "lastPrintedJobTime": _Int64,
    "queuedJobs": int,
    "message": str,
    "redirectedTo": str,
}
_FLOW: Final[dict[str, type]] = {"name": str, "type": str, "source": str}


def parse(raw: bytes) -> Any:
    """The body as JSON."""
    if not raw.strip():
        raise BodyError("a JSON body is required")
    try:
        return json.loads(raw)
    except (ValueError, RecursionError) as exc:
        raise BodyError(f"the body is not JSON: {exc}") from exc


def printer(value: Any) -> Doc:
    """A ``Printer``: ``_id`` (a string) plus optional ``config``, ``runtime`` and ``physical`` objects."""
    doc = _object(value, "printer")
    if not isinstance(doc.get("_id"), str) or not doc["_id"]:
        raise BodyError("'_id' (the printer name, used in its URL) must be a non-empty string")
    for name, fields in (("config", _PRINTER_CONFIG), ("runtime", _PRINTER_RUNTIME), ("physical", {})):
        if name in doc:
            doc[name] = _typed(_object(doc[name], name), fields, name)
    return doc


def runtime(value: Any) -> Doc:
    """A ``PrinterRuntime``: an object of typed runtime fields."""
    return _typed(_object(value, "runtime"), _PRINTER_RUNTIME, "runtime")


def printer_message(value: Any) -> str:
    """A ``PrinterMessage``: ``{"message": "..."}``."""
    doc = _object(value, "message body")
    if not isinstance(doc.get("message"), str):
        raise BodyError("'message' must be a string")
    return str(doc["message"])


def target(value: Any) -> str:
    """A ``MoveRequest``/``RedirectRequest``: ``{"printerName": "<non-empty>"}``."""
    doc = _object(value, "request")
    name = doc.get("printerName")
    if not isinstance(name, str) or not name:
        raise BodyError("'printerName' must be a non-empty string")
    return name


def flow(value: Any) -> Doc:
    """A ``Flow``: ``name`` (a string), optional ``type`` and ``source`` strings."""
    doc = _typed(_object(value, "flow"), _FLOW, "flow")
    if not doc.get("name"):
        raise BodyError("'name' is required and must not be empty (it names the flow in its URL)")
    return doc


def config(value: Any) -> Doc:
    """A ``Config``: any object."""
    return _object(value, "configuration")


def _object(value: Any, what: str) -> Doc:
    if not isinstance(value, dict):
        raise BodyError(f"the {what} must be a JSON object")
    return value


def _typed(doc: Doc, fields: Mapping[str, type], what: str) -> Doc:
    for name, kind in fields.items():
        if name not in doc:
            continue
        value = doc[name]
        if kind in (int, _Int64):
            if isinstance(value, float) and value.is_integer():
                doc[name] = value = int(value)
            if not isinstance(value, int) or isinstance(value, bool):
                raise BodyError(f"'{what}.{name}' must be an integer")
            if kind is _Int64 and value not in _INT64_RANGE:
                raise BodyError(f"'{what}.{name}' must fit in 64 bits")
        elif not isinstance(value, kind):
            raise BodyError(f"'{what}.{name}' must be of type {kind.__name__}")
    return doc
