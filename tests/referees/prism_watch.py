"""Watching what the SDK sends to Prism, and what Prism says about it.

:class:`Traffic` is an httpx response event hook: attached to ``PrintClient.http`` it records every exchange
(token requests included). :func:`violations` lists what Prism flagged in one answer:

- an ``sl-violations`` header (Prism's verdict on the request: bad parameter, body, security...), and
- an ``application/problem+json`` body, which only Prism produces here (openapi.yaml declares none):
  its own 422 for an invalid request, 404 for an unknown path or an undeclared ``Prefer: code``, 405, 406...

Prism lets unknown query parameters through, so :func:`undeclared_query` checks the query names against
the operation's declared parameters itself.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import httpx
import yaml

SPEC_PATH = Path(__file__).resolve().parents[2] / "openapi.yaml"
METHODS = ("get", "put", "post", "delete", "patch")


@dataclass(frozen=True)
class SpecOperation:
    operation_id: str
    method: str
    path: str
    operation: dict[str, Any]
    query_names: frozenset[str]

    def statuses(self) -> list[int]:
        return sorted(int(code) for code in self.operation["responses"] if code.isdigit())


def load_spec() -> dict[str, Any]:
    with SPEC_PATH.open() as f:
        loaded: dict[str, Any] = yaml.safe_load(f)
    return loaded


def resolve(spec: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in node:
        *_, section, name = node["$ref"].split("/")
        node = spec["components"][section][name]
    return node


def spec_operations(spec: dict[str, Any]) -> dict[str, SpecOperation]:
    found: dict[str, SpecOperation] = {}
    for path, item in spec["paths"].items():
        shared = item.get("parameters", [])
        for method in METHODS:
            if method not in item:
                continue
            operation = item[method]
            parameters = [resolve(spec, p) for p in (*shared, *operation.get("parameters", []))]
            query = frozenset(p["name"] for p in parameters if p["in"] == "query")
            found[operation["operationId"]] = SpecOperation(
                operation["operationId"], method.upper(), path, operation, query
            )
    return found


@dataclass
class Exchange:
    """One request and its answer, as the client's httpx layer saw them."""

    method: str
    url: httpx.URL
    request_headers: httpx.Headers
    request_body: bytes
    status: int
    headers: httpx.Headers
    body: bytes

    def __str__(self) -> str:
        return f"{self.method} {self.url} -> {self.status}"

    @property
    def content_type(self) -> str:
        value: str = self.headers.get("content-type", "")
        return value.split(";")[0].strip().lower()


class Traffic:
    """Records every exchange of an ``httpx.AsyncClient`` (attach with :meth:`attach`)."""

    def __init__(self) -> None:
        self.exchanges: list[Exchange] = []

    def attach(self, client: httpx.AsyncClient) -> Traffic:
        client.event_hooks["response"].append(self._record)
        return self

    async def _record(self, response: httpx.Response) -> None:
        await response.aread()  # downloads are small here; the caller still gets the whole body
        request = response.request
        try:
            request_body = request.content
        except httpx.RequestNotRead:
            request_body = b"<streamed>"
        self.exchanges.append(
            Exchange(
                request.method,
                request.url,
                httpx.Headers(request.headers),  # a copy: an auth retry re-sends the same request object
                request_body,
                response.status_code,
                response.headers,
                response.content,
            )
        )

    def to(self, base_url: str) -> list[Exchange]:
        """The exchanges with one server."""
        return [e for e in self.exchanges if str(e.url).startswith(base_url.rstrip("/") + "/")]

    def __iter__(self) -> Iterator[Exchange]:
        return iter(self.exchanges)


def violations(exchange: Exchange) -> list[str]:
    """What Prism flagged in this answer (empty: nothing)."""
    found = []
    if header := exchange.headers.get("sl-violations"):
        try:
            items = json.loads(header)
        except ValueError:
            items = [header]
        for item in items:
            if isinstance(item, dict):
                where = ".".join(str(part) for part in item.get("location", []))
                found.append(f"sl-violations {item.get('severity')}: {item.get('message')} [{where}]")
            else:
                found.append(f"sl-violations: {item}")
    if exchange.content_type == "application/problem+json":
        try:
            problem = json.loads(exchange.body)
        except ValueError:
            problem = {"detail": exchange.body[:300].decode(errors="replace")}
        details = [
            f"{v.get('message')} [{'.'.join(str(p) for p in v.get('location', []))}]"
            for v in problem.get("validation", [])
            if isinstance(v, dict)
        ]
        found.append(
            f"Prism {exchange.status} {problem.get('type', '')}: {problem.get('title', '')}: "
            f"{problem.get('detail', '')} {'; '.join(details)}".rstrip()
        )
    return found


def undeclared_query(exchange: Exchange, operation: SpecOperation) -> list[str]:
    """Query parameter names the operation does not declare (Prism lets them through)."""
    return sorted({name for name, _ in exchange.url.params.multi_items()} - operation.query_names)


def verdict(exchanges: list[Exchange], operation: SpecOperation | None = None) -> list[str]:
    """Every problem in these exchanges, one line each, naming the exchange."""
    problems = []
    for exchange in exchanges:
        for problem in violations(exchange):
            problems.append(f"{exchange}: {problem}")
        if operation is not None:
            for name in undeclared_query(exchange, operation):
                problems.append(f"{exchange}: query parameter {name!r} is not declared for {operation.operation_id}")
    return problems
