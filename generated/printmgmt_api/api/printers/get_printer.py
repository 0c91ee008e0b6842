from typing import Any
from urllib.parse import quote

from ...models.printer import Printer
from ...operations import BY_MODULE, Operation, Request


def _parse_ok(data: Any) -> Printer:
    response_200 = Printer.from_dict(data)

    return response_200


OPERATION: Operation[Printer] = Operation(
    spec=BY_MODULE["printers.get_printer"],
    body="json",
    parse_ok=_parse_ok,
)


def request(
    printer_name: str,
) -> Request[Printer]:
    """The ``GET /v3/printers/{printer_name}`` request, for the client to send."""

    _kwargs: dict[str, Any] = {
        "method": "GET",
        "url": "/v3/printers/{printer_name}".format(
            printer_name=quote(str(printer_name), safe=""),
        ),
    }

    return Request(OPERATION, _kwargs)
