"""What reached the simulator: requests per route and status, connections open now and at most.

For tests and benchmarks that check a client from the server's side: how many attempts a request took,
whether a pool limit held, whether every connection was closed. Counted before fault injection, so
faulted requests count too. Thread-safe: the server thread writes, tests read.
"""

from __future__ import annotations

import threading
from collections import Counter
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

__all__ = ["Traffic", "TrafficCounter"]


class Traffic:
    """Counters of one simulator; :meth:`reset` clears them (connections open now stay counted).

    ``requests`` counts ``"METHOD /path"`` (the path without the query string), ``statuses`` counts
    ``"METHOD /path STATUS"`` for answers that were started (a dropped connection has none),
    ``in_flight`` is the number of requests being handled, ``open_connections`` the TCP connections open
    now, ``max_connections`` the most open at once since the last reset and ``connections`` how many
    were accepted since then.
    """

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self.requests: Counter[str] = Counter()
        self.statuses: Counter[str] = Counter()
        self.in_flight = 0
        self.open_connections = 0
        self.max_connections = 0
        self.connections = 0

    def reset(self) -> None:
        with self._lock:
            self.requests.clear()
            self.statuses.clear()
            self.max_connections = self.open_connections
            self.connections = 0

    def connection_opened(self) -> None:
        with self._lock:
            self.open_connections += 1
            self.connections += 1
            self.max_connections = max(self.max_connections, self.open_connections)

    def connection_closed(self) -> None:
        with self._lock:
            self.open_connections -= 1

    def count(self, route: str) -> int:
        """Requests to ``route`` (``"GET /v3/"``) since the last reset."""
        with self._lock:
            return self.requests[route]

    def snapshot(self) -> dict[str, Any]:
        """Everything, as plain JSON-ready values."""
        with self._lock:
            return {
                "requests": dict(self.requests),
                "statuses": dict(self.statuses),
                "in_flight": self.in_flight,
                "open_connections": self.open_connections,
                "max_connections": self.max_connections,
                "connections": self.connections,
            }

    def _started(self, route: str) -> None:
        with self._lock:
            self.requests[route] += 1
            self.in_flight += 1

    def _answered(self, route: str, status: int) -> None:
        with self._lock:
            self.statuses[f"{route} {status}"] += 1

    def _finished(self) -> None:
        with self._lock:
            self.in_flight -= 1


class TrafficCounter:
    """ASGI middleware counting every HTTP request and its status in a :class:`Traffic`."""

    def __init__(self, app: ASGIApp, traffic: Traffic) -> None:
        self.app = app
        self.traffic = traffic

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http":
            await self.app(scope, receive, send)
            return
        route = f"{scope['method']} {scope['path']}"
        traffic = self.traffic

        async def counted(message: Message) -> None:
            if message["type"] == "http.response.start":
                traffic._answered(route, int(message["status"]))
            await send(message)

        traffic._started(route)
        try:
            await self.app(scope, receive, counted)
        finally:
            traffic._finished()
