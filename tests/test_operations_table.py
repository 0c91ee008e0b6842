"""The README's operations table is the one ``make generate`` writes from the spec and the facade's signatures
(``scripts/operations_table.py``)."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import ModuleType

from printmgmt_api.operations import OPERATIONS

ROOT = Path(__file__).resolve().parents[1]


def _script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("operations_table", ROOT / "scripts" / "operations_table.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


TABLE = _script()


def test_the_readme_table_is_what_make_generate_writes() -> None:
    text = (ROOT / "README.md").read_text()
    assert TABLE.updated(text) == text, "README.md's operations table is stale: run make generate"


def test_every_operation_is_in_its_namespace_row_with_its_client_method() -> None:
    table = TABLE.render()
    assert "no client method yet" not in table
    for spec in OPERATIONS.values():
        group, _, name = spec.name.rpartition(".")
        namespace = f"client.{group}" if group else "client"
        row = next(line for line in table.splitlines() if line.startswith(f"| `{namespace}` |"))
        assert f"`{name}(" in row, spec.name
