"""The twin's request bodies follow the spec: each declared field is honoured or declared ignored, per operation,
and bodies are checked against the spec's schemas."""

from __future__ import annotations

from typing import Any

import httpx
import pytest
from printmgmt_sim import Simulator
from printmgmt_sim.api import OPERATIONS as HANDLED
from printmgmt_sim.schemas import REQUEST_BODIES, properties, resolve

from printmgmt_api.operations import OPERATIONS

pytestmark = pytest.mark.print_server(jobs=60)

OTHER = "Lobby Color 1"

#: operationId -> a body the action accepts on the sample target; every other declared field is added to it.
BASES: dict[str, dict[str, Any]] = {
    "replaceConfig": {"any": {"LOG_LEVEL": "debug"}},
    "createFlow": {"name": "body-flow"},
    "moveJob": {"printerName": OTHER},
    "createPrinter": {"_id": "body-printer"},
    "updatePrinter": {"_id": "printer1"},
    "setPrinterMessage": {"message": "toner low"},
    "redirectPrinter": {"printerName": OTHER},
    "updatePrinterRuntime": {"status": "idle", "redirectedTo": ""},
}
_BY_TYPE: dict[str, Any] = {"string": "x", "integer": 1, "number": 1.5, "boolean": True, "object": {}, "array": []}


def full_body(op_id: str) -> dict[str, Any]:
    """The operation's sample body with every field its schema declares."""
    body = dict(BASES[op_id])
    for name, field in properties(REQUEST_BODIES[op_id]).items():
        spec = resolve(field)
        body.setdefault(name, spec["enum"][0] if spec.get("enum") else _BY_TYPE[spec.get("type", "string")])
    return body


def test_every_body_operation_has_a_sample() -> None:
    assert set(BASES) == set(REQUEST_BODIES)


@pytest.mark.parametrize("op_id", sorted(REQUEST_BODIES))
def test_every_declared_body_field_is_honoured_or_declared_ignored(
    print_simulator: Simulator, http: httpx.Client, op_id: str
) -> None:
    spec = OPERATIONS[op_id]
    job = http.get("/v3/jobs/", params={"$filter": "status eq 'Error'", "$top": 1}).json()[0]["_id"]
    path = spec.path.format(id=job, printerName="printer1", name="body-flow")
    body = full_body(op_id)
    assert set(properties(REQUEST_BODIES[op_id])) <= set(body)
    response = http.request(spec.method, path, json=body)
    assert response.is_success, (op_id, response.status_code, response.text)
    dropped = sorted(field for op, field in print_simulator.backend.unhonoured if op == op_id)
    assert not dropped, f"{op_id} neither honours nor declares ignored the body fields {dropped}"


def test_declared_ignored_fields_are_fields_of_the_body() -> None:
    for op in HANDLED:
        assert op.ignores <= set(properties(op.body) if op.body else ()), op.operation_id


@pytest.mark.parametrize("op_id", sorted(op for op, name in REQUEST_BODIES.items() if resolve(name).get("required")))
def test_a_body_without_a_required_field_is_refused(http: httpx.Client, op_id: str) -> None:
    spec = OPERATIONS[op_id]
    job = http.get("/v3/jobs/", params={"$filter": "status eq 'Error'", "$top": 1}).json()[0]["_id"]
    path = spec.path.format(id=job, printerName="printer1", name="body-flow")
    for required in resolve(REQUEST_BODIES[op_id])["required"]:
        body = {name: value for name, value in full_body(op_id).items() if name != required}
        response = http.request(spec.method, path, json=body)
        assert response.status_code in (400, 404, 412), (op_id, required, response.status_code)
        assert f"'{required}'" in response.json()["message"]
