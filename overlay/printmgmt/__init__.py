"""printmgmt: async Python SDK for the Print Job and Printer Management REST Interface (v3).

::

    from printmgmt import PrintClient, PasswordAuth, odata

    auth = PasswordAuth(auth_url=..., realm="SEAL", client_id=..., client_secret=..., username=..., password=...)
    async with PrintClient(base_url, auth=auth) as client:
        async for job in client.jobs.iterate(filter=odata.field("status") == "Error"):
            print(job.id, job.status)
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from ._logging import configure_from_env as _configure_logging
from ._version import __version__

if TYPE_CHECKING:  # what type checkers and IDEs see; at run time the names below load on first use
    from . import errors, models, odata
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
    from .tables import to_pandas

# Public name -> the module that defines it. Importing the package stays cheap (scripts, the command line,
# notebooks pay it on every start); each module is imported when one of its names is first used.
_EXPORTS: dict[str, str] = {
    **dict.fromkeys(["errors", "models", "odata"], ""),
    **dict.fromkeys(["CLIENT_IDS", "BearerToken", "ClientKind", "PasswordAuth"], "auth"),
    **dict.fromkeys(["BulkResult", "Outcome", "OutcomeStatus"], "bulk"),
    **dict.fromkeys(["DEFAULT_TIMEOUT", "PrintClient"], "client"),
    **dict.fromkeys(
        [
            "ApiError",
            "AuthenticationError",
            "BadRequest",
            "Forbidden",
            "InvalidResponse",
            "NotFound",
            "PreconditionFailed",
            "PrintMgmtError",
            "RequestTimeout",
            "ServerError",
            "TransportError",
            "Unauthorized",
        ],
        "errors",
    ),
    **dict.fromkeys(["ActionResult", "Flow", "Job", "JobStatus", "Printer"], "models"),
    **dict.fromkeys(["Page", "Pager"], "pagination"),
    **dict.fromkeys(["Repeatability", "RetryPolicy"], "retry"),
    "to_pandas": "tables",
}


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'printmgmt' has no attribute {name!r}")
    value = importlib.import_module(f".{module or name}", __name__)
    if module:
        value = getattr(value, name)
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_EXPORTS])


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
    "to_pandas",
]
