"""The simulator implements exactly the operations of openapi.yaml, refusing bodies with declared statuses."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml
from printmgmt_sim.api import OPERATIONS

SPEC: dict[str, Any] = yaml.safe_load((Path(__file__).resolve().parents[2] / "openapi.yaml").read_text())
METHODS = {"get", "put", "post", "delete", "patch", "head", "options"}


def spec_operations() -> Iterator[tuple[str, str, str, dict[str, Any]]]:
    for path, item in SPEC["paths"].items():
        for method, operation in item.items():
            if method in METHODS:
                yield operation["operationId"], method.upper(), path, operation


def test_every_operation_is_implemented_once() -> None:
    implemented = [(op.operation_id, op.method, op.path) for op in OPERATIONS]
    assert implemented and len(implemented) == len(set(implemented))
    assert set(implemented) == {(op_id, method, path) for op_id, method, path, _ in spec_operations()}


def test_bodies_are_read_where_the_spec_has_one_and_refused_with_a_declared_status() -> None:
    by_id = {op.operation_id: op for op in OPERATIONS}
    for op_id, _, _, operation in spec_operations():
        implemented = by_id[op_id]
        assert (implemented.body is not None) == ("requestBody" in operation), op_id
        if implemented.body is not None:
            assert str(implemented.rejects_body_with) in operation["responses"], op_id
