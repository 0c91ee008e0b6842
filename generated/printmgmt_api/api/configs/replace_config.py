from typing import Any

from ...models.config import Config
from ...operations import BY_MODULE, Operation, Request


def _parse_ok(data: Any) -> Config:
    response_200 = Config.from_dict(data)

    return response_200


OPERATION: Operation[Config] = Operation(
    spec=BY_MODULE["configs.replace_config"],
    body="json",
    parse_ok=_parse_ok,
)


def request(
    *,
    body: Config,
) -> Request[Config]:
    """The ``PUT /v3/configs/`` request, for the client to send."""
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "PUT",
        "url": "/v3/configs/",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return Request(OPERATION, _kwargs)
