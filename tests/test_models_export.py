"""``printmgmt.models`` exports every schema an operation accepts or returns, nested ones included."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import Any

import yaml

import printmgmt.models
import printmgmt_api.models as generated

SPEC: dict[str, Any] = yaml.safe_load((Path(__file__).resolve().parents[1] / "openapi.yaml").read_text())


def _deref(node: dict[str, Any]) -> dict[str, Any]:
    while "$ref" in node:
        *_, kind, name = node["$ref"].split("/")
        node = SPEC["components"][kind][name]
    return node


def _schemas_in(node: Any) -> Iterator[str]:
    """The component schemas ``node`` names, directly or inside its properties, items and compositions."""
    if isinstance(node, dict):
        if isinstance(ref := node.get("$ref"), str) and ref.startswith("#/components/schemas/"):
            yield ref.rsplit("/", 1)[-1]
        for value in node.values():
            yield from _schemas_in(value)
    elif isinstance(node, list):
        for value in node:
            yield from _schemas_in(value)


def used_schemas() -> set[str]:
    """Every schema reachable from an operation's request body or 2xx answer."""
    roots: list[Any] = []
    for item in SPEC["paths"].values():
        for method, operation in item.items():
            if method == "parameters":
                continue
            roots.append(_deref(operation.get("requestBody", {})))
            roots += [_deref(answer) for status, answer in operation["responses"].items() if status.startswith("2")]
    found: set[str] = set()
    todo = [name for root in roots for name in _schemas_in(root)]
    while todo:
        if (name := todo.pop()) not in found:
            found.add(name)
            todo += _schemas_in(SPEC["components"]["schemas"][name])
    return found


def test_every_schema_an_operation_uses_is_exported() -> None:
    used = {name for name in used_schemas() if hasattr(generated, name)}  # arrays of models are no class
    assert {"Job", "MoveRequest", "JobStage"} <= used
    missing = sorted(name for name in used if name not in printmgmt.models.__all__)
    assert not missing, f"printmgmt.models does not export {missing}"
    assert all(getattr(printmgmt.models, name) is getattr(generated, name) for name in used)
