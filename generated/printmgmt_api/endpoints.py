"""Every operation's endpoint module as values, by operationId: what reaches each operation
without looking a module up by its name (``printmgmt doctor`` asks every safe one).

Written by ``templates/operations_table.py`` during ``make generate``; do not edit.
"""

from collections.abc import Callable
from typing import Any, Final

from attrs import define

from .api.auth import get_user_roles
from .api.configs import delete_config
from .api.configs import get_config
from .api.configs import replace_config
from .api.flows import create_flow
from .api.flows import delete_flow
from .api.flows import get_flow
from .api.flows import list_flows
from .api.jobs import cancel_job
from .api.jobs import collect_job
from .api.jobs import delete_job
from .api.jobs import get_job
from .api.jobs import get_job_logfile
from .api.jobs import get_job_logs
from .api.jobs import get_job_pageinfo
from .api.jobs import get_jobs_metadata
from .api.jobs import list_jobs
from .api.jobs import move_job
from .api.jobs import pause_job
from .api.jobs import repeat_job
from .api.jobs import resume_job
from .api.jobs import save_job_tempfiles
from .api.printers import check_printer_physical
from .api.printers import clear_printer_message
from .api.printers import create_printer
from .api.printers import create_printer_test_job
from .api.printers import delete_printer
from .api.printers import get_printer
from .api.printers import get_printer_logs
from .api.printers import get_printers_metadata
from .api.printers import list_printers
from .api.printers import pause_printer
from .api.printers import redirect_printer
from .api.printers import resume_printer
from .api.printers import set_printer_message
from .api.printers import update_printer
from .api.printers import update_printer_runtime
from .api.root import get_service_root
from .api.root import get_version_info
from .api.statistics import get_job_count
from .api.statistics import get_job_series
from .api.statistics import get_printer_count
from .api.statistics import get_statistics_metadata
from .operations import Operation, Request


@define(frozen=True, slots=True)
class Endpoint:
    """One endpoint module: how its answer is read, and its ``request(...)`` builder."""

    operation: Operation[Any]
    request: Callable[..., Request[Any]]


ENDPOINTS: Final[dict[str, Endpoint]] = {
    "getServiceRoot": Endpoint(get_service_root.OPERATION, get_service_root.request),
    "getVersionInfo": Endpoint(get_version_info.OPERATION, get_version_info.request),
    "getUserRoles": Endpoint(get_user_roles.OPERATION, get_user_roles.request),
    "getConfig": Endpoint(get_config.OPERATION, get_config.request),
    "replaceConfig": Endpoint(replace_config.OPERATION, replace_config.request),
    "deleteConfig": Endpoint(delete_config.OPERATION, delete_config.request),
    "listFlows": Endpoint(list_flows.OPERATION, list_flows.request),
    "createFlow": Endpoint(create_flow.OPERATION, create_flow.request),
    "getFlow": Endpoint(get_flow.OPERATION, get_flow.request),
    "deleteFlow": Endpoint(delete_flow.OPERATION, delete_flow.request),
    "listJobs": Endpoint(list_jobs.OPERATION, list_jobs.request),
    "getJobsMetadata": Endpoint(get_jobs_metadata.OPERATION, get_jobs_metadata.request),
    "getJob": Endpoint(get_job.OPERATION, get_job.request),
    "deleteJob": Endpoint(delete_job.OPERATION, delete_job.request),
    "cancelJob": Endpoint(cancel_job.OPERATION, cancel_job.request),
    "collectJob": Endpoint(collect_job.OPERATION, collect_job.request),
    "getJobLogfile": Endpoint(get_job_logfile.OPERATION, get_job_logfile.request),
    "getJobLogs": Endpoint(get_job_logs.OPERATION, get_job_logs.request),
    "moveJob": Endpoint(move_job.OPERATION, move_job.request),
    "getJobPageinfo": Endpoint(get_job_pageinfo.OPERATION, get_job_pageinfo.request),
    "pauseJob": Endpoint(pause_job.OPERATION, pause_job.request),
    "repeatJob": Endpoint(repeat_job.OPERATION, repeat_job.request),
    "resumeJob": Endpoint(resume_job.OPERATION, resume_job.request),
    "saveJobTempfiles": Endpoint(save_job_tempfiles.OPERATION, save_job_tempfiles.request),
    "listPrinters": Endpoint(list_printers.OPERATION, list_printers.request),
    "createPrinter": Endpoint(create_printer.OPERATION, create_printer.request),
    "getPrintersMetadata": Endpoint(get_printers_metadata.OPERATION, get_printers_metadata.request),
    "getPrinter": Endpoint(get_printer.OPERATION, get_printer.request),
    "updatePrinter": Endpoint(update_printer.OPERATION, update_printer.request),
    "deletePrinter": Endpoint(delete_printer.OPERATION, delete_printer.request),
    "checkPrinterPhysical": Endpoint(check_printer_physical.OPERATION, check_printer_physical.request),
    "createPrinterTestJob": Endpoint(create_printer_test_job.OPERATION, create_printer_test_job.request),
    "getPrinterLogs": Endpoint(get_printer_logs.OPERATION, get_printer_logs.request),
    "setPrinterMessage": Endpoint(set_printer_message.OPERATION, set_printer_message.request),
    "clearPrinterMessage": Endpoint(clear_printer_message.OPERATION, clear_printer_message.request),
    "pausePrinter": Endpoint(pause_printer.OPERATION, pause_printer.request),
    "redirectPrinter": Endpoint(redirect_printer.OPERATION, redirect_printer.request),
    "resumePrinter": Endpoint(resume_printer.OPERATION, resume_printer.request),
    "updatePrinterRuntime": Endpoint(update_printer_runtime.OPERATION, update_printer_runtime.request),
    "getJobCount": Endpoint(get_job_count.OPERATION, get_job_count.request),
    "getJobSeries": Endpoint(get_job_series.OPERATION, get_job_series.request),
    "getStatisticsMetadata": Endpoint(get_statistics_metadata.OPERATION, get_statistics_metadata.request),
    "getPrinterCount": Endpoint(get_printer_count.OPERATION, get_printer_count.request),
}
