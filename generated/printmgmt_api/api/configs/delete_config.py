from typing import Any

from ...models.action_result import ActionResult
from ...operations import BY_MODULE, Operation, Request


def _parse_ok(data: Any) -> ActionResult:
    response_200 = ActionResult.from_dict(data)

    return response_200


OPERATION: Operation[ActionResult] = Operation(
    spec=BY_MODULE["configs.delete_config"],
    body="json",
    parse_ok=_parse_ok,
)


def request() -> Request[ActionResult]:
    """The ``DELETE /v3/configs/`` request, for the client to send."""

    _kwargs: dict[str, Any] = {
        "method": "DELETE",
        "url": "/v3/configs/",
    }

    return Request(OPERATION, _kwargs)
