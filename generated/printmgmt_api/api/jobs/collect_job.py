from io import BytesIO
from typing import Any
from urllib.parse import quote

from ...operations import BY_MODULE, Operation, Request
from ...types import File


def _parse_ok(data: bytes) -> File:
    response_200 = File(payload=BytesIO(data))

    return response_200


OPERATION: Operation[File] = Operation(
    spec=BY_MODULE["jobs.collect_job"],
    body="bytes",
    parse_ok=_parse_ok,
)


def request(
    id: str,
) -> Request[File]:
    """The ``GET /v3/jobs/{id}/collect`` request, for the client to send."""

    _kwargs: dict[str, Any] = {
        "method": "GET",
        "url": "/v3/jobs/{id}/collect".format(
            id=quote(str(id), safe=""),
        ),
    }

    return Request(OPERATION, _kwargs)
