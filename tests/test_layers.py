"""The house's contracts: every module of every distribution (printmgmt, printmgmt_api, printmgmt_sim,
printmgmt_cli) is in an import-linter layer, the guide shows those layers as they are, and the command line, the
simulator and the rest of the SDK reach the server model and the SDK only through public names."""

from __future__ import annotations

import re
import tomllib
from functools import cache
from pathlib import Path
from typing import Any

import grimp

ROOT = Path(__file__).resolve().parents[1]
#: The packages of the three distributions.
PACKAGES = ("printmgmt", "printmgmt_api", "printmgmt_sim", "printmgmt_cli")
#: Private SDK modules the doctor imports: ``loads`` (the SDK's JSON decoder); a public name for it is the SDK's
#: decision, not the command line's.
CLI_PRIVATE_ALLOWED = {"printmgmt._json"}


@cache
def graph() -> Any:
    return grimp.build_graph(*PACKAGES)


def contracts() -> list[dict[str, Any]]:
    found: list[dict[str, Any]] = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["importlinter"][
        "contracts"
    ]
    return found


def layered_contracts() -> list[list[str]]:
    return [contract["layers"] for contract in contracts() if contract["type"] == "layers"]


def layer_modules(layer: str) -> list[str]:
    return [name.strip().strip("()") for name in re.split(r"[|:]", layer)]


def unlayered(modules: set[str]) -> list[str]:
    """The modules that sit in no layer: neither a layer's module (or inside one) nor a package holding some."""
    named = {module for layers in layered_contracts() for layer in layers for module in layer_modules(layer)}
    containers = {".".join(name.split(".")[:depth]) for name in named for depth in range(1, name.count(".") + 1)}
    return sorted(
        module
        for module in modules - containers
        if not any(module == name or module.startswith(name + ".") for name in named)
    )


def test_every_module_of_every_distribution_is_in_a_layer() -> None:
    modules = set(graph().modules) & {m for m in graph().modules if m.split(".")[0] in PACKAGES}
    # the generated package sits below the others, held there by a forbidden contract
    generated = next(c for c in contracts() if c.get("source_modules") == ["printmgmt_api"])
    assert set(generated["forbidden_modules"]) == set(PACKAGES) - {"printmgmt_api"}
    assert unlayered(modules) == []
    # and a layer names only what exists (an optional one, in parentheses, may be gone)
    required = {
        name.strip()
        for layers in layered_contracts()
        for layer in layers
        for name in re.split(r"[|:]", layer)
        if "(" not in name
    }
    assert sorted(required - modules) == []


def test_a_module_in_no_layer_is_found() -> None:
    # the check above on a module that sits in none, beside ones that do (and their packages)
    assert unlayered({"printmgmt", "printmgmt.errors", "printmgmt._async.client", "printmgmt.stray"}) == [
        "printmgmt.stray"
    ]


def test_the_guide_shows_the_layers_of_the_contracts() -> None:
    guide = (ROOT / "docs" / "maintaining.md").read_text()
    section = guide.split("## Layers", 1)[1].split("\n## ", 1)[0]
    blocks = section.split("```")[1::2]
    shown = []
    for block in blocks:
        lines = [re.split(r"\s{2,}", line.strip())[0] for line in block.splitlines()[1:]]
        shown.append(
            lines[: lines.index("- - - - - - - - - - - - - - - - - - -")]
            if "- - - - - - - - - - - - - - - - - - -" in lines
            else lines
        )
    assert shown == [[" ".join(layer.split()) for layer in layers] for layers in layered_contracts()]


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
    users = [module for module in graph().modules if module.split(".")[0] in ("printmgmt_cli", "printmgmt_sim")]
    private = {
        (user, imported)
        for user in users
        for imported in graph().find_modules_directly_imported_by(user)
        if imported.split(".")[0] in ("printmgmt", "printmgmt_cli")
        and any(part.startswith("_") for part in imported.split(".")[1:])
        and imported not in CLI_PRIVATE_ALLOWED
        and imported != "printmgmt_cli.__main__"
    }
    assert private == set()


def test_the_simulator_takes_only_the_profile_from_the_command_line() -> None:
    taken = {
        imported
        for user in graph().modules
        if user.split(".")[0] == "printmgmt_sim"
        for imported in graph().find_modules_directly_imported_by(user)
        if imported.split(".")[0] == "printmgmt_cli"
    }
    assert taken == {"printmgmt_cli.profile"}
