from typing import Any

from ...models.inline_count import InlineCount
from ...models.printer import Printer
from ...models.printer_collection import PrinterCollection
from ...operations import BY_MODULE, Operation, Request
from ...types import UNSET, Unset


def _parse_ok(data: Any) -> list[Printer] | PrinterCollection:
    def _parse_response_200(data: object) -> list[Printer] | PrinterCollection:
        try:
            if not isinstance(data, list):
                raise TypeError()
            response_200_type_0 = []
            _response_200_type_0 = data
            for componentsschemas_printer_array_item_data in _response_200_type_0:
                componentsschemas_printer_array_item = Printer.from_dict(componentsschemas_printer_array_item_data)

                response_200_type_0.append(componentsschemas_printer_array_item)

            return response_200_type_0
        except (TypeError, ValueError, AttributeError, KeyError):
            pass
        if not isinstance(data, dict):
            raise TypeError()
        response_200_type_1 = PrinterCollection.from_dict(data)

        return response_200_type_1

    response_200 = _parse_response_200(data)

    return response_200


OPERATION: Operation[list[Printer] | PrinterCollection] = Operation(
    spec=BY_MODULE["printers.list_printers"],
    body="json",
    parse_ok=_parse_ok,
)


def request(
    *,
    filter_: str | Unset = UNSET,
    top: int | Unset = UNSET,
    skip: int | Unset = UNSET,
    select: str | Unset = UNSET,
    inlinecount: InlineCount | Unset = UNSET,
    orderby: str | Unset = UNSET,
) -> Request[list[Printer] | PrinterCollection]:
    """The ``GET /v3/printers/`` request, for the client to send."""

    params: dict[str, Any] = {}

    params["$filter"] = filter_

    params["$top"] = top

    params["$skip"] = skip

    params["$select"] = select

    json_inlinecount: str | Unset = UNSET
    if not isinstance(inlinecount, Unset):
        json_inlinecount = inlinecount.value

    params["$inlinecount"] = json_inlinecount

    params["$orderby"] = orderby

    params = {k: v for k, v in params.items() if v is not UNSET and v is not None}

    _kwargs: dict[str, Any] = {
        "method": "GET",
        "url": "/v3/printers/",
        "params": params,
    }

    return Request(OPERATION, _kwargs)
