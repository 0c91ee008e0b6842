"""What the server's Node HTTP layer refuses before Express sees a request: a head over its size limit.

Node's HTTP parser counts the request line and the header lines, line ends included, against
``--max-http-header-size`` (16 KiB since Node 13.13, 8 KiB before; the profile's ``max_header_size``) and
answers a longer head with ``431 Request Header Fields Too Large``, no body, and closes the connection. A
long ``$filter`` in the URL is the usual way to get there. :class:`HeaderLimit` answers so; uvicorn's own
parser is set to read heads well past the limit (:mod:`printmgmt_sim.server`), so what it refuses first is
far longer.
"""

from __future__ import annotations

from collections.abc import Callable

from starlette.types import ASGIApp, Receive, Scope, Send

__all__ = ["HeaderLimit", "head_size"]


def head_size(scope: Scope) -> int:
    """The bytes of an HTTP/1.1 request's line and header lines (``name: value``), with their line ends."""
    target = len(scope.get("raw_path") or scope["path"].encode()) + len(scope.get("query_string") or b"")
    if scope.get("query_string"):
        target += 1  # the "?"
    line = len(scope["method"]) + 1 + target + len(" HTTP/") + len(scope.get("http_version", "1.1")) + 2
    return line + sum(len(name) + 2 + len(value) + 2 for name, value in scope["headers"]) + 2


class HeaderLimit:
    """ASGI middleware: ``431`` (Node's bare answer, closing the connection) for a head over ``limit()``, on
    every path but those under ``other_server`` (the identity provider, a server of its own)."""

    def __init__(self, app: ASGIApp, limit: Callable[[], int], other_server: str) -> None:
        self.app = app
        self.limit = limit
        self.other_server = other_server

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if (
            scope["type"] == "http"
            and not scope["path"].startswith(self.other_server)
            and head_size(scope) > self.limit()
        ):
            await send({"type": "http.response.start", "status": 431, "headers": [(b"connection", b"close")]})
            await send({"type": "http.response.body", "body": b""})
            return
        await self.app(scope, receive, send)
