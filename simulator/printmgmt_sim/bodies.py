"""Request bodies: read as JSON and checked against the operation's schema in ``openapi.yaml``.

A checked body is a :class:`Body`: a read-only mapping that remembers which fields its handler read, so the
request path can tell a declared field the simulator honours (reads) from one it drops without a word.
"""

from __future__ import annotations

import json
from collections.abc import Iterator, Mapping
from typing import Any

from .schemas import SchemaError, check, properties

__all__ = ["Body", "BodyError", "parse", "read"]


class BodyError(ValueError):
    """The request body does not match the operation's schema."""


class Body(Mapping[str, Any]):
    """A checked JSON object body; ``read`` holds the fields looked up so far (``dict(body)`` reads all)."""

    def __init__(self, fields: dict[str, Any]) -> None:
        self._fields = fields
        self.read: set[str] = set()

    def __getitem__(self, key: str) -> Any:
        self.read.add(key)
        return self._fields[key]

    def __iter__(self) -> Iterator[str]:
        return iter(self._fields)

    def __len__(self) -> int:
        return len(self._fields)

    def unread(self, schema: str, ignored: frozenset[str]) -> set[str]:
        """The declared fields of ``schema`` the body carries that were neither read nor declared ignored."""
        return (properties(schema).keys() & self._fields.keys()) - self.read - ignored


def parse(raw: bytes) -> Any:
    """The body as JSON."""
    if not raw.strip():
        raise BodyError("a JSON body is required")
    try:
        return json.loads(raw)
    except (ValueError, RecursionError) as exc:
        raise BodyError(f"the body is not JSON: {exc}") from exc


def read(raw: bytes, schema: str) -> Body:
    """The body of a request whose spec declares ``schema``, checked against it."""
    try:
        value = check(schema, parse(raw))
    except SchemaError as exc:
        raise BodyError(str(exc)) from exc
    if not isinstance(value, dict):
        raise BodyError("the body must be a JSON object")
    return Body(value)
