"""Every plausible 2xx answer of every operation whose body the interface does not show is read without an
error, and nothing in it is lost. Operations come from the declarations (``x-printmgmt.answer``), answers from
the shapes a server could plausibly send."""

from __future__ import annotations

import json
from typing import Any

import httpx
import pytest
import respx
from facade_table import FACADE, PATH_VALUES, facade_method

from printmgmt import InvalidResponse, PrintClient
from printmgmt_api.operations import OPERATIONS, OperationSpec


def _ops(answer: str) -> list[Any]:
    return [pytest.param(spec, id=spec.id) for spec in OPERATIONS.values() if spec.answer == answer]


def _url(spec: OperationSpec) -> str:
    return spec.path.format(**PATH_VALUES)


async def _call(client: PrintClient, spec: OperationSpec) -> Any:
    name, args, kwargs = FACADE[spec.id]
    method = facade_method(client, name)
    return await method(*args, **kwargs)


def _answer(mock: respx.MockRouter, spec: OperationSpec, status: int, body: Any) -> None:
    route = mock.request(spec.method, _url(spec))
    if isinstance(body, bytes):
        route.respond(status, content=body, headers={"Content-Type": "text/plain"})
    else:
        route.respond(status, json=body)


def test_every_declared_kind_has_operations() -> None:
    kinds = {spec.answer for spec in OPERATIONS.values()}
    assert kinds == {"model", "action", "open", "list", "written"}


OPEN_ANSWERS = [
    pytest.param(
        {"a": 1, "b": None, "roles": "admin"}, lambda spec: {"a": 1, "b": None, "roles": "admin"}, id="object"
    ),
    pytest.param([{"x": 1}, "y"], lambda spec: {spec.wrap: [{"x": 1}, "y"]}, id="array"),
    pytest.param(42, lambda spec: {"value": 42}, id="number"),
    pytest.param(b"null", lambda spec: {"value": None}, id="null"),
    pytest.param(b"11.2.0", lambda spec: {"value": "11.2.0"}, id="text"),
    pytest.param(b"", lambda spec: {}, id="empty"),
]


@pytest.mark.parametrize("spec", _ops("open"))
@pytest.mark.parametrize(("body", "expected"), OPEN_ANSWERS)
async def test_an_open_read_takes_any_value(
    mock: respx.MockRouter, client: PrintClient, spec: OperationSpec, body: Any, expected: Any
) -> None:
    _answer(mock, spec, 200, body)
    result = await _call(client, spec)
    assert result.to_dict() == expected(spec)


LIST_ANSWERS = [
    pytest.param([{"name": "a", "n": 1}, {"name": "b"}], [{"name": "a", "n": 1}, {"name": "b"}], id="array"),
    pytest.param({"results": [{"name": "a"}], "totalCount": 1}, [{"name": "a"}], id="results"),
    pytest.param({"value": [{"name": "a"}]}, [{"name": "a"}], id="value"),
    pytest.param({"d": {"results": [{"name": "a"}]}}, [{"name": "a"}], id="d-results"),
    pytest.param({"name": "a"}, [{"name": "a"}], id="one-object"),
    pytest.param(["a", "b"], "wrapped", id="strings"),
    pytest.param(b"a\nb\n", "wrapped", id="text-lines"),
    pytest.param(b"", [], id="empty"),
    pytest.param(b"null", [], id="null"),
]


@pytest.mark.parametrize("spec", _ops("list"))
@pytest.mark.parametrize(("body", "expected"), LIST_ANSWERS)
async def test_a_guessed_list_takes_every_list_shape(
    mock: respx.MockRouter, client: PrintClient, spec: OperationSpec, body: Any, expected: Any
) -> None:
    _answer(mock, spec, 200, body)
    result = await _call(client, spec)
    assert isinstance(result, list)
    if expected == "wrapped":
        expected = [{spec.wrap: "a"}, {spec.wrap: "b"}]
    assert [item.to_dict() for item in result] == expected


ACTION_ANSWERS = [
    pytest.param(200, {"message": "OK", "extra": [1]}, {"message": "OK", "extra": [1]}, id="object"),
    pytest.param(200, {"message": None, "status": 3}, {"message": None, "status": 3}, id="odd-fields"),
    pytest.param(200, b"OK", {"message": "OK"}, id="text"),
    pytest.param(204, b"", {}, id="204"),
    pytest.param(201, {"_id": "x"}, {"_id": "x"}, id="201"),
    pytest.param(200, True, {"value": True}, id="true"),
    pytest.param(200, [1, 2], {"value": [1, 2]}, id="array"),
]


@pytest.mark.parametrize("spec", _ops("action"))
@pytest.mark.parametrize(("status", "body", "expected"), ACTION_ANSWERS)
async def test_an_action_takes_any_2xx_answer(
    mock: respx.MockRouter, client: PrintClient, spec: OperationSpec, status: int, body: Any, expected: Any
) -> None:
    _answer(mock, spec, status, body)
    result = await _call(client, spec)
    assert result.to_dict() == expected


def _written_key(spec: OperationSpec) -> str | None:
    return {"printer": "_id", "flow": "name"}.get(spec.name.split(".")[0].rstrip("s"))


@pytest.mark.parametrize("spec", _ops("written"))
@pytest.mark.parametrize("status", [200, 201])
async def test_a_write_returns_the_object_when_the_answer_holds_it(
    mock: respx.MockRouter, client: PrintClient, spec: OperationSpec, status: int
) -> None:
    key = _written_key(spec)
    document = {key: "p1", "extra": {"a": None}} if key else {"any": {"LOG_LEVEL": "info"}}
    _answer(mock, spec, status, document)
    result = await _call(client, spec)
    assert result is not None
    assert result.to_dict() == document


WRITE_ACKS = [
    pytest.param(204, b"", id="204"),
    pytest.param(200, b"", id="empty"),
    pytest.param(201, b"Created", id="text"),
    pytest.param(200, True, id="true"),
    pytest.param(200, [{"_id": "p1"}], id="array"),
]


@pytest.mark.parametrize("spec", _ops("written"))
@pytest.mark.parametrize(("status", "body"), WRITE_ACKS)
async def test_a_write_answered_without_the_object_returns_none(
    mock: respx.MockRouter, client: PrintClient, spec: OperationSpec, status: int, body: Any
) -> None:
    _answer(mock, spec, status, body)
    assert await _call(client, spec) is None


@pytest.mark.parametrize("spec", [s for s in OPERATIONS.values() if s.answer == "written" and _written_key(s)])
@pytest.mark.parametrize("body", [{"message": "created"}, {"_id": 5, "name": None}], ids=["ack", "bad-key"])
async def test_a_write_acknowledged_with_an_object_without_its_key_returns_none(
    mock: respx.MockRouter, client: PrintClient, spec: OperationSpec, body: Any
) -> None:
    _answer(mock, spec, 200, body)
    assert await _call(client, spec) is None


TOLERANT = [pytest.param(spec, id=spec.id) for spec in OPERATIONS.values() if spec.answer != "model"]


@pytest.mark.parametrize("spec", TOLERANT)
async def test_an_html_page_with_2xx_is_not_taken_for_the_servers_answer(
    mock: respx.MockRouter, client: PrintClient, spec: OperationSpec
) -> None:
    page = b"<!DOCTYPE html><html><body><h1>Sign in</h1></body></html>"
    mock.request(spec.method, _url(spec)).respond(200, content=page, headers={"Content-Type": "text/html"})
    with pytest.raises(InvalidResponse, match="HTML page") as caught:
        await _call(client, spec)
    assert caught.value.body == page.decode()


async def test_the_raw_answer_stays_reachable(mock: respx.MockRouter, client: PrintClient) -> None:
    from printmgmt_api.api.statistics import get_job_count

    body = {"series": [[1, 2]], "unit": "jobs"}
    mock.get("/v3/statistics/job-count").respond(200, json=body)
    response = await client.request_raw(get_job_count.request())
    assert isinstance(response, httpx.Response)
    assert json.loads(response.content) == body
