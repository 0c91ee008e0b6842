"""Error messages say each thing once and keep query strings (filter values, ids) out."""

from __future__ import annotations

import httpx
import pytest
import respx

from printmgmt import PrintClient, odata
from printmgmt.errors import ApiError, BadRequest, Forbidden, RequestTimeout, TransportError, Unauthorized


@pytest.mark.parametrize(
    ("status", "body", "cls", "expected"),
    [
        (
            403,
            {"message": "Forbidden: no access to the dashboard"},
            Forbidden,
            "403 Forbidden: no access to the dashboard",
        ),
        (401, {"message": "Unauthorized: the token expired"}, Unauthorized, "401 Unauthorized: the token expired"),
        (400, {"message": "Bad Request"}, BadRequest, "400 Bad Request (GET /v3/jobs/)"),
        (403, {"message": "forbidden."}, Forbidden, "403 Forbidden (GET /v3/jobs/)"),
    ],
)
async def test_a_message_does_not_repeat_its_label(
    mock: respx.MockRouter, client: PrintClient, status: int, body: dict[str, str], cls: type[ApiError], expected: str
) -> None:
    mock.get("/v3/jobs/").respond(status, json=body)
    with pytest.raises(cls) as caught:
        await client.jobs.list(top=1)
    said = str(caught.value)
    assert expected in said
    label = said.split(f"{status} ", 1)[1].split(":")[0].split(" (")[0]
    assert said.lower().count(label.lower() + ":") <= 1, said
    assert caught.value.message == body["message"]  # the server's own words stay available as sent


@pytest.mark.parametrize(
    ("raised", "cls"), [(httpx.ConnectError("refused"), TransportError), (httpx.ReadTimeout("slow"), RequestTimeout)]
)
async def test_connection_and_timeout_messages_name_the_path_without_the_query(
    mock: respx.MockRouter, client: PrintClient, raised: Exception, cls: type
) -> None:
    mock.get("/v3/jobs/").mock(side_effect=raised)
    secret_filter = odata.field("current/userName") == "jdoe-private"
    with pytest.raises(cls) as caught:
        await client.with_options(retries=0).jobs.list(filter=secret_filter, top=5)
    said = str(caught.value)
    assert "/v3/jobs/ failed" in said
    assert "jdoe-private" not in said and "filter" not in said and "?" not in said
