"""Every facade method lets the caller change what is sent: extra_query, extra_headers, extra_body, replace_body."""

from __future__ import annotations

import inspect
import json

import httpx
import pytest
import respx
from facade_table import FACADE, facade_method

from printmgmt import PrintClient


def test_every_facade_method_takes_the_call_options(client: PrintClient) -> None:
    for dotted, *_ in FACADE.values():
        method = facade_method(client, dotted)
        params = inspect.signature(method).parameters
        if dotted.startswith("statistics.") and dotted != "statistics.metadata":
            # their keyword arguments are the (undocumented) query itself: timeout and extra_* are explicit
            assert "timeout" in params, dotted
            continue
        kinds = [p.kind for p in params.values()]
        assert inspect.Parameter.VAR_KEYWORD in kinds, f"{dotted} takes no **options"


async def test_extra_query_and_headers_reach_the_request(mock: respx.MockRouter, client: PrintClient) -> None:
    route = mock.get("/v3/jobs/j1").respond(json={"_id": "j1"})
    await client.jobs.get("j1", extra_query={"$select": "_id"}, extra_headers={"X-Trace": "t1"})
    request = route.calls.last.request
    assert request.url.params["$select"] == "_id"
    assert request.headers["X-Trace"] == "t1"
    lists = mock.get("/v3/jobs/").respond(json={"results": [], "totalCount": 0})
    await client.jobs.list(top=5, extra_query={"$top": "7", "tenant": "a"})
    assert lists.calls.last.request.url.params["$top"] == "7"  # the caller's wins
    assert lists.calls.last.request.url.params["tenant"] == "a"


async def test_extra_body_merges_and_replace_body_replaces(mock: respx.MockRouter, client: PrintClient) -> None:
    route = mock.put("/v3/jobs/j1/move").respond(json={})
    await client.jobs.move("j1", printer="p2", extra_body={"keepPosition": True})
    assert json.loads(route.calls.last.request.content) == {"printerName": "p2", "keepPosition": True}
    await client.jobs.move("j1", printer="p2", replace_body={"target": "p2"})
    assert json.loads(route.calls.last.request.content) == {"target": "p2"}
    assert route.calls.last.request.headers["Content-Type"] == "application/json"
    pause = mock.put("/v3/jobs/j1/pause").respond(json={})
    await client.jobs.pause("j1", extra_body={"reason": "toner"})  # an operation without a body gets one
    assert json.loads(pause.calls.last.request.content) == {"reason": "toner"}


async def test_extra_body_on_a_body_that_is_not_an_object_is_refused(
    mock: respx.MockRouter, client: PrintClient
) -> None:
    mock.put("/v3/jobs/j1/move").respond(json={})
    with pytest.raises(TypeError, match="replace_body"):
        await client.jobs.move("j1", printer="p2", replace_body=["p2"], extra_body={"a": 1})


async def test_options_apply_to_every_page_and_to_downloads(mock: respx.MockRouter, client: PrintClient) -> None:
    pages = mock.get("/v3/printers/").mock(
        side_effect=lambda request: httpx.Response(200, json={"results": [], "totalCount": 0})
    )
    assert [p async for p in client.printers.iterate(extra_headers={"X-Trace": "it"})] == []
    assert pages.calls.last.request.headers["X-Trace"] == "it"
    log = mock.get("/v3/jobs/j1/logfile").respond(text="line\n")
    assert await client.jobs.logfile("j1", extra_query={"tail": "1"}) == "line\n"
    assert log.calls.last.request.url.params["tail"] == "1"
