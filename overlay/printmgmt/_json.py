"""The SDK's one JSON decoder: every body the server or the identity provider sends is read here."""

from __future__ import annotations

import contextlib
import json
from typing import Any

try:  # the extra printmgmt[fast]: about twice as fast as json on a 1,000-job page
    import orjson as _orjson
except ImportError:  # pragma: no cover - depends on the installation
    _orjson = None  # type: ignore[assignment]


def loads(content: bytes | str) -> Any:
    """Decode a JSON body (orjson, else the standard library); a ``json.JSONDecodeError`` for anything that is
    not readable JSON, a body nested too deeply included. orjson reads an integer beyond 64 bits as a float."""
    if _orjson is not None:
        with contextlib.suppress(_orjson.JSONDecodeError):
            return _orjson.loads(content)
    try:
        return json.loads(content)
    except RecursionError:
        raise json.JSONDecodeError("nested too deeply to decode", "", 0) from None
