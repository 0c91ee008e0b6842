from typing import Any

from ...models.statistics import Statistics
from ...operations import BY_MODULE, Operation, Request


def _parse_ok(data: Any) -> Statistics:
    response_200 = Statistics.from_dict(data)

    return response_200


OPERATION: Operation[Statistics] = Operation(
    spec=BY_MODULE["statistics.get_job_count"],
    body="json",
    parse_ok=_parse_ok,
)


def request() -> Request[Statistics]:
    """The ``GET /v3/statistics/job-count`` request, for the client to send."""

    _kwargs: dict[str, Any] = {
        "method": "GET",
        "url": "/v3/statistics/job-count",
    }

    return Request(OPERATION, _kwargs)
