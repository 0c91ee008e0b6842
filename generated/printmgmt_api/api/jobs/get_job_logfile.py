from typing import Any
from urllib.parse import quote

from ...operations import BY_MODULE, Operation, Request


def _parse_ok(data: str) -> str:
    response_200 = data
    return response_200


OPERATION: Operation[str] = Operation(
    spec=BY_MODULE["jobs.get_job_logfile"],
    body="text",
    parse_ok=_parse_ok,
)


def request(
    id: str,
) -> Request[str]:
    """The ``GET /v3/jobs/{id}/logfile`` request, for the client to send."""

    _kwargs: dict[str, Any] = {
        "method": "GET",
        "url": "/v3/jobs/{id}/logfile".format(
            id=quote(str(id), safe=""),
        ),
    }

    return Request(OPERATION, _kwargs)
