"""Every facade method against ``prism mock openapi.yaml``: Prism, not our own fakes, judges the requests.

A test fails when Prism flags a request (``sl-violations`` header or its own problem+json answer), when a
request uses a query parameter the operation does not declare, when the facade addresses another operation,
when the parsed result does not give back the JSON Prism sent, or when a declared error status (forced with
``Prefer: code=...``) does not raise the documented exception with the server's code and message.
"""

from __future__ import annotations

import json
import re
import ssl
from collections.abc import AsyncIterator, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from facade_table import FACADE, PATH_VALUES
from prism_watch import SpecOperation, Traffic, load_spec, resolve, spec_operations, verdict, violations
from referee_servers import Server

import printmgmt_api.models as generated_models
from printmgmt import Page, PrintClient, odata
from printmgmt.errors import (
    ApiError,
    BadRequest,
    Forbidden,
    NotFound,
    PagingError,
    PreconditionFailed,
    ServerError,
    Unauthorized,
)

SPEC = load_spec()
OPERATIONS = spec_operations(SPEC)
TOKEN = "referee-token"  # Prism checks that a Bearer token is there, never its value
# plain http here; one context instead of loading the CA store for every client
SSL_CONTEXT = ssl.create_default_context()

#: The exception each declared error status must raise.
EXPECTED_ERROR: dict[int, type[ApiError]] = {
    400: BadRequest,
    401: Unauthorized,
    403: Forbidden,
    404: NotFound,
    412: PreconditionFailed,
    500: ServerError,
}
ERROR_MEDIA = ("application/json", "text/plain")
ERROR_CASES = [
    pytest.param(op_id, status, media, id=f"{op_id}-{status}-{media.split('/')[1]}")
    for op_id, operation in sorted(OPERATIONS.items())
    for status in operation.statuses()
    if status >= 300
    for media in ERROR_MEDIA
]


@asynccontextmanager
async def referee_client(
    prism: Server, *, headers: dict[str, str] | None = None, transport: httpx.AsyncBaseTransport | None = None
) -> AsyncIterator[tuple[PrintClient, Traffic]]:
    async with PrintClient(prism.url, auth=TOKEN, headers=headers, verify=SSL_CONTEXT, transport=transport) as client:
        yield client, Traffic().attach(client.http)


def facade_method(client: PrintClient, dotted: str) -> Callable[..., Any]:
    target: Any = client
    for part in dotted.split("."):
        target = getattr(target, part)
    return target  # type: ignore[no-any-return]


def expected_path(operation: SpecOperation) -> str:
    return re.sub(r"\{(\w+)\}", lambda m: PATH_VALUES[m.group(1)], operation.path)


def expected_type(operation: SpecOperation) -> type:
    response = resolve(SPEC, operation.operation["responses"]["200"])
    media, content = next(iter(response["content"].items()))
    if media == "application/octet-stream":
        return bytes
    if media == "text/plain":
        return str
    schema = content["schema"]
    if "oneOf" in schema:
        return Page
    if schema.get("type") == "array":
        return list
    model: type = getattr(generated_models, schema["$ref"].rsplit("/", 1)[1])
    return model


def as_sent(result: Any, body: Any) -> Any:
    """``result`` turned back into what the server sent, shaped like ``body``."""
    if isinstance(result, Page):
        items = [as_sent(item, None) for item in result.items]
        if isinstance(body, dict):  # {results, totalCount}; other fields of the envelope are not kept
            shaped = {**body, "results": items}
            if "totalCount" in body:
                shaped["totalCount"] = result.total
            return shaped
        return items
    if isinstance(result, list):
        return [as_sent(item, None) for item in result]
    if hasattr(result, "to_dict"):
        return result.to_dict()
    return result


def sent_body(exchange_body: bytes, operation: SpecOperation) -> Any:
    media = next(iter(resolve(SPEC, operation.operation["responses"]["200"])["content"]))
    if media == "application/octet-stream":
        return exchange_body
    if media == "text/plain":
        return exchange_body.decode()
    return json.loads(exchange_body)


async def call_and_judge(client: PrintClient, traffic: Traffic, op_id: str) -> Any:
    """Call the facade method of ``op_id``; fail on anything Prism or the spec says against the request."""
    operation = OPERATIONS[op_id]
    dotted, args, kwargs = FACADE[op_id]
    try:
        result = await facade_method(client, dotted)(*args, **kwargs)
    finally:
        problems = verdict(traffic.exchanges, operation)
        assert not problems, "\n".join(problems)
    [exchange] = traffic.exchanges
    assert (exchange.method, exchange.url.path) == (operation.method, expected_path(operation))
    assert exchange.request_headers["Authorization"] == f"Bearer {TOKEN}"
    if "requestBody" in operation.operation:
        assert exchange.request_headers["Content-Type"] == "application/json"
    else:
        assert not exchange.request_body
    assert exchange.status == 200
    assert isinstance(result, expected_type(operation)), f"{dotted} returned {type(result).__name__}"
    body = sent_body(exchange.body, operation)
    assert as_sent(result, body) == body, f"{dotted}: the parsed result does not give back Prism's answer"
    return result


def test_the_facade_table_names_every_operation() -> None:
    assert OPERATIONS  # the spec was read
    assert set(OPERATIONS) == set(FACADE)


@pytest.mark.parametrize("op_id", sorted(OPERATIONS))
async def test_operation_conforms_to_the_spec(prism: Server, op_id: str) -> None:
    """Static examples: the request passes Prism's checks and the example comes back intact."""
    async with referee_client(prism) as (client, traffic):
        await call_and_judge(client, traffic, op_id)


@pytest.mark.parametrize("op_id", sorted(OPERATIONS))
async def test_operation_reads_generated_data(prism: Server, op_id: str) -> None:
    """``Prefer: dynamic=true``: Prism makes up a schema-valid answer (unknown fields in every open object,
    odd values); the SDK parses it and keeps every field."""
    async with referee_client(prism, headers={"Prefer": "dynamic=true"}) as (client, traffic):
        await call_and_judge(client, traffic, op_id)


@pytest.mark.parametrize("resource", ["jobs", "printers"])
async def test_list_sends_every_query_option_as_declared(prism: Server, resource: str) -> None:
    op_id = {"jobs": "listJobs", "printers": "listPrinters"}[resource]
    operation = OPERATIONS[op_id]
    async with referee_client(prism) as (client, traffic):
        collection = getattr(client, resource)
        page = await collection.list(
            filter=(odata.field("_id") == "O'Brien") & odata.field("current/jobName").startswith("Inv"),
            orderby="_id desc",
            select="_id,status",
            top=5,
            skip=2,
            count=True,
            check_query="off",  # the same select for both resources: the wire is what is checked here
        )
        assert len(page) == 1
        # Prism ignores $top/$skip and always sends its one example item: taken as the last page, a page of 2
        # holding 1 item ends the iteration; confirmed by one more request, the same item again means the server
        # does not page
        seen = [item async for item in collection.iterate(page_size=2, filter="_id ne 'x'", confirm_short_pages=False)]
        assert len(seen) == 1
        with pytest.raises(PagingError, match="does not page"):
            [item async for item in collection.iterate(page_size=2, filter="_id ne 'x'")]
        await collection.list(top=0, skip=0)
    problems = verdict(traffic.exchanges, operation)
    assert not problems, "\n".join(problems)
    first = traffic.exchanges[0]
    assert dict(first.url.params) == {
        "$filter": "_id eq 'O''Brien' and startswith(current/jobName,'Inv') eq true",
        "$orderby": "_id desc",
        "$select": "_id,status",
        "$top": "5",
        "$skip": "2",
        "$inlinecount": "allpages",
    }
    assert all(e.url.path == operation.path for e in traffic.exchanges)


@pytest.mark.parametrize("method", ["logfile", "collect"])
async def test_downloads_stream_to_a_file(prism: Server, tmp_path: Path, method: str) -> None:
    target = tmp_path / method
    async with referee_client(prism) as (client, traffic):
        written = await getattr(client.jobs, method)("j1", to=target)
    problems = verdict(traffic.exchanges)
    assert not problems, "\n".join(problems)
    [exchange] = traffic.exchanges
    assert target.read_bytes() == exchange.body
    assert written == len(exchange.body) > 0


@pytest.mark.parametrize(("op_id", "status", "media"), ERROR_CASES)
async def test_declared_error_status_raises_its_exception(prism: Server, op_id: str, status: int, media: str) -> None:
    """``Prefer: code=<status>``: Prism answers the declared error with its example, as JSON or as text."""
    operation = OPERATIONS[op_id]
    assert status in EXPECTED_ERROR, f"{op_id} declares {status}: add the exception it must raise"
    expected = EXPECTED_ERROR[status]
    headers = {"Prefer": f"code={status}", "Accept": media}
    dotted, args, kwargs = FACADE[op_id]
    async with referee_client(prism, headers=headers) as (client, traffic):
        with pytest.raises(expected) as raised:
            await facade_method(client, dotted)(*args, **kwargs)
    problems = verdict(traffic.exchanges, operation)
    assert not problems, "\n".join(problems)
    # a fixed token: nothing to renew, so a 401 is not retried either
    [exchange] = traffic.exchanges
    assert (exchange.method, exchange.url.path, exchange.status) == (operation.method, expected_path(operation), status)
    assert exchange.content_type == media

    error = raised.value
    assert type(error) is expected
    assert (error.status_code, error.method, error.operation) == (status, operation.method, dotted)
    example = resolve(SPEC, operation.operation["responses"][str(status)])["content"][media]["example"]
    if media == "application/json":
        assert (error.code, error.message, dict(error.metadata)) == (
            example["code"],
            example["message"],
            example["metadata"],
        )
    else:
        assert (error.code, error.message) == (None, example)
    for name, value in PATH_VALUES.items():
        if f"{{{name}}}" in operation.path:
            target_kind = operation.operation["x-printmgmt"]["target"]  # the declaration's kind (job, printer)
            assert (error.target_kind, error.target) == (target_kind, value)
    if isinstance(error, PreconditionFailed):
        assert error.action == dotted.rsplit(".", 1)[1]
    assert TOKEN not in str(error) and TOKEN not in repr(error.headers)


# -- the detector is not vacuous ------------------------------------------------------------------------


class Rewrite(httpx.AsyncBaseTransport):
    """A transport that plants an SDK bug: it rewrites each request before it goes out."""

    def __init__(self, change: Callable[[httpx.Request], httpx.Request]) -> None:
        self._change = change
        self._inner = httpx.AsyncHTTPTransport()

    async def handle_async_request(self, request: httpx.Request) -> httpx.Response:
        return await self._inner.handle_async_request(self._change(request))

    async def aclose(self) -> None:
        await self._inner.aclose()


def rename_body_field(old: str, new: str) -> Callable[[httpx.Request], httpx.Request]:
    def change(request: httpx.Request) -> httpx.Request:
        body = json.loads(request.content)
        body[new] = body.pop(old)
        headers = {k: v for k, v in request.headers.items() if k.lower() != "content-length"}
        return httpx.Request(request.method, request.url, headers=headers, json=body)

    return change


@pytest.mark.parametrize(
    ("op_id", "change"),
    [
        pytest.param("moveJob", rename_body_field("printerName", "printer"), id="move-body-field"),
        pytest.param("redirectPrinter", rename_body_field("printerName", "to"), id="redirect-body-field"),
        pytest.param("setPrinterMessage", rename_body_field("message", "text"), id="message-body-field"),
        pytest.param("createFlow", rename_body_field("name", "flow"), id="flow-body-field"),
        pytest.param("createPrinter", rename_body_field("_id", "id"), id="printer-body-field"),
    ],
)
async def test_a_planted_body_bug_is_flagged_by_prism(
    prism: Server, op_id: str, change: Callable[[httpx.Request], httpx.Request]
) -> None:
    async with referee_client(prism, transport=Rewrite(change)) as (client, traffic):
        with pytest.raises(AssertionError, match=r"Prism 422|sl-violations Error: Request body must have required"):
            await call_and_judge(client, traffic, op_id)


async def test_a_planted_query_name_bug_is_flagged(prism: Server) -> None:
    """Prism lets ``?top=5`` through as an unknown parameter; our own check against the spec catches it."""

    async def drop_the_dollar(request: httpx.Request) -> None:
        params = [(k.lstrip("$"), v) for k, v in request.url.params.multi_items()]
        request.url = request.url.copy_with(params=params)

    async with referee_client(prism) as (client, traffic):
        client.http.event_hooks["request"].append(drop_the_dollar)
        await client.jobs.list(top=5)
    assert [(e.status, violations(e)) for e in traffic.exchanges] == [(200, [])]  # Prism itself does not mind
    problems = verdict(traffic.exchanges, OPERATIONS["listJobs"])
    assert len(problems) == 1 and "query parameter 'top' is not declared for listJobs" in problems[0]


@pytest.mark.parametrize(
    ("method", "path", "headers", "content", "flag"),
    [
        pytest.param("GET", "/v3/jobs/", {"Authorization": ""}, None, "Invalid security", id="no-token"),
        pytest.param("GET", "/v3/jobs/?$top=-1", {}, None, "$top must be >= 0", id="negative-top"),
        pytest.param("GET", "/v3/printers/?$top=abc", {}, None, "$top must be integer", id="text-top"),
        pytest.param("GET", "/v3/jobs/?$inlinecount=some", {}, None, "allowed values", id="bad-inlinecount"),
        pytest.param("PUT", "/v3/jobs/j1/move", {}, {"printer": "p2"}, "required property", id="move-body"),
        pytest.param("PUT", "/v3/jobs/j1/move", {}, None, "Body parameter is required", id="move-no-body"),
        pytest.param("PUT", "/v3/printers/p1/runtime", {}, {"queuedJobs": "x"}, "must be integer", id="runtime-type"),
        pytest.param("GET", "/v3/jobs/j1", {"Authorization": "Basic eDp5"}, None, "Invalid security", id="basic-auth"),
        pytest.param("PUT", "/v3/jobs/j1/pause", {"Prefer": "code=418"}, None, "not defined", id="undeclared-status"),
        pytest.param("POST", "/v3/jobs/j1/pause", {}, None, "NO_METHOD_MATCHED", id="wrong-method"),
        pytest.param("GET", "/v3/jobs", {}, None, "NO_PATH_MATCHED", id="no-trailing-slash"),
    ],
)
async def test_a_raw_request_that_breaks_the_spec_is_flagged(
    prism: Server, method: str, path: str, headers: dict[str, str], content: Any, flag: str
) -> None:
    async with referee_client(prism) as (client, traffic):
        request = client.http.build_request(method, path, headers=headers, json=content)
        # auth=None: the headers above go out as they are (no Bearer token added)
        await client.http.send(request, auth=None if "Authorization" in headers else httpx.USE_CLIENT_DEFAULT)
    [exchange] = traffic.exchanges
    problems = violations(exchange)
    assert problems, f"Prism did not flag {exchange}"
    assert any(flag in problem for problem in problems), problems
