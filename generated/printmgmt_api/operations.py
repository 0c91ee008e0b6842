"""Every operation of openapi.yaml and what the SDK declares about it (``x-printmgmt``), and what each
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


OPERATIONS: Final[dict[str, OperationSpec]] = {
    "getServiceRoot": OperationSpec(
        id="getServiceRoot",
        module="root.get_service_root",
        method="GET",
        path="/",
        name="service_root",
        repeat="safe",
        answer="open",
    ),
    "getVersionInfo": OperationSpec(
        id="getVersionInfo",
        module="root.get_version_info",
        method="GET",
        path="/v3/",
        name="version_info",
        repeat="safe",
        answer="open",
    ),
    "getUserRoles": OperationSpec(
        id="getUserRoles",
        module="auth.get_user_roles",
        method="GET",
        path="/v3/auth/userroles",
        name="auth.user_roles",
        repeat="safe",
        answer="open",
        wrap="roles",
    ),
    "getConfig": OperationSpec(
        id="getConfig",
        module="configs.get_config",
        method="GET",
        path="/v3/configs/",
        name="configs.get",
        repeat="safe",
        answer="open",
    ),
    "replaceConfig": OperationSpec(
        id="replaceConfig",
        module="configs.replace_config",
        method="PUT",
        path="/v3/configs/",
        name="configs.replace",
        repeat="idempotent",
        answer="written",
    ),
    "deleteConfig": OperationSpec(
        id="deleteConfig",
        module="configs.delete_config",
        method="DELETE",
        path="/v3/configs/",
        name="configs.delete",
        repeat="idempotent",
        answer="action",
    ),
    "listFlows": OperationSpec(
        id="listFlows",
        module="flows.list_flows",
        method="GET",
        path="/v3/flows/",
        name="flows.list",
        repeat="safe",
        answer="list",
        wrap="name",
    ),
    "createFlow": OperationSpec(
        id="createFlow",
        module="flows.create_flow",
        method="POST",
        path="/v3/flows/",
        name="flows.create",
        repeat="never",
        answer="written",
    ),
    "getFlow": OperationSpec(
        id="getFlow",
        module="flows.get_flow",
        method="GET",
        path="/v3/flows/{name}",
        name="flows.get",
        repeat="safe",
        target="flow",
        key="name",
    ),
    "deleteFlow": OperationSpec(
        id="deleteFlow",
        module="flows.delete_flow",
        method="DELETE",
        path="/v3/flows/{name}",
        name="flows.delete",
        repeat="idempotent",
        target="flow",
        key="name",
        answer="action",
    ),
    "listJobs": OperationSpec(
        id="listJobs",
        module="jobs.list_jobs",
        method="GET",
        path="/v3/jobs/",
        name="jobs.list",
        repeat="safe",
        pages=True,
        area="jobs",
    ),
    "getJobsMetadata": OperationSpec(
        id="getJobsMetadata",
        module="jobs.get_jobs_metadata",
        method="GET",
        path="/v3/jobs/metadata",
        name="jobs.metadata",
        repeat="safe",
        answer="open",
        area="jobs",
    ),
    "getJob": OperationSpec(
        id="getJob",
        module="jobs.get_job",
        method="GET",
        path="/v3/jobs/{id}",
        name="jobs.get",
        repeat="safe",
        target="job",
        key="id",
        area="jobs",
    ),
    "deleteJob": OperationSpec(
        id="deleteJob",
        module="jobs.delete_job",
        method="DELETE",
        path="/v3/jobs/{id}",
        name="jobs.delete",
        repeat="idempotent",
        target="job",
        key="id",
        answer="action",
        area="jobs",
    ),
    "cancelJob": OperationSpec(
        id="cancelJob",
        module="jobs.cancel_job",
        method="PUT",
        path="/v3/jobs/{id}/cancel",
        name="jobs.cancel",
        repeat="action",
        target="job",
        key="id",
        answer="action",
        area="jobs",
    ),
    "collectJob": OperationSpec(
        id="collectJob",
        module="jobs.collect_job",
        method="GET",
        path="/v3/jobs/{id}/collect",
        name="jobs.collect",
        repeat="safe",
        target="job",
        key="id",
        probe=False,
        area="jobs",
    ),
    "getJobLogfile": OperationSpec(
        id="getJobLogfile",
        module="jobs.get_job_logfile",
        method="GET",
        path="/v3/jobs/{id}/logfile",
        name="jobs.logfile",
        repeat="safe",
        target="job",
        key="id",
        area="jobs",
    ),
    "getJobLogs": OperationSpec(
        id="getJobLogs",
        module="jobs.get_job_logs",
        method="GET",
        path="/v3/jobs/{id}/logs",
        name="jobs.logs",
        repeat="safe",
        target="job",
        key="id",
        answer="list",
        wrap="message",
        area="jobs",
    ),
    "moveJob": OperationSpec(
        id="moveJob",
        module="jobs.move_job",
        method="PUT",
        path="/v3/jobs/{id}/move",
        name="jobs.move",
        repeat="action",
        target="job",
        key="id",
        answer="action",
        area="jobs",
    ),
    "getJobPageinfo": OperationSpec(
        id="getJobPageinfo",
        module="jobs.get_job_pageinfo",
        method="GET",
        path="/v3/jobs/{id}/pageinfo",
        name="jobs.pageinfo",
        repeat="safe",
        target="job",
        key="id",
        answer="open",
        wrap="pages",
        area="jobs",
    ),
    "pauseJob": OperationSpec(
        id="pauseJob",
        module="jobs.pause_job",
        method="PUT",
        path="/v3/jobs/{id}/pause",
        name="jobs.pause",
        repeat="action",
        target="job",
        key="id",
        answer="action",
        area="jobs",
    ),
    "repeatJob": OperationSpec(
        id="repeatJob",
        module="jobs.repeat_job",
        method="PUT",
        path="/v3/jobs/{id}/repeat",
        name="jobs.repeat",
        repeat="never",
        target="job",
        key="id",
        answer="action",
        area="jobs",
    ),
    "resumeJob": OperationSpec(
        id="resumeJob",
        module="jobs.resume_job",
        method="PUT",
        path="/v3/jobs/{id}/resume",
        name="jobs.resume",
        repeat="action",
        target="job",
        key="id",
        answer="action",
        area="jobs",
    ),
    "saveJobTempfiles": OperationSpec(
        id="saveJobTempfiles",
        module="jobs.save_job_tempfiles",
        method="PUT",
        path="/v3/jobs/{id}/tempfiles",
        name="jobs.tempfiles",
        repeat="action",
        target="job",
        key="id",
        answer="action",
        area="jobs",
    ),
    "listPrinters": OperationSpec(
        id="listPrinters",
        module="printers.list_printers",
        method="GET",
        path="/v3/printers/",
        name="printers.list",
        repeat="safe",
        pages=True,
        area="printers",
    ),
    "createPrinter": OperationSpec(
        id="createPrinter",
        module="printers.create_printer",
        method="POST",
        path="/v3/printers/",
        name="printers.create",
        repeat="never",
        answer="written",
        area="printers",
    ),
    "getPrintersMetadata": OperationSpec(
        id="getPrintersMetadata",
        module="printers.get_printers_metadata",
        method="GET",
        path="/v3/printers/metadata",
        name="printers.metadata",
        repeat="safe",
        answer="open",
        area="printers",
    ),
    "getPrinter": OperationSpec(
        id="getPrinter",
        module="printers.get_printer",
        method="GET",
        path="/v3/printers/{printerName}",
        name="printers.get",
        repeat="safe",
        target="printer",
        key="printerName",
        area="printers",
    ),
    "updatePrinter": OperationSpec(
        id="updatePrinter",
        module="printers.update_printer",
        method="PUT",
        path="/v3/printers/{printerName}",
        name="printers.update",
        repeat="idempotent",
        target="printer",
        key="printerName",
        answer="written",
        area="printers",
    ),
    "deletePrinter": OperationSpec(
        id="deletePrinter",
        module="printers.delete_printer",
        method="DELETE",
        path="/v3/printers/{printerName}",
        name="printers.delete",
        repeat="idempotent",
        target="printer",
        key="printerName",
        answer="action",
        area="printers",
    ),
    "checkPrinterPhysical": OperationSpec(
        id="checkPrinterPhysical",
        module="printers.check_printer_physical",
        method="PUT",
        path="/v3/printers/{printerName}/checkPhysical",
        name="printers.check_physical",
        repeat="action",
        target="printer",
        key="printerName",
        answer="action",
        area="printers",
    ),
    "createPrinterTestJob": OperationSpec(
        id="createPrinterTestJob",
        module="printers.create_printer_test_job",
        method="PUT",
        path="/v3/printers/{printerName}/createTestJob",
        name="printers.create_test_job",
        repeat="never",
        target="printer",
        key="printerName",
        answer="action",
        area="printers",
    ),
    "getPrinterLogs": OperationSpec(
        id="getPrinterLogs",
        module="printers.get_printer_logs",
        method="GET",
        path="/v3/printers/{printerName}/logs",
        name="printers.logs",
        repeat="safe",
        target="printer",
        key="printerName",
        answer="list",
        wrap="message",
        area="printers",
    ),
    "setPrinterMessage": OperationSpec(
        id="setPrinterMessage",
        module="printers.set_printer_message",
        method="PUT",
        path="/v3/printers/{printerName}/message",
        name="printers.set_message",
        repeat="action",
        target="printer",
        key="printerName",
        answer="action",
        area="printers",
    ),
    "clearPrinterMessage": OperationSpec(
        id="clearPrinterMessage",
        module="printers.clear_printer_message",
        method="DELETE",
        path="/v3/printers/{printerName}/message",
        name="printers.clear_message",
        repeat="idempotent",
        target="printer",
        key="printerName",
        answer="action",
        area="printers",
    ),
    "pausePrinter": OperationSpec(
        id="pausePrinter",
        module="printers.pause_printer",
        method="PUT",
        path="/v3/printers/{printerName}/pause",
        name="printers.pause",
        repeat="action",
        target="printer",
        key="printerName",
        answer="action",
        area="printers",
    ),
    "redirectPrinter": OperationSpec(
        id="redirectPrinter",
        module="printers.redirect_printer",
        method="PUT",
        path="/v3/printers/{printerName}/redirect",
        name="printers.redirect",
        repeat="action",
        target="printer",
        key="printerName",
        answer="action",
        area="printers",
    ),
    "resumePrinter": OperationSpec(
        id="resumePrinter",
        module="printers.resume_printer",
        method="PUT",
        path="/v3/printers/{printerName}/resume",
        name="printers.resume",
        repeat="action",
        target="printer",
        key="printerName",
        answer="action",
        area="printers",
    ),
    "updatePrinterRuntime": OperationSpec(
        id="updatePrinterRuntime",
        module="printers.update_printer_runtime",
        method="PUT",
        path="/v3/printers/{printerName}/runtime",
        name="printers.update_runtime",
        repeat="action",
        target="printer",
        key="printerName",
        answer="action",
        area="printers",
    ),
    "getJobCount": OperationSpec(
        id="getJobCount",
        module="statistics.get_job_count",
        method="GET",
        path="/v3/statistics/job-count",
        name="statistics.job_count",
        repeat="safe",
        answer="open",
        area="dashboard",
    ),
    "getJobSeries": OperationSpec(
        id="getJobSeries",
        module="statistics.get_job_series",
        method="GET",
        path="/v3/statistics/job-series",
        name="statistics.job_series",
        repeat="safe",
        answer="open",
        area="dashboard",
    ),
    "getStatisticsMetadata": OperationSpec(
        id="getStatisticsMetadata",
        module="statistics.get_statistics_metadata",
        method="GET",
        path="/v3/statistics/metadata",
        name="statistics.metadata",
        repeat="safe",
        answer="open",
        area="dashboard",
    ),
    "getPrinterCount": OperationSpec(
        id="getPrinterCount",
        module="statistics.get_printer_count",
        method="GET",
        path="/v3/statistics/printer-count",
        name="statistics.printer_count",
        repeat="safe",
        answer="open",
        area="dashboard",
    ),
}

#: The same, by generated module (``jobs.pause_job``).
BY_MODULE: Final = {spec.module: spec for spec in OPERATIONS.values()}

#: The same, by client method (``jobs.pause``).
BY_NAME: Final = {spec.name: spec for spec in OPERATIONS.values()}
