from typing import Any
from urllib.parse import quote

from ...models.log_entry import LogEntry
from ...operations import BY_MODULE, Operation, Request


def _parse_ok(data: Any) -> list[LogEntry]:
    response_200 = []
    _response_200 = data
    for response_200_item_data in _response_200:
        response_200_item = LogEntry.from_dict(response_200_item_data)

        response_200.append(response_200_item)

    return response_200


OPERATION: Operation[list[LogEntry]] = Operation(
    spec=BY_MODULE["printers.get_printer_logs"],
    body="json",
    parse_ok=_parse_ok,
)


def request(
    printer_name: str,
) -> Request[list[LogEntry]]:
    """The ``GET /v3/printers/{printer_name}/logs`` request, for the client to send."""

    _kwargs: dict[str, Any] = {
        "method": "GET",
        "url": "/v3/printers/{printer_name}/logs".format(
            printer_name=quote(str(printer_name), safe=""),
        ),
    }

    return Request(OPERATION, _kwargs)
