"""The README's operations table follows the spec: every operation's client method is in its namespace's row,
and every method a row names exists."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from printmgmt_api.operations import OPERATIONS

from printmgmt import PrintClient

README = Path(__file__).resolve().parents[1] / "README.md"


def table_rows() -> dict[str, list[str]]:
    """Namespace (``client.jobs``) -> the method names its row of "## Operations" lists."""
    section = README.read_text().split("\n## Operations\n", 1)[1].split("\n## ", 1)[0]
    rows = {}
    for line in section.splitlines():
        if match := re.match(r"\| `(client(?:\.\w+)?)` \| (.*) \|$", line):
            rows[match[1]] = re.findall(r"`(\w+)\(", match[2])
    return rows


def test_every_operation_is_in_the_table() -> None:
    rows = table_rows()
    missing = []
    for spec in OPERATIONS.values():
        *group, method = spec.name.split(".")
        namespace = ".".join(["client", *group])
        if method not in rows.get(namespace, []):
            missing.append(f"{namespace}.{method}() ({spec.method} {spec.path})")
    assert not missing, "README.md's operations table lacks " + ", ".join(missing)


@pytest.mark.parametrize("namespace", sorted(table_rows()))
def test_every_method_the_table_names_exists(namespace: str) -> None:
    owner: object = PrintClient("https://printmgmt.invalid", auth="token")
    for part in namespace.split(".")[1:]:
        owner = getattr(owner, part)
    unknown = [method for method in table_rows()[namespace] if not callable(getattr(owner, method, None))]
    assert not unknown, f"{namespace} has no {unknown}"
