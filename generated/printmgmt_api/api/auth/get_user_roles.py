from typing import Any

from ...models.user_roles import UserRoles
from ...operations import BY_MODULE, Operation, Request


def _parse_ok(data: Any) -> UserRoles:
    response_200 = UserRoles.from_dict(data)

    return response_200


OPERATION: Operation[UserRoles] = Operation(
    spec=BY_MODULE["auth.get_user_roles"],
    body="json",
    parse_ok=_parse_ok,
)


def request() -> Request[UserRoles]:
    """The ``GET /v3/auth/userroles`` request, for the client to send."""

    _kwargs: dict[str, Any] = {
        "method": "GET",
        "url": "/v3/auth/userroles",
    }

    return Request(OPERATION, _kwargs)
