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
from ._version import __version__ as __version__

if TYPE_CHECKING:  # what type checkers and IDEs see; at run time the names below load on first use
    from . import errors as errors
    from . import models as models
    from . import odata as odata
    from ._async.pager import Pager as Pager
    from ._call import NOT_GIVEN as NOT_GIVEN
    from ._call import CallOptions as CallOptions
    from ._call import NotGiven as NotGiven
    from ._network import DEFAULT_TIMEOUT as DEFAULT_TIMEOUT
    from .auth import CLIENT_IDS as CLIENT_IDS
    from .auth import BearerToken as BearerToken
    from .auth import ClientKind as ClientKind
    from .auth import PasswordAuth as PasswordAuth
    from .auth import SessionAuth as SessionAuth
    from .bulk import BulkResult as BulkResult
    from .bulk import Outcome as Outcome
    from .bulk import OutcomeStatus as OutcomeStatus
    from .client import PrintClient as PrintClient
    from .errors import *  # noqa: F403  (the error classes: errors.__all__ names them, once)
    from .models import ActionResult as ActionResult
    from .models import Flow as Flow
    from .models import Job as Job
    from .models import JobStatus as JobStatus
    from .models import Printer as Printer
    from .pagination import Page as Page
    from .retry import Repeatability as Repeatability
    from .retry import RetryPolicy as RetryPolicy
    from .tables import to_pandas as to_pandas

# Public name -> the module that defines it, imported when one of its names is first used: importing the package
# stays cheap (scripts, the command line). tests/test_imports.py checks the TYPE_CHECKING block against these.
_EXPORTS: dict[str, str] = {
    **dict.fromkeys(["errors", "models", "odata"], ""),
    **dict.fromkeys(["CallOptions", "NOT_GIVEN", "NotGiven"], "_call"),
    **dict.fromkeys(["CLIENT_IDS", "BearerToken", "ClientKind", "PasswordAuth", "SessionAuth"], "auth"),
    **dict.fromkeys(["BulkResult", "Outcome", "OutcomeStatus"], "bulk"),
    "DEFAULT_TIMEOUT": "_network",
    "PrintClient": "client",
    **dict.fromkeys(["ActionResult", "Flow", "Job", "JobStatus", "Printer"], "models"),
    "Page": "pagination",
    "Pager": "_async.pager",
    **dict.fromkeys(["Repeatability", "RetryPolicy"], "retry"),
    "to_pandas": "tables",
}


def _error_names() -> list[str]:
    """The error classes of :mod:`printmgmt.errors`, all public at the top (loads the module, and httpx)."""
    from . import errors

    return [name for name in errors.__all__ if isinstance(getattr(errors, name), type)]


def __getattr__(name: str) -> Any:
    if name == "__all__":  # asked by "from printmgmt import *" and tools: the error names load then
        return [*_EXPORTS, *_error_names(), "__version__"]
    module = _EXPORTS.get(name)
    if module is None and name[:1].isupper() and name in _error_names():  # a class name: maybe an error
        module = "errors"
    if module is None:
        raise AttributeError(f"module 'printmgmt' has no attribute {name!r}")
    value = importlib.import_module(f".{module or name}", __name__)
    if module:
        value = getattr(value, name)
    globals()[name] = value  # later lookups skip this function
    return value


def __dir__() -> list[str]:
    return sorted(__getattr__("__all__"))


_configure_logging()
