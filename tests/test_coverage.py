"""Every operation in openapi.yaml is reachable from PrintClient, sends the declared request and returns
the declared type. The operation list comes from the spec, so a new operation without a facade method fails
here."""

from __future__ import annotations

import re
from typing import Any

import httpx
import pytest
import respx
from facade_table import FACADE, PATH_VALUES, facade_method

import printmgmt_api.models as generated_models
from printmgmt import PrintClient

METHODS = ("get", "put", "post", "delete")


def operations(spec: dict[str, Any]) -> list[tuple[str, str, str, dict[str, Any]]]:
    found = []
    for path, item in spec["paths"].items():
        for method in METHODS:
            if method in item:
                found.append((item[method]["operationId"], method.upper(), path, item[method]))
    return found


def _resolve(spec: dict[str, Any], node: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in node:
        *_, section, name = node["$ref"].split("/")
        node = spec["components"][section][name]
    return node


def sample_body(spec: dict[str, Any], schema: dict[str, Any]) -> Any:
    """The smallest body valid for ``schema``: required identifiers only."""
    schema = _resolve(spec, schema)
    if "oneOf" in schema:
        return sample_body(spec, schema["oneOf"][0])
    if schema.get("type") == "array":
        return [sample_body(spec, schema["items"])]
    return {name: f"{name}-value" for name in schema.get("required", [])}


def success(spec: dict[str, Any], operation: dict[str, Any]) -> tuple[httpx.Response, Any]:
    """A 200 answer for ``operation`` and the Python type the facade must return for it."""
    response = _resolve(spec, operation["responses"]["200"])
    media, content = next(iter(response["content"].items()))
    if media == "application/octet-stream":
        return httpx.Response(200, content=b"\x00\x01zip"), bytes
    if media == "text/plain":
        return httpx.Response(200, text="line 1\nline 2\n"), str
    schema = content["schema"]
    expected: Any = list
    if "$ref" in schema:
        name = schema["$ref"].rsplit("/", 1)[1]
        expected = getattr(generated_models, name)
    elif "oneOf" in schema:
        expected = None  # list operations return a Page
    return httpx.Response(200, json=sample_body(spec, schema)), expected


def test_every_operation_has_a_facade_method(spec: dict[str, Any]) -> None:
    in_spec = {op_id for op_id, *_ in operations(spec)}
    assert in_spec  # the spec was read
    assert in_spec == set(FACADE), f"missing: {in_spec - set(FACADE)}, stale: {set(FACADE) - in_spec}"


@pytest.mark.parametrize("operation_id", sorted(FACADE))
async def test_facade_method_sends_the_declared_request(
    operation_id: str, spec: dict[str, Any], mock: respx.MockRouter, client: PrintClient
) -> None:
    (_, method, path, operation) = next(op for op in operations(spec) if op[0] == operation_id)
    url_path = re.sub(r"\{(\w+)\}", lambda m: PATH_VALUES[m.group(1)], path)
    answer, expected = success(spec, operation)
    route = mock.request(method, url_path).mock(return_value=answer)

    dotted, args, kwargs = FACADE[operation_id]
    result = await facade_method(client, dotted)(*args, **kwargs)

    assert route.call_count == 1
    request = route.calls.last.request
    assert request.headers["Authorization"] == "Bearer test-token"
    if "requestBody" in operation:
        assert request.headers["Content-Type"] == "application/json"
        assert request.content, "the declared request body was not sent"
    else:
        assert not request.content
    if expected is None:
        from printmgmt import Page

        assert isinstance(result, Page)
    else:
        assert isinstance(result, expected), f"{dotted} returned {type(result).__name__}"
