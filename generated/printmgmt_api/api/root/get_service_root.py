from typing import Any

from ...models.service_info import ServiceInfo
from ...operations import BY_MODULE, Operation, Request


def _parse_ok(data: Any) -> ServiceInfo:
    response_200 = ServiceInfo.from_dict(data)

    return response_200


OPERATION: Operation[ServiceInfo] = Operation(
    spec=BY_MODULE["root.get_service_root"],
    body="json",
    parse_ok=_parse_ok,
)


def request() -> Request[ServiceInfo]:
    """The ``GET /`` request, for the client to send."""

    _kwargs: dict[str, Any] = {
        "method": "GET",
        "url": "/",
    }

    return Request(OPERATION, _kwargs)
