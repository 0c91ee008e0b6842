from typing import Any

from ...models.printer import Printer
from ...operations import BY_MODULE, Operation, Request


def _parse_ok(data: Any) -> Printer:
    response_200 = Printer.from_dict(data)

    return response_200


OPERATION: Operation[Printer] = Operation(
    spec=BY_MODULE["printers.create_printer"],
    body="json",
    parse_ok=_parse_ok,
)


def request(
    *,
    body: Printer,
) -> Request[Printer]:
    """The ``POST /v3/printers/`` request, for the client to send."""
    headers: dict[str, Any] = {}

    _kwargs: dict[str, Any] = {
        "method": "POST",
        "url": "/v3/printers/",
    }

    _kwargs["json"] = body.to_dict()

    headers["Content-Type"] = "application/json"

    _kwargs["headers"] = headers
    return Request(OPERATION, _kwargs)
