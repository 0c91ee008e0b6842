"""Contains all the data models used in inputs/outputs"""

from .action_result import ActionResult
from .config import Config
from .error import Error
from .error_metadata import ErrorMetadata
from .flow import Flow
from .inline_count import InlineCount
from .job import Job
from .job_attributes import JobAttributes
from .job_collection import JobCollection
from .job_stage import JobStage
from .job_stage_context import JobStageContext
from .job_status import JobStatus
from .log_entry import LogEntry
from .metadata import Metadata
from .move_request import MoveRequest
from .page_detail import PageDetail
from .page_info import PageInfo
from .printer import Printer
from .printer_collection import PrinterCollection
from .printer_config import PrinterConfig
from .printer_message import PrinterMessage
from .printer_physical import PrinterPhysical
from .printer_runtime import PrinterRuntime
from .redirect_request import RedirectRequest
from .service_info import ServiceInfo
from .statistics import Statistics
from .user_roles import UserRoles

__all__ = (
    "ActionResult",
    "Config",
    "Error",
    "ErrorMetadata",
    "Flow",
    "InlineCount",
    "Job",
    "JobAttributes",
    "JobCollection",
    "JobStage",
    "JobStageContext",
    "JobStatus",
    "LogEntry",
    "Metadata",
    "MoveRequest",
    "PageDetail",
    "PageInfo",
    "Printer",
    "PrinterCollection",
    "PrinterConfig",
    "PrinterMessage",
    "PrinterPhysical",
    "PrinterRuntime",
    "RedirectRequest",
    "ServiceInfo",
    "Statistics",
    "UserRoles",
)
