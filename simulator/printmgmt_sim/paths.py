"""Path segments that may contain ``/``: printer and flow names are opaque strings.

uvicorn decodes the request path before routing, so a name sent as ``a%2Fb`` would split into two
segments and never match a route (an Express server matches on the raw path). :class:`RawSegments`
re-derives the path from ``raw_path`` with ``%`` and ``/`` inside a segment kept encoded; handlers read
path parameters through :func:`path_param`, which decodes them.
"""

from __future__ import annotations

from urllib.parse import unquote

from starlette.requests import Request
from starlette.types import ASGIApp, Receive, Scope, Send

__all__ = ["RawSegments", "path_param"]


class RawSegments:
    """ASGI middleware: route on the raw path, decoding everything but ``%`` and ``/`` in segments."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        raw = scope.get("raw_path")
        if scope["type"] == "http" and raw:
            segments = raw.decode("latin-1").split("?", 1)[0].split("/")
            scope = {**scope, "path": "/".join(_keep_separators(unquote(segment)) for segment in segments)}
        await self.app(scope, receive, send)


def path_param(request: Request, name: str) -> str:
    """A decoded path parameter."""
    return unquote(str(request.path_params[name]))


def _keep_separators(segment: str) -> str:
    return segment.replace("%", "%25").replace("/", "%2F")
