"""Every operation is declared once, in openapi.yaml (``x-printmgmt``), and everything reads that declaration."""

from __future__ import annotations

import importlib.util
import re
import sys
from pathlib import Path
from typing import Any

import pytest

from printmgmt import PrintClient
from printmgmt.retry import Repeatability
from printmgmt_api.operations import OPERATIONS

ROOT = Path(__file__).resolve().parents[1]


def _table_script() -> Any:
    spec = importlib.util.spec_from_file_location("operations_table", ROOT / "templates" / "operations_table.py")
    assert spec and spec.loader
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _operations(spec: dict[str, Any]) -> list[dict[str, Any]]:
    return [op for item in spec["paths"].values() for m, op in item.items() if m in ("get", "put", "post", "delete")]


def test_every_operation_declares_itself(spec: dict[str, Any]) -> None:
    for op in _operations(spec):
        declared = op.get("x-printmgmt")
        assert isinstance(declared, dict), f"{op['operationId']} has no x-printmgmt declaration"
        assert Repeatability(declared["repeat"])
    assert {op["operationId"] for op in _operations(spec)} == set(OPERATIONS)


def test_the_generated_table_is_what_the_spec_says(spec: dict[str, Any]) -> None:
    script = _table_script()
    namespace: dict[str, Any] = {}
    exec(script.render(script.declarations(spec)), namespace)  # the table make generate would write now
    fresh = {op_id: op.__getstate__() for op_id, op in namespace["OPERATIONS"].items()}
    assert fresh == {op_id: op.__getstate__() for op_id, op in OPERATIONS.items()}, "run make generate"


def test_a_missing_declaration_fails_generation(spec: dict[str, Any]) -> None:
    broken = {**spec, "paths": {"/x": {"get": {"operationId": "getX", "tags": ["root"]}}}}
    with pytest.raises(SystemExit, match="getX needs x-printmgmt"):
        _table_script().declarations(broken)


def test_every_declared_name_is_a_client_method() -> None:
    client = PrintClient("https://print.test", auth="t")
    for spec in OPERATIONS.values():
        method: Any = client
        for part in spec.name.split("."):
            method = getattr(method, part)
        assert callable(method), spec.name


def test_the_overlay_reads_repeatability_from_the_declaration() -> None:
    from printmgmt._invoke import Operation

    assert Operation("repeatJob").repeatability is Repeatability.NEVER
    assert Operation("updatePrinter").repeatability is Repeatability.IDEMPOTENT
    assert Operation("pauseJob").repeatability is Repeatability.ACTION
    assert Operation("getJob").name == "jobs.get"


def test_modules_exist() -> None:
    for spec in OPERATIONS.values():
        assert importlib.util.find_spec(f"printmgmt_api.api.{spec.module}") is not None, spec.module
    assert "printmgmt_api.operations" in sys.modules


def test_the_readme_retry_table_names_the_declared_exceptions() -> None:
    """The README's retry table is written for people; it must name exactly what the spec declares."""
    rows = {
        line.split("|")[1].strip(): line.split("|")[2]
        for line in (ROOT / "README.md").read_text().splitlines()
        if line.startswith("| 429, 503") or line.startswith("| 502, 504")
    }

    def named(cell: str) -> set[str]:
        return set(re.findall(r"`([\w.]+)`", cell))

    never = {op.name for op in OPERATIONS.values() if op.repeat == "never"}
    replaced = {op.name for op in OPERATIONS.values() if op.repeat == "idempotent" and op.method != "DELETE"}
    assert named(rows["429, 503"]) == never
    assert named(rows["502, 504, read timeout, dropped connection"]) == replaced
