"""Every non-2xx answer, every unreadable body and every transport failure becomes a PrintMgmtError."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
import respx
from facade_table import FACADE, PATH_VALUES, RESPONSES, facade_method

from printmgmt import PrintClient
from printmgmt.errors import (
    TOKEN_REQUEST,
    AnswerTimeout,
    ApiError,
    BadRequest,
    Forbidden,
    InvalidResponse,
    NotFound,
    OutcomeUnknown,
    PreconditionFailed,
    PrintMgmtError,
    RequestNotSent,
    SendTimeout,
    ServerError,
    TransportError,
    Unauthorized,
    transport_error,
)
from printmgmt_api.operations import OPERATIONS

JOB_URL = "/v3/jobs/j1"

STATUS_CLASSES = [
    (400, BadRequest),
    (401, Unauthorized),
    (403, Forbidden),
    (404, NotFound),
    (409, ApiError),
    (412, PreconditionFailed),
    (418, ApiError),
    (429, ApiError),
    (499, ApiError),
    (500, ServerError),
    (502, ServerError),
    (503, ServerError),
    (520, ServerError),
]

BODIES: list[tuple[str, dict[str, Any], str | None, str | None]] = [
    # (name, response kwargs, expected code, expected message)
    (
        "seal json",
        {"json": {"code": "ERR_X", "message": "it broke", "metadata": {"kbCode": "rest/X"}}},
        "ERR_X",
        "it broke",
    ),
    ("plain text", {"text": "Bad Request"}, None, "Bad Request"),
    ("empty", {"content": b""}, None, None),
    (
        "broken json",
        {"content": b'{"code": "ERR', "headers": {"Content-Type": "application/json"}},
        None,
        '{"code": "ERR',
    ),
    ("html", {"html": "<html><body>Bad Gateway</body></html>"}, None, "Bad Gateway"),  # the words, not the markup
    ("json array", {"json": ["a", "b"]}, None, '["a","b"]'),
    ("wrong types", {"json": {"code": 7, "message": ["x"], "metadata": "m"}}, "7", "['x']"),
    ("binary", {"content": b"\xff\xfe\x00garbage"}, None, None),
    (
        "odata v2",
        {"json": {"error": {"code": "", "message": {"lang": "en-US", "value": "Resource not found for the segment"}}}},
        None,
        "Resource not found for the segment",
    ),
    (
        "odata v2 light",
        {"json": {"odata.error": {"code": "E1", "message": {"lang": "en-US", "value": "No such job"}}}},
        "E1",
        "No such job",
    ),
    ("odata v4", {"json": {"error": {"code": "NotFound", "message": "No such job"}}}, "NotFound", "No such job"),
    ("error string", {"json": {"error": "job not found"}}, None, "job not found"),
    (
        "oauth",
        {"json": {"error": "invalid_token", "error_description": "Token expired"}},
        "invalid_token",
        "Token expired",
    ),
    ("problem json", {"json": {"title": "Not Found", "detail": "No job j1"}}, None, "No job j1"),
    ("error_description", {"json": {"error_description": "Job j1 is gone"}}, None, "Job j1 is gone"),
]


@pytest.mark.parametrize(("status", "cls"), STATUS_CLASSES)
@pytest.mark.parametrize(("name", "body", "code", "message"), BODIES, ids=[b[0] for b in BODIES])
async def test_status_and_body_map_to_the_right_error(
    mock: respx.MockRouter,
    client: PrintClient,
    status: int,
    cls: type[ApiError],
    name: str,
    body: dict[str, Any],
    code: str | None,
    message: str | None,
) -> None:
    mock.get(JOB_URL).respond(status, **body)
    with pytest.raises(ApiError) as caught:
        await client.jobs.get("j1")
    error = caught.value
    assert type(error) is cls
    assert error.status_code == status
    assert error.method == "GET"
    assert error.url.endswith(JOB_URL)
    assert error.operation == "jobs.get"
    assert (error.target_kind, error.target) == ("job", "j1")  # the id, the kind beside it
    assert error.code == code
    if message is not None:
        assert error.message == message
    elif name != "binary":
        assert error.message is None
    assert str(status) in str(error)
    assert "jobs.get on job 'j1'" in str(error)
    if message is not None:
        assert message in str(error)  # the server's words reach the message people read
    sent = httpx.Response(status, **body)
    assert error.raw_body == sent.text  # the body as sent stays on the exception


async def test_body_excerpt_is_bounded(mock: respx.MockRouter, client: PrintClient) -> None:
    mock.get(JOB_URL).respond(500, text="x" * 100_000)
    with pytest.raises(ServerError) as caught:
        await client.jobs.get("j1")
    assert 100 < len(caught.value.body) <= 501
    assert caught.value.raw_body == "x" * 100_000
    assert caught.value.message is not None and len(caught.value.message) <= 501
    assert len(str(caught.value)) < 700


async def test_error_keeps_headers_but_not_cookies(mock: respx.MockRouter, client: PrintClient) -> None:
    mock.get(JOB_URL).respond(503, text="busy", headers={"Retry-After": "3", "Set-Cookie": "session=abc"})
    with pytest.raises(ServerError) as caught:
        await client.jobs.get("j1")
    assert caught.value.headers["retry-after"] == "3"
    assert "set-cookie" not in {k.lower() for k in caught.value.headers}


@pytest.mark.parametrize(
    ("body", "problem"),
    [
        (b"{broken", "not valid JSON"),
        (b"", "not valid JSON"),
        (b"[1, 2]", "does not match the declared schema"),
        (b'"a string"', "does not match the declared schema"),
        (
            b'{"status": "Paused"}',
            "does not match the declared schema "
            "(KeyFieldError: the key field '_id' is missing or null (and so is 'id'))",
        ),  # _id is the key
        (b"<html>proxy page</html>", "not valid JSON"),
    ],
)
async def test_unreadable_success_body_raises_invalid_response(
    mock: respx.MockRouter, client: PrintClient, body: bytes, problem: str
) -> None:
    mock.get(JOB_URL).respond(200, content=body, headers={"Content-Type": "application/json"})
    with pytest.raises(InvalidResponse) as caught:
        await client.jobs.get("j1")
    assert caught.value.status_code == 200
    assert caught.value.operation == "jobs.get"
    assert problem in str(caught.value)


async def test_unreadable_list_item_raises_invalid_response(mock: respx.MockRouter, client: PrintClient) -> None:
    mock.get("/v3/jobs/").respond(200, json=[{"_id": "a"}, {"no_id": True}])
    with pytest.raises(InvalidResponse):
        await client.jobs.list()


@pytest.mark.parametrize(
    ("exc", "cls", "said"),
    [
        (httpx.ConnectError("connection refused"), RequestNotSent, "could not connect to the server"),
        (
            httpx.RemoteProtocolError("peer closed connection without sending complete message body"),
            OutcomeUnknown,
            "the server closed the connection or answered with broken HTTP",
        ),
        (httpx.ReadError("connection reset"), OutcomeUnknown, "the connection broke while reading the answer"),
        (httpx.WriteError("connection reset"), RequestNotSent, "the connection broke while sending the request"),
        (httpx.ReadTimeout("ReadTimeout"), AnswerTimeout, "timed out waiting for the answer (ReadTimeout)"),
        (httpx.ConnectTimeout("timed out"), SendTimeout, "timed out connecting to the server"),
        (httpx.PoolTimeout("no connection available"), SendTimeout, "timed out waiting for a free connection"),
        (httpx.DecodingError("bad gzip"), TransportError, "the request failed"),
    ],
)
async def test_transport_failures_keep_their_cause(
    mock: respx.MockRouter, client: PrintClient, exc: httpx.HTTPError, cls: type[TransportError], said: str
) -> None:
    mock.get(JOB_URL).mock(side_effect=exc)
    with pytest.raises(TransportError) as caught:
        await client.jobs.get("j1")
    assert type(caught.value) is cls
    assert caught.value.__cause__ is exc
    assert caught.value.method == "GET"
    assert caught.value.url is not None and caught.value.url.endswith(JOB_URL)
    assert type(exc).__name__ in str(caught.value)
    assert said in str(caught.value)


#: Every operation whose spec declares 412, as the facade table calls it: (name, method, path, args, kwargs, target).
ACTIONS_412 = [
    (
        OPERATIONS[op_id].name,
        OPERATIONS[op_id].method,
        OPERATIONS[op_id].path.format(**PATH_VALUES),
        args,
        kwargs,
        (str(OPERATIONS[op_id].target), PATH_VALUES[str(OPERATIONS[op_id].key)]),
    )
    for op_id, (_, args, kwargs) in FACADE.items()
    if "412" in RESPONSES[op_id]
]


def test_the_412_actions_follow_the_spec() -> None:
    assert {name for name, *_ in ACTIONS_412} >= {"jobs.move", "printers.redirect"}
    assert all(OPERATIONS[op_id].target for op_id in FACADE if "412" in RESPONSES[op_id])


@pytest.mark.parametrize(("operation", "method", "path", "args", "kwargs", "target"), ACTIONS_412)
@pytest.mark.parametrize("json_body", [True, False], ids=["json", "text"])
async def test_412_on_every_action_says_what_was_refused_and_why(
    mock: respx.MockRouter,
    client: PrintClient,
    operation: str,
    method: str,
    path: str,
    args: tuple[str, ...],
    kwargs: dict[str, str],
    target: tuple[str, str],
    json_body: bool,
) -> None:
    reason = "Printer is already paused." if operation.startswith("printers") else "Job is already finished."
    route = mock.route(method=method, path=path)
    if json_body:
        route.respond(412, json={"code": "ERR_STATE", "message": reason, "metadata": {}})
    else:
        route.respond(412, text=reason)
    action = operation.rsplit(".", 1)[-1]
    with pytest.raises(PreconditionFailed) as caught:
        await facade_method(client, operation)(*args, **kwargs)
    error = caught.value
    assert error.status_code == 412
    assert error.action == action
    assert (error.target_kind, error.target) == target
    assert error.message == reason
    kind, key = target
    assert (
        str(error)
        == f"{operation} on {kind} {key!r} refused: 412 Precondition Failed: {reason}"
        + (" [ERR_STATE]" if json_body else "")
        + f" ({method} {path})"
    )


async def test_action_success_bodies_are_read_leniently(mock: respx.MockRouter, client: PrintClient) -> None:
    route = mock.put("/v3/jobs/j1/pause")
    route.respond(200, content=b"")
    assert (await client.jobs.pause("j1")).to_dict() == {}
    route.respond(204)
    assert (await client.jobs.pause("j1")).to_dict() == {}
    route.respond(200, text="OK")
    assert (await client.jobs.pause("j1")).message == "OK"
    route.respond(200, json={"message": "paused", "status": "Paused", "extra": 1})
    result = await client.jobs.pause("j1")
    assert (result.message, result.status, result["extra"]) == ("paused", "Paused", 1)
    route.respond(200, json=[1, 2])
    assert (await client.jobs.pause("j1"))["value"] == [1, 2]


@pytest.mark.parametrize("page", ["<!DOCTYPE html><html><body>Sign in</body></html>", "\n <html>proxy</html>"])
async def test_an_html_page_answering_an_action_is_not_success(
    mock: respx.MockRouter, client: PrintClient, page: str
) -> None:
    mock.put("/v3/jobs/j1/pause").respond(200, text=page, headers={"Content-Type": "text/html"})
    with pytest.raises(InvalidResponse, match="may not have been carried out") as caught:
        await client.jobs.pause("j1")
    assert caught.value.body == page


async def test_every_error_is_a_printmgmt_error(mock: respx.MockRouter, client: PrintClient) -> None:
    # one request per failure kind; nothing but PrintMgmtError may escape
    answers = [
        httpx.Response(520, content=b"\x00"),
        httpx.Response(200, content=b"nul\x00l"),
        httpx.Response(404, json={"message": None, "code": None}),
        httpx.Response(600, text="beyond the registry"),
    ]
    for answer in answers:
        mock.get(JOB_URL).mock(return_value=answer)
        with pytest.raises(PrintMgmtError):
            await client.jobs.get("j1")


async def test_message_is_the_servers_text_and_str_the_whole_story(mock: respx.MockRouter, client: PrintClient) -> None:
    mock.put("/v3/jobs/j1/pause").respond(412, json={"code": "E412", "message": "job is paused"})
    with pytest.raises(PreconditionFailed) as caught:
        await client.jobs.pause("j1")
    error = caught.value
    assert error.message == "job is paused"
    assert error.code == "E412"
    assert str(error) == (
        "jobs.pause on job 'j1' refused: 412 Precondition Failed: job is paused [E412] (PUT /v3/jobs/j1/pause)"
    )
    mock.get("/v3/jobs/j2").respond(404, text="Cannot GET /v3/jobs/j2")
    with pytest.raises(NotFound) as missing:
        await client.jobs.get("j2")
    assert missing.value.message == "Cannot GET /v3/jobs/j2"
    assert missing.value.message in str(missing.value)


EXPRESS_404 = (
    '<!DOCTYPE html>\n<html lang="en">\n<head>\n<meta charset="utf-8">\n<title>Error</title>\n</head>\n'
    "<body>\n<pre>Cannot GET /v3/v3/jobs/j1</pre>\n</body>\n</html>\n"
)
NGINX_502 = (
    "<html><head><title>502 Bad Gateway</title></head><body><center><h1>502 Bad Gateway</h1></center>"
    "<hr><center>nginx</center></body></html>"
)


@pytest.mark.parametrize(
    ("status", "page", "error", "message"),
    [
        (404, EXPRESS_404, NotFound, "Cannot GET /v3/v3/jobs/j1"),
        (502, NGINX_502, ServerError, "502 Bad Gateway nginx"),
    ],
)
async def test_an_html_error_page_is_the_statuss_error_with_the_pages_text(
    mock: respx.MockRouter, client: PrintClient, status: int, page: str, error: type[ApiError], message: str
) -> None:
    mock.get("/v3/jobs/j1").respond(status, html=page)
    with pytest.raises(error) as caught:
        await client.with_options(retries=0).jobs.get("j1")
    assert caught.value.message == message
    assert "<" not in str(caught.value)
    assert caught.value.body == page


@pytest.mark.parametrize(
    ("extensions", "expected"),
    [({TOKEN_REQUEST: True}, RequestNotSent), ({}, OutcomeUnknown), (None, OutcomeUnknown)],
    ids=["token request", "the call's own", "no request"],
)
def test_a_token_request_that_breaks_means_the_calls_own_was_not_sent(
    extensions: dict[str, Any] | None, expected: type[TransportError]
) -> None:
    broke = httpx.ReadError("connection reset")
    if extensions is not None:  # an httpx error raised before a request existed has none
        broke.request = httpx.Request("POST", "http://idp.test/token", extensions=extensions)
    error = transport_error(broke, operation="jobs.pause", method="PUT", url="http://api.test/v3/jobs/j1/pause")
    assert type(error) is expected


@pytest.mark.parametrize(("status", "words"), [(499, "499 Unknown Status"), (507, "507 Insufficient Storage")])
async def test_the_message_names_the_status_in_words(
    mock: respx.MockRouter, client: PrintClient, status: int, words: str
) -> None:
    mock.get("/v3/jobs/j1").respond(status)
    with pytest.raises(ApiError, match=f"jobs.get on job 'j1' failed: {words}"):
        await client.with_options(retries=0).jobs.get("j1")
