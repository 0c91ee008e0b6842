from typing import Any

from ...models.flow import Flow
from ...operations import BY_MODULE, Operation, Request


def _parse_ok(data: Any) -> Flow:
    response_200 = Flow.from_dict(data)

    return response_200


OPERATION: Operation[Flow] = Operation(
    spec=BY_MODULE["flows.create_flow"],
    body="json",
    parse_ok=_parse_ok,
)


def request(
    *,
    body: Flow,
) -> Request[Flow]:
    """The ``POST /v3/flows/`` request, for the client to send."""
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "POST",
        "url": "/v3/flows/",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return Request(OPERATION, _kwargs)
