from typing import Any
from urllib.parse import quote

from ...models.action_result import ActionResult
from ...operations import BY_MODULE, Operation, Request


def _parse_ok(data: Any) -> ActionResult:
    response_200 = ActionResult.from_dict(data)

    return response_200


OPERATION: Operation[ActionResult] = Operation(
    spec=BY_MODULE["printers.check_printer_physical"],
    body="json",
    parse_ok=_parse_ok,
)


def request(
    printer_name: str,
) -> Request[ActionResult]:
    """The ``PUT /v3/printers/{printer_name}/checkPhysical`` request, for the client to send."""

    _kwargs: dict[str, Any] = {
        "method": "PUT",
        "url": "/v3/printers/{printer_name}/checkPhysical".format(
            printer_name=quote(str(printer_name), safe=""),
        ),
    }

    return Request(OPERATION, _kwargs)
