from typing import Any
from urllib.parse import quote

from ...models.page_info import PageInfo
from ...operations import BY_MODULE, Operation, Request


def _parse_ok(data: Any) -> PageInfo:
    response_200 = PageInfo.from_dict(data)

    return response_200


OPERATION: Operation[PageInfo] = Operation(
    spec=BY_MODULE["jobs.get_job_pageinfo"],
    body="json",
    parse_ok=_parse_ok,
)


def request(
    id: str,
) -> Request[PageInfo]:
    """The ``GET /v3/jobs/{id}/pageinfo`` request, for the client to send."""

    _kwargs: dict[str, Any] = {
        "method": "GET",
        "url": "/v3/jobs/{id}/pageinfo".format(
            id=quote(str(id), safe=""),
        ),
    }

    return Request(OPERATION, _kwargs)
