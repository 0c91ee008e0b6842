from typing import Any

from ...models.inline_count import InlineCount
from ...models.job import Job
from ...models.job_collection import JobCollection
from ...operations import BY_MODULE, Operation, Request
from ...types import UNSET, Unset


def _parse_ok(data: Any) -> JobCollection | list[Job]:
    def _parse_response_200(data: object) -> JobCollection | list[Job]:
        try:
            if not isinstance(data, list):
                raise TypeError()
            response_200_type_0 = []
            _response_200_type_0 = data
            for componentsschemas_job_array_item_data in _response_200_type_0:
                componentsschemas_job_array_item = Job.from_dict(componentsschemas_job_array_item_data)

                response_200_type_0.append(componentsschemas_job_array_item)

            return response_200_type_0
        except (TypeError, ValueError, AttributeError, KeyError):
            pass
        if not isinstance(data, dict):
            raise TypeError()
        response_200_type_1 = JobCollection.from_dict(data)

        return response_200_type_1

    response_200 = _parse_response_200(data)

    return response_200


OPERATION: Operation[JobCollection | list[Job]] = Operation(
    spec=BY_MODULE["jobs.list_jobs"],
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
) -> Request[JobCollection | list[Job]]:
    """The ``GET /v3/jobs/`` request, for the client to send."""

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
        "url": "/v3/jobs/",
        "params": params,
    }

    return Request(OPERATION, _kwargs)
