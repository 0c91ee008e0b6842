"""Error answers of the simulated API, in the real server's shapes.

The API answers errors with the JSON body of ``@sealsystems/failure`` (``{code, message, metadata}``,
``metadata.kbCode`` as ``SealError`` sets it), except the OData middleware's 400, which is
``res.sendStatus(400)``: the plain text ``Bad Request``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any, Final

from starlette.responses import JSONResponse, PlainTextResponse, Response

__all__ = ["CODES", "Problem", "plain_bad_request"]

#: The ``code`` of each error status.
CODES: Final[dict[int, str]] = {
    400: "ERR_BAD_REQUEST",
    401: "ERR_UNAUTHORIZED",
    403: "ERR_FORBIDDEN",
    404: "ERR_NOT_FOUND",
    405: "ERR_METHOD_NOT_ALLOWED",
    412: "ERR_PRECONDITION_FAILED",
    500: "ERR_INTERNAL",
}


class Problem(Exception):
    """An error answer: raise it anywhere below a handler; the app renders it."""

    def __init__(
        self,
        status: int,
        message: str,
        *,
        metadata: Mapping[str, Any] | None = None,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.metadata = dict(metadata or {})
        self.headers = dict(headers or {})

    def response(self) -> Response:
        code = CODES.get(self.status, f"ERR_HTTP_{self.status}")
        body = {"code": code, "message": self.message, "metadata": {"kbCode": f"seal-rest/{code}", **self.metadata}}
        return JSONResponse(body, status_code=self.status, headers=self.headers)


def plain_bad_request() -> Response:
    """The OData middleware's answer to an unknown ``$`` key or a query it cannot parse."""
    return PlainTextResponse("Bad Request", status_code=400)
