from typing import Any
from urllib.parse import quote

from ...models.log_entry import LogEntry
from ...operations import BY_MODULE, Operation, Request


def _parse_ok(data: Any) -> list[LogEntry]:
    response_200 = []
    _response_200 = data
    for response_200_item_data in _response_200:
        response_200_item = LogEntry.from_dict(response_200_item_data)

        response_200.append(response_200_item)

    return response_200


OPERATION: Operation[list[LogEntry]] = Operation(
    spec=BY_MODULE["jobs.get_job_logs"],
    body="json",
    parse_ok=_parse_ok,
)


def request(
    id: str,
) -> Request[list[LogEntry]]:
    """The ``GET /v3/jobs/{id}/logs`` request, for the client to send."""

    _kwargs: dict[str, Any] = {
        "method": "GET",
        "url": "/v3/jobs/{id}/logs".format(
            id=quote(str(id), safe=""),
        ),
    }

    return Request(OPERATION, _kwargs)
