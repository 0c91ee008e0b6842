"""Every operation is declared once, in openapi.yaml (``x-printmgmt``), and everything reads that declaration."""

from __future__ import annotations

import importlib
import importlib.util
import re
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


def test_each_endpoint_module_publishes_its_declared_operation() -> None:
    for spec in OPERATIONS.values():
        module = importlib.import_module(f"printmgmt_api.api.{spec.module}")
        assert module.OPERATION.spec is spec
        assert callable(module.request)
    from printmgmt_api.api.jobs import repeat_job

    assert repeat_job.OPERATION.spec.repeat == "never"
    assert repeat_job.request("j1").operation is repeat_job.OPERATION


async def test_the_retry_loop_reads_repeatability_from_the_declaration(mock: Any, client: PrintClient) -> None:
    import httpx

    # 503 is retried for actions, never for repeat (a replay prints again): both PUT, told apart by x-printmgmt
    pause = mock.put("/v3/jobs/j1/pause")
    pause.side_effect = [httpx.Response(503), httpx.Response(200, json={})]
    await client.jobs.pause("j1")
    assert pause.call_count == 2
    repeat = mock.put("/v3/jobs/j1/repeat").respond(503)
    with pytest.raises(Exception, match="503"):
        await client.jobs.repeat("j1")
    assert repeat.call_count == 1


def test_modules_exist() -> None:
    for spec in OPERATIONS.values():
        assert importlib.util.find_spec(f"printmgmt_api.api.{spec.module}") is not None, spec.module


def test_the_guides_retry_table_names_the_declared_exceptions() -> None:
    """The guide's retry table is written for people; it must name exactly what the spec declares."""
    rows = {
        line.split("|")[1].strip(): line.split("|")[2]
        for line in (ROOT / "docs" / "configuration.md").read_text().splitlines()
        if line.startswith("| 429, 503") or line.startswith("| 502, 504")
    }

    def named(cell: str) -> set[str]:
        return set(re.findall(r"`([\w.]+)`", cell))

    never = {op.name for op in OPERATIONS.values() if op.repeat == "never"}
    replaced = {op.name for op in OPERATIONS.values() if op.repeat == "idempotent" and op.method != "DELETE"}
    assert named(rows["429, 503"]) == never
    assert named(rows["502, 504, read timeout, dropped connection"]) == replaced
