from typing import Any

from ...models.config import Config
from ...operations import BY_MODULE, Operation, Request


def _parse_ok(data: Any) -> Config:
    response_200 = Config.from_dict(data)

    return response_200


OPERATION: Operation[Config] = Operation(
    spec=BY_MODULE["configs.get_config"],
    body="json",
    parse_ok=_parse_ok,
)


def request() -> Request[Config]:
    """The ``GET /v3/configs/`` request, for the client to send."""

    _kwargs: dict[str, Any] = {
        "method": "GET",
        "url": "/v3/configs/",
    }

    return Request(OPERATION, _kwargs)
