from typing import Any
from urllib.parse import quote

from ...models.action_result import ActionResult
from ...models.redirect_request import RedirectRequest
from ...operations import BY_MODULE, Operation, Request


def _parse_ok(data: Any) -> ActionResult:
    response_200 = ActionResult.from_dict(data)

    return response_200


OPERATION: Operation[ActionResult] = Operation(
    spec=BY_MODULE["printers.redirect_printer"],
    body="json",
    parse_ok=_parse_ok,
)


def request(
    printer_name: str,
    *,
    body: RedirectRequest,
) -> Request[ActionResult]:
    """The ``PUT /v3/printers/{printer_name}/redirect`` request, for the client to send."""
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "PUT",
        "url": "/v3/printers/{printer_name}/redirect".format(
            printer_name=quote(str(printer_name), safe=""),
        ),
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return Request(OPERATION, _kwargs)
