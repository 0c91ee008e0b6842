from typing import Any

from ...models.flow import Flow
from ...operations import BY_MODULE, Operation, Request


def _parse_ok(data: Any) -> list[Flow]:
    response_200 = []
    _response_200 = data
    for response_200_item_data in _response_200:
        response_200_item = Flow.from_dict(response_200_item_data)

        response_200.append(response_200_item)

    return response_200


OPERATION: Operation[list[Flow]] = Operation(
    spec=BY_MODULE["flows.list_flows"],
    body="json",
    parse_ok=_parse_ok,
)


def request() -> Request[list[Flow]]:
    """The ``GET /v3/flows/`` request, for the client to send."""

    _kwargs: dict[str, Any] = {
        "method": "GET",
        "url": "/v3/flows/",
    }

    return Request(OPERATION, _kwargs)
