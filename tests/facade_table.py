"""The facade call that exercises each operation of openapi.yaml, with sample arguments.

Shared by ``test_coverage.py`` (respx) and ``referees/`` (Prism): every operationId maps to the dotted
attribute path of its :class:`~printmgmt.PrintClient` method (its ``x-printmgmt`` name in the spec),
positional arguments and keyword arguments. The path arguments are the values of :data:`PATH_VALUES`.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import Any

import yaml

from printmgmt_api.operations import OPERATIONS

#: The path parameter values the sample arguments use.
PATH_VALUES = {"id": "j1", "printerName": "p1", "name": "f1"}
#: The second printer of a move or redirect.
OTHER_PRINTER = "p2"

# operationId -> (positional args, keyword args) of a sample call, where the path keys alone do not do
SAMPLES: dict[str, tuple[tuple[Any, ...], dict[str, Any]]] = {
    "replaceConfig": (({"any": {"LOG_LEVEL": "debug"}},), {}),
    "createFlow": (({"name": "f1", "source": "def main() {}"},), {}),
    "moveJob": (("j1",), {"printer": OTHER_PRINTER}),
    "createPrinter": (({"_id": "p1", "config": {"printer": "p1"}},), {}),
    "updatePrinter": (("p1", {"_id": "p1", "config": {"printer": "p1"}}), {}),
    "setPrinterMessage": (("p1", "toner low"), {}),
    "redirectPrinter": (("p1",), {"to": OTHER_PRINTER}),
    "updatePrinterRuntime": (("p1", {"queuedJobs": 0}), {}),
}

# operationId -> (facade attribute path, positional args, keyword args)
FACADE: dict[str, tuple[str, tuple[Any, ...], dict[str, Any]]] = {
    op_id: (
        spec.name,
        *SAMPLES.get(op_id, (tuple(PATH_VALUES[key] for key in re.findall(r"\{(\w+)\}", spec.path)), {})),
    )
    for op_id, spec in OPERATIONS.items()
}


_SPEC = yaml.safe_load((Path(__file__).resolve().parents[1] / "openapi.yaml").read_text())

#: operationId -> the response statuses the spec declares for it.
RESPONSES: dict[str, frozenset[str]] = {
    operation["operationId"]: frozenset(operation["responses"])
    for item in _SPEC["paths"].values()
    for method, operation in item.items()
    if method != "parameters"
}


def facade_method(client: Any, dotted: str) -> Any:
    """The bound method at ``dotted`` (``jobs.pause``) of ``client``."""
    method: Any = client
    for part in dotted.split("."):
        method = getattr(method, part)
    return method
