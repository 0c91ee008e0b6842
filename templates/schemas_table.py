"""Writes ``printmgmt_api/schemas.py``: the spec's component schemas and each operation's request body schema.

The simulator reads its contract from them (the bodies it accepts, the fields its documents carry, its column
catalogue), so a field added to ``openapi.yaml`` reaches it through ``make generate`` alone.
``make generate`` runs it after the generator (``python templates/schemas_table.py openapi.yaml <package>``).
"""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

import yaml

METHODS = ("get", "put", "post", "delete", "patch")

HEADER = '''"""The component schemas of openapi.yaml (JSON Schema objects) and each operation's request body schema.

Written by ``templates/schemas_table.py`` during ``make generate``; do not edit.
"""

from typing import Any, Final

'''


def request_bodies(spec: dict[str, Any]) -> dict[str, str]:
    found = {}
    for item in spec["paths"].values():
        for method in METHODS:
            operation = item.get(method)
            if operation is None or "requestBody" not in operation:
                continue
            schema = operation["requestBody"]["content"]["application/json"]["schema"]
            ref = schema.get("$ref", "")
            if not ref.startswith("#/components/schemas/"):
                raise SystemExit(f"openapi.yaml: {operation['operationId']}: a request body must name a schema")
            found[operation["operationId"]] = ref.rsplit("/", 1)[-1]
    return found


def render(spec: dict[str, Any]) -> str:
    schemas = spec["components"]["schemas"]
    return (
        HEADER
        + "#: ``components.schemas`` by name.\n"
        + f"SCHEMAS: Final[dict[str, Any]] = {schemas!r}\n\n"
        + "#: operationId -> the component schema of its JSON request body.\n"
        + f"REQUEST_BODIES: Final[dict[str, str]] = {request_bodies(spec)!r}\n"
    )


def main() -> None:
    spec_path, package = Path(sys.argv[1]), Path(sys.argv[2])
    (package / "schemas.py").write_text(render(yaml.safe_load(spec_path.read_text())))


if __name__ == "__main__":
    main()
