from typing import Any

from ...models.metadata import Metadata
from ...operations import BY_MODULE, Operation, Request


def _parse_ok(data: Any) -> Metadata:
    response_200 = Metadata.from_dict(data)

    return response_200


OPERATION: Operation[Metadata] = Operation(
    spec=BY_MODULE["jobs.get_jobs_metadata"],
    body="json",
    parse_ok=_parse_ok,
)


def request() -> Request[Metadata]:
    """The ``GET /v3/jobs/metadata`` request, for the client to send."""

    _kwargs: dict[str, Any] = {
        "method": "GET",
        "url": "/v3/jobs/metadata",
    }

    return Request(OPERATION, _kwargs)
