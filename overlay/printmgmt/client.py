"""The public door of the async ``PrintClient`` and its namespaces' types (``client.jobs``, ``client.printers``):
the class is ``printmgmt._async.client``'s, because ``printmgmt._sync.client`` is generated from it."""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

from ._async.client import PrintClient
from ._network import DEFAULT_TIMEOUT, DEFAULT_TRANSPORT, TransportName
from .settings import Verify

if TYPE_CHECKING:
    from ._async.resources.jobs import JobsResource as JobsResource
    from ._async.resources.printers import PrintersResource as PrintersResource

__all__ = [
    "DEFAULT_TIMEOUT",
    "DEFAULT_TRANSPORT",
    "JobsResource",
    "PrintClient",
    "PrintersResource",
    "TransportName",
    "Verify",
]


def __getattr__(name: str) -> Any:
    # the namespaces' modules load with the first namespace used, not with the client
    module = {"JobsResource": "jobs", "PrintersResource": "printers"}.get(name)
    if module is None:
        raise AttributeError(f"module 'printmgmt.client' has no attribute {name!r}")
    return getattr(importlib.import_module(f"._async.resources.{module}", __package__), name)
