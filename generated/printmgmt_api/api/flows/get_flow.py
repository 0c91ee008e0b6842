from typing import Any
from urllib.parse import quote

from ...models.flow import Flow
from ...operations import BY_MODULE, Operation, Request


def _parse_ok(data: Any) -> Flow:
    response_200 = Flow.from_dict(data)

    return response_200


OPERATION: Operation[Flow] = Operation(
    spec=BY_MODULE["flows.get_flow"],
    body="json",
    parse_ok=_parse_ok,
)


def request(
    name: str,
) -> Request[Flow]:
    """The ``GET /v3/flows/{name}`` request, for the client to send."""

    _kwargs: dict[str, Any] = {
        "method": "GET",
        "url": "/v3/flows/{name}".format(
            name=quote(str(name), safe=""),
        ),
    }

    return Request(OPERATION, _kwargs)
