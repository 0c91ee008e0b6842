"""The ASGI application: the API and the identity provider on one Starlette app, plus fault injection."""

from __future__ import annotations

import logging

from starlette.applications import Starlette
from starlette.exceptions import HTTPException
from starlette.requests import Request
from starlette.responses import Response
from starlette.types import ASGIApp

from .api import routes
from .backend import Backend
from .errors import Problem
from .faults import FaultInjector
from .paths import RawSegments
from .traffic import TrafficCounter

__all__ = ["create_app"]

logger = logging.getLogger("printmgmt_sim")


def create_app(backend: Backend) -> ASGIApp:
    """Serve ``backend``: the 43 operations of ``openapi.yaml`` and the realm's token endpoint."""
    app = Starlette(
        routes=[*routes(backend), *backend.idp.routes()],
        exception_handlers={Problem: _problem, HTTPException: _http_error, Exception: _internal_error},
    )
    app.router.redirect_slashes = False
    faulty = FaultInjector(app, backend.faults, idp_prefix=f"{backend.settings.auth_prefix}/realms/")
    return RawSegments(TrafficCounter(faulty, backend.traffic))


async def _problem(request: Request, exc: Exception) -> Response:
    assert isinstance(exc, Problem)
    return exc.response()


async def _http_error(request: Request, exc: Exception) -> Response:
    """Starlette's own 404 (no such path) and 405 (method not declared, with ``Allow``)."""
    assert isinstance(exc, HTTPException)
    return Problem(exc.status_code, str(exc.detail), headers=exc.headers).response()


async def _internal_error(request: Request, exc: Exception) -> Response:
    logger.error("unhandled error in %s %s", request.method, request.url.path, exc_info=exc)
    return Problem(500, "Internal Server Error").response()
