"""printmgmt: async Python SDK for the Print Job and Printer Management REST Interface (v3).

::

    from printmgmt import PrintClient, PasswordAuth, odata

    auth = PasswordAuth(auth_url=..., realm="SEAL", client_id=..., client_secret=..., username=..., password=...)
    async with PrintClient(base_url, auth=auth) as client:
        async for job in client.jobs.iterate(filter=odata.field("status") == "Error"):
            print(job.id, job.status)
"""

from . import errors, models, odata
from ._logging import configure_from_env as _configure_logging
from ._version import __version__
from .auth import CLIENT_IDS, BearerToken, ClientKind, PasswordAuth
from .bulk import BulkResult, Outcome, OutcomeStatus
from .client import DEFAULT_TIMEOUT, PrintClient
from .errors import (
    ApiError,
    AuthenticationError,
    BadRequest,
    Forbidden,
    InvalidResponse,
    NotFound,
    PreconditionFailed,
    PrintMgmtError,
    RequestTimeout,
    ServerError,
    TransportError,
    Unauthorized,
)
from .models import ActionResult, Flow, Job, JobStatus, Printer
from .pagination import Page, Pager
from .retry import Repeatability, RetryPolicy

_configure_logging()

__all__ = [
    "CLIENT_IDS",
    "DEFAULT_TIMEOUT",
    "ActionResult",
    "ApiError",
    "AuthenticationError",
    "BadRequest",
    "BearerToken",
    "BulkResult",
    "ClientKind",
    "Flow",
    "Forbidden",
    "InvalidResponse",
    "Job",
    "JobStatus",
    "NotFound",
    "Outcome",
    "OutcomeStatus",
    "Page",
    "Pager",
    "PasswordAuth",
    "PreconditionFailed",
    "PrintClient",
    "PrintMgmtError",
    "Printer",
    "Repeatability",
    "RequestTimeout",
    "RetryPolicy",
    "ServerError",
    "TransportError",
    "Unauthorized",
    "__version__",
    "errors",
    "models",
    "odata",
]
