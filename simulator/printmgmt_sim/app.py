"""The ASGI application: the API and the identity provider on one Starlette app, plus fault injection."""

from __future__ import annotations

import logging
from http import HTTPStatus

from printmgmt_cli.profile import UnknownRoutes
from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import PlainTextResponse, Response
from starlette.types import ASGIApp

from .api import routes
from .backend import Backend
from .errors import Problem
from .faults import FaultInjector
from .nodehttp import HeaderLimit
from .paths import RawSegments
from .traffic import TrafficCounter
from .variants import express_page

__all__ = ["create_app"]

logger = logging.getLogger("printmgmt_sim")


def create_app(backend: Backend) -> ASGIApp:
    """Serve ``backend``: every operation of ``openapi.yaml`` and the realm's token endpoint."""

    async def problem(request: Request, exc: Exception) -> Response:
        assert isinstance(exc, Problem)
        if exc.status in (401, 403) and backend.settings.variants.auth_errors == "text":
            # an authentication layer in front of the API answering in plain text
            return PlainTextResponse(_reason(exc.status), status_code=exc.status, headers=exc.headers)
        return exc.response()

    async def http_error(request: Request, exc: Exception) -> Response:
        """Starlette's own 404 (no such path) and 405 (method not declared, with ``Allow``)."""
        assert isinstance(exc, HTTPException)
        if exc.status_code == 404 and backend.settings.variants.unknown_routes == UnknownRoutes.EXPRESS:
            return express_page(404, f"Cannot {request.method} {request.url.path}")
        return Problem(exc.status_code, str(exc.detail), headers=exc.headers).response()

    app = Starlette(
        routes=[*routes(backend), *backend.idp.routes()],
        exception_handlers={Problem: problem, HTTPException: http_error, Exception: _internal_error},
    )
    app.router.redirect_slashes = False
    idp_prefix = f"{backend.settings.auth_prefix}/realms/"
    faulty = FaultInjector(app, backend.faults, idp_prefix=idp_prefix)
    served = RawSegments(TrafficCounter(faulty, backend.traffic))
    return HeaderLimit(served, lambda: backend.settings.max_header_size, other_server=idp_prefix)


def _reason(status: int) -> str:
    return HTTPStatus(status).phrase


async def _internal_error(request: Request, exc: Exception) -> Response:
    logger.error("unhandled error in %s %s", request.method, request.url.path, exc_info=exc)
    return Problem(500, "Internal Server Error").response()
