"""Writes ``printmgmt_api/operations.py``: every operation of the spec with its ``x-printmgmt`` declaration (and the
seam's classes, ``Operation`` and ``Request``, which each endpoint module publishes), and
``printmgmt_api/endpoints.py``: every operation's endpoint module as values.

openapi-python-client 0.29 does not hand operation-level ``x-`` extensions to templates, so ``make generate``
runs this after the generator (``python templates/operations_table.py openapi.yaml <package dir>``). It
fails, and generation with it, when an operation lacks its declaration or declares something unknown.
"""

from __future__ import annotations

import re
import sys
from pathlib import Path
from typing import Any

import yaml

METHODS = ("get", "put", "post", "delete", "patch")
REPEAT = ("safe", "idempotent", "action", "never")
KEYS = {"name", "repeat", "target", "answer", "wrap", "pages", "probe"}
ANSWERS = ("model", "action", "open", "list", "written")

HEADER = '''"""Every operation of openapi.yaml and what the SDK declares about it (``x-printmgmt``), and what each
endpoint module publishes (``Operation``) and builds (``Request``).

Written by ``templates/operations_table.py`` during ``make generate``; do not edit.
"""

from collections.abc import Callable
from typing import Any, Final, Generic, Literal, TypeVar

from attrs import define

R = TypeVar("R")


@define(frozen=True, slots=True)
class OperationSpec:
    """One operation: its id, method and path template, and its ``x-printmgmt`` declaration."""

    #: The spec's operationId (``pauseJob``).
    id: str
    #: The generated module under ``printmgmt_api.api`` (``jobs.pause_job``).
    module: str
    method: str
    path: str
    #: The client method, used in errors and logs (``jobs.pause``).
    name: str
    #: How safe a resend is: the retry policy's input.
    repeat: Literal["safe", "idempotent", "action", "never"]
    #: The noun of the path key (``job``), or None.
    target: str | None = None
    #: The path parameter that holds the target's key (``id``, ``printerName``), or None.
    key: str | None = None
    #: How a 2xx body is read (README "Tolerance rules"): ``model`` (the declared schema), ``action`` (any body:
    #: the action happened), ``open`` (a guessed shape: any JSON value or text; an object gives the model),
    #: ``list`` (a guessed list: an array, an object holding one, or text lines), ``written`` (a write: the object
    #: when the answer holds it, else None).
    answer: Literal["model", "action", "open", "list", "written"] = "model"
    #: ``open``: the model's key a bare array goes under; ``list``: the item's key a scalar item or text line
    #: goes under. Otherwise such values go under ``value``.
    wrap: str = "value"
    #: A ``$top``/``$skip`` collection.
    pages: bool = False
    #: Whether ``printmgmt doctor`` may call it (a safe read it asks about); false for a large download.
    probe: bool = True
    #: The permission area (``jobs``, ``printers``, ``dashboard``) the server checks, from the tag's
    #: ``x-printmgmt-area``; None where the evidence names none.
    area: str | None = None


@define(frozen=True, slots=True)
class Operation(Generic[R]):
    """What each endpoint module publishes as ``OPERATION``: its declaration, and how its 2xx answer is read
    (``body``: how to decode it; ``parse_ok``: the decoded body to the typed result)."""

    spec: OperationSpec
    body: Literal["json", "text", "bytes"]
    parse_ok: Callable[[Any], R]


@define(frozen=True, slots=True)
class Request(Generic[R]):
    """A request built by an endpoint module's ``request(...)``: httpx ``request()`` arguments (method, url,
    params, json, headers), and the operation that reads its answer."""

    operation: Operation[R]
    kwargs: dict[str, Any]


'''


def snake(name: str) -> str:
    return re.sub(r"(?<!^)(?=[A-Z])", "_", name).lower()


def declarations(spec: dict[str, Any]) -> list[dict[str, Any]]:
    areas = {tag["name"]: tag["x-printmgmt-area"] for tag in spec.get("tags", []) if "x-printmgmt-area" in tag}
    found = []
    for path, item in spec["paths"].items():
        for method in METHODS:
            operation = item.get(method)
            if operation is None:
                continue
            op_id = operation["operationId"]
            declared = operation.get("x-printmgmt")
            if not isinstance(declared, dict) or not {"name", "repeat"} <= declared.keys():
                raise SystemExit(f"openapi.yaml: {op_id} needs x-printmgmt with at least name and repeat")
            if unknown := declared.keys() - KEYS:
                raise SystemExit(f"openapi.yaml: {op_id}: unknown x-printmgmt keys {sorted(unknown)}")
            if declared.get("answer", "model") not in ANSWERS:
                raise SystemExit(f"openapi.yaml: {op_id}: answer must be one of {ANSWERS}")
            if declared["repeat"] not in REPEAT:
                raise SystemExit(f"openapi.yaml: {op_id}: repeat must be one of {REPEAT}")
            params = re.findall(r"\{(\w+)\}", path)
            if "target" in declared and len(params) != 1:
                raise SystemExit(f"openapi.yaml: {op_id} declares a target but its path has {len(params)} parameters")
            found.append(
                {
                    "id": op_id,
                    "module": f"{operation['tags'][0]}.{snake(op_id)}",
                    "method": method.upper(),
                    "path": path,
                    **declared,
                    **({"key": params[0]} if "target" in declared else {}),
                    **({"area": areas[operation["tags"][0]]} if operation["tags"][0] in areas else {}),
                }
            )
    names = [d["name"] for d in found]
    if len(set(names)) != len(names):
        raise SystemExit("openapi.yaml: two operations declare the same x-printmgmt name")
    return found


def render(found: list[dict[str, Any]]) -> str:
    rows = []
    for d in found:
        fields = ", ".join(f"{key}={d[key]!r}" for key in ("id", "module", "method", "path", "name", "repeat"))
        optional = ("target", "key", "answer", "wrap", "pages", "probe", "area")
        extra = "".join(f", {key}={d[key]!r}" for key in optional if key in d)
        rows.append(f"    {d['id']!r}: OperationSpec({fields}{extra}),")
    return (
        HEADER
        + "OPERATIONS: Final[dict[str, OperationSpec]] = {\n"
        + "\n".join(rows)
        + "\n}\n\n#: The same, by generated module (``jobs.pause_job``).\n"
        + "BY_MODULE: Final = {spec.module: spec for spec in OPERATIONS.values()}\n"
        + "\n#: The same, by client method (``jobs.pause``).\n"
        + "BY_NAME: Final = {spec.name: spec for spec in OPERATIONS.values()}\n"
    )


ENDPOINTS_HEADER = '''"""Every operation's endpoint module as values, by operationId: what reaches each operation
without looking a module up by its name (``printmgmt doctor`` asks every safe one).

Written by ``templates/operations_table.py`` during ``make generate``; do not edit.
"""

from collections.abc import Callable
from typing import Any, Final

from attrs import define

'''


def render_endpoints(found: list[dict[str, Any]]) -> str:
    modules = [d["module"].rpartition(".") for d in found]
    imports = [f"from .api.{tag} import {module}" for tag, _, module in modules]
    pairs = zip(found, modules, strict=True)
    rows = [f"    {d['id']!r}: Endpoint({m}.OPERATION, {m}.request)," for d, (_, _, m) in pairs]
    return (
        ENDPOINTS_HEADER
        + "\n".join(sorted(imports))
        + "\nfrom .operations import Operation, Request"
        + "\n\n\n@define(frozen=True, slots=True)\nclass Endpoint:\n"
        + '    """One endpoint module: how its answer is read, and its ``request(...)`` builder."""\n\n'
        + "    operation: Operation[Any]\n    request: Callable[..., Request[Any]]\n\n\n"
        + "ENDPOINTS: Final[dict[str, Endpoint]] = {\n"
        + "\n".join(rows)
        + "\n}\n"
    )


def main() -> None:
    spec_path, package = Path(sys.argv[1]), Path(sys.argv[2])
    spec = yaml.safe_load(spec_path.read_text())
    found = declarations(spec)
    (package / "operations.py").write_text(render(found))
    (package / "endpoints.py").write_text(render_endpoints(found))


if __name__ == "__main__":
    main()
