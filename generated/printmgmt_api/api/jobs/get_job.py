from typing import Any
from urllib.parse import quote

from ...models.job import Job
from ...operations import BY_MODULE, Operation, Request


def _parse_ok(data: Any) -> Job:
    response_200 = Job.from_dict(data)

    return response_200


OPERATION: Operation[Job] = Operation(
    spec=BY_MODULE["jobs.get_job"],
    body="json",
    parse_ok=_parse_ok,
)


def request(
    id: str,
) -> Request[Job]:
    """The ``GET /v3/jobs/{id}`` request, for the client to send."""

    _kwargs: dict[str, Any] = {
        "method": "GET",
        "url": "/v3/jobs/{id}".format(
            id=quote(str(id), safe=""),
        ),
    }

    return Request(OPERATION, _kwargs)
