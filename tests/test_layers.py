"""The house's contracts: every module of printmgmt is in an import-linter layer, the guide shows those layers as
they are, and the command line, the simulator and the rest of the SDK reach the server model and the SDK only
through public names."""

from __future__ import annotations

import re
import tomllib
from functools import cache
from pathlib import Path
from typing import Any

import grimp

ROOT = Path(__file__).resolve().parents[1]
#: Private SDK modules the command line may still import (its query check call sites).
CLI_PRIVATE_ALLOWED = {"printmgmt._querycheck"}


@cache
def graph() -> Any:
    return grimp.build_graph("printmgmt", "printmgmt_api", "printmgmt_sim")


def layers() -> list[str]:
    contracts = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"]["contracts"]
    layered = next(contract for contract in contracts if contract["type"] == "layers")
    found: list[str] = layered["layers"]
    return found


def layer_modules(layer: str) -> list[str]:
    return [name.strip().strip("()") for name in re.split(r"[|:]", layer)]


def test_every_module_of_printmgmt_is_in_a_layer() -> None:
    named = {module for layer in layers() for module in layer_modules(layer)}
    modules = {module for module in graph().modules if module.split(".")[0] == "printmgmt"}
    containers = {".".join(name.split(".")[:depth]) for name in named for depth in range(1, name.count(".") + 1)}
    in_none = sorted(
        module
        for module in modules - containers
        if not any(module == name or module.startswith(name + ".") for name in named)
    )
    assert in_none == []
    # and a layer names only what exists (an optional one, in parentheses, may be gone)
    required = {name.strip() for layer in layers() for name in re.split(r"[|:]", layer) if "(" not in name}
    assert sorted(required - modules) == []


def test_the_guide_shows_the_layers_of_the_contract() -> None:
    guide = (ROOT / "docs" / "maintaining.md").read_text()
    block = guide.split("## Layers", 1)[1].split("```", 2)[1]
    shown = [re.split(r"\s{2,}", line.strip())[0] for line in block.splitlines()[1:]]
    shown = shown[: shown.index("- - - - - - - - - - - - - - - - - - -")]
    assert shown == [" ".join(layer.split()) for layer in layers()]


def test_nothing_outside_the_server_model_imports_its_private_modules() -> None:
    private = [module for module in graph().modules if module.startswith("printmgmt.server._")]
    assert private
    outside = {
        (importer, module)
        for module in private
        for importer in graph().find_modules_that_directly_import(module)
        if importer != "printmgmt.server" and not importer.startswith("printmgmt.server.")
    }
    assert outside == set()


def test_the_command_line_and_the_simulator_import_only_public_sdk_modules() -> None:
    users = [module for module in graph().modules if module.startswith(("printmgmt.cli.", "printmgmt_sim."))]
    private = {
        (user, imported)
        for user in users
        for imported in graph().find_modules_directly_imported_by(user)
        if imported.startswith("printmgmt.")
        and not imported.startswith("printmgmt.cli.")
        and any(part.startswith("_") for part in imported.split(".")[1:])
        and imported not in CLI_PRIVATE_ALLOWED
    }
    assert private == set()
