from typing import Any
from urllib.parse import quote

from ...models.action_result import ActionResult
from ...models.move_request import MoveRequest
from ...operations import BY_MODULE, Operation, Request


def _parse_ok(data: Any) -> ActionResult:
    response_200 = ActionResult.from_dict(data)

    return response_200


OPERATION: Operation[ActionResult] = Operation(
    spec=BY_MODULE["jobs.move_job"],
    body="json",
    parse_ok=_parse_ok,
)


def request(
    id: str,
    *,
    body: MoveRequest,
) -> Request[ActionResult]:
    """The ``PUT /v3/jobs/{id}/move`` request, for the client to send."""
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "PUT",
        "url": "/v3/jobs/{id}/move".format(
            id=quote(str(id), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return Request(OPERATION, _kwargs)
