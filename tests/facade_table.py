"""The facade call that exercises each operation of openapi.yaml, with sample arguments.

Shared by ``test_coverage.py`` (respx) and ``referees/`` (Prism): every operationId maps to the dotted
attribute path of its :class:`~printmgmt.PrintClient` method, positional arguments and keyword arguments.
The path arguments are the values of :data:`PATH_VALUES`.
"""

from __future__ import annotations

from typing import Any

# operationId -> (facade attribute path, positional args, keyword args)
FACADE: dict[str, tuple[str, tuple[Any, ...], dict[str, Any]]] = {
    "getServiceRoot": ("service_root", (), {}),
    "getVersionInfo": ("version_info", (), {}),
    "getUserRoles": ("auth.user_roles", (), {}),
    "getConfig": ("configs.get", (), {}),
    "replaceConfig": ("configs.replace", ({"any": {"LOG_LEVEL": "debug"}},), {}),
    "deleteConfig": ("configs.delete", (), {}),
    "listFlows": ("flows.list", (), {}),
    "createFlow": ("flows.create", ({"name": "f1", "source": "def main() {}"},), {}),
    "getFlow": ("flows.get", ("f1",), {}),
    "deleteFlow": ("flows.delete", ("f1",), {}),
    "listJobs": ("jobs.list", (), {}),
    "getJobsMetadata": ("jobs.metadata", (), {}),
    "getJob": ("jobs.get", ("j1",), {}),
    "deleteJob": ("jobs.delete", ("j1",), {}),
    "cancelJob": ("jobs.cancel", ("j1",), {}),
    "collectJob": ("jobs.collect", ("j1",), {}),
    "getJobLogfile": ("jobs.logfile", ("j1",), {}),
    "getJobLogs": ("jobs.logs", ("j1",), {}),
    "moveJob": ("jobs.move", ("j1",), {"printer": "p2"}),
    "getJobPageinfo": ("jobs.pageinfo", ("j1",), {}),
    "pauseJob": ("jobs.pause", ("j1",), {}),
    "repeatJob": ("jobs.repeat", ("j1",), {}),
    "resumeJob": ("jobs.resume", ("j1",), {}),
    "saveJobTempfiles": ("jobs.tempfiles", ("j1",), {}),
    "listPrinters": ("printers.list", (), {}),
    "createPrinter": ("printers.create", ({"_id": "p1", "config": {"printer": "p1"}},), {}),
    "getPrintersMetadata": ("printers.metadata", (), {}),
    "getPrinter": ("printers.get", ("p1",), {}),
    "updatePrinter": ("printers.update", ("p1", {"_id": "p1", "config": {"printer": "p1"}}), {}),
    "deletePrinter": ("printers.delete", ("p1",), {}),
    "checkPrinterPhysical": ("printers.check_physical", ("p1",), {}),
    "createPrinterTestJob": ("printers.create_test_job", ("p1",), {}),
    "getPrinterLogs": ("printers.logs", ("p1",), {}),
    "setPrinterMessage": ("printers.set_message", ("p1", "toner low"), {}),
    "clearPrinterMessage": ("printers.clear_message", ("p1",), {}),
    "pausePrinter": ("printers.pause", ("p1",), {}),
    "redirectPrinter": ("printers.redirect", ("p1",), {"to": "p2"}),
    "resumePrinter": ("printers.resume", ("p1",), {}),
    "updatePrinterRuntime": ("printers.update_runtime", ("p1", {"queuedJobs": 0}), {}),
    "getJobCount": ("statistics.job_count", (), {}),
    "getJobSeries": ("statistics.job_series", (), {}),
    "getStatisticsMetadata": ("statistics.metadata", (), {}),
    "getPrinterCount": ("statistics.printer_count", (), {}),
}

#: The path parameter values the sample arguments above use.
PATH_VALUES = {"id": "j1", "printerName": "p1", "name": "f1"}
