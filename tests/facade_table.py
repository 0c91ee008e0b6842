"""The facade call that exercises each operation of openapi.yaml, with sample arguments.

Shared by ``test_coverage.py`` (respx) and ``referees/`` (Prism): every operationId maps to the dotted
attribute path of its :class:`~printmgmt.PrintClient` method (its ``x-printmgmt`` name in the spec),
positional arguments and keyword arguments. The path arguments are the values of :data:`PATH_VALUES`.
"""

from __future__ import annotations

from typing import Any

from printmgmt_api.operations import OPERATIONS

# operationId -> (positional args, keyword args) of a sample call
SAMPLES: dict[str, tuple[tuple[Any, ...], dict[str, Any]]] = {
    "getServiceRoot": ((), {}),
    "getVersionInfo": ((), {}),
    "getUserRoles": ((), {}),
    "getConfig": ((), {}),
    "replaceConfig": (({"any": {"LOG_LEVEL": "debug"}},), {}),
    "deleteConfig": ((), {}),
    "listFlows": ((), {}),
    "createFlow": (({"name": "f1", "source": "def main() {}"},), {}),
    "getFlow": (("f1",), {}),
    "deleteFlow": (("f1",), {}),
    "listJobs": ((), {}),
    "getJobsMetadata": ((), {}),
    "getJob": (("j1",), {}),
    "deleteJob": (("j1",), {}),
    "cancelJob": (("j1",), {}),
    "collectJob": (("j1",), {}),
    "getJobLogfile": (("j1",), {}),
    "getJobLogs": (("j1",), {}),
    "moveJob": (("j1",), {"printer": "p2"}),
    "getJobPageinfo": (("j1",), {}),
    "pauseJob": (("j1",), {}),
    "repeatJob": (("j1",), {}),
    "resumeJob": (("j1",), {}),
    "saveJobTempfiles": (("j1",), {}),
    "listPrinters": ((), {}),
    "createPrinter": (({"_id": "p1", "config": {"printer": "p1"}},), {}),
    "getPrintersMetadata": ((), {}),
    "getPrinter": (("p1",), {}),
    "updatePrinter": (("p1", {"_id": "p1", "config": {"printer": "p1"}}), {}),
    "deletePrinter": (("p1",), {}),
    "checkPrinterPhysical": (("p1",), {}),
    "createPrinterTestJob": (("p1",), {}),
    "getPrinterLogs": (("p1",), {}),
    "setPrinterMessage": (("p1", "toner low"), {}),
    "clearPrinterMessage": (("p1",), {}),
    "pausePrinter": (("p1",), {}),
    "redirectPrinter": (("p1",), {"to": "p2"}),
    "resumePrinter": (("p1",), {}),
    "updatePrinterRuntime": (("p1", {"queuedJobs": 0}), {}),
    "getJobCount": ((), {}),
    "getJobSeries": ((), {}),
    "getStatisticsMetadata": ((), {}),
    "getPrinterCount": ((), {}),
}

# operationId -> (facade attribute path, positional args, keyword args)
FACADE: dict[str, tuple[str, tuple[Any, ...], dict[str, Any]]] = {
    op_id: (OPERATIONS[op_id].name, *sample) for op_id, sample in SAMPLES.items()
}

#: The path parameter values the sample arguments above use.
PATH_VALUES = {"id": "j1", "printerName": "p1", "name": "f1"}
